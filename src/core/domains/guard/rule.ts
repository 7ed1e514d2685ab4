import type { FileKind } from '../../ground/files/classify';

/** The guard's rule model: what a rule says, where it came from, and what a check reports. */

export type Severity = 'error' | 'warning' | 'info' | 'hint';
export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info', 'hint'];

/**
 * Where a regular expression may match. `code` (the default) ignores comments and string contents;
 * `comments` and `strings` look only there; `any` sees the raw text.
 */
export type MatchScope = 'code' | 'comments' | 'strings' | 'any';

export type RuleOrigin = 'builtin' | 'project' | 'recipe' | 'pack' | 'external';

/**
 * Where a rule applies, by the kind of code a file holds (see files/classify.ts): `production` code
 * only (hygiene and crash rules: tests unwrap and force-cast on purpose); `all` kinds; or `security`:
 * production code at the rule's severity, code that gets copied into products or runs with CI's
 * secrets (examples, docs, build scripts) one severity lower, and not tests, fixtures or benchmarks,
 * which never meet an attacker's input. Vendored, generated and minified files are not checked.
 */
export type RuleReach = 'production' | 'all' | 'security';

export interface RegexPattern {
  kind: 'regex';
  /** JavaScript regular-expression source, without slashes. */
  regex: string;
  /** Any of `i`, `m`, `s`, `u`. `g`/`y` are managed by the engine. */
  flags?: string;
  scope?: MatchScope;
}

/**
 * A tree-sitter query (S-expression). The capture named `@match` (or else the first capture) is what
 * is reported. Only for languages with a grammar (see `structuralLanguages`).
 */
export interface StructuralPattern {
  kind: 'structural';
  query: string;
  /** A regex over the code (comments and strings blanked) that any file the query can match contains; files without it are not parsed. */
  prefilter?: string;
}

export type RulePattern = RegexPattern | StructuralPattern;

export interface RuleExample {
  /** Code the rule reports (a project rule may give more bad examples than good ones, or none). */
  bad?: string;
  /** The same code written the way the rule asks. */
  good?: string;
  /** The language the example is written in, when not the rule's first. */
  language?: string;
}

export interface GuardRule {
  /** Stable, kebab-case, namespaced by pack for built-ins: `ts/no-eval`, `swift/force-cast`. */
  id: string;
  /** One line shown in the editor. */
  message: string;
  severity: Severity;
  /** Language ids (see languages.ts); `*` for every language. */
  languages: string[];
  pattern: RulePattern;
  /**
   * Replacement for the matched text, used by quick fixes and `applyFixes`. `$1`…`$9` and `$<name>`
   * refer to the pattern's groups; `$&` is the whole match. Regex rules only.
   */
  fix?: string;
  /** Why it matters, for a person or an agent deciding what to do. */
  why: string;
  /** What to write instead. */
  suggestion: string;
  scope?: 'file' | 'target' | 'project';
  tags?: string[];
  /** Path globs (workspace-relative) the rule applies to; default everything. */
  include?: string[];
  /** Path globs the rule skips. */
  exclude?: string[];
  /** The folder scope of the recipe the rule comes from: it runs only inside these globs, whatever `include` says. */
  within?: string[];
  examples?: RuleExample[];
  origin: RuleOrigin;
  /** The file or recipe the rule came from; the pack name for built-ins. */
  source: string;
  /** The workspace-relative file that defines the rule, when it is not `source` itself (a recipe's file). */
  file?: string;
  /** Off unless turned on (rules that are noisy in some code bases). */
  disabledByDefault?: boolean;
  /** Where the rule applies; default `all`. */
  reach?: RuleReach;
  /**
   * Its regex is proven to run in linear time (recheck's automaton analysis, not its fuzzer), so it
   * runs without the watchdog. Set by the engine for project rules; checked by a test for built-ins.
   */
  linear?: boolean;
  /**
   * Substrings one of which any text the rule finds something in contains: a text with none of them
   * is not searched with the rule's regex at all. Built-in rules that run alone; a test holds them to it.
   */
  needles?: string[];
  /**
   * The same check in the ecosystem's linters, as `tool:name` (`eslint:no-eval`,
   * `swiftlint:force_unwrapping`, `noqa:E722`, `clippy:unwrap_used`, `nolint:errcheck`,
   * `suppress:UnsafeCallOnNullableType`): a suppression comment a team wrote for that linter
   * silences this rule too (see suppressions.ts).
   */
  equivalents?: string[];
  /**
   * For a rule that is off by default: the linter settings (`tool:name`, as read by linter-config.ts)
   * that turn it on. Defaults to `equivalents`; set when enabling the equivalent linter does not, by
   * that linter's own defaults, report what this rule reports (errcheck leaves `_` alone unless
   * `check-blank` is set).
   */
  enabledBy?: string[];
  /**
   * A pattern the file must contain instead of one it must not: a file of the rule's languages with
   * no match gets one violation on its first line (recipe constraints with `mode: require`).
   */
  required?: boolean;
}

/** 1-based line and column; `end` is exclusive, like LSP/SARIF end columns. */
export interface Position {
  line: number;
  column: number;
}

export interface Violation {
  ruleId: string;
  severity: Severity;
  message: string;
  /** Workspace-relative path with `/` separators, when the code came from a file. */
  path?: string;
  start: Position;
  end: Position;
  /** Offsets into the checked text, for fixes. */
  startOffset: number;
  endOffset: number;
  matchedText: string;
  why: string;
  suggestion: string;
  /** The replacement for the match (or for `fixLength` characters from its start) when the rule has a fix. */
  fix?: string;
  /** How many characters from the finding's start `fix` replaces, when it reaches past the match (a statement added to a body). */
  fixLength?: number;
  /** Stable across line moves: rule, path, the line's text and the match (see baseline.ts). Only with a path. */
  fingerprint?: string;
  /** Against the project's baseline: `unchanged` findings were there when it was written. */
  baselineState?: 'new' | 'unchanged';
  /** Marked reviewed by a person (then `baselineState` is `unchanged`): the reason they gave. */
  reviewed?: string;
  /** The text of the finding's line (for the baseline file; not in reports). */
  lineText?: string;
}

/** A rule that was stopped during a check: it ran past the time budget, or failed. */
export interface StoppedRule {
  ruleId: string;
  /** budget: it ran past its time and was stopped; unstarted: the others used up the time before it ran. */
  reason: 'budget' | 'unstarted' | 'error';
  detail: string;
}

export interface CheckResult {
  violations: Violation[];
  stopped: StoppedRule[];
  /** True when the budget ran out: some rules did not run on this text. */
  incomplete: boolean;
  elapsedMs: number;
  /** The kind of code the text was taken for (see files/classify.ts). */
  fileKind?: FileKind;
  /** Why the text was not checked at all (a vendored, generated or minified file). */
  skipped?: string;
}

/** A problem with a rule definition found when loading rules (bad JSON, unsafe pattern, …). */
export interface RuleProblem {
  source: string;
  ruleId?: string;
  code:
    | 'INVALID_RULE'
    | 'UNSAFE_PATTERN'
    | 'DUPLICATE_RULE'
    | 'UNREADABLE_RULES'
    | 'INVALID_BASELINE'
    | 'UNTRUSTED_RULES'
    | 'RULE_OVERRAN';
  message: string;
  hint?: string;
  /** The field at fault, as written in the rule (`pattern`, `examples.bad[0]`, `suggestedFix`). */
  field?: string;
  /** The workspace-relative file that defines the rule, when `source` is not one (a recipe's file). */
  file?: string;
}

export const severityRank: Record<Severity, number> = { error: 0, warning: 1, info: 2, hint: 3 };
