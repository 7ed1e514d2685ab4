/**
 * A proposed guard rule checked against its examples before anyone sees it: every bad example must be
 * reported, no good one. The check runs the guard engine itself (RuleRunner: masking of comments and
 * strings, time budget) on a one-rule set; the slow ReDoS analysis runs when the rule is loaded.
 */
import { normalizeLanguage } from '../../ground/kernel/languages';
import { checkPatternSyntax } from '../guard/regex-safety';
import type { GuardRule } from '../guard/rule';
import { RuleRunner } from '../guard/runner';
import type { ProposedRegexRule } from './tasks';

const EXAMPLE_BUDGET_MS = 2000;

export interface ExampleCheck {
  kind: 'bad' | 'good';
  example: string;
  /** What the rule reported in it. */
  matches: string[];
  ok: boolean;
}

export interface RuleCheck {
  passes: boolean;
  problems: string[];
  examples: ExampleCheck[];
}

export function toGuardRule(p: ProposedRegexRule, language: string): GuardRule {
  const lang = normalizeLanguage(language) ?? language.toLowerCase();
  return {
    id: p.id.trim(),
    message: p.message.trim(),
    severity: p.severity ?? 'warning',
    languages: [lang],
    pattern: { kind: 'regex', regex: p.regex, ...(p.flags ? { flags: p.flags } : {}), scope: p.scope ?? 'code' },
    why: p.why.trim(),
    suggestion: p.suggestion.trim(),
    origin: 'project',
    source: 'generate_guard_rule',
  };
}

export function checkRuleAgainstExamples(
  rule: GuardRule,
  language: string,
  bad: readonly string[],
  good: readonly string[],
): RuleCheck {
  const problems: string[] = [];
  if (rule.pattern.kind !== 'regex') {
    return { passes: false, problems: ['only regular-expression rules are generated and checked here'], examples: [] };
  }
  const verdict = checkPatternSyntax(rule.pattern.regex, rule.pattern.flags ?? '');
  if (verdict) return { passes: false, problems: [verdict.message ?? 'the pattern is invalid'], examples: [] };
  const lang = rule.languages[0] ?? normalizeLanguage(language) ?? language;
  const runner = new RuleRunner([rule], { severityOverrides: {}, ruleExclusions: [] });
  try {
    const examples: ExampleCheck[] = [];
    for (const [kind, list] of [['bad', bad], ['good', good]] as const) {
      for (const example of list) {
        // Examples are short: a generous budget keeps a busy machine from failing a sound pattern.
        const result = runner.checkText(example, lang, { budgetMs: EXAMPLE_BUDGET_MS });
        if (result.incomplete) problems.push(`the pattern ran out of its time budget on a ${kind} example`);
        const matches = result.violations.map((v) => v.matchedText);
        const ok = kind === 'bad' ? matches.length > 0 : matches.length === 0;
        if (!ok) {
          problems.push(
            kind === 'bad'
              ? `it does not report the bad example ${quote(example)}`
              : `it reports the good example ${quote(example)} (matched ${quote(matches[0])})`,
          );
        }
        examples.push({ kind, example, matches: matches.slice(0, 5), ok });
      }
    }
    return { passes: problems.length === 0, problems, examples };
  } finally {
    runner.dispose();
  }
}

function quote(s: string): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return JSON.stringify(one.length > 80 ? `${one.slice(0, 77)}...` : one);
}
