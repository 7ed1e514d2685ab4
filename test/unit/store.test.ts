import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { isAutoSnippetError } from '../../src/core/ground/kernel/errors';
import { encodeRecord, JOURNAL_HEADER_BYTES, readJournal } from '../../src/core/ground/store/journal';
import { breakStaleLock, FileLock, isStale, readLock } from '../../src/core/ground/store/lock';
import { Store } from '../../src/core/ground/store/store';
import type { Migration } from '../../src/core/ground/store/types';
import { body, deadPid, itemMigrations, removeTempDirs, tempDir } from './helpers/store-fixtures';

after(removeTempDirs);

const open = (dbPath: string, extra: Partial<Parameters<typeof Store.open>[0]> = {}) =>
  Store.open({ dbPath, migrations: itemMigrations, ...extra });

async function insert(store: Store, id: string, bytes = 100): Promise<void> {
  await store.transaction((tx) => {
    tx.run('INSERT INTO items (id, writer, body) VALUES (?, ?, ?)', [id, 'test', body(id, bytes)]);
    tx.run('UPDATE counter SET n = n + 1');
  });
}

const ids = (store: Store) => store.all<{ id: string }>('SELECT id FROM items ORDER BY id').map((r) => r.id);

describe('store: persistence and migrations', () => {
  it('creates a database, and a reopened store has its rows (after close and after a crash without close)', async () => {
    const dbPath = path.join(tempDir(), 'a.db');
    const a = await open(dbPath);
    await insert(a, 'one');
    await a.close();
    assert.ok(fs.statSync(dbPath).size > 0, 'close writes the image');
    const b = await open(dbPath);
    assert.deepEqual(ids(b), ['one']);
    await insert(b, 'two'); // b is never closed: the journal alone must carry the write
    const c = await open(dbPath);
    assert.deepEqual(ids(c), ['one', 'two']);
    assert.equal(c.get<{ n: number }>('SELECT n FROM counter')?.n, 2);
    await c.close();
  });

  it("reports another process's migration in its state, and keeps the version between commits", async () => {
    const dbPath = path.join(tempDir(), 'sv.db');
    const v1: Migration = { version: 1, name: 'notes', up: 'CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)' };
    const v2: Migration = { version: 2, name: 'tags', up: 'ALTER TABLE notes ADD COLUMN tag TEXT' };
    const a = await Store.open({ dbPath, migrations: [v1] });
    await a.transaction((tx) => tx.run("INSERT INTO notes (text) VALUES ('x')"));
    assert.equal(a.state.schemaVersion, 1);
    const b = await Store.open({ dbPath, migrations: [v1, v2] }); // a is still open: a second process migrates
    assert.equal(b.state.schemaVersion, 2);
    await new Promise((resolve) => setImmediate(resolve)); // a looks at the disk once per turn of the event loop
    assert.equal(a.state.schemaVersion, 2, "a's state follows b's migration");
    await b.close();
    await a.close();
  });

  it('applies migrations once, in version order, and a new one on reopen', async () => {
    const dbPath = path.join(tempDir(), 'm.db');
    const v1: Migration = { version: 1, name: 'notes', up: 'CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)' };
    const v2: Migration = { version: 2, name: 'seed', up: "INSERT INTO notes (text) VALUES ('seeded')" };
    const v3: Migration = {
      version: 3,
      name: 'tags',
      up: 'ALTER TABLE notes ADD COLUMN tag TEXT; CREATE INDEX notes_tag ON notes(tag);',
    };
    const a = await Store.open({ dbPath, migrations: [v2, v1] }); // listed out of order: v2 needs v1's table
    assert.equal(a.state.schemaVersion, 2);
    await a.close();
    const b = await Store.open({ dbPath, migrations: [v1, v2, v3] });
    assert.equal(b.state.schemaVersion, 3);
    assert.deepEqual(b.all('SELECT version, name FROM _store_migrations ORDER BY rowid'), [
      { version: 1, name: 'notes' },
      { version: 2, name: 'seed' },
      { version: 3, name: 'tags' },
    ]);
    assert.equal(b.all('SELECT * FROM notes').length, 1, 'the seed ran once');
    await b.close();
    const c = await Store.open({ dbPath, migrations: [v1, v2, v3] });
    assert.equal(c.all('SELECT * FROM notes').length, 1, 'nothing re-applied on a third open');
    await c.close();
  });

  it('rolls back a transaction that throws, journals nothing, and rethrows', async () => {
    const dbPath = path.join(tempDir(), 'r.db');
    const store = await open(dbPath);
    await insert(store, 'kept');
    const before = { journal: fs.statSync(`${dbPath}.journal`).size, seq: store.state.sequence };
    await assert.rejects(
      store.transaction((tx) => {
        tx.run('INSERT INTO items (id, writer, body) VALUES (?, ?, ?)', ['lost', 't', 'x']);
        throw new Error('boom');
      }),
      /boom/,
    );
    assert.deepEqual(ids(store), ['kept']);
    assert.equal(fs.statSync(`${dbPath}.journal`).size, before.journal);
    assert.equal(store.state.sequence, before.seq);
    await insert(store, 'after');
    const other = await open(dbPath);
    assert.deepEqual(ids(other), ['after', 'kept']);
    await store.close();
    await other.close();
  });

  it('reads its own writes, inside the transaction and after it', async () => {
    const store = await open(path.join(tempDir(), 'w.db'));
    const seen = await store.transaction((tx) => {
      const r = tx.run('INSERT INTO items (id, writer, body) VALUES (?, ?, ?)', ['x', 't', 'b']);
      assert.equal(r.changes, 1);
      return tx.get<{ id: string }>('SELECT id FROM items WHERE id = :id', { id: 'x' })?.id;
    });
    assert.equal(seen, 'x');
    assert.deepEqual(ids(store), ['x']);
    await store.close();
  });

  it('refuses writes through all()/get(), async transaction functions and nested transactions', async () => {
    const store = await open(path.join(tempDir(), 'g.db'));
    assert.throws(() => store.all("INSERT INTO items VALUES ('a', 'b', 'c')"), /only read/);
    await assert.rejects(store.transaction((async () => 1) as never), /synchronous/);
    await assert.rejects(store.transaction(() => store.transaction(() => 1)), /synchronous/);
    assert.deepEqual(ids(store), []);
    await store.close();
  });
});

describe('store: several instances on one file', () => {
  it("a memo is computed once and again after any commit: this instance's, another's, or a derived write before the file exists", async () => {
    // In a folder that does not exist yet, so a derived write is held in memory (the first real write creates it).
    const dbPath = path.join(tempDir(), 'data', 'memo.db');
    const beforeCreate = () => void fs.mkdirSync(path.dirname(dbPath), { recursive: true });
    const a = await open(dbPath, { beforeCreate });
    const b = await open(dbPath, { beforeCreate });
    let computed = 0;
    const count = (s: Store) =>
      s.memo('count', () => (computed++, s.get<{ n: number }>('SELECT count(*) AS n FROM items')!.n));
    assert.equal(count(a), 0);
    assert.equal(count(a), 0);
    assert.equal(computed, 1, 'reused while nothing changed');
    await a.transaction(
      (tx) => tx.run('INSERT INTO items (id, writer, body) VALUES (?, ?, ?)', ['d', 'test', body('d', 10)]),
      { derived: true },
    );
    assert.equal(fs.existsSync(dbPath), false, 'a derived write stays in memory');
    assert.equal(count(a), 1, 'after a write held in memory');
    await insert(a, 'one');
    assert.equal(count(a), 2, 'after this instance commits');
    assert.equal(count(b), 2, 'the derived row went to disk with the first real write');
    await insert(b, 'two');
    await new Promise((r) => setImmediate(r)); // a looks at the disk once per turn of the event loop
    assert.equal(count(a), 3, "after another instance's commit");
    const before = computed;
    assert.equal(count(a), 3);
    assert.equal(computed, before);
    await a.close();
    await b.close();
  });

  it("sees another instance's commits without reopening: from the journal, then across its checkpoints", async (t) => {
    const dbPath = path.join(tempDir(), 's.db');
    const a = await open(dbPath);
    const b = await open(dbPath);
    assert.equal(fs.existsSync(dbPath), false, 'nothing on disk before the first write');
    await insert(a, 'a1');
    const created = fs.statSync(dbPath).ino;
    await a.transaction((tx) => tx.run('UPDATE items SET body = ? WHERE id = ?', [new Uint8Array([0, 1, 255]), 'a1']));
    assert.equal(
      fs.statSync(dbPath).ino,
      created,
      'the image is the one the first write created, with the schema only',
    );
    const journaled = readJournal(`${dbPath}.journal`);
    assert.equal(journaled.kind === 'ok' && journaled.records.length, 2, 'b can only learn a1 from the journal');
    assert.deepEqual(ids(b), ['a1']);
    assert.deepEqual(b.get<{ body: Uint8Array }>('SELECT body FROM items')?.body, new Uint8Array([0, 1, 255]));

    const imageReads = t.mock.method(fs, 'readFileSync');
    const readsOfImage = () => imageReads.mock.calls.filter((c) => c.arguments[0] === dbPath).length;
    await insert(a, 'a2'); // b has not seen a2 when a folds it into the image: b must load the image
    await a.checkpoint();
    assert.equal(fs.statSync(`${dbPath}.journal`).size, JOURNAL_HEADER_BYTES, 'the checkpoint emptied the journal');
    await insert(a, 'a3');
    assert.deepEqual(ids(b), ['a1', 'a2', 'a3']);
    assert.equal(readsOfImage(), 1, 'b reloaded the image once');

    await a.checkpoint(); // b is current this time: it keeps its copy and reads only the new journal
    await insert(a, 'a4');
    assert.deepEqual(ids(b), ['a1', 'a2', 'a3', 'a4']);
    assert.equal(readsOfImage(), 1, 'no second image load');
    assert.equal(b.state.sequence, a.state.sequence);
    imageReads.mock.restore();

    await insert(b, 'b1'); // and back the other way
    assert.deepEqual(ids(a), ['a1', 'a2', 'a3', 'a4', 'b1']);
    await b.close();
    const c = await open(dbPath);
    assert.deepEqual(ids(c), ['a1', 'a2', 'a3', 'a4', 'b1']);
    await a.close();
    await c.close();
  });

  it('checkpoints on its own once the journal passes checkpointBytes, after the commit resolved', async () => {
    const dbPath = path.join(tempDir(), 'c.db');
    const store = await open(dbPath, { checkpointBytes: 4096 });
    await insert(store, 'r0', 400);
    const created = fs.statSync(dbPath).ino;
    let i = 1;
    while (store.state.journalBytes < 4096) await insert(store, `r${i++}`, 400);
    assert.equal(
      fs.statSync(dbPath).ino,
      created,
      'the commit that crossed the threshold did not wait for a checkpoint',
    );
    for (let waited = 0; store.state.journalBytes > JOURNAL_HEADER_BYTES && waited < 5000; waited += 10) {
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal(store.state.journalBytes, JOURNAL_HEADER_BYTES, 'the journal was folded in the background');
    assert.notEqual(fs.statSync(dbPath).ino, created, 'into a new image');
    const other = await open(dbPath);
    assert.equal(ids(other).length, i);
    await store.close();
    await other.close();
  });
});

describe('store: damage', () => {
  it('reports a torn last record as a lost commit, named with how it began, keeps its bytes and every commit before it', async () => {
    const dbPath = path.join(tempDir(), 't.db');
    const a = await open(dbPath);
    await insert(a, 'good');
    const journal = `${dbPath}.journal`;
    const goodSize = fs.statSync(journal).size;
    const record = encodeRecord(a.state.sequence + 1, [["INSERT INTO items VALUES ('torn', 't', 'x')"]]);
    fs.appendFileSync(journal, record.subarray(0, record.length - 7)); // a writer that died mid-append, or a cut file

    const b = await open(dbPath);
    assert.deepEqual(ids(b), ['good']);
    const lost = b.state.lostCommit;
    assert.ok(lost, 'the lost commit is reported, not dropped in silence');
    assert.equal(lost.sequence, a.state.sequence + 1);
    assert.match(lost.reason, /commit 2 \(INSERT INTO items VALUES \('torn'.*incomplete \(\d+ of \d+ bytes written\)/);
    assert.deepEqual(
      fs.readFileSync(lost.savedTo),
      record.subarray(0, record.length - 7),
      'its bytes are kept beside the journal',
    );
    assert.equal(fs.statSync(journal).size, goodSize, 'cut under the lock at open');
    await insert(b, 'next');
    const c = await open(dbPath);
    assert.deepEqual(ids(c), ['good', 'next']);
    assert.equal(c.state.recovered, undefined);
    assert.equal(c.state.lostCommit, undefined, 'reported once, by the process that found it');
    for (const s of [a, b, c]) await s.close();
  });

  it("leaves a live writer's append in progress alone: a torn end is judged only under the lock", async () => {
    const dbPath = path.join(tempDir(), 'live.db');
    const a = await open(dbPath);
    await insert(a, 'good');
    const journal = `${dbPath}.journal`;
    const record = encodeRecord(a.state.sequence + 1, [
      ["INSERT INTO items (id, writer, body) VALUES ('slow', 'w', 'b')"],
      ['UPDATE counter SET n = n + 1'],
    ]);
    const writer = new FileLock(`${dbPath}.lock`, 1000);
    assert.ok(writer.tryAcquire());
    fs.appendFileSync(journal, record.subarray(0, 30)); // the writer's append has begun
    const opening = open(dbPath);
    await new Promise((r) => setTimeout(r, 50));
    fs.appendFileSync(journal, record.subarray(30)); // and completes, then the writer unlocks
    writer.release();
    const b = await opening;
    assert.equal(b.state.lostCommit, undefined);
    assert.deepEqual(ids(b), ['good', 'slow']);
    for (const s of [a, b]) await s.close();
  });

  it('loses and duplicates nothing when a checkpoint died between the image rename and the journal reset', async () => {
    const dir = tempDir();
    const dbPath = path.join(dir, 'k.db');
    const a = await open(dbPath);
    for (const id of ['r1', 'r2', 'r3']) await insert(a, id);
    const oldJournal = fs.readFileSync(`${dbPath}.journal`);
    await a.checkpoint();
    fs.writeFileSync(`${dbPath}.journal`, oldJournal); // as if the process died right after the rename
    fs.writeFileSync(`${dbPath}.tmp-999-dead`, 'half an image'); // and an earlier one mid-write

    const b = await open(dbPath);
    assert.deepEqual(ids(b), ['r1', 'r2', 'r3']);
    assert.equal(b.get<{ n: number }>('SELECT n FROM counter')?.n, 3, 'no record replayed twice');
    assert.equal(b.state.recovered, undefined);
    await insert(b, 'r4');
    await b.checkpoint();
    assert.equal(fs.existsSync(`${dbPath}.tmp-999-dead`), false, 'leftovers removed under the lock');
    const c = await open(dbPath);
    assert.deepEqual(ids(c), ['r1', 'r2', 'r3', 'r4']);
    assert.equal(c.get<{ n: number }>('SELECT n FROM counter')?.n, 4);
    for (const s of [a, b, c]) await s.close();
  });

  it('does not report a loss when a cut inside a record header hides a commit the image already holds', async () => {
    // Found by the SIGKILL trials: a checkpoint died after the image rename, then the old journal lost
    // the end of its last record, down to 7 of its header's 20 bytes, so the record's number is unreadable.
    // Records are numbered without gaps, so the torn one is the one after the last whole record.
    const dbPath = path.join(tempDir(), 'h.db');
    const a = await open(dbPath);
    for (const id of ['r1', 'r2', 'r3']) await insert(a, id);
    const read = readJournal(`${dbPath}.journal`);
    assert.ok(read.kind === 'ok' && read.records.length === 3);
    const oldJournal = fs.readFileSync(`${dbPath}.journal`).subarray(0, read.records[1].end + 7);
    await a.checkpoint();
    fs.writeFileSync(`${dbPath}.journal`, oldJournal);

    const b = await open(dbPath);
    assert.deepEqual(ids(b), ['r1', 'r2', 'r3']);
    assert.equal(b.state.lostCommit, undefined, 'commit 3 is in the image: nothing was lost');
    assert.equal(b.state.recovered, undefined);
    await insert(b, 'r4');
    const c = await open(dbPath);
    assert.deepEqual(ids(c), ['r1', 'r2', 'r3', 'r4']);
    assert.equal(c.get<{ n: number }>('SELECT n FROM counter')?.n, 4, 'no record replayed twice');

    // And when the commit is not in the image, the loss is reported with its number.
    const d = path.join(tempDir(), 'h2.db');
    const e = await open(d);
    for (const id of ['s1', 's2']) await insert(e, id);
    const full = fs.readFileSync(`${d}.journal`);
    const record = encodeRecord(e.state.sequence + 1, [["INSERT INTO items VALUES ('s3', 't', 'x')"]]);
    fs.writeFileSync(`${d}.journal`, Buffer.concat([full, record.subarray(0, 7)]));
    const f = await open(d);
    assert.equal(f.state.lostCommit?.sequence, e.state.sequence + 1);
    for (const s of [a, b, c, e, f]) await s.close();
  });

  it('moves a garbage database file aside, keeps its bytes, and starts fresh', async () => {
    const dir = tempDir();
    const dbPath = path.join(dir, 'g.db');
    const garbage = Buffer.from('this is not a database '.repeat(500));
    fs.writeFileSync(dbPath, garbage);
    const store = await open(dbPath);
    const rec = store.state.recovered;
    assert.ok(rec, 'state.recovered is set');
    assert.match(rec.movedTo, /g\.db\.corrupt-/);
    assert.deepEqual(fs.readFileSync(rec.movedTo), garbage);
    assert.equal(store.state.schemaVersion, 1);
    await insert(store, 'fresh');
    assert.deepEqual(ids(store), ['fresh']);
    await store.close();
    const again = await open(dbPath);
    assert.equal(again.state.recovered, undefined);
    assert.deepEqual(ids(again), ['fresh']);
    await again.close();
  });

  it('moves a truncated database file (and its journal) aside and starts fresh', async () => {
    const dir = tempDir();
    const dbPath = path.join(dir, 'tr.db');
    const a = await open(dbPath);
    for (let i = 0; i < 60; i++) await insert(a, `row${i}`, 2000);
    await a.close();
    const b = await open(dbPath);
    await insert(b, 'in-journal'); // b never closes: this journal belongs to the image
    const full = fs.readFileSync(dbPath);
    const truncated = full.subarray(0, Math.floor(full.length / 2));
    fs.writeFileSync(dbPath, truncated);

    const c = await open(dbPath);
    const rec = c.state.recovered;
    assert.ok(rec, 'state.recovered is set');
    assert.deepEqual(fs.readFileSync(rec.movedTo), truncated);
    assert.match(rec.reason, /journal was moved to/);
    assert.ok(fs.readdirSync(dir).some((f) => f.startsWith('tr.db.journal.corrupt-')));
    assert.deepEqual(ids(c), []);
    await insert(c, 'fresh');
    assert.deepEqual(ids(c), ['fresh']);
    await c.close();
  });

  it('stops at a damaged journal record, keeps the commits before it and moves the journal aside', async () => {
    const dbPath = path.join(tempDir(), 'j.db');
    const a = await open(dbPath);
    for (const id of ['r1', 'r2', 'r3']) await insert(a, id);
    const journal = `${dbPath}.journal`;
    const read = readJournal(journal);
    assert.ok(read.kind === 'ok');
    const secondLast = read.records[read.records.length - 2];
    const bytes = fs.readFileSync(journal);
    bytes[secondLast.end - 3] ^= 0xff; // flip a byte inside r2's record
    fs.writeFileSync(journal, bytes);

    const b = await open(dbPath);
    assert.deepEqual(ids(b), ['r1']);
    assert.match(b.state.recovered?.reason ?? '', /journal damaged.*checksum/);
    assert.ok(fs.existsSync(b.state.recovered!.movedTo));
    await insert(b, 'r4');
    const c = await open(dbPath);
    assert.deepEqual(ids(c), ['r1', 'r4']);
    for (const s of [a, b, c]) await s.close().catch(() => undefined);
  });
});

describe('store: the write lock', () => {
  const lockContent = (pid: number) =>
    JSON.stringify({ pid, hostname: os.hostname(), createdAt: new Date().toISOString(), token: 'someone-else' });

  it('fails with STORE_LOCKED naming the holder when a live process keeps the lock', async () => {
    const dbPath = path.join(tempDir(), 'l.db');
    const store = await open(dbPath, { lockTimeoutMs: 300 });
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      fs.writeFileSync(`${dbPath}.lock`, lockContent(holder.pid!));
      const t0 = Date.now();
      await assert.rejects(insert(store, 'x'), (e: unknown) => {
        assert.ok(isAutoSnippetError(e));
        assert.equal(e.code, 'STORE_LOCKED');
        assert.match(e.message, new RegExp(`process ${holder.pid}\\b`));
        return true;
      });
      assert.ok(Date.now() - t0 >= 280, 'it waited for the timeout');
      assert.ok(fs.existsSync(`${dbPath}.lock`), 'a live lock is never broken');
    } finally {
      holder.kill('SIGKILL');
      fs.rmSync(`${dbPath}.lock`, { force: true });
    }
    await insert(store, 'y');
    assert.deepEqual(ids(store), ['y']);
    await store.close();
  });

  it('breaks the lock of a dead process, and an unreadable lock once it is old', async () => {
    const dbPath = path.join(tempDir(), 'd.db');
    const store = await open(dbPath, { lockTimeoutMs: 1000 });
    fs.writeFileSync(`${dbPath}.lock`, lockContent(await deadPid()));
    await insert(store, 'after-dead');
    assert.equal(fs.existsSync(`${dbPath}.lock`), false);

    fs.writeFileSync(`${dbPath}.lock`, '');
    assert.equal(
      isStale(readLock(`${dbPath}.lock`)!),
      false,
      'a fresh empty lock may be a writer between create and write',
    );
    const old = new Date(Date.now() - 10_000);
    fs.utimesSync(`${dbPath}.lock`, old, old);
    assert.equal(isStale(readLock(`${dbPath}.lock`)!), true);
    await insert(store, 'after-empty');
    assert.deepEqual(ids(store), ['after-dead', 'after-empty']);
    await store.close();
  });

  it('lets only one of two breakers of the same stale lock win', async () => {
    const lockPath = path.join(tempDir(), 'x.lock');
    fs.writeFileSync(lockPath, lockContent(await deadPid()));
    // Both breakers looked at the lock and judged it stale before either acted.
    const seenByA = readLock(lockPath)!;
    const seenByB = readLock(lockPath)!;
    assert.ok(isStale(seenByA) && isStale(seenByB));

    assert.equal(breakStaleLock(lockPath, seenByA), true);
    const a = new FileLock(lockPath, 1000);
    assert.equal(a.tryAcquire(), true, 'A takes the lock it freed');
    const heldByA = fs.readFileSync(lockPath);

    assert.equal(breakStaleLock(lockPath, seenByB), false, "B finds A's live lock, not the stale one");
    assert.deepEqual(fs.readFileSync(lockPath), heldByA, "A's lock was put back untouched");
    assert.equal(new FileLock(lockPath, 1000).tryAcquire(), false, 'so nobody else can take it');
    assert.deepEqual(fs.readdirSync(path.dirname(lockPath)), ['x.lock'], 'no renamed copies left behind');
    a.release();
    assert.equal(fs.existsSync(lockPath), false);
  });

  it('breaking a stale lock also removes the files dead writers left aside (lock and guard written aside, then linked)', async () => {
    const dir = tempDir();
    const lockPath = path.join(dir, 'o.lock');
    const dead = await deadPid();
    fs.writeFileSync(lockPath, lockContent(dead));
    fs.writeFileSync(`${lockPath}.${dead}-0a1b2c3d.new`, lockContent(dead));
    fs.writeFileSync(`${lockPath}.break.${dead}-0a1b2c3d.new`, lockContent(dead));
    const live = `${lockPath}.${process.pid}-0a1b2c3d.new`;
    fs.writeFileSync(live, lockContent(process.pid));
    assert.equal(breakStaleLock(lockPath, readLock(lockPath)!), true);
    assert.deepEqual(fs.readdirSync(dir).sort(), [path.basename(live)], "only the live writer's file is left");
    const lock = new FileLock(lockPath, 1000);
    assert.equal(lock.tryAcquire(), true);
    assert.equal(
      JSON.parse(fs.readFileSync(lockPath, 'utf8')).pid,
      process.pid,
      'the lock is whole as soon as it exists',
    );
    lock.release();
  });

  it('gets past a breaker that died during its turn (a stale .break guard)', async () => {
    const lockPath = path.join(tempDir(), 'g.lock');
    const dead = await deadPid();
    fs.writeFileSync(lockPath, lockContent(dead));
    fs.writeFileSync(`${lockPath}.break`, lockContent(dead));
    const lock = new FileLock(lockPath, 1000);
    await lock.acquire();
    assert.equal(JSON.parse(fs.readFileSync(lockPath, 'utf8')).pid, process.pid);
    assert.deepEqual(fs.readdirSync(path.dirname(lockPath)), ['g.lock']);
    lock.release();
  });

  it('never breaks a freshly recreated empty lock judged from an older empty one', async () => {
    const lockPath = path.join(tempDir(), 'e.lock');
    fs.writeFileSync(lockPath, '');
    const old = new Date(Date.now() - 10_000);
    fs.utimesSync(lockPath, old, old);
    const judged = readLock(lockPath)!;
    assert.ok(isStale(judged));
    fs.rmSync(lockPath);
    fs.writeFileSync(lockPath, ''); // another writer, between its create and its write
    assert.equal(breakStaleLock(lockPath, judged), false);
    assert.ok(fs.existsSync(lockPath));
  });
});
