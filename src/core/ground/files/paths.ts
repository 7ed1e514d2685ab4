import { promises as fsp } from 'node:fs';
import path from 'node:path';

/** Workspace-relative `/` path of `abs`, or undefined when it is outside `root`. */
export function relPath(root: string, abs: string): string | undefined {
  const rel = path.relative(root, abs);
  if (rel === '..' || rel.startsWith('..' + path.sep) || path.isAbsolute(rel)) return undefined;
  return rel.split(path.sep).join('/');
}

/** Whether `p` is `root` or below it (both absolute, already resolved). */
export function isInside(root: string, p: string): boolean {
  return relPath(root, p) !== undefined;
}

/** `a/b` under `dir` ('' for the root). */
export function joinRel(dir: string, name: string): string {
  return dir ? `${dir}/${name}` : name;
}

/** Whether the workspace-relative `rel` is `dir` or inside it ('' is the whole workspace). */
export function isUnder(rel: string, dir: string): boolean {
  return dir === '' || rel === dir || rel.startsWith(dir + '/');
}

/** A path for a message: short enough to read, never the megabyte a caller sent. */
export function shownPath(p: string, max = 200): string {
  return p.length <= max ? p : `${p.slice(0, max / 2)}…${p.slice(-max / 2)}`;
}

export type InsideResult = { ok: true; real: string } | { ok: false; reason: 'outside' | 'missing'; real?: string };

/**
 * Where `file` (relative to `root`, or absolute) leads, if that is inside `root`: links followed, so a
 * link inside the workspace to a file outside it is outside.
 */
export async function realPathInside(root: string, file: string): Promise<InsideResult> {
  const abs = path.resolve(root, file);
  if (!isInside(root, abs)) return { ok: false, reason: 'outside' };
  let realRoot: string;
  let real: string;
  try {
    realRoot = await fsp.realpath(root);
    real = await fsp.realpath(abs);
  } catch {
    return { ok: false, reason: 'missing' };
  }
  return isInside(realRoot, real) ? { ok: true, real } : { ok: false, reason: 'outside', real };
}
