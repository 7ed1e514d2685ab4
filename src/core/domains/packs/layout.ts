/**
 * Where knowledge packs live. A pack is a folder (an npm package or a git repository) with an
 * `autosnippet-pack.json` manifest and any of `recipes/`, `guard/` and `skills/`, laid out as a
 * project's `.autosnippet/` is. The workspace pins its packs in `.autosnippet/packs.json` (committed);
 * each pinned pack is verified against the person's cache and copied into the git-ignored
 * `.autosnippet/state/packs/<folder>/`, so every reader of recipes, rules and skills sees it as files
 * inside the workspace. This module imports nothing: the knowledge, guard and skills domains read it.
 */

/** The manifest at a pack's root. */
export const PACK_MANIFEST = 'autosnippet-pack.json';
/** The workspace's pins, workspace-relative. */
export const PACKS_FILE = '.autosnippet/packs.json';
/** The verified copies of the pinned packs, workspace-relative (under `state/`, which `.autosnippet/.gitignore` keeps out of git). */
export const PACKS_STATE_DIR = '.autosnippet/state/packs';
/** The folders of a pack that AutoSnippet reads; anything else in it is carried but never read. */
export const PACK_FOLDERS = ['recipes', 'guard', 'skills'] as const;

/** A pack's name: an npm package name, scoped or not, lower case. */
export const PACK_NAME = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;

/** The folder of a pack (`@team/rules` → `@team+rules`): one path segment. */
export function packFolder(name: string): string {
  return name.replace('/', '+');
}

/** The pack folder a workspace-relative file belongs to, when it is inside a pack's copy. */
export function packFolderOf(file: string): string | undefined {
  if (!file.startsWith(PACKS_STATE_DIR + '/')) return undefined;
  return file.slice(PACKS_STATE_DIR.length + 1).split('/')[0] || undefined;
}

/** A recipe file's path below its recipes folder, whether the project's or a pack's (`cat/slug.md`). */
export function packRecipeRelPath(file: string): string | undefined {
  const folder = packFolderOf(file);
  if (!folder) return undefined;
  const head = `${PACKS_STATE_DIR}/${folder}/recipes/`;
  return file.startsWith(head) ? file.slice(head.length) : undefined;
}

/** The workspace-relative folder of a pack's recipes. */
export function packRecipesDir(folder: string): string {
  return `${PACKS_STATE_DIR}/${folder}/recipes`;
}
