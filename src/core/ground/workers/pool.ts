import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type ResourceLimits, Worker } from 'node:worker_threads';
import { AutoSnippetError, ErrorCode, isErrorCode } from '../kernel/errors';
import type { Logger } from '../kernel/log';

/** What a worker can be asked to do, by message `kind`. Each handler is plain, synchronous-or-async code. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- payloads are each handler's own type
export type WorkerHandler = (payload: any) => unknown | Promise<unknown>;

/**
 * Where a pool's threads start: the bundled file beside the bundle (`guard-worker.js` in dist/), or
 * the TypeScript source (tests, bench) loaded through tsx. The entry calls `serveJobs` with the same
 * handlers the pool runs on the caller's thread when threads cannot start.
 */
export interface WorkerEntry {
  bundled: string;
  source: string;
}

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
 * Worker threads for work that must stay off the caller's thread (workspace scans, regex analysis),
 * for whichever domain hands it an entry and its handlers (the pool knows none of them). When no
 * thread can start, jobs run on this thread, one per macrotask, so callers still get their answers
 * (just not in parallel).
 */
export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private disabled = false;
  private disposed = false;
  private threads: number;
  private readonly entry: { file: string; eval?: string } | undefined;

  /** Threads by default: every core but one, which stays free for the editor or the caller. */
  static spareCores(): number {
    return Math.max(1, os.availableParallelism() - 1);
  }

  /**
   * `resourceLimits`: the heap a thread may use. A job that needs more ends its thread (V8 stops it,
   * whatever it was doing) and fails with RESOURCE_LIMIT, and the next job gets a fresh thread.
   */
  constructor(
    private readonly options: {
      entry: WorkerEntry;
      handlers: Record<string, WorkerHandler>;
      size?: number;
      log?: Logger;
      resourceLimits?: ResourceLimits;
      /**
       * False for code that must never run on the caller's thread (a repository's own tools, which are
       * bounded only on a thread of their own): when no thread can start, jobs fail instead.
       */
      callerThreadFallback?: boolean;
    },
  ) {
    this.threads = Math.max(1, options.size ?? WorkerPool.spareCores());
    this.entry = resolveEntry(options.entry);
  }

  get size(): number {
    return this.threads;
  }

  /** Uses up to `n` threads from now on (a CI scan takes every core; the editor leaves one free). */
  resize(n: number): void {
    this.threads = Math.max(1, Math.floor(n));
    this.pump();
  }

  /** False when jobs run on the caller's thread. */
  get threaded(): boolean {
    return !this.disabled && this.entry !== undefined;
  }

  run<T>(kind: string, payload: unknown, opts: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<T> {
    if (this.disposed) return Promise.reject(new AutoSnippetError(ErrorCode.Cancelled, 'The worker pool was closed.'));
    if (opts.signal?.aborted) return Promise.reject(cancelled());
    return new Promise<T>((resolve, reject) => {
      this.queue.push({
        id: this.nextId++,
        kind,
        payload,
        resolve: resolve as (v: unknown) => void,
        reject,
        signal: opts.signal,
        timeoutMs: opts.timeoutMs,
      });
      this.pump();
    });
  }

  private pump(): void {
    while (this.queue.length) {
      if (this.disabled || !this.entry) {
        const job = this.queue.shift()!;
        if (this.options.callerThreadFallback === false) {
          job.reject(new AutoSnippetError(ErrorCode.Internal, `No worker thread could start for the ${job.kind} job.`));
          continue;
        }
        setImmediate(() => void runInThread(job, this.options.handlers));
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
    const entry = this.entry!;
    let worker: Worker;
    try {
      const limits = this.options.resourceLimits ? { resourceLimits: this.options.resourceLimits } : {};
      worker = entry.eval ? new Worker(entry.eval, { eval: true, ...limits }) : new Worker(entry.file, limits);
    } catch (e) {
      this.options.log?.warn(`worker threads unavailable, running on the main thread: ${(e as Error).message}`);
      this.disabled = true;
      return undefined;
    }
    worker.unref();
    const slot: Slot = { worker };
    worker.on(
      'message',
      (msg: { id: number; ok: boolean; result?: unknown; error?: { message: string; code?: string } }) => {
        const job = slot.job;
        if (!job || job.id !== msg.id) return;
        this.finish(slot);
        if (msg.ok) job.resolve(msg.result);
        else {
          job.reject(
            msg.error?.code && isErrorCode(msg.error.code)
              ? new AutoSnippetError(msg.error.code, msg.error.message)
              : new Error(msg.error?.message),
          );
        }
        this.pump();
      },
    );
    worker.on('error', (e: Error & { code?: string }) => {
      const job = slot.job;
      this.finish(slot);
      this.remove(slot);
      const limit = this.options.resourceLimits?.maxOldGenerationSizeMb;
      if (job) {
        job.reject(
          e.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new AutoSnippetError(
              'RESOURCE_LIMIT',
              `The ${job.kind} job needed more than the ${limit ?? '?'} MB its thread may use and was stopped.`,
            )
            : e,
        );
      }
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
      slot.timer = setTimeout(
        () =>
          this.kill(
            slot,
            new AutoSnippetError('TIMEOUT', `The ${job.kind} job ran past ${job.timeoutMs} ms and was stopped.`),
          ),
        job.timeoutMs,
      );
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
    await Promise.all(
      this.slots.splice(0).map((s) => {
        s.job?.reject(cancelled());
        return s.worker.terminate();
      }),
    );
  }
}

function cancelled(): AutoSnippetError {
  return new AutoSnippetError(ErrorCode.Cancelled, 'The operation was cancelled.');
}

/** The bundled entry when it exists beside the bundle, else the TypeScript source through tsx. */
function resolveEntry(entry: WorkerEntry): { file: string; eval?: string } | undefined {
  const bundled = path.join(__dirname, entry.bundled);
  if (existsSync(bundled)) return { file: bundled };
  if (!existsSync(entry.source)) return undefined;
  try {
    const tsx = require.resolve('tsx/cjs');
    return { file: entry.source, eval: `require(${JSON.stringify(tsx)}); require(${JSON.stringify(entry.source)});` };
  } catch {
    return undefined;
  }
}

async function runInThread(job: Job, handlers: Record<string, WorkerHandler>): Promise<void> {
  if (job.signal?.aborted) return job.reject(cancelled());
  const handler = handlers[job.kind];
  try {
    if (!handler) throw new Error(`no worker handler for "${job.kind}"`);
    job.resolve(await handler(job.payload));
  } catch (e) {
    job.reject(e);
  }
}
