// The message loop of a worker thread: receives { id, kind, payload }, runs the handler registered
// for `kind`, and answers { id, ok, result | error }. One job at a time.
import { parentPort } from 'node:worker_threads';
import type { WorkerHandler } from './pool';

export function serveJobs(handlers: Record<string, WorkerHandler>): void {
  parentPort?.on('message', async (msg: { id: number; kind: string; payload: unknown }) => {
    const handler = handlers[msg.kind];
    try {
      if (!handler) throw new Error(`no worker handler for "${msg.kind}"`);
      const result = await handler(msg.payload);
      parentPort!.postMessage({ id: msg.id, ok: true, result });
    } catch (e) {
      const err = e as Error & { code?: string };
      parentPort!.postMessage({
        id: msg.id,
        ok: false,
        error: { message: err.message, code: err.code, stack: err.stack },
      });
    }
  });
}
