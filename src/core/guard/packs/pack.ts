import type { GuardRule, MatchScope, RuleExample, Severity } from '../rule';

/** How a built-in rule is written in a pack: the pack fills in languages, origin and source. */
export interface BuiltinRuleSpec {
  id: string;
  message: string;
  severity: Severity;
  regex?: string;
  flags?: string;
  scope?: MatchScope;
  query?: string;
  fix?: string;
  why: string;
  suggestion: string;
  tags: string[];
  /** At least one: every built-in rule is tested on its own bad and good code. */
  examples: [RuleExample, ...RuleExample[]];
  /** Narrower than the pack's languages (TypeScript-only syntax, Java-only semantics). */
  languages?: string[];
  disabledByDefault?: boolean;
}

export function pack(name: string, languages: string[], specs: BuiltinRuleSpec[]): GuardRule[] {
  return specs.map((s) => ({
    id: s.id,
    message: s.message,
    severity: s.severity,
    languages: s.languages ?? languages,
    pattern: s.query !== undefined ? { kind: 'structural', query: s.query } : { kind: 'regex', regex: s.regex ?? '', flags: s.flags, scope: s.scope },
    fix: s.fix,
    why: s.why,
    suggestion: s.suggestion,
    scope: 'file',
    tags: s.tags,
    examples: s.examples,
    origin: 'builtin',
    source: `builtin:${name}`,
    disabledByDefault: s.disabledByDefault,
  }));
}
