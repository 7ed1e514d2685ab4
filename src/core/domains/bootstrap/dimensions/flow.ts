import type { KnowledgeType } from '../../knowledge/types';
import { confidence, type Tally } from '../evidence';
import { factsOf } from '../facts';
import { distinctTails, fit, nameList } from '../form';
import { fileList, type Signal, SignalAnalyzer, type SignalView } from '../signals';
import { FAMILY_LABEL } from '../source';
import type { CandidateDraft, Family, SourceFile } from '../types';
import { languageOf } from './standards';

interface Mechanism {
  id: string;
  families: Family[];
  re: RegExp;
  /** The library that gives the idiom its meaning: a match counts only in a file that imports it. */
  requires: string[];
  type: KnowledgeType;
  title: string;
  explain: string;
}

/** The ways state and events move that the scan can recognise, with what each means for a newcomer. */
const MECHANISMS: Mechanism[] = [
  {
    id: 'vscode-events',
    families: ['jsts'],
    re: /\bnew\s+(?:vscode\.)?EventEmitter\s*<|\breadonly\s+onDid\w+\s*[:=]/g,
    requires: ['vscode'],
    type: 'event-flow',
    title: 'Events are `vscode.EventEmitter`s exposed as `onDid…` properties',
    explain:
      'Components publish changes through an EventEmitter and expose its `event` as a read-only `onDid…` property; listeners return Disposables.',
  },
  {
    id: 'node-events',
    families: ['jsts'],
    re: /\bextends\s+EventEmitter\b|\bnew\s+EventEmitter\s*\(\s*\)/g,
    requires: ['events', 'node:events', 'eventemitter3'],
    type: 'event-flow',
    title: 'Components communicate through Node `EventEmitter` events',
    explain: 'Producers `emit` named events; consumers subscribe with `on`.',
  },
  {
    id: 'rxjs',
    families: ['jsts'],
    re:
      /\bnew\s+(?:Behavior|Replay|Async)?Subject\s*<|\bObservable\s*<|\.pipe\s*\(\s*(?:map|filter|switchMap|mergeMap|tap)\b/g,
    requires: ['rxjs'],
    type: 'data-flow',
    title: 'State flows through RxJS observables',
    explain: 'Subjects hold state; consumers derive streams with `pipe` operators.',
  },
  {
    id: 'redux',
    families: ['jsts'],
    re: /\bcreateSlice\s*\(|\bconfigureStore\s*\(|\buseSelector\s*\(|\buseDispatch\s*\(/g,
    requires: ['redux', '@reduxjs/toolkit', 'react-redux'],
    type: 'data-flow',
    title: 'Application state lives in a Redux store',
    explain: 'Slices own state and reducers; components read with useSelector and write with dispatched actions.',
  },
  {
    id: 'stores',
    families: ['jsts'],
    re: /\bdefineStore\s*\(|\bcreate\s*\(\s*\(\s*set\b|\bcreateStore\s*\(/g,
    requires: ['pinia', 'zustand', 'redux'],
    type: 'data-flow',
    title: 'Shared state lives in stores (Pinia/Zustand style)',
    explain: 'State and its mutations are defined together in a store module.',
  },
  {
    id: 'server-state',
    families: ['jsts'],
    re: /\buseQuery\s*\(|\buseMutation\s*\(|\buseSWR\s*\(/g,
    requires: ['@tanstack/react-query', 'react-query', 'swr', '@tanstack/vue-query'],
    type: 'data-flow',
    title: 'Server data is fetched and cached with query hooks',
    explain: 'Components read remote data through useQuery/useSWR instead of fetching in effects.',
  },
  {
    id: 'react-context',
    families: ['jsts'],
    re: /(?:(?<![\w$.])|(?<=\bReact\.))(?:createContext\s*[<(]|useContext\s*\()/g,
    requires: ['react', 'preact'],
    type: 'data-flow',
    title: 'Cross-cutting state is shared through React context',
    explain: 'Providers own the state; consumers read it with useContext.',
  },
  {
    id: 'swiftui-state',
    families: ['swift'],
    re: /@(?:StateObject|ObservedObject|EnvironmentObject|Observable|Published|Bindable)\b/g,
    requires: ['SwiftUI', 'Observation', 'Combine'],
    type: 'data-flow',
    title: 'SwiftUI state is owned by observable models',
    explain: 'View models are observable; views own them with @StateObject/@State and children observe them.',
  },
  {
    id: 'combine',
    families: ['swift'],
    re: /\b(?:PassthroughSubject|CurrentValueSubject|AnyCancellable)\b|\.sink\s*\{/g,
    requires: ['Combine'],
    type: 'data-flow',
    title: 'Values are streamed with Combine publishers',
    explain: 'Subjects publish; subscribers `sink` and keep AnyCancellables.',
  },
  // Apart: a project with one of them is not told it uses the other (a project on Kotlin Flow may have no LiveData).
  {
    id: 'kotlin-flow',
    families: ['kotlin'],
    re: /\bMutableStateFlow\b|\bStateFlow\s*<|\.stateIn\s*\(/g,
    requires: ['kotlinx.coroutines.flow'],
    type: 'data-flow',
    title: 'State reaches the UI as read-only StateFlow',
    explain:
      'State the UI shows is held in read-only StateFlow (often made from a Flow with stateIn) that the UI collects.',
  },
  {
    id: 'livedata',
    families: ['kotlin'],
    re: /\bMutableLiveData\b|\bLiveData\s*</g,
    requires: ['androidx.lifecycle'],
    type: 'data-flow',
    title: 'UI state is exposed as LiveData',
    explain: 'View models expose their UI state as read-only LiveData that the UI observes.',
  },
  {
    id: 'python-signals',
    families: ['python'],
    re: /@receiver\s*\(|\bSignal\s*\(|\.connect\s*\(\s*\w+/g,
    requires: ['django', 'blinker'],
    type: 'event-flow',
    title: 'Decoupled reactions are wired with signals',
    explain: 'Senders fire signals; receivers connect handlers.',
  },
];

/** `os.Getenv(configEnvVar(…))`: the variable's name comes from a function of the project. */
const ENV_NAME_BUILDER =
  /\b(?:os\.(?:Getenv|LookupEnv|getenv)|os\.environ\.get|env::var|System\.getenv)\s*\(\s*(?:[A-Za-z_]\w*\.)*([A-Za-z_]\w*)\s*\(/g;

/** The least share of the production files of a language that use a mechanism for it to be the project's way. */
const MECHANISM_SHARE = 0.05;

/** A declaration line of an interface, protocol, trait or abstract class (Python: an ABC or a Protocol). */
const ABSTRACTION = /\b(?:interface|protocol|trait|abstract)\b|^\s*class\s+\w+\s*\([^)]*\b(?:ABC|ABCMeta|Protocol)\b/;

/** Where one kind of side effect happens; few files means a boundary worth keeping. */
/** What a boundary's count counts, said as such. */
const SITES: Record<string, string> = {
  http: 'places that make HTTP requests or set up an HTTP client',
  env: 'places that read environment variables',
  sql: 'places that write SQL',
};

const BOUNDARIES: { id: string; what: string; families: Family[]; re: RegExp; raw?: boolean; hints?: string[] }[] = [
  {
    id: 'http',
    what: 'HTTP requests',
    families: ['jsts'],
    re: /(?<![\w$.])fetch\s*\(|\baxios(?:\.\w+)?\s*\(|\bgot\s*\(|\bhttps?\.request\s*\(/g,
  },
  {
    id: 'http',
    what: 'HTTP requests',
    families: ['swift'],
    re: /\bURLSession\.shared\b|\.dataTask\s*\(|\bURLSession\s*\(\s*configuration|\bAF\.request\b/g,
  },
  {
    id: 'http',
    what: 'HTTP requests',
    families: ['objc'],
    re: /\b(?:dataTaskWith\w+|downloadTaskWith\w+|uploadTaskWith\w+|sessionWithConfiguration):/g,
  },
  // Calls and clients, not the library's types (a test client's `_types…` annotations are no requests).
  {
    id: 'http',
    what: 'HTTP requests',
    families: ['python'],
    re:
      /\b(?:requests|httpx)\.(?:get|post|put|patch|delete|head|options|request|stream|Session|Client|AsyncClient)\s*\(|\baiohttp\.ClientSession\s*\(/g,
  },
  {
    id: 'http',
    what: 'HTTP requests',
    families: ['go'],
    re: /\bhttp\.(?:Get|Post|NewRequest|NewRequestWithContext|DefaultClient)\b|&http\.Client\s*\{/g,
  },
  {
    id: 'http',
    what: 'HTTP requests',
    families: ['java', 'kotlin'],
    re:
      /\bOkHttpClient\b|\bHttpClient\.new|\bRetrofit\.Builder\b|\bWebClient\.create\b|(?<![\w.])HttpClient\s*[({]|\.newCall\s*\(/g,
  },
  { id: 'env', what: 'Environment variables', families: ['jsts'], re: /\bprocess\.env\b/g },
  // urllib's getproxies() reads the *_proxy variables.
  {
    id: 'env',
    what: 'Environment variables',
    families: ['python'],
    re: /\bos\.environ\b|\bos\.getenv\s*\(|(?<![\w.])getproxies(?:_environment)?\s*\(|\brequest\.getproxies\s*\(/g,
  },
  { id: 'env', what: 'Environment variables', families: ['go'], re: /\bos\.(?:Getenv|LookupEnv)\s*\(/g },
  { id: 'env', what: 'Environment variables', families: ['rust'], re: /\benv::var\s*\(/g },
  { id: 'env', what: 'Environment variables', families: ['java', 'kotlin'], re: /\bSystem\.getenv\s*\(/g },
  {
    id: 'sql',
    what: 'SQL statements',
    families: ['jsts', 'python', 'go', 'java', 'kotlin', 'rust', 'swift'],
    re: /['"`]\s*(?:SELECT\s+[\w*(]|INSERT\s+INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s|CREATE\s+(?:TABLE|INDEX)\s)/g,
    raw: true,
    hints: ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'CREATE'],
  },
  // Django migrations write SQL too (`RunSQL(…)`), whatever their statements begin with.
  { id: 'sql', what: 'SQL statements', families: ['python'], re: /\bRunSQL\s*\(/g },
];

/**
 * Dimension 5, event and data flow, over production code: the state and event mechanisms the project
 * builds on (an idiom counts only where its library is imported: `createContext` is React's only in a
 * file that imports React), and where side effects are confined.
 */
export class FlowAnalyzer extends SignalAnalyzer {
  protected readonly signals: Signal[] = [
    ...MECHANISMS.map((m) => ({ id: m.id, families: m.families, re: m.re, requires: m.requires })),
    ...BOUNDARIES.map((b) => ({
      id: `boundary-${b.id}`,
      families: b.families,
      re: b.re,
      raw: b.raw,
      hints: b.hints,
      skipImports: true,
    })),
  ];

  /** Functions that build the names of environment variables (a `configEnvVar(name, suffix)`), with their uses. */
  private readonly envNameBuilders = new Map<string, number>();

  /** Production types by file, with what they extend or implement: the abstraction a boundary hides behind. */
  private readonly typesOf = new Map<string, { name: string; bases: string[] }[]>();
  private readonly projectTypes = new Map<string, string>();
  private readonly abstractions = new Set<string>();

  override visit(file: SourceFile): void {
    super.visit(file);
    if (file.kind !== 'production') return;
    for (const m of file.code.matchAll(ENV_NAME_BUILDER)) {
      this.envNameBuilders.set(m[1], (this.envNameBuilders.get(m[1]) ?? 0) + 1);
    }
    const types = factsOf(file).decls.filter((d) => d.kind === 'type' && !d.member);
    for (const t of types) {
      this.projectTypes.set(t.name, file.path);
      // An interface a boundary can hide behind: declared as one (or a Python ABC or Protocol), not any base class
      // (a test client is not reached through `WebSocketDisconnect`, an exception).
      if (ABSTRACTION.test(file.lines[t.line - 1] ?? '')) this.abstractions.add(t.name);
    }
    const based = types.filter((t) => t.bases?.length || t.base).map((t) => ({
      name: t.name,
      bases: t.bases ?? [t.base!],
    }));
    if (based.length) this.typesOf.set(file.path, based);
  }

  /**
   * The project's own interface the boundary's files implement, declared elsewhere (a
   * RetrofitNetwork is a NetworkDataSource): other code reaches the boundary through it, so it is
   * the rule to state.
   */
  private behind(files: readonly string[]): string {
    const own = new Set(files);
    const found = files.flatMap((f) =>
      (this.typesOf.get(f) ?? []).flatMap((t) =>
        t.bases.filter((b) =>
          this.abstractions.has(b) && this.projectTypes.has(b) && !own.has(this.projectTypes.get(b)!)
        ).map((b) => ({ base: b, by: t.name }))
      )
    );
    if (found.length === 0) return '';
    const bases = [...new Set(found.map((x) => x.base))];
    return ` New code goes through ${nameList(bases, 60)} (implemented by ${
      nameList([...new Set(found.map((x) => x.by))], 60)
    }), not through these files directly.`;
  }

  protected propose(v: SignalView): CandidateDraft[] {
    const out: CandidateDraft[] = [];
    for (const m of MECHANISMS) {
      for (const fam of m.families) {
        const t = v.get(fam, m.id);
        // The project's way only where it is common: a few adapter files of a large code base are not.
        if (t.count < 3 || t.files.size < Math.max(2, MECHANISM_SHARE * v.files(fam))) continue;
        out.push({
          title: m.title,
          knowledgeType: m.type,
          dimension: 'event-data-flow',
          language: languageOf(fam, v.ctx),
          category: 'data-flow',
          summary: `${m.explain} Seen ${t.count} times in ${t.files.size} production files, e.g. ${fileList(t)}.`,
          code: '',
          reasoning: {
            whyStandard: 'The mechanism recurs across several files of the scanned production code.',
            sources: t.sources(),
            confidence: confidence(Math.min(1, 0.6 + t.files.size / 20), t.count),
          },
          tags: ['data-flow', m.id, fam],
        });
      }
    }
    const seen = new Set<string>();
    for (const b of BOUNDARIES) {
      for (const fam of b.families) {
        const key = `${b.id}|${fam}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const t = v.get(fam, `boundary-${b.id}`);
        const files = v.files(fam);
        if (t.count < 3 || files < 10 || t.files.size > 3 || t.files.size / files > 0.2) continue;
        const where = [...t.files].sort();
        // The project's own way of naming its variables: one function builds the names of several reads.
        const builders = b.id === 'env'
          ? [...this.envNameBuilders].filter(([, n]) => n >= 2).sort((x, y) => y[1] - x[1]).map(([name]) => `${name}()`)
          : [];
        const full = nameList(where, 52);
        const names = full.includes(' more') || full.length > 60 ? distinctTails(where) : where;
        const behind = this.behind(where);
        // One place in each of several files, with no accessor or interface in front of them, is incidental reads, not a
        // boundary new code could go through (TERM in the logger, APP_MODE at init, PORT when resolving an address).
        if (where.length > 1 && t.count <= where.length && !builders.length && !behind) continue;
        out.push({
          title: fit(
            `${b.what} ${b.id === 'env' ? 'are read' : b.id === 'sql' ? 'are written' : 'are made'} only in ${
              nameList(names, 52)
            }`,
            100,
          ),
          knowledgeType: 'boundary-constraint',
          dimension: 'event-data-flow',
          language: languageOf(fam, v.ctx),
          category: 'boundaries',
          // Counted are places in the code (an env read, a client built), not variables or requests: the reviewers counted the latter.
          summary: `Of the ${files} scanned production ${FAMILY_LABEL[fam]} files, only ${
            where.length === 1 ? 'one holds' : `${where.length} hold`
          } the ${t.count} ${SITES[b.id] ?? b.what.toLowerCase()}: ${
            nameList(
              where.join(', ').length <= 60
                ? where
                : where.length === 1
                ? [where[0].slice(where[0].lastIndexOf('/') + 1)]
                : distinctTails(where),
              120,
              false,
            )
          }${
            builders.length
              ? `; the project's own settings are named by ${
                nameList(builders, 60)
              }. Read new ones there and name them with ${builders.length === 1 ? 'it' : 'these'}, not as literals.`
              : behind
              ? `.${behind}`
              : `${
                t.functions.size
                  ? `, in ${nameList([...t.functions].slice(0, 4).map((f) => (f.includes('.') ? f : `${f}()`)), 90)}`
                  : ''
              }. New code goes through ${where.length === 1 ? 'it' : 'them'} instead of doing this directly.`
          }`,
          code: '',
          reasoning: {
            whyStandard: `Concentrated in ${where.length} of ${files} files: a boundary the code base keeps.`,
            sources: siteSources(t),
            confidence: confidence(1 - t.files.size / files, t.count),
          },
          tags: ['boundary', b.id, fam],
        });
      }
    }
    return out;
  }
}

/**
 * The lines to cite for a boundary: each file once first, by a line inside a function the summary
 * names (not a property observer's line when the summary names `init()` and
 * `addDownloadTask()`), then the other places in those functions.
 */
function siteSources(t: Tally): string[] {
  const inFunction = [...t.sites].sort((a, b) => Number(!!b.fn) - Number(!!a.fn));
  const seen = new Set<string>();
  const first = inFunction.filter((s) => !seen.has(s.path) && seen.add(s.path));
  const rest = inFunction.filter((s) => s.fn && !first.includes(s));
  return [...new Set([...first, ...rest].map((s) => `${s.path}:${s.line}`))].slice(0, 6);
}
