// Issue 2, item 7: the store under concurrent processes, SIGKILL at random moments, and dead lock holders.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { after, describe, it } from 'node:test';
import { readJournal } from '../../src/core/store/journal';
import { Store } from '../../src/core/store/store';
import { body, deadPid, exited, itemMigrations, onLines, spawnHelper, removeTempDirs, tempDir } from '../unit/helpers/store-fixtures';

after(removeTempDirs);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('store reliability', () => {
  it('two processes committing 500 writes each at the same time end with all 1,000', async (t) => {
    const dbPath = path.join(tempDir(), 'race.db');
    const t0 = performance.now();
    const writers = ['p1', 'p2'].map((tag) => {
      const child = spawnHelper('store-writer.ts', [dbPath, tag, '500', String(16 * 1024), '300']);
      const acked: string[] = [];
      let stats = '';
      onLines(child, (line) => (line.startsWith('done ') ? (stats = line.slice(5)) : line !== 'ready' && acked.push(line)));
      return { tag, acked, exit: exited(child), stats: () => stats };
    });
    const results = await Promise.all(writers.map((w) => w.exit));
    const seconds = (performance.now() - t0) / 1000;
    results.forEach((r, i) => assert.equal(r.code, 0, `writer ${writers[i].tag} failed: ${r.stderr}`));

    const store = await Store.open({ dbPath, migrations: itemMigrations });
    const rows = store.all<{ id: string }>('SELECT id FROM items');
    const counter = store.get<{ n: number }>('SELECT n FROM counter')?.n;
    await store.close();
    const present = new Set(rows.map((r) => r.id));
    for (const w of writers) {
      assert.equal(w.acked.length, 500);
      for (const id of w.acked) assert.ok(present.has(id), `${id} was acknowledged but is missing`);
    }
    assert.equal(rows.length, 1000);
    assert.equal(counter, 1000, 'every transaction applied exactly once');
    const images = writers.map((w) => JSON.parse(w.stats()).imagesSeen as number);
    assert.ok(images.every((n) => n > 3), `checkpoints happened during the race (images seen: ${images})`);
    t.diagnostic(`2 processes × 500 commits = ${rows.length} rows in ${seconds.toFixed(1)} s (incl. process start); checkpoint images seen per writer: ${images.join(', ')}`);
  });

  it('a writer killed with SIGKILL at random moments never loses an acknowledged write or breaks the database', async (t) => {
    const lanes = 2; // two databases side by side, 30 trials each
    const trialsPerLane = 30;
    const tally = { trials: 0, duringStartup: 0, acked: 0, rows: 0, midCheckpoint: 0, tornTail: 0, lockLeft: 0, imageMb: 0, reopenMs: [] as number[] };
    const t0 = performance.now();
    await Promise.all(Array.from({ length: lanes }, (_, lane) => killLane(lane, trialsPerLane, tally)));
    const seconds = (performance.now() - t0) / 1000;
    t.diagnostic(
      `${tally.trials} SIGKILL trials (${tally.duringStartup} during start-up) on ${lanes} databases: ${tally.acked} writes acknowledged, all present after every kill ` +
        `(${tally.rows} rows incl. seed); kill left a checkpoint's temp file ${tally.midCheckpoint}×, a torn journal tail ${tally.tornTail}×, the lock ${tally.lockLeft}×; ` +
        `images ${tally.imageMb.toFixed(1)} MB in all; reopen after kill p50 ${median(tally.reopenMs).toFixed(0)} ms, max ${Math.max(...tally.reopenMs).toFixed(0)} ms; ${seconds.toFixed(1)} s`,
    );
    assert.equal(tally.trials, lanes * trialsPerLane);
    assert.ok(tally.acked > tally.trials, 'the writers got writes in before being killed');
  });

  it('a lock left by a killed process does not block the next writer', async (t) => {
    const dbPath = path.join(tempDir(), 'dead.db');
    const setup = await Store.open({ dbPath, migrations: itemMigrations });
    await setup.close();
    const holder = spawnHelper('lock-holder.ts', ['hold', `${dbPath}.lock`]);
    const exit = exited(holder);
    await new Promise<void>((resolve) => onLines(holder, (l) => l === 'locked' && resolve()));
    holder.kill('SIGKILL');
    await exit;
    assert.equal(JSON.parse(fs.readFileSync(`${dbPath}.lock`, 'utf8')).pid, holder.pid, 'the dead holder left its lock');

    const store = await Store.open({ dbPath, migrations: itemMigrations, lockTimeoutMs: 5000 });
    const t0 = performance.now();
    await store.transaction((tx) => tx.run("INSERT INTO items VALUES ('x', 'w', 'b')"));
    const ms = performance.now() - t0;
    assert.ok(ms < 1000, `the write waited ${ms} ms`);
    assert.equal(fs.existsSync(`${dbPath}.lock`), false);
    await store.close();
    t.diagnostic(`write after a SIGKILLed lock holder took ${ms.toFixed(1)} ms`);
  });

  it('four processes racing to break the same stale lock hold it one at a time', async (t) => {
    const lockPath = path.join(tempDir(), 'race.lock');
    fs.writeFileSync(lockPath, JSON.stringify({ pid: await deadPid(), hostname: os.hostname(), createdAt: new Date().toISOString(), token: 'dead' }));
    const goFile = `${lockPath}.go`;
    const children = [0, 1, 2, 3].map(() => spawnHelper('lock-holder.ts', ['contend', lockPath, goFile, '60']));
    const spans: { acquiredAt: number; releasedAt: number }[] = [];
    let ready = 0;
    let allReady: () => void = () => undefined;
    const started = new Promise<void>((r) => (allReady = r));
    children.forEach((c) => onLines(c, (l) => (l === 'ready' ? ++ready === 4 && allReady() : spans.push(JSON.parse(l)))));
    await started;
    const startAt = performance.timeOrigin + performance.now();
    fs.writeFileSync(goFile, ''); // all four see it within a millisecond or two and race for the stale lock
    const results = await Promise.all(children.map(exited));
    results.forEach((r) => assert.equal(r.code, 0, r.stderr));
    assert.equal(spans.length, 4);
    spans.sort((a, b) => a.acquiredAt - b.acquiredAt);
    for (let i = 1; i < spans.length; i++) {
      assert.ok(spans[i].acquiredAt >= spans[i - 1].releasedAt, `holders ${i - 1} and ${i} overlapped`);
    }
    assert.ok(spans[0].acquiredAt - startAt < 1000, 'the stale lock was broken promptly');
    t.diagnostic(`4 breakers; first got the lock ${(spans[0].acquiredAt - startAt).toFixed(1)} ms after the start signal; no overlap`);
  });
});

interface KillTally {
  trials: number;
  duringStartup: number;
  acked: number;
  rows: number;
  midCheckpoint: number;
  tornTail: number;
  lockLeft: number;
  imageMb: number;
  reopenMs: number[];
}

/** Kills a writer of one database `trials` times; after each kill, opens the database and checks every acknowledged write. */
async function killLane(lane: number, trials: number, tally: KillTally): Promise<void> {
  const dbPath = path.join(tempDir(), 'kill.db');
  // A couple of MB in the image and a small checkpointBytes, so kills also land inside checkpoints.
  const seed = await Store.open({ dbPath, migrations: itemMigrations });
  await seed.transaction((tx) => {
    for (let i = 0; i < 2000; i++) tx.run('INSERT INTO items (id, writer, body) VALUES (?, ?, ?)', [`seed-${i}`, 'seed', body(`seed-${i}`, 1000)]);
    tx.run('UPDATE counter SET n = n + 2000');
  });
  await seed.close();
  const acked = new Set<string>();
  for (let trial = 0; trial < trials; trial++) {
    const name = `lane ${lane} trial ${trial}`;
    const child = spawnHelper('store-writer.ts', [dbPath, `l${lane}t${trial}`, 'forever', String(16 * 1024), '1000']);
    const exit = exited(child);
    const duringStartup = trial % 6 === 0;
    let writing: () => void = () => undefined;
    const firstWrite = new Promise<void>((r) => (writing = r));
    onLines(child, (line) => line !== 'ready' && (acked.add(line), writing()));
    // Start-up kills land anywhere from spawn on; the others while writes and checkpoints are flowing.
    if (duringStartup) await sleep(Math.random() * 900);
    else await Promise.race([firstWrite.then(() => sleep(Math.random() * 300)), exit]);
    child.kill('SIGKILL');
    const result = await exit;
    assert.equal(result.signal, 'SIGKILL', `${name}: the writer ended by itself: ${result.stderr}`);
    tally.trials++;
    if (duringStartup) tally.duringStartup++;

    const left = fs.readdirSync(path.dirname(dbPath));
    if (left.some((f) => f.includes('.tmp-'))) tally.midCheckpoint++;
    if (left.includes('kill.db.lock')) tally.lockLeft++;
    const j = readJournal(`${dbPath}.journal`);
    if (j.kind === 'ok' && j.tail?.kind === 'torn') tally.tornTail++;

    const r0 = performance.now();
    const store = await Store.open({ dbPath, migrations: itemMigrations, lockTimeoutMs: 5000 });
    tally.reopenMs.push(performance.now() - r0);
    assert.equal(store.state.recovered, undefined, `${name}: a kill must never look like damage`);
    const present = new Set(store.all<{ id: string }>('SELECT id FROM items').map((r) => r.id));
    for (const id of acked) assert.ok(present.has(id), `${name}: ${id} was acknowledged but is missing`);
    assert.equal(store.get<{ n: number }>('SELECT n FROM counter')?.n, present.size, `${name}: each transaction applied exactly once`);
    if (trial === trials - 1) tally.rows += present.size;
    await store.close(); // takes the lock the dead writer may have left, cuts a torn tail, checkpoints
  }
  tally.acked += acked.size;
  tally.imageMb += fs.statSync(dbPath).size / 2 ** 20;
}

function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}
