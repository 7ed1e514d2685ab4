/** Reading one folder of the workspace for the walker: its ignore files and its entries. */
import fs, { type Dirent, type Stats } from 'node:fs';
import path from 'node:path';
import { ErrorCode, isAutoSnippetError } from '../kernel/errors';
import { type IgnoreScope, isIgnored, parseIgnoreFile, skippedFolderReason } from './ignore';
import { joinRel } from './paths';
import { type FileProblem, problemOf } from './problems';
import { describeEntry, readRepoFileSync } from './read';
import { trackedFiles } from './tracked';

/** One folder as the walker last read it. */
export interface Folder {
  rel: string;
  depth: number;
  mtimeMs: number;
  /** Its ignore files, and their stat key ('' when it has none). */
  ignoreFiles: string[];
  ignoreKey: string;
  scope?: IgnoreScope;
  files: string[];
  dirs: string[];
  ignored: number;
  links: number;
  problems: FileProblem[];
}

/** Reads one folder: its ignore files, then its entries against the ignore list (`above`: the scopes of the folders above). */
export function readFolder(root: string, rel: string, above: readonly IgnoreScope[]): Folder {
  const abs = path.join(root, rel);
  const depth = rel === '' ? 0 : rel.split('/').length;
  const folder: Folder = {
    rel,
    depth,
    mtimeMs: 0,
    ignoreFiles: [],
    ignoreKey: '',
    files: [],
    dirs: [],
    ignored: 0,
    links: 0,
    problems: [],
  };
  let entries: Dirent[];
  try {
    const st = folderStat(abs, rel);
    // A folder replaced by a link since its parent was read is not followed.
    if (!st.isDirectory()) return folder;
    folder.mtimeMs = st.mtimeMs;
    entries = fs.readdirSync(abs, { withFileTypes: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
      folder.problems.push({
        path: rel,
        code: ErrorCode.UnreadableFile,
        message: `The folder ${rel || '(root)'} cannot be read (${
          (e as NodeJS.ErrnoException).code ?? (e as Error).message
        }); its files are not listed.`,
      });
    }
    return folder;
  }
  const names = new Set(entries.map((e) => e.name));
  const own = readIgnoreFiles(root, rel, names, folder);
  const scopes = own ? [...above, own] : above;
  folder.scope = own;
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // A file git tracks is listed even when an ignore file matches it, as git does (read once per folder, when needed).
  let tracked: ReadonlySet<string> | undefined | null = null;
  const isTracked = (file: string) => (tracked === null ? (tracked = trackedFiles(root)) : tracked)?.has(file) ?? false;
  for (const e of entries) {
    const childRel = joinRel(rel, e.name);
    const type = entryType(e, path.join(abs, e.name));
    if (type === 'link') {
      folder.links++;
    } else if (type === 'dir') {
      if (skippedFolderReason(e.name, names) || isIgnored(scopes, childRel, true)) folder.ignored++;
      else folder.dirs.push(childRel);
    } else if (isIgnored(scopes, childRel, false) && !isTracked(childRel)) {
      folder.ignored++;
    } else if (type === 'file') {
      folder.files.push(childRel);
    } else if (type !== 'gone' && !folder.problems.some((p) => p.path === childRel)) {
      folder.problems.push({
        path: childRel,
        code: ErrorCode.NotARegularFile,
        message: `${childRel} is ${type}, not a regular file; it is not listed and never opened.`,
      });
    }
  }
  return folder;
}

/** The folder's `.gitignore` (and, at the root, `.git/info/exclude`), read with the safe reader. */
function readIgnoreFiles(
  root: string,
  rel: string,
  names: ReadonlySet<string>,
  folder: Folder,
): IgnoreScope | undefined {
  const files = [
    names.has('.gitignore') ? joinRel(rel, '.gitignore') : undefined,
    rel === '' && names.has('.git') ? '.git/info/exclude' : undefined,
  ].filter((f): f is string => !!f);
  if (files.length === 0) return undefined;
  const patterns: string[] = [];
  const keys: string[] = [];
  for (const file of files) {
    const key = statKey(root, file);
    if (key === undefined) continue; // `.git` is a file (a worktree) or has no info/exclude
    keys.push(key);
    folder.ignoreFiles.push(file);
    try {
      patterns.push(readRepoFileSync(root, file, { kind: 'gitignore' }).text);
    } catch (e) {
      if (isAutoSnippetError(e) && e.code === ErrorCode.NotFound) continue;
      const p = problemOf(file, e);
      folder.problems.push({ ...p, message: `${p.message} Its ignore rules are not applied.` });
    }
  }
  folder.ignoreKey = keys.join('|');
  const parsed = parseIgnoreFile(patterns.join('\n'), files[0]);
  folder.problems.push(...parsed.problems);
  return parsed.rules ? { base: rel, rules: parsed.rules } : undefined;
}

/** The stat key of a folder's ignore files now, to compare with `ignoreKey`. */
export function ignoreKeyNow(root: string, f: Folder): string {
  const keys = f.ignoreFiles.map((file) => statKey(root, file));
  return keys.filter((k) => k !== undefined).join('|');
}

type EntryType = 'file' | 'dir' | 'link' | 'gone' | string;

/** A directory entry's type; file systems that do not report one (DT_UNKNOWN) get an lstat. */
function entryType(e: Dirent, abs: string): EntryType {
  let st: Dirent | Stats = e;
  if (
    !e.isFile() && !e.isDirectory() && !e.isSymbolicLink() && !e.isFIFO() && !e.isSocket() && !e.isCharacterDevice()
    && !e.isBlockDevice()
  ) {
    const s = fs.lstatSync(abs, { throwIfNoEntry: false });
    if (!s) return 'gone';
    st = s;
  }
  if (st.isSymbolicLink()) return 'link';
  if (st.isDirectory()) return 'dir';
  if (st.isFile()) return 'file';
  return describeEntry(st);
}

/** The root may be a link to the real folder; below it, only real folders are walked. */
export function folderStat(abs: string, rel: string): Stats {
  return rel === '' ? fs.statSync(abs) : fs.lstatSync(abs);
}

/** Size and time of an ignore file (through a link: of what it points to), to notice edits; undefined when absent. */
function statKey(root: string, rel: string): string | undefined {
  const abs = path.join(root, rel);
  const st = fs.statSync(abs, { throwIfNoEntry: false }) ?? fs.lstatSync(abs, { throwIfNoEntry: false });
  return st ? `${rel}:${st.size}:${st.mtimeMs}:${st.ino}` : undefined;
}
