import { watch, statSync, type FSWatcher } from 'node:fs';
import type { Workspace } from '../workspace';
import { RECIPES_DIR } from './recipe-file';

/**
 * Whether the recipe files may have changed since the last walk of their folder, from a recursive
 * file watcher on `.autosnippet/recipes/`: with it, a search does not stat every recipe file to find
 * out that nothing changed (10,000 files took 0.5–1 s on the 2-core machine). Where no watcher can be
 * started (no folder yet, a file system without notifications, the watch limit reached), or after it
 * failed, or when the folder was replaced, it answers "maybe" and callers walk as before.
 */
export class RecipeFolderWatch {
  private watcher: FSWatcher | undefined;
  private watchedIno: number | undefined;
  /** Set by every event, and until the first walk after the watcher started. */
  private changed = true;

  constructor(private readonly dir: string) {}

  /**
   * True when files may have changed (or nothing watches them); starts the watcher when it can.
   * Events reach the watcher on a later turn of the event loop than the write that caused them, so
   * this first lets a poll phase pass: a file written just before a request is never missed.
   */
  async mayHaveChanged(): Promise<boolean> {
    const ino = statSync(this.dir, { throwIfNoEntry: false })?.ino;
    if (this.watcher && ino !== this.watchedIno) this.stop(); // the folder was removed or replaced
    if (!this.watcher && ino !== undefined) this.start(ino);
    if (!this.watcher || this.changed) return true;
    // One check phase may come before the next poll; after the second, a poll phase has run.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    return this.changed || !this.watcher;
  }

  /** Call just before a walk of the folder starts: what changes during it marks the folder again. */
  walking(): void {
    this.changed = false;
  }

  dispose(): void {
    this.stop();
  }

  private start(ino: number): void {
    try {
      // Not persistent: an open watcher never keeps a CLI or a server process alive.
      this.watcher = watch(this.dir, { recursive: true, persistent: false }, () => (this.changed = true));
      this.watcher.on('error', () => this.stop());
      this.watchedIno = ino;
      this.changed = true;
    } catch {
      this.stop();
    }
  }

  private stop(): void {
    this.watcher?.close();
    this.watcher = undefined;
    this.watchedIno = undefined;
    this.changed = true;
  }
}

export const recipeFolderWatch = (ws: Workspace) => ws.service('knowledge.recipeWatch', () => new RecipeFolderWatch(ws.path(RECIPES_DIR)));
