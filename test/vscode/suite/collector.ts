// A tiny test collector for code that runs inside VS Code's extension host (no mocha): suites call
// `test(name, fn)` at import time, `runRegisteredTests()` runs them one after another, logs one line
// per test and throws when any failed. Lines also go to the file named by AUTOSNIPPET_TEST_LOG (set by
// the code-server harness), so the runner can read them even if the workbench's log plumbing changes.
import { appendFileSync } from 'node:fs';
import { inspect } from 'node:util';
import * as vscode from 'vscode';

export interface TestOptions {
  /** Fails the test when it runs longer; default 30 s. */
  timeoutMs?: number;
}

interface RegisteredTest {
  name: string;
  fn: () => unknown | Promise<unknown>;
  timeoutMs: number;
}

const registered: RegisteredTest[] = [];

export function test(name: string, fn: () => unknown | Promise<unknown>, opts: TestOptions = {}): void {
  registered.push({ name, fn, timeoutMs: opts.timeoutMs ?? 30_000 });
}

export function log(line: string): void {
  console.log(line);
  const file = process.env.AUTOSNIPPET_TEST_LOG;
  if (file) {
    try {
      appendFileSync(file, line.replace(/\n/g, '\n    ') + '\n');
    } catch { /* the console has it */ }
  }
}

function withTimeout<T>(p: Promise<T>, ms: number, name: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${name}`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

function describeError(e: unknown): string {
  if (e instanceof Error) return e.stack ?? `${e.name}: ${e.message}`;
  return inspect(e, { depth: 4 });
}

/** Runs every registered test in order; throws if any failed (VS Code then exits with code 1). */
export async function runRegisteredTests(): Promise<void> {
  const failures: string[] = [];
  const t0 = Date.now();
  log(`# running ${registered.length} tests in VS Code ${vscode.version}`);
  for (const t of registered) {
    const start = Date.now();
    try {
      await withTimeout(Promise.resolve().then(t.fn), t.timeoutMs, t.name);
      log(`ok - ${t.name} (${Date.now() - start} ms)`);
    } catch (e) {
      failures.push(t.name);
      log(`not ok - ${t.name} (${Date.now() - start} ms)\n${describeError(e)}`);
    }
  }
  log(`# ${registered.length - failures.length} passed, ${failures.length} failed (${Date.now() - t0} ms)`);
  if (failures.length) {
    throw new Error(`${failures.length} of ${registered.length} tests failed: ${failures.join('; ')}`);
  }
}
