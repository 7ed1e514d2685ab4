/**
 * The write-ahead journal beside the database image: one framed record per committed transaction.
 *
 * File layout: a header, then records.
 *   header v2 (48 bytes): "ASJ2" | id (8) | lineage (8) | baseSeq (u64) | image size (u64) | image crc32 (u32)
 *                         | 4 zero bytes | crc32 of the preceding 44 bytes
 *   header v1 (32 bytes, still read): "ASJ1" | id (8) | lineage (8) | baseSeq (u64) | crc32 of the preceding 28 bytes
 *   record: "ASR1" | payload length (u32) | crc32 of seq+payload (u32) | seq (u64) | payload (JSON)
 * `id` changes whenever the journal is replaced, so a reader's cached offset is never applied to
 * another file. `lineage` names the database the journal belongs to; `baseSeq` is the image's
 * sequence when the journal was started, and the image's size and checksum let a reader verify
 * every byte of the image it continues without SQLite's slow page walk. Records carry global,
 * contiguous sequence numbers.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import zlib from 'node:zlib';
import { fileKey, fsyncDir, tempPathFor } from './files';
import type { SqlParams, SqlValue } from './types';

/** Size of the header this version writes; a v1 journal's records start at 32. */
export const JOURNAL_HEADER_BYTES = 48;
const V1_HEADER_BYTES = 32;
export const RECORD_HEADER_BYTES = 20;
const HEADER_MAGIC = Buffer.from('ASJ2');
const V1_HEADER_MAGIC = Buffer.from('ASJ1');
const RECORD_MAGIC = Buffer.from('ASR1');
const MAX_RECORD_BYTES = 512 * 1024 * 1024;

/** CRC-32 (IEEE 802.3) by zlib, continuing `previous` (the CRC of the bytes before these); `zlib.crc32` exists from Node 20.15 (see `crc32Missing`). */
export function crc32(bytes: Uint8Array, previous = 0): number {
  return zlib.crc32(bytes, previous) >>> 0;
}

/** Node older than 20.15 has no zlib.crc32: say so plainly instead of failing on the first commit. */
export function crc32Missing(): string | undefined {
  return typeof (zlib as { crc32?: unknown }).crc32 === 'function'
    ? undefined
    : `AutoSnippet needs Node.js 20.15 or newer (this is ${process.version}): its database checksums use zlib.crc32.`;
}

/** The image a journal continues: its size and CRC-32, so a reader can check every byte of it. */
export interface ImageSum {
  bytes: number;
  crc32: number;
}

export interface JournalHeader {
  id: string;
  lineage: string;
  baseSeq: number;
  /** The image this journal was started after; absent in v1 journals and when there was none. */
  image?: ImageSum;
  /** Where the records start (the header's own size). */
  size: number;
}

/** A bound value as stored in JSON: blobs as base64, non-finite numbers by name. */
type EncodedValue = string | number | null | { b64: string } | { num: string };
type EncodedParams = EncodedValue[] | Record<string, EncodedValue>;
/** One executed statement: sql, its parameters, and 1 when it failed (replayed for its partial effects, errors ignored). */
export type JournalOp = [sql: string, params?: EncodedParams | null, failed?: 1];

export interface JournalRecord {
  seq: number;
  ops: JournalOp[];
  /** Offset just past this record. */
  end: number;
}

export type JournalRead =
  | { kind: 'missing' }
  | { kind: 'damaged'; reason: string; key: string }
  | {
    kind: 'ok';
    header: JournalHeader;
    /** Well-formed records from the requested offset on. */
    records: JournalRecord[];
    /** Offset just past the last well-formed record. */
    validEnd: number;
    /** File size and identity (see fileKey) at the moment of reading. */
    size: number;
    key: string;
    /** Bytes after validEnd that are not a record: a crashed writer's tail, or damage with data after it. */
    tail?: JournalTail;
  };

/** What follows the last good record. `seq` and `statement` describe the bad record as far as it can be read. */
export interface JournalTail {
  kind: 'torn' | 'corrupt';
  reason: string;
  /** The commit the bad record claims to be (unverified: its checksum failed or it is incomplete). */
  seq?: number;
  /** How the first statement of that commit begins, when its bytes say so. */
  statement?: string;
}

export function newJournalId(): string {
  return randomBytes(8).toString('hex');
}

export function encodeHeader(h: Omit<JournalHeader, 'size'>): Buffer {
  const buf = Buffer.alloc(JOURNAL_HEADER_BYTES);
  HEADER_MAGIC.copy(buf, 0);
  Buffer.from(h.id, 'hex').copy(buf, 4, 0, 8);
  Buffer.from(h.lineage, 'hex').copy(buf, 12, 0, 8);
  buf.writeBigUInt64LE(BigInt(h.baseSeq), 20);
  buf.writeBigUInt64LE(BigInt(h.image?.bytes ?? 0), 28);
  buf.writeUInt32LE(h.image?.crc32 ?? 0, 36);
  buf.writeUInt32LE(crc32(buf.subarray(0, 44)), 44);
  return buf;
}

function decodeHeader(buf: Buffer): JournalHeader | string {
  const v1 = buf.length >= 4 && buf.subarray(0, 4).equals(V1_HEADER_MAGIC);
  const size = v1 ? V1_HEADER_BYTES : JOURNAL_HEADER_BYTES;
  if (buf.length < size) return `journal header is truncated (${buf.length} bytes)`;
  if (!v1 && !buf.subarray(0, 4).equals(HEADER_MAGIC)) return 'journal header has the wrong magic number';
  if (buf.readUInt32LE(size - 4) !== crc32(buf.subarray(0, size - 4))) return 'journal header checksum mismatch';
  const imageBytes = v1 ? 0 : Number(buf.readBigUInt64LE(28));
  return {
    id: buf.toString('hex', 4, 12),
    lineage: buf.toString('hex', 12, 20),
    baseSeq: Number(buf.readBigUInt64LE(20)),
    ...(imageBytes > 0 ? { image: { bytes: imageBytes, crc32: buf.readUInt32LE(36) } } : {}),
    size,
  };
}

function encodeValue(v: SqlValue): EncodedValue {
  if (v instanceof Uint8Array) return { b64: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') };
  if (typeof v === 'number' && !Number.isFinite(v)) return { num: String(v) };
  return v;
}

function decodeValue(v: EncodedValue): SqlValue {
  if (v === null || typeof v !== 'object') return v;
  if ('b64' in v) return new Uint8Array(Buffer.from(v.b64, 'base64'));
  return Number(v.num);
}

export function encodeOp(sql: string, params: SqlParams | undefined, failed: boolean): JournalOp {
  let encoded: EncodedParams | null = null;
  if (Array.isArray(params)) encoded = params.map(encodeValue);
  else if (params) encoded = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, encodeValue(v)]));
  return failed ? [sql, encoded, 1] : encoded ? [sql, encoded] : [sql];
}

export function decodeParams(p: EncodedParams | null | undefined): SqlParams | undefined {
  if (!p) return undefined;
  if (Array.isArray(p)) return p.map(decodeValue);
  return Object.fromEntries(Object.entries(p).map(([k, v]) => [k, decodeValue(v)]));
}

export function encodeRecord(seq: number, ops: JournalOp[]): Buffer {
  const payload = Buffer.from(JSON.stringify(ops), 'utf8');
  const buf = Buffer.alloc(RECORD_HEADER_BYTES + payload.length);
  RECORD_MAGIC.copy(buf, 0);
  buf.writeUInt32LE(payload.length, 4);
  buf.writeBigUInt64LE(BigInt(seq), 12);
  payload.copy(buf, RECORD_HEADER_BYTES);
  buf.writeUInt32LE(crc32(buf.subarray(12)), 8);
  return buf;
}

/** A bad record is the crashed writer's tail when nothing but zeros (or nothing) follows it. */
function classifyBadRecord(buf: Buffer, from: number, recordEnd: number, reason: string): JournalTail {
  for (let i = Math.max(recordEnd, from); i < buf.length; i++) {
    if (buf[i] !== 0) return { kind: 'corrupt', reason, ...describeBadRecord(buf, from) };
  }
  return { kind: 'torn', reason, ...describeBadRecord(buf, from) };
}

/** The commit number and first statement of a record that failed its checks, as far as its bytes go. */
function describeBadRecord(buf: Buffer, at: number): Pick<JournalTail, 'seq' | 'statement'> {
  if (buf.length - at < RECORD_HEADER_BYTES || !buf.subarray(at, at + 4).equals(RECORD_MAGIC)) return {};
  const seq = Number(buf.readBigUInt64LE(at + 12));
  const head = buf.toString('utf8', at + RECORD_HEADER_BYTES, Math.min(buf.length, at + RECORD_HEADER_BYTES + 200));
  const statement = /^\[\["((?:[^"\\]|\\.){1,80})/.exec(head)?.[1]?.replace(/\s+/g, ' ').trim();
  return { seq, ...(statement ? { statement } : {}) };
}

function parseRecords(
  buf: Buffer,
  base: number,
): Omit<Extract<JournalRead, { kind: 'ok' }>, 'kind' | 'header' | 'size' | 'key'> {
  const records: JournalRecord[] = [];
  let pos = 0;
  let tail: JournalTail | undefined;
  while (pos < buf.length) {
    const at = `record at offset ${base + pos}`;
    if (buf.length - pos < RECORD_HEADER_BYTES) {
      tail = { kind: 'torn', reason: `${at}: incomplete header (${buf.length - pos} of ${RECORD_HEADER_BYTES} bytes)` };
      break;
    }
    if (!buf.subarray(pos, pos + 4).equals(RECORD_MAGIC)) {
      tail = classifyBadRecord(buf, pos, pos, `${at}: bad magic number`);
      break;
    }
    const length = buf.readUInt32LE(pos + 4);
    const end = pos + RECORD_HEADER_BYTES + length;
    if (length > MAX_RECORD_BYTES || end > buf.length) {
      const written = buf.length - pos;
      tail = {
        kind: 'torn',
        reason: `${at}: incomplete (${written} of ${RECORD_HEADER_BYTES + length} bytes written)`,
        ...describeBadRecord(buf, pos),
      };
      break;
    }
    if (buf.readUInt32LE(pos + 8) !== crc32(buf.subarray(pos + 12, end))) {
      tail = classifyBadRecord(buf, pos, end, `${at}: checksum mismatch`);
      break;
    }
    let ops: JournalOp[];
    try {
      ops = JSON.parse(buf.toString('utf8', pos + RECORD_HEADER_BYTES, end)) as JournalOp[];
      if (!Array.isArray(ops)) throw new Error('not a list of statements');
    } catch (e) {
      tail = {
        kind: 'corrupt',
        reason: `${at}: unreadable payload (${(e as Error).message})`,
        seq: Number(buf.readBigUInt64LE(pos + 12)),
      };
      break;
    }
    records.push({ seq: Number(buf.readBigUInt64LE(pos + 12)), ops, end: base + end });
    pos = end;
  }
  return { records, validEnd: base + pos, tail };
}

/**
 * Reads the journal synchronously: the header, then records from `from.offset` when the file is
 * still the one with id `from.id`, else from the first record.
 */
export function readJournal(journalPath: string, from?: { id: string | null; offset: number }): JournalRead {
  let fd: number;
  try {
    fd = fs.openSync(journalPath, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw e;
  }
  try {
    const st = fs.fstatSync(fd, { bigint: true });
    const key = fileKey(st);
    const size = Number(st.size);
    const headerBuf = Buffer.alloc(Math.min(JOURNAL_HEADER_BYTES, size));
    fs.readSync(fd, headerBuf, 0, headerBuf.length, 0);
    const header = decodeHeader(headerBuf);
    if (typeof header === 'string') return { kind: 'damaged', reason: header, key };
    const start = from && from.id === header.id && from.offset >= header.size
      ? Math.min(from.offset, size)
      : header.size;
    const body = Buffer.alloc(size - start);
    let got = 0;
    while (got < body.length) {
      const n = fs.readSync(fd, body, got, body.length - got, start + got);
      if (n === 0) break;
      got += n;
    }
    return { kind: 'ok', header, size: start + got, key, ...parseRecords(body.subarray(0, got), start) };
  } finally {
    fs.closeSync(fd);
  }
}

/** Starts a journal with only a header, replacing any existing one atomically. Returns its identity. */
export async function createJournal(journalPath: string, header: Omit<JournalHeader, 'size'>): Promise<string> {
  const tmp = tempPathFor(journalPath);
  const fh = await fs.promises.open(tmp, 'wx');
  try {
    await fh.write(encodeHeader(header));
    await fh.datasync();
  } finally {
    await fh.close();
  }
  await fs.promises.rename(tmp, journalPath);
  await fsyncDir(journalPath);
  return fileKey(await fs.promises.stat(journalPath, { bigint: true }));
}

/** Appends one record and flushes it to disk. Returns the journal's identity afterwards. */
export async function appendRecord(journalPath: string, record: Buffer): Promise<string> {
  const fh = await fs.promises.open(journalPath, 'a');
  try {
    await fh.write(record);
    await fh.datasync();
    return fileKey(await fh.stat({ bigint: true }));
  } finally {
    await fh.close();
  }
}

/** Cuts the journal back to `length` bytes (a torn tail, or a failed append). Returns its identity. */
export async function truncateJournal(journalPath: string, length: number): Promise<string> {
  const fh = await fs.promises.open(journalPath, 'r+');
  try {
    await fh.truncate(length);
    await fh.datasync();
    return fileKey(await fh.stat({ bigint: true }));
  } finally {
    await fh.close();
  }
}
