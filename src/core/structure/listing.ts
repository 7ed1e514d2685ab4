import { opendir } from 'node:fs/promises';
import path from 'node:path';
import { AutoSnippetError, ErrorCode } from '../kernel/errors';
import { WorkspaceIgnore } from './ignore';

export interface WorkspaceListing {
  /** Workspace-relative paths with `/` separators, sorted. */
  files: string[];
  /** True when the walk stopped at `maxEntries`. */
  truncated: boolean;
  /** Files and folders left out by `.gitignore` and the always-skipped folders. */
  ignored: number;
  ignore: WorkspaceIgnore;
}

export interface ListOptions {
  /** Stop after this many files (default 200,000). */
  maxEntries?: number;
  signal?: AbortSignal;
}

/**
 * Every file of the workspace that `.gitignore` and the skipped folders leave, breadth-first so a
 * bound cuts deep folders before shallow ones. Asynchronous directory reads keep the event loop free.
 */
export async function listWorkspaceFiles(root: string, options: ListOptions = {}): Promise<WorkspaceListing> {
  const max = options.maxEntries ?? 200_000;
  const ignore = new WorkspaceIgnore(root);
  const files: string[] = [];
  let ignored = 0;
  let truncated = false;
  let queue = [''];
  while (queue.length && !truncated) {
    const next: string[] = [];
    for (const dir of queue) {
      if (options.signal?.aborted) throw new AutoSnippetError(ErrorCode.Cancelled, 'Listing the workspace was cancelled.');
      let handle;
      try {
        handle = await opendir(path.join(root, dir));
      } catch {
        continue;
      }
      const entries: { name: string; dir: boolean }[] = [];
      for await (const e of handle) {
        if (e.isDirectory()) entries.push({ name: e.name, dir: true });
        else if (e.isFile()) entries.push({ name: e.name, dir: false });
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const e of entries) {
        const rel = dir ? `${dir}/${e.name}` : e.name;
        if (e.dir) {
          if (ignore.skipsDir(rel)) ignored++;
          else next.push(rel);
        } else if (ignore.skipsFile(rel)) ignored++;
        else if (files.length >= max) {
          truncated = true;
          break;
        } else files.push(rel);
      }
      if (truncated) break;
    }
    queue = next;
  }
  files.sort();
  return { files, truncated, ignored, ignore };
}
