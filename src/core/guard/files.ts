import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { AutoSnippetError } from '../kernel/errors';
import type { GlobSet } from './filters';
import { languageForPath } from '../kernel/languages';

export interface WorkspaceFile {
  abs: string;
  /** Workspace-relative, `/`-separated. */
  rel: string;
  language: string;
}

export interface FileListing {
  files: WorkspaceFile[];
  /** Explicitly named paths that were not checked, and why. */
  skipped: { path: string; reason: string }[];
}

/** Folders never worth scanning, whatever .gitignore says. */
const ALWAYS_SKIPPED = new Set(['.git', 'node_modules', '.hg', '.svn']);

interface IgnoreScope {
  /** Workspace-relative folder the .gitignore sits in ('' for the root). */
  base: string;
  ig: Ignore;
}

/**
 * The files to check under `paths` (workspace-relative or absolute; default the whole workspace):
 * source files of known languages, minus what .gitignore files (nested ones too) and the guard
 * excludes leave out. A file named explicitly is checked even if .gitignore lists it.
 */
export function listWorkspaceFiles(root: string, opts: { paths?: string[]; exclude: GlobSet; languages?: Set<string> }): FileListing {
  const out: FileListing = { files: [], skipped: [] };
  const seen = new Set<string>();
  const wanted = (language: string | undefined) => language !== undefined && (!opts.languages || opts.languages.has(language));
  for (const p of opts.paths?.length ? opts.paths : ['.']) {
    const abs = path.resolve(root, p);
    const rel = relPath(root, abs);
    if (rel === undefined) throw new AutoSnippetError('PATH_OUTSIDE_WORKSPACE', `${p} is outside the workspace ${root}.`, 'Give paths inside the workspace folder, relative to it or absolute.');
    let st;
    try {
      st = statSync(abs);
    } catch {
      out.skipped.push({ path: p, reason: 'not found' });
      continue;
    }
    if (st.isFile()) {
      const language = languageForPath(abs);
      if (!wanted(language)) out.skipped.push({ path: rel, reason: 'no guard rules for this file type' });
      else if (opts.exclude.has(rel)) out.skipped.push({ path: rel, reason: 'excluded by the guard settings' });
      else if (!seen.has(rel)) {
        seen.add(rel);
        out.files.push({ abs, rel, language: language! });
      }
      continue;
    }
    walk(root, abs, rel, ancestorsIgnores(root, rel), opts.exclude, wanted, seen, out.files);
  }
  return out;
}

function walk(root: string, dirAbs: string, dirRel: string, scopes: IgnoreScope[], exclude: GlobSet, wanted: (l: string | undefined) => boolean, seen: Set<string>, files: WorkspaceFile[]): void {
  const own = readIgnore(dirAbs, dirRel);
  const active = own ? [...scopes, own] : scopes;
  let entries;
  try {
    entries = readdirSync(dirAbs, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const rel = dirRel ? `${dirRel}/${e.name}` : e.name;
    const isDir = e.isDirectory();
    if (!isDir && !e.isFile()) continue; // symlinks and specials are not followed
    if (isDir && ALWAYS_SKIPPED.has(e.name)) continue;
    if (ignored(active, rel, isDir) || exclude.has(rel)) continue;
    if (isDir) walk(root, path.join(dirAbs, e.name), rel, active, exclude, wanted, seen, files);
    else {
      const language = languageForPath(e.name);
      if (wanted(language) && !seen.has(rel)) {
        seen.add(rel);
        files.push({ abs: path.join(dirAbs, e.name), rel, language: language! });
      }
    }
  }
}

function ignored(scopes: IgnoreScope[], rel: string, isDir: boolean): boolean {
  for (const s of scopes) {
    const sub = s.base ? rel.slice(s.base.length + 1) : rel;
    if (s.base && !rel.startsWith(s.base + '/')) continue;
    if (s.ig.ignores(isDir ? sub + '/' : sub)) return true;
  }
  return false;
}

function readIgnore(dirAbs: string, dirRel: string): IgnoreScope | undefined {
  const file = path.join(dirAbs, '.gitignore');
  if (!existsSync(file)) return undefined;
  try {
    return { base: dirRel, ig: ignore().add(readFileSync(file, 'utf8')) };
  } catch {
    return undefined;
  }
}

/** The .gitignore files of the folders above `rel` (a scan of a sub-folder still honours them). */
function ancestorsIgnores(root: string, rel: string): IgnoreScope[] {
  const scopes: IgnoreScope[] = [];
  if (!rel) return scopes;
  const parts = rel.split('/');
  for (let i = 0; i < parts.length; i++) {
    const base = parts.slice(0, i).join('/');
    const s = readIgnore(path.join(root, base), base);
    if (s) scopes.push(s);
  }
  return scopes;
}

/** Workspace-relative `/` path, or undefined when outside the workspace. */
export function relPath(root: string, abs: string): string | undefined {
  const rel = path.relative(root, abs);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  return rel.split(path.sep).join('/');
}
