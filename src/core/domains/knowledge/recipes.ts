import { existsSync, promises as fsp } from 'node:fs';
import path from 'node:path';
import { readRepoFile } from '../../ground/files';
import { AutoSnippetError, ErrorCode, isAutoSnippetError } from '../../ground/kernel/errors';
import { closestNames } from '../../ground/kernel/names';
import type { Workspace } from '../../ground/workspace';
import { PACKS_STATE_DIR } from '../packs/layout';
import { isPersonalRecipeFile, personalSourceOf } from './personal';
import type { ContentQuality } from './quality';
import { contentHash, parseRecipeFile, recipeFilePath } from './recipe-file';
import { syncRecipes } from './recipe-index';
import type { KnowledgeType, Recipe, RecipeKind, RecipeStatus, Relations } from './types';

/** A recipe as lists show it: no code, no long texts. */
export interface RecipeSummary {
  id: string;
  title: string;
  trigger: string;
  kind: RecipeKind;
  knowledgeType: KnowledgeType;
  language: string;
  category: string;
  status: RecipeStatus;
  summary: string;
  tags: string[];
  quality: number;
  /** Whether the recipe has code to insert (a trigger offers only those). */
  hasCode: boolean;
  /** The folder scope (workspace-relative globs), when the recipe applies to part of the project only. */
  paths?: string[];
  /** The knowledge pack the recipe comes from (read-only here), when it is not the project's own. */
  pack?: { name: string; version: string };
  /** Where it comes from when it is not the project's own: the person's folder or a knowledge pack. */
  origin?: RecipeOrigin;
  file: string;
  updatedAt: string;
}

/** A recipe not of the project: one of the person's own (`~/.autosnippet/recipes`) or a pack's. */
export type RecipeOrigin = 'personal' | 'pack';

/** The origin the index recorded for a row (from where its file is, never from what it says). */
export function originOf(meta: { pack?: unknown; personal?: boolean }): RecipeOrigin | undefined {
  return meta.personal ? 'personal' : meta.pack ? 'pack' : undefined;
}

export interface RecipeRow {
  rid: number;
  id: string;
  file: string;
  hash: string;
  title: string;
  trigger: string;
  language: string;
  category: string;
  knowledge_type: string;
  kind: string;
  status: string;
  scope: string;
  complexity: string;
  summary: string;
  tags: string;
  meta: string;
  quality: number;
  updated_at: string;
}

export interface RecipeMeta {
  relations?: Relations;
  sourceFiles?: string[];
  candidateId?: string;
  hasCode: boolean;
  quality: ContentQuality;
  [k: string]: unknown;
}

export const RECIPE_COLUMNS =
  'rid, id, file, hash, title, trigger, language, category, knowledge_type, kind, status, scope, complexity, summary, tags, meta, quality, updated_at';

export function toSummary(r: RecipeRow): RecipeSummary {
  const meta = JSON.parse(r.meta) as {
    hasCode?: boolean;
    paths?: string[];
    pack?: RecipeSummary['pack'];
    personal?: boolean;
  };
  const origin = originOf(meta);
  return {
    id: r.id,
    title: r.title,
    trigger: r.trigger,
    kind: r.kind as RecipeKind,
    knowledgeType: r.knowledge_type as KnowledgeType,
    language: r.language,
    category: r.category,
    status: r.status as RecipeStatus,
    summary: r.summary,
    tags: JSON.parse(r.tags) as string[],
    quality: r.quality,
    hasCode: meta.hasCode === true,
    ...(meta.paths?.length ? { paths: meta.paths } : {}),
    ...(meta.pack ? { pack: meta.pack } : {}),
    ...(origin ? { origin } : {}),
    file: r.file,
    updatedAt: r.updated_at,
  };
}

export interface RecipeFilter {
  kind?: RecipeKind;
  status?: RecipeStatus | 'any';
  category?: string;
  language?: string;
  tag?: string;
}

/** Recipes in the index, by category then title. Deprecated ones only when asked for. */
export function listRecipes(ws: Workspace, filter: RecipeFilter = {}): RecipeSummary[] {
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (filter.kind) {
    where.push('kind = ?');
    params.push(filter.kind);
  }
  if (filter.status && filter.status !== 'any') {
    where.push('status = ?');
    params.push(filter.status);
  } else if (!filter.status) where.push("status <> 'deprecated'");
  if (filter.category) {
    where.push('category = ? COLLATE NOCASE');
    params.push(filter.category);
  }
  if (filter.language) {
    where.push('language = ? COLLATE NOCASE');
    params.push(filter.language);
  }
  const rows = ws.store.all<RecipeRow>(
    `SELECT ${RECIPE_COLUMNS} FROM recipes ${
      where.length ? 'WHERE ' + where.join(' AND ') : ''
    } ORDER BY category COLLATE NOCASE, title COLLATE NOCASE`,
    params,
  );
  const tag = filter.tag?.toLowerCase();
  return rows.map(toSummary).filter((r) => !tag || r.tags.some((t) => t.toLowerCase() === tag));
}

export function recipeRowsByRid(ws: Workspace, rids: number[]): Map<number, RecipeRow> {
  const out = new Map<number, RecipeRow>();
  for (let i = 0; i < rids.length; i += 500) {
    const chunk = rids.slice(i, i + 500);
    for (const r of ws.store.all<RecipeRow>(
      `SELECT ${RECIPE_COLUMNS} FROM recipes WHERE rid IN (${chunk.map(() => '?').join(',')})`,
      chunk,
    )) out.set(r.rid, r);
  }
  return out;
}

/** Finds a recipe by id, trigger (`@name`) or file path; RECIPE_NOT_FOUND names the closest ids. */
export function findRecipeRow(ws: Workspace, ref: string): RecipeRow {
  const key = ref.trim();
  const row = ws.store.get<RecipeRow>(`SELECT ${RECIPE_COLUMNS} FROM recipes WHERE id = ?`, [key])
    ?? ws.store.get<RecipeRow>(
      `SELECT ${RECIPE_COLUMNS} FROM recipes WHERE trigger = ? ORDER BY status = 'deprecated', id LIMIT 1`,
      [key.startsWith('@') ? key : '@' + key],
    )
    ?? ws.store.get<RecipeRow>(`SELECT ${RECIPE_COLUMNS} FROM recipes WHERE file = ?`, [key.replace(/\\/g, '/')]);
  if (row) return row;
  const ids = ws.store.all<{ id: string }>('SELECT id FROM recipes').map((r) => r.id);
  throw new AutoSnippetError(
    'RECIPE_NOT_FOUND',
    `There is no recipe "${ref}".`,
    ids.length
      ? `Closest ids: ${
        closestNames(key, ids, 5).join(', ')
      }. list_recipes lists them all; search finds them by meaning.`
      : 'The knowledge base has no recipes yet: propose one with submit_candidate.',
    { closest: closestNames(key, ids, 5) },
  );
}

/** Like findRecipeRow, but a recipe not in the index yet (a file just written) is looked for again after a sync. */
export async function resolveRecipeRow(ws: Workspace, ref: string): Promise<RecipeRow> {
  try {
    return findRecipeRow(ws, ref);
  } catch (e) {
    if (!(e instanceof AutoSnippetError) || e.code !== 'RECIPE_NOT_FOUND') throw e;
    await syncRecipes(ws);
    return findRecipeRow(ws, ref);
  }
}

/** Reads a recipe's file in full. A file changed since the last sync is re-indexed first. */
export async function readRecipe(ws: Workspace, ref: string): Promise<Recipe & { origin?: RecipeOrigin }> {
  let row = await resolveRecipeRow(ws, ref);
  let text: string;
  try {
    text = (await readRepoFile(ws.root, row.file, { kind: 'recipe' })).text;
  } catch (e) {
    if (!isAutoSnippetError(e) || e.code !== ErrorCode.NotFound) throw e;
    await syncRecipes(ws);
    row = findRecipeRow(ws, ref);
    text = (await readRepoFile(ws.root, row.file, { kind: 'recipe' })).text;
  }
  if (contentHash(text) !== row.hash) await syncRecipes(ws);
  const parsed = parseRecipeFile(text, row.file);
  if (!parsed.ok) {
    throw new AutoSnippetError(
      'INVALID_RECIPE_FILE',
      `${row.file} cannot be read: ${parsed.problems.map((p) => p.message).join(' ')}`,
      'Fix the file; the index picks it up on the next sync.',
      { problems: parsed.problems },
    );
  }
  const meta = JSON.parse(row.meta) as { pack?: Recipe['pack']; personal?: boolean };
  const origin = originOf(meta);
  // Where a recipe comes from is where its file is: whatever the file says of itself is dropped.
  const { pack: _p, origin: _o, ...recipe } = parsed.recipe as Recipe & { origin?: unknown };
  return { ...recipe, ...(meta.pack ? { pack: meta.pack } : {}), ...(origin ? { origin } : {}) };
}

/**
 * Refuses to change a recipe that comes from a knowledge pack: its file is a verified copy of the
 * pack, rewritten from the cache whenever it differs. The project overrides it with a recipe of its own.
 */
export function assertOwnRecipe(row: RecipeRow, doing: string): void {
  if (isPersonalRecipeFile(row.file)) {
    throw new AutoSnippetError(
      ErrorCode.InvalidInput,
      `Recipe ${row.id} is one of your personal recipes and is read-only in a workspace: it cannot be ${doing} here.`,
      `Edit or delete ${
        personalSourceOf(row.file)
      } (the workspace's copy follows it); to change it for this project only, write a project recipe with the id ${row.id}.`,
    );
  }
  const pack = (JSON.parse(row.meta) as { pack?: { name: string; version: string } }).pack;
  if (!pack && !row.file.startsWith(PACKS_STATE_DIR + '/')) return;
  const from = pack ? `pack ${pack.name}@${pack.version}` : 'a knowledge pack';
  throw new AutoSnippetError(
    ErrorCode.InvalidInput,
    `Recipe ${row.id} comes from ${from} and is read-only here: it cannot be ${doing}.`,
    `To change it for this project, write a recipe of your own with the id ${row.id} (it overrides the pack's); to switch it off, run autosnippet packs disable ${row.id}.`,
  );
}

export function recipeMeta(row: RecipeRow): RecipeMeta {
  return JSON.parse(row.meta) as RecipeMeta;
}

/** Counts for `health` and the overview. */
export function knowledgeCounts(ws: Workspace): { recipes: number; candidates: number; pendingCandidates: number } {
  // Asked by every `health`: counted again only after a commit.
  return ws.store.memo('knowledge.counts', () => {
    const recipes = ws.store.get<{ n: number }>("SELECT COUNT(*) AS n FROM recipes WHERE status <> 'deprecated'")?.n
      ?? 0;
    const candidates = ws.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM candidates')?.n ?? 0;
    const pendingCandidates =
      ws.store.get<{ n: number }>("SELECT COUNT(*) AS n FROM candidates WHERE status = 'pending'")?.n ?? 0;
    return { recipes, candidates, pendingCandidates };
  });
}

/**
 * A free path and id for a new recipe file: `<category>/<slug>.md`, with `-2`, `-3`… when the file or
 * the id is taken.
 */
export function freeRecipeLocation(ws: Workspace, category: string, title: string): { file: string; id: string } {
  const base = recipeFilePath(category, title).replace(/\.md$/, '');
  for (let n = 1;; n++) {
    const file = `${base}${n === 1 ? '' : `-${n}`}.md`;
    const id = file.replace(/^\.autosnippet\/recipes\//, '').replace(/\.md$/, '');
    if (
      !existsSync(path.join(ws.root, file))
      && !ws.store.get('SELECT 1 AS x FROM recipes WHERE id = ? OR file = ?', [id, file])
    ) return { file, id };
  }
}

/** Writes a file atomically (temporary file, then rename), creating folders. */
export async function writeFileAtomic(abs: string, text: string, { exclusive = false } = {}): Promise<void> {
  await fsp.mkdir(path.dirname(abs), { recursive: true });
  if (exclusive && existsSync(abs)) {
    throw new AutoSnippetError('DUPLICATE', `${abs} already exists.`, 'Choose another title or category.');
  }
  const tmp = `${abs}.${process.pid}.${Date.now()}.tmp`;
  await fsp.writeFile(tmp, text, 'utf8');
  await fsp.rename(tmp, abs);
}
