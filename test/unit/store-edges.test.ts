// Issue 10 item 5 and issue 14 point 1 at the store's level: every byte of the image checked, folders
// where files should be, and a database that exists only once something is written.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import zlib from 'node:zlib';
import { isAutoSnippetError } from '../../src/core/ground/kernel/errors';
import { crc32, encodeRecord, readJournal } from '../../src/core/ground/store/journal';
import { Store } from '../../src/core/ground/store/store';
import { body, itemMigrations, removeTempDirs, tempDir } from './helpers/store-fixtures';

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

/** A journal header as versions before checksums wrote it (32 bytes, "ASJ1", no image size or CRC). */
function v1Header(id: string, lineage: string, baseSeq: number): Buffer {
  const buf = Buffer.alloc(32);
  Buffer.from('ASJ1').copy(buf, 0);
  Buffer.from(id, 'hex').copy(buf, 4);
  Buffer.from(lineage, 'hex').copy(buf, 12);
  buf.writeBigUInt64LE(BigInt(baseSeq), 20);
  buf.writeUInt32LE(crc32(buf.subarray(0, 28)), 28);
  return buf;
}

describe('store: every byte of the image is checked', () => {
  it('computes CRC-32 with zlib', () => {
    assert.equal(crc32(Buffer.from('123456789')), 0xcbf43926);
    assert.equal(crc32(Buffer.from('autosnippet')), zlib.crc32(Buffer.from('autosnippet')));
  });

  it("moves aside an image with a flipped byte inside a row's text, which SQLite's own page walk does not see", async () => {
    const dir = tempDir();
    const dbPath = path.join(dir, 'flip.db');
    const a = await open(dbPath);
    for (let i = 0; i < 20; i++) await insert(a, `row${i}`, 1500);
    await a.close();
    const bytes = fs.readFileSync(dbPath);
    const at = bytes.indexOf('row7 the quick brown fox');
    assert.ok(at > 0);
    bytes[at + 10] ^= 0x20; // "quick" -> "quIck": still a valid page, a different row
    fs.writeFileSync(dbPath, bytes);

    const b = await open(dbPath);
    const rec = b.state.recovered;
    assert.ok(rec, 'reported');
    assert.match(rec.reason, /CRC-32 differs.*bytes inside its pages changed/);
    assert.deepEqual(fs.readFileSync(rec.movedTo), bytes, 'the damaged image is kept, not deleted');
    assert.deepEqual(ids(b), [], 'a fresh database, rebuilt from the files by the layers above');
    await insert(b, 'fresh');
    await b.close();
    const c = await open(dbPath);
    assert.equal(c.state.recovered, undefined);
    assert.deepEqual(ids(c), ['fresh']);
    await c.close();
  });

  it('checks an image larger than one read piece (8 MiB) whole: a clean one opens as it is, a flipped byte near its end is caught', async () => {
    const dir = tempDir();
    const dbPath = path.join(dir, 'large.db');
    const a = await open(dbPath);
    for (let i = 0; i < 20; i++) await insert(a, `big${String(i).padStart(2, '0')}`, 1024 * 1024);
    await a.close();
    const size = fs.statSync(dbPath).size;
    assert.ok(size > 2 * 8 * 1024 * 1024, `the image spans at least three pieces (${size} bytes)`);

    const b = await open(dbPath);
    assert.equal(b.state.recovered, undefined, 'the checksum of the pieces is the checksum of the whole image');
    assert.equal(ids(b).length, 20);
    await b.close();

    const bytes = fs.readFileSync(dbPath);
    const at = bytes.lastIndexOf('big19 the quick brown fox');
    assert.ok(at > 2 * 8 * 1024 * 1024, 'the flipped byte is in the third piece or later');
    bytes[at + 11] ^= 0x20;
    fs.writeFileSync(dbPath, bytes);
    const c = await open(dbPath);
    assert.match(c.state.recovered?.reason ?? '', /CRC-32 differs/);
    await c.close();
  });

  it("reads a journal written before checksums (its header has no image CRC), checks the image with SQLite's page walk, and upgrades it on close", async () => {
    const dir = tempDir();
    const dbPath = path.join(dir, 'old.db');
    const a = await open(dbPath);
    await insert(a, 'in-image');
    await a.close();
    const current = readJournal(`${dbPath}.journal`);
    assert.ok(current.kind === 'ok');
    const header = current.header;
    fs.writeFileSync(
      `${dbPath}.journal`,
      Buffer.concat([
        v1Header(header.id, header.lineage, header.baseSeq),
        encodeRecord(header.baseSeq + 1, [
          ["INSERT INTO items (id, writer, body) VALUES ('in-v1-journal', 'old', 'b')"],
          ['UPDATE counter SET n = n + 1'],
        ]),
      ]),
    );

    const b = await open(dbPath);
    assert.deepEqual(ids(b), ['in-image', 'in-v1-journal']);
    assert.equal(b.state.recovered, undefined);
    await b.close();
    const upgraded = readJournal(`${dbPath}.journal`);
    assert.ok(upgraded.kind === 'ok' && upgraded.header.image, 'the journal now vouches for the image');
    assert.equal(upgraded.header.image.crc32, crc32(fs.readFileSync(dbPath)));
    const c = await open(dbPath);
    assert.deepEqual(ids(c), ['in-image', 'in-v1-journal']);
    await c.close();
  });
});

describe('store: a torn journal end is never dropped in silence', () => {
  it("is reported at open even beside a crashed writer's empty lock file, once that lock is old enough to break", async () => {
    const dbPath = path.join(tempDir(), 'empty-lock.db');
    const a = await open(dbPath);
    await insert(a, 'good');
    const record = encodeRecord(a.state.sequence + 1, [
      ["INSERT INTO items (id, writer, body) VALUES ('lost', 'w', 'b')"],
      ['UPDATE counter SET n = n + 1'],
    ]);
    fs.appendFileSync(`${dbPath}.journal`, record.subarray(0, record.length - 3));
    fs.writeFileSync(`${dbPath}.lock`, ''); // the writer died between creating its lock file and writing its name in it

    const b = await open(dbPath);
    assert.equal(b.state.lostCommit?.sequence, 2);
    assert.ok(fs.existsSync(b.state.lostCommit.savedTo));
    assert.deepEqual(ids(b), ['good']);
    for (const s of [a, b]) await s.close();
  });
});

describe('store: a journal cut anywhere inside its last record', () => {
  it('reports the commit as lost, never as damage, wherever the cut falls (inside the record header too)', async () => {
    const dbPath = path.join(tempDir(), 'cut.db');
    const a = await open(dbPath);
    await insert(a, 'kept');
    await a.close();
    const journal = `${dbPath}.journal`;
    const clean = fs.readFileSync(journal);
    const record = encodeRecord(2, [
      ["INSERT INTO items (id, writer, body) VALUES ('cut', 'w', 'b')"],
      ['UPDATE counter SET n = n + 1'],
    ]);
    for (const keep of [1, 4, 7, 12, 19, 20, 21, record.length - 1]) {
      fs.writeFileSync(journal, Buffer.concat([clean, record.subarray(0, keep)]));
      const b = await open(dbPath);
      assert.equal(b.state.recovered, undefined, `cut after ${keep} bytes: not damage`);
      assert.equal(b.state.lostCommit?.sequence, 2, `cut after ${keep} bytes: commit 2 reported`);
      assert.deepEqual(ids(b), ['kept']);
      await b.close();
    }
  });
});

describe('store: folders where its files should be', () => {
  it('refuses to open when the database path is a folder, with STORE_UNAVAILABLE naming it', async () => {
    const dbPath = path.join(tempDir(), 'dir.db');
    fs.mkdirSync(dbPath);
    await assert.rejects(open(dbPath), (e: unknown) => {
      assert.ok(isAutoSnippetError(e));
      assert.equal(e.code, 'STORE_UNAVAILABLE');
      assert.match(e.message, /dir\.db is a folder/);
      assert.match(e.hint ?? '', /Move or rename/);
      return true;
    });
    assert.ok(fs.statSync(dbPath).isDirectory(), 'left as it was');
  });

  it('answers writes with STORE_UNAVAILABLE when the lock path is a folder, and keeps reading', async () => {
    const dbPath = path.join(tempDir(), 'lockdir.db');
    const a = await open(dbPath);
    await insert(a, 'before');
    await a.close();
    fs.mkdirSync(`${dbPath}.lock`);
    const b = await open(dbPath);
    assert.deepEqual(ids(b), ['before']);
    for (let i = 0; i < 2; i++) {
      await assert.rejects(insert(b, `w${i}`), (e: unknown) => {
        assert.ok(isAutoSnippetError(e));
        assert.equal(e.code, 'STORE_UNAVAILABLE');
        assert.match(e.message, /lock path .*lockdir\.db\.lock is a folder/);
        return true;
      });
    }
    fs.rmdirSync(`${dbPath}.lock`);
    await insert(b, 'after');
    assert.deepEqual(ids(b), ['after', 'before']);
    await b.close();
  });
});

describe('store: nothing on disk until the first write', () => {
  it('opens, reads the schema and closes without creating a file or a folder', async () => {
    const dir = path.join(tempDir(), 'data');
    const dbPath = path.join(dir, 'x.db');
    const store = await open(dbPath);
    assert.deepEqual(ids(store), []);
    assert.equal(store.get<{ n: number }>('SELECT n FROM counter')?.n, 0, 'migrations ran in memory');
    assert.equal(store.state.created, false);
    assert.equal(store.state.schemaVersion, 1);
    await store.close();
    assert.equal(fs.existsSync(dir), false);
  });

  it('keeps derived rows in memory while the folder does not exist, and writes them with the first real write', async () => {
    const dir = path.join(tempDir(), 'data');
    const dbPath = path.join(dir, 'x.db');
    let created = 0;
    const store = await open(dbPath, { beforeCreate: () => void created++ });
    await store.transaction((tx) => tx.run("INSERT INTO items VALUES ('cache', 'derived', 'b')"), { derived: true });
    assert.deepEqual(ids(store), ['cache']);
    assert.equal(fs.existsSync(dir), false, 'a derived write creates nothing');
    assert.equal(created, 0);

    await insert(store, 'asked');
    assert.equal(created, 1, 'beforeCreate ran once, before the first file');
    assert.equal(store.state.created, true);
    await insert(store, 'again');
    assert.equal(created, 1);
    const other = await open(dbPath);
    assert.deepEqual(ids(other), ['again', 'asked', 'cache']);
    await store.close();
    await other.close();
  });

  it('sees a database another process created after it opened, and then writes into that one', async () => {
    const dbPath = path.join(tempDir(), 'data', 'late.db');
    const early = await open(dbPath);
    await early.transaction((tx) => tx.run("INSERT INTO items VALUES ('mine', 'derived', 'b')"), { derived: true });
    const creator = await open(dbPath);
    await insert(creator, 'theirs');
    assert.deepEqual(
      ids(early),
      ['theirs'],
      "the other process's database replaces the in-memory one (derived rows are recomputed)",
    );
    await insert(early, 'mine-too');
    await creator.close();
    await early.close();
    const check = await open(dbPath);
    assert.deepEqual(ids(check), ['mine-too', 'theirs']);
    assert.equal(check.get<{ n: number }>('SELECT n FROM counter')?.n, 2);
    await check.close();
  });
});
