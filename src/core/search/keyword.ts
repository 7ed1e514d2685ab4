import type { Workspace } from '../workspace';
import { bm25Hits, HITS_FORMAT, queryStats, queryTerms, STATS_FORMAT } from '../text';
import { FIELD_NAMES, FIELD_WEIGHTS } from './documents';
import { FIELD_COUNT, passes, searchIndexCache } from './index-cache';

export interface SearchFilter {
  kind?: string;
  language?: string;
  /** Deprecated recipes are left out unless asked for. */
  includeDeprecated?: boolean;
}

export interface KeywordHit {
  rid: number;
  score: number;
  /** The fields that matched, strongest first: trigger, title, summary, body. */
  fields: string[];
  /** Share of the query's terms found. */
  coverage: number;
}

/**
 * Field-weighted BM25 over the FTS4 index: terms are OR-ed (any term may match), each column scored
 * on its own and weighted trigger > title > summary > the rest. The last term also matches as a
 * prefix, so a query typed so far already finds.
 *
 * sql.js has no FTS5 and so no bm25(): the score is computed from matchinfo. Asking matchinfo for
 * each row's column lengths ('l') reads the row's stored size and costs more than the rest together,
 * so one row's 'pcnax' gives the query-wide statistics (rows, average lengths, document frequencies),
 * every matching row gives only its hits ('pcy'), and the lengths come from the search cache.
 */
export async function keywordSearch(ws: Workspace, query: string, filter: SearchFilter = {}, limit = 20): Promise<KeywordHit[]> {
  const match = matchExpression(query);
  if (!match) return [];
  const cache = await searchIndexCache(ws);
  const first = ws.store.get<{ mi: Uint8Array }>(`SELECT matchinfo(recipe_fts, '${STATS_FORMAT}') AS mi FROM recipe_fts WHERE recipe_fts MATCH ? LIMIT 1`, [match.expr]);
  if (!first) return [];
  const stats = queryStats(first.mi);
  const top: KeywordHit[] = [];
  let floor = -Infinity;
  for (const r of ws.store.all<{ rid: number; mi: Uint8Array }>(`SELECT docid AS rid, matchinfo(recipe_fts, '${HITS_FORMAT}') AS mi FROM recipe_fts WHERE recipe_fts MATCH ?`, [match.expr])) {
    const i = cache.row.get(r.rid);
    if (i === undefined || !passes(cache, i, filter)) continue;
    const s = bm25Hits(r.mi, cache.lengths, i * FIELD_COUNT, stats, FIELD_WEIGHTS);
    if (s.score < floor) continue;
    const hit = { rid: r.rid, score: s.score, fields: s.columns.map((c) => FIELD_NAMES[c]), coverage: s.phrasesMatched / match.terms };
    let at = top.length;
    while (at > 0 && (top[at - 1].score < hit.score || (top[at - 1].score === hit.score && top[at - 1].rid > hit.rid))) at--;
    top.splice(at, 0, hit);
    if (top.length > limit) {
      top.pop();
      floor = top[top.length - 1].score;
    }
  }
  return top;
}

/** `fetch user retries` → `fetch OR user OR retri*`. Terms are pre-split words, so no FTS syntax can leak in. */
export function matchExpression(query: string): { expr: string; terms: number } | undefined {
  const terms = queryTerms(query).filter((t) => /^[\p{L}\p{N}]+$/u.test(t));
  if (terms.length === 0) return undefined;
  const prefixLast = !/\s$/.test(query) && terms[terms.length - 1].length >= 3;
  return { expr: terms.map((t, i) => (i === terms.length - 1 && prefixLast ? `${t}*` : t)).join(' OR '), terms: terms.length };
}
