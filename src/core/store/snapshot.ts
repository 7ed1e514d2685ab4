/**
 * A loaded view of the database: the in-memory sql.js database, the sequence number it has reached,
 * and where it stands in the image and the journal on disk. Loading and catching up live here.
 */
import fs from 'node:fs';
import type { Database, SqlJsStatic } from 'sql.js';
import { statKey } from './files';
import { decodeParams, JOURNAL_HEADER_BYTES, readJournal, type JournalRead, type JournalRecord } from './journal';
import { openDatabase, readMeta, runStatement, setWritable } from './sqljs';

export interface JournalCursor {
  /** Id of the journal file read so far (null: none, or unreadable). */
  id: string | null;
  /** Offset just past the last record read. */
  offset: number;
  size: number;
  /** The journal's identity when last read; equal identity means nothing new to read. */
  key: string;
  tail?: { kind: 'torn' | 'corrupt'; reason: string };
}

export interface Snapshot {
  db: Database;
  /** Highest sequence applied to `db`. */
  seq: number;
  /** Sequence the image file on disk contains (as of imageKey). */
  imageSeq: number;
  /** Names the database the image and journal belong to; null until there is either. */
  lineage: string | null;
  imageKey: string;
  imageBytes: number;
  journal: JournalCursor;
}

export const emptyCursor = (): JournalCursor => ({ id: null, offset: 0, size: 0, key: '' });

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
    snap.journal = { id: null, offset: 0, size: 0, key: read.key };
    return read.reason;
  }
  const { header } = read;
  const notContinuing = (why: string) => (fresh ? `the journal does not continue the database image: ${why}` : 'reload');
  if (snap.lineage === null) snap.lineage = header.lineage;
  else if (header.lineage !== snap.lineage) return notContinuing(`it belongs to database ${header.lineage}, the image is ${snap.lineage}`);
  if (header.baseSeq > snap.seq) return notContinuing(`it starts after sequence ${header.baseSeq}, the image holds ${snap.seq}`);
  const continuing = snap.journal.id === header.id;
  snap.journal = { id: header.id, offset: continuing ? snap.journal.offset : JOURNAL_HEADER_BYTES, size: read.size, key: read.key };
  for (const record of read.records) {
    if (record.seq > snap.seq) {
      if (record.seq !== snap.seq + 1) return fresh ? `journal record ${record.seq} follows ${snap.seq}: records are missing` : 'reload';
      try {
        applyRecord(snap.db, record);
      } catch (e) {
        return `replaying journal record ${record.seq} failed: ${(e as Error).message}`;
      }
      snap.seq = record.seq;
    }
    snap.journal.offset = record.end;
  }
  snap.journal.offset = Math.max(snap.journal.offset, read.validEnd);
  snap.journal.tail = read.tail;
  return read.tail?.kind === 'corrupt' ? read.tail.reason : undefined;
}

/** The image's identity (taken before reading) and its bytes; no bytes when there is no image. */
export interface ImageFile {
  key: string;
  bytes: Buffer | undefined;
}

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

/** At open, read without blocking the event loop for the image's size. */
export async function readImage(dbPath: string): Promise<ImageFile> {
  const key = statKey(dbPath);
  return { key, bytes: key ? await fs.promises.readFile(dbPath).catch(ignoreMissing) : undefined };
}

/**
 * Loads the image and applies the journal to it. `stable` is false when the image was replaced
 * while loading (retry). Throws DamagedImageError when the image is not a healthy database.
 */
export function loadSnapshot(
  SQL: SqlJsStatic,
  dbPath: string,
  journalPath: string,
  verify: boolean,
  image: ImageFile = readImageSync(dbPath),
): { snapshot: Snapshot; problem?: string; stable: boolean } {
  const { key: imageKey, bytes } = image;
  const db = openDatabase(SQL, bytes, verify);
  try {
    const seq = bytes ? Number(readMeta(db, 'sequence') ?? 0) : 0;
    const snapshot: Snapshot = {
      db,
      seq,
      imageSeq: seq,
      lineage: bytes ? readMeta(db, 'lineage') ?? null : null,
      imageKey: bytes ? imageKey : '',
      imageBytes: bytes?.length ?? 0,
      journal: emptyCursor(),
    };
    const outcome = applyJournalRead(snapshot, readJournal(journalPath), true);
    const stable = statKey(dbPath) === snapshot.imageKey;
    return { snapshot, problem: outcome === 'reload' ? undefined : outcome, stable };
  } catch (e) {
    db.close();
    throw e;
  }
}
