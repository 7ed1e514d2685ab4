import type * as TS from '@vscode/tree-sitter-wasm';
import { regexShape } from './regex-source';
import type { GuardRule, MatchScope, RegexPattern } from './rule';
import { grammarFor } from './structural';

/** One regex rule ready to run: a global matcher, and a sticky one with indices for fixes. */
export interface RegexMember {
  /** Index into CompiledRuleSet.rules. */
  index: number;
  global: RegExp;
  sticky: RegExp;
  /** Capture group (in the combined regex) that wraps this member's alternative. */
  group: number;
  /** One of these is in every match (GuardRule.needles); none in a text means no match there. */
  needles?: string[];
}

/**
 * Rules that run in one pass. Trusted built-in rules with the same scope and flags are combined into
 * one alternation (one scan of the text for all of them); every other rule runs alone, so a slow one
 * can be named and stopped on its own.
 */
export interface RegexTask {
  kind: 'regex';
  scope: MatchScope;
  members: RegexMember[];
  combined?: RegExp;
  /** Every member is proven linear-time (see regex-safety.ts): it needs no watchdog. */
  linear: boolean;
  /** Every member is a built-in rule, which a test keeps from backtracking worse than quadratically. */
  trusted: boolean;
}

export interface StructuralTask {
  kind: 'structural';
  grammar: string;
  /** Rule index per query pattern index. */
  ruleOfPattern: number[];
  query: TS.Query;
  /** Texts whose code this does not match are not parsed for the task. */
  prefilter?: RegExp;
}

export type Task = RegexTask | StructuralTask;

export interface CompiledRuleSet {
  language: string;
  rules: GuardRule[];
  tasks: Task[];
  /**
   * When every rule is a regex rule with needles: all of them. A text holding none cannot match any
   * rule, so a scan skips it whole (not even masked). Absent when some rule has no needles.
   */
  needles?: string[];
  /** Grammars the structural tasks need (loaded before the first check). */
  grammars: string[];
}

/** Compiled tree-sitter queries, keyed by grammar and rule id (compiled and validated at load). */
export type QueryTable = Map<string, TS.Query>;

export function queryKey(grammar: string, ruleId: string): string {
  return `${grammar}\u0000${ruleId}`;
}

export function compileRuleSet(language: string, rules: GuardRule[], queries: QueryTable): CompiledRuleSet {
  const tasks: Task[] = [];
  const combinable = new Map<
    string,
    {
      scope: MatchScope;
      flags: string;
      linear: boolean;
      members: { index: number; source: string; needles?: string[] }[];
    }
  >();
  const grammars = new Set<string>();
  rules.forEach((rule, index) => {
    if (rule.pattern.kind === 'structural') {
      const grammar = grammarFor(language);
      const query = grammar ? queries.get(queryKey(grammar, rule.id)) : undefined;
      if (!grammar || !query) return;
      grammars.add(grammar);
      const prefilter = rule.pattern.prefilter ? new RegExp(rule.pattern.prefilter) : undefined;
      tasks.push({
        kind: 'structural',
        grammar,
        ruleOfPattern: Array.from({ length: query.patternCount() }, () => index),
        query,
        ...(prefilter ? { prefilter } : {}),
      });
      return;
    }
    const p = rule.pattern as RegexPattern;
    const flags = normalizeFlags(p.flags);
    const shape = regexShape(p.regex);
    if (rule.origin === 'builtin' && !shape.named && !shape.backreferences) {
      // Proven-linear rules combine among themselves, so their alternation stays proven.
      const linear = rule.linear === true;
      const key = `${p.scope ?? 'code'}/${flags}/${linear}`;
      let g = combinable.get(key);
      if (!g) combinable.set(key, g = { scope: p.scope ?? 'code', flags, linear, members: [] });
      g.members.push({ index, source: p.regex, needles: rule.needles });
    } else {
      tasks.push({
        kind: 'regex',
        scope: p.scope ?? 'code',
        members: [member(index, p.regex, flags, 0)],
        linear: rule.linear === true,
        trusted: rule.origin === 'builtin',
      });
    }
  });
  const combinedTasks: RegexTask[] = [];
  for (const g of combinable.values()) {
    if (g.members.length === 1) {
      combinedTasks.push({
        kind: 'regex',
        scope: g.scope,
        members: [member(g.members[0].index, g.members[0].source, g.flags, 0, g.members[0].needles)],
        linear: g.linear,
        trusted: true,
      });
      continue;
    }
    let group = 1;
    const members: RegexMember[] = [];
    const parts: string[] = [];
    for (const m of g.members) {
      members.push(member(m.index, m.source, g.flags, group, m.needles));
      parts.push(`(${m.source})`);
      group += 1 + regexShape(m.source).groups;
    }
    combinedTasks.push({
      kind: 'regex',
      scope: g.scope,
      members,
      combined: new RegExp(parts.join('|'), g.flags + 'g'),
      linear: g.linear,
      trusted: true,
    });
  }
  // Trusted, combined work first: a slow project rule then cannot starve the built-ins.
  const all = [
    ...combinedTasks,
    ...tasks.filter((t) => t.kind === 'regex'),
    ...tasks.filter((t) => t.kind === 'structural'),
  ];
  const gated = all.every((t) => t.kind === 'regex' && t.members.every((m) => m.needles?.length))
    && !rules.some((r) => r.required);
  const needles = gated
    ? [...new Set(all.flatMap((t) => (t as RegexTask).members.flatMap((m) => m.needles!)))]
    : undefined;
  return { language, rules, tasks: all, grammars: [...grammars], ...(needles ? { needles } : {}) };
}

function member(index: number, source: string, flags: string, group: number, needles?: string[]): RegexMember {
  return {
    index,
    global: new RegExp(source, flags + 'g'),
    sticky: new RegExp(source, flags + 'yd'),
    group,
    ...(needles?.length ? { needles } : {}),
  };
}

export function normalizeFlags(flags: string | undefined): string {
  return [...new Set((flags ?? '').replace(/[gyd]/g, ''))].sort().join('');
}
