import type { KnowledgeType } from '../../knowledge/types';
import { confidence, percent, type Tally } from '../evidence';
import { fileList, sampleCode, SignalAnalyzer, type Signal, type SignalView } from '../signals';
import type { CandidateDraft, Family, SourceFile } from '../types';
import { languageOf } from './standards';

/** The two language dimensions of each family; the reference skills name the same ids for JS/TS, Swift and Objective-C. */
export const LANGUAGE_DIMENSIONS: Partial<Record<Family, [string, string]>> = {
  jsts: ['jsts-async', 'jsts-type-safety'],
  swift: ['swift-concurrency', 'swift-safety'],
  objc: ['objc-memory', 'objc-api-safety'],
  python: ['python-typing', 'python-async'],
  go: ['go-errors', 'go-concurrency'],
  rust: ['rust-safety', 'rust-errors'],
  kotlin: ['kotlin-coroutines', 'kotlin-null-safety'],
  java: ['java-nullability', 'java-errors'],
};

const s = (family: Family, id: string, re: RegExp, raw = false): Signal => ({ id, families: [family], re, raw });

const SIGNALS: Signal[] = [
  s('jsts', 'await', /\bawait\b/g),
  s('jsts', 'then', /\.then\s*\(/g),
  s('jsts', 'forEachAsync', /\.forEach\s*\(\s*async\b/g),
  s('jsts', 'promiseAll', /\bPromise\.(?:all|allSettled)\s*\(/g),
  s('jsts', 'abort', /\bAbortSignal\b|\bAbortController\b|\bsignal\??\.aborted\b/g),
  s('jsts', 'voidPromise', /(?<![\w$])void\s+(?:this\.)?[\w$.]+\s*\(/g),
  s('jsts', 'any', /:\s*any\b(?!\s*\()|\bas\s+any\b|<any>/g),
  s('jsts', 'nonNull', /[\w)\]]!(?=[.[(])(?!=)/g),
  s('jsts', 'tsIgnore', /@ts-ignore\b/g, true),
  s('jsts', 'tsExpectError', /@ts-expect-error\b/g, true),
  s('jsts', 'validation', /\bz\.object\s*\(|\.safeParse\s*\(|\bajv\.compile\s*\(|\bnew\s+Ajv\b|\bv\.object\s*\(|\byup\.object\s*\(|\bt\.type\s*\(/g),
  s('swift', 'mainActor', /@MainActor\b/g),
  s('swift', 'actor', /^[ \t]*(?:(?:public|private|internal|fileprivate|final)[ \t]+)*actor[ \t]+\w+/gm),
  s('swift', 'task', /\bTask\s*(?:\([^)]*\))?\s*\{/g),
  s('swift', 'detached', /\bTask\.detached\b/g),
  s('swift', 'gcdMain', /\bDispatchQueue\.main\.(?:async|sync)\b/g),
  s('swift', 'asyncFunc', /\bfunc\s+\w+[^{\n]*\basync\b/g),
  s('swift', 'continuation', /\bwithChecked(?:Throwing)?Continuation\b/g),
  s('swift', 'forceTry', /\btry!/g),
  s('swift', 'forceCast', /\bas!\s/g),
  s('swift', 'safeOps', /\btry\?\s|\bas\?\s|\bguard\s+let\b|\bif\s+let\b/g),
  s('swift', 'weakSelf', /\[\s*(?:weak|unowned)\s+self\s*\]/g),
  s('swift', 'finalClass', /\bfinal\s+class\s+\w+/g),
  s('swift', 'classDecl', /(?<!final\s)\bclass\s+(?!func\b|var\b|let\b)\w+/g),
  s('objc', 'weakSelfDance', /__weak\s+(?:typeof\s*\(\s*self\s*\)|__typeof__\s*\(\s*self\s*\)|\w+\s*\*)\s*\w*[wW]eak\w*\s*=\s*self/g),
  s('objc', 'weakify', /@weakify\s*\(\s*self\s*\)/g),
  s('objc', 'copyString', /@property\s*\([^)]*\bcopy\b[^)]*\)\s*NSString\b/g),
  s('objc', 'strongString', /@property\s*\([^)]*\b(?:strong|retain)\b[^)]*\)\s*NSString\b/g),
  s('objc', 'weakDelegate', /@property\s*\([^)]*\bweak\b[^)]*\)\s*id\s*<\s*\w*Delegate\s*>/g),
  s('objc', 'assignDelegate', /@property\s*\([^)]*\bassign\b[^)]*\)\s*id\s*<\s*\w*Delegate\s*>/g),
  s('objc', 'nonnullBegin', /\bNS_ASSUME_NONNULL_BEGIN\b/g),
  s('objc', 'nserror', /NSError\s*\*\s*(?:__autoreleasing\s*)?\*\s*(?:_Nullable\s*)?\w*error\b/g),
  s('objc', 'designated', /\bNS_DESIGNATED_INITIALIZER\b/g),
  s('python', 'def', /^[ \t]*(?:async[ \t]+)?def[ \t]+\w+/gm),
  s('python', 'returnHint', /\)[ \t]*->[ \t]*[^:\n]+:[ \t]*$/gm),
  s('python', 'dataclass', /^[ \t]*@dataclass\b/gm),
  s('python', 'pydantic', /\(\s*BaseModel\s*\)/g),
  s('python', 'asyncDef', /^[ \t]*async[ \t]+def\b/gm),
  s('python', 'asyncio', /\basyncio\.(?:run|gather|create_task|TaskGroup)\b/g),
  s('go', 'wrapW', /\bfmt\.Errorf\([^)\n]*%w/g, true),
  s('go', 'errorfNoW', /\bfmt\.Errorf\((?![^)\n]*%w)/g, true),
  s('go', 'errorsIs', /\berrors\.(?:Is|As)\(/g),
  s('go', 'errNil', /\bif\s+err\s*!=\s*nil\b/g),
  s('go', 'panic', /(?<![\w.])panic\(/g),
  s('go', 'ctxParam', /^func\s+(?:\([^)]*\)\s*)?\w+\(\s*ctx\s+context\.Context/gm),
  s('go', 'goStmt', /(?<![\w.])go\s+(?:func\b|[\w.]+\()/g),
  s('go', 'waitGroup', /\bsync\.WaitGroup\b|\berrgroup\.\w+/g),
  s('rust', 'unwrap', /\.unwrap\(\)/g),
  s('rust', 'question', /\?\s*[;),.]/g),
  s('rust', 'thiserror', /\bthiserror::Error\b|#\[error\(/g),
  s('rust', 'anyhow', /\banyhow::|\.context\(|\.with_context\(/g),
  s('kotlin', 'suspend', /\bsuspend\s+fun\b/g),
  s('kotlin', 'scopes', /\b(?:viewModelScope|lifecycleScope|coroutineScope|supervisorScope)\b/g),
  s('kotlin', 'globalScope', /\bGlobalScope\b/g),
  s('kotlin', 'bangbang', /!!/g),
  s('kotlin', 'safeCall', /\?\.|\?:/g),
  s('java', 'optional', /\bOptional<|\bOptional\.(?:of|empty|ofNullable)\(/g),
  s('java', 'nullAnn', /@(?:Nullable|NonNull|Nonnull|NotNull)\b/g),
  s('java', 'catchGeneric', /\bcatch\s*\(\s*(?:final\s+)?(?:Exception|Throwable)\s+\w+\s*\)/g),
  s('java', 'catch', /\bcatch\s*\(/g),
];

interface Draft {
  title: string;
  type: KnowledgeType;
  summary: string;
  evidence: Tally;
  ratio: number;
  why: string;
  tags: string[];
  extraSources?: string[];
  /** How much evidence backs the claim, when it is not the evidence count (an absence measured over files). */
  support?: number;
}

/** Dimensions 8–9: the two language dimensions of each language in the project, from counted idioms. */
export class LanguageAnalyzer extends SignalAnalyzer {
  protected readonly signals = SIGNALS;
  private headers = 0;
  private typeScriptFiles = 0;

  override visit(file: SourceFile): void {
    super.visit(file);
    if (file.isTest || file.generated) return;
    if (file.family === 'objc' && file.path.endsWith('.h')) this.headers++;
    if (file.language.startsWith('typescript')) this.typeScriptFiles++;
  }

  protected propose(v: SignalView): CandidateDraft[] {
    const out: CandidateDraft[] = [];
    for (const fam of v.families()) {
      const dims = LANGUAGE_DIMENSIONS[fam];
      if (!dims || v.files(fam) < 5) continue;
      const rules = RULES[fam];
      if (!rules) continue;
      const [first, second] = rules(v, fam, { headers: this.headers, typeScriptFiles: this.typeScriptFiles });
      const language = languageOf(fam, v.ctx);
      for (const [dimension, drafts] of [[dims[0], first], [dims[1], second]] as const) {
        for (const d of drafts) {
          if (!d) continue;
          out.push({
            title: d.title,
            knowledgeType: d.type,
            dimension,
            language,
            category: dimension,
            summary: d.summary,
            code: sampleCode(d.evidence, 6),
            reasoning: { whyStandard: d.why, sources: [...(d.extraSources ?? []), ...d.evidence.sources()].slice(0, 8), confidence: confidence(d.ratio, d.support ?? d.evidence.count) },
            tags: [dimension, fam, ...d.tags],
          });
        }
      }
    }
    return out;
  }
}

type Rules = (v: SignalView, fam: Family, extra: { headers: number; typeScriptFiles: number }) => [(Draft | undefined)[], (Draft | undefined)[]];

const RULES: Partial<Record<Family, Rules>> = {
  jsts: (v, f, extra) => {
    const [aw, then, forEachAsync, all, abort, voids] = ['await', 'then', 'forEachAsync', 'promiseAll', 'abort', 'voidPromise'].map((id) => v.get(f, id));
    const [any, nonNull, validation] = ['any', 'nonNull', 'validation'].map((id) => v.get(f, id));
    const ts = extra.typeScriptFiles;
    const asyncStyle = aw.count >= 10 && then.count / (aw.count + then.count) <= 0.1
      ? { title: 'Asynchronous code uses async/await, not `.then()` chains', type: 'best-practice' as const, summary: `${aw.count} awaits against ${then.count} \`.then(\` calls${then.count ? ` (left in ${fileList(then)})` : ''}.`, evidence: aw, ratio: aw.count / (aw.count + then.count), why: 'Counted over the scanned production code.', tags: ['async'] }
      : undefined;
    const iteration = aw.count >= 10 && forEachAsync.count === 0 && all.count >= 2
      ? { title: 'Async work over collections uses `Promise.all` or `for…of`, never `forEach(async …)`', type: 'best-practice' as const, summary: `${all.count} \`Promise.all/allSettled\` calls in ${all.files.size} files and no \`forEach(async\`.`, evidence: all, ratio: 0.9, why: 'No async forEach in the scanned code; the alternatives recur.', tags: ['async', 'iteration'] }
      : undefined;
    const cancellation = abort.count >= 3 && abort.files.size >= 2
      ? { title: 'Long-running operations take an `AbortSignal`', type: 'code-pattern' as const, summary: `AbortSignal/AbortController appear ${abort.count} times in ${abort.files.size} files (${fileList(abort)}): cancellable work accepts a signal and checks \`signal.aborted\`.`, evidence: abort, ratio: 0.8, why: 'The cancellation idiom recurs across modules.', tags: ['async', 'cancellation'] }
      : undefined;
    const detached = voids.count >= 3 && voids.files.size >= 2
      ? { title: 'Promises that are deliberately not awaited are marked with `void`', type: 'best-practice' as const, summary: `${voids.count} fire-and-forget calls in ${voids.files.size} files are written \`void promise()\`, so a floating promise is always a visible decision.`, evidence: voids, ratio: 0.8, why: 'The marker recurs across files.', tags: ['async', 'floating-promises'] }
      : undefined;
    const anyRare = ts >= 10 && any.files.size / ts <= 0.1
      ? {
          title: '`any` is avoided in TypeScript code',
          type: 'code-standard' as const,
          summary: any.count
            ? `Only ${any.count} uses of \`any\` in ${any.files.size} of ${ts} TypeScript files (${percent(any.files.size, ts)})${nonNull.count ? `; non-null assertions: ${nonNull.count}` : ''}. Type values precisely or use \`unknown\` and narrow.`
            : `None of the ${ts} scanned TypeScript files uses \`any\`${nonNull.count ? ` (non-null assertions: ${nonNull.count})` : ''}. Type values precisely or use \`unknown\` and narrow.`,
          evidence: any,
          ratio: 1 - any.files.size / ts,
          support: ts,
          why: any.count ? 'Measured over the scanned TypeScript files; the few exceptions are the sources.' : 'Measured over the scanned TypeScript files; the compiler configuration is the source.',
          tags: ['types', 'any'],
          extraSources: v.ctx.listing.filter((x) => /(^|\/)tsconfig\.json$/.test(x)).slice(0, 1).map((x) => `${x}:1`),
        }
      : undefined;
    const validates = validation.count >= 3
      ? { title: `External input is validated at runtime (${/ajv|Ajv/.test(validation.samples.map((x) => x.text).join(' ')) ? 'Ajv' : /z\.|safeParse/.test(validation.samples.map((x) => x.text).join(' ')) ? 'zod' : 'schema validation'})`, type: 'boundary-constraint' as const, summary: `${validation.count} schema validations in ${validation.files.size} files (${fileList(validation)}): data from outside is checked against a schema before use.`, evidence: validation, ratio: 0.8, why: 'Schema validation recurs at input boundaries.', tags: ['validation', 'boundaries'] }
      : undefined;
    return [[asyncStyle, iteration, cancellation, detached], [anyRare, validates]];
  },
  swift: (v, f) => {
    const g = (id: string) => v.get(f, id);
    const [main, gcd, actor, asyncFunc, cont, forceTry, forceCast, safe, weak, fin, cls] = ['mainActor', 'gcdMain', 'actor', 'asyncFunc', 'continuation', 'forceTry', 'forceCast', 'safeOps', 'weakSelf', 'finalClass', 'classDecl'].map(g);
    const total = main.count + gcd.count;
    return [
      [
        main.count >= 3 && gcd.count / Math.max(1, total) <= 0.25 ? { title: 'UI state is isolated with `@MainActor`, not `DispatchQueue.main`', type: 'best-practice', summary: `${main.count} \`@MainActor\` annotations against ${gcd.count} \`DispatchQueue.main\` hops.`, evidence: main, ratio: main.count / total, why: 'Counted over the scanned Swift sources.', tags: ['main-actor'] } : undefined,
        gcd.count >= 5 && main.count === 0 ? { title: 'Main-thread work is dispatched with `DispatchQueue.main.async`', type: 'best-practice', summary: `${gcd.count} main-queue hops in ${gcd.files.size} files and no \`@MainActor\`.`, evidence: gcd, ratio: 0.7, why: 'GCD is the only main-thread mechanism in use.', tags: ['gcd'] } : undefined,
        actor.count >= 2 ? { title: 'Shared mutable state is guarded by actors', type: 'code-pattern', summary: `${actor.count} actor types (${actor.samples.slice(0, 4).map((x) => x.text).join('; ')}).`, evidence: actor, ratio: 0.85, why: 'Several independent actors own shared state.', tags: ['actors'] } : undefined,
        asyncFunc.count >= 10 && cont.count >= 1 ? { title: 'Callback APIs are bridged to async with `withCheckedContinuation`', type: 'code-pattern', summary: `${cont.count} continuation bridges next to ${asyncFunc.count} async functions; resume each continuation exactly once.`, evidence: cont, ratio: 0.8, why: 'The bridging idiom is used where callbacks remain.', tags: ['continuations'] } : undefined,
      ],
      [
        forceTry.count + forceCast.count === 0 && safe.count >= 5 && v.files(f) >= 10 ? { title: 'No `try!` or `as!` in production Swift code', type: 'code-standard', summary: `None in ${v.files(f)} files; the code uses \`try?\`, \`as?\`, \`guard let\` and \`if let\` instead (${safe.count} times).`, evidence: safe, ratio: 1, why: 'No force operation in the scanned production sources.', tags: ['optionals', 'force-unwrap'] } : undefined,
        weak.count >= 5 ? { title: 'Escaping closures capture `[weak self]`', type: 'best-practice', summary: `${weak.count} weak/unowned captures in ${weak.files.size} files.`, evidence: weak, ratio: 0.85, why: 'The capture list recurs in escaping closures.', tags: ['memory', 'closures'] } : undefined,
        fin.count + cls.count >= 5 && fin.count / (fin.count + cls.count) >= 0.7 ? { title: 'Classes are `final` unless designed for subclassing', type: 'code-standard', summary: `${fin.count} of ${fin.count + cls.count} classes (${percent(fin.count, fin.count + cls.count)}) are final.`, evidence: fin, ratio: fin.count / (fin.count + cls.count), why: 'Counted over the class declarations.', tags: ['final'] } : undefined,
      ],
    ];
  },
  objc: (v, f, extra) => {
    const g = (id: string) => v.get(f, id);
    const [dance, weakify, copy, strong, weakDel, assignDel, nonnull, nserror, designated] = ['weakSelfDance', 'weakify', 'copyString', 'strongString', 'weakDelegate', 'assignDelegate', 'nonnullBegin', 'nserror', 'designated'].map(g);
    const capture = weakify.count > dance.count ? weakify : dance;
    return [
      [
        capture.count >= 3 ? { title: `Blocks capture self weakly with ${capture === weakify ? '`@weakify(self)`/`@strongify(self)`' : 'the `__weak typeof(self) weakSelf = self` dance'}`, type: 'best-practice', summary: `${capture.count} weak captures in ${capture.files.size} files.`, evidence: capture, ratio: 0.85, why: 'The capture idiom recurs.', tags: ['blocks', 'memory'] } : undefined,
        copy.count >= 5 && copy.count / (copy.count + strong.count) >= 0.8 ? { title: '`NSString` properties are declared `copy`', type: 'code-standard', summary: `${copy.count} of ${copy.count + strong.count} NSString properties are copy.`, evidence: copy, ratio: copy.count / (copy.count + strong.count), why: 'Counted over property declarations.', tags: ['properties'] } : undefined,
        weakDel.count >= 3 && assignDel.count === 0 ? { title: 'Delegates are `weak` properties', type: 'code-standard', summary: `${weakDel.count} delegate properties, all weak.`, evidence: weakDel, ratio: 1, why: 'No assign delegates remain.', tags: ['delegates'] } : undefined,
      ],
      [
        extra.headers >= 3 && nonnull.files.size / extra.headers >= 0.7 ? { title: 'Headers declare nullability with `NS_ASSUME_NONNULL_BEGIN`', type: 'code-standard', summary: `${nonnull.files.size} of ${extra.headers} headers (${percent(nonnull.files.size, extra.headers)}) are audited for nullability.`, evidence: nonnull, ratio: nonnull.files.size / extra.headers, why: 'Measured over the scanned headers.', tags: ['nullability'] } : undefined,
        nserror.count >= 3 ? { title: 'Failable methods report errors through `NSError **` out-parameters', type: 'code-pattern', summary: `${nserror.count} methods in ${nserror.files.size} files.`, evidence: nserror, ratio: 0.8, why: 'The error idiom recurs.', tags: ['errors'] } : undefined,
        designated.count >= 3 ? { title: 'Initializer contracts are declared with `NS_DESIGNATED_INITIALIZER`', type: 'code-pattern', summary: `${designated.count} designated initializers in ${designated.files.size} files.`, evidence: designated, ratio: 0.8, why: 'The annotation recurs.', tags: ['initializers'] } : undefined,
      ],
    ];
  },
  python: (v, f) => {
    const g = (id: string) => v.get(f, id);
    const [def, hint, dataclass, pydantic, asyncDef, asyncio] = ['def', 'returnHint', 'dataclass', 'pydantic', 'asyncDef', 'asyncio'].map(g);
    return [
      [
        def.count >= 10 && hint.count / def.count >= 0.8 ? { title: 'Python functions carry type hints, return types included', type: 'code-standard', summary: `${hint.count} of ${def.count} functions (${percent(hint.count, def.count)}) declare a return type.`, evidence: hint, ratio: hint.count / def.count, why: 'Counted over function definitions.', tags: ['typing'] } : undefined,
        dataclass.count >= 3 ? { title: 'Plain data records are `@dataclass`es', type: 'code-pattern', summary: `${dataclass.count} dataclasses in ${dataclass.files.size} files.`, evidence: dataclass, ratio: 0.8, why: 'The decorator recurs.', tags: ['dataclasses'] } : undefined,
        pydantic.count >= 3 ? { title: 'Data crossing boundaries is modelled with Pydantic `BaseModel`', type: 'code-pattern', summary: `${pydantic.count} models in ${pydantic.files.size} files.`, evidence: pydantic, ratio: 0.8, why: 'The base class recurs.', tags: ['pydantic'] } : undefined,
      ],
      [asyncDef.count >= 5 ? { title: 'I/O code is asynchronous (`async def` and `await`)', type: 'code-pattern', summary: `${asyncDef.count} coroutines in ${asyncDef.files.size} files${asyncio.count ? `, composed with asyncio (${asyncio.count})` : ''}.`, evidence: asyncDef, ratio: 0.8, why: 'Coroutines recur across modules.', tags: ['async'] } : undefined],
    ];
  },
  go: (v, f) => {
    const g = (id: string) => v.get(f, id);
    const [w, now, is, errNil, panic, ctx, goStmt, wg] = ['wrapW', 'errorfNoW', 'errorsIs', 'errNil', 'panic', 'ctxParam', 'goStmt', 'waitGroup'].map(g);
    return [
      [
        w.count >= 3 && w.count / (w.count + now.count) >= 0.7 ? { title: 'Errors are wrapped with `fmt.Errorf("…: %w", err)`', type: 'best-practice', summary: `${w.count} of ${w.count + now.count} Errorf calls wrap with %w.`, evidence: w, ratio: w.count / (w.count + now.count), why: 'Counted over fmt.Errorf calls.', tags: ['errors'] } : undefined,
        is.count >= 3 ? { title: 'Errors are compared with `errors.Is`/`errors.As`', type: 'best-practice', summary: `${is.count} uses in ${is.files.size} files.`, evidence: is, ratio: 0.8, why: 'The idiom recurs.', tags: ['errors'] } : undefined,
        panic.count === 0 && errNil.count >= 10 ? { title: 'Library code returns errors and never panics', type: 'best-practice', summary: `${errNil.count} \`if err != nil\` checks and no panic in production code.`, evidence: errNil, ratio: 1, why: 'No panic in the scanned production code.', tags: ['errors', 'panic'] } : undefined,
      ],
      [
        ctx.count >= 5 ? { title: 'Functions that do I/O take `ctx context.Context` first', type: 'code-standard', summary: `${ctx.count} functions in ${ctx.files.size} files take a context as the first parameter.`, evidence: ctx, ratio: 0.85, why: 'The signature convention recurs.', tags: ['context'] } : undefined,
        goStmt.count >= 3 && wg.count >= 1 ? { title: 'Goroutines are joined with `sync.WaitGroup` or `errgroup`', type: 'best-practice', summary: `${goStmt.count} go statements; ${wg.count} WaitGroup/errgroup uses.`, evidence: wg, ratio: 0.75, why: 'Spawned goroutines are awaited.', tags: ['goroutines'] } : undefined,
      ],
    ];
  },
  rust: (v, f) => {
    const g = (id: string) => v.get(f, id);
    const [unwrap, q, te, ah] = ['unwrap', 'question', 'thiserror', 'anyhow'].map(g);
    return [
      [q.count >= 10 && unwrap.count / (q.count + unwrap.count) <= 0.1 ? { title: 'Errors propagate with `?`; `unwrap()` is rare', type: 'best-practice', summary: `${q.count} \`?\` against ${unwrap.count} \`unwrap()\`${unwrap.count ? ` (in ${fileList(unwrap)})` : ''}.`, evidence: q, ratio: q.count / (q.count + unwrap.count), why: 'Counted over production code.', tags: ['errors'] } : undefined],
      [
        te.count >= 2 ? { title: 'Error types derive `thiserror::Error`', type: 'code-pattern', summary: `${te.count} uses in ${te.files.size} files.`, evidence: te, ratio: 0.85, why: 'The derive recurs.', tags: ['errors'] } : undefined,
        ah.count >= 3 ? { title: 'Application errors use `anyhow` with `.context()`', type: 'code-pattern', summary: `${ah.count} uses in ${ah.files.size} files.`, evidence: ah, ratio: 0.8, why: 'The idiom recurs.', tags: ['errors'] } : undefined,
      ],
    ];
  },
  kotlin: (v, f) => {
    const g = (id: string) => v.get(f, id);
    const [susp, scopes, global, bang, safe] = ['suspend', 'scopes', 'globalScope', 'bangbang', 'safeCall'].map(g);
    return [
      [susp.count >= 5 && global.count === 0 ? { title: 'Coroutines run in structured scopes, never `GlobalScope`', type: 'best-practice', summary: `${susp.count} suspend functions; scopes used: ${scopes.count}; no GlobalScope.`, evidence: scopes.count ? scopes : susp, ratio: 1, why: 'No GlobalScope in production code.', tags: ['coroutines'] } : undefined],
      [safe.count >= 10 && bang.count / (safe.count + bang.count) <= 0.05 ? { title: 'Nullable values are handled with `?.` and `?:`, not `!!`', type: 'code-standard', summary: `${safe.count} safe calls/elvis against ${bang.count} \`!!\`.`, evidence: safe, ratio: safe.count / (safe.count + bang.count), why: 'Counted over production code.', tags: ['null-safety'] } : undefined],
    ];
  },
  java: (v, f) => {
    const g = (id: string) => v.get(f, id);
    const [opt, ann, generic, c] = ['optional', 'nullAnn', 'catchGeneric', 'catch'].map(g);
    return [
      [
        opt.count >= 5 ? { title: 'Absent values are `Optional<T>`, not null', type: 'code-standard', summary: `${opt.count} Optional uses in ${opt.files.size} files.`, evidence: opt, ratio: 0.8, why: 'The type recurs.', tags: ['null-safety'] } : undefined,
        ann.count >= 5 ? { title: 'Nullability is annotated (`@Nullable`/`@NonNull`)', type: 'code-standard', summary: `${ann.count} annotations in ${ann.files.size} files.`, evidence: ann, ratio: 0.8, why: 'The annotations recur.', tags: ['null-safety'] } : undefined,
      ],
      [c.count >= 10 && generic.count / c.count <= 0.1 ? { title: 'Catch specific exceptions, not `Exception`/`Throwable`', type: 'best-practice', summary: `${generic.count} of ${c.count} catch clauses catch a generic type.`, evidence: c, ratio: 1 - generic.count / c.count, why: 'Counted over catch clauses.', tags: ['exceptions'] } : undefined],
    ];
  },
};

export function languageDimensionsOf(fam: Family): string[] {
  return LANGUAGE_DIMENSIONS[fam] ? [...LANGUAGE_DIMENSIONS[fam]!] : [];
}

