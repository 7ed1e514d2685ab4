// The sql.js store: opening (next to a plain sql.js open of the same file), a durable commit (journal
// append + fdatasync) next to sql.js's plain export-and-write of the whole database, and checkpoints,
// at 10,000 and 100,000 rows.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import initSqlJs from 'sql.js';
import { Store } from '../src/core/ground/store/store';
import type { Migration } from '../src/core/ground/store/types';
import { type BenchTable, median, ms, percentile, ratio, sample } from './lib';

const migrations: Migration[] = [
  // A full-text index beside the rows, as the recipe index has: it doubles the image and its pages.
  {
    version: 1,
    name: 'docs',
    up:
      'CREATE TABLE docs (id INTEGER PRIMARY KEY, path TEXT NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL); CREATE INDEX docs_path ON docs (path); CREATE VIRTUAL TABLE docs_fts USING fts4(title, body);',
  },
];
const OPENS = 9;
const COMMITS = 100;
const NEVER = Number.MAX_SAFE_INTEGER;

const words =
  'recipe guard rule skill pattern swift objc typescript module import export function class async await error handler cache index query table'
    .split(' ');
/** A row of about 400 bytes of text, like a recipe summary. */
function row(i: number): [string, string, string] {
  let body = '';
  for (let k = 0; body.length < 340; k++) body += words[(i * 7 + k * 13) % words.length] + ' ';
  return [
    `src/module${i % 97}/file${i}.ts`,
    `Recipe ${i}: ${words[i % words.length]} ${words[(i * 3) % words.length]}`,
    body,
  ];
}

async function buildFixture(dir: string, rows: number): Promise<string> {
  const dbPath = path.join(dir, `bench-${rows}.db`);
  const store = await Store.open({ dbPath, migrations, checkpointBytes: NEVER });
  for (let start = 0; start < rows; start += 5000) {
    await store.transaction((tx) => {
      for (let i = start; i < Math.min(rows, start + 5000); i++) {
        const r = row(i);
        tx.run('INSERT INTO docs (path, title, body) VALUES (?, ?, ?)', r);
        tx.run('INSERT INTO docs_fts (docid, title, body) VALUES (last_insert_rowid(), ?, ?)', [r[1], r[2]]);
      }
    });
  }
  await store.close();
  return dbPath;
}

const insertOne = (i: number) => (tx: Parameters<Parameters<Store['transaction']>[0]>[0]) => {
  tx.run('INSERT INTO docs (path, title, body) VALUES (?, ?, ?)', row(1_000_000 + i));
};

/** What sql.js users do without a journal: export the whole database and write it durably after each change. */
async function plainCommits(dbPath: string, n: number): Promise<{ commits: number[]; exports: number[] }> {
  const SQL = await initSqlJs({ locateFile: (f: string) => require.resolve(`sql.js/dist/${f}`) });
  const db = new SQL.Database(fs.readFileSync(dbPath));
  const target = path.join(path.dirname(dbPath), 'plain.db');
  const exports: number[] = [];
  try {
    const commits = await sample(n, (i) => {
      db.run('INSERT INTO docs (path, title, body) VALUES (?, ?, ?)', row(2_000_000 + i));
      const t0 = performance.now();
      const bytes = db.export();
      exports.push(performance.now() - t0);
      const fd = fs.openSync(target, 'w');
      try {
        fs.writeSync(fd, bytes);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
    });
    return { commits, exports };
  } finally {
    db.close();
  }
}

type SqlJs = Awaited<ReturnType<typeof initSqlJs>>;

/** What a sql.js user does to open a database file: read it and hand the bytes to sql.js. */
function plainOpen(SQL: SqlJs, dbPath: string): void {
  const db = new SQL.Database(fs.readFileSync(dbPath));
  db.exec('SELECT count(*) FROM sqlite_master');
  db.close();
}

/** Opens, interleaved with plain sql.js opens of the same file, after a clean close and without a journal (as after a crash before checksums). */
async function opens(SQL: SqlJs, dbPath: string): Promise<{ plain: number[]; ours: number[]; unvouched: number[] }> {
  const bare = path.join(path.dirname(dbPath), `bare-${path.basename(dbPath)}`);
  fs.copyFileSync(dbPath, bare); // an image with no journal: nothing vouches for it, so SQLite's page walk runs
  const out = { plain: [] as number[], ours: [] as number[], unvouched: [] as number[] };
  const timed = async (open: () => Promise<Store>): Promise<number> => {
    const t0 = performance.now();
    const store = await open();
    const t = performance.now() - t0;
    await store.close();
    return t;
  };
  for (let i = -1; i < OPENS; i++) {
    const t0 = performance.now();
    plainOpen(SQL, dbPath);
    const plain = performance.now() - t0;
    const ours = await timed(() => Store.open({ dbPath, migrations }));
    const unvouched = await timed(() => Store.open({ dbPath: bare, migrations }));
    fs.rmSync(`${bare}.journal`, { force: true }); // closing wrote one that vouches for it: take it away again
    if (i < 0) continue; // warm-up
    out.plain.push(plain);
    out.ours.push(ours);
    out.unvouched.push(unvouched);
  }
  return out;
}

export async function run(): Promise<BenchTable[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'autosnippet-bench-store-'));
  const SQL = await initSqlJs({ locateFile: (f: string) => require.resolve(`sql.js/dist/${f}`) });
  const openRows: (string | number)[][] = [];
  const commitRows: (string | number)[][] = [];
  try {
    for (const rows of [10_000, 100_000]) {
      const dbPath = await buildFixture(dir, rows);
      const imageBytes = fs.statSync(dbPath).size;

      const o = await opens(SQL, dbPath);

      const store = await Store.open({ dbPath, migrations, checkpointBytes: NEVER });
      const ours = await sample(COMMITS, (i) => store.transaction(insertOne(i)), 3);
      const checkpoints: number[] = [];
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 20; i++) await store.transaction(insertOne(10_000 + round * 100 + i));
        checkpoints.push(...(await sample(1, () => store.checkpoint(), 0)));
      }
      await store.close();

      const { commits: plain, exports } = await plainCommits(dbPath, COMMITS);
      openRows.push([
        rows.toLocaleString('en'),
        `${(imageBytes / 2 ** 20).toFixed(1)} MB`,
        ms(median(o.plain)),
        ms(median(o.ours)),
        ratio(median(o.ours), median(o.plain)),
        ms(median(o.unvouched)),
        ms(median(checkpoints)),
        ms(median(exports)),
      ]);
      commitRows.push([
        rows.toLocaleString('en'),
        ms(percentile(ours, 50)),
        ms(percentile(ours, 95)),
        ms(percentile(plain, 50)),
        ms(percentile(plain, 95)),
        ratio(percentile(ours, 50), percentile(plain, 50)),
      ]);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return [
    {
      title: 'Store: open and checkpoint (rows of ~400 bytes of text, with a full-text index)',
      columns: [
        'rows',
        'image',
        'plain sql.js open (read + new Database)',
        'store open',
        'store vs plain',
        'store open, nothing vouching for the image',
        'checkpoint (median of 3)',
        'of which db.export() (blocks the event loop)',
      ],
      rows: openRows,
      notes: [
        `Medians of ${OPENS} interleaved opens of the same file, sql.js already initialised. A store open checks the whole image against the CRC-32 its journal recorded (zlib.crc32), reads the journal and the schema version.`,
        "Nothing vouching for the image: no journal beside it (after an unclean shutdown of a version without checksums, or a journal moved aside), so SQLite's PRAGMA quick_check walks every page instead.",
        'A checkpoint exports the image, writes a temp file, fsyncs, renames and starts an empty journal; it runs off the commit path once the journal passes 4 MB.',
      ],
    },
    {
      title: 'Store: a committed, durable write (one ~400-byte row)',
      columns: [
        'rows',
        'journal commit p50',
        'p95',
        'sql.js export + write + fsync p50',
        'p95',
        'journal vs export (p50)',
      ],
      rows: commitRows,
      notes: [
        `Journal commit: lock file, catch-up check, transaction, one journal record appended and fdatasync'ed, unlock (${COMMITS} commits).`,
        'Export + write + fsync: the same insert on a plain sql.js database, then db.export() and a durable write of the whole image per commit.',
      ],
    },
  ];
}
