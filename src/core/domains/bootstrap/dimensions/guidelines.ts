import { parse as parseJsonc } from 'jsonc-parser';
import { languageForPath } from '../../../ground/kernel/languages';
import { commandSources, commandWords, expandedText, type ProjectCommand } from '../commands';
import { fit, fitSummary, MAX_SUMMARY, nameList } from '../form';
import { pathKind } from '../source';
import type { AnalysisContext, Analyzer, CandidateDraft, SourceFile } from '../types';
import { languageOf } from './standards';

/** Files written for AI tools and agents: their rules come before anything the scan infers. */
export const AGENT_FILES =
  /^(AI[_-]POLICY\.md|\.github\/AI[_-]POLICY\.md|docs\/AI[_-]POLICY\.md|AGENTS\.md|CLAUDE\.md|GEMINI\.md|\.cursorrules|\.windsurfrules|\.github\/copilot-instructions\.md|\.github\/instructions\/[^/]+\.md)$/i;
/** Contributor guides: their bulleted rules bind an agent's changes too. */
const CONTRIBUTOR_FILES = /^(CONTRIBUTING\.md|docs\/CONTRIBUTING\.md|\.github\/CONTRIBUTING\.md)$/i;
const IMPERATIVE =
  /\b(must|never|always|do not|don't|should not|shouldn't|only|required|forbidden|avoid|prefer|not allowed|not permitted|are expected to)\b/i;
const STRICT_FLAGS = [
  'strict',
  'noUncheckedIndexedAccess',
  'exactOptionalPropertyTypes',
  'noImplicitOverride',
  'noImplicitReturns',
  'noUnusedLocals',
  'noUnusedParameters',
  'noFallthroughCasesInSwitch',
  'noPropertyAccessFromIndexSignature',
];
const LINT_RULES =
  /['"]?((?:@typescript-eslint\/)?(?:no-restricted-imports|no-restricted-syntax|no-restricted-globals|no-console|no-explicit-any|no-floating-promises|no-non-null-assertion|no-eval|no-implied-eval|no-misused-promises|explicit-module-boundary-types|consistent-type-imports|import\/no-cycle|import\/no-default-export))['"]?\s*:\s*\[?\s*['"]?(error|warn|2|1)\b/g;

/**
 * A tsconfig's compiler options with those of the configs it extends (relative paths, four deep),
 * each with the `file:line` that sets it: the config's own settings win over what it extends.
 */
async function tsconfigOptions(
  ctx: AnalysisContext,
  config: string,
  depth = 0,
): Promise<Map<string, { value: unknown; source: string }>> {
  const text = await ctx.read(config);
  if (!text) return new Map();
  const json = parseJsonc(text, [], { allowTrailingComma: true }) as {
    extends?: unknown;
    compilerOptions?: Record<string, unknown>;
  } | undefined;
  const base = typeof json?.extends === 'string' && json.extends.startsWith('.') && depth < 4
    ? await tsconfigOptions(ctx, joinPath(config, json.extends), depth + 1)
    : new Map<string, { value: unknown; source: string }>();
  const lines = text.split('\n');
  for (const [flag, value] of Object.entries(json?.compilerOptions ?? {})) {
    base.set(flag, { value, source: `${config}:${lines.findIndex((l) => l.includes(`"${flag}"`)) + 1}` });
  }
  return base;
}

/** `a/b/tsconfig.json` + `../c/base.json` → `a/c/base.json` (a `.json` added when left out). */
function joinPath(from: string, rel: string): string {
  const parts = from.split('/').slice(0, -1);
  for (const p of rel.split('/')) {
    if (p === '..') parts.pop();
    else if (p !== '.' && p) parts.push(p);
  }
  const out = parts.join('/');
  return out.endsWith('.json') ? out : `${out}.json`;
}

/** A generated file's header that says editing it is pointless: it is regenerated from a source. */
const FORBIDS_EDITS =
  /\bdo not (edit|modify)\b|\bdon't (edit|modify)\b|changes (to this file )?(will|may) be (lost|overwritten)|@generated\b/i;
/** Marked generated code this long is worth a candidate even when its header does not forbid edits. */
const MIN_GENERATED_LINES = 200;
const MIGRATIONS = /(^|\/)(migrations|alembic\/versions|db\/migrate)\//;

/** Dimension 7, agent guidelines: rules the project states, generated code, compiler and lint strictness. */
export class AgentGuidelinesAnalyzer implements Analyzer {
  private readonly generated: { path: string; line: number; marker: string; lines: number; forbidsEdits: boolean }[] =
    [];
  private readonly rustLints: { path: string; line: number; text: string }[] = [];
  private readonly crateRoots: string[] = [];

  visit(file: SourceFile): void {
    if (file.generated) {
      this.generated.push({
        path: file.path,
        ...file.generated,
        lines: file.lines.length,
        forbidsEdits: FORBIDS_EDITS.test(file.lines.slice(0, 12).join('\n')),
      });
    }
    if (file.kind === 'production' && file.family === 'rust' && /(^|\/)(lib|main)\.rs$/.test(file.path)) {
      this.crateRoots.push(file.path);
      file.lines.forEach((l, i) => {
        // `#![cfg_attr(clippy, deny(warnings))]`: every Clippy warning fails `cargo clippy`.
        if (
          /^#!\[(?:(forbid|deny)\((unsafe_code|warnings|clippy::\w+|missing_docs)|cfg_attr\(clippy,\s*(deny|forbid)\()/
            .test(l)
        ) this.rustLints.push({ path: file.path, line: i + 1, text: l.trim() });
      });
    }
  }

  async finish(ctx: AnalysisContext): Promise<CandidateDraft[]> {
    const out: CandidateDraft[] = [];
    // Agent files first: they are the ones an agent must read before it changes anything.
    const files = [
      ...ctx.listing.filter((x) => AGENT_FILES.test(x)).sort(),
      ...ctx.listing.filter((x) => CONTRIBUTOR_FILES.test(x)).sort(),
    ];
    const seen = new Set<string>();
    for (const f of files) {
      const text = await ctx.read(f);
      if (!text) continue;
      // The same rules in two places (docs/contributing.md and .github/CONTRIBUTING.md) are one candidate.
      const key = statedRules(text, AGENT_FILES.test(f)).map((r) => r.text).join('\n');
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(...(AGENT_FILES.test(f) ? agentPolicy(f, text) : contributorRules(f, text)));
    }

    // Generated files where the product's code lives: not those of an example, a fixture or a docs site.
    const named = ctx.listing.filter((x) =>
      pathKind(x) === 'generated' && !/\.(lock|sum)$|lock\.(json|yaml)$|\.resolved$/.test(x)
      && pathKind(x.replace(/[^/]+$/, 'x')) === 'production' && languageForPath(x)
    ).map((path) => ({ path, line: 1, marker: 'generated file name' }));
    // Database migrations are generated once and then the project's own, edited and written by hand.
    const inProduct = (p: string) => pathKind(p.replace(/[^/]+$/, 'x')) === 'production' && !MIGRATIONS.test(p);
    const marked = this.generated.filter((g) => inProduct(g.path));
    const generated = [...marked, ...named.filter((n) => !this.generated.some((g) => g.path === n.path))].sort((
      a,
      b,
    ) => (a.path < b.path ? -1 : 1));
    // Worth an agent's attention when regenerated from a source (named so, or saying not to edit) or
    // when there is much of it; not for a few small files a setup tool wrote once (bin shims).
    const worthSaying = generated.length > marked.length || marked.some((g) => g.forbidsEdits)
      || marked.reduce((n, g) => n + g.lines, 0) >= MIN_GENERATED_LINES;
    if (generated.length >= 1 && worthSaying) {
      const dirs = [...new Set(generated.map((g) => g.path.split('/').slice(0, -1).join('/') || '.'))];
      out.push({
        title: fit(`Generated files are not edited by hand (${nameList(dirs, 60, false)})`, 100),
        knowledgeType: 'boundary-constraint',
        dimension: 'agent-guidelines',
        language: languageOf(ctx.primary ?? 'other', ctx),
        category: 'agent-guidelines',
        summary: `${generated.length} file${generated.length === 1 ? ' is' : 's are'} marked as generated ("${
          generated[0].marker
        }"). Change their source or generator and regenerate; never edit them directly, and do not learn patterns from them.`,
        code: '',
        reasoning: {
          whyStandard: 'The files say so themselves.',
          sources: generated.slice(0, 8).map((g) => `${g.path}:${g.line}`),
          confidence: 0.9,
        },
        tags: ['agent-guidelines', 'generated'],
      });
    }

    const strict = await this.compilerStrictness(ctx);
    if (strict) out.push(strict);
    out.push(...(await this.swiftSettings(ctx)));
    out.push(...(await this.lintRules(ctx)));
    if (this.rustLints.length) out.push(await this.crateLints(ctx));
    return out;
  }

  /**
   * The crate roots' `#![deny(…)]` lines, titled by what they do: `cfg_attr(clippy, deny(warnings))`
   * makes every warning fail `cargo clippy` (the attributes themselves make a title cut
   * at 100 characters), with the Clippy command CI runs.
   */
  private async crateLints(ctx: AnalysisContext): Promise<CandidateDraft> {
    // Clippy's lints fail `cargo clippy`, not the build; rustc's own (unsafe_code, warnings, missing_docs) fail the build.
    const texts = [...new Set(this.rustLints.map((l) => l.text))];
    const clippyOnly = texts.every((t) => /^#!\[\w+\((clippy::\w+(,\s*)?)+\)\]|^#!\[cfg_attr\(clippy,/.test(t));
    const compiler = texts.some((t) => /\b(unsafe_code|warnings|missing_docs)\b/.test(t));
    const warningsAlways = texts.some((t) => /^#!\[(deny|forbid)\([^)]*\bwarnings\b/.test(t));
    const warningsUnderClippy = !warningsAlways
      && texts.some((t) => /^#!\[cfg_attr\(clippy,\s*(deny|forbid)\([^)]*\bwarnings\b/.test(t));
    const names = [...new Set(texts.flatMap((t) => t.match(/\b(?:unsafe_code|missing_docs|clippy::\w+)/g) ?? []))];
    // The lints besides `warnings`, as many as fit the title.
    const also = names.length ? ` (and ${nameList(names, 25)})` : '';
    const title = warningsAlways
      ? `Crate-level lints: every warning is a compile error${also}`
      : warningsUnderClippy
      ? `Crate-level lints: every warning fails \`cargo clippy\`${also}`
      : `Crate-level lints: ${nameList(names, 60)} ${names.length === 1 ? 'fails' : 'fail'} ${
        clippyOnly
          ? '`cargo clippy`'
          : compiler && names.some((n) => n.startsWith('clippy::'))
          ? 'the build or `cargo clippy`'
          : 'the build'
      }`;
    const clippy =
      (await commandSources(ctx)).filter((c) => /\bcargo\s+(\+\S+\s+)?clippy\b/.test(c.text)).sort((a, b) =>
        Number(!!b.job) - Number(!!a.job)
      )[0];
    const run = clippy
      ? ` ${clippy.job ? 'CI' : `\`${clippy.command}\``} runs \`${
        clippy.text.replace(/^[\w:-]+:\s*/, '').replace(/\s+--\s.*$/, '')
      }\`${warningsAlways || warningsUnderClippy ? ': fix every warning before pushing' : ''}.`
      : '';
    return {
      title: fit(title, 100),
      knowledgeType: 'code-standard',
      dimension: 'agent-guidelines',
      language: 'rust',
      category: 'agent-guidelines',
      summary: warningsUnderClippy
        ? `${this.lintedCrates(texts)}, and every warning under Clippy (\`cfg_attr(clippy, deny(warnings))\`).${run}`
        : `${this.lintedCrates(texts)}; ${
          clippyOnly
            ? `code that triggers ${lintCount(texts) === 1 ? 'it' : 'them'} fails \`cargo clippy\``
            : compiler && texts.some((t) => /clippy/.test(t))
            ? 'code that triggers the compiler lints does not compile, and the Clippy ones fail `cargo clippy`'
            : `code that triggers ${lintCount(texts) === 1 ? 'it' : 'them'} does not compile`
        }.${run}`,
      code: texts.join('\n'),
      reasoning: {
        whyStandard: clippyOnly ? 'Enforced by Clippy.' : 'Enforced by the compiler.',
        sources: [...this.rustLints.slice(0, 6).map((l) => `${l.path}:${l.line}`), ...(clippy ? [clippy.source] : [])],
        confidence: 0.95,
      },
      tags: ['agent-guidelines', 'compiler', 'rust'],
    };
  }

  /** Which crate roots set the lints ("3 of 4 crate roots (…; not alacritty_config) deny…"): the reviewers found "the crate roots" overclaimed. */
  private lintedCrates(texts: readonly string[]): string {
    const crate = (p: string) => {
      const parts = p.split('/');
      const src = parts.lastIndexOf('src');
      return src > 0 ? parts[src - 1] : src === 0 || parts.length < 2 ? 'the root crate' : parts[parts.length - 2];
    };
    const roots = [...new Set(this.crateRoots)];
    const linted = new Set(this.rustLints.map((l) => l.path));
    const verbs = [...new Set(this.rustLints.map((l) => /\bforbid\(/.test(l.text) ? 'forbid' : 'deny'))].join(' and ');
    const what = lintCount(texts) === 1 ? 'this lint' : 'these lints';
    if (linted.size === roots.length) {
      return `${roots.length === 1 ? 'The crate root' : `All ${roots.length} crate roots`} ${
        roots.length === 1 ? verbs.replace(/(deny|forbid)/g, (v) => (v === 'deny' ? 'denies' : 'forbids')) : verbs
      } ${what}`;
    }
    const without = roots.filter((r) => !linted.has(r)).map(crate);
    return `${linted.size} of ${roots.length} crate roots (${nameList([...linted].map(crate), 70, false)}; not ${
      nameList(without, 50, false)
    }) ${verbs} ${what}`;
  }

  private async compilerStrictness(ctx: AnalysisContext): Promise<CandidateDraft | undefined> {
    // The root config first, then the shallowest; never a docs site's or an example's own (zod's
    // packages/docs was cited while the library's flags come from .configs/tsconfig.base.json).
    const configs = ctx.listing
      .filter((f) =>
        /(^|\/)tsconfig(\.[\w-]+)?\.json$/.test(f) && f.split('/').length <= 3
        && ['production', 'build'].includes(pathKind(f))
      )
      .sort((a, b) =>
        Number(b === 'tsconfig.json') - Number(a === 'tsconfig.json') || a.split('/').length - b.split('/').length
        || (a < b ? -1 : 1)
      );
    for (const c of configs) {
      const options = await tsconfigOptions(ctx, c);
      const on = STRICT_FLAGS.filter((f) => options.get(f)?.value === true);
      // `strict` alone is how most TypeScript projects compile: a card for it alone is trivial.
      if (!on.includes('strict')) continue;
      if (on.length === 1) break;
      const sources = [...new Set(on.map((f) => options.get(f)!.source))];
      const from = [...new Set(sources.map((s) => s.replace(/:\d+$/, '')))];
      return {
        // The longest list of flags that fits the title whole (nameList's budget leaves out its "and N more").
        title: `TypeScript compiles in strict mode (${
          [60, 48, 36].map((b) => nameList(on, b, false)).find((l) => l.length <= 62) ?? nameList(on, 30, false)
        })`,
        knowledgeType: 'code-standard',
        dimension: 'agent-guidelines',
        language: 'typescript',
        category: 'agent-guidelines',
        summary: `${
          from[0] === c ? c : `${c}, through ${nameList(from.filter((f) => f !== c), 80, false)},`
        } turns on ${on.join(', ')}: new code must type-check under them${
          on.length <= 3 ? ' (no implicit any, no unchecked nulls)' : ''
        }.`,
        code: on.map((f) => `"${f}": true`).join('\n'),
        reasoning: { whyStandard: 'Enforced by the compiler configuration.', sources, confidence: 0.95 },
        tags: ['agent-guidelines', 'compiler', 'typescript'],
      };
    }
    for (const p of ctx.listing.filter((f) => /(^|\/)pyproject\.toml$/.test(f)).slice(0, 3)) {
      const text = await ctx.read(p);
      const lines = text?.split('\n') ?? [];
      const i = lines.findIndex((l) => /^\s*(strict\s*=\s*true|disallow_untyped_defs\s*=\s*true)/.test(l));
      if (i >= 0 && lines.slice(0, i).some((l) => /^\[tool\.mypy\]/.test(l))) {
        // Modules an override lets go unannotated (`tests.*`: the rule holds for the package only).
        const relaxed = mypyRelaxed(lines);
        const runner =
          (await commandSources(ctx)).filter((c) => /(^|[\s/}])mypy\b/.test(c.text)).sort((a, b) =>
            Number(!!b.job) - Number(!!a.job)
          )[0];
        const by = runner ? ` ${runner.job ? 'CI' : `\`${runner.command}\``} runs it.` : '';
        return {
          title: 'Python code type-checks under strict mypy',
          knowledgeType: 'code-standard',
          dimension: 'agent-guidelines',
          language: 'python',
          category: 'agent-guidelines',
          summary: `${p} configures mypy with \`${lines[i].trim()}\`: every function needs annotations${
            relaxed.modules.length
              ? `, except in ${nameList(relaxed.modules, 60)} (an override sets \`disallow_untyped_defs = false\`)`
              : ''
          }.${by}`,
          code: lines[i].trim(),
          reasoning: {
            whyStandard: 'Enforced by the type checker configuration.',
            sources: [
              `${p}:${i + 1}`,
              ...(relaxed.line ? [`${p}:${relaxed.line}`] : []),
              ...(runner ? [runner.source] : []),
            ],
            confidence: 0.9,
          },
          tags: ['agent-guidelines', 'types', 'python'],
        };
      }
    }
    return undefined;
  }

  /**
   * What the Swift package's settings turn on, read from the manifest that applies (Package.swift,
   * not the version-specific ones): the language mode (Swift 6 makes data races compile errors;
   * `swiftLanguageModes: [.v5]` keeps them off whatever the tools version) and upcoming features.
   */
  private async swiftSettings(ctx: AnalysisContext): Promise<CandidateDraft[]> {
    const manifest = ctx.listing.find((f) => f === 'Package.swift')
      ?? ctx.listing.find((f) =>
        /(^|\/)Package\.swift$/.test(f) && pathKind(f) === 'build' && f.split('/').length <= 2
      );
    if (!manifest) return [];
    const text = (await ctx.read(manifest)) ?? '';
    const lines = text.split('\n');
    const find = (re: RegExp) =>
      lines.findIndex((l) => re.test(l) && !/^\s*\/\//.test(l.replace(/^\s*\/\/\s*swift-tools-version.*/, 'TOOLS')));
    const tools = /swift-tools-version\s*:\s*([\d.]+)/.exec(lines[0] ?? '')?.[1];
    const modeLine = find(/swiftLanguage(Modes|Versions)\s*:/);
    const modes = modeLine >= 0 ? [...lines[modeLine].matchAll(/\.v(\d+)/g)].map((m) => Number(m[1])) : [];
    const strictLine = find(/StrictConcurrency|-strict-concurrency=complete/);
    const swift6 = modes.length ? Math.max(...modes) >= 6 : Number(tools?.split('.')[0] ?? 0) >= 6;
    const out: CandidateDraft[] = [];
    if (swift6 || strictLine >= 0) {
      const at = strictLine >= 0 ? strictLine : modeLine >= 0 ? modeLine : 0;
      out.push({
        title: 'Swift code compiles with complete concurrency checking (data races are errors)',
        knowledgeType: 'code-standard',
        dimension: 'agent-guidelines',
        language: 'swift',
        category: 'agent-guidelines',
        summary: `${manifest} ${
          strictLine >= 0 ? 'enables strict concurrency checking' : 'builds in the Swift 6 language mode'
        } (\`${lines[at].trim()}\`): new code must be Sendable-correct and isolated properly, or it does not compile.`,
        code: '',
        reasoning: {
          whyStandard: 'Read from the package manifest that applies, including its language mode.',
          sources: [`${manifest}:${at + 1}`],
          confidence: 0.9,
        },
        tags: ['agent-guidelines', 'concurrency', 'swift'],
        trigger: 'swift-strict-concurrency',
      });
    }
    const features = [...text.matchAll(/\.enable(Upcoming|Experimental)Feature\s*\(\s*"(\w+)"/g)].map((m) => m[2])
      .filter((f) => f !== 'StrictConcurrency');
    // An Xcode project beside the package may check concurrency completely anyway (as warnings under Swift 5).
    let xcodeStrict: { file: string; line: number; xcode?: string } | undefined;
    for (const pbx of ctx.listing.filter((f) => /^[^/]+\.xcodeproj\/project\.pbxproj$/.test(f))) {
      const lines = ((await ctx.read(pbx)) ?? '').split('\n');
      const i = lines.findIndex((l) => /\bSWIFT_STRICT_CONCURRENCY\w*\s*=\s*complete\s*;/.test(l));
      // `SWIFT_STRICT_CONCURRENCY_XCODE_1600 = complete`: only under that Xcode ("complete" alone overstates it).
      const xcode = i >= 0 ? /_XCODE_(\d\d)\d\d\b/.exec(lines[i])?.[1] : undefined;
      if (i >= 0) xcodeStrict = { file: pbx, line: i + 1, ...(xcode ? { xcode: String(Number(xcode)) } : {}) };
    }
    const unique = [...new Set(features)];
    if (unique.length) {
      const at = find(new RegExp(`enable(Upcoming|Experimental)Feature\\s*\\(\\s*"${unique[0]}"`));
      const meaning = unique.map((f) => SWIFT_FEATURES[f] ? `${f} (${SWIFT_FEATURES[f]})` : f);
      out.push({
        title: fit(
          `The package turns on Swift ${unique.length === 1 ? 'feature' : 'features'} ${nameList(unique, 60)}`,
          100,
        ),
        knowledgeType: 'code-standard',
        dimension: 'agent-guidelines',
        language: 'swift',
        category: 'agent-guidelines',
        summary: `${manifest} enables ${meaning.join('; ')}${
          modes.length && !swift6
            ? `, in the Swift ${Math.max(...modes)} language mode (${
              xcodeStrict
                ? `data races are not errors; ${
                  xcodeStrict.file.split('/')[0]
                } checks concurrency with SWIFT_STRICT_CONCURRENCY = complete${
                  xcodeStrict.xcode ? ` under Xcode ${xcodeStrict.xcode}` : ''
                }, as warnings: keep new code Sendable-clean`
                : 'strict concurrency errors are not on'
            })`
            : ''
        }. New code must compile under ${unique.length === 1 ? 'it' : 'them'}.`,
        code: '',
        reasoning: {
          whyStandard: "The package manifest's swiftSettings apply to every file of the target.",
          sources: [
            `${manifest}:${at + 1}`,
            ...(modeLine >= 0 ? [`${manifest}:${modeLine + 1}`] : []),
            ...(xcodeStrict ? [`${xcodeStrict.file}:${xcodeStrict.line}`] : []),
          ],
          confidence: 0.9,
        },
        tags: ['agent-guidelines', 'compiler', 'swift'],
        trigger: 'swift-features',
      });
    }
    return out;
  }

  private async lintRules(ctx: AnalysisContext): Promise<CandidateDraft[]> {
    const configs = ctx.listing.filter((f) =>
      /^(eslint\.config\.(js|mjs|cjs|ts)|\.eslintrc(\.(json|js|cjs|yml|yaml))?)$/.test(f)
    );
    const out: CandidateDraft[] = [];
    let runner: ProjectCommand | null | undefined;
    for (const c of configs) {
      const text = await ctx.read(c);
      if (!text) continue;
      const found: { rule: string; level: string; line: number }[] = [];
      const lines = text.split('\n');
      lines.forEach((l, i) => {
        for (const m of l.matchAll(LINT_RULES)) {
          if (!found.some((f) => f.rule === m[1])) {
            found.push({ rule: m[1], level: m[2] === '2' ? 'error' : m[2] === '1' ? 'warn' : m[2], line: i + 1 });
          }
        }
      });
      if (found.length === 0) continue;
      // Enforced only where CI, a hook or a script runs ESLint; otherwise the rules are only configured.
      runner ??= eslintRunner(await commandSources(ctx));
      out.push({
        title: `Lint rules the project ${runner ? 'enforces' : 'configures'}: ${
          nameList(found.map((f) => f.rule.replace(/^@typescript-eslint\//, '')), 60)
        }`,
        knowledgeType: 'boundary-constraint',
        dimension: 'agent-guidelines',
        language: 'typescript',
        category: 'agent-guidelines',
        summary: `${c} sets ${found.map((f) => `${f.rule} (${f.level})`).join(', ')}. ${
          runner
            ? `Code that breaks them fails \`${runner.command}\`.`
            : 'No CI step, script or hook runs ESLint: run it on changed files.'
        }`,
        code: found.map((f) => lines[f.line - 1].trim()).join('\n'),
        reasoning: {
          whyStandard: runner
            ? `The lint configuration, run by ${runner.command}.`
            : 'The lint configuration (nothing runs it automatically).',
          sources: [...found.slice(0, 7).map((f) => `${c}:${f.line}`), ...(runner ? [runner.source] : [])],
          confidence: runner ? 0.9 : 0.8,
        },
        tags: ['agent-guidelines', 'lint'],
      });
    }
    return out;
  }
}

/** What runs ESLint: CI or a hook running it or a `lint` task (`pnpm turbo lint`), else a script that calls it. */
function eslintRunner(commands: readonly ProjectCommand[]): ProjectCommand | null {
  const automatic = commands.filter((s) => s.job || /^(\.pre-commit-config|lefthook|\.husky\/)/.test(s.source));
  return automatic.find((s) =>
    /\beslint\b/.test(expandedText(s, commands)) || commandWords(s.command).slice(1).includes('lint')
  ) ?? commands.find((s) => /\beslint\b/.test(expandedText(s, commands))) ?? null;
}

/** A section of general rules (`## Rules`, `## Important`), not one topic's ("TypeScript Guidelines"): what it states applies to every change. */
const GENERAL_SECTION =
  /^(?:(?:general|key|core|project|ground|house)\s+)?(?:rules|guidelines|conventions|principles)$|\b(?:important|critical|read this first)\b|^(?:must|always|never|do(?:n't| not))\b/i;

/** A rule a project document states, where, and how much it matters to an agent. */
interface StatedRule {
  text: string;
  line: number;
  heading: string;
  /** Written in bold, or about AI and agents: put first. */
  weight: number;
}

/**
 * An agent policy or instruction file (AI_POLICY.md, AGENTS.md, CLAUDE.md, Copilot instructions):
 * one candidate whose title is the rule that matters most to an agent, with every stated rule.
 * Prose counts as well as lists: a policy is often written in paragraphs with the key rule in bold.
 */
function agentPolicy(file: string, text: string): CandidateDraft[] {
  const all = statedRules(text, true);
  // How the assistant should talk ("avoid explanations", "prefer code", a "Communication Guidelines" section) is no
  // knowledge of the code: such rules are dropped. Kept only when there is nothing else.
  const chat = (r: StatedRule) =>
    ASSISTANT_MANNERS.test(r.text) || /\b(communication|chat|conversation|tone)\b/i.test(r.heading);
  const rules = all.some((r) => !chat(r)) ? all.filter((r) => !chat(r)) : all;
  if (rules.length === 0) return [];
  const top = [...rules].sort((a, b) => b.weight - a.weight || a.line - b.line);
  const policy = /policy/i.test(file);
  const label = policy ? 'Agent policy' : 'Agent instructions';
  const rule = top[0].text.replace(/\.$/, '');
  // The rule whole rather than the label: a cut rule can say the opposite of what it says in full.
  const labelled = `${label} (\`${file}\`): ${rule}`;
  return [{
    // A long rule's first sentence when it fits ("Never block a request/worker thread."), not a cut.
    title: labelled.length <= 100 ? labelled : fitSummary(`\`${file}\`: ${rule}`, 100),
    knowledgeType: 'agent-guideline',
    dimension: 'agent-guidelines',
    language: 'markdown',
    category: 'agent-guidelines',
    summary: agentSummary(file, text, top, policy),
    code: '',
    // The rules that name the project's code or commands first (`yarn test:app`, a `Point` rule) before generic TypeScript advice.
    details: top.slice(0, 16).map((r) => `- ${r.text} (line ${r.line})`).join('\n'),
    reasoning: {
      whyStandard:
        `Written by the project for AI tools and agents (${file}); it overrides any convention the scan infers.`,
      sources: top.slice(0, 8).map((r) => `${file}:${r.line}`),
      confidence: 0.95,
    },
    tags: ['agent-guidelines', 'documented', 'policy'],
    trigger: policy ? 'ai-policy' : 'agent-instructions',
  }];
}

/** How many lints the attribute lines name (`#![deny(clippy::all, clippy::if_not_else)]` is two). */
const lintCount = (texts: readonly string[]) =>
  new Set(texts.flatMap((t) => t.match(/\b(?:unsafe_code|warnings|missing_docs|clippy::\w+)/g) ?? [])).size;

/** The sentences of a document's paragraphs (headings and code blocks left out), bold marks removed. */
function proseSentences(text: string): string[] {
  return text
    .replace(/```[\s\S]*?```/g, '')
    .split(/\n\s*\n/)
    .filter((p) => !/^\s*#/.test(p))
    .flatMap((p) => p.replace(/\*\*/g, '').replace(/^[>*\s-]+/, '').replace(/\s+/g, ' ').trim().split(/(?<=[.!?])\s+/));
}

/** A rule as a sentence: "Always run `yarn test:update` before committing" ran into the next one without its full stop. */
const sentence = (t: string) => (/[.!?…:]$/.test(t.trim()) ? t.trim() : `${t.trim()}.`);

/** Commands in backticks or a shell block: an instruction file that gives them is more than its rules. */
const GIVES_COMMANDS =
  /`(?:yarn|npm|pnpm|npx|bun|\.\/gradlew|gradle|cargo|go|make|swift|xcodebuild|python3?|pytest|uv|poetry|tox|\.\/[\w/.-]+\.sh)\b[^`]*`|```(?:sh|bash|shell|console)\b/;

/**
 * The rules that matter most, then what the file is. No count of rules: the reviewers counted
 * commands and notes as well and called every count wrong. A policy's permission ("using AI as a
 * tool is welcome") is said with its ban, or the ban reads as "refuse to work".
 */
function agentSummary(file: string, text: string, top: readonly StatedRule[], policy: boolean): string {
  const shown = [top[0].text];
  // The permission is often prose, not a stated rule ("Using AI (i.e., LLMs) as tools for coding is welcome.").
  const permits = (t: string) =>
    /\b(welcome|encouraged|allowed to use|may use|is fine|is ok(ay)?)\b/i.test(t) && !/\b(not|never|no)\b/i.test(t);
  const permission = policy
    ? top.find((r) => r !== top[0] && permits(r.text))?.text ?? proseSentences(text).find(permits)
    : undefined;
  if (permission) shown.push(permission);
  else if (top[1]) shown.push(top[1].text);
  const what = policy
    ? 'policy on AI tools and agents'
    : `instructions for coding agents${GIVES_COMMANDS.test(text) ? ', with its build and test commands' : ''}`;
  const tail = ` ${file} is the project's ${what}: read it whole before changing anything.`;
  const both = shown.map(sentence).join(' ');
  // Whole sentences of a long rule ("Never block a request/worker thread.") rather than one cut mid-clause.
  return (both.length + tail.length <= MAX_SUMMARY ? both : fitSummary(sentence(shown[0]), MAX_SUMMARY - tail.length))
    + tail;
}

/** Sections for the maintainers who cut releases, not for contributors. */
const MAINTAINERS_ONLY = /\b(releas(e|es|ing)|publish(ing)?|maintainers?)\b/i;
/** A rule about using AI tools or agents. */
const AI_RULE = /\b(AI|LLMs?|generative|agents?|Copilot|ChatGPT)\b/;

/** A contributor guide: its bulleted must/never rules (its prose explains more than it binds). */
function contributorRules(file: string, text: string): CandidateDraft[] {
  // A maintainers' release checklist binds no contribution (a "Releasing" section). Rules about AI and
  // agents first: they are the ones that govern the reader ("PR descriptions and comments … from humans").
  const rules = statedRules(text, false)
    .filter((r) => !MAINTAINERS_ONLY.test(r.heading))
    .slice(0, 12)
    .map((r, i) => ({ r, i, ai: AI_RULE.test(r.text) ? 1 : 0 }))
    .sort((a, b) => b.ai - a.ai || a.i - b.i)
    .map((x) => x.r);
  if (rules.length < 2) return [];
  const sections = [...new Set(rules.map((r) => r.heading).filter(Boolean))];
  // The rules themselves, as many as fit: a summary that only counts them tells an agent nothing.
  const head = `${file}${sections.length ? ` (${nameList(sections.map((x) => `"${x}"`), 80, false)})` : ''}: `;
  let said = '';
  let shown = 0;
  // The sentence that binds (must, never, don't…); the others explain it (the details keep it whole).
  // A long one up to the clause that binds: "…unless you have reviewed it yourself and understand what it does" without ", and be able to…".
  const binding = (r: StatedRule) => {
    const sentences = r.text.replace(/\s+/g, ' ').trim().split(/(?<=[.!?])\s+(?=[A-Z])/);
    // "It ensures that data is always returned in the same order" gives the reason for the rule before it.
    const reason = (x: string) =>
      /^(it|this|that|which)\s+(ensures?|helps?|makes?|prevents?|allows?|means|avoids?|keeps?)\b/i.test(x);
    const found = (sentences.find((x) => IMPERATIVE.test(x.replace(/’/g, "'")) && !reason(x)) ?? sentences[0]).replace(
      /[.;:]+$/,
      '',
    ).replace(/^(in particular|also|additionally|please note that),\s+(\w)/i, (_m, _w, c: string) => c.toUpperCase());
    if (found.length <= 140) return found;
    const at = found.slice(60).search(/,\s+and\s|;\s/);
    return at < 0 ? found : found.slice(0, 60 + at);
  };
  // As many as fit, skipping one too long for what is left rather than stopping at it.
  for (const r of rules) {
    const rule = binding(r);
    const next = said ? `${said}; ${rule}` : rule;
    if (head.length + next.length > MAX_SUMMARY - ' (and 99 more).'.length) continue;
    said = next;
    shown++;
  }
  return [{
    title: fit(`Rules stated in \`${file}\`${sections.length ? ` (${nameList(sections, 50, false)})` : ''}`, 100),
    knowledgeType: 'agent-guideline',
    dimension: 'agent-guidelines',
    language: 'markdown',
    category: 'agent-guidelines',
    // A first rule too long to share the summary is still its binding sentence ("please don't make a Pull Request that was created using generative AI unless…").
    summary: fitSummary(
      `${head}${said || binding(rules[0])}${shown < rules.length ? ` (and ${rules.length - (shown || 1)} more)` : ''}.`,
      300,
    ),
    code: '',
    details: rules.map((r) => `- ${r.text}`).join('\n'),
    reasoning: {
      whyStandard: 'Written down by the project itself.',
      sources: rules.slice(0, 8).map((r) => `${file}:${r.line}`),
      confidence: 0.9,
    },
    tags: ['agent-guidelines', 'documented', 'policy'],
  }];
}

/**
 * The must/never rules of a Markdown document, each at the line where it starts: list items, and
 * with `prose` also the sentences of paragraphs. Code blocks, headings and link definitions are not
 * rules; Markdown emphasis is dropped from the text.
 */
export function statedRules(text: string, prose: boolean): StatedRule[] {
  const out: StatedRule[] = [];
  const lines = text.split('\n');
  let heading = '';
  // The headings above the current one, by level: a generic heading is named with its parent's.
  const path: string[] = [];
  let shownHeading = '';
  let fence = false;
  let unit: { text: string; line: number; starts: number[]; item?: boolean; reasons?: boolean } | undefined;
  // The paragraph line before a list: "…not least because they:" makes its items reasons, not rules.
  let lead: string | undefined;
  const flush = () => {
    if (!unit) return;
    const u = unit;
    unit = undefined;
    // An item that introduces a command or a list ("If you only built the binaries with:") is no rule on its own.
    if (u.reasons || (u.item && /:\s*$/.test(u.text))) return;
    // Sentences end at `.`, `!` or `?` before a space and a capital or emphasis (`i.e.,` does not).
    // A list item too long to be one rule is read sentence by sentence (a 380-character item is otherwise lost).
    const parts = prose || u.text.length > 300 ? u.text.split(/(?<=[.!?])\s+(?=[*_"(]*[A-Z])/) : [u.text];
    let at = 0;
    for (const part of parts) {
      const index = u.text.indexOf(part, at);
      at = index + part.length;
      const raw = part.trim();
      const bold = /^\*\*[^*]+\*\*[.!?]?$|^__[^_]+__[.!?]?$/.test(raw) || /\*\*[^*]{12,}\*\*/.test(raw);
      const sentence = raw.replace(/\*\*|__|(?<!\w)[*_](?=\w)|(?<=\w)[*_](?!\w)/g, '').replace(/\s+/g, ' ').trim();
      // Typographic apostrophes read as plain ones ("Don’t do force unwrapping" is a rule); the text stays as written.
      const plain = sentence.replace(/[’‘]/g, "'");
      const agent = /\b(agents?|autonomous)\b/i.test(sentence)
        ? 2
        : /\b(LLMs?|AI|Copilot|Claude|Cursor)\b/.test(sentence)
        ? 1
        : 0;
      if (
        sentence.length < 12 || sentence.length > 300
        || !(IMPERATIVE.test(plain) || (agent && /\brequires?\b/.test(sentence)))
      ) continue;
      // "only" alone binds in a sentence, not in a lowercase list entry ("… - breaking only for existing plugins" in a list of breaking changes).
      if (
        !/^[A-Z`*_"(]/.test(sentence)
        && [...plain.matchAll(new RegExp(IMPERATIVE.source, 'gi'))].every((m) => m[0].toLowerCase() === 'only')
      ) continue;
      const line = u.starts.filter((s) => s <= index).length;
      const strict = /\b(never|must not|do not|don't|not allowed|not permitted|forbidden)\b/i.test(plain) ? 1 : 0;
      // A rule that names the code (`pointFrom`, `call_event`, a path) binds more than one about manners;
      // one about how to talk in a chat is no coding rule (a card must not lead with chat etiquette).
      const concrete = /`[^`]+`/.test(sentence) ? 1 : 0;
      const chat = CHAT_MANNERS.test(sentence) ? -2 : 0;
      // The file's own general rules (zod's "## Rules") before a rule of one narrow workflow ("Iterating on a contributor PR in a worktree").
      const general = GENERAL_SECTION.test(heading) ? 2 : 0;
      out.push({
        text: sentence,
        line: u.line + line - 1,
        heading: shownHeading,
        weight: (bold ? 2 : 0) + agent + strict + concrete + chat + general,
      });
    }
  };
  lines.forEach((raw, i) => {
    const l = raw.trim();
    if (/^(```|~~~)/.test(l)) {
      flush();
      fence = !fence;
      return;
    }
    if (fence) return;
    if (/^#{1,6}\s/.test(l)) {
      flush();
      heading = l.replace(/^#+\s*/, '').trim();
      const level = /^#+/.exec(l)![0].length;
      path.length = level - 1;
      path[level - 1] = heading;
      // A "Description" under a commit-message heading is that of a commit message; "General Guidelines" under locking, those of locking.
      const parent = path.slice(0, level - 1).filter(Boolean).pop();
      shownHeading = GENERIC_HEADING.test(heading) && parent ? parent : heading;
      lead = undefined;
      return;
    }
    const item = /^([-*+]|\d+\.)\s+(.*)$/.exec(l);
    if (!l || /^\[[^\]]+\]:\s*\S+/.test(l) || /^(>|\||<)/.test(l)) return flush();
    if (item) {
      flush();
      unit = {
        text: item[2],
        line: i + 1,
        starts: [0],
        item: true,
        reasons: !!lead && /:\s*$/.test(lead) && REASONS_FOLLOW.test(lead),
      };
      return;
    }
    if (!unit?.item) lead = l;
    if (!unit && !prose) return;
    if (!unit) unit = { text: l, line: i + 1, starts: [0] };
    else {
      unit.starts.push(unit.text.length + 1);
      unit.text += ' ' + l;
    }
  });
  flush();
  return out;
}

/** The modules a `[[tool.mypy.overrides]]` table lets go unannotated, and the line of the first. */
function mypyRelaxed(lines: readonly string[]): { modules: string[]; line?: number } {
  const modules: string[] = [];
  let line: number | undefined;
  for (let i = 0; i < lines.length; i++) {
    if (!/^\[\[tool\.mypy\.overrides\]\]/.test(lines[i].trim())) continue;
    const end = lines.findIndex((l, j) => j > i && /^\s*\[/.test(l));
    const table = lines.slice(i + 1, end < 0 ? lines.length : end).join('\n');
    if (!/^\s*disallow_untyped_defs\s*=\s*false\b/m.test(table)) continue;
    const names = /^\s*module\s*=\s*(\[[^\]]*\]|"[^"]*"|'[^']*')/m.exec(table)?.[1] ?? '';
    const found = [...names.matchAll(/["']([^"']+)["']/g)].map((m) => m[1]);
    if (found.length) {
      modules.push(...found);
      line ??= i + 1;
    }
  }
  return { modules, line };
}

/** A lead-in after which a list gives reasons or benefits ("Regression tests are great, not least because they:"). */
const REASONS_FOLLOW = /\b(because|since|benefits?|advantages?|reasons?|why)\b/i;

/** A heading that says nothing without its parent's. */
const GENERIC_HEADING =
  /^(general( guidelines)?|guidelines|best practices|description|summary( line)?|overview|notes?|details|rules|tips|examples?)$/i;

/**
 * Rules certainly about how the assistant talks, to leave out of an agent file's details: narrower
 * than CHAT_MANNERS, which only lowers a rule's weight ("Do not copy responses from the AI" is
 * a policy on AI output, not manners).
 */
const ASSISTANT_MANNERS =
  /\b(explanations?|explain|apologi[sz]e|apologising|verbose|verbosity|teach(ing)?|tone|clarifying questions?)\b/i;

/** Rules about how an assistant talks rather than about the code. */
const CHAT_MANNERS =
  /\b(explanations?|explain|respond|responses?|reply|replies|conversation|chat|tone|verbose|verbosity|teach(ing)?|apologi[sz]e|ask (me|the user)|clarifying questions?)\b/i;

/** What an upcoming Swift feature asks of the code, in a few words. */
const SWIFT_FEATURES: Record<string, string> = {
  ExistentialAny: 'existential types are written `any Protocol`',
  InternalImportsByDefault: 'imports are internal unless marked `public import`',
  MemberImportVisibility: 'a member is visible only where its module is imported',
  BareSlashRegexLiterals: '`/…/` regex literals',
  ConciseMagicFile: '`#file` is the short file name',
  ForwardTrailingClosures: 'trailing closures match parameters forwards',
  DisableOutwardActorInference: 'property wrappers no longer infer actor isolation',
  InferSendableFromCaptures: 'Sendable is inferred for closures and method references',
  GlobalConcurrency: 'global and static variables must be concurrency-safe',
  IsolatedDefaultValues: 'default values follow the isolation of their declaration',
  NonisolatedNonsendingByDefault: "nonisolated async functions run on the caller's actor",
};
