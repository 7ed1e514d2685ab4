/**
 * The cross-process write lock: a file next to the database created with O_EXCL, holding
 * {pid, hostname, createdAt, token}. Locks left by dead processes are broken safely.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AutoSnippetError, ErrorCode } from '../kernel/errors';
import type { Logger } from '../kernel/log';
import { removeFilesIn } from './files';

export interface LockOwner {
  pid: number;
  hostname: string;
  createdAt: string;
  token: string;
}

/** What a waiter saw in the lock file: its bytes, parsed owner if any, and the file's identity. */
export interface LockSighting {
  raw: Buffer;
  owner?: LockOwner;
  ino: bigint;
  mtimeNs: bigint;
  mtimeMs: number;
}

/** A lock file that is empty or unreadable is only a crash between create and write once it is this old. */
export const UNREADABLE_LOCK_STALE_MS = 2000;

function parseOwner(raw: Buffer): LockOwner | undefined {
  try {
    const o = JSON.parse(raw.toString('utf8')) as Partial<LockOwner>;
    if (
      typeof o.pid === 'number' && Number.isInteger(o.pid) && o.pid > 0 && typeof o.hostname === 'string'
      && typeof o.token === 'string'
    ) {
      return { pid: o.pid, hostname: o.hostname, createdAt: String(o.createdAt ?? ''), token: o.token };
    }
  } catch {
    /* unparseable */
  }
  return undefined;
}

export function readLock(lockPath: string): LockSighting | undefined {
  let fd: number;
  try {
    fd = fs.openSync(lockPath, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  try {
    const st = fs.fstatSync(fd, { bigint: true });
    if (!st.isFile()) {
      throw new AutoSnippetError(
        ErrorCode.StoreUnavailable,
        `The lock path ${lockPath} is ${
          st.isDirectory() ? 'a folder' : 'not a regular file'
        }, so no process can take the database's write lock.`,
        `Move or remove ${lockPath} (AutoSnippet creates this file for each write and removes it after), then try again.`,
        { lockPath },
      );
    }
    const raw = fs.readFileSync(fd);
    return { raw, owner: parseOwner(raw), ino: st.ino, mtimeNs: st.mtimeNs, mtimeMs: Number(st.mtimeMs) };
  } finally {
    fs.closeSync(fd);
  }
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Stale: its holder is a dead process on this machine, or it is unreadable and no longer fresh. */
export function isStale(seen: LockSighting, now = Date.now()): boolean {
  if (!seen.owner) return now - seen.mtimeMs > UNREADABLE_LOCK_STALE_MS;
  return seen.owner.hostname === os.hostname() && !isProcessAlive(seen.owner.pid);
}

const sameFile = (now: LockSighting | undefined, judged: LockSighting) =>
  !!now && now.ino === judged.ino && now.mtimeNs === judged.mtimeNs && now.raw.equals(judged.raw);

const ownerJson = (): string =>
  JSON.stringify({
    pid: process.pid,
    hostname: os.hostname(),
    createdAt: new Date().toISOString(),
    token: randomBytes(8).toString('hex'),
  });

/**
 * Creates `target` holding `content`, or returns false when it exists. The content is written to a
 * private file first and linked into place (link() never overwrites), so the file is never seen
 * empty: a creator paused between create and write (a loaded machine) cannot have its fresh lock
 * judged an abandoned, unreadable one and broken under it. Where hard links are not supported,
 * falls back to an exclusive create and write.
 */
function createWith(target: string, content: string): boolean {
  const tmp = `${target}.${process.pid}-${randomBytes(4).toString('hex')}.new`;
  try {
    fs.writeFileSync(tmp, content, { flag: 'wx' });
  } catch {
    return createExclusive(target, content);
  }
  try {
    fs.linkSync(tmp, target);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'EXDEV') {
      return createExclusive(target, content);
    }
    throw e;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/** Removes the files `createWith` writes aside that a process killed mid-way left behind (their pid is dead). */
function sweepOrphans(target: string): void {
  const prefix = `${path.basename(target)}.`;
  removeFilesIn(path.dirname(target), (name) => {
    const m = name.startsWith(prefix) ? /^(\d+)-[0-9a-f]+\.new$/.exec(name.slice(prefix.length)) : null;
    return !!m && !isProcessAlive(Number(m[1]));
  });
}

function createExclusive(target: string, content: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(target, 'wx');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // EPERM: on Windows a lock file being deleted still blocks creation for a moment.
    if (code === 'EEXIST' || code === 'EPERM') return false;
    throw e;
  }
  try {
    fs.writeSync(fd, content);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

/**
 * Removes the lock file judged stale in `judged`, if it is still that very file. Breakers take
 * turns through a guard file (`<lock>.break`, created with O_EXCL). While one holds the guard no
 * other breaker removes the lock file, its dead owner cannot, and nobody can create a new one
 * while it exists: so checking it is still the judged file and then unlinking it cannot remove a
 * live lock. Returns true when the stale lock was removed.
 */
export function breakStaleLock(lockPath: string, judged: LockSighting, log?: Logger): boolean {
  const guard = `${lockPath}.break`;
  if (!takeGuard(guard, log)) return false;
  try {
    if (!sameFile(readLock(lockPath), judged)) return false;
    fs.rmSync(lockPath, { force: true });
    log?.warn(`broke a stale store lock ${describe(judged.owner)}`);
    sweepOrphans(lockPath);
    sweepOrphans(guard);
    return true;
  } finally {
    fs.rmSync(guard, { force: true });
  }
}

function takeGuard(guard: string, log?: Logger): boolean {
  if (createWith(guard, ownerJson())) return true;
  const seen = readLock(guard);
  if (seen && isStale(seen)) removeStaleGuard(guard, seen, log);
  return false;
}

/**
 * A guard left by a breaker that died during its turn (a few microseconds). It is renamed to a
 * unique name (of two removers only one can move it); if what was moved is not the judged file,
 * it is put back with link(), which never overwrites a guard taken in the meantime.
 */
function removeStaleGuard(guard: string, judged: LockSighting, log?: Logger): void {
  const aside = `${guard}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    fs.renameSync(guard, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  if (sameFile(readLock(aside), judged)) {
    log?.warn(`removed a stale lock-breaking guard ${describe(judged.owner)}`);
  } else {
    try {
      fs.linkSync(aside, guard);
    } catch {
      /* a newer guard was taken meanwhile; the one moved belonged to a breaker whose turn is over */
    }
  }
  fs.rmSync(aside, { force: true });
}

function describe(owner: LockOwner | undefined): string {
  return owner
    ? `held by process ${owner.pid} on ${owner.hostname} since ${owner.createdAt}`
    : '(empty or unreadable lock file)';
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class FileLock {
  private token: string | undefined;

  constructor(
    readonly path: string,
    private readonly timeoutMs: number,
    private readonly log?: Logger,
  ) {}

  get held(): boolean {
    return this.token !== undefined;
  }

  /** Creates the lock file, whole, or fails at once when it exists. */
  tryAcquire(): boolean {
    const content = ownerJson();
    if (!createWith(this.path, content)) return false;
    this.token = (JSON.parse(content) as LockOwner).token;
    return true;
  }

  /** Waits with backoff, breaking stale locks, until the lock is ours or `timeoutMs` passes (STORE_LOCKED). */
  async acquire(timeoutMs = this.timeoutMs): Promise<void> {
    if (this.token) throw new Error('store lock already held by this instance');
    const deadline = Date.now() + timeoutMs;
    let delay = 1;
    for (;;) {
      if (this.tryAcquire()) return;
      const seen = readLock(this.path);
      if (!seen) continue;
      if (isStale(seen)) {
        if (!breakStaleLock(this.path, seen, this.log)) await sleep(1);
        continue;
      }
      if (Date.now() >= deadline) {
        const holder = seen.owner;
        throw new AutoSnippetError(
          ErrorCode.StoreLocked,
          `the database is locked ${describe(holder)}; waited ${timeoutMs} ms`,
          `Another AutoSnippet process is writing. Retry shortly. If process ${
            holder?.pid ?? '?'
          } no longer exists, delete ${this.path}.`,
          { lockPath: this.path, holder },
        );
      }
      await sleep(Math.min(delay, Math.max(1, deadline - Date.now())) * (0.5 + Math.random()));
      delay = Math.min(delay * 2, 25);
    }
  }

  /** Removes the lock file if it is still ours. */
  release(): void {
    const token = this.token;
    this.token = undefined;
    if (!token) return;
    const seen = readLock(this.path);
    if (seen?.owner?.token !== token) {
      this.log?.warn('the store lock was taken from this process while it held it (judged stale by another process)');
      return;
    }
    fs.rmSync(this.path, { force: true });
  }
}
