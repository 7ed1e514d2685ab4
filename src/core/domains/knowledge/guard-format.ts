import { closestNames } from '../../ground/kernel/names';

/**
 * The one format of a guard rule, shared by `.autosnippet/guard/*.json` rule files and a recipe's
 * `constraints.guards`: the same fields mean the same thing in both. It lives below the guard (in
 * knowledge) because recipe files are read here; the guard turns the result into rules.
 */

/** Where a regular expression may match; see MatchScope in guard/rule.ts. */
export const RULE_SCOPES = ['code', 'comments', 'strings', 'any'] as const;
export type RuleScopeName = (typeof RULE_SCOPES)[number];

/** Every field a rule takes, in the order the schema documents them. */
export const RULE_FIELDS = [
  'id',
  'message',
  'severity',
  'languages',
  'pattern',
  'flags',
  'in',
  'query',
  'include',
  'exclude',
  'fix',
  'why',
  'suggestion',
  'examples',
  'scope',
  'tags',
] as const;
export type RuleField = (typeof RULE_FIELDS)[number];

/**
 * Earlier names of fields, still read: `regex` (the rule files' name for `pattern`) and
 * `suggestedFix` (what guard_check calls a finding's suggestion, so agents write it back).
 */
export const RULE_FIELD_ALIASES: Readonly<Record<string, RuleField>> = { regex: 'pattern', suggestedFix: 'suggestion' };

/** Fields only a recipe's guard takes: `mode: require` asks for the pattern instead of forbidding it. */
export const RECIPE_GUARD_FIELDS = ['mode'] as const;

/** A rule's own examples: code it must report and code it must leave alone. */
export interface RuleExamples {
  bad: string[];
  good: string[];
}

/**
 * A recipe's guard: the rule format of `.autosnippet/guard/*.json` (below) without a
 * required `id` or `languages` (the recipe gives them), plus `mode`.
 */
export interface GuardPattern {
  /** A regular expression; or `query`, a tree-sitter query. */
  pattern?: string;
  query?: string;
  message: string;
  severity?: 'error' | 'warning' | 'info' | 'hint';
  /** `forbid` (default): a match is a violation; `require`: a file of the language without a match is. */
  mode?: 'forbid' | 'require';
  id?: string;
  flags?: string;
  in?: RuleScopeName;
  languages?: string[];
  include?: string[];
  exclude?: string[];
  fix?: string;
  why?: string;
  suggestion?: string;
  examples?: Partial<RuleExamples>;
  scope?: 'file' | 'target' | 'project';
  tags?: string[];
}

/** A rule as written, with aliases resolved and examples in one shape; values are not yet checked. */
export type RuleFields = Partial<Record<RuleField, unknown>> & { examples?: RuleExamples };

export interface FieldProblem {
  /** The field at fault, as written (`suggestedFix`, `examples.bad[1]`). */
  field: string;
  message: string;
  hint: string;
}

/**
 * Renames aliases to their field and reports every field that is not one, naming the closest valid
 * field: a misspelt field would otherwise be dropped and the rule would silently lose what it says.
 */
export function readRuleFields(
  raw: Record<string, unknown>,
  extra: readonly string[] = [],
): { fields: RuleFields & Record<string, unknown>; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const fields: Record<string, unknown> = {};
  const valid = [...RULE_FIELDS, ...extra];
  for (const [key, value] of Object.entries(raw)) {
    const target = RULE_FIELD_ALIASES[key] ?? key;
    if (!valid.includes(target)) {
      problems.push(unknownField(key, valid));
      continue;
    }
    if (target !== key && key in raw && target in raw) {
      problems.push({
        field: key,
        message: `\`${key}\` and \`${target}\` say the same thing; the rule has both.`,
        hint: `Keep \`${target}\` and remove \`${key}\`.`,
      });
      continue;
    }
    fields[target] = value;
  }
  if ((fields.pattern === undefined) === (fields.query === undefined)) {
    problems.push({
      field: fields.query === undefined ? 'pattern' : 'query',
      message: 'a rule takes `pattern` (a regular expression) or `query` (a tree-sitter query): one of them, not both.',
      hint: 'Write `"pattern": "\\\\bfetch\\\\("`, or split the rule in two.',
    });
  }
  if (fields.examples !== undefined) {
    const ex = readExamples(fields.examples);
    if ('problem' in ex) {
      problems.push(ex.problem);
      delete fields.examples;
    } else fields.examples = ex.examples;
  }
  return { fields, problems };
}

function unknownField(key: string, valid: readonly string[]): FieldProblem {
  const [near] = closestNames(key, [...valid, ...Object.keys(RULE_FIELD_ALIASES)], 1);
  const meant = RULE_FIELD_ALIASES[near] ?? near;
  return {
    field: key,
    message: `\`${key}\` is not a rule field; did you mean \`${meant}\`?`,
    hint: `A rule takes ${valid.join(', ')}.`,
  };
}

/**
 * `examples` as `{ bad: [...], good: [...] }` (a string counts as a list of one), or as the older
 * list of `{ bad, good }` pairs; both become lists of code.
 */
export function readExamples(v: unknown): { examples: RuleExamples } | { problem: FieldProblem } {
  const problem = (message: string): { problem: FieldProblem } => ({
    problem: {
      field: 'examples',
      message,
      hint:
        'Write `"examples": { "bad": ["code the rule reports"], "good": ["the same code written the way the rule asks"] }`.',
    },
  });
  const texts = (
    x: unknown,
  ):
    | string[]
    | undefined => (x === undefined
      ? []
      : typeof x === 'string'
      ? [x]
      : Array.isArray(x) && x.every((s) => typeof s === 'string')
      ? (x as string[])
      : undefined);
  if (Array.isArray(v)) {
    const out: RuleExamples = { bad: [], good: [] };
    for (const pair of v) {
      const o = pair as Record<string, unknown> | null;
      if (!o || typeof o !== 'object' || Array.isArray(o)) {
        return problem('`examples` lists something that is not `{ bad, good }`.');
      }
      const bad = texts(o.bad);
      const good = texts(o.good);
      if (!bad || !good) return problem('`examples` entries take code as text: `bad` and `good`.');
      out.bad.push(...bad);
      out.good.push(...good);
    }
    return { examples: out };
  }
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const other = Object.keys(o).filter((k) => k !== 'bad' && k !== 'good');
    if (other.length) return problem(`\`examples.${other[0]}\` is not known; \`examples\` takes \`bad\` and \`good\`.`);
    const bad = texts(o.bad);
    const good = texts(o.good);
    if (!bad || !good) return problem('`examples.bad` and `examples.good` are lists of code (text).');
    return { examples: { bad, good } };
  }
  return problem('`examples` must be `{ "bad": [...], "good": [...] }`.');
}

const SEVERITY_NAMES = ['error', 'warning', 'info', 'hint'];
const SCOPE_NAMES = ['file', 'target', 'project'];

/**
 * A recipe's guard (`constraints.guards[i]`) read in the rule format: the fields, their aliases and
 * their values checked, each problem naming its field. `id` and `languages` are optional there (the
 * recipe gives them) and `mode` is recipe-only. Undefined guard: the entry cannot be used.
 */
export function readRecipeGuard(raw: unknown): { guard?: GuardPattern; problems: FieldProblem[] } {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    return {
      problems: [{
        field: '',
        message: 'a guard is a mapping such as `{ pattern, message }`.',
        hint: 'Write `- pattern: "\\\\bfetch\\\\("` and `message: "Use apiClient"`.',
      }],
    };
  }
  const { fields, problems } = readRuleFields(raw as Record<string, unknown>, RECIPE_GUARD_FIELDS);
  const bad = (field: string, message: string, hint: string) => problems.push({ field, message, hint });
  const text = (k: string) =>
    fields[k] === undefined || typeof fields[k] === 'string'
    || (bad(k, `\`${k}\` must be text.`, `Quote the value of \`${k}\`.`), false);
  const list = (k: string) =>
    fields[k] === undefined
    || (Array.isArray(fields[k]) && (fields[k] as unknown[]).every((x) => typeof x === 'string'))
    || (bad(k, `\`${k}\` must be a list of text.`, `Write \`${k}: [a, b]\`.`), false);
  const oneOf = (k: string, values: readonly string[]) =>
    fields[k] === undefined || values.includes(fields[k] as string)
    || (bad(
      k,
      `\`${k}\` is ${JSON.stringify(fields[k])}; it takes ${values.join(', ')}.`,
      `Use one of ${values.join(', ')}.`,
    ),
      false);
  ['id', 'pattern', 'query', 'message', 'flags', 'fix', 'why', 'suggestion'].forEach(text);
  ['languages', 'include', 'exclude', 'tags'].forEach(list);
  oneOf('severity', SEVERITY_NAMES);
  oneOf('in', RULE_SCOPES);
  oneOf('scope', SCOPE_NAMES);
  oneOf('mode', ['forbid', 'require']);
  if (typeof fields.message !== 'string' || !fields.message.trim()) {
    bad(
      'message',
      'a guard needs `message`: what to do instead, shown on the finding.',
      'Add `message: "Use apiClient.request() instead of fetch()"`.',
    );
  }
  if (typeof fields.pattern === 'string') {
    try {
      new RegExp(fields.pattern, typeof fields.flags === 'string' ? fields.flags.replace(/[gyd]/g, '') : '');
    } catch (e) {
      bad(
        'pattern',
        `\`pattern\` is not a valid regular expression: ${(e as Error).message}.`,
        'Test it in a JavaScript console: new RegExp(pattern).',
      );
    }
  }
  return problems.length ? { problems } : { guard: fields as unknown as GuardPattern, problems };
}
