import type { SeedConstruct } from '../../knowledge/rule-seed';
import type { KnowledgeType } from '../../knowledge/types';
import { confidence, percent, Tally } from '../evidence';
import { factsOf } from '../facts';
import { nameList } from '../form';
import { fileList, type Signal, SignalAnalyzer, type SignalView } from '../signals';
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

const s = (family: Family, id: string, re: RegExp, requires?: string[]): Signal => ({
  id,
  families: [family],
  re,
  ...(requires ? { requires } : {}),
});

/**
 * Only idioms that tell this project apart: the choices a project makes (its own capture macros,
 * @MainActor over GCD, an error crate, a validation library, sync/async twins). What the language or
 * its standard style already asks of everyone (defer, with, `?`, naming, force-unwrap advice) is not
 * counted at all.
 */
const SIGNALS: Signal[] = [
  s('jsts', 'abort', /\bAbortSignal\b|\bAbortController\b|\bsignal\??\.aborted\b/g),
  s('jsts', 'any', /:\s*any\b(?!\s*\()|\bas\s+any\b|<any>/g),
  s(
    'jsts',
    'validation',
    /\bz\.object\s*\(|\.safeParse\s*\(|\bajv\.compile\s*\(|\bnew\s+Ajv\b|\bv\.object\s*\(|\byup\.object\s*\(/g,
    ['zod', 'ajv', 'valibot', 'yup'],
  ),
  s('swift', 'mainActor', /@MainActor\b/g),
  s('swift', 'actor', /^[ \t]*(?:(?:public|private|internal|fileprivate|final)[ \t]+)*actor[ \t]+\w+/gm),
  s('swift', 'gcdMain', /\bDispatchQueue\.main\.(?:async|asyncAfter|sync)\b/g),
  // The other guards of shared state: locks and serial queues (what an actor would be measured against).
  s(
    'swift',
    'locks',
    /\b(?:OSAllocatedUnfairLock|NSLock|NSRecursiveLock|os_unfair_lock|pthread_mutex_t)\b|\bDispatchQueue\s*\(\s*label\s*:/g,
  ),
  s('swift', 'finalClass', /\bfinal\s+class\s+\w+/g),
  s('swift', 'classDecl', /(?<!final\s)\bclass\s+(?!func\b|var\b|let\b)\w+/g),
  s('objc', 'weakify', /@weakify\s*\(\s*self\s*\)/g),
  s(
    'objc',
    'weakSelfDance',
    /__weak\s+(?:typeof\s*\(\s*self\s*\)|__typeof__\s*\(\s*self\s*\)|\w+\s*\*)\s*\w*[wW]eak\w*\s*=\s*self/g,
  ),
  s('python', 'def', /^[ \t]*(?:async[ \t]+)?def[ \t]+\w+/gm),
  // The colon may be followed by a comment on the same line (a type-checker pragma, a note).
  s('python', 'returnHint', /\)[ \t]*->[ \t]*[^:\n#]+:[ \t]*(?:#.*)?$/gm),
  s('python', 'dataclass', /^[ \t]*@dataclass\b/gm, ['dataclasses']),
  s('python', 'pydantic', /\(\s*BaseModel\s*\)/g, ['pydantic']),
  // The derives only: an enum's `#[error(…)]` variants are one error type (one enum with 16 variants is one, not 16).
  s('rust', 'thiserror', /#\[derive\([^)]*\bError\b[^)]*\)\]/g, ['thiserror']),
  s('rust', 'anyhow', /\banyhow::|\banyhow!\s*\(|\bbail!\s*\(|\.with_context\s*\(|\.context\s*\(/g, ['anyhow']),
  s('java', 'nullAnn', /@(?:Nullable|NonNull|Nonnull|NotNull)\b/g),
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
  support?: number;
  code?: string;
  /** The construct the card says the code avoids, for its guard rule. */
  avoids?: SeedConstruct;
}

/** Dimensions 8–9: the language dimensions of each language in the project, from counted idioms. */
export class LanguageAnalyzer extends SignalAnalyzer {
  protected readonly signals = SIGNALS;
  private typeScriptFiles = 0;
  private typeChecked = false;
  /** Python classes by name, to find `AsyncX`/`X` twins. */
  private readonly pyClasses = new Map<string, { path: string; line: number }>();
  /** Project-defined macros (`#define weakify`), by name. */
  private readonly macros = new Map<string, { path: string; line: number }>();
  /** Files per target that use an error crate, for scoping. */
  private readonly crateUse = new Map<string, Set<string>>();
  private readonly rustCrates = new Set<string>();
  /** The project's own exported AbortSignal helpers (`allAbortSignals`, `raceAbortSignals`). */
  private readonly signalHelpers: { name: string; path: string; line: number; target?: string }[] = [];
  /** AbortSignal/AbortController per target: a package's helpers are a rule for that package only. */
  private readonly abortByTarget = new Map<string, Tally>();

  override visit(file: SourceFile): void {
    super.visit(file);
    if (file.kind !== 'production') return;
    if (file.language.startsWith('typescript')) this.typeScriptFiles++;
    if (file.family === 'jsts' && /AbortSignal/.test(file.code)) {
      for (const d of factsOf(file).decls) {
        if (
          d.kind === 'function' && d.exported && !d.member && /Abort|Signals?$/.test(d.name)
          && this.signalHelpers.length < 8
        ) {
          this.signalHelpers.push({
            name: d.name,
            path: file.path,
            line: d.line,
            ...(file.target ? { target: file.target } : {}),
          });
        }
      }
    }
    if (file.family === 'jsts' && file.target) {
      const uses = [...file.code.matchAll(/\bAbortSignal\b|\bAbortController\b/g)];
      if (uses.length) {
        const t = this.abortByTarget.get(file.target) ?? new Tally();
        t.add(file, file.code.slice(0, uses[0].index).split('\n').length, uses.length);
        this.abortByTarget.set(file.target, t);
      }
    }
    if (file.family === 'python') {
      for (const d of factsOf(file).decls) {
        if (d.kind === 'type' && !d.member && !this.pyClasses.has(d.name)) {
          this.pyClasses.set(d.name, { path: file.path, line: d.line });
        }
      }
    }
    if (file.family === 'objc') {
      for (const m of file.text.matchAll(/^#define[ \t]+(weakify|strongify)\b/gm)) {
        if (!this.macros.has(m[1])) {
          this.macros.set(m[1], { path: file.path, line: file.text.slice(0, m.index).split('\n').length });
        }
      }
    }
    if (file.family === 'rust' && file.target) {
      if (file.kind === 'production') this.rustCrates.add(file.target);
      for (const crate of ['anyhow', 'thiserror']) {
        if (
          factsOf(file).imports.some((i) => i.spec === crate || i.spec.startsWith(crate + '::'))
          || file.code.includes(`${crate}::`)
        ) {
          this.crateUse.set(
            `${crate}|${file.target}`,
            (this.crateUse.get(`${crate}|${file.target}`) ?? new Set()).add(file.path),
          );
        }
      }
    }
  }

  protected async propose(v: SignalView): Promise<CandidateDraft[]> {
    const out: CandidateDraft[] = [];
    // A type checker the project runs already asks for annotations: counting them says nothing more.
    for (
      const f of v.ctx.listing.filter((x) => /(^|\/)(pyproject\.toml|mypy\.ini|\.mypy\.ini|setup\.cfg)$/.test(x)).slice(
        0,
        4,
      )
    ) {
      if (/^\[(tool\.)?mypy\]/m.test((await v.ctx.read(f)) ?? '')) this.typeChecked = true;
    }
    for (const fam of v.families()) {
      const dims = LANGUAGE_DIMENSIONS[fam];
      if (!dims || v.files(fam) < 5) continue;
      const [first, second] = this.rules(v, fam);
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
            code: d.code ?? '',
            reasoning: {
              whyStandard: d.why,
              sources: [...(d.extraSources ?? []), ...d.evidence.sources()].slice(0, 8),
              confidence: confidence(d.ratio, d.support ?? d.evidence.count),
            },
            tags: [dimension, fam, ...d.tags],
            ...(d.avoids ? { ruleSeed: { kind: 'forbid-construct', language, construct: d.avoids } } : {}),
          });
        }
      }
    }
    return out;
  }

  private rules(v: SignalView, f: Family): [(Draft | undefined)[], (Draft | undefined)[]] {
    const g = (id: string) => v.get(f, id);
    switch (f) {
      case 'jsts': {
        const [abort, any, validation] = ['abort', 'any', 'validation'].map(g);
        const helpers = this.signalHelpers;
        const ts = this.typeScriptFiles;
        // Helpers of one package, in a project where others use signals too: the rule is that package's (a client package; the server has its own).
        const helperTargets = [...new Set(helpers.map((h) => h.target))];
        const scope = helperTargets.length === 1 && helperTargets[0] && this.abortByTarget.size > 1
          ? helperTargets[0]
          : undefined;
        const signals = (scope && this.abortByTarget.get(scope)) || abort;
        return [
          // Taking an AbortSignal is the platform's idiom; the project's own helpers for it are the convention.
          [
            signals.count >= 3 && signals.files.size >= 2 && helpers.length
              ? {
                title: scope
                  ? `Cancellation in \`${scope}\`: combine signals with ${
                    nameList(helpers.map((h) => `${h.name}()`), 60)
                  }`
                  : `Cancellation: combine signals with the project's ${
                    nameList(helpers.map((h) => `${h.name}()`), 70)
                  }`,
                type: 'code-pattern',
                summary: `${
                  scope ? `In ${scope}, ` : ''
                }AbortSignal/AbortController appear ${signals.count} times in ${signals.files.size} production files; ${
                  [...new Set(helpers.map((h) => h.path))].map((p) => `\`${p}\``).join(', ')
                } defines ${
                  nameList(helpers.map((h) => `${h.name}()`), 120)
                }. Combine or race signals with them instead of wiring abort listeners by hand.`,
                evidence: signals,
                ratio: 0.8,
                why:
                  'The project wraps the platform idiom in its own helpers, and its cancellable code uses signals across modules.',
                tags: ['async', 'cancellation'],
                extraSources: helpers.map((h) => `${h.path}:${h.line}`),
              }
              : undefined,
          ],
          [
            ts >= 10 && any.files.size / ts <= 0.1
              ? {
                title: '`any` is avoided in TypeScript code',
                type: 'code-standard',
                summary: any.count
                  ? `Only ${any.count} uses of \`any\` in ${any.files.size} of ${ts} production TypeScript files (${
                    percent(any.files.size, ts)
                  }). Type values precisely or use \`unknown\` and narrow.`
                  : `None of the ${ts} scanned production TypeScript files uses \`any\`. Type values precisely or use \`unknown\` and narrow.`,
                evidence: any,
                ratio: 1 - any.files.size / ts,
                support: ts,
                why: 'Measured over the scanned production TypeScript files.',
                tags: ['types', 'any'],
                avoids: 'explicit-any',
                extraSources: v.ctx.listing.filter((x) => /(^|\/)tsconfig(\.[\w-]+)?\.json$/.test(x)).slice(0, 1).map((
                  x,
                ) => `${x}:1`),
              }
              : undefined,
            validation.count >= 3 && validation.files.size >= 2
              ? {
                title: `External input is validated at runtime with ${
                  /ajv|Ajv/.test(validation.samples.map((x) => x.text).join(' ')) ? 'Ajv' : 'zod'
                }`,
                type: 'boundary-constraint',
                summary: `${validation.count} schema validations in ${validation.files.size} production files (${
                  fileList(validation)
                }): data from outside is checked against a schema before use.`,
                evidence: validation,
                ratio: 0.8,
                why: 'Schema validation recurs at the input boundaries of the production code.',
                tags: ['validation', 'boundaries'],
              }
              : undefined,
          ],
        ];
      }
      case 'swift': {
        const [main, gcd, actor, fin, cls, locks] = [
          'mainActor',
          'gcdMain',
          'actor',
          'finalClass',
          'classDecl',
          'locks',
        ].map(g);
        const total = main.count + gcd.count;
        return [
          [
            // "Not DispatchQueue.main" only where main-queue hops are rare: 92 hops beside 576
            // annotations contradict it (a hop and an annotation are not counted alike).
            main.count >= 3 && gcd.count / Math.max(1, total) <= 0.1
              ? {
                title: 'UI state is isolated with `@MainActor`, not `DispatchQueue.main`',
                type: 'best-practice',
                summary:
                  `${main.count} \`@MainActor\` annotations against ${gcd.count} \`DispatchQueue.main\` hops in production code.`,
                evidence: main,
                ratio: main.count / total,
                why: 'Counted over the scanned production Swift sources.',
                tags: ['main-actor'],
                avoids: 'dispatch-main-async',
              }
              : undefined,
            // Actors are the project's guard of shared state only where locks and serial queues are fewer
            // (3 database actors beside 18 locks contradict the claim).
            actor.count >= 2 && actor.count >= locks.count
              ? {
                title: 'Shared mutable state is guarded by actors',
                type: 'code-pattern',
                summary: `${actor.count} actor types (${actor.samples.slice(0, 4).map((x) => x.text).join('; ')}).`,
                evidence: actor,
                ratio: 0.85,
                why: 'Several independent actors own shared state.',
                tags: ['actors'],
              }
              : undefined,
          ],
          [
            fin.count + cls.count >= 8 && fin.count / (fin.count + cls.count) >= 0.8
              ? {
                title: 'Classes are `final` unless designed for subclassing',
                type: 'code-standard',
                summary: `${fin.count} of ${fin.count + cls.count} production classes (${
                  percent(fin.count, fin.count + cls.count)
                }) are final.`,
                evidence: fin,
                ratio: fin.count / (fin.count + cls.count),
                why: 'Counted over the class declarations of the production code.',
                tags: ['final'],
              }
              : undefined,
          ],
        ];
      }
      case 'objc': {
        const [weakify, dance] = ['weakify', 'weakSelfDance'].map(g);
        const macro = this.macros.get('weakify');
        return [
          [
            weakify.count >= 3 && macro && weakify.count >= dance.count * 3
              ? {
                title: "Blocks capture self with the project's `@weakify(self)` / `@strongify(self)` macros",
                type: 'best-practice',
                summary:
                  `${weakify.count} blocks in ${weakify.files.size} files capture self with the macros defined in ${macro.path}${
                    dance.count ? ` (and ${dance.count} with a hand-written \`__weak\` variable)` : ''
                  }. Use them in new blocks that capture self.`,
                evidence: weakify,
                ratio: weakify.count / (weakify.count + dance.count),
                why: 'The project defines its own capture macros and uses them across the production code.',
                tags: ['blocks', 'memory'],
                extraSources: [`${macro.path}:${macro.line}`],
              }
              : undefined,
          ],
          [],
        ];
      }
      case 'python': {
        const [def, hint, dataclass, pydantic] = ['def', 'returnHint', 'dataclass', 'pydantic'].map(g);
        const twins = [...this.pyClasses.keys()].filter((n) =>
          /^Async[A-Z]/.test(n) && (this.pyClasses.has(n.slice(5)) || this.pyClasses.has(`Sync${n.slice(5)}`))
        ).sort();
        const twinSources = twins.flatMap((
          n,
        ) => [this.pyClasses.get(n)!, this.pyClasses.get(n.slice(5)) ?? this.pyClasses.get(`Sync${n.slice(5)}`)!]).map((
          p,
        ) => `${p.path}:${p.line}`);
        return [
          [
            !this.typeChecked && def.count >= 10 && hint.count / def.count >= 0.8
              ? {
                title: 'Python functions carry type hints, return types included',
                type: 'code-standard',
                summary: `${hint.count} of ${def.count} production functions (${
                  percent(hint.count, def.count)
                }) declare a return type.`,
                evidence: hint,
                ratio: hint.count / def.count,
                why: 'Counted over the function definitions of the production code.',
                tags: ['typing'],
              }
              : undefined,
            dataclass.count >= 3
              ? {
                title: 'Plain data records are `@dataclass`es',
                type: 'code-pattern',
                summary: `${dataclass.count} dataclasses in ${dataclass.files.size} production files.`,
                evidence: dataclass,
                ratio: 0.8,
                why: 'The decorator recurs.',
                tags: ['dataclasses'],
              }
              : undefined,
            pydantic.count >= 3
              ? {
                title: 'Data crossing boundaries is modelled with Pydantic `BaseModel`',
                type: 'code-pattern',
                summary: `${pydantic.count} models in ${pydantic.files.size} production files.`,
                evidence: pydantic,
                ratio: 0.8,
                why: 'The base class recurs.',
                tags: ['pydantic'],
              }
              : undefined,
          ],
          [
            twins.length >= 2
              ? {
                title: `Sync and async APIs are kept in pairs: ${nameList(twins.map((t) => `${t.slice(5)}/${t}`), 60)}`,
                type: 'architecture',
                summary: `${twins.length} classes have a sync and an async twin (${
                  nameList(
                    twins.map((t) => `${this.pyClasses.has(t.slice(5)) ? t.slice(5) : `Sync${t.slice(5)}`} / ${t}`),
                    140,
                    false,
                  )
                }). A change to one side needs the same change on the other.`,
                evidence: def,
                ratio: 0.9,
                support: twins.length * 4,
                why:
                  'Both forms are declared side by side in the production code: the library offers every I/O API twice.',
                tags: ['async', 'sync', 'api'],
                extraSources: twinSources,
              }
              : undefined,
          ],
        ];
      }
      case 'rust': {
        const [te, ah] = ['thiserror', 'anyhow'].map(g);
        const scope = (crate: string) =>
          [...this.crateUse.entries()].filter(([k]) => k.startsWith(crate + '|')).map(([k]) => k.split('|')[1]).sort();
        const anyhowIn = scope('anyhow');
        const thiserrorIn = scope('thiserror');
        // The crates with production code: a Cargo.toml in test data is no crate of the product (syntax-test sources).
        const all = this.rustCrates.size;
        const files = (n: number) => `${n} file${n === 1 ? '' : 's'}`;
        return [
          [],
          [
            te.count >= 2 && thiserrorIn.length
              ? {
                title: `Error types derive \`thiserror::Error\` in ${nameList(thiserrorIn, 50)}`,
                type: 'code-pattern',
                summary: `${te.count} error types derive it in ${files(te.files.size)} of ${
                  nameList(thiserrorIn, 80, false)
                }${all > thiserrorIn.length ? `; the other crates define their error types by hand` : ''}.`,
                evidence: te,
                ratio: 0.85,
                why: 'The derive recurs in the crates that depend on thiserror.',
                tags: ['errors'],
              }
              : undefined,
            ah.count >= 3 && anyhowIn.length
              ? {
                title: `Application errors go through \`anyhow\` (its Result, bail!, .context()) in ${
                  nameList(anyhowIn, 40)
                }`,
                type: 'code-pattern',
                summary: `${ah.count} uses in ${files(ah.files.size)} of ${nameList(anyhowIn, 80, false)}${
                  all > anyhowIn.length ? '; the library crates keep their own error types' : ''
                }.`,
                evidence: ah,
                ratio: 0.8,
                why: 'Counted in the files that import anyhow.',
                tags: ['errors'],
              }
              : undefined,
          ],
        ];
      }
      case 'java': {
        const ann = g('nullAnn');
        return [
          [
            ann.count >= 5 && ann.files.size >= 3
              ? {
                title: 'Nullability is annotated (`@Nullable`/`@NonNull`)',
                type: 'code-standard',
                summary: `${ann.count} annotations in ${ann.files.size} production files.`,
                evidence: ann,
                ratio: 0.8,
                why: 'The annotations recur in the production code.',
                tags: ['null-safety'],
              }
              : undefined,
          ],
          [],
        ];
      }
      default:
        return [[], []];
    }
  }
}
