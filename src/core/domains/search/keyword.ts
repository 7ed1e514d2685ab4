import { queryTerms } from '../../ground/text';
import type { Workspace } from '../../ground/workspace';
import { FIELD_NAMES } from './documents';
import { passes, searchIndex } from './index-cache';
import type { SearchFilter } from './index-types';

export type { SearchFilter } from './index-types';

export interface KeywordHit {
  rid: number;
  score: number;
  /** The fields that matched, strongest first: trigger, title, summary, body. */
  fields: string[];
  /** Share of the query's terms found. */
  coverage: number;
}

/**
 * BM25F over the recipes (trigger 8 > title 4 > summary 2 > the rest), terms OR-ed: any term may
 * match, and documents matching more and rarer terms in heavier fields rank first. The last term
 * also matches as a prefix, so a query typed so far already finds. Served by the in-memory index
 * (see index-cache.ts), top-k without scoring every match.
 */
export async function keywordSearch(
  ws: Workspace,
  query: string,
  filter: SearchFilter = {},
  limit = 20,
): Promise<KeywordHit[]> {
  const q = keywordQuery(query);
  if (!q) return [];
  const ix = await searchIndex(ws);
  return ix.terms.search({ ...q, limit, accept: (slot) => passes(ix, slot, filter) }).map((h) => ({
    rid: ix.rid[h.slot],
    score: h.score,
    fields: FIELD_NAMES.filter((_, f) => h.fieldMask & (1 << f)),
    coverage: h.termsMatched / q.terms.length,
  }));
}

/** A query's terms, and whether the last one is matched as a prefix (typed so far, at least 3 characters, no trailing space). */
export function keywordQuery(query: string): { terms: string[]; prefixLast: boolean } | undefined {
  const terms = queryTerms(query);
  if (terms.length === 0) return undefined;
  return { terms, prefixLast: !/\s$/.test(query) && terms[terms.length - 1].length >= 3 };
}
