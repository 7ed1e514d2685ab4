/** Small file-system helpers for the store: identities, durable atomic writes, moving damaged files aside. */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AutoSnippetError, ErrorCode } from '../kernel/errors';

/**
 * A file's identity for change detection: device, inode, size and change times. A rename over the
 * path (a checkpoint) or an append changes it; reading it costs one stat.
 */
export function fileKey(st: fs.BigIntStats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
}

/** The identity of the file at `p`, or '' when there is none. */
export function statKey(p: string): string {
  const st = fs.statSync(p, { bigint: true, throwIfNoEntry: false });
  return st ? fileKey(st) : '';
}

export function tempPathFor(target: string): string {
  return `${target}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** Makes a rename or a new file in the folder of `p` durable. Not possible on Windows; ignored there. */
export async function fsyncDir(p: string): Promise<void> {
  let fh: fs.promises.FileHandle | undefined;
  try {
    fh = await fs.promises.open(path.dirname(p), 'r');
    await fh.sync();
  } catch {
    // Opening or syncing a folder is not supported everywhere (Windows); the rename is still atomic.
  } finally {
    await fh?.close();
  }
}

async function renameWithRetry(from: string, to: string): Promise<void> {
  for (let attempt = 0;; attempt++) {
    try {
      return await fs.promises.rename(from, to);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // Windows: a virus scanner or indexer may hold the target briefly.
      if (attempt >= 5 || (code !== 'EPERM' && code !== 'EBUSY' && code !== 'EACCES')) throw e;
      await new Promise((r) => setTimeout(r, 20 * (attempt + 1)));
    }
  }
}

/**
 * Writes `bytes` to a temporary file, flushes it, renames it over `target` and flushes the folder.
 * Neither step follows a link at the file itself: the temporary file is created exclusively and the
 * rename replaces a link rather than its target. `mode` is the new file's permissions exactly (the
 * umask does not narrow it), for a rewrite that keeps an existing file's mode.
 */
export async function writeFileAtomic(
  target: string,
  bytes: Uint8Array,
  { mode }: { mode?: number } = {},
): Promise<void> {
  const tmp = tempPathFor(target);
  try {
    const fh = await fs.promises.open(tmp, 'wx');
    try {
      if (mode !== undefined) await fh.chmod(mode);
      await fh.writeFile(bytes);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await renameWithRetry(tmp, target);
  } catch (e) {
    await fs.promises.rm(tmp, { force: true });
    throw e;
  }
  await fsyncDir(target);
}

/**
 * Throws a clear STORE_UNAVAILABLE when something other than a regular file sits where the store
 * keeps one (a folder named like the database, a FIFO…). Nothing there is fine.
 */
export function assertFileOrMissing(p: string, what: string): void {
  const st = fs.statSync(p, { throwIfNoEntry: false });
  if (!st || st.isFile()) return;
  const kind = st.isDirectory() ? 'a folder' : 'not a regular file';
  throw new AutoSnippetError(
    ErrorCode.StoreUnavailable,
    `The ${what} path ${p} is ${kind}; AutoSnippet keeps its ${what} in a file there.`,
    `Move or rename ${p} (AutoSnippet never deletes it), then try again.`,
    { path: p },
  );
}

function asideName(p: string, label: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  let target = `${p}.${label}-${stamp}`;
  for (let i = 1; fs.existsSync(target); i++) target = `${p}.${label}-${stamp}-${i}`;
  return target;
}

/** Renames `p` to `<p>.corrupt-<timestamp>` (never deletes it) and returns the new path. */
export function moveAside(p: string): string {
  const target = asideName(p, 'corrupt');
  fs.renameSync(p, target);
  return target;
}

/** Copies the bytes of `p` from offset `from` on to `<p>.torn-<timestamp>`, durably, and returns that path. */
export async function saveTailAside(p: string, from: number): Promise<string> {
  const bytes = (await fs.promises.readFile(p)).subarray(from);
  const target = asideName(p, 'torn');
  const fh = await fs.promises.open(target, 'wx');
  try {
    await fh.writeFile(bytes);
    await fh.sync();
  } finally {
    await fh.close();
  }
  return target;
}

/** Removes temporary files left by writers that crashed. Call only while holding the write lock. */
export function removeLeftovers(dbPath: string): void {
  const base = path.basename(dbPath);
  const prefixes = [`${base}.tmp-`, `${base}.journal.tmp-`];
  removeFilesIn(path.dirname(dbPath), (name) => prefixes.some((p) => name.startsWith(p)));
}

/** Removes the files of `dir` whose names `doomed` picks; a folder that cannot be read is left alone. */
export function removeFilesIn(dir: string, doomed: (name: string) => boolean): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) if (doomed(name)) fs.rmSync(path.join(dir, name), { force: true });
}
