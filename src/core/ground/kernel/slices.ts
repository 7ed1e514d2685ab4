import { performance } from 'node:perf_hooks';

/** The longest stretch of synchronous work before the event loop gets a turn (the extension host must stay responsive). */
export const SLICE_MS = 12;

/**
 * A checkpoint to call inside long loops: it yields to the event loop (setImmediate) once `ms` of
 * synchronous work have passed since the last turn, and costs a clock read otherwise.
 */
export function slicer(ms = SLICE_MS): () => Promise<void> | undefined {
  let last = performance.now();
  return () => {
    if (performance.now() - last < ms) return undefined;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        last = performance.now();
        resolve();
      })
    );
  };
}

/**
 * Once per turn of the event loop: `first()` is true the first time it is asked in a turn and false
 * after that until the next one. A request that reads several times in one turn then looks at the
 * disk once (and sees one state), while anything that waits for I/O looks again.
 */
export class TurnGate {
  private open = true;

  first(): boolean {
    if (!this.open) return false;
    this.open = false;
    setImmediate(() => (this.open = true));
    return true;
  }
}
