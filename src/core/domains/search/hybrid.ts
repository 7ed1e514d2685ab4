import type { Workspace } from '../../ground/workspace';
import { type KeywordHit, keywordSearch, type SearchFilter } from './keyword';
import { type SemanticHit, semanticSearch } from './semantic';

/** The constant of reciprocal rank fusion: 60, as in Cormack et al.; it damps the top ranks' lead. */
export const RRF_K = 60;

export interface FusedHit {
  rid: number;
  score: number;
  /** 1-based rank in each list the item appeared in. */
  ranks: Record<string, number>;
}

/** Reciprocal rank fusion: score = Σ 1 / (k + rank) over the lists an item appears in. */
export function reciprocalRankFusion(lists: Record<string, { rid: number }[]>, k = RRF_K): FusedHit[] {
  const byId = new Map<number, FusedHit>();
  for (const [name, list] of Object.entries(lists)) {
    list.forEach((item, i) => {
      const hit = byId.get(item.rid) ?? { rid: item.rid, score: 0, ranks: {} };
      hit.score += 1 / (k + i + 1);
      hit.ranks[name] = i + 1;
      byId.set(item.rid, hit);
    });
  }
  return [...byId.values()].sort((a, b) =>
    b.score - a.score || Math.min(...Object.values(a.ranks)) - Math.min(...Object.values(b.ranks)) || a.rid - b.rid
  );
}

export type SearchMode = 'hybrid' | 'keyword' | 'semantic';

export interface RankedHit {
  rid: number;
  score: number;
  keyword?: KeywordHit & { rank: number };
  semantic?: SemanticHit & { rank: number };
}

/** One search over the index in any mode, with each list's evidence kept for explanations. */
export async function rankRecipes(
  ws: Workspace,
  query: string,
  mode: SearchMode,
  filter: SearchFilter,
  depth: number,
): Promise<RankedHit[]> {
  const kw = mode === 'semantic' ? [] : await keywordSearch(ws, query, filter, depth);
  const sem = mode === 'keyword' ? [] : await semanticSearch(ws, query, filter, depth);
  if (mode === 'keyword') return kw.map((h, i) => ({ rid: h.rid, score: h.score, keyword: { ...h, rank: i + 1 } }));
  if (mode === 'semantic') {
    return sem.map((h, i) => ({ rid: h.rid, score: h.similarity, semantic: { ...h, rank: i + 1 } }));
  }
  const kwBy = new Map(kw.map((h, i) => [h.rid, { ...h, rank: i + 1 }]));
  const semBy = new Map(sem.map((h, i) => [h.rid, { ...h, rank: i + 1 }]));
  return reciprocalRankFusion({ keyword: kw, semantic: sem }).map((f) => ({
    rid: f.rid,
    score: Math.round(f.score * 10000) / 10000,
    ...(kwBy.has(f.rid) ? { keyword: kwBy.get(f.rid)! } : {}),
    ...(semBy.has(f.rid) ? { semantic: semBy.get(f.rid)! } : {}),
  }));
}
