import { lexFamily, normalizeLanguage } from '../../ground/kernel/languages';
import { CODE, COMMENT, maskText, STRING } from '../../ground/text/mask';
import { neverMatchesInCode } from './regex-reach';
import type { GuardRule, MatchScope, RuleProblem } from './rule';
import { RuleRunner } from './runner';
import type { TreeSitterHost } from './structural';

/**
 * A workspace's rules checked against themselves when they load: each runs on its own examples (a bad
 * example it does not report, or a good one it reports, means the rule does not say what its author
 * meant), and a pattern that can never match where `in` points is caught even without examples. A
 * rule that fails is refused with a problem naming the field, the reason and the fix; the others run.
 */

/** An example longer than this is not run: examples are a few lines, and the check runs on every load. */
const MAX_EXAMPLE_CHARS = 20_000;

const KIND_NAME = { [CODE]: 'code', [COMMENT]: 'a comment', [STRING]: 'a string' } as Record<number, string>;

/** Returns rule id → why it was refused; appends a problem per failure. */
export async function selfTestRules(
  rules: readonly GuardRule[],
  treeSitter: TreeSitterHost,
  problems: RuleProblem[],
): Promise<Map<string, string>> {
  const refused = new Map<string, string>();
  for (const rule of rules) {
    const found = reachProblem(rule) ?? (await exampleProblem(rule, treeSitter));
    if (!found) continue;
    refused.set(rule.id, found.message);
    problems.push({
      source: rule.source,
      ruleId: rule.id,
      code: 'INVALID_RULE',
      field: found.field,
      message: `${rule.id}: ${found.message}`,
      hint: found.hint,
      ...(rule.file ? { file: rule.file } : {}),
    });
  }
  return refused;
}

interface Found {
  field: string;
  message: string;
  hint: string;
}

/**
 * A pattern that needs text inside quotes while `in` (default `code`) blanks every string's contents;
 * or one anchored with `^` (no `m` flag) to the start of the file while `in` asks for a string or a
 * comment, whose match must start inside one.
 */
function reachProblem(rule: GuardRule): Found | undefined {
  if (rule.pattern.kind !== 'regex') return undefined;
  const scope = rule.pattern.scope ?? 'code';
  if (
    (scope === 'strings' || scope === 'comments') && rule.pattern.regex.startsWith('^')
    && !rule.pattern.flags?.includes('m')
  ) {
    return {
      field: 'pattern',
      message:
        `the pattern starts with \`^\`, the start of the file, but \`in\` is "${scope}": a match must start inside ${
          scope === 'strings' ? 'a string' : 'a comment'
        }, so it matches only a file that starts with one.`,
      hint: scope === 'strings'
        ? 'Drop the `^`, or write `(?<=["\'])` to start right after the opening quote.'
        : 'Drop the `^`.',
    };
  }
  if (scope !== 'code') return undefined;
  const quoted = neverMatchesInCode(rule.pattern.regex, stringQuotes(rule.languages));
  if (!quoted) return undefined;
  return {
    field: 'pattern',
    message: `the pattern needs text inside a quoted string (${quoted}), but \`in\` is "code"${
      rule.pattern.scope ? '' : ' (the default)'
    }, where the contents of strings are blanked: it can never match.`,
    hint:
      'Set "in": "strings" and start the pattern at the string\'s text (for an import path: \\.\\./[^/]+/src/), or "in": "any" to match the raw text, commented-out code included.',
  };
}

/** The quote characters that open a string in every one of the languages: `'` is code in Swift and starts a lifetime in Rust; only `"` for every language. */
function stringQuotes(languages: readonly string[]): string {
  // A template literal's `${…}` is code: a backtick is left out.
  let quotes = '"\'';
  for (const l of languages) {
    const known = l === '*' ? undefined : normalizeLanguage(l);
    const family = known ? lexFamily(known) : undefined;
    const own = family === 'swift' || family === 'rust' || !family ? '"' : '"\'';
    quotes = [...quotes].filter((q) => own.includes(q)).join('');
  }
  return quotes;
}

/** The first example the rule gets wrong, with what it found where. */
async function exampleProblem(rule: GuardRule, treeSitter: TreeSitterHost): Promise<Found | undefined> {
  const examples = rule.examples ?? [];
  if (!examples.some((e) => e.bad !== undefined || e.good !== undefined)) return undefined;
  // A rule that asks for its pattern (`required`) reports a file without it: its examples run inverted.
  const probe: GuardRule = {
    ...rule,
    required: undefined,
    include: undefined,
    exclude: undefined,
    reach: 'all',
    disabledByDefault: undefined,
  };
  const runner = new RuleRunner([probe], { severityOverrides: {}, ruleExclusions: [] }, treeSitter);
  try {
    let bad = 0;
    let good = 0;
    for (const ex of examples) {
      const language = exampleLanguage(rule, ex.language);
      await runner.prepare(language);
      const run = (text: string) =>
        runner.checkText(text, language, { kind: 'production', budgetMs: 1000 }).violations.length > 0;
      if (ex.bad !== undefined && ex.bad.length <= MAX_EXAMPLE_CHARS) {
        const field = `examples.bad[${bad++}]`;
        if (run(ex.bad) === !!rule.required) return missedBad(rule, ex.bad, language, field);
      }
      if (ex.good !== undefined && ex.good.length <= MAX_EXAMPLE_CHARS) {
        const field = `examples.good[${good++}]`;
        if (run(ex.good) !== !!rule.required) {
          return {
            field,
            message: `${rule.required ? 'asks for its pattern in' : 'reports'} its good example ${good} (${
              snippet(ex.good)
            }), which it must leave alone.`,
            hint: 'Narrow the pattern (anchor it on the exact call or name) or correct the example.',
          };
        }
      }
    }
    return undefined;
  } finally {
    runner.dispose();
  }
}

function missedBad(rule: GuardRule, text: string, language: string, field: string): Found {
  const message = `${rule.required ? 'finds its pattern in' : 'does not report'} its bad example ${
    Number(/\d+/.exec(field)![0]) + 1
  } (${snippet(text)})`;
  const where = rule.pattern.kind === 'regex' && !rule.required
    ? rawMatchKind(rule.pattern.regex, rule.pattern.flags, text, language)
    : undefined;
  const scope = rule.pattern.kind === 'regex' ? rule.pattern.scope ?? 'code' : undefined;
  if (where !== undefined && scope && !accepts(scope, where)) {
    const wanted = where === STRING ? 'strings' : where === COMMENT ? 'comments' : 'code';
    return {
      field: 'in',
      message: `${message}: the pattern matches there inside ${KIND_NAME[where]}, but \`in\` is "${scope}".`,
      hint: `Set "in": "${wanted}"${
        wanted === 'strings' ? ' (the match must start inside the string: its text, not the quote)' : ''
      }.`,
    };
  }
  return {
    field,
    message: `${message}.`,
    hint: rule.pattern.kind === 'structural'
      ? "Check the query's node names and that its predicates sit inside the pattern's parentheses (tree-sitter playground)."
      : 'Test the pattern on the example with guard_check, or correct the example.',
  };
}

/** Where in the raw text the regex first matches: code, a comment or a string (undefined: nowhere). */
function rawMatchKind(source: string, flags: string | undefined, text: string, language: string): number | undefined {
  let re: RegExp;
  try {
    re = new RegExp(source, (flags ?? '').replace(/[gyd]/g, ''));
  } catch {
    return undefined;
  }
  const m = re.exec(text);
  return m ? maskText(text, language).kinds[m.index] : undefined;
}

function accepts(scope: MatchScope, kind: number): boolean {
  return scope === 'any' || (scope === 'code' && kind === CODE) || (scope === 'strings' && kind === STRING)
    || (scope === 'comments' && kind === COMMENT);
}

/** The language an example is read as: its own, else the rule's first known one. */
function exampleLanguage(rule: GuardRule, own?: string): string {
  for (const l of [own, ...rule.languages]) {
    const known = l && l !== '*' ? normalizeLanguage(l) : undefined;
    if (known) return known;
  }
  return 'typescript';
}

function snippet(text: string): string {
  const line = text.trim().split('\n')[0];
  return `\`${line.length > 60 ? `${line.slice(0, 57)}…` : line}\``;
}
