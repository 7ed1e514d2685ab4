import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { isAutoSnippetError } from '../../src/core/ground/kernel/errors';
import { WorkerPool } from '../../src/core/ground/workers/pool';

const entry = { bundled: 'no-such-bundle.js', source: path.join(__dirname, 'helpers', 'pool-worker.ts') };

test("a job that outgrows its thread's memory limit fails with RESOURCE_LIMIT, and the next job runs on a fresh thread", async () => {
  const pool = new WorkerPool({
    entry,
    handlers: {},
    size: 1,
    resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 },
  });
  try {
    assert.equal(pool.threaded, true);
    const rssBefore = process.memoryUsage().rss;
    await assert.rejects(
      pool.run('grow', {}, { timeoutMs: 60_000 }),
      (e) => isAutoSnippetError(e) && e.code === 'RESOURCE_LIMIT' && /64 MB/.test(e.message),
    );
    assert.ok(process.memoryUsage().rss - rssBefore < 512 * 1024 * 1024, 'the thread was stopped near its limit');
    assert.deepEqual(await pool.run('echo', { ok: 1 }), { ok: 1 });
  } finally {
    await pool.dispose();
  }
});
