// SIGKILL trials against the store (issue 10 item 5): writer processes are killed at random moments
// (during start-up, commits and checkpoints); in some trials the journal is then cut inside its last
// record, as a disk that lost the end of a file would leave it. After each trial the database is
// opened and checked: every acknowledged write present, each transaction applied once, and every
// commit the cut removed reported by number (a silent loss is a failure).
import { buildSync } from 'esbuild';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { readJournal } from '../../../src/core/ground/store/journal';
import { Store } from '../../../src/core/ground/store/store';
import { body, exited, itemMigrations, onLines, repoRoot, tempDir } from './store-fixtures';

export interface KillTally {
  trials: number;
  /** Trials with two writers on the database at once. */
  pairs: number;
  duringStartup: number;
  acked: number;
  /** Acknowledged writes missing after a kill, not counting those a deliberate cut removed. */
  ackedLost: number;
  /** Trials whose journal was cut inside its last record. */
  cut: number;
  /** Of those: the cut commit was lost and reported by number; was already in the image; lost without a report. */
  cutReported: number;
  cutHarmless: number;
  silentLosses: number;
  /** A kill that left the store reporting damage (it never should). */
  damageReports: number;
  midCheckpoint: number;
  lockLeft: number;
  reopenMs: number[];
  /** What went wrong, for the first few anomalies. */
  notes: string[];
}

export function emptyTally(): KillTally {
  return {
    trials: 0,
    pairs: 0,
    duringStartup: 0,
    acked: 0,
    ackedLost: 0,
    cut: 0,
    cutReported: 0,
    cutHarmless: 0,
    silentLosses: 0,
    damageReports: 0,
    midCheckpoint: 0,
    lockLeft: 0,
    reopenMs: [],
    notes: [],
  };
}

function note(tally: KillTally, text: string): void {
  if (tally.notes.length < 10) tally.notes.push(text);
}

let writerBundle: string | undefined;

/** The writer helper bundled once: a process then starts in a fifth of the time tsx takes. */
function writerScript(): string {
  if (writerBundle) return writerBundle;
  const outfile = path.join(repoRoot, 'node_modules', '.cache', 'autosnippet-tests', `store-writer-${process.pid}.js`);
  buildSync({
    entryPoints: [path.join(__dirname, 'store-writer.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile,
    external: ['sql.js'],
    logLevel: 'error',
  });
  process.once('exit', () => fs.rmSync(outfile, { force: true }));
  return (writerBundle = outfile);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Writer {
  exit: ReturnType<typeof exited>;
  kill(): void;
  firstWrite: Promise<void>;
}

function startWriter(dbPath: string, tag: string, acked: Set<string>): Writer {
  const child = spawn(process.execPath, [writerScript(), dbPath, tag, 'forever', String(16 * 1024), '1000'], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exit = exited(child);
  let writing: () => void = () => undefined;
  const firstWrite = new Promise<void>((r) => (writing = r));
  onLines(child, (line) => line !== 'ready' && (acked.add(line), writing()));
  return { exit, firstWrite, kill: () => child.kill('SIGKILL') };
}

/** Cuts the journal inside its last record; returns that record's sequence and the item id it inserted. */
function cutLastRecord(journal: string): { seq: number; id: string } | undefined {
  const read = readJournal(journal);
  if (read.kind !== 'ok' || read.tail || read.records.length === 0) return undefined;
  const last = read.records[read.records.length - 1];
  const start = read.records.length > 1 ? read.records[read.records.length - 2].end : read.header.size;
  const params = last.ops[0]?.[1];
  const id = Array.isArray(params) ? String(params[0]) : '';
  fs.truncateSync(journal, start + 1 + Math.floor(Math.random() * (last.end - start - 1)));
  return { seq: last.seq, id };
}

/**
 * Runs `trials` kill trials on one database. Every `cutEvery`-th trial also cuts the journal;
 * every `pairEvery`-th runs two writers at once and kills both.
 */
export async function killLane(
  lane: number,
  trials: number,
  tally: KillTally,
  options: { cutEvery: number; pairEvery: number },
): Promise<void> {
  const dbPath = path.join(tempDir(), 'kill.db');
  // Some rows in the image and a small checkpointBytes, so kills also land inside checkpoints.
  const seed = await Store.open({ dbPath, migrations: itemMigrations });
  await seed.transaction((tx) => {
    for (let i = 0; i < 600; i++) {
      tx.run('INSERT INTO items (id, writer, body) VALUES (?, ?, ?)', [`seed-${i}`, 'seed', body(`seed-${i}`, 1000)]);
    }
    tx.run('UPDATE counter SET n = n + 600');
  });
  await seed.close();
  const acked = new Set<string>();
  const cutAway = new Set<string>();
  for (let trial = 0; trial < trials; trial++) {
    const name = `lane ${lane} trial ${trial}`;
    const pair = trial % options.pairEvery === options.pairEvery - 1;
    const duringStartup = trial % 6 === 0;
    const writers = (pair ? ['a', 'b'] : ['a']).map((w) => startWriter(dbPath, `l${lane}t${trial}${w}`, acked));
    await Promise.all(
      writers.map(async (w) => {
        // Start-up kills land anywhere from spawn on; the others while writes and checkpoints are flowing.
        if (duringStartup) await sleep(Math.random() * 400);
        else await Promise.race([w.firstWrite.then(() => sleep(Math.random() * 200)), w.exit]);
        w.kill();
        const result = await w.exit;
        assert.equal(result.signal, 'SIGKILL', `${name}: a writer ended by itself: ${result.stderr}`);
      }),
    );
    tally.trials++;
    if (pair) tally.pairs++;
    if (duringStartup) tally.duringStartup++;
    const left = fs.readdirSync(path.dirname(dbPath));
    if (left.some((f) => f.includes('.tmp-'))) tally.midCheckpoint++;
    if (left.includes('kill.db.lock')) tally.lockLeft++;

    const cut = trial % options.cutEvery === options.cutEvery - 1 ? cutLastRecord(`${dbPath}.journal`) : undefined;
    if (cut) tally.cut++;

    const r0 = performance.now();
    const store = await Store.open({ dbPath, migrations: itemMigrations, lockTimeoutMs: 5000 });
    tally.reopenMs.push(performance.now() - r0);
    if (store.state.recovered) {
      tally.damageReports++;
      note(tally, `${name}: damage reported: ${store.state.recovered.reason}`);
    }
    const present = new Set(store.all<{ id: string }>('SELECT id FROM items').map((r) => r.id));
    if (cut) {
      const lost = store.state.lostCommit;
      if (present.has(cut.id)) {
        tally.cutHarmless++;
        assert.equal(lost, undefined, `${name}: nothing was lost, yet a loss was reported`);
      } else if (lost?.sequence === cut.seq && fs.existsSync(lost.savedTo)) {
        tally.cutReported++;
        cutAway.add(cut.id);
      } else {
        tally.silentLosses++;
        note(tally, `${name}: the cut of commit ${cut.seq} (${cut.id}) was not reported (${JSON.stringify(lost)})`);
      }
    }
    for (const id of acked) {
      if (present.has(id) || cutAway.has(id)) continue;
      tally.ackedLost++;
      note(tally, `${name}: ${id} was acknowledged but is missing`);
      cutAway.add(id); // count each loss once
    }
    assert.equal(
      store.get<{ n: number }>('SELECT n FROM counter')?.n,
      present.size,
      `${name}: each transaction applied exactly once`,
    );
    await store.close(); // takes the lock a dead writer may have left, checkpoints
  }
  tally.acked += acked.size;
}

export function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

export function describeTally(t: KillTally, seconds: number): string {
  return (
    `${t.trials} SIGKILL trials (${t.pairs} with two writers, ${t.duringStartup} during start-up): ${t.acked} writes acknowledged, ${t.ackedLost} lost; `
    + `journal cut inside its last record ${t.cut}×: ${t.cutReported} lost commits reported by number, ${t.cutHarmless} already in the image, ${t.silentLosses} silent losses; `
    + `damage reported after a kill ${t.damageReports}×; kills left a checkpoint's temp file ${t.midCheckpoint}×, the lock ${t.lockLeft}×; `
    + `reopen after a kill p50 ${median(t.reopenMs).toFixed(0)} ms, max ${Math.max(...t.reopenMs).toFixed(0)} ms; ${
      seconds.toFixed(0)
    } s`
    + (t.notes.length ? `\n  ${t.notes.join('\n  ')}` : '')
  );
}
