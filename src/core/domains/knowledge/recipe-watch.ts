import { type FSWatcher, promises as fsp, statSync, watch } from 'node:fs';
import path from 'node:path';
import type { Workspace } from '../../ground/workspace';
import { RECIPES_DIR } from './recipe-file';

/** More folders than this under `.autosnippet/recipes/` and nothing is watched (each costs a kernel watch). */
const MAX_WATCHED_DIRS = 2000;
/** More changed paths than this between two calls and a walk is cheaper than looking at each. */
const MAX_PENDING = 1000;

/**
 * What changed under `.autosnippet/recipes/` since the last walk of the folder, from file watchers on
 * it and each folder under it: the paths the events named, so a call syncs those files alone, and
 * walks (stats every recipe file: 10,000 took 0.2–1 s on the 2-core machine) only when an event
 * could not say what changed.
 *
 * One watcher per folder, not Node's recursive watch: on Linux that one stats the whole tree
 * synchronously when it starts (438 ms for 10,000 files) and takes a kernel watch per file (10,081),
 * where a folder's watch already reports every file created, changed, renamed or removed in it.
 *
 * Where watchers cannot run (no folder yet, a file system without notifications, the watch limit
 * reached, too many folders), after one failed, or when the folder was replaced, it answers "walk".
 */
export class RecipeFolderWatch {
  private readonly watchers = new Map<string, FSWatcher>();
  private rootIno: number | undefined;
  /** Set until the first walk after watching started, and by an event that names no path. */
  private needsWalk = true;
  /** Absolute paths events named since the last walk or take (files, or folders created or removed). */
  private readonly pending = new Set<string>();
  /** Watchers cannot be used in this process (a start failed, or too many folders). */
  private unavailable = false;
  private scan: Promise<void> | undefined;
  private scanAgain = false;

  constructor(private readonly root: string) {}

  /**
   * The paths changed since the last walk or the last take (and forgets them), or 'walk' when only a
   * walk of the folder can tell (nothing watches it yet, an event named no path, too many changes);
   * starts watching when it can, without waiting for it. Events reach a watcher on a later turn of the
   * event loop than the write that caused them, so this first lets a poll phase pass: a file written
   * just before a request is never missed.
   */
  async takeChanges(): Promise<'walk' | string[]> {
    const ino = statSync(this.root, { throwIfNoEntry: false })?.ino;
    if (this.rootIno !== undefined && ino !== this.rootIno) this.stop(); // the folder was removed or replaced
    if (this.rootIno === undefined) {
      if (ino !== undefined && !this.unavailable) {
        this.rootIno = ino;
        this.needsWalk = true;
        this.rescan();
      }
      return 'walk';
    }
    if (this.needsWalk) return 'walk';
    // One check phase may come before the next poll; after the second, a poll phase has run.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    await this.scan; // folders created meanwhile are watched (and named as changed) before answering
    if (this.needsWalk || this.rootIno === undefined) return 'walk';
    const paths = [...this.pending];
    this.pending.clear();
    return paths;
  }

  /** Settles once every folder found so far is watched: a walk that starts after it misses nothing. */
  async watching(): Promise<void> {
    await this.scan;
  }

  /** Call just before a walk of the folder starts: what changes during it marks the folder again. */
  walking(): void {
    this.needsWalk = false;
    this.pending.clear();
  }

  dispose(): void {
    this.stop();
    this.unavailable = true;
  }

  /** Watches every folder under the root that is not watched yet and forgets those gone; one scan at a time. */
  private rescan(): void {
    if (this.scan) {
      this.scanAgain = true;
      return;
    }
    this.scan = this.scanFolders()
      .catch(() => this.giveUp())
      .finally(() => {
        this.scan = undefined;
        if (this.scanAgain && this.rootIno !== undefined) {
          this.scanAgain = false;
          this.rescan();
        }
      });
  }

  private async scanFolders(): Promise<void> {
    const found = new Set<string>();
    for (let queue = [this.root]; queue.length > 0;) {
      const dir = queue.pop()!;
      found.add(dir);
      if (found.size > MAX_WATCHED_DIRS) return this.giveUp();
      const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const e of entries) if (e.isDirectory()) queue.push(path.join(dir, e.name));
    }
    if (this.rootIno === undefined) return; // stopped meanwhile
    for (const [dir, w] of this.watchers) {
      if (found.has(dir)) continue;
      w.close();
      this.watchers.delete(dir);
    }
    const first = this.watchers.size === 0;
    for (const dir of found) {
      if (this.watchers.has(dir)) continue;
      // Not persistent: a watcher never keeps a CLI or a server process alive.
      const w = watch(dir, { persistent: false }, (event, name) => this.onEvent(dir, event, name));
      w.on('error', () => this.giveUp());
      this.watchers.set(dir, w);
      // Files may have been written into a folder created since the first scan before its watcher started.
      if (!first) this.note(dir);
    }
  }

  private onEvent(dir: string, event: string, name: string | Buffer | null): void {
    if (name === null) this.needsWalk = true;
    else this.note(path.join(dir, name.toString()));
    if (event === 'rename') this.rescan(); // a folder may have been created or removed
  }

  private note(changed: string): void {
    if (this.pending.size >= MAX_PENDING) this.needsWalk = true;
    else this.pending.add(changed);
  }

  /** Watching is not possible here: walk every time, as without watchers. */
  private giveUp(): void {
    this.stop();
    this.unavailable = true;
  }

  private stop(): void {
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    this.rootIno = undefined;
    this.needsWalk = true;
    this.pending.clear();
  }
}

export const recipeFolderWatch = (ws: Workspace) =>
  ws.service('knowledge.recipeWatch', () => new RecipeFolderWatch(ws.path(RECIPES_DIR)));
