import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { AutoSnippetError, ErrorCode, isErrorCode } from '../kernel/errors';
import type { Logger } from '../kernel/log';
import { workerHandlers } from './handlers';

interface Job {
  id: number;
  kind: string;
  payload: unknown;
  resolve(v: unknown): void;
  reject(e: unknown): void;
  signal?: AbortSignal;
  timeoutMs?: number;
}

interface Slot {
  worker: Worker;
  job?: Job;
  timer?: NodeJS.Timeout;
  onAbort?: () => void;
}

/**
 * Worker threads for work that must stay off the caller's thread (workspace scans, regex analysis).
 * Bundled, the entry is dist/worker.js beside the bundle; from TypeScript sources (tests, bench) it
 * is worker.ts loaded through tsx. When neither can start, jobs run on this thread, one per
 * macrotask, so callers still get their answers (just not in parallel).
 */
export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private disabled = false;
  private disposed = false;
  readonly size: number;

  constructor(private readonly options: { size?: number; log?: Logger } = {}) {
    this.size = Math.max(1, options.size ?? Math.min(4, Math.max(1, os.availableParallelism() - 1)));
  }

  /** False when jobs run on the caller's thread. */
  get threaded(): boolean {
    return !this.disabled && workerEntry() !== undefined;
  }

  run<T>(kind: string, payload: unknown, opts: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<T> {
    if (this.disposed) return Promise.reject(new AutoSnippetError(ErrorCode.Cancelled, 'The worker pool was closed.'));
    if (opts.signal?.aborted) return Promise.reject(cancelled());
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, kind, payload, resolve: resolve as (v: unknown) => void, reject, signal: opts.signal, timeoutMs: opts.timeoutMs });
      this.pump();
    });
  }

  private pump(): void {
    while (this.queue.length) {
      if (this.disabled || !workerEntry()) {
        const job = this.queue.shift()!;
        setImmediate(() => void runInThread(job));
        continue;
      }
      let slot = this.slots.find((s) => !s.job);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const job = this.queue.shift()!;
      if (job.signal?.aborted) {
        job.reject(cancelled());
        continue;
      }
      this.start(slot, job);
    }
  }

  private spawn(): Slot | undefined {
    const entry = workerEntry()!;
    let worker: Worker;
    try {
      worker = entry.eval ? new Worker(entry.eval, { eval: true }) : new Worker(entry.file);
    } catch (e) {
      this.options.log?.warn(`worker threads unavailable, running on the main thread: ${(e as Error).message}`);
      this.disabled = true;
      return undefined;
    }
    worker.unref();
    const slot: Slot = { worker };
    worker.on('message', (msg: { id: number; ok: boolean; result?: unknown; error?: { message: string; code?: string } }) => {
      const job = slot.job;
      if (!job || job.id !== msg.id) return;
      this.finish(slot);
      if (msg.ok) job.resolve(msg.result);
      else job.reject(msg.error?.code && isErrorCode(msg.error.code) ? new AutoSnippetError(msg.error.code, msg.error.message) : new Error(msg.error?.message));
      this.pump();
    });
    worker.on('error', (e) => {
      const job = slot.job;
      this.remove(slot);
      if (job) job.reject(e);
      this.pump();
    });
    worker.on('exit', () => {
      const job = slot.job;
      this.remove(slot);
      if (job) job.reject(new Error('the worker exited'));
    });
    this.slots.push(slot);
    return slot;
  }

  private start(slot: Slot, job: Job): void {
    slot.job = job;
    slot.worker.ref();
    if (job.timeoutMs) {
      slot.timer = setTimeout(() => this.kill(slot, new AutoSnippetError('TIMEOUT', `The ${job.kind} job ran past ${job.timeoutMs} ms and was stopped.`)), job.timeoutMs);
    }
    if (job.signal) {
      slot.onAbort = () => this.kill(slot, cancelled());
      job.signal.addEventListener('abort', slot.onAbort, { once: true });
    }
    slot.worker.postMessage({ id: job.id, kind: job.kind, payload: job.payload });
  }

  private finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    if (slot.onAbort) slot.job?.signal?.removeEventListener('abort', slot.onAbort);
    slot.timer = undefined;
    slot.onAbort = undefined;
    slot.job = undefined;
    slot.worker.unref();
  }

  /** Stops a running job by ending its thread (the only way to stop a busy thread). */
  private kill(slot: Slot, reason: unknown): void {
    const job = slot.job;
    this.finish(slot);
    this.remove(slot);
    void slot.worker.terminate();
    job?.reject(reason);
    this.pump();
  }

  private remove(slot: Slot): void {
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    for (const job of this.queue.splice(0)) job.reject(cancelled());
    await Promise.all(this.slots.splice(0).map((s) => {
      s.job?.reject(cancelled());
      return s.worker.terminate();
    }));
  }
}

function cancelled(): AutoSnippetError {
  return new AutoSnippetError(ErrorCode.Cancelled, 'The operation was cancelled.');
}

let entryCache: { file: string; eval?: string } | null | undefined;

function workerEntry(): { file: string; eval?: string } | undefined {
  if (entryCache !== undefined) return entryCache ?? undefined;
  const js = path.join(__dirname, 'worker.js');
  const ts = path.join(__dirname, 'worker.ts');
  if (existsSync(js)) entryCache = { file: js };
  else if (existsSync(ts)) {
    try {
      const tsx = require.resolve('tsx/cjs');
      entryCache = { file: ts, eval: `require(${JSON.stringify(tsx)}); require(${JSON.stringify(ts)});` };
    } catch {
      entryCache = null;
    }
  } else entryCache = null;
  return entryCache ?? undefined;
}

async function runInThread(job: Job): Promise<void> {
  if (job.signal?.aborted) return job.reject(cancelled());
  const handler = workerHandlers()[job.kind];
  try {
    if (!handler) throw new Error(`no worker handler for "${job.kind}"`);
    job.resolve(await handler(job.payload));
  } catch (e) {
    job.reject(e);
  }
}
