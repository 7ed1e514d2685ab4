import type { GuardRule, StoppedRule } from './rule';

/**
 * Project regex rules that ran past their time budget. Such a rule is off everywhere until the rule
 * itself changes (its file is edited), and says why: a pattern that backtracks on one file would
 * spend every later check's budget on the next. Built-in rules are held to at most quadratic time by
 * a test, so one that is stopped stays on elsewhere; queries stop with their parse, not by themselves.
 */
export class RuleOverruns {
  private readonly reasons = new Map<string, string>();

  /** Records the stops of project regex rules; true when one is new, so the rules must load again. */
  note(stopped: (StoppedRule & { path?: string })[], ruleOf: (id: string) => GuardRule | undefined): boolean {
    let added = false;
    for (const s of stopped) {
      if (s.reason !== 'budget') continue;
      const rule = ruleOf(s.ruleId);
      if (!rule || rule.origin === 'builtin' || rule.pattern.kind !== 'regex') continue;
      const key = fingerprint(rule);
      if (this.reasons.has(key)) continue;
      this.reasons.set(
        key,
        `it ran past its time budget${s.path ? ` on ${s.path}` : ''} and is off until the rule changes`,
      );
      added = true;
    }
    return added;
  }

  /** Why the rule is off, when it overran in this form. */
  reasonFor(rule: GuardRule): string | undefined {
    return this.reasons.get(fingerprint(rule));
  }
}

function fingerprint(rule: GuardRule): string {
  return JSON.stringify([rule.source, rule.id, rule.pattern]);
}
