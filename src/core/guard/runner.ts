import { TimeBudget } from './budget';
import { DocumentChecker, lineOf } from './checker';
import { compileRuleSet, queryKey, type CompiledRuleSet, type QueryTable } from './compile';
import { GlobSet, inlineDisables, isDisabled } from './filters';
import { ruleLanguagesFor } from '../kernel/languages';
import { SEVERITIES, type CheckResult, type GuardRule, type Severity, type Violation } from './rule';
import { grammarFor, TreeSitterHost } from './structural';

export interface RuleExclusion {
  rule: string;
  paths: string[];
}

/** Settings that change what a check reports without changing the rules. */
export interface RunnerConfig {
  /** Rule id → severity, or 'off'. */
  severityOverrides: Record<string, string>;
  ruleExclusions: RuleExclusion[];
}

export interface TextCheckOptions {
  /** Workspace-relative path: enables rule include/exclude globs and appears in violations. */
  path?: string;
  documentKey?: string;
  incremental?: boolean;
  budgetMs?: number;
}

export const DEFAULT_BUDGET_MS = 250;

/**
 * Runs a fixed, already-validated list of rules: compiled once per language, checked under a time
 * budget, filtered by path globs, inline disables and severity overrides. The engine owns one for
 * documents; each scan worker builds its own from the same list.
 */
export class RuleRunner {
  private readonly compiled = new Map<string, CompiledRuleSet>();
  private readonly queries: QueryTable = new Map();
  private readonly treeSitter: TreeSitterHost;
  private readonly ownsTreeSitter: boolean;
  private readonly checker: DocumentChecker;
  private readonly pathFilters = new Map<string, { include?: GlobSet; exclude?: GlobSet }>();
  private readonly severities = new Map<string, Severity>();
  private readonly enabled: GuardRule[];

  constructor(readonly rules: readonly GuardRule[], config: RunnerConfig, treeSitter?: TreeSitterHost) {
    this.treeSitter = treeSitter ?? new TreeSitterHost();
    this.ownsTreeSitter = !treeSitter;
    this.checker = new DocumentChecker(new TimeBudget(), this.treeSitter);
    for (const [id, sev] of Object.entries(config.severityOverrides)) {
      if ((SEVERITIES as string[]).includes(sev)) this.severities.set(id, sev as Severity);
    }
    const off = new Set(Object.entries(config.severityOverrides).filter(([, s]) => s === 'off').map(([id]) => id));
    this.enabled = rules.filter((r) => !off.has(r.id) && !(r.disabledByDefault && !this.severities.has(r.id)));
    const extra = new Map<string, string[]>();
    for (const ex of config.ruleExclusions) extra.set(ex.rule, [...(extra.get(ex.rule) ?? []), ...ex.paths]);
    for (const r of this.enabled) {
      const exclude = [...(r.exclude ?? []), ...(extra.get(r.id) ?? [])];
      if (r.include?.length || exclude.length) {
        this.pathFilters.set(r.id, { include: r.include?.length ? new GlobSet(r.include) : undefined, exclude: exclude.length ? new GlobSet(exclude) : undefined });
      }
    }
  }

  /** Rules that apply to a language (after severity 'off' and default-off rules). */
  rulesFor(language: string): GuardRule[] {
    const langs = ruleLanguagesFor(language);
    return this.enabled.filter((r) => r.languages.includes('*') || r.languages.some((l) => langs.includes(l)));
  }

  /** Loads the grammars and compiles the queries a language's structural rules need. */
  async prepare(language: string): Promise<void> {
    const grammar = grammarFor(language);
    if (!grammar) return;
    const structural = this.rulesFor(language).filter((r) => r.pattern.kind === 'structural');
    let added = false;
    for (const r of structural) {
      const key = queryKey(grammar, r.id);
      if (this.queries.has(key) || r.pattern.kind !== 'structural') continue;
      try {
        this.queries.set(key, await this.treeSitter.compileQuery(grammar, r.pattern.query));
        added = true;
      } catch {
        // Validated at load for the rule's own languages; a query that does not fit this grammar
        // (a TypeScript node in JavaScript, say) simply does not run here.
      }
    }
    if (added) this.compiled.delete(language);
  }

  compiledFor(language: string): CompiledRuleSet {
    let set = this.compiled.get(language);
    if (!set) {
      set = compileRuleSet(language, this.rulesFor(language), this.queries);
      this.compiled.set(language, set);
    }
    return set;
  }

  /** Synchronous: call `prepare(language)` first for structural rules to take part. */
  checkText(text: string, language: string, opts: TextCheckOptions = {}): CheckResult {
    const t0 = performance.now();
    const set = this.compiledFor(language);
    const run = this.checker.run(set, language, text, { documentKey: opts.documentKey, incremental: opts.incremental, budgetMs: opts.budgetMs ?? DEFAULT_BUDGET_MS });
    const line = (offset: number) => lineOf(run.lineStarts, offset);
    const disables = inlineDisables(text, run.masked, line);
    const violations: Violation[] = [];
    const applies = new Map<string, boolean>();
    for (const m of run.matches) {
      const rule = set.rules[m.rule];
      if (opts.path !== undefined) {
        let ok = applies.get(rule.id);
        if (ok === undefined) applies.set(rule.id, (ok = this.appliesTo(rule.id, opts.path)));
        if (!ok) continue;
      }
      const startLine = line(m.start);
      if (isDisabled(disables, startLine, rule.id)) continue;
      const endLine = line(m.end);
      violations.push({
        ruleId: rule.id,
        severity: this.severities.get(rule.id) ?? rule.severity,
        message: rule.message,
        path: opts.path,
        start: { line: startLine + 1, column: m.start - run.lineStarts[startLine] + 1 },
        end: { line: endLine + 1, column: m.end - run.lineStarts[endLine] + 1 },
        startOffset: m.start,
        endOffset: m.end,
        matchedText: text.slice(m.start, m.end),
        why: rule.why,
        suggestion: rule.suggestion,
        fix: m.fix,
      });
    }
    return { violations, stopped: run.stopped, incomplete: run.incomplete, elapsedMs: performance.now() - t0 };
  }

  appliesTo(ruleId: string, relPath: string): boolean {
    const f = this.pathFilters.get(ruleId);
    if (!f) return true;
    if (f.include && !f.include.has(relPath)) return false;
    return !f.exclude?.has(relPath);
  }

  forgetDocument(documentKey: string): void {
    this.checker.forget(documentKey);
  }

  dispose(): void {
    this.checker.clear();
    for (const q of this.queries.values()) q.delete();
    this.queries.clear();
    if (this.ownsTreeSitter) this.treeSitter.dispose();
  }
}
