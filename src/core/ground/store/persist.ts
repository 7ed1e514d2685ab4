/**
 * Writing a snapshot to disk: the image (atomically), a journal whose header vouches for it, one
 * commit record; and cutting a crashed writer's torn last record, naming the commit it held. Callers
 * hold the store's lock.
 */
import { removeLeftovers, saveTailAside, statKey, writeFileAtomic } from './files';
import {
  appendRecord,
  crc32,
  createJournal,
  encodeRecord,
  JOURNAL_HEADER_BYTES,
  type JournalOp,
  type JournalTail,
  newJournalId,
  truncateJournal,
} from './journal';
import type { Snapshot } from './snapshot';
import { configure, setWritable } from './sqljs';
import type { LostCommit } from './types';

/** Writes what memory holds as the image, with its sequence and lineage in its meta table. */
export async function writeImage(s: Snapshot, dbPath: string): Promise<void> {
  removeLeftovers(dbPath);
  s.lineage ??= newJournalId();
  setWritable(s.db, true);
  s.db.run('INSERT OR REPLACE INTO _store_meta (key, value) VALUES (?, ?), (?, ?)', [
    'sequence',
    String(s.seq),
    'lineage',
    s.lineage,
  ]);
  const bytes = s.db.export();
  configure(s.db); // export() reopened the connection
  await writeFileAtomic(dbPath, bytes);
  s.onDisk = true;
  s.imageKey = statKey(dbPath);
  s.imageSeq = s.seq;
  s.imageBytes = bytes.length;
  s.imageSum = { bytes: bytes.length, crc32: crc32(bytes) };
}

/**
 * Starts a new journal whose header vouches for the image (size and CRC-32), writing the image
 * first unless the one on disk is known to hold exactly what memory holds. A crash between the two
 * leaves the new image with the old journal: replay skips what the image holds.
 */
export async function writeImageAndJournal(s: Snapshot, dbPath: string, journalPath: string): Promise<void> {
  if (s.seq !== s.imageSeq || !s.imageKey || !s.imageSum) await writeImage(s, dbPath);
  s.lineage ??= newJournalId();
  const header = { id: newJournalId(), lineage: s.lineage, baseSeq: s.seq, image: s.imageSum };
  const key = await createJournal(journalPath, header);
  s.journal = {
    id: header.id,
    start: JOURNAL_HEADER_BYTES,
    offset: JOURNAL_HEADER_BYTES,
    lastSeq: s.seq,
    size: JOURNAL_HEADER_BYTES,
    key,
  };
}

/** Whether disk differs from an image holding everything beside an empty journal that vouches for it. */
export function foldable(s: Snapshot): boolean {
  return s.onDisk
    && (s.seq !== s.imageSeq || !s.imageKey || !s.imageSum || !s.journal.id || s.journal.size > s.journal.start);
}

/**
 * Appends the next commit and flushes it. On failure the record is cut off again and `false`
 * returned with the error: memory then holds a commit the disk does not, and must be reloaded.
 */
export async function appendCommit(
  s: Snapshot,
  journalPath: string,
  ops: JournalOp[],
): Promise<{ ok: true } | { ok: false; error: unknown }> {
  const record = encodeRecord(s.seq + 1, ops);
  const before = s.journal.offset;
  s.seq += 1;
  try {
    s.journal.key = await appendRecord(journalPath, record);
    s.journal.offset = s.journal.size = before + record.length;
    s.journal.lastSeq = s.seq;
    return { ok: true };
  } catch (error) {
    await truncateJournal(journalPath, before).catch(() => undefined);
    return { ok: false, error };
  }
}

/**
 * Cuts a crashed writer's incomplete last record, keeping its bytes beside the journal. Returns the
 * commit it held, or undefined when the image already holds that commit (nothing is lost).
 */
export async function cutTornTail(s: Snapshot, journalPath: string): Promise<{ savedTo: string; lost?: LostCommit }> {
  const j = s.journal;
  const tail = j.tail as JournalTail;
  const savedTo = await saveTailAside(journalPath, j.offset);
  j.key = await truncateJournal(journalPath, j.offset);
  j.size = j.offset;
  j.tail = undefined;
  if (tail.seq !== undefined && tail.seq <= s.seq) return { savedTo };
  return { savedTo, lost: lostCommitOf(tail, s.seq, savedTo, `were saved to ${savedTo}`) };
}

/** Names the commit a torn tail held: its number, how it began, and where its bytes are. */
export function lostCommitOf(tail: JournalTail, lastKept: number, savedTo: string, bytesWhere: string): LostCommit {
  const sequence = lastKept + 1;
  const what = tail.statement ? `commit ${sequence} (${tail.statement}…)` : `commit ${sequence}`;
  return {
    sequence,
    savedTo,
    reason:
      `${what} was only partly written (${tail.reason}): the process writing it stopped before confirming it, or the file was cut later. `
      + `It is lost; the commits up to ${lastKept} are kept, and its bytes ${bytesWhere}.`,
  };
}
