import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import schema from '../../../../schemas/guard-rules.schema.json';
import { parseJson, problemOf, readRepoFileSync, shownPath } from '../../ground/files';
import { type FieldProblem, readRuleFields, type RuleExamples } from '../knowledge/guard-format';
import type { GuardRule, MatchScope, RuleExample, RuleProblem, Severity } from './rule';
import type { RuleExclusion } from './runner';

/** The shape of one `.autosnippet/guard/*.json` file (see schemas/guard-rules.schema.json). */
export interface GuardRulesFile {
  rules?: ProjectRuleJson[];
  exclude?: string[];
  ruleExclusions?: (RuleExclusion & { reason?: string })[];
  severity?: Record<string, Severity | 'off'>;
}

/** A rule as written in a project file (see knowledge/guard-format.ts; `regex` and `suggestedFix` are older names). */
export interface ProjectRuleJson {
  id: string;
  message: string;
  severity?: Severity;
  languages: string[];
  pattern?: string;
  regex?: string;
  flags?: string;
  in?: MatchScope;
  query?: string;
  include?: string[];
  exclude?: string[];
  fix?: string;
  why?: string;
  suggestion?: string;
  suggestedFix?: string;
  examples?: Partial<RuleExamples> | { bad: string; good: string }[];
  scope?: GuardRule['scope'];
  tags?: string[];
}

export interface ProjectGuardConfig {
  rules: GuardRule[];
  exclude: string[];
  ruleExclusions: RuleExclusion[];
  severity: Record<string, string>;
  problems: RuleProblem[];
  /** The files read, workspace-relative. */
  files: string[];
}

export const GUARD_RULES_SCHEMA = schema;

/**
 * At most this many project rules load (the built-in packs have about fifty): each regex is analysed
 * and compiled, so a file with 20,000 rules would take the server's memory and minutes of analysis.
 */
export const MAX_PROJECT_RULES = 1000;
/** At most this many globs per list (`exclude`, a rule exclusion's `paths`): every path is matched against each. */
export const MAX_GLOBS = 1000;

let validators: { file: ValidateFunction; rule: ValidateFunction } | undefined;

/** One validator for a file's shape (rules unchecked) and one for a single rule, so a bad rule only costs itself. */
function validatorsOf(): { file: ValidateFunction; rule: ValidateFunction } {
  if (validators) return validators;
  // The schema ships with us (checked against the meta-schema in the tests): compiling the meta-schema costs 250 ms.
  const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false });
  ajv.addSchema(schema);
  const rule = ajv.getSchema(`${schema.$id}#/definitions/rule`)!;
  const shape = {
    ...schema,
    $id: `${schema.$id.replace(/\.schema\.json$/, '')}-file.schema.json`,
    properties: { ...schema.properties, rules: { type: 'array' } },
  };
  validators = { file: ajv.compile(shape), rule };
  return validators;
}

function schemaProblems(
  rel: string,
  where: string,
  errors: readonly ErrorObject[] | null | undefined,
  ruleId?: string,
): RuleProblem[] {
  return (errors ?? []).slice(0, 3).map((e): RuleProblem => ({
    source: rel,
    ...(ruleId ? { ruleId } : {}),
    code: 'INVALID_RULE',
    ...(fieldOf(e) ? { field: fieldOf(e) } : {}),
    message: `${rel}${where || e.instancePath ? ` at ${where}${e.instancePath}` : ''}: ${
      e.message ?? 'does not match the schema'
    }${
      e.params && 'additionalProperty' in e.params ? ` ("${shownPath(String(e.params.additionalProperty), 60)}")` : ''
    }${ruleId ? '; this rule is not loaded, the others are' : ''}`,
    hint: 'See schemas/guard-rules.schema.json for the fields a rule takes.',
  }));
}

/** The rule field an Ajv error is about (`severity`, `examples.bad`), when it is one. */
function fieldOf(e: ErrorObject): string | undefined {
  const missing = (e.params as { missingProperty?: string }).missingProperty;
  const field = [...e.instancePath.split('/').filter((s) => s && !/^\d+$/.test(s)), ...(missing ? [missing] : [])].join(
    '.',
  );
  return field || undefined;
}

/**
 * Reads every `*.json` in `<root>/.autosnippet/guard/`, in name order, with the safe reader. Problems
 * are collected, not thrown: a file that cannot be read or parsed is left out, a rule that does not
 * match the schema is left out alone, and rules past MAX_PROJECT_RULES are reported, not loaded.
 */
export function readProjectGuardConfig(root: string, folder = '.autosnippet/guard'): ProjectGuardConfig {
  const dir = path.join(root, ...folder.split('/'));
  const out: ProjectGuardConfig = { rules: [], exclude: [], ruleExclusions: [], severity: {}, problems: [], files: [] };
  let names: string[];
  try {
    // The baseline lives beside the rule files but is not one (see baseline.ts).
    names = readdirSync(dir).filter((n) => n.endsWith('.json') && n !== 'baseline.json').sort();
  } catch {
    return out;
  }
  const { file: validateFile, rule: validateRule } = validatorsOf();
  for (const name of names) {
    const rel = `${folder}/${name}`;
    let text: string;
    try {
      text = readRepoFileSync(root, rel, { kind: 'guard-rules' }).text;
    } catch (e) {
      const p = problemOf(rel, e);
      out.problems.push({
        source: rel,
        code: 'UNREADABLE_RULES',
        message: p.message,
        hint: 'Guard rule files must be regular JSON files inside the workspace, at most 4 MiB.',
      });
      continue;
    }
    out.files.push(rel);
    const parsed = parseJson(text, { subject: rel });
    if (!parsed.ok) {
      out.problems.push({
        source: rel,
        code: 'UNREADABLE_RULES',
        message: parsed.problem.message,
        hint: 'Fix the JSON; the schema is schemas/guard-rules.schema.json.',
      });
      continue;
    }
    const data = parsed.value;
    if (!validateFile(data)) {
      out.problems.push(...schemaProblems(rel, '', validateFile.errors));
      continue;
    }
    const file = data as GuardRulesFile;
    const rules = file.rules ?? [];
    const room = Math.max(0, MAX_PROJECT_RULES - out.rules.length);
    if (rules.length > room) {
      out.problems.push({
        source: rel,
        code: 'INVALID_RULE',
        message: `${rel} has ${rules.length} rules; ${
          room ? `only the first ${room} are loaded` : 'none are loaded'
        }: at most ${MAX_PROJECT_RULES} project rules load in all.`,
        hint: 'Keep the rules that matter; split or remove the others.',
      });
    }
    rules.slice(0, room).forEach((r, i) => {
      const read = r && typeof r === 'object' && !Array.isArray(r)
        ? readRuleFields(r as unknown as Record<string, unknown>)
        : undefined;
      if (read?.problems.length) out.problems.push(...read.problems.map((p) => fieldProblem(rel, i, p, ruleIdOf(r))));
      else if (validateRule(read?.fields ?? r)) out.rules.push(toRule(r, rel));
      else out.problems.push(...schemaProblems(rel, `/rules/${i}`, validateRule.errors, ruleIdOf(r)));
    });
    out.exclude.push(...capped(file.exclude ?? [], rel, 'exclude', out.problems));
    out.ruleExclusions.push(
      ...(file.ruleExclusions ?? []).map(({ rule, paths }) => ({
        rule,
        paths: capped(paths, rel, `the exclusion of ${rule}`, out.problems),
      })),
    );
    Object.assign(out.severity, file.severity ?? {});
  }
  return out;
}

function capped(globs: string[], rel: string, what: string, problems: RuleProblem[]): string[] {
  if (globs.length <= MAX_GLOBS) return globs;
  problems.push({
    source: rel,
    code: 'INVALID_RULE',
    message: `${rel}: ${what} lists ${globs.length} globs; only the first ${MAX_GLOBS} apply.`,
    hint: 'Use broader globs (a folder name matches at any depth).',
  });
  return globs.slice(0, MAX_GLOBS);
}

function fieldProblem(rel: string, index: number, p: FieldProblem, ruleId?: string): RuleProblem {
  return {
    source: rel,
    ...(ruleId ? { ruleId } : {}),
    code: 'INVALID_RULE',
    field: p.field,
    message: `${rel} at /rules/${index}${
      ruleId ? ` (${ruleId})` : ''
    }: ${p.message} This rule is not loaded, the others are.`,
    hint: p.hint,
  };
}

/** A rule's id for a problem, when it has a usable one. */
function ruleIdOf(rule: unknown): string | undefined {
  const id = (rule as { id?: unknown } | null)?.id;
  return typeof id === 'string' ? shownPath(id, 100) : undefined;
}

/** A rule as written (aliases allowed) as the guard's rule model; the fields are assumed checked. */
export function toRule(written: ProjectRuleJson, source: string, origin: GuardRule['origin'] = 'project'): GuardRule {
  const r = readRuleFields(written as unknown as Record<string, unknown>).fields as
    & Omit<ProjectRuleJson, 'examples'>
    & { examples?: RuleExamples };
  return {
    id: r.id,
    message: r.message,
    severity: r.severity ?? 'warning',
    languages: r.languages,
    pattern: r.query !== undefined
      ? { kind: 'structural', query: r.query }
      : { kind: 'regex', regex: r.pattern ?? '', flags: r.flags, scope: r.in },
    fix: r.fix,
    why: r.why ?? r.message,
    suggestion: r.suggestion ?? r.message,
    scope: r.scope ?? 'file',
    tags: r.tags,
    include: r.include,
    exclude: r.exclude,
    examples: r.examples && examplePairs(r.examples),
    origin,
    source,
  };
}

/** Bad and good examples side by side, as the rule model and guard_explain show them. */
export function examplePairs(ex: RuleExamples): RuleExample[] {
  return Array.from({ length: Math.max(ex.bad.length, ex.good.length) }, (_, i) => ({
    ...(i < ex.bad.length ? { bad: ex.bad[i] } : {}),
    ...(i < ex.good.length ? { good: ex.good[i] } : {}),
  }));
}
