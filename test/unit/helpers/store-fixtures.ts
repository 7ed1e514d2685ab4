// Shared by the store tests and the processes they spawn.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Migration } from '../../../src/core/ground/store/types';

export const repoRoot = path.resolve(__dirname, '../../..');

/** items: one row per committed write; counter: bumped in the same transaction (atomicity check). */
export const itemMigrations: Migration[] = [
  {
    version: 1,
    name: 'items',
    up: `CREATE TABLE items (id TEXT PRIMARY KEY, writer TEXT NOT NULL, body TEXT NOT NULL);
         CREATE TABLE counter (n INTEGER NOT NULL);
         INSERT INTO counter (n) VALUES (0);`,
  },
];

/** Deterministic text of about `bytes` bytes. */
export function body(id: string, bytes: number): string {
  const words = 'the quick brown fox jumps over a lazy dog while patterns rules and skills stay with the code';
  let s = id + ' ';
  while (s.length < bytes) s += words + ' ';
  return s.slice(0, bytes);
}

const made: string[] = [];

export function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'autosnippet-store-'));
  made.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** Spawns a helper script under tsx, like the test runner runs the tests. */
export function spawnHelper(script: string, args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, script), ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Complete stdout lines as they arrive; a line cut by a kill is never reported. */
export function onLines(child: ChildProcess, each: (line: string) => void): void {
  let pending = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    pending += chunk;
    let nl: number;
    while ((nl = pending.indexOf('\n')) >= 0) {
      each(pending.slice(0, nl));
      pending = pending.slice(nl + 1);
    }
  });
}

export function exited(
  child: ChildProcess,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (c: string) => (stderr += c));
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode, stderr });
    } else child.once('exit', (code, signal) => resolve({ code, signal, stderr }));
  });
}

/** The pid of a process that has exited (and been reaped). */
export async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((r) => child.once('exit', r));
  return child.pid!;
}
