import { parse as parseJsonc } from 'jsonc-parser';
import { languageForPath } from '../../kernel/languages';
import { fit, nameList } from '../form';
import { pathKind } from '../source';
import type { AnalysisContext, Analyzer, CandidateDraft, SourceFile } from '../types';
import { languageOf } from './standards';

const INSTRUCTION_FILES = /^(AGENTS\.md|CLAUDE\.md|GEMINI\.md|\.cursorrules|\.windsurfrules|CONTRIBUTING\.md|docs\/CONTRIBUTING\.md|\.github\/CONTRIBUTING\.md|\.github\/copilot-instructions\.md|\.github\/instructions\/[^/]+\.md)$/;
const IMPERATIVE = /\b(must|never|always|do not|don't|should not|shouldn't|only|required|forbidden|avoid|prefer)\b/i;
const STRICT_FLAGS = ['strict', 'noUncheckedIndexedAccess', 'exactOptionalPropertyTypes', 'noImplicitOverride', 'noImplicitReturns', 'noUnusedLocals', 'noUnusedParameters', 'noFallthroughCasesInSwitch', 'noPropertyAccessFromIndexSignature'];
const LINT_RULES = /['"]?((?:@typescript-eslint\/)?(?:no-restricted-imports|no-restricted-syntax|no-restricted-globals|no-console|no-explicit-any|no-floating-promises|no-non-null-assertion|no-eval|no-implied-eval|no-misused-promises|explicit-module-boundary-types|consistent-type-imports|import\/no-cycle|import\/no-default-export))['"]?\s*:\s*\[?\s*['"]?(error|warn|2|1)\b/g;

/** Dimension 7, agent guidelines: rules the project states, generated code, compiler and lint strictness. */
export class AgentGuidelinesAnalyzer implements Analyzer {
  private readonly generated: { path: string; line: number; marker: string }[] = [];
  private readonly rustLints: { path: string; line: number; text: string }[] = [];

  visit(file: SourceFile): void {
    if (file.generated) this.generated.push({ path: file.path, ...file.generated });
    if (file.kind === 'production' && file.family === 'rust' && /(^|\/)(lib|main)\.rs$/.test(file.path)) {
      file.lines.forEach((l, i) => {
        if (/^#!\[(forbid|deny)\((unsafe_code|warnings|clippy::\w+|missing_docs)/.test(l)) this.rustLints.push({ path: file.path, line: i + 1, text: l.trim() });
      });
    }
  }

  async finish(ctx: AnalysisContext): Promise<CandidateDraft[]> {
    const out: CandidateDraft[] = [];
    for (const f of ctx.listing.filter((x) => INSTRUCTION_FILES.test(x)).sort()) {
      const text = await ctx.read(f);
      if (!text) continue;
      let heading = '';
      const rules = text
        .split('\n')
        .map((l, i) => {
          if (/^#{1,4}\s/.test(l)) heading = l.replace(/^#+\s*/, '').trim();
          return { l: l.trim(), line: i + 1, heading };
        })
        .filter(({ l }) => /^([-*+]|\d+\.)\s+/.test(l) && IMPERATIVE.test(l) && l.length < 300)
        .slice(0, 12);
      if (rules.length < 2) continue;
      const sections = [...new Set(rules.map((r) => r.heading).filter(Boolean))];
      out.push({
        title: fit(`Rules stated in \`${f}\`${sections.length ? ` (${nameList(sections, 50, false)})` : ''}`, 100),
        knowledgeType: 'agent-guideline',
        dimension: 'agent-guidelines',
        language: 'markdown',
        category: 'agent-guidelines',
        summary: `${f} states ${rules.length} must/never rules${sections.length ? ` under ${nameList(sections.map((x) => `"${x}"`), 120, false)}` : ''}; follow them where they apply, before the scan's heuristics.`,
        code: '',
        details: rules.map((r) => `- ${r.l.replace(/^([-*+]|\d+\.)\s+/, '')}`).join('\n'),
        reasoning: { whyStandard: 'Written down by the project itself.', sources: rules.slice(0, 8).map((r) => `${f}:${r.line}`), confidence: 0.9 },
        tags: ['agent-guidelines', 'documented'],
      });
    }

    // Generated files where the product's code lives: not those of an example, a fixture or a docs site.
    const named = ctx.listing.filter((x) => pathKind(x) === 'generated' && !/\.(lock|sum)$|lock\.(json|yaml)$|\.resolved$/.test(x) && pathKind(x.replace(/[^/]+$/, 'x')) === 'production' && languageForPath(x)).map((path) => ({ path, line: 1, marker: 'generated file name' }));
    const inProduct = (p: string) => pathKind(p.replace(/[^/]+$/, 'x')) === 'production';
    const generated = [...this.generated.filter((g) => inProduct(g.path)), ...named.filter((n) => !this.generated.some((g) => g.path === n.path))].sort((a, b) => (a.path < b.path ? -1 : 1));
    if (generated.length >= 1) {
      const dirs = [...new Set(generated.map((g) => g.path.split('/').slice(0, -1).join('/') || '.'))];
      out.push({
        title: fit(`Generated files are not edited by hand (${nameList(dirs, 60, false)})`, 100),
        knowledgeType: 'boundary-constraint',
        dimension: 'agent-guidelines',
        language: languageOf(ctx.primary ?? 'other', ctx),
        category: 'agent-guidelines',
        summary: `${generated.length} file${generated.length === 1 ? ' is' : 's are'} marked as generated ("${generated[0].marker}"). Change their source or generator and regenerate; never edit them directly, and do not learn patterns from them.`,
        code: '',
        reasoning: { whyStandard: 'The files say so themselves.', sources: generated.slice(0, 8).map((g) => `${g.path}:${g.line}`), confidence: 0.9 },
        tags: ['agent-guidelines', 'generated'],
      });
    }

    const strict = await this.compilerStrictness(ctx);
    if (strict) out.push(strict);
    out.push(...(await this.swiftSettings(ctx)));
    out.push(...(await this.lintRules(ctx)));
    if (this.rustLints.length) {
      out.push({
        title: `Crate-level lints: ${[...new Set(this.rustLints.map((l) => l.text))].slice(0, 3).join(' ')}`,
        knowledgeType: 'code-standard',
        dimension: 'agent-guidelines',
        language: 'rust',
        category: 'agent-guidelines',
        summary: 'The crate roots forbid or deny these lints; code that triggers them does not compile.',
        code: [...new Set(this.rustLints.map((l) => l.text))].join('\n'),
        reasoning: { whyStandard: 'Enforced by the compiler.', sources: this.rustLints.slice(0, 6).map((l) => `${l.path}:${l.line}`), confidence: 0.95 },
        tags: ['agent-guidelines', 'compiler', 'rust'],
      });
    }
    return out;
  }

  private async compilerStrictness(ctx: AnalysisContext): Promise<CandidateDraft | undefined> {
    const configs = ctx.listing.filter((f) => /(^|\/)tsconfig(\.[\w-]+)?\.json$/.test(f) && f.split('/').length <= 3).sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1));
    for (const c of configs) {
      const text = await ctx.read(c);
      if (!text) continue;
      const json = parseJsonc(text, [], { allowTrailingComma: true }) as { compilerOptions?: Record<string, unknown> } | undefined;
      const opts = json?.compilerOptions ?? {};
      const on = STRICT_FLAGS.filter((f) => opts[f] === true);
      if (!on.includes('strict')) continue;
      const lines = text.split('\n');
      const sources = on.map((f) => `${c}:${lines.findIndex((l) => l.includes(`"${f}"`)) + 1}`);
      return {
        title: `TypeScript compiles in strict mode (${nameList(on, 60, false)})`,
        knowledgeType: 'code-standard',
        dimension: 'agent-guidelines',
        language: 'typescript',
        category: 'agent-guidelines',
        summary: `${c} turns on ${on.join(', ')}. Generated or suggested code must type-check under these flags: no implicit any, no unchecked nulls${on.includes('noUncheckedIndexedAccess') ? ', indexed access may be undefined' : ''}.`,
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
        return {
          title: 'Python code type-checks under strict mypy',
          knowledgeType: 'code-standard',
          dimension: 'agent-guidelines',
          language: 'python',
          category: 'agent-guidelines',
          summary: `${p} configures mypy with \`${lines[i].trim()}\`: every function needs annotations.`,
          code: lines[i].trim(),
          reasoning: { whyStandard: 'Enforced by the type checker configuration.', sources: [`${p}:${i + 1}`], confidence: 0.9 },
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
    const manifest = ctx.listing.find((f) => f === 'Package.swift') ?? ctx.listing.find((f) => /(^|\/)Package\.swift$/.test(f) && pathKind(f) === 'build' && f.split('/').length <= 2);
    if (!manifest) return [];
    const text = (await ctx.read(manifest)) ?? '';
    const lines = text.split('\n');
    const find = (re: RegExp) => lines.findIndex((l) => re.test(l) && !/^\s*\/\//.test(l.replace(/^\s*\/\/\s*swift-tools-version.*/, 'TOOLS')));
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
        summary: `${manifest} ${strictLine >= 0 ? 'enables strict concurrency checking' : 'builds in the Swift 6 language mode'} (\`${lines[at].trim()}\`): new code must be Sendable-correct and isolated properly, or it does not compile.`,
        code: '',
        reasoning: { whyStandard: 'Read from the package manifest that applies, including its language mode.', sources: [`${manifest}:${at + 1}`], confidence: 0.9 },
        tags: ['agent-guidelines', 'concurrency', 'swift'],
        trigger: 'swift-strict-concurrency',
      });
    }
    const features = [...text.matchAll(/\.enable(Upcoming|Experimental)Feature\s*\(\s*"(\w+)"/g)].map((m) => m[2]).filter((f) => f !== 'StrictConcurrency');
    const unique = [...new Set(features)];
    if (unique.length) {
      const at = find(new RegExp(`enable(Upcoming|Experimental)Feature\\s*\\(\\s*"${unique[0]}"`));
      const meaning = unique.map((f) => SWIFT_FEATURES[f] ? `${f} (${SWIFT_FEATURES[f]})` : f);
      out.push({
        title: fit(`The package turns on Swift ${unique.length === 1 ? 'feature' : 'features'} ${nameList(unique, 60)}`, 100),
        knowledgeType: 'code-standard',
        dimension: 'agent-guidelines',
        language: 'swift',
        category: 'agent-guidelines',
        summary: `${manifest} enables ${meaning.join('; ')}${modes.length && !swift6 ? `, in the Swift ${Math.max(...modes)} language mode (strict concurrency errors are not on)` : ''}. New code must compile under ${unique.length === 1 ? 'it' : 'them'}.`,
        code: '',
        reasoning: { whyStandard: "The package manifest's swiftSettings apply to every file of the target.", sources: [`${manifest}:${at + 1}`, ...(modeLine >= 0 ? [`${manifest}:${modeLine + 1}`] : [])], confidence: 0.9 },
        tags: ['agent-guidelines', 'compiler', 'swift'],
        trigger: 'swift-features',
      });
    }
    return out;
  }

  private async lintRules(ctx: AnalysisContext): Promise<CandidateDraft[]> {
    const configs = ctx.listing.filter((f) => /^(eslint\.config\.(js|mjs|cjs|ts)|\.eslintrc(\.(json|js|cjs|yml|yaml))?)$/.test(f));
    const out: CandidateDraft[] = [];
    for (const c of configs) {
      const text = await ctx.read(c);
      if (!text) continue;
      const found: { rule: string; level: string; line: number }[] = [];
      const lines = text.split('\n');
      lines.forEach((l, i) => {
        for (const m of l.matchAll(LINT_RULES)) if (!found.some((f) => f.rule === m[1])) found.push({ rule: m[1], level: m[2] === '2' ? 'error' : m[2] === '1' ? 'warn' : m[2], line: i + 1 });
      });
      if (found.length === 0) continue;
      out.push({
        title: `Lint rules the project enforces: ${nameList(found.map((f) => f.rule.replace(/^@typescript-eslint\//, '')), 60)}`,
        knowledgeType: 'boundary-constraint',
        dimension: 'agent-guidelines',
        language: 'typescript',
        category: 'agent-guidelines',
        summary: `${c} sets ${found.map((f) => `${f.rule} (${f.level})`).join(', ')}. Code that breaks them fails lint.`,
        code: found.map((f) => lines[f.line - 1].trim()).join('\n'),
        reasoning: { whyStandard: 'Enforced by the lint configuration.', sources: found.slice(0, 8).map((f) => `${c}:${f.line}`), confidence: 0.9 },
        tags: ['agent-guidelines', 'lint'],
      });
    }
    return out;
  }
}

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
  NonisolatedNonsendingByDefault: 'nonisolated async functions run on the caller\'s actor',
};
