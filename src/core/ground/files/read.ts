/**
 * The one reader for what comes from a repository: recipes, skills and their files, guard rule
 * files, `.gitignore`s, build manifests, source files. A repository is input nobody here wrote, so
 * every read:
 *
 * 1. resolves the path against its boundary (the workspace, or a skill's folder) and refuses `..`
 *    that leaves it, then takes the real path (links resolved) and refuses one outside it;
 * 2. `lstat`s the real path and refuses anything but a regular file — a FIFO would block the reader
 *    forever, `/dev/zero` never ends, a socket cannot be read — without opening it;
 * 3. refuses a file over the cap of its kind before reading a byte (see READ_CAPS);
 * 4. opens with O_NOFOLLOW | O_NONBLOCK and checks with `fstat` that it opened the same regular file
 *    (so a file swapped for a FIFO or a link in between cannot block or escape either);
 * 5. reads in chunks under a deadline, and stops at the cap if the file grew meanwhile.
 *
 * Failures are AutoSnippetErrors with stable codes (NOT_A_REGULAR_FILE, FILE_TOO_LARGE,
 * PATH_OUTSIDE_WORKSPACE, READ_TIMEOUT, NOT_FOUND, UNREADABLE_FILE) and a message naming the file,
 * so a caller can turn one bad file into a problem on that file and carry on with the others.
 */
import fs from 'node:fs';
import path from 'node:path';
import { AutoSnippetError, ErrorCode } from '../kernel/errors';
import { isInside, relPath, shownPath } from './paths';

export type ReadKind =
  | 'recipe'
  | 'skill'
  | 'skill-resource'
  | 'guard-rules'
  | 'gitignore'
  | 'manifest'
  | 'source'
  | 'config';

const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * The most bytes read per kind, each far above real files of that kind and far below what would hurt
 * the server (a file is held in memory whole, and parsed):
 * - recipe 1 MiB: a recipe is a page of Markdown and a code block (a few KB); 50 MB would be indexed,
 *   embedded and held in the search index for nothing.
 * - skill 1 MiB: the Agent Skills guide asks for a SKILL.md under 500 lines (~20 KB).
 * - skill-resource 4 MiB: references, scripts and assets, served to agents whole or as base64.
 * - guard-rules 4 MiB: some 20,000 compact rules. One parse of that is cheap; what would hurt is
 *   analysing and compiling them all, so the loader caps the rule count (1,000) and reports the rest.
 * - gitignore 2 MiB: the largest real `.gitignore`s are tens of KB. The cost is in the patterns, which
 *   the ignore list bounds by themselves (line length, `**` count, pattern count), so the cap is loose
 *   enough that one absurd line (a megabyte) is dropped alone and the file's other lines still apply.
 * - manifest 4 MiB: package.json, Cargo.toml, pom.xml, build.gradle…; lock files are not read.
 * - source 4 MiB: larger source files are generated or minified, and guard skips them anyway.
 * - config 1 MiB: AutoSnippet's own settings and data files in `.autosnippet/`.
 */
export const READ_CAPS: Readonly<Record<ReadKind, number>> = {
  recipe: MiB,
  skill: MiB,
  'skill-resource': 4 * MiB,
  'guard-rules': 4 * MiB,
  gitignore: 2 * MiB,
  manifest: 4 * MiB,
  source: 4 * MiB,
  config: MiB,
};

/** A read of one file that takes longer than this is given up (slow or hung network disks). */
export const READ_DEADLINE_MS = 5000;

const KIND_LABEL: Record<ReadKind, string> = {
  recipe: 'recipe files',
  skill: 'SKILL.md files',
  'skill-resource': 'skill files',
  'guard-rules': 'guard rule files',
  gitignore: '.gitignore files',
  manifest: 'build manifests',
  source: 'source files',
  config: 'configuration files',
};

/** What a root is, for messages and the error code of a path that leaves it. */
export interface Boundary {
  name: string;
  code: ErrorCode;
}

export const WORKSPACE_BOUNDARY: Boundary = { name: 'the workspace', code: ErrorCode.PathOutsideWorkspace };

export function skillBoundary(skill: string): Boundary {
  return { name: `the folder of skill "${skill}"`, code: ErrorCode.PathOutsideSkill };
}

export interface ReadOptions {
  kind: ReadKind;
  /** A cap for this read instead of the kind's (e.g. the caller's own `maxFileBytes`). */
  maxBytes?: number;
  /** Default READ_DEADLINE_MS. */
  deadlineMs?: number;
  /** Asynchronous reads only. */
  signal?: AbortSignal;
  /** Default: the workspace. */
  boundary?: Boundary;
  /** Synchronous reads of many files in one job (a guard batch): folders' real paths resolved once. */
  realPaths?: RealPathCache;
}

/**
 * Real paths of folders for one batch of reads. Resolving a file's real path costs a system call per
 * path component; files of one folder share it. Kept for one job only: a folder replaced by a link
 * later must be seen.
 */
export class RealPathCache {
  private readonly dirs = new Map<string, string>();

  dir(abs: string): string {
    let real = this.dirs.get(abs);
    if (real === undefined) {
      real = fs.realpathSync.native(abs);
      this.dirs.set(abs, real);
    }
    return real;
  }

  /** The real path of a file and its lstat; a file that is itself a link is resolved in full. */
  file(abs: string): { real: string; st: fs.Stats } {
    const candidate = path.join(this.dir(path.dirname(abs)), path.basename(abs));
    const st = fs.lstatSync(candidate);
    if (!st.isSymbolicLink()) return { real: candidate, st };
    const real = fs.realpathSync.native(candidate);
    return { real, st: fs.lstatSync(real) };
  }
}

export interface RepoFileInfo {
  /** Relative to the root, `/`-separated: of the real file when the path went through a link inside the root. */
  path: string;
  realPath: string;
  size: number;
  mtimeMs: number;
}

export interface RepoBytes extends RepoFileInfo {
  bytes: Buffer;
}

export interface RepoFile extends RepoFileInfo {
  text: string;
}

const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);
const CHUNK = 256 * KiB;

/** Reads a repository file as UTF-8 text, safely (see the top of this file). `file` is relative to `root` or absolute. */
export async function readRepoFile(root: string, file: string, options: ReadOptions): Promise<RepoFile> {
  const { bytes, ...info } = await readRepoBytes(root, file, options);
  return { ...info, text: bytes.toString('utf8') };
}

export function readRepoFileSync(root: string, file: string, options: ReadOptions): RepoFile {
  const { bytes, ...info } = readRepoBytesSync(root, file, options);
  return { ...info, text: bytes.toString('utf8') };
}

export async function readRepoBytes(root: string, file: string, options: ReadOptions): Promise<RepoBytes> {
  const req = request(root, file, options);
  const deadline = Date.now() + (options.deadlineMs ?? READ_DEADLINE_MS);
  const race = <T>(p: Promise<T>) => withDeadline(p, deadline, req, options.signal);
  let realRoot: string;
  let real: string;
  try {
    realRoot = await race(fs.promises.realpath(req.root));
    real = await race(fs.promises.realpath(req.abs));
  } catch (e) {
    throw missingOrUnreadable(e, req);
  }
  const st = await race(fs.promises.lstat(real)).catch((e) => Promise.reject(missingOrUnreadable(e, req)));
  const rel = admit(realRoot, real, st, req);
  let handle: fs.promises.FileHandle;
  try {
    handle = await race(fs.promises.open(real, OPEN_FLAGS));
  } catch (e) {
    throw missingOrUnreadable(e, req);
  }
  try {
    const opened = await race(handle.stat());
    sameFile(st, opened, req);
    let buf: Buffer = Buffer.allocUnsafe(initialSize(opened.size, req.cap));
    let n = 0;
    for (;;) {
      if (n === buf.length) {
        if (n > req.cap) break;
        buf = grow(buf, req.cap);
      }
      const { bytesRead } = await race(handle.read(buf, n, Math.min(buf.length - n, CHUNK), null));
      if (bytesRead === 0) break;
      n += bytesRead;
    }
    if (n > req.cap) throw tooLarge(req, n, true);
    return { path: rel, realPath: real, size: n, mtimeMs: opened.mtimeMs, bytes: buf.subarray(0, n) };
  } finally {
    // A read still pending after the deadline keeps the handle until it returns; never wait for it.
    void handle.close().catch(() => undefined);
  }
}

export function readRepoBytesSync(root: string, file: string, options: ReadOptions): RepoBytes {
  const req = request(root, file, options);
  const deadline = Date.now() + (options.deadlineMs ?? READ_DEADLINE_MS);
  let real: string;
  let realRoot: string;
  let st: fs.Stats;
  try {
    if (options.realPaths) {
      realRoot = options.realPaths.dir(req.root);
      ({ real, st } = options.realPaths.file(req.abs));
    } else {
      realRoot = fs.realpathSync.native(req.root);
      real = fs.realpathSync.native(req.abs);
      st = fs.lstatSync(real);
    }
  } catch (e) {
    throw missingOrUnreadable(e, req);
  }
  const rel = admit(realRoot, real, st, req);
  let fd: number;
  try {
    fd = fs.openSync(real, OPEN_FLAGS);
  } catch (e) {
    throw missingOrUnreadable(e, req);
  }
  try {
    const opened = fs.fstatSync(fd);
    sameFile(st, opened, req);
    let buf: Buffer = Buffer.allocUnsafe(initialSize(opened.size, req.cap));
    let n = 0;
    for (;;) {
      if (n === buf.length) {
        if (n > req.cap) break;
        buf = grow(buf, req.cap);
      }
      const bytesRead = fs.readSync(fd, buf, n, Math.min(buf.length - n, CHUNK), null);
      if (bytesRead === 0) break;
      n += bytesRead;
      if (Date.now() > deadline) throw timedOut(req);
    }
    if (n > req.cap) throw tooLarge(req, n, true);
    return { path: rel, realPath: real, size: n, mtimeMs: opened.mtimeMs, bytes: buf.subarray(0, n) };
  } finally {
    fs.closeSync(fd);
  }
}

/** True when the text or bytes look binary (a NUL in the first 8,000), the way git decides. */
export function looksBinary(content: string | Uint8Array): boolean {
  const n = Math.min(content.length, 8000);
  if (typeof content === 'string') return content.slice(0, n).includes('\u0000');
  for (let i = 0; i < n; i++) if (content[i] === 0) return true;
  return false;
}

/** A short description of what a non-regular file is, for messages. */
export function describeEntry(st: fs.Stats | fs.Dirent): string {
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isDirectory()) return 'a folder';
  if (st.isSymbolicLink()) return 'a link';
  return st.isFile() ? 'a regular file' : 'not a regular file';
}

interface Request {
  root: string;
  abs: string;
  shown: string;
  kind: ReadKind;
  cap: number;
  deadlineMs: number;
  boundary: Boundary;
}

function request(root: string, file: string, options: ReadOptions): Request {
  const boundary = options.boundary ?? WORKSPACE_BOUNDARY;
  const absRoot = path.resolve(root);
  const shown = shownPath(file);
  const req: Request = {
    root: absRoot,
    abs: '',
    shown,
    kind: options.kind,
    cap: options.maxBytes ?? READ_CAPS[options.kind],
    deadlineMs: options.deadlineMs ?? READ_DEADLINE_MS,
    boundary,
  };
  if (file.includes('\0')) {
    throw new AutoSnippetError(
      ErrorCode.InvalidInput,
      `The path ${JSON.stringify(shown)} contains a NUL character.`,
      'Give a plain relative path.',
      { path: shown },
    );
  }
  req.abs = path.resolve(absRoot, file);
  if (!isInside(absRoot, req.abs)) throw outside(req, 'the path leads out of it');
  return req;
}

/** The checks between locating a file and opening it; returns its path relative to the real root. */
function admit(realRoot: string, real: string, st: fs.Stats, req: Request): string {
  const rel = relPath(realRoot, real);
  if (rel === undefined) throw outside(req, 'it resolves, through a link, to a place outside it');
  if (!st.isFile()) {
    throw new AutoSnippetError(
      ErrorCode.NotARegularFile,
      `${req.shown} is ${describeEntry(st)}, not a regular file; it was not opened.`,
      st.isDirectory()
        ? 'Give the path of a file.'
        : 'Replace it with a regular file, or remove it: special files are never read.',
      { path: req.shown, kind: req.kind, is: describeEntry(st) },
    );
  }
  if (st.size > req.cap) throw tooLarge(req, st.size);
  return rel;
}

function sameFile(before: fs.Stats, opened: fs.Stats, req: Request): void {
  if (opened.isFile() && opened.ino === before.ino && opened.dev === before.dev) return;
  throw new AutoSnippetError(
    ErrorCode.NotARegularFile,
    `${req.shown} changed while it was being opened (now ${describeEntry(opened)}); it was not read.`,
    'Try again once nothing is replacing the file.',
    { path: req.shown, kind: req.kind },
  );
}

function initialSize(size: number, cap: number): number {
  return Math.min(cap + 1, Math.max(size + 1, 4 * KiB));
}

function grow(buf: Buffer, cap: number): Buffer {
  const bigger = Buffer.allocUnsafe(Math.min(cap + 1, buf.length * 2));
  buf.copy(bigger);
  return bigger;
}

function outside(req: Request, why: string): AutoSnippetError {
  return new AutoSnippetError(
    req.boundary.code,
    `${req.shown} is outside ${req.boundary.name}: ${why}.`,
    `Give a path inside ${req.boundary.name}, relative to it; links that lead out of it are not followed.`,
    { path: req.shown },
  );
}

/** `grew`: the size is what was read before stopping at the cap, not the file's full size. */
function tooLarge(req: Request, size: number, grew = false): AutoSnippetError {
  const shown = formatBytes(size) === formatBytes(req.cap) ? `${size} bytes` : formatBytes(size);
  return new AutoSnippetError(
    ErrorCode.FileTooLarge,
    `${req.shown} is ${grew ? 'more than ' + formatBytes(req.cap) : shown}; ${KIND_LABEL[req.kind]} are read up to ${
      formatBytes(req.cap)
    }.`,
    'Make the file smaller (split it), or leave it out: one oversized file is skipped so it cannot exhaust the server.',
    { path: req.shown, kind: req.kind, size, limit: req.cap },
  );
}

function timedOut(req: Request): AutoSnippetError {
  return new AutoSnippetError(
    ErrorCode.ReadTimeout,
    `Reading ${req.shown} took longer than ${req.deadlineMs} ms; it was left out.`,
    'Check the disk or network share the file is on, then try again.',
    { path: req.shown, kind: req.kind },
  );
}

function missingOrUnreadable(e: unknown, req: Request): AutoSnippetError {
  if (e instanceof AutoSnippetError) return e;
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    return new AutoSnippetError(
      ErrorCode.NotFound,
      `${req.shown} does not exist in ${req.boundary.name}.`,
      'Check the path; it is relative to the root.',
      { path: req.shown },
    );
  }
  if (code === 'ELOOP') return outside(req, 'it goes through a loop of links or a link where a file was expected');
  return new AutoSnippetError(
    ErrorCode.UnreadableFile,
    `${req.shown} cannot be read (${code ?? (e as Error).message}).`,
    'Check its permissions.',
    { path: req.shown, kind: req.kind },
  );
}

function withDeadline<T>(p: Promise<T>, deadline: number, req: Request, signal?: AbortSignal): Promise<T> {
  if (signal?.aborted) return Promise.reject(cancelled(req));
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(timedOut(req)), Math.max(0, deadline - Date.now()));
    const onAbort = () => reject(cancelled(req));
    signal?.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    });
  });
}

function cancelled(req: Request): AutoSnippetError {
  return new AutoSnippetError(ErrorCode.Cancelled, `Reading ${req.shown} was cancelled.`);
}

export function formatBytes(n: number): string {
  if (n < KiB) return `${n} bytes`;
  if (n < MiB) return `${+(n / KiB).toFixed(1)} KiB`;
  return `${+(n / MiB).toFixed(1)} MiB`;
}
