// Hostile workspaces for the file service tests: FIFOs, sockets, links to devices and to outside.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';

const temps: string[] = [];
const servers: net.Server[] = [];
after(() => {
  for (const s of servers.splice(0)) s.close();
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});

/** A temporary folder (removed after the test file) holding `files` (path → content). */
export function tempTree(files: Record<string, string> = {}, prefix = 'as-files-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(dir);
  writeTree(dir, files);
  return dir;
}

export function writeTree(root: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, rel);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
}

/** A named pipe at `rel`: opening it for reading blocks until a writer comes, which never happens here. */
export function fifo(root: string, rel: string): string {
  const abs = path.join(root, rel);
  mkdirSync(path.dirname(abs), { recursive: true });
  const r = spawnSync('mkfifo', [abs]);
  if (r.status !== 0) throw new Error(`mkfifo failed: ${r.stderr}`);
  return abs;
}

export function link(root: string, rel: string, target: string): string {
  const abs = path.join(root, rel);
  mkdirSync(path.dirname(abs), { recursive: true });
  symlinkSync(target, abs);
  return abs;
}

/** A listening Unix socket at `rel`. */
export async function socket(root: string, rel: string): Promise<string> {
  const abs = path.join(root, rel);
  mkdirSync(path.dirname(abs), { recursive: true });
  const server = net.createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(abs, resolve));
  return abs;
}

/** Fails the test when `p` takes longer than `ms` (a hang becomes a failure, not a stuck run). */
export async function within<T>(ms: number, p: Promise<T>, what = 'the call'): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((
        _,
        reject,
      ) => (timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** A YAML "billion laughs": nine levels of nine aliases each, 9^9 strings once expanded. */
export function yamlAliasBomb(): string {
  const names = 'abcdefghi';
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < names.length; i++) {
    lines.push(`${names[i]}: &${names[i]} [${Array(9).fill(`*${names[i - 1]}`).join(', ')}]`);
  }
  return lines.join('\n');
}
