/**
 * The one way a person's recipe reaches a repository: a person asks for that recipe. Its file is
 * copied into the project's recipes folder at the same path below the folder (so it keeps its id);
 * the project's file then overrides the person's, and is committed, reviewed and exported like any
 * project recipe. An agent cannot do it (the catalog tool is for people only).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { AutoSnippetError, ErrorCode } from '../../ground/kernel/errors';
import type { Workspace } from '../../ground/workspace';
import {
  forgetPersonalCopy,
  isPersonalRecipeFile,
  personalRecipeProjectPath,
  personalRecipesHome,
  personalSourceOf,
} from './personal';
import { patchFrontmatter, recipeFilePath } from './recipe-file';
import { syncRecipes } from './recipe-index';
import { resolveRecipeRow, writeFileAtomic } from './recipes';
import { recordTransition } from './transitions';
import type { Actor } from './types';

export async function sharePersonalRecipe(
  ws: Workspace,
  ref: string,
  actor: Actor,
): Promise<{ id: string; file: string; from: string }> {
  const row = await resolveRecipeRow(ws, ref);
  const target = isPersonalRecipeFile(row.file) ? personalRecipeProjectPath(row.file) : undefined;
  const source = personalSourceOf(row.file);
  if (!target || !source) {
    throw new AutoSnippetError(
      ErrorCode.InvalidInput,
      `Recipe ${row.id} is not one of your personal recipes (its file is ${row.file}).`,
      'Only a recipe from ~/.autosnippet/recipes is added to the project this way; list_recipes marks them with origin "personal".',
    );
  }
  // From the person's own file (the workspace's copy may lag a second behind it), written only where nothing is.
  await writeFileAtomic(ws.path(...target.split('/')), readFileSync(source, 'utf8'), { exclusive: true });
  await syncRecipes(ws);
  await ws.store.transaction((tx) =>
    recordTransition(tx, {
      entity: 'recipe',
      id: row.id,
      from: 'personal',
      to: row.status,
      actor,
      at: new Date().toISOString(),
      reason: `added to the project from ${source}`,
    })
  );
  return { id: row.id, file: target, from: source };
}

/**
 * Where a new personal recipe of this category and title goes: `<category>/<slug>.md` under the
 * person's folder, with `-2`, `-3`… when that file exists there or its id is taken in this workspace
 * (a project recipe of the same id would hide it here).
 */
export function freePersonalLocation(ws: Workspace, category: string, title: string): { abs: string; id: string } {
  const base = recipeFilePath(category, title).replace(/^\.autosnippet\/recipes\//, '').replace(/\.md$/, '');
  for (let n = 1;; n++) {
    const id = `${base}${n === 1 ? '' : `-${n}`}`;
    const abs = path.join(personalRecipesHome(), ...`${id}.md`.split('/'));
    if (!existsSync(abs) && !ws.store.get('SELECT 1 AS x FROM recipes WHERE id = ?', [id])) return { abs, id };
  }
}

/**
 * A drafted recipe's text as a published personal recipe: the person wrote it and publishes it in the
 * same step (their own folder has no review: nobody else reads it).
 */
export function publishedPersonalText(draft: string, actor: Actor): string {
  const at = new Date().toISOString();
  return patchFrontmatter(draft, { status: 'published', publishedBy: actor, publishedAt: at });
}

/** Writes a new personal recipe (never over an existing file) and brings this workspace's copy and index up to date. */
export async function writePersonalRecipe(ws: Workspace, abs: string, text: string, actor: Actor, id: string) {
  await writeFileAtomic(abs, text, { exclusive: true });
  ws.ensureDataDir(); // the workspace's copy and the audit of the write live there
  forgetPersonalCopy(ws);
  await syncRecipes(ws);
  await ws.store.transaction((tx) =>
    recordTransition(tx, {
      entity: 'recipe',
      id,
      from: null,
      to: 'published',
      actor,
      at: new Date().toISOString(),
      reason: `remembered for this person in ${abs}`,
    })
  );
}
