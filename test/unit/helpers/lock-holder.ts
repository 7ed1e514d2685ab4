// Lock processes for the lock tests. Args:
//   hold LOCKPATH                  take the lock, print "locked", wait to be killed
//   contend LOCKPATH GOFILE HOLD   print "ready"; once GOFILE exists, take the lock, breaking it when stale
//                                  with a random pause between judging and breaking (to widen the race
//                                  between breakers), hold it HOLD ms, print {acquiredAt, releasedAt}
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { breakStaleLock, FileLock, isStale, readLock } from '../../../src/core/ground/store/lock';

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const [mode, lockPath, goFile, holdMs] = process.argv.slice(2);
  const lock = new FileLock(lockPath, 20_000);
  if (mode === 'hold') {
    await lock.acquire();
    process.stdout.write('locked\n');
    setInterval(() => undefined, 60_000);
    return;
  }
  process.stdout.write('ready\n');
  while (!fs.existsSync(goFile)) await sleep(1);
  const deadline = Date.now() + 20_000;
  while (!lock.tryAcquire()) {
    if (Date.now() > deadline) throw new Error('never got the lock');
    const seen = readLock(lockPath);
    if (seen && isStale(seen)) {
      await sleep(Math.random() * 4);
      breakStaleLock(lockPath, seen);
    } else await sleep(1);
  }
  const acquiredAt = now();
  // The order of holding, written by the holders themselves into one append-only log: no clocks to compare.
  fs.appendFileSync(`${lockPath}.order`, `enter ${process.pid}\n`);
  await sleep(Number(holdMs));
  fs.appendFileSync(`${lockPath}.order`, `exit ${process.pid}\n`);
  const releasedAt = now();
  lock.release();
  process.stdout.write(JSON.stringify({ acquiredAt, releasedAt }) + '\n');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
