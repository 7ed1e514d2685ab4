import type { GuardRule, MatchScope, RuleExample, RuleReach, Severity } from '../rule';

/** One match of a built-in rule, with what a refiner needs to judge it. */
export interface MatchSite {
  /** The raw text. */
  text: string;
  /** The text with comment and string contents blanked (see mask.ts). */
  code: string;
  start: number;
  end: number;
  language: string;
}

/**
 * A second look at a match that a regular expression or a query cannot take: `false` drops it (a
 * `let _ = x?;` that propagates its error, a sleep outside async code). Built-in rules only: they
 * are code, project rules are data.
 */
export type MatchRefiner = (m: MatchSite) => boolean;

/** A fix that replaces more than the match: [match start, `end`) becomes `text` (a line added to the body). */
export interface FixEdit {
  text: string;
  end: number;
}

/** The replacement for a match of a built-in rule, computed from its context; undefined when none fits. */
export type MatchFixer = (m: MatchSite) => string | FixEdit | undefined;

/** How a built-in rule is written in a pack: the pack fills in languages, origin and source. */
export interface BuiltinRuleSpec {
  id: string;
  message: string;
  severity: Severity;
  regex?: string;
  flags?: string;
  scope?: MatchScope;
  query?: string;
  /**
   * For a query: a regular expression over the code (comments and strings blanked) that every file
   * the query can match contains. A file without it is not parsed at all, which keeps structural
   * rules nearly free in the files they cannot match.
   */
  prefilter?: string;
  fix?: string;
  fixer?: MatchFixer;
  refine?: MatchRefiner;
  why: string;
  suggestion: string;
  tags: string[];
  /** Default: `security` for security rules, `production` for the rest. */
  reach?: RuleReach;
  /** The same check in linters teams already run (see GuardRule.equivalents). */
  equivalents?: string[];
  /** Linter settings that turn a default-off rule on (see GuardRule.enabledBy). */
  enabledBy?: string[];
  /** Proven linear-time by recheck (a test holds every built-in to it): runs without the watchdog. */
  linear?: boolean;
  /** Substrings one of which any text with a finding contains (see GuardRule.needles). */
  needles?: string[];
  /** At least one: every built-in rule is tested on its own bad and good code. */
  examples: [RuleExample, ...RuleExample[]];
  /** Narrower than the pack's languages (TypeScript-only syntax, Java-only semantics). */
  languages?: string[];
  disabledByDefault?: boolean;
}

const refiners = new Map<string, MatchRefiner>();
const fixers = new Map<string, MatchFixer>();

/** The refiner of a built-in rule, if it has one. */
export function builtinRefiner(ruleId: string): MatchRefiner | undefined {
  return refiners.get(ruleId);
}

/** The fixer of a built-in rule, if it has one. */
export function builtinFixer(ruleId: string): MatchFixer | undefined {
  return fixers.get(ruleId);
}

export function pack(name: string, languages: string[], specs: BuiltinRuleSpec[]): GuardRule[] {
  return specs.map((s) => {
    if (s.refine) refiners.set(s.id, s.refine);
    if (s.fixer) fixers.set(s.id, s.fixer);
    return {
      id: s.id,
      message: s.message,
      severity: s.severity,
      languages: s.languages ?? languages,
      pattern: s.query !== undefined
        ? { kind: 'structural', query: s.query, ...(s.prefilter ? { prefilter: s.prefilter } : {}) }
        : { kind: 'regex', regex: s.regex ?? '', flags: s.flags, scope: s.scope },
      fix: s.fix,
      why: s.why,
      suggestion: s.suggestion,
      scope: 'file',
      tags: s.tags,
      examples: s.examples,
      origin: 'builtin',
      source: `builtin:${name}`,
      disabledByDefault: s.disabledByDefault,
      reach: s.reach ?? (s.tags.includes('security') ? 'security' : 'production'),
      equivalents: s.equivalents,
      ...(s.enabledBy ? { enabledBy: s.enabledBy } : {}),
      ...(s.linear ? { linear: true } : {}),
      ...(s.needles ? { needles: s.needles } : {}),
    };
  });
}
