import vm from 'node:vm';

/**
 * Runs synchronous code with a hard time limit. A JavaScript regular expression cannot be interrupted
 * by other JavaScript, but V8 can terminate a running script from its watchdog thread: `vm` with a
 * `timeout` does exactly that, also in the middle of a backtracking regex, and the thread carries on.
 * The call costs about 0.1 ms (the watchdog), so a whole check runs inside one call.
 */
export class TimeBudget {
  private readonly context = vm.createContext({ task: undefined as undefined | (() => void) });
  private readonly script = new vm.Script('task()');

  /** Runs `fn`; returns false when it was stopped at `ms` milliseconds. */
  run(fn: () => void, ms: number): boolean {
    if (ms < 1) return false;
    (this.context as { task?: () => void }).task = fn;
    try {
      this.script.runInContext(this.context, { timeout: Math.ceil(ms) });
      return true;
    } catch (e) {
      if ((e as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return false;
      throw e;
    } finally {
      (this.context as { task?: () => void }).task = undefined;
    }
  }
}
