import {
  CLASSIFY_HEAD_CHARS,
  classifyFile,
  type FileKind,
  type LineRegion,
  testRegions,
} from '../../ground/files/classify';
import { ruleLanguagesFor } from '../../ground/kernel/languages';
import { fingerprintOf } from './baseline';
import { TimeBudget } from './budget';
import { DocumentChecker, lineOf } from './checker';
import { type CompiledRuleSet, compileRuleSet, queryKey, type QueryTable } from './compile';
import { GlobSet, inlineDisables, isDisabled } from './filters';
import { builtinFixer, builtinRefiner } from './packs';
import { type CheckResult, type GuardRule, SEVERITIES, type Severity, type Violation } from './rule';
import { grammarFor, TreeSitterHost } from './structural';
import { FileSuppressions } from './suppressions';

export interface RuleExclusion {
  rule: string;
  paths: string[];
}

/** Settings that change what a check reports without changing the rules. */
export interface RunnerConfig {
  /** Rule id → severity, or 'off'. */
  severityOverrides: Record<string, string>;
  ruleExclusions: RuleExclusion[];
  /** Kinds of files not checked at all (default: vendored, generated, minified). */
  skipKinds?: FileKind[];
}

export const DEFAULT_SKIP_KINDS: readonly FileKind[] = ['vendored', 'generated', 'minified'];

/** One severity lower, for security rules outside production code. */
const LOWER: Record<Severity, Severity> = { error: 'warning', warning: 'info', info: 'hint', hint: 'hint' };
/** Code no attacker's input reaches: security rules stay quiet there. */
const NEVER_ATTACKED: ReadonlySet<FileKind> = new Set(['test', 'fixture', 'benchmark']);

export interface TextCheckOptions {
  /** Workspace-relative path: enables rule include/exclude globs and appears in violations. */
  path?: string;
  /**
   * The kind of code the text is. Default: classified from `path` and the start of the text; a
   * snippet without a path is taken as production code.
   */
  kind?: FileKind;
  documentKey?: string;
  incremental?: boolean;
  budgetMs?: number;
  /** False in scan workers, whose batches have their own deadline (see checker.ts). */
  guarded?: boolean;
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
  private readonly pathFilters = new Map<string, { include?: GlobSet; exclude?: GlobSet; within?: GlobSet }>();
  private readonly severities = new Map<string, Severity>();
  private readonly enabled: GuardRule[];
  private readonly skipKinds: Set<FileKind>;

  constructor(readonly rules: readonly GuardRule[], config: RunnerConfig, treeSitter?: TreeSitterHost) {
    this.treeSitter = treeSitter ?? new TreeSitterHost();
    this.ownsTreeSitter = !treeSitter;
    this.checker = new DocumentChecker(new TimeBudget(), this.treeSitter);
    for (const [id, sev] of Object.entries(config.severityOverrides)) {
      if ((SEVERITIES as string[]).includes(sev)) this.severities.set(id, sev as Severity);
    }
    const off = new Set(Object.entries(config.severityOverrides).filter(([, s]) => s === 'off').map(([id]) => id));
    this.enabled = rules.filter((r) => !off.has(r.id) && !(r.disabledByDefault && !this.severities.has(r.id)));
    this.skipKinds = new Set(config.skipKinds ?? DEFAULT_SKIP_KINDS);
    const extra = new Map<string, string[]>();
    for (const ex of config.ruleExclusions) extra.set(ex.rule, [...(extra.get(ex.rule) ?? []), ...ex.paths]);
    for (const r of this.enabled) {
      const exclude = [...(r.exclude ?? []), ...(extra.get(r.id) ?? [])];
      if (r.include?.length || exclude.length || r.within?.length) {
        this.pathFilters.set(r.id, {
          include: r.include?.length ? new GlobSet(r.include) : undefined,
          exclude: exclude.length ? new GlobSet(exclude) : undefined,
          within: r.within?.length ? new GlobSet(r.within) : undefined,
        });
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

  /** The kind of code a text is, and why; undefined reason for a snippet without a path. */
  classify(text: string, opts: TextCheckOptions): { kind: FileKind; reason?: string } {
    if (opts.kind) return { kind: opts.kind };
    if (opts.path === undefined) return { kind: 'production' };
    return classifyFile(opts.path, text.length > CLASSIFY_HEAD_CHARS ? text.slice(0, CLASSIFY_HEAD_CHARS) : text);
  }

  /** Whether files of this kind are checked at all. */
  checks(kind: FileKind): boolean {
    return !this.skipKinds.has(kind);
  }

  /** Synchronous: call `prepare(language)` first for structural rules to take part. */
  checkText(text: string, language: string, opts: TextCheckOptions = {}): CheckResult {
    const t0 = performance.now();
    const file = this.classify(text, opts);
    if (!this.checks(file.kind)) {
      return {
        violations: [],
        stopped: [],
        incomplete: false,
        elapsedMs: performance.now() - t0,
        fileKind: file.kind,
        skipped: `${file.kind} file${file.reason ? ` (${file.reason})` : ''}`,
      };
    }
    const set = this.compiledFor(language);
    const run = this.checker.run(set, language, text, {
      documentKey: opts.documentKey,
      incremental: opts.incremental,
      budgetMs: opts.budgetMs ?? DEFAULT_BUDGET_MS,
      guarded: opts.guarded,
    });
    if (run.matches.length === 0 && !set.rules.some((r) => r.required)) {
      return {
        violations: [],
        stopped: run.stopped,
        incomplete: run.incomplete,
        elapsedMs: performance.now() - t0,
        fileKind: file.kind,
      };
    }
    const line = (offset: number) => lineOf(run.lineStarts, offset);
    const disables = inlineDisables(text, run.masked, line);
    const violations: Violation[] = [];
    const applies = new Map<string, boolean>();
    let regions: LineRegion[] | undefined;
    let suppressions: FileSuppressions | undefined;
    const matched = new Set<number>();
    for (const m of run.matches) {
      const rule = set.rules[m.rule];
      matched.add(m.rule);
      if (rule.required) continue;
      if (opts.path !== undefined) {
        let ok = applies.get(rule.id);
        if (ok === undefined) applies.set(rule.id, ok = this.appliesTo(rule.id, opts.path));
        if (!ok) continue;
      }
      const startLine = line(m.start);
      if (isDisabled(disables, startLine, rule.id)) continue;
      let kind = file.kind;
      if (kind === 'production' && (rule.reach ?? 'all') !== 'all') {
        regions ??= testRegions(text, language);
        if (regions.some((r) => startLine + 1 >= r.start && startLine + 1 <= r.end)) kind = 'test';
      }
      const severity = this.severityIn(rule, kind);
      if (!severity) continue;
      const site = rule.origin === 'builtin'
        ? { text, code: run.masked.code, start: m.start, end: m.end, language }
        : undefined;
      if (site && builtinRefiner(rule.id)?.(site) === false) continue;
      if (rule.equivalents?.length) {
        suppressions ??= FileSuppressions.read(text, run.masked, language, run.lineStarts);
        if (suppressions.silences(rule.equivalents, startLine)) continue;
      }
      const endLine = line(m.end);
      const fixer = site && builtinFixer(rule.id);
      const fixed = fixer ? fixer(site) : m.fix;
      const fix = typeof fixed === 'object' ? fixed.text : fixed;
      const matchedText = text.slice(m.start, m.end);
      const lineText = opts.path !== undefined
        ? text.slice(
          run.lineStarts[startLine],
          startLine + 1 < run.lineStarts.length ? run.lineStarts[startLine + 1] - 1 : text.length,
        )
        : undefined;
      violations.push({
        ruleId: rule.id,
        severity,
        message: rule.message,
        path: opts.path,
        start: { line: startLine + 1, column: m.start - run.lineStarts[startLine] + 1 },
        end: { line: endLine + 1, column: m.end - run.lineStarts[endLine] + 1 },
        startOffset: m.start,
        endOffset: m.end,
        matchedText,
        why: rule.why,
        suggestion: rule.suggestion,
        ...(fix !== undefined ? { fix } : {}),
        ...(typeof fixed === 'object' ? { fixLength: fixed.end - m.start } : {}),
        ...(lineText !== undefined
          ? { fingerprint: fingerprintOf(rule.id, opts.path!, lineText, matchedText), lineText }
          : {}),
      });
    }
    if (opts.path !== undefined && !run.incomplete) {
      this.missingRequired(set, matched, text, opts.path, file.kind, violations);
    }
    return {
      violations,
      stopped: run.stopped,
      incomplete: run.incomplete,
      elapsedMs: performance.now() - t0,
      fileKind: file.kind,
    };
  }

  /** The rule's severity in code of this kind, or undefined where it does not reach (see RuleReach). */
  private severityIn(rule: GuardRule, kind: FileKind): Severity | undefined {
    const severity = this.severities.get(rule.id) ?? rule.severity;
    if (kind === 'production' || !rule.reach || rule.reach === 'all') return severity;
    if (rule.reach === 'production' || NEVER_ATTACKED.has(kind)) return undefined;
    return LOWER[severity];
  }

  /** A rule that asks for a pattern (`required`) reports a file without any match on its first line. */
  private missingRequired(
    set: CompiledRuleSet,
    matched: Set<number>,
    text: string,
    path: string,
    kind: FileKind,
    out: Violation[],
  ): void {
    set.rules.forEach((rule, index) => {
      if (!rule.required || matched.has(index) || !this.appliesTo(rule.id, path)) return;
      const severity = this.severityIn(rule, kind);
      if (!severity) return;
      const firstLine = text.indexOf('\n') < 0 ? text.length : text.indexOf('\n');
      out.push({
        ruleId: rule.id,
        severity,
        message: rule.message,
        path,
        start: { line: 1, column: 1 },
        end: { line: 1, column: firstLine + 1 },
        startOffset: 0,
        endOffset: firstLine,
        matchedText: text.slice(0, firstLine),
        why: rule.why,
        suggestion: rule.suggestion,
        fingerprint: fingerprintOf(rule.id, path, '', ''),
        lineText: text.slice(0, firstLine),
      });
    });
  }

  appliesTo(ruleId: string, relPath: string): boolean {
    const f = this.pathFilters.get(ruleId);
    if (!f) return true;
    if (f.include && !f.include.has(relPath)) return false;
    if (f.within && !f.within.has(relPath)) return false;
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
