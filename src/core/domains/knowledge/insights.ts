import type { Workspace } from '../../ground/workspace';
import { embeddingText } from '../search/documents';
import { embedQuery, semanticSearch } from '../search/semantic';
import { qualityScores } from './quality';
import { readRecipe, RECIPE_COLUMNS, recipeMeta, type RecipeRow, recipeRowsByRid, resolveRecipeRow } from './recipes';
import { transitionsOf } from './transitions';
import type { Recipe, RecipeFileProblem, StatusChange } from './types';
import { RELATION_TYPES } from './types';
import { allUsage, usageOf } from './usage';

/** One recipe: its quality and what would raise it, its usage, its history, what it relates to. */
export async function recipeInsight(ws: Workspace, ref: string) {
  const row = await resolveRecipeRow(ws, ref);
  const recipe = await readRecipe(ws, row.id);
  const meta = recipeMeta(row);
  const usage = usageOf(ws, [row.id]).get(row.id)!;
  const related = RELATION_TYPES.flatMap((type) =>
    (recipe.relations?.[type] ?? []).map((to) => ({
      type,
      to,
      exists: !!ws.store.get('SELECT 1 AS x FROM recipes WHERE id = ?', [to]),
    }))
  );
  const referencedBy = ws.store
    .all<{ id: string; meta: string }>('SELECT id, meta FROM recipes WHERE meta LIKE ? AND id <> ?', [
      `%${JSON.stringify(row.id).slice(1, -1)}%`,
      row.id,
    ])
    .flatMap((r) => {
      const rel = (JSON.parse(r.meta) as { relations?: Record<string, string[]> }).relations ?? {};
      return Object.entries(rel).filter(([, ids]) => ids.includes(row.id)).map(([type]) => ({ id: r.id, type }));
    });
  const near = await semanticSearch(
    ws,
    await embedQuery(ws, embeddingText(recipe)),
    { includeDeprecated: true },
    4,
    0.3,
  );
  const nearRows = recipeRowsByRid(ws, near.map((n) => n.rid));
  return {
    id: row.id,
    title: row.title,
    status: row.status,
    kind: row.kind,
    file: row.file,
    quality: qualityScores(meta.quality, usage),
    improve: meta.quality.gaps,
    usage,
    history: history(ws, recipe),
    relations: related,
    referencedBy,
    similar: near.filter((n) => nearRows.get(n.rid)?.id !== row.id).map((n) => ({
      id: nearRows.get(n.rid)?.id,
      similarity: n.similarity,
    })).slice(0, 3),
  };
}

/** The knowledge base as a whole: what there is, what is used, what needs attention. */
export function knowledgeOverview(ws: Workspace) {
  const rows = ws.store.all<RecipeRow>(`SELECT ${RECIPE_COLUMNS} FROM recipes`);
  const usage = allUsage(ws);
  const count = <K extends string>(key: (r: RecipeRow) => K) =>
    rows.reduce<Record<string, number>>((acc, r) => ((acc[key(r)] = (acc[key(r)] ?? 0) + 1), acc), {});
  const live = rows.filter((r) => r.status !== 'deprecated');
  const used = live
    .map((r) => ({ id: r.id, title: r.title, ...(usage.get(r.id) ?? { views: 0, adoptions: 0, applications: 0 }) }))
    .filter((u) => u.adoptions + u.applications + u.views > 0)
    .sort((a, b) => b.adoptions * 3 + b.applications * 2 + b.views - (a.adoptions * 3 + a.applications * 2 + a.views));
  const neverUsed = live.filter((r) => !usage.has(r.id));
  const lowQuality = [...live].sort((a, b) => a.quality - b.quality).slice(0, 5).map((r) => ({
    id: r.id,
    quality: r.quality,
    improve: recipeMeta(r).quality.gaps.slice(0, 3),
  }));
  const candidates = Object.fromEntries(
    ws.store.all<{ status: string; n: number }>('SELECT status, COUNT(*) AS n FROM candidates GROUP BY status').map((
      r,
    ) => [r.status, r.n]),
  );
  const problems = ws.store.all<{ problems: string }>('SELECT problems FROM recipe_file_problems ORDER BY file')
    .flatMap((r) => JSON.parse(r.problems) as RecipeFileProblem[]);
  const triggers = count((r) => r.trigger);
  return {
    recipes: rows.length,
    byStatus: count((r) => r.status),
    byKind: count((r) => r.kind),
    byCategory: count((r) => r.category),
    candidates,
    averageQuality: live.length ? Math.round((live.reduce((a, r) => a + r.quality, 0) / live.length) * 100) / 100 : 0,
    mostUsed: used.slice(0, 5).map((u) => ({
      id: u.id,
      title: u.title,
      adoptions: u.adoptions,
      applications: u.applications,
      views: u.views,
    })),
    neverUsed: { count: neverUsed.length, ids: neverUsed.slice(0, 10).map((r) => r.id) },
    lowestQuality: lowQuality,
    duplicateTriggers: Object.entries(triggers).filter(([, n]) => n > 1).map(([trigger, n]) => ({
      trigger,
      recipes: n,
    })),
    fileProblems: problems.slice(0, 20),
  };
}

/**
 * A recipe's status history: the transitions this machine recorded (its candidate's included), or,
 * for a recipe that came through git, what its frontmatter says.
 */
export function history(ws: Workspace, r: Recipe): StatusChange[] {
  const recorded = [
    ...(r.candidateId ? transitionsOf(ws, 'candidate', r.candidateId) : []),
    ...transitionsOf(ws, 'recipe', r.id),
  ];
  if (recorded.some((t) => t.to === r.status)) return recorded;
  const fromFile: StatusChange[] = [];
  if (r.createdAt) {
    fromFile.push({
      from: null,
      to: r.candidateId ? 'pending' : 'draft',
      actor: r.createdBy ?? 'unknown',
      at: r.createdAt,
    });
  }
  if (r.approvedAt) {
    fromFile.push({ from: 'pending', to: 'approved', actor: r.approvedBy ?? 'unknown', at: r.approvedAt });
  }
  if (r.publishedAt) {
    fromFile.push({ from: 'draft', to: 'published', actor: r.publishedBy ?? 'unknown', at: r.publishedAt });
  }
  if (r.deprecatedAt) {
    fromFile.push({
      from: 'published',
      to: 'deprecated',
      actor: r.deprecatedBy ?? 'unknown',
      at: r.deprecatedAt,
      ...(r.deprecationReason ? { reason: r.deprecationReason } : {}),
    });
  }
  return fromFile.length ? fromFile : recorded;
}
