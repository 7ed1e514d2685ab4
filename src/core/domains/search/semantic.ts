import type { Workspace } from '../../ground/workspace';
import { embedderOf } from './documents';
import { passes, searchIndex } from './index-cache';
import type { SearchFilter } from './keyword';

export interface SemanticHit {
  rid: number;
  /** Cosine similarity, -1..1. */
  similarity: number;
}

/** Below this, a vector match says nothing: it is left out rather than fused in as noise. */
export const MIN_SIMILARITY = 0.12;

export async function embedQuery(ws: Workspace, text: string, signal?: AbortSignal): Promise<Float32Array> {
  return (await embedderOf(ws).embed([text], signal))[0];
}

/**
 * The recipes nearest in meaning to `query` (or to a ready vector), most similar first: one exact
 * pass over the int8 vectors of the in-memory index, reading only the query's non-zero dimensions.
 */
export async function semanticSearch(
  ws: Workspace,
  query: string | Float32Array,
  filter: SearchFilter = {},
  limit = 20,
  minSimilarity = MIN_SIMILARITY,
): Promise<SemanticHit[]> {
  const q = typeof query === 'string' ? await embedQuery(ws, query) : query;
  const ix = await searchIndex(ws);
  return ix.vectors
    .nearest(q, limit, minSimilarity, (slot) => passes(ix, slot, filter))
    .map((h) => ({ rid: ix.rid[h.slot], similarity: Math.round(h.similarity * 1000) / 1000 }));
}
