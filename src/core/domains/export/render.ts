/**
 * The text of an export block: rules as short imperative lines, patterns with their trigger and a
 * one-line summary, facts in a line, each linking to its recipe file; within a size budget, saying
 * what was left out and where to get it.
 */
import path from 'node:path';
import type { RecipeKind } from '../knowledge/types';
import { BLOCK_BEGIN, BLOCK_END } from './block';
import { globsFor, languageName } from './formats';

/** What an export needs of a published recipe. */
export interface ExportRecipe {
  id: string;
  title: string;
  trigger: string;
  kind: RecipeKind;
  summary: string;
  /** The language group ('' for language-neutral). */
  group: string;
  quality: number;
  file: string;
  /** Why the recipe is stale, when the code it cites changed since it was reviewed. */
  stale?: string;
  /** The recipe's folder scope (workspace-relative globs), when it has one. */
  paths?: string[];
  /** Set in a file for the whole project: the globs the recipe applies to, said on its line. */
  appliesTo?: string[];
}

export interface RenderedBlock {
  text: string;
  listed: ExportRecipe[];
  omitted: ExportRecipe[];
}

const KIND_ORDER: Record<RecipeKind, number> = { rule: 0, pattern: 1, fact: 2 };
const KIND_HEADING: Record<RecipeKind, string> = { rule: 'Rules', pattern: 'Patterns', fact: 'Facts' };
const MAX_LINE = 280;

/** Most important first: rules, then patterns, then facts; fresh before stale; higher quality first. */
export function byPriority(a: ExportRecipe, b: ExportRecipe): number {
  return KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || Number(!!a.stale) - Number(!!b.stale) || b.quality - a.quality
    || a.title.localeCompare(b.title);
}

/**
 * The block for `recipes` in the file at `file`, as long as fits in `budget` characters (the whole
 * block, markers included). Recipes are taken in priority order; one that does not fit is left out
 * and counted, and shorter ones after it may still fit.
 */
export function renderBlock(
  recipes: ExportRecipe[],
  options: { file: string; budget: number; sections: boolean; scopeNote?: string },
): RenderedBlock {
  const ordered = [...recipes].sort(byPriority);
  const listed: ExportRecipe[] = [];
  const omitted: ExportRecipe[] = [];
  for (const r of ordered) {
    const trial = compose([...listed, r], ordered.length - listed.length - 1, options);
    if (trial.length <= options.budget) listed.push(r);
    else omitted.push(r);
  }
  return { text: compose(listed, omitted.length, options, omitted), listed, omitted };
}

function compose(
  listed: ExportRecipe[],
  omittedCount: number,
  options: { file: string; sections: boolean; scopeNote?: string },
  omitted: ExportRecipe[] = [],
): string {
  const parts: string[] = [BLOCK_BEGIN, '## Project knowledge (AutoSnippet)', ''];
  parts.push(
    listed.length || omittedCount
      ? 'Reviewed recipes of this project: follow the rules; use a pattern when its trigger fits. Each links to its recipe file, with the code and the reasons.'
      : 'No published recipes apply here yet.',
  );
  if (options.scopeNote) parts.push('', options.scopeNote);
  const groups = options.sections
    ? [...new Set(listed.map((r) => r.group))].sort((a, b) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b)))
    : [undefined];
  for (const group of groups) {
    const mine = group === undefined ? listed : listed.filter((r) => r.group === group);
    if (group !== undefined) {
      parts.push(
        '',
        `### ${
          group === ''
            ? 'All code'
            : `${languageName(group)} (${globsFor(group).map((g) => `\`${g.replace('**/', '')}\``).join(', ')})`
        }`,
      );
    }
    for (const kind of ['rule', 'pattern', 'fact'] as RecipeKind[]) {
      const items = mine.filter((r) => r.kind === kind);
      if (!items.length) continue;
      parts.push('', group === undefined ? `### ${KIND_HEADING[kind]}` : `${KIND_HEADING[kind]}:`, '');
      for (const r of items) parts.push(`- ${line(r, options.file)}`);
    }
  }
  if (omittedCount > 0) parts.push('', omittedNote(omittedCount, omitted));
  parts.push(BLOCK_END);
  return parts.join('\n');
}

function omittedNote(count: number, omitted: ExportRecipe[]): string {
  const byKind = (['rule', 'pattern', 'fact'] as RecipeKind[])
    .map((k) => [k, omitted.filter((r) => r.kind === k).length] as const)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}${n === 1 ? '' : 's'}`);
  return `_${count} more published recipe${count === 1 ? ' is' : 's are'} left out to keep this file short${
    byKind.length ? ` (${byKind.join(', ')})` : ''
  }: the AutoSnippet MCP tools have them (\`autosnippet_context_search\` for a task, \`autosnippet_list_rules\`, \`autosnippet_get_recipe\`), and .autosnippet/recipes/ holds every recipe._`;
}

function line(r: ExportRecipe, file: string): string {
  const summary = clean(r.summary) || clean(r.title);
  const text = r.kind === 'rule'
    ? sentence(summary)
    : r.kind === 'pattern'
    ? `**${clean(r.title)}** (\`${r.trigger.replace(/`/g, '')}\`): ${sentence(summary)}`
    : `**${clean(r.title)}**: ${sentence(summary)}`;
  const link = path.posix.relative(path.posix.dirname(file), r.file);
  const stale = r.stale ? ' (stale: the code it cites changed since it was reviewed; check that code first)' : '';
  const where = r.appliesTo ? ` In ${r.appliesTo.map((g) => `\`${g.replace(/`/g, '')}\``).join(', ')} only.` : '';
  return `${shorten(text)}${where} ([${r.id}](${encodeURI(link)}))${stale}`;
}

/** One line of plain text: no line breaks, nothing that could close our markers. */
function clean(s: string): string {
  return s.replace(/\s+/g, ' ').replace(/<!--|-->/g, '').trim();
}

function sentence(s: string): string {
  return /[.!?:)]$/.test(s) ? s : `${s}.`;
}

function shorten(s: string): string {
  if (s.length <= MAX_LINE) return s;
  const cut = s.slice(0, MAX_LINE - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), MAX_LINE / 2))}…`;
}
