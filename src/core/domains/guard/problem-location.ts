import type { RuleProblem } from './rule';

/** Where in its file a rule problem belongs: 0-based line and column, and how many characters to mark. */
export interface ProblemLocation {
  line: number;
  column: number;
  length: number;
}

/** The file a problem is shown on: the rule file, or the recipe that holds the guard. */
export function problemFile(p: RuleProblem): string | undefined {
  if (p.file) return p.file;
  return p.source.startsWith('.autosnippet/') ? p.source : undefined;
}

/**
 * The key of the problem's field inside the rule it names (a JSON rule file or a recipe's
 * `constraints.guards`), else the rule's id, else the start of the file. Text search, not a parse:
 * a file with a problem may not parse at all.
 */
export function problemLocation(text: string, p: RuleProblem): ProblemLocation {
  const json = problemFile(p)?.endsWith('.json') ?? false;
  let from = 0;
  let to = text.length;
  let at: { index: number; length: number } | undefined;
  if (p.ruleId) {
    const own = p.ruleId.startsWith('recipe/')
      ? recipeGuardStart(text, p.ruleId)
      : find(text, new RegExp(`"id"\\s*:\\s*"${escape(p.ruleId)}"`), 0, text.length);
    if (own) {
      at = own;
      from = own.index;
      const next = json
        ? find(text, /"id"\s*:/, own.index + own.length, text.length)
        : find(text, /^\s*- /m, own.index + own.length, text.length);
      to = next?.index ?? text.length;
    }
  }
  const parts = (p.field ?? '').split(/[.[\]]+/).filter((s) => s && !/^\d+$/.test(s));
  for (const key of parts) {
    const hit = find(
      text,
      json ? new RegExp(`"${escape(key)}"\\s*:`) : new RegExp(`(?<![\\w-])${escape(key)}\\s*:`),
      from,
      to,
    );
    if (!hit) break;
    at = hit;
    from = hit.index;
  }
  if (!at) return { line: 0, column: 0, length: 0 };
  const before = text.slice(0, at.index);
  const line = before.split('\n').length - 1;
  return { line, column: at.index - (before.lastIndexOf('\n') + 1), length: at.length };
}

/** A recipe guard's entry: `id: <name>` for a named one, the n-th `- ` under `guards:` otherwise. */
function recipeGuardStart(text: string, ruleId: string): { index: number; length: number } | undefined {
  const guards = find(text, /^\s*guards\s*:/m, 0, text.length);
  if (!guards) return undefined;
  const named = /\/([a-z0-9][a-z0-9._-]*)$/.exec(ruleId.slice('recipe/'.length).split('#')[0]);
  const nth = Number(/#(\d+)$/.exec(ruleId)?.[1] ?? 1);
  let from = guards.index + guards.length;
  let hit: { index: number; length: number } | undefined;
  for (let i = 0; i < nth; i++) {
    hit = find(text, /^\s*- /m, from, text.length);
    if (!hit) return guards;
    from = hit.index + hit.length;
  }
  if (named) return find(text, new RegExp(`id\\s*:\\s*["']?${escape(named[1])}\\b`), guards.index, text.length) ?? hit;
  return hit;
}

function find(text: string, re: RegExp, from: number, to: number): { index: number; length: number } | undefined {
  const m = re.exec(text.slice(from, to));
  return m ? { index: from + m.index, length: m[0].length } : undefined;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
