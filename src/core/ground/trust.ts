/**
 * Folder trust outside VS Code, as direnv and VS Code's workspace trust do it: what executes or
 * widens what an agent may do (project guard rules with regexes or queries, skill scripts) runs only
 * in a folder the person trusted. The decision lives in the person's home, keyed by the folder's real
 * path, so nothing committed to a repository can grant it. Inside VS Code, VS Code's own trust is used
 * instead (src/vscode/host.ts).
 */
import {
  chmodSync,
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AutoSnippetError, ErrorCode } from './kernel/errors';

/** The person's own AutoSnippet folder: `AUTOSNIPPET_HOME`, else `~/.autosnippet`. */
export function userDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.AUTOSNIPPET_HOME ? path.resolve(env.AUTOSNIPPET_HOME) : path.join(os.homedir(), '.autosnippet');
}

export const TRUST_FILE = 'trust.json';
/** A trust store is a short list a person wrote; a bigger file is not one. */
const MAX_TRUST_BYTES = 1024 * 1024;

export interface TrustEntry {
  path: string;
  trustedAt: string;
}

/** Whether a folder is trusted, and why, in words a person can act on. */
export interface TrustDecision {
  trusted: boolean;
  /** `flag`: --trust on this run; `store`: an entry of the trust store; `editor`: VS Code's workspace trust. */
  by?: 'flag' | 'store' | 'editor';
  /** The trust store entry that covers the folder (the folder itself or a parent). */
  entry?: string;
  /** One sentence: what trusted the folder, or how to trust it. */
  note: string;
}

function storeFile(env?: NodeJS.ProcessEnv): string {
  return path.join(userDataDir(env), TRUST_FILE);
}

/** A folder's real path (links resolved), so a link to a trusted folder is the same folder and a link elsewhere is not. */
export function realFolder(dir: string): string {
  const abs = path.resolve(dir);
  let real: string;
  try {
    real = realpathSync.native(abs);
  } catch {
    throw new AutoSnippetError(
      ErrorCode.NotFound,
      `The folder ${abs} does not exist.`,
      'Give an existing project folder.',
    );
  }
  if (!statSync(real).isDirectory()) {
    throw new AutoSnippetError(ErrorCode.InvalidInput, `${abs} is a file, not a folder.`, 'Give the project folder.');
  }
  return real;
}

/** The entries of the trust store; a missing store has none, an unreadable one is reported and trusts nothing. */
export function readTrustStore(env?: NodeJS.ProcessEnv): { entries: TrustEntry[]; problem?: string } {
  const file = storeFile(env);
  let text: string;
  try {
    const st = statSync(file);
    if (!st.isFile()) return { entries: [], problem: `${file} is not a regular file; no folder is trusted.` };
    if (st.size > MAX_TRUST_BYTES) {
      return { entries: [], problem: `${file} is larger than ${MAX_TRUST_BYTES} bytes; no folder is trusted.` };
    }
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [] };
    return { entries: [], problem: `${file} cannot be read (${(e as Error).message}); no folder is trusted.` };
  }
  try {
    const parsed = JSON.parse(text) as { folders?: unknown };
    const folders = Array.isArray(parsed.folders) ? parsed.folders : [];
    const entries = folders.filter((f): f is TrustEntry =>
      typeof f === 'object' && f !== null && typeof (f as TrustEntry).path === 'string'
      && path.isAbsolute((f as TrustEntry).path)
    );
    return {
      entries: entries.map((f) => ({ path: f.path, trustedAt: typeof f.trustedAt === 'string' ? f.trustedAt : '' })),
    };
  } catch (e) {
    return { entries: [], problem: `${file} is not valid JSON (${(e as Error).message}); no folder is trusted.` };
  }
}

function covers(entry: string, folder: string): boolean {
  return folder === entry || folder.startsWith(entry.endsWith(path.sep) ? entry : entry + path.sep);
}

/**
 * Whether `root` is trusted outside VS Code: by `--trust` on this run, or by an entry of the trust
 * store for the folder or one of its parents (as VS Code trusts a parent folder's children).
 */
export function decideTrust(root: string, opts: { flag?: boolean; env?: NodeJS.ProcessEnv } = {}): TrustDecision {
  if (opts.flag) return { trusted: true, by: 'flag', note: 'trusted for this run by --trust' };
  let real: string;
  try {
    real = realFolder(root);
  } catch {
    real = path.resolve(root);
  }
  const { entries, problem } = readTrustStore(opts.env);
  const entry = entries.find((e) => covers(e.path, real));
  if (entry) {
    return {
      trusted: true,
      by: 'store',
      entry: entry.path,
      note: `trusted: ${entry.path} is in ${storeFile(opts.env)}`,
    };
  }
  const how = `run \`autosnippet trust ${
    quoteArg(real)
  }\` (or pass --trust) to let project guard rules and skill scripts run`;
  return { trusted: false, note: `${problem ? problem + ' ' : ''}${real} is not trusted: ${how}` };
}

/** Adds a folder to the trust store (its real path). Returns the entry and whether it was new. */
export function trustFolder(dir: string, env?: NodeJS.ProcessEnv): { path: string; added: boolean } {
  const real = realFolder(dir);
  const { entries, problem } = readTrustStore(env);
  if (problem) assertWritableStore(problem);
  if (entries.some((e) => e.path === real)) return { path: real, added: false };
  writeTrustStore([...entries, { path: real, trustedAt: new Date().toISOString() }], env);
  return { path: real, added: true };
}

/** Removes the entries for a folder and for its subfolders; returns what was removed. */
export function untrustFolder(dir: string, env?: NodeJS.ProcessEnv): { removed: string[]; stillCoveredBy?: string } {
  let real: string;
  try {
    real = realFolder(dir);
  } catch {
    real = path.resolve(dir);
  }
  const { entries, problem } = readTrustStore(env);
  if (problem) assertWritableStore(problem);
  const removed = entries.filter((e) => covers(real, e.path)).map((e) => e.path);
  if (removed.length) writeTrustStore(entries.filter((e) => !removed.includes(e.path)), env);
  const parent = entries.find((e) => !removed.includes(e.path) && covers(e.path, real));
  return { removed, ...(parent ? { stillCoveredBy: parent.path } : {}) };
}

function assertWritableStore(problem: string): void {
  throw new AutoSnippetError(
    ErrorCode.InvalidInput,
    `The trust store was left as it is: ${problem}`,
    'Fix or remove the file by hand, then try again.',
  );
}

function writeTrustStore(entries: TrustEntry[], env?: NodeJS.ProcessEnv): void {
  writePrivateJson(storeFile(env), { version: 1, folders: entries });
}

/**
 * A file of the person's own data folder, written as temporary file, flush, rename: a crash leaves the
 * old file or the new one, never half of one. Private to the person (0600, its folder 0700).
 */
export function writePrivateJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, JSON.stringify(value, null, 2) + '\n');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

function quoteArg(p: string): string {
  return /^[\w@%+=:,./-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`;
}
