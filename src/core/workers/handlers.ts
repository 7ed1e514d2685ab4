import { guardWorkerHandlers } from '../guard/worker-tasks';

/** What a worker can be asked to do, by message `kind`. Each handler is plain, synchronous-or-async code. */
export type WorkerHandler = (payload: any) => unknown | Promise<unknown>;

export function workerHandlers(): Record<string, WorkerHandler> {
  return { ...guardWorkerHandlers };
}
