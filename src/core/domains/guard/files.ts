import { lstatSync, realpathSync, type Stats } from 'node:fs';
import path from 'node:path';
import { describeEntry, isUnder, relPath, shownPath, workspaceFiles } from '../../ground/files';
import { AutoSnippetError, ErrorCode } from '../../ground/kernel/errors';
import { languageForPath } from '../../ground/kernel/languages';
import type { GlobSet } from './filters';

export { relPath } from '../../ground/files';

export interface WorkspaceFile {
  abs: string;
  /** Workspace-relative, `/`-separated. */
  rel: string;
  language: string;
}

export interface FileListing {
  files: WorkspaceFile[];
  /** Explicitly named paths that were not checked, files the listing could not handle, and why. */
  skipped: { path: string; reason: string }[];
}

export interface ListOptions {
  /** Workspace-relative or absolute; default the whole workspace. */
  paths?: string[];
  exclude: GlobSet;
  languages?: Set<string>;
  /** Files of the workspace listing to leave out (e.g. vendored or generated, by the file classifier). */
  filter?: (rel: string) => boolean;
  signal?: AbortSignal;
}

/**
 * The files to check under `paths` (default the whole workspace): source files of known languages
 * from the workspace listing (one ignore list: `.gitignore`s and the always-skipped folders), minus
 * the guard excludes. A file named explicitly is checked even if `.gitignore` lists it; a path that
 * leads outside the workspace — with `..` or through a link — is refused.
 */
export async function listWorkspaceFiles(host: { root: string }, opts: ListOptions): Promise<FileListing> {
  const root = host.root;
  const out: FileListing = { files: [], skipped: [] };
  const listing = await workspaceFiles(host).list({ signal: opts.signal, filter: opts.filter });
  for (const p of listing.problems) out.skipped.push({ path: p.path, reason: p.message });
  const seen = new Set<string>();
  const add = (rel: string): boolean => {
    const language = languageForPath(rel);
    if (
      language === undefined || (opts.languages && !opts.languages.has(language)) || opts.exclude.has(rel)
      || seen.has(rel)
    ) return false;
    seen.add(rel);
    out.files.push({ abs: path.join(root, rel), rel, language });
    return true;
  };
  if (!opts.paths?.length) {
    for (const rel of listing.files) add(rel);
    return out;
  }
  const realRoot = realpathSync.native(root);
  for (const p of opts.paths) {
    const named = resolveNamed(root, realRoot, p);
    if ('missing' in named) {
      out.skipped.push({ path: shownPath(p), reason: 'not found' });
      continue;
    }
    const { rel, st } = named;
    if (st.isFile()) {
      const language = languageForPath(rel);
      if (language === undefined || (opts.languages && !opts.languages.has(language))) {
        out.skipped.push({ path: rel, reason: 'no guard rules for this file type' });
      } else if (opts.exclude.has(rel)) out.skipped.push({ path: rel, reason: 'excluded by the guard settings' });
      else add(rel);
    } else if (st.isDirectory()) {
      let any = false;
      for (const f of listing.files) if (isUnder(f, rel) && add(f)) any = true;
      if (!any && !listing.files.some((f) => isUnder(f, rel))) {
        out.skipped.push({
          path: rel || '.',
          reason:
            'nothing to check: the folder is empty, ignored by .gitignore, or always skipped (node_modules, dist, vendor, build output, hidden folders)',
        });
      }
    } else {
      out.skipped.push({ path: rel, reason: `${describeEntry(st)}, not a regular file: never opened` });
    }
  }
  return out;
}

/** A named path's real location inside the workspace, or PATH_OUTSIDE_WORKSPACE when it leads out (`..`, absolute, a link). */
function resolveNamed(root: string, realRoot: string, p: string): { rel: string; st: Stats } | { missing: true } {
  const outside = (why: string) =>
    new AutoSnippetError(
      ErrorCode.PathOutsideWorkspace,
      `${shownPath(p)} is outside the workspace ${root}: ${why}.`,
      'Give paths inside the workspace folder, relative to it or absolute; links that lead out of it are not followed.',
      { path: shownPath(p) },
    );
  if (p.includes('\0')) {
    throw new AutoSnippetError(
      ErrorCode.InvalidInput,
      `The path ${JSON.stringify(shownPath(p))} contains a NUL character.`,
      'Give a plain relative path.',
    );
  }
  const abs = path.resolve(root, p);
  if (relPath(root, abs) === undefined) throw outside('the path leads out of it');
  let real: string;
  try {
    real = realpathSync.native(abs);
  } catch {
    return { missing: true };
  }
  const rel = relPath(realRoot, real);
  if (rel === undefined) throw outside('it resolves, through a link, to a place outside it');
  return { rel, st: lstatSync(real) };
}
