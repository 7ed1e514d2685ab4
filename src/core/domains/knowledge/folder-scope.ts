/**
 * A recipe's folder scope: `paths`, workspace-relative globs (`packages/api/**`, `src/ui/**\/*.tsx`)
 * naming where it applies. Search for a file outside them leaves the recipe out, its guard rules run
 * only inside them, and the export writes it into files scoped the same way (a nested AGENTS.md,
 * an `applyTo` instruction file). No paths: the whole project.
 */
import { GlobSet } from '../../ground/files/globs';

const GLOB_CHARS = /[*?[\]{}()!]/;

/** Why a glob cannot scope a recipe (absolute, leaving the workspace, Windows separators), or undefined. */
export function scopeGlobProblem(glob: string): string | undefined {
  if (!glob.trim()) return 'an empty glob';
  if (glob.includes('\\')) return `\`${glob}\` uses \\; write paths with /`;
  if (glob.startsWith('/') || /^[A-Za-z]:/.test(glob)) {
    return `\`${glob}\` is absolute; write it relative to the workspace`;
  }
  if (glob.split('/').includes('..')) return `\`${glob}\` leaves the workspace (..)`;
  return undefined;
}

/** Whether a workspace-relative file is inside the scope (always, when the recipe has none). */
export function inFolderScope(paths: readonly string[] | undefined, relPath: string): boolean {
  return !paths?.length || new GlobSet(paths).has(relPath);
}

/**
 * The deepest folder every glob of the scope lies under (`packages/api` for `packages/api/**` and
 * `packages/api/src/*.ts`), or '' when the globs share none (`**\/*.test.ts`): a file scoped by
 * folder (a nested AGENTS.md) can be written there.
 */
export function scopeFolder(paths: readonly string[]): string {
  if (!paths.length) return '';
  const dirs = paths.map((g) => {
    const segments = g.replace(/^\.\//, '').split('/');
    const literal: string[] = [];
    for (const s of segments) {
      if (GLOB_CHARS.test(s)) break;
      literal.push(s);
    }
    // A glob without wildcards names a file: its folder is the scope.
    if (literal.length === segments.length) literal.pop();
    return literal;
  });
  const common: string[] = [];
  for (let i = 0; dirs.every((d) => i < d.length && d[i] === dirs[0][i]); i++) common.push(dirs[0][i]);
  return common.join('/');
}
