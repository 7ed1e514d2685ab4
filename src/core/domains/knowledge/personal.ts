/**
 * A person's own recipes: Markdown files under `~/.autosnippet/recipes/<category>/<slug>.md`
 * (`AUTOSNIPPET_HOME` moves the folder), seen in every workspace the person opens. The recipe index,
 * the guard and the views read files inside the workspace only (the safe reader refuses a path out of
 * it), so, as for knowledge packs, the files are copied into the git-ignored
 * `.autosnippet/state/personal/recipes/` and read there. The copy is rewritten from the person's folder
 * whenever the two differ, so a file a repository commits there is removed, never read as the person's.
 *
 * Reading never creates files: a workspace AutoSnippet has not written to yet (no `.autosnippet/`)
 * gets no copy until its first write.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readRepoBytesSync } from '../../ground/files';
import { userDataDir } from '../../ground/trust';
import type { Workspace } from '../../ground/workspace';
import { treeSignature } from '../packs/cache';
import { readTree, treeHashOf } from '../packs/hash';

/** The copy of the person's recipes, workspace-relative (under `state/`, which `.autosnippet/.gitignore` keeps out of git). */
export const PERSONAL_RECIPES_STATE = '.autosnippet/state/personal/recipes';
/** A person keeps a short list of their own rules; a folder with more is most likely something else. */
export const MAX_PERSONAL_RECIPES = 2000;

/** The person's recipes folder: `AUTOSNIPPET_HOME/recipes`, else `~/.autosnippet/recipes`. */
export function personalRecipesHome(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(userDataDir(env), 'recipes');
}

/** Whether a workspace-relative recipe file is the copy of one of the person's recipes. */
export function isPersonalRecipeFile(file: string): boolean {
  return file.startsWith(PERSONAL_RECIPES_STATE + '/');
}

/** A personal recipe file's path below its recipes folder (`category/slug.md`). */
export function personalRecipeRelPath(file: string): string | undefined {
  return isPersonalRecipeFile(file) ? file.slice(PERSONAL_RECIPES_STATE.length + 1) : undefined;
}

/** Where the person's own file of a copied recipe lives (for messages and for opening it). */
export function personalSourceOf(file: string, env?: NodeJS.ProcessEnv): string | undefined {
  const rel = personalRecipeRelPath(file);
  return rel && path.join(personalRecipesHome(env), ...rel.split('/'));
}

/**
 * Whether the workspace has (or is about to get) a copy of personal recipes: the person has a recipes
 * folder and the workspace an `.autosnippet/` folder. Two stats, for the checks made before the index.
 */
export function hasPersonalRecipes(ws: Workspace): boolean {
  return existsSync(ws.dataDir) && (existsSync(personalRecipesHome()) || existsSync(ws.path(PERSONAL_RECIPES_STATE)));
}

interface Memo {
  signature: string;
  checkedAt: number;
}

/** Compares the folders again on the next use (after this process wrote a personal recipe). */
export function forgetPersonalCopy(ws: Workspace): void {
  ws.service('knowledge.personal', (): Memo => ({ signature: '', checkedAt: 0 })).signature = '';
}

/** The folders are compared at most this often: the index asks on every walk. */
const RECHECK_MS = 1000;

/**
 * Brings the workspace's copy in line with the person's recipes folder. Returns whether the workspace
 * has personal recipes to read. Problems (a link, a file too large) are logged and the file left out.
 */
export function syncPersonalRecipes(ws: Workspace): boolean {
  const copy = ws.path(PERSONAL_RECIPES_STATE);
  if (!existsSync(ws.dataDir)) return false;
  const memo = ws.service('knowledge.personal', (): Memo => ({ signature: '', checkedAt: 0 }));
  const now = Date.now();
  if (memo.signature && now - memo.checkedAt < RECHECK_MS) return existsSync(copy);
  memo.checkedAt = now;
  const home = personalRecipesHome();
  const signature = `${treeSignature(home)}|${treeSignature(copy)}`;
  if (signature === memo.signature) return existsSync(copy);
  const files = readPersonalFiles(ws, home);
  if (files.length === 0) rmSync(path.dirname(copy), { recursive: true, force: true });
  else {
    ws.ensureDataDir(); // keeps its .gitignore, which keeps state/ out of git, current
    materialize(copy, files);
  }
  memo.signature = `${treeSignature(home)}|${treeSignature(copy)}`;
  return files.length > 0;
}

/** The recipe files of the person's folder: regular Markdown files only, each through the safe reader. */
function readPersonalFiles(ws: Workspace, home: string): { path: string; data: Buffer }[] {
  const st = statSync(home, { throwIfNoEntry: false });
  if (!st?.isDirectory()) return [];
  const out: { path: string; data: Buffer }[] = [];
  const walk = (rel: string) => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(path.join(home, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (e.name.startsWith('.')) continue;
      if (e.isDirectory()) walk(childRel);
      else if (isRecipeName(e.name)) {
        if (out.length >= MAX_PERSONAL_RECIPES) {
          ws.log.warn(`personal recipes: more than ${MAX_PERSONAL_RECIPES} files in ${home}; the rest are left out`);
          return;
        }
        if (!lstatSync(path.join(home, childRel)).isFile()) {
          ws.log.warn(`personal recipes: ${childRel} in ${home} is not a regular file; it is left out`);
          continue;
        }
        try {
          out.push({ path: childRel, data: readRepoBytesSync(home, childRel, { kind: 'recipe' }).bytes });
        } catch (err) {
          ws.log.warn(`personal recipes: ${(err as Error).message}`);
        }
      }
    }
  };
  walk('');
  return out;
}

function isRecipeName(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.endsWith('.md') && lower !== 'readme.md';
}

/** Writes the copy unless it already holds exactly these files (anything else in it is removed). */
function materialize(dir: string, files: { path: string; data: Buffer }[]): void {
  let have = '';
  try {
    have = treeHashOf(readTree(dir, dir));
  } catch {
    // missing, or holding a link: written again below
  }
  if (have === treeHashOf(files)) return;
  rmSync(dir, { recursive: true, force: true });
  for (const f of files) {
    const abs = path.join(dir, ...f.path.split('/'));
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, f.data);
  }
}

/**
 * Copies one of the person's recipes into the project (`.autosnippet/recipes/<category>/<slug>.md`,
 * the same path below the folder, so the same id): the project's file then overrides the person's and
 * is committed and exported like any project recipe. The one way a personal recipe reaches a
 * repository: a person asks for that recipe.
 */
export function personalRecipeProjectPath(file: string): string | undefined {
  const rel = personalRecipeRelPath(file);
  return rel && `.autosnippet/recipes/${rel}`;
}
