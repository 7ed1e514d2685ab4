import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import Ajv, { type ErrorObject } from 'ajv';
import type { GuardRule, MatchScope, RuleProblem, Severity } from './rule';
import type { RuleExclusion } from './runner';
import schema from '../../../schemas/guard-rules.schema.json';

/** The shape of one `.autosnippet/guard/*.json` file (see schemas/guard-rules.schema.json). */
export interface GuardRulesFile {
  rules?: ProjectRuleJson[];
  exclude?: string[];
  ruleExclusions?: (RuleExclusion & { reason?: string })[];
  severity?: Record<string, Severity | 'off'>;
}

/** A rule as written in a project file: the rule model with its pattern spelled out as fields. */
export type ProjectRuleJson = Omit<GuardRule, 'severity' | 'pattern' | 'origin' | 'source' | 'disabledByDefault'> & {
  severity?: Severity;
  regex?: string;
  flags?: string;
  in?: MatchScope;
  query?: string;
};

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

let validator: ReturnType<Ajv['compile']> | undefined;

function validate(data: unknown): ErrorObject[] {
  validator ??= new Ajv({ allErrors: true, strict: false }).compile(schema);
  return validator(data) ? [] : (validator.errors ?? []);
}

/** Reads every `*.json` in `<root>/.autosnippet/guard/`, in name order. Problems are collected, not thrown. */
export function readProjectGuardConfig(root: string): ProjectGuardConfig {
  const dir = path.join(root, '.autosnippet', 'guard');
  const out: ProjectGuardConfig = { rules: [], exclude: [], ruleExclusions: [], severity: {}, problems: [], files: [] };
  let names: string[];
  try {
    // The baseline lives beside the rule files but is not one (see baseline.ts).
    names = readdirSync(dir).filter((n) => n.endsWith('.json') && n !== 'baseline.json').sort();
  } catch {
    return out;
  }
  for (const name of names) {
    const rel = `.autosnippet/guard/${name}`;
    const abs = path.join(dir, name);
    try {
      if (!statSync(abs).isFile()) continue;
    } catch {
      continue;
    }
    out.files.push(rel);
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(abs, 'utf8'));
    } catch (e) {
      out.problems.push({ source: rel, code: 'UNREADABLE_RULES', message: `${rel} is not valid JSON: ${(e as Error).message}`, hint: 'Fix the JSON; the schema is schemas/guard-rules.schema.json.' });
      continue;
    }
    const errors = validate(data);
    if (errors.length) {
      out.problems.push(...errors.slice(0, 5).map((e): RuleProblem => ({
        source: rel,
        ruleId: ruleIdAt(data, e.instancePath),
        code: 'INVALID_RULE',
        message: `${rel}${e.instancePath ? ` at ${e.instancePath}` : ''}: ${e.message ?? 'does not match the schema'}${e.params && 'additionalProperty' in e.params ? ` ("${String(e.params.additionalProperty)}")` : ''}`,
        hint: 'See schemas/guard-rules.schema.json for the fields a rule takes.',
      })));
      continue;
    }
    const file = data as GuardRulesFile;
    for (const r of file.rules ?? []) out.rules.push(toRule(r, rel));
    out.exclude.push(...(file.exclude ?? []));
    out.ruleExclusions.push(...(file.ruleExclusions ?? []).map(({ rule, paths }) => ({ rule, paths })));
    Object.assign(out.severity, file.severity ?? {});
  }
  return out;
}

export function toRule(r: ProjectRuleJson, source: string, origin: GuardRule['origin'] = 'project'): GuardRule {
  return {
    id: r.id,
    message: r.message,
    severity: r.severity ?? 'warning',
    languages: r.languages,
    pattern: r.query !== undefined ? { kind: 'structural', query: r.query } : { kind: 'regex', regex: r.regex ?? '', flags: r.flags, scope: r.in },
    fix: r.fix,
    why: r.why,
    suggestion: r.suggestion,
    scope: r.scope ?? 'file',
    tags: r.tags,
    include: r.include,
    exclude: r.exclude,
    examples: r.examples,
    origin,
    source,
  };
}

function ruleIdAt(data: unknown, pointer: string): string | undefined {
  const m = /^\/rules\/(\d+)/.exec(pointer);
  if (!m) return undefined;
  const rule = (data as GuardRulesFile).rules?.[Number(m[1])];
  return typeof rule?.id === 'string' ? rule.id : undefined;
}
