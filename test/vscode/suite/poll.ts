// Polling without vscode, so both the extension-host suite and the Playwright side can use it.

/** Polls `probe` until it returns a truthy value; fails with `what` after `timeoutMs`. */
export async function eventually<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) {
      throw new Error(`${what} (waited ${timeoutMs} ms)${last ? `; last error: ${String(last)}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
