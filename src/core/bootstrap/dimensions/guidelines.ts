import { parse as parseJsonc } from 'jsonc-parser';
import type { AnalysisContext, Analyzer, CandidateDraft, SourceFile } from '../types';
import { languageOf } from './standards';

const INSTRUCTION_FILES = /^(AGENTS\.md|CLAUDE\.md|GEMINI\.md|\.cursorrules|\.windsurfrules|CONTRIBUTING\.md|docs\/CONTRIBUTING\.md|\.github\/CONTRIBUTING\.md|\.github\/copilot-instructions\.md|\.github\/instructions\/[^/]+\.md)$/;
const IMPERATIVE = /\b(must|never|always|do not|don't|should not|shouldn't|only|required|forbidden|avoid|prefer)\b/i;
const GENERATED_NAMES = /\.generated\.|\.g\.dart$|\.pb\.(go|swift|cc|h)$|_pb2(_grpc)?\.py$|\.designer\.cs$/;
const STRICT_FLAGS = ['strict', 'noUncheckedIndexedAccess', 'exactOptionalPropertyTypes', 'noImplicitOverride', 'noImplicitReturns', 'noUnusedLocals', 'noUnusedParameters', 'noFallthroughCasesInSwitch', 'noPropertyAccessFromIndexSignature'];
const LINT_RULES = /['"]?((?:@typescript-eslint\/)?(?:no-restricted-imports|no-restricted-syntax|no-restricted-globals|no-console|no-explicit-any|no-floating-promises|no-non-null-assertion|no-eval|no-implied-eval|no-misused-promises|explicit-module-boundary-types|consistent-type-imports|import\/no-cycle|import\/no-default-export))['"]?\s*:\s*\[?\s*['"]?(error|warn|2|1)\b/g;

/** Dimension 7, agent guidelines: rules the project states, generated code, compiler and lint strictness. */
export class AgentGuidelinesAnalyzer implements Analyzer {
  private readonly generated: { path: string; line: number; marker: string }[] = [];
  private readonly rustLints: { path: string; line: number; text: string }[] = [];

  visit(file: SourceFile): void {
    if (file.generated) this.generated.push({ path: file.path, ...file.generated });
    if (file.family === 'rust' && /(^|\/)(lib|main)\.rs$/.test(file.path)) {
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
      const rules = text
        .split('\n')
        .map((l, i) => ({ l: l.trim(), line: i + 1 }))
        .filter(({ l }) => /^([-*+]|\d+\.)\s+/.test(l) && IMPERATIVE.test(l) && l.length < 300)
        .slice(0, 12);
      if (rules.length < 2) continue;
      out.push({
        title: `Rules stated in \`${f}\``,
        knowledgeType: 'agent-guideline',
        dimension: 'agent-guidelines',
        language: 'markdown',
        category: 'agent-guidelines',
        summary: `${f} states ${rules.length} must/never rules for contributors and agents; follow them before the scan's heuristics.`,
        code: rules.map((r) => r.l).join('\n'),
        reasoning: { whyStandard: 'Written down by the project itself.', sources: rules.slice(0, 8).map((r) => `${f}:${r.line}`), confidence: 0.9 },
        tags: ['agent-guidelines', 'documented'],
      });
    }

    const named = ctx.listing.filter((x) => GENERATED_NAMES.test(x)).map((path) => ({ path, line: 1, marker: 'file name' }));
    const generated = [...this.generated, ...named.filter((n) => !this.generated.some((g) => g.path === n.path))].sort((a, b) => (a.path < b.path ? -1 : 1));
    if (generated.length >= 1) {
      const dirs = [...new Set(generated.map((g) => g.path.split('/').slice(0, -1).join('/') || '.'))];
      out.push({
        title: `Generated files are not edited by hand (${dirs.slice(0, 3).join(', ')}${dirs.length > 3 ? ', …' : ''})`,
        knowledgeType: 'boundary-constraint',
        dimension: 'agent-guidelines',
        language: languageOf(ctx.primary ?? 'other', ctx),
        category: 'agent-guidelines',
        summary: `${generated.length} file${generated.length === 1 ? ' is' : 's are'} marked as generated ("${generated[0].marker}"). Change their source or generator and regenerate; never edit them directly, and do not learn patterns from them.`,
        code: generated.slice(0, 10).map((g) => `${g.path}:${g.line}  (${g.marker})`).join('\n'),
        reasoning: { whyStandard: 'The files say so themselves.', sources: generated.slice(0, 8).map((g) => `${g.path}:${g.line}`), confidence: 0.9 },
        tags: ['agent-guidelines', 'generated'],
      });
    }

    const strict = await this.compilerStrictness(ctx);
    if (strict) out.push(strict);
    out.push(...(await this.lintRules(ctx)));
    if (this.rustLints.length) {
      out.push({
        title: `Crate-level lints: ${[...new Set(this.rustLints.map((l) => l.text))].slice(0, 3).join(' ')}`,
        knowledgeType: 'code-standard',
        dimension: 'agent-guidelines',
        language: 'rust',
        category: 'agent-guidelines',
        summary: 'The crate roots forbid or deny these lints; code that triggers them does not compile.',
        code: this.rustLints.map((l) => `${l.path}:${l.line}  ${l.text}`).join('\n'),
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
        title: `TypeScript compiles in strict mode (${on.join(', ')})`,
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
    for (const m of ctx.listing.filter((f) => /(^|\/)Package\.swift$/.test(f)).slice(0, 3)) {
      const text = await ctx.read(m);
      const lines = text?.split('\n') ?? [];
      const i = lines.findIndex((l) => /StrictConcurrency|swiftLanguageModes\s*:\s*\[\s*\.v6|swift-tools-version:\s*6/.test(l));
      if (i >= 0) {
        return {
          title: 'Swift code compiles with strict concurrency checking',
          knowledgeType: 'code-standard',
          dimension: 'agent-guidelines',
          language: 'swift',
          category: 'agent-guidelines',
          summary: `${m} enables complete concurrency checking (\`${lines[i].trim()}\`): data races are compile errors, so new code must be Sendable-correct.`,
          code: lines[i].trim(),
          reasoning: { whyStandard: 'Enforced by the package manifest.', sources: [`${m}:${i + 1}`], confidence: 0.9 },
          tags: ['agent-guidelines', 'concurrency', 'swift'],
        };
      }
    }
    return undefined;
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
        title: `Lint rules the project enforces: ${found.slice(0, 4).map((f) => f.rule).join(', ')}`,
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
