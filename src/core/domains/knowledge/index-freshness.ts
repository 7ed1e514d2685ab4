/**
 * How a request knows the recipe index is in line with the files, without anything on the request
 * path that grows with the knowledge base. The index as stored answers at once; what changed since
 * is found from the watchers on the recipe folder (the files they named are synced before the answer:
 * the work grows with the change), and everything else — the first call of a process, a change no
 * event could name, a folder without watchers — by a walk in the background that no answer waits
 * for. An answer given while such a walk runs says that it may be stale.
 */
import { existsSync, promises as fsp } from 'node:fs';
import path from 'node:path';
import type { Workspace } from '../../ground/workspace';
import { hasPersonalRecipes } from './personal';
import { RECIPES_DIR } from './recipe-file';
import { indexGeneration, isRecipeFileName, listRecipeFiles, syncRecipes, syncState } from './recipe-index';
import { recipeFolderWatch } from './recipe-watch';

/** Whether the index an answer came from may lag behind the recipe files, and why. */
export interface IndexFreshness {
  mayBeStale: boolean;
  /** Present when it may be stale: what is being checked, for the reader of the answer. */
  note?: string;
}

export interface FreshnessOptions {
  /** Skip looking for changes when the last sync finished less than this long ago (ms). */
  maxAgeMs?: number;
  /** Wait for the walk instead of answering from the index as stored: for writes that must see every file. */
  wait?: boolean;
}

/** A walk of the recipe folder at least this often even when its watcher reported nothing. */
const SAFETY_WALK_MS = 60_000;
/** More changed recipe files than this and one walk in the background costs less than syncing them before the answer. */
const MAX_NAMED_FILES = 500;

const FRESH: IndexFreshness = { mayBeStale: false };
const STALE: IndexFreshness = {
  mayBeStale: true,
  note:
    'Answered from the recipe index as stored while the recipe files are checked for changes in the background; a recipe edited, added or removed on disk since the last check may not be reflected yet. Ask again in a moment for an answer that includes them.',
};

/**
 * Every knowledge and search tool calls this first, so an edit on disk, a `git pull` or a new file
 * shows up. Never walks the recipe folder before answering, except to build an index that was never
 * built (nothing to answer from) or when `wait` asks for it.
 */
export async function ensureIndexFresh(
  ws: Workspace,
  options: FreshnessOptions | number = {},
): Promise<IndexFreshness> {
  const { maxAgeMs = 2000, wait = ws.oneShot } = typeof options === 'number' ? { maxAgeMs: options } : options;
  const state = syncState(ws);
  if (state.background) {
    if (!wait) return STALE;
    await state.background;
  }
  if (Date.now() - state.lastSync < maxAgeMs) return FRESH;
  const changes = await recipeFolderWatch(ws).takeChanges();
  if (changes === 'walk' && nothingToWalk(ws)) return FRESH;
  if (changes !== 'walk' && changes.length === 0) {
    if (Date.now() - state.lastWalk >= SAFETY_WALK_MS) walkInBackground(ws); // for events a watcher can miss
    return FRESH;
  }
  const files = changes === 'walk' ? undefined : await recipeFilesOf(ws, changes);
  if (files) {
    await syncRecipes(ws, { files });
    return FRESH;
  }
  if (wait || indexGeneration(ws) === 0) {
    await syncRecipes(ws);
    return FRESH;
  }
  walkInBackground(ws);
  return STALE;
}

/** No recipe folder and nothing indexed from one: a walk would find nothing to change. */
function nothingToWalk(ws: Workspace): boolean {
  if (existsSync(path.join(ws.root, RECIPES_DIR)) || hasPersonalRecipes(ws)) return false;
  return !ws.store.get('SELECT 1 AS x FROM recipes LIMIT 1')
    && !ws.store.get('SELECT 1 AS x FROM recipe_file_problems LIMIT 1');
}

/** Settles when the walk running in the background (if any) has finished. */
export async function recipeWalkSettled(ws: Workspace): Promise<void> {
  await syncState(ws).background;
}

function walkInBackground(ws: Workspace): void {
  const state = syncState(ws);
  if (state.background) return;
  state.lastSync = Date.now(); // calls meanwhile answer at once (and say the answer may be stale)
  state.background = syncRecipes(ws)
    .catch((e) => ws.log.warn('the background check of the recipe files failed', e))
    .finally(() => (state.background = undefined));
}

/**
 * The recipe files (workspace-relative) behind paths events named: a file as it is; a folder created
 * or moved in, every recipe file in it; a folder removed or moved out, the indexed recipes under it.
 * Undefined when there are too many to sync before answering.
 */
async function recipeFilesOf(ws: Workspace, paths: string[]): Promise<string[] | undefined> {
  const recipesRoot = path.join(ws.root, RECIPES_DIR);
  const files = new Set<string>();
  for (const abs of paths) {
    const rel = path.relative(ws.root, abs).split(path.sep).join('/');
    if (rel.startsWith('..') || !abs.startsWith(recipesRoot + path.sep)) continue;
    const st = await fsp.lstat(abs).catch(() => undefined);
    if (st?.isDirectory()) { for (const d of await listRecipeFiles(ws, rel)) files.add(d.file); }
    else if (isRecipeFileName(path.basename(abs))) files.add(rel);
    if (!st || st.isDirectory()) { for (const r of indexedUnder(ws, rel)) files.add(r); }
    if (files.size > MAX_NAMED_FILES) return undefined;
  }
  return [...files];
}

/** The indexed recipe files and files with problems under a folder (workspace-relative). */
function indexedUnder(ws: Workspace, folder: string): string[] {
  // '0' follows '/': the range is every path under the folder, read through the index on `file`.
  const params = [`${folder}/`, `${folder}0`];
  return [
    ...ws.store.all<{ file: string }>('SELECT file FROM recipes WHERE file >= ? AND file < ?', params),
    ...ws.store.all<{ file: string }>('SELECT file FROM recipe_file_problems WHERE file >= ? AND file < ?', params),
  ].map((r) => r.file);
}
