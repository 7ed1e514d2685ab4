/**
 * A loaded view of the database: the in-memory sql.js database, the sequence number it has reached,
 * and where it stands in the image and the journal on disk. Loading and catching up live here.
 */
import fs from 'node:fs';
import type { Database, SqlJsStatic } from 'sql.js';
import { statKey } from './files';
import {
  crc32,
  decodeParams,
  type ImageSum,
  type JournalRead,
  type JournalRecord,
  type JournalTail,
  readJournal,
} from './journal';
import { migrateInMemory } from './migrate';
import { DamagedImageError, openDatabase, quickCheck, readMeta, runStatement, setWritable } from './sqljs';
import type { Migration } from './types';

export interface JournalCursor {
  /** Id of the journal file read so far (null: none, or unreadable). */
  id: string | null;
  /** Where its records start (the header's size); 0 when there is none. */
  start: number;
  /** Offset just past the last record read. */
  offset: number;
  /** Number of the last whole record read (the header's base before any): records are numbered without gaps. */
  lastSeq: number;
  size: number;
  /** The journal's identity when last read; equal identity means nothing new to read. */
  key: string;
  tail?: JournalTail;
}

export interface Snapshot {
  db: Database;
  /** False while nothing is on disk: the database then lives in memory until the first write creates it. */
  onDisk: boolean;
  /** Highest sequence applied to `db`. */
  seq: number;
  /** Sequence the image file on disk contains (as of imageKey). */
  imageSeq: number;
  /** Names the database the image and journal belong to; null until there is either. */
  lineage: string | null;
  imageKey: string;
  imageBytes: number;
  /** Size and checksum of the image on disk when the current journal's header vouches for it. */
  imageSum?: ImageSum;
  journal: JournalCursor;
}

export const emptyCursor = (): JournalCursor => ({ id: null, start: 0, offset: 0, lastSeq: 0, size: 0, key: '' });

/** The database before anything is on disk: the full schema, in memory only. */
export function unsavedSnapshot(SQL: SqlJsStatic, migrations: Migration[]): Snapshot {
  const db = openDatabase(SQL, undefined);
  try {
    migrateInMemory(db, migrations);
  } catch (e) {
    db.close();
    throw e;
  }
  return { db, onDisk: false, seq: 0, imageSeq: 0, lineage: null, imageKey: '', imageBytes: 0, journal: emptyCursor() };
}

/** Applies one journaled transaction. Statements that failed originally are replayed for their partial effects. */
function applyRecord(db: Database, record: JournalRecord): void {
  setWritable(db, true);
  db.exec('BEGIN');
  try {
    for (const [sql, params, failed] of record.ops) {
      try {
        runStatement(db, sql, decodeParams(params));
      } catch (e) {
        if (!failed) throw e;
      }
    }
    db.exec('COMMIT');
  } catch (e) {
    try {
      db.exec('ROLLBACK');
    } catch {
      /* already rolled back by SQLite */
    }
    throw e;
  } finally {
    setWritable(db, false);
  }
}

/**
 * Applies what `read` holds beyond `snap.seq`. Returns undefined when all went well, 'reload' when
 * the journal does not continue this snapshot (a checkpoint happened: load the image again), or a
 * description of damage. With `fresh` (the snapshot was just loaded from the image), a journal
 * that does not continue it is damage, not a reason to reload.
 */
export function applyJournalRead(snap: Snapshot, read: JournalRead, fresh: boolean): string | 'reload' | undefined {
  if (read.kind === 'missing') {
    snap.journal = emptyCursor();
    return undefined;
  }
  if (read.kind === 'damaged') {
    snap.journal = { ...emptyCursor(), key: read.key };
    return read.reason;
  }
  const { header } = read;
  const notContinuing = (
    why: string,
  ) => (fresh ? `the journal does not continue the database image: ${why}` : 'reload');
  if (snap.lineage === null) snap.lineage = header.lineage;
  else if (header.lineage !== snap.lineage) {
    return notContinuing(`it belongs to database ${header.lineage}, the image is ${snap.lineage}`);
  }
  if (header.baseSeq > snap.seq) {
    return notContinuing(`it starts after sequence ${header.baseSeq}, the image holds ${snap.seq}`);
  }
  const continuing = snap.journal.id === header.id;
  snap.journal = continuing
    ? { ...snap.journal, size: read.size, key: read.key }
    : {
      id: header.id,
      start: header.size,
      offset: header.size,
      lastSeq: header.baseSeq,
      size: read.size,
      key: read.key,
    };
  // A journal another process started vouches for the image it started from (a fresh load checked that itself).
  if (!continuing && !fresh) snap.imageSum = header.baseSeq === snap.imageSeq ? header.image : undefined;
  for (const record of read.records) {
    if (record.seq > snap.seq) {
      if (record.seq !== snap.seq + 1) {
        return fresh ? `journal record ${record.seq} follows ${snap.seq}: records are missing` : 'reload';
      }
      try {
        applyRecord(snap.db, record);
      } catch (e) {
        return `replaying journal record ${record.seq} failed: ${(e as Error).message}`;
      }
      snap.seq = record.seq;
    }
    snap.journal.offset = record.end;
    snap.journal.lastSeq = record.seq;
  }
  snap.journal.offset = Math.max(snap.journal.offset, read.validEnd);
  // A record cut inside its header has no readable number; it can only be the one after the last whole record.
  snap.journal.tail = read.tail && read.tail.seq === undefined
    ? { ...read.tail, seq: snap.journal.lastSeq + 1 }
    : read.tail;
  return read.tail?.kind === 'corrupt' ? read.tail.reason : undefined;
}

/** The image's identity (taken before reading) and its bytes; no bytes when there is no image. */
export interface ImageFile {
  key: string;
  bytes: Buffer | undefined;
  /** The CRC-32 of `bytes`, when it was computed as they were read. */
  crc32?: number;
}

/** At open the image is read in pieces this large, each checksummed while the next one is read. */
const OPEN_READ_BYTES = 8 * 1024 * 1024;

function ignoreMissing(e: unknown): undefined {
  if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  return undefined;
}

export function readImageSync(dbPath: string): ImageFile {
  const key = statKey(dbPath);
  let bytes: Buffer | undefined;
  try {
    bytes = key ? fs.readFileSync(dbPath) : undefined;
  } catch (e) {
    bytes = ignoreMissing(e);
  }
  return { key, bytes };
}

/**
 * At open, read without blocking the event loop for the image's size, and checksummed on the way:
 * each piece's CRC-32 is computed while the thread pool reads the next, so the check adds little to
 * the read (at 100,000 rows it had been a second pass of 35-40 ms after `readFile`, which itself reads
 * 512 KiB per trip through the pool). The handle keeps reading the file it opened even if another
 * process renames a new image into place meanwhile; the caller's `stable` check catches that.
 */
export async function readImage(dbPath: string): Promise<ImageFile> {
  const key = statKey(dbPath);
  if (!key) return { key, bytes: undefined };
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(dbPath, 'r');
  } catch (e) {
    return { key, bytes: ignoreMissing(e) };
  }
  try {
    const size = (await handle.stat()).size;
    const bytes = Buffer.allocUnsafe(size);
    const readFrom = (at: number) => handle.read(bytes, at, Math.min(OPEN_READ_BYTES, size - at), at);
    let sum = 0;
    let done = 0;
    for (let next = size > 0 ? readFrom(0) : undefined; next;) {
      const { bytesRead } = await next;
      const from = done;
      done += bytesRead;
      next = bytesRead > 0 && done < size ? readFrom(done) : undefined;
      sum = crc32(bytes.subarray(from, done), sum);
    }
    return { key, bytes: done === size ? bytes : bytes.subarray(0, done), crc32: sum };
  } finally {
    await handle.close();
  }
}

/**
 * How far the journal's header vouches for the image: 'match' (size and CRC-32 agree: every byte is
 * as written), 'mismatch', or 'unknown' (a v1 journal, no journal, or none recorded).
 */
function checkSum(
  bytes: Buffer,
  read: JournalRead,
  known: number | undefined,
): { state: 'match' | 'unknown' } | { state: 'mismatch'; reason: string } {
  const want = read.kind === 'ok' ? read.header.image : undefined;
  if (!want) return { state: 'unknown' };
  if (want.bytes !== bytes.length) {
    return {
      state: 'mismatch',
      reason: `the image is ${bytes.length} bytes; its journal recorded ${want.bytes} when it was written`,
    };
  }
  if (want.crc32 !== (known ?? crc32(bytes))) {
    return {
      state: 'mismatch',
      reason:
        "the image's CRC-32 differs from the one its journal recorded when it was written: bytes inside its pages changed",
    };
  }
  return { state: 'match' };
}

/**
 * A checkpoint that died between renaming its image into place and starting the new journal leaves
 * the new image beside the old journal of the same database, whose header describes the previous
 * image: this image then holds more than the journal's base. (Its records may since have been cut,
 * so they are not asked to reach it.) A damaged image shows the base it was written with.
 */
function interruptedCheckpoint(imageSeq: number, lineage: string | undefined, read: JournalRead): boolean {
  return read.kind === 'ok' && imageSeq > read.header.baseSeq && lineage === read.header.lineage;
}

/**
 * Loads the image and applies the journal to it; undefined when neither exists. `stable` is false
 * when the image was replaced while loading (retry). Throws DamagedImageError when the image is not
 * the one its journal recorded (bytes changed inside its pages) or not a healthy database. SQLite's
 * page walk runs only with `deepCheck` and when no checksum vouches for the image (after an
 * unclean shutdown, or a journal from before checksums).
 */
export function loadSnapshot(
  SQL: SqlJsStatic,
  dbPath: string,
  journalPath: string,
  deepCheck: boolean,
  image: ImageFile = readImageSync(dbPath),
): { snapshot: Snapshot; problem?: string; stable: boolean } | undefined {
  const { key: imageKey, bytes } = image;
  const read = readJournal(journalPath);
  if (!bytes && read.kind === 'missing') return undefined;
  const sum = bytes ? checkSum(bytes, read, image.crc32) : { state: 'unknown' as const };
  const db = openDatabase(SQL, bytes);
  try {
    const seq = bytes ? Number(readMeta(db, 'sequence') ?? 0) : 0;
    const lineage = bytes ? readMeta(db, 'lineage') : undefined;
    if (sum.state === 'mismatch' && !interruptedCheckpoint(seq, lineage, read)) throw new DamagedImageError(sum.reason);
    if (bytes && sum.state !== 'match' && deepCheck) quickCheck(db);
    const snapshot: Snapshot = {
      db,
      onDisk: true,
      seq,
      imageSeq: seq,
      lineage: lineage ?? null,
      imageKey: bytes ? imageKey : '',
      imageBytes: bytes?.length ?? 0,
      ...(sum.state === 'match' && read.kind === 'ok' ? { imageSum: read.header.image } : {}),
      journal: emptyCursor(),
    };
    const outcome = applyJournalRead(snapshot, read, true);
    const stable = statKey(dbPath) === snapshot.imageKey;
    return { snapshot, problem: outcome === 'reload' ? undefined : outcome, stable };
  } catch (e) {
    db.close();
    throw e;
  }
}
