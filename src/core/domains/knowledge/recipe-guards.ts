import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Workspace } from '../../ground/workspace';
import { PACKS_STATE_DIR } from '../packs/layout';
import { ensureIndexFresh } from './index-freshness';
import { hasPersonalRecipes } from './personal';
import { RECIPES_DIR } from './recipe-file';
import { indexGeneration, syncRecipes } from './recipe-index';
import type { GuardPattern } from './types';

/** The guard constraints of one published recipe, for the guard to enforce. */
export interface RecipeGuards {
  recipeId: string;
  title: string;
  trigger: string;
  language: string;
  summary: string;
  /** The recipe file, workspace-relative. */
  file: string;
  guards: GuardPattern[];
  /** The recipe's folder scope: its guards run only there. */
  paths?: string[];
}

/** Whether the workspace has recipe files at all, its own, the person's or a pack's (asked before touching the database). */
export function hasRecipeFolder(ws: Workspace): boolean {
  return existsSync(path.join(ws.root, RECIPES_DIR)) || hasPersonalRecipes(ws) || existsSync(ws.path(PACKS_STATE_DIR));
}

/** Changes whenever the recipe index does: a cheap key for caches of what recipes say. */
export function recipeIndexKey(ws: Workspace): string {
  return hasRecipeFolder(ws) ? String(indexGeneration(ws)) : '';
}

/**
 * Brings the index in line with the recipe files (a stat per file when nothing changed): at most
 * every 2 s, or now with `force` (a watcher saw a recipe file change).
 */
export async function refreshRecipeIndex(ws: Workspace, force = false): Promise<void> {
  if (!hasRecipeFolder(ws)) return;
  if (force) await syncRecipes(ws);
  else await ensureIndexFresh(ws);
}

/** Published recipes that carry `constraints.guards`, from the index. Drafts and deprecated recipes do not count. */
export function publishedRecipeGuards(ws: Workspace): RecipeGuards[] {
  if (!hasRecipeFolder(ws)) return [];
  const rows = ws.store.all<
    { id: string; title: string; trigger: string; language: string; summary: string; file: string; meta: string }
  >(
    `SELECT id, title, trigger, language, summary, file, meta FROM recipes WHERE status = 'published' AND meta LIKE '%"guards"%' ORDER BY id`,
  );
  const out: RecipeGuards[] = [];
  for (const r of rows) {
    const meta = JSON.parse(r.meta) as { constraints?: { guards?: GuardPattern[] }; paths?: string[] };
    const guards = meta.constraints?.guards ?? [];
    if (guards.length) {
      out.push({
        recipeId: r.id,
        title: r.title,
        trigger: r.trigger,
        language: r.language,
        summary: r.summary,
        file: r.file,
        guards,
        ...(meta.paths?.length ? { paths: meta.paths } : {}),
      });
    }
  }
  return out;
}
