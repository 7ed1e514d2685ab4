/**
 * The one walker of the workspace. It lists the files that the ignore list (see ignore.ts) leaves,
 * never follows a link (so it never leaves the workspace), never opens a special file, and is
 * bounded in files, depth and time, and cancellable.
 *
 * A workspace's listing is cached (`workspaceFiles(ws)`) as a tree of folders. Asking again does not
 * walk again: a host with a file watcher calls `invalidate(path)` and only those folders are read
 * again; without a watcher (the MCP server, the CLI) a request first compares the folders' and the
 * ignore files' modification times (one stat each, at most once per second) and reads again only the
 * folders that changed — adding or removing an entry changes its folder's time.
 */
import type { Stats } from 'node:fs';
import path from 'node:path';
import { AutoSnippetError, ErrorCode } from '../kernel/errors';
import { type Folder, folderStat, ignoreKeyNow, readFolder } from './folder';
import { GlobSet } from './globs';
import type { IgnoreScope } from './ignore';
import { isUnder, relPath } from './paths';
import { type FileProblem, ProblemList } from './problems';

export interface WalkOptions {
  /** Keep only the files this accepts, e.g. guard's "not vendored or generated" from the file classifier. */
  filter?: (rel: string) => boolean;
  /** Workspace-relative globs left out (the settings' excludes); a glob without `/` matches a name at any depth. */
  exclude?: readonly string[];
  signal?: AbortSignal;
}

export interface WorkspaceListing {
  /** Workspace-relative, `/`-separated, sorted. */
  files: readonly string[];
  /** True when the walk stopped at a bound (files, depth or time); `problems` says which. */
  truncated: boolean;
  /** Files and folders left out by ignore files and the always-skipped folders. */
  ignored: number;
  /** Files left out by `exclude` and `filter`. */
  excluded: number;
  /** Links not followed. */
  links: number;
  /** Ignore files that could not be read or had bad lines, special files, unreadable folders, bounds hit. */
  problems: FileProblem[];
  /** Changes whenever the set of files may have changed; equal generations have equal files. */
  generation: number;
}

export interface WalkBounds {
  /** Default 200,000. */
  maxFiles?: number;
  /** Folder depth below the root; default 32. */
  maxDepth?: number;
  /** Time for a whole walk; default 30 s. */
  deadlineMs?: number;
  /** How long a check against the disk is trusted without a watcher; default 1 s. */
  freshMs?: number;
}

const DEFAULTS: Required<WalkBounds> = { maxFiles: 200_000, maxDepth: 32, deadlineMs: 30_000, freshMs: 1000 };
/**
 * With a watcher, the disk is still compared this often: watchers drop events (overflow, folders a
 * user excluded from watching), and a listing must not stay wrong until a restart.
 */
const WATCHED_FRESH_MS = 30_000;
/**
 * Folders are read with synchronous calls (a thread-pool round trip per call made the walk several
 * times slower) in slices of this many milliseconds, with a turn for the event loop between slices.
 */
const SLICE_MS = 8;

/** A walk that is not cached: the whole workspace, now. */
export async function walkWorkspace(root: string, options: WalkOptions & WalkBounds = {}): Promise<WorkspaceListing> {
  const { maxFiles, maxDepth, deadlineMs } = options;
  return new WorkspaceFiles(root, { maxFiles, maxDepth, deadlineMs }).list(options);
}

/** The cached listing of a workspace, created on first use and kept with it. */
export function workspaceFiles(host: { root: string } & Partial<FilesServiceHost>): WorkspaceFiles {
  if (typeof host.service === 'function') return host.service('files', () => new WorkspaceFiles(host.root));
  let files = standalone.get(host);
  if (!files) standalone.set(host, files = new WorkspaceFiles(host.root));
  return files;
}

interface FilesServiceHost {
  service<T>(key: string, create: () => T): T;
}

/** For hosts that are not a Workspace (benchmarks, tests): one listing per host object. */
const standalone = new WeakMap<object, WorkspaceFiles>();

export class WorkspaceFiles {
  readonly root: string;
  private readonly bounds: Required<WalkBounds>;
  private folders = new Map<string, Folder>();
  private walked = false;
  private truncated = false;
  private boundProblems: FileProblem[] = [];
  private flat: { files: string[]; ignored: number; links: number; problems: FileProblem[] } | undefined;
  private generation = 0;
  private checkedAt = 0;
  private asked = 0;
  private covered = 0;
  private watched = false;
  private readonly dirty = new Set<string>();
  private running: { promise: Promise<void>; controller: AbortController; waiters: number } | undefined;

  constructor(root: string, bounds: WalkBounds = {}) {
    this.root = path.resolve(root);
    this.bounds = {
      maxFiles: bounds.maxFiles ?? DEFAULTS.maxFiles,
      maxDepth: bounds.maxDepth ?? DEFAULTS.maxDepth,
      deadlineMs: bounds.deadlineMs ?? DEFAULTS.deadlineMs,
      freshMs: bounds.freshMs ?? DEFAULTS.freshMs,
    };
  }

  /**
   * The files of the workspace. Cached: reads only what changed since the last call (see the top of
   * this file). `refresh` checks the disk even within the freshness window.
   */
  async list(options: WalkOptions & { refresh?: boolean } = {}): Promise<WorkspaceListing> {
    await this.update(options);
    return this.select(options);
  }

  /**
   * Tells the listing that `rel` (a file or folder, workspace-relative or absolute) was created, deleted or
   * changed; with no argument, that anything may have. For file watchers: the next `list` reads
   * only the folders concerned.
   */
  invalidate(rel?: string): void {
    if (rel === undefined) {
      this.walked = false;
      return;
    }
    const inside = path.isAbsolute(rel) ? relPath(this.root, rel) : rel.split(path.sep).join('/');
    if (inside === undefined) return;
    const clean = inside.replace(/^\.\/|\/+$/g, '');
    const parent = clean.includes('/') ? clean.slice(0, clean.lastIndexOf('/')) : '';
    this.dirty.add(parent);
    if (this.folders.has(clean)) this.dirty.add(clean);
  }

  /** A host with a file watcher that calls `invalidate` turns this on: requests then compare the disk only every 30 s. */
  setWatched(watched: boolean): void {
    this.watched = watched;
  }

  private async update(options: WalkOptions & { refresh?: boolean }): Promise<void> {
    const ticket = ++this.asked;
    for (;;) {
      // `covered`: the last refresh started after this request was made, so it saw what was asked.
      const window = this.watched ? WATCHED_FRESH_MS : this.bounds.freshMs;
      const fresh = this.walked && this.dirty.size === 0
        && (this.covered >= ticket || (!options.refresh && Date.now() - this.checkedAt < window));
      if (fresh) return;
      if (!this.running) {
        const controller = new AbortController();
        const promise = this.refresh(controller.signal).finally(() => {
          if (this.running?.promise === promise) this.running = undefined;
        });
        this.running = { promise, controller, waiters: 0 };
      }
      await this.wait(this.running, options.signal);
    }
  }

  /** Waits for the shared refresh; a caller's cancel stops it only when nobody else waits for it. */
  private async wait(run: NonNullable<WorkspaceFiles['running']>, signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) throw cancelled();
    run.waiters++;
    let onAbort: (() => void) | undefined;
    try {
      await (signal
        ? Promise.race([
          run.promise,
          new Promise<never>((_, reject) => {
            onAbort = () => reject(cancelled());
            signal.addEventListener('abort', onAbort, { once: true });
          }),
        ])
        : run.promise);
    } finally {
      run.waiters--;
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted && run.waiters === 0) run.controller.abort();
    }
  }

  private async refresh(signal: AbortSignal): Promise<void> {
    const started = Date.now();
    const covers = this.asked;
    if (!this.walked) {
      await this.walkAll(signal);
    } else {
      const changed = new Set(this.dirty);
      this.dirty.clear();
      try {
        // With a watcher, its invalidations are enough until the periodic comparison is due.
        const compare = !this.watched || started - this.checkedAt >= WATCHED_FRESH_MS || changed.size === 0;
        if (compare) { for (const rel of await this.changedFolders(signal)) changed.add(rel); }
        if (changed.size) await this.reread([...changed], signal);
      } catch (e) {
        for (const rel of changed) this.dirty.add(rel);
        throw e;
      }
    }
    this.checkedAt = started;
    this.covered = covers;
  }

  private async walkAll(signal: AbortSignal): Promise<void> {
    this.dirty.clear();
    const folders = new Map<string, Folder>();
    const bounded = new ProblemList(5);
    const truncated = await this.walkInto(folders, [''], signal, bounded);
    this.folders = folders;
    this.truncated = truncated;
    this.boundProblems = bounded.toArray();
    this.walked = true;
    this.changed();
  }

  /** Reads the folders `start` and everything below them into `folders`, breadth-first. Returns true when a bound cut it. */
  private async walkInto(
    folders: Map<string, Folder>,
    start: string[],
    signal: AbortSignal,
    bounded: ProblemList,
  ): Promise<boolean> {
    const deadline = Date.now() + this.bounds.deadlineMs;
    let files = 0;
    for (const f of folders.values()) files += f.files.length;
    const slice = slicer();
    let queue = start;
    while (queue.length) {
      const next: string[] = [];
      for (const rel of queue) {
        await slice();
        if (signal.aborted) throw cancelled();
        if (Date.now() > deadline) {
          bounded.add({
            path: rel,
            code: ErrorCode.ListingBounded,
            message: `Listing the workspace took longer than ${this.bounds.deadlineMs / 1000} s; ${
              rel || 'the root'
            } and the folders after it are not listed.`,
          });
          return true;
        }
        const folder = readFolder(this.root, rel, this.scopesAbove(rel, folders));
        if (files + folder.files.length > this.bounds.maxFiles) {
          folder.files = folder.files.slice(0, Math.max(0, this.bounds.maxFiles - files));
          folders.set(folder.rel, folder);
          bounded.add({
            path: folder.rel,
            code: ErrorCode.ListingBounded,
            message:
              `The workspace has more than ${this.bounds.maxFiles} files; the listing stops there (shallow folders first).`,
          });
          return true;
        }
        files += folder.files.length;
        folders.set(folder.rel, folder);
        if (folder.depth < this.bounds.maxDepth) next.push(...folder.dirs);
        else if (folder.dirs.length) {
          bounded.add({
            path: folder.dirs[0],
            code: ErrorCode.ListingBounded,
            message: `Folders deeper than ${this.bounds.maxDepth} levels are not listed (${
              folder.dirs[0]
            } and others).`,
          });
          folder.dirs = [];
        }
      }
      queue = next;
    }
    return false;
  }

  private scopesAbove(rel: string, folders: ReadonlyMap<string, Folder>): IgnoreScope[] {
    if (rel === '') return [];
    const parts = rel.split('/');
    const out: IgnoreScope[] = [];
    for (let i = 0; i < parts.length; i++) {
      const scope = folders.get(parts.slice(0, i).join('/'))?.scope;
      if (scope) out.push(scope);
    }
    return out;
  }

  /** Folders whose entries or ignore files changed since they were read (one stat each). */
  private async changedFolders(signal: AbortSignal): Promise<string[]> {
    const changed: string[] = [];
    const slice = slicer();
    for (const f of this.folders.values()) {
      await slice();
      if (signal.aborted) throw cancelled();
      let st: Stats | undefined;
      try {
        st = folderStat(path.join(this.root, f.rel), f.rel);
      } catch {
        st = undefined;
      }
      if (
        !st?.isDirectory() || st.mtimeMs !== f.mtimeMs
        || (f.ignoreKey !== '' && ignoreKeyNow(this.root, f) !== f.ignoreKey)
      ) changed.push(f.rel);
    }
    return changed;
  }

  /**
   * Reads changed folders again. A folder whose ignore rules changed is walked again with everything
   * below it; otherwise its sub-folders keep their listing, new ones are walked, gone ones dropped.
   */
  private async reread(changed: string[], signal: AbortSignal): Promise<void> {
    const folders = new Map(this.folders);
    const bounded = new ProblemList(5);
    let truncated = false;
    const order = [...new Set(changed)].sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1));
    const done: string[] = [];
    for (const rel of order) {
      if (done.some((d) => isUnder(rel, d))) continue;
      const before = folders.get(rel);
      if (!before) continue; // not listed (ignored, or below a folder read again already)
      const parentGone = rel !== '' && !folders.has(rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '');
      if (parentGone) continue;
      const after = readFolder(this.root, rel, this.scopesAbove(rel, folders));
      folders.set(rel, after);
      if (after.ignoreKey !== before.ignoreKey) {
        // New rules for everything below: walk the sub-folders again.
        dropBelow(folders, rel);
        if (after.dirs.length) truncated ||= await this.walkInto(folders, after.dirs, signal, bounded);
        done.push(rel);
        continue;
      }
      const kept = new Set(after.dirs);
      for (const d of before.dirs) if (!kept.has(d)) dropBelow(folders, d, true);
      const added = after.dirs.filter((d) => !folders.has(d));
      if (added.length) truncated ||= await this.walkInto(folders, added, signal, bounded);
    }
    this.folders = folders;
    if (truncated) {
      this.truncated = true;
      this.boundProblems = [...this.boundProblems, ...bounded.toArray()].slice(0, 5);
    }
    this.changed();
  }

  private changed(): void {
    this.generation++;
    this.flat = undefined;
  }

  private select(options: WalkOptions): WorkspaceListing {
    if (!this.flat) {
      const files: string[] = [];
      const problems = new ProblemList();
      let ignored = 0;
      let links = 0;
      for (const f of this.folders.values()) {
        for (const file of f.files) files.push(file);
        ignored += f.ignored;
        links += f.links;
        problems.addAll(f.problems);
      }
      problems.addAll(this.boundProblems);
      files.sort();
      this.flat = { files, ignored, links, problems: problems.toArray() };
    }
    const { files, ignored, links, problems } = this.flat;
    const exclude = options.exclude?.length ? new GlobSet(options.exclude) : undefined;
    const filter = options.filter;
    const kept = exclude || filter ? files.filter((f) => !exclude?.has(f) && (!filter || filter(f))) : files;
    return {
      files: kept,
      truncated: this.truncated,
      ignored,
      excluded: files.length - kept.length,
      links,
      problems,
      generation: this.generation,
    };
  }
}

/** Resolves at once, or after a turn of the event loop when the current slice has run SLICE_MS. */
function slicer(): () => Promise<void> {
  let start = performance.now();
  return async () => {
    if (performance.now() - start < SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    start = performance.now();
  };
}

function dropBelow(folders: Map<string, Folder>, rel: string, inclusive = false): void {
  for (const key of [...folders.keys()]) {
    if ((inclusive && key === rel) || (key !== rel && isUnder(key, rel))) folders.delete(key);
  }
}

function cancelled(): AutoSnippetError {
  return new AutoSnippetError(ErrorCode.Cancelled, 'Listing the workspace was cancelled.');
}
