// Issue 10, "Done when": at least 1,000 SIGKILL trials with no acknowledged write lost and no silent
// loss on a torn journal. Run with `npm run test:fuzz` (several minutes); the unit suite runs a short
// form of the same trials (test/slow/store-reliability.test.ts). AUTOSNIPPET_KILL_TRIALS overrides the count.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, it } from 'node:test';
import { describeTally, emptyTally, killLane } from '../unit/helpers/kill-trials';
import { removeTempDirs } from '../unit/helpers/store-fixtures';

after(removeTempDirs);

it('1,000+ SIGKILL trials: no acknowledged write lost, every commit a cut journal lost is reported', {
  timeout: 60 * 60 * 1000,
}, async (t) => {
  const total = Number(process.env.AUTOSNIPPET_KILL_TRIALS ?? 1020);
  const lanes = 3;
  const tally = emptyTally();
  const t0 = performance.now();
  await Promise.all(
    Array.from(
      { length: lanes },
      (_, lane) => killLane(lane, Math.ceil(total / lanes), tally, { cutEvery: 3, pairEvery: 4 }),
    ),
  );
  const summary = describeTally(tally, (performance.now() - t0) / 1000);
  t.diagnostic(summary);
  process.stderr.write(summary + '\n');
  assert.ok(tally.trials >= total);
  assert.equal(tally.ackedLost, 0, 'no acknowledged write lost');
  assert.equal(tally.silentLosses, 0, 'every commit a cut removed was reported');
  assert.equal(tally.damageReports, 0, 'a kill never looks like damage');
});
