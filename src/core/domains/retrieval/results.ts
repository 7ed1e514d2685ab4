import type { Workspace } from '../../ground/workspace';
import { type RecipeRow, recipeRowsByRid, toSummary } from '../knowledge/recipes';
import type { RecipeKind } from '../knowledge/types';
import { type RankedHit, rankRecipes, type SearchMode } from '../search/hybrid';
import type { SearchFilter } from '../search/keyword';

/** A search result: what a reader needs to decide whether to open it (level 1), no code. */
export interface SearchResult {
  id: string;
  kind: RecipeKind;
  title: string;
  trigger: string;
  summary: string;
  language: string;
  category: string;
  status: string;
  /** `personal` or `pack` when the recipe is not the project's own. */
  origin?: 'personal' | 'pack';
  score: number;
  /** Why it was found: which index, at which rank, on which fields. */
  why: string[];
}

export interface SearchAnswer {
  query: string;
  mode: SearchMode;
  total: number;
  /** Results grouped by kind, best first within each; the group holding the best result comes first, and so on. */
  groups: { kind: RecipeKind; results: SearchResult[] }[];
}

export interface SearchRequest extends SearchFilter {
  query: string;
  mode?: SearchMode;
  limit?: number;
}

export async function searchKnowledge(ws: Workspace, req: SearchRequest): Promise<SearchAnswer> {
  const mode = req.mode ?? 'hybrid';
  const limit = req.limit ?? 10;
  const hits = (await rankRecipes(ws, req.query, mode, req, Math.max(limit * 3, 30))).slice(0, limit);
  const rows = recipeRowsByRid(ws, hits.map((h) => h.rid));
  const results = hits.filter((h) => rows.has(h.rid)).map((h) => toResult(rows.get(h.rid)!, h));
  return {
    query: req.query,
    mode,
    total: results.length,
    groups: groupByKind(results),
  };
}

/** Groups ranked results by kind, keeping rank order: a group comes before another when its best result ranks higher. */
export function groupByKind(results: SearchResult[]): { kind: RecipeKind; results: SearchResult[] }[] {
  const groups = new Map<RecipeKind, SearchResult[]>();
  for (const r of results) {
    const group = groups.get(r.kind);
    if (group) group.push(r);
    else groups.set(r.kind, [r]);
  }
  return [...groups].map(([kind, results]) => ({ kind, results }));
}

export function toResult(row: RecipeRow, hit: RankedHit): SearchResult {
  const s = toSummary(row);
  return {
    id: s.id,
    kind: s.kind,
    title: s.title,
    trigger: s.trigger,
    summary: s.summary,
    language: s.language,
    category: s.category,
    status: s.status,
    ...(s.origin ? { origin: s.origin } : {}),
    score: Math.round(hit.score * 1000) / 1000,
    why: explainHit(hit),
  };
}

export function explainHit(hit: RankedHit): string[] {
  const why: string[] = [];
  if (hit.keyword) {
    why.push(
      `keyword #${hit.keyword.rank} on ${hit.keyword.fields.join(', ')} (${
        Math.round(hit.keyword.coverage * 100)
      }% of the terms)`,
    );
  }
  if (hit.semantic) why.push(`meaning #${hit.semantic.rank} (similarity ${hit.semantic.similarity.toFixed(2)})`);
  return why;
}
