/**
 * What git knows about cited files: where a file went (git's own rename detection, in commits and in
 * the index), and what a file said in earlier commits (the "then" side of a change). Only used when a
 * cited file is missing or a person asks to see a change; every call is bounded in time and output,
 * and a workspace without git (or without the `git` command) simply gets no answer.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const GIT_TIMEOUT_MS = 5000;
const MAX_OUTPUT = 8 * 1024 * 1024;
/** How far back committed renames are followed. */
const RENAME_COMMITS = 2000;

function git(root: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('git', ['-c', 'core.quotepath=off', ...args], {
      cwd: root,
      timeout: GIT_TIMEOUT_MS,
      maxBuffer: MAX_OUTPUT,
      windowsHide: true,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' },
    }, (err, stdout) => {
      resolve(err ? undefined : stdout);
    });
  });
}

/** True when the workspace is (inside) a git work tree the `git` command can read. */
export function hasGit(root: string): boolean {
  let dir = root;
  for (;;) {
    if (existsSync(path.join(dir, '.git'))) return true;
    const up = path.dirname(dir);
    if (up === dir) return false;
    dir = up;
  }
}

/**
 * Renames git detected, old path → new path (workspace-relative), newest last so that chains
 * (a → b, later b → c) resolve to the end: committed renames from `git log -M`, then staged ones
 * from `git status`. Undefined when git is not available.
 */
export async function gitRenames(root: string): Promise<Map<string, string> | undefined> {
  if (!hasGit(root)) return undefined;
  const prefix = (await git(root, ['rev-parse', '--show-prefix']))?.trim();
  if (prefix === undefined) return undefined;
  const rel = (p: string) => (prefix && p.startsWith(prefix) ? p.slice(prefix.length) : prefix ? undefined : p);
  const renames = new Map<string, string>();
  const add = (from: string, to: string) => {
    const a = rel(from);
    const b = rel(to);
    if (a === undefined || b === undefined || a === b) return;
    for (const [k, v] of renames) if (v === a) renames.set(k, b);
    renames.set(a, b);
  };
  // Oldest first, so that a later rename of the new name extends the chain.
  const log = await git(root, [
    'log',
    '-M',
    '--diff-filter=R',
    '--name-status',
    '--format=',
    '-z',
    '--reverse',
    `-n${RENAME_COMMITS}`,
    'HEAD',
    '--',
    '.',
  ]);
  if (log) {
    const parts = log.split('\0');
    for (let i = 0; i < parts.length; i++) {
      const status = parts[i].replace(/^\n+/, '');
      if (/^R\d*$/.test(status) && i + 2 < parts.length) {
        add(parts[i + 1], parts[i + 2]);
        i += 2;
      }
    }
  }
  const status = await git(root, ['status', '--porcelain=v1', '-z', '-M', '--untracked-files=no', '--', '.']);
  if (status) {
    // `R  new\0old\0`: the new path first, then the old one.
    const parts = status.split('\0');
    for (let i = 0; i < parts.length; i++) {
      const entry = parts[i];
      if (/^R/.test(entry) && i + 1 < parts.length) {
        add(parts[i + 1], entry.slice(3));
        i += 1;
      }
    }
  }
  return renames;
}

/** Files git does not track yet (not ignored): where a file moved in the working tree may be. */
export async function untrackedFiles(root: string, limit = 5000): Promise<string[]> {
  if (!hasGit(root)) return [];
  const out = await git(root, ['ls-files', '--others', '--exclude-standard', '-z', '--', '.']);
  return out ? out.split('\0').filter(Boolean).slice(0, limit) : [];
}

/**
 * Earlier versions of a file, newest first: the commits that changed it (following renames), at
 * most `limit`, each with the file's text in that commit.
 */
export async function* fileHistory(
  root: string,
  rel: string,
  limit = 20,
): AsyncGenerator<{ commit: string; text: string }> {
  if (!hasGit(root)) return;
  const log = await git(root, ['log', '--follow', '--format=%x00%H', '--name-only', `-n${limit}`, 'HEAD', '--', rel]);
  if (!log) return;
  for (const chunk of log.split('\0')) {
    const [commit, name] = chunk.split('\n').filter(Boolean);
    if (!commit || !name) continue;
    // `--name-only` names the file relative to the repository root, as `commit:path` wants it.
    const text = await git(root, ['show', `${commit}:${name}`]);
    if (text !== undefined) yield { commit, text };
  }
}
