import { promises as fsp } from 'node:fs';
import { slicer } from '../../ground/kernel/slices';
import { tempPathFor } from '../../ground/store/files';
import { crc32 } from '../../ground/store/journal';
import type { SearchIndex } from './index-types';
import { TermIndex, type TermIndexImage } from './term-index';
import { VectorIndex } from './vector-index';

/**
 * The in-memory search index saved beside the database, so that a fresh process (the MCP server an
 * agent starts, the extension after a reload) loads it in a few reads instead of rebuilding it from
 * every recipe row. It is a cache: keyed by the store's id, the index generation it was built at
 * and the embedder, checked for size and shape when read, and ignored (then rebuilt) when anything
 * does not match. A loaded index catches up from its generation like any other.
 *
 * Layout: "ASSI", the format number, the header's length and the CRC-32 of every byte after these
 * 16 (u32 LE each), the header (JSON), then the sections the header lists, each starting at a
 * multiple of 8 bytes so they are read in place. The posting lists are stored encoded (see
 * postings-codec.ts) and decoded on a term's first query; everything else is a typed array used as
 * it lies in the file. Loading is a read, a checksum and size checks: no work per posting.
 */

const MAGIC = 0x49535341; // "ASSI" read as u32 LE
/** 2: encoded posting lists and a checksum (1 held every posting as a float64). */
const FORMAT = 2;
const PREFIX = 16;

export interface SavedIndexKey {
  storeId: string;
  generation: number;
  model: string;
}

interface Header {
  format: number;
  key: SavedIndexKey;
  terms: TermIndexImage['meta'];
  vectors: { dims: number; slots: number };
  kinds: string[];
  languages: string[];
  /** Byte length of each section, in SECTIONS order. */
  sections: number[];
}

type Ctor =
  | Int32ArrayConstructor
  | Float64ArrayConstructor
  | Float32ArrayConstructor
  | Uint8ArrayConstructor
  | Int8ArrayConstructor
  | Uint16ArrayConstructor;

/** The sections, in file order, with the typed array each is read as and how many elements the header says it holds. */
const SECTIONS: [name: string, type: Ctor, count: (h: Header) => number][] = [
  ['terms', Uint8Array, () => -1],
  ['sorted', Int32Array, (h) => h.terms.terms],
  ['counts', Int32Array, (h) => h.terms.terms],
  ['offsets', Float64Array, (h) => h.terms.terms + 1],
  ['postings', Uint8Array, (h) => h.terms.postingBytes],
  ['fwdStart', Int32Array, (h) => h.terms.slots],
  ['fwdLength', Int32Array, (h) => h.terms.slots],
  ['fwdTerm', Int32Array, (h) => h.terms.forward],
  ['fwdPseudo', Float32Array, (h) => h.terms.forward],
  ['fwdFields', Uint8Array, (h) => h.terms.forward],
  ['alive', Uint8Array, (h) => h.terms.slots],
  ['columns', Int8Array, (h) => h.vectors.dims * h.vectors.slots],
  ['has', Uint8Array, (h) => h.vectors.slots],
  ['rid', Int32Array, (h) => h.terms.slots],
  ['kind', Uint16Array, (h) => h.terms.slots],
  ['language', Uint16Array, (h) => h.terms.slots],
  ['deprecated', Uint8Array, (h) => h.terms.slots],
];

const pad8 = (n: number) => (8 - (n % 8)) % 8;

/**
 * The bytes of an index, as chunks to write in order. Everything is copied before this returns, so
 * the index may change while the chunks are written, but not while they are made: the copy awaits
 * `pause` between steps (a slicer, so a large index does not hold the event loop), and the caller's
 * pause throws to abandon it when the index changed meanwhile.
 */
export async function indexFileChunks(
  ix: SearchIndex,
  key: SavedIndexKey,
  pause: () => Promise<void> | undefined = () => undefined,
): Promise<Uint8Array[] | undefined> {
  const terms = await ix.terms.image(pause);
  const termText = terms.terms.join('\n');
  // Terms are analysed words and hold no line break; one that did could not be split back.
  let lines = 1;
  for (let at = termText.indexOf('\n'); at >= 0; at = termText.indexOf('\n', at + 1)) lines++;
  if (terms.terms.length > 0 && lines !== terms.terms.length) return undefined;
  await pause();
  const vectors = ix.vectors.image();
  const slots = terms.meta.slots;
  const codes = (values: string[]) => {
    const dictionary: string[] = [];
    const index = new Map<string, number>();
    const out = new Uint16Array(slots);
    for (let s = 0; s < slots; s++) {
      const v = values[s] ?? '';
      let c = index.get(v);
      if (c === undefined) index.set(v, c = dictionary.push(v) - 1);
      out[s] = c;
    }
    return { dictionary, out };
  };
  const kind = codes(ix.kind);
  const language = codes(ix.language);
  if (kind.dictionary.length > 0xffff || language.dictionary.length > 0xffff) return undefined;
  const rid = new Int32Array(slots).fill(-1);
  for (let s = 0; s < slots; s++) if (terms.alive[s]) rid[s] = ix.rid[s];
  const data: Record<string, ArrayBufferView> = {
    sorted: terms.sorted,
    counts: terms.counts,
    offsets: terms.offsets,
    postings: terms.postings,
    fwdStart: terms.fwdStart,
    fwdLength: terms.fwdLength,
    fwdTerm: terms.fwdTerm,
    fwdPseudo: terms.fwdPseudo,
    fwdFields: terms.fwdFields,
    alive: terms.alive,
    terms: Buffer.from(termText, 'utf8'),
    columns: vectors.columns,
    has: vectors.has,
    rid,
    kind: kind.out,
    language: language.out,
    deprecated: ix.deprecated.slice(0, slots),
  };
  const bodies = SECTIONS.map(([name]) =>
    new Uint8Array(data[name].buffer, data[name].byteOffset, data[name].byteLength)
  );
  const header: Header = {
    format: FORMAT,
    key,
    terms: terms.meta,
    vectors: { dims: vectors.dims, slots: vectors.slots },
    kinds: kind.dictionary,
    languages: language.dictionary,
    sections: bodies.map((b) => b.byteLength),
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const head = Buffer.alloc(PREFIX + json.length + pad8(PREFIX + json.length));
  head.writeUInt32LE(MAGIC, 0);
  head.writeUInt32LE(FORMAT, 4);
  head.writeUInt32LE(json.length, 8);
  json.copy(head, PREFIX);
  const chunks: Uint8Array[] = [head];
  for (const b of bodies) {
    chunks.push(b);
    if (pad8(b.byteLength)) chunks.push(new Uint8Array(pad8(b.byteLength)));
  }
  let sum = crc32(head.subarray(PREFIX));
  for (const c of chunks.slice(1)) sum = crc32(c, sum);
  head.writeUInt32LE(sum, 12);
  return chunks;
}

/** Writes the chunks to `file` through a temporary file and a rename, so a reader sees the old file or the whole new one. */
export async function writeIndexFile(file: string, chunks: Uint8Array[]): Promise<void> {
  const tmp = tempPathFor(file);
  try {
    const fh = await fsp.open(tmp, 'wx');
    try {
      await fh.writev(chunks);
    } finally {
      await fh.close();
    }
    await fsp.rename(tmp, file);
  } catch (e) {
    await fsp.rm(tmp, { force: true });
    throw e;
  }
}

/** Why a saved index was not used, or the index it holds. */
export type LoadedIndex = { ix: SearchIndex; key: SavedIndexKey } | { reason: string };

/** Reads a saved index; anything but a whole, well-formed file of this format is a reason, never an exception. */
export async function readIndexFile(file: string): Promise<LoadedIndex> {
  let raw: Buffer;
  try {
    raw = await fsp.readFile(file);
  } catch (e) {
    return {
      reason: (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'none saved' : `unreadable: ${(e as Error).message}`,
    };
  }
  try {
    return await parse(raw);
  } catch (e) {
    return { reason: `damaged: ${(e as Error).message}` };
  }
}

/** Parses in steps with a turn of the event loop between them, so a large index does not hold the extension host. */
async function parse(raw: Buffer): Promise<LoadedIndex> {
  const turn = slicer();
  if (raw.length < 12 || raw.readUInt32LE(0) !== MAGIC) return { reason: 'not a saved search index' };
  if (raw.readUInt32LE(4) !== FORMAT) return { reason: `format ${raw.readUInt32LE(4)}, this version reads ${FORMAT}` };
  if (raw.length < PREFIX) throw new Error('cut short');
  const jsonLength = raw.readUInt32LE(8);
  if (PREFIX + jsonLength > raw.length) throw new Error('header cut short');
  if (crc32(raw.subarray(PREFIX)) !== raw.readUInt32LE(12)) throw new Error('checksum mismatch (cut short or changed)');
  await turn();
  const header = JSON.parse(raw.toString('utf8', PREFIX, PREFIX + jsonLength)) as Header;
  if (!Array.isArray(header.sections) || header.sections.length !== SECTIONS.length) {
    throw new Error('wrong number of sections');
  }
  // Typed arrays need their element size's alignment: read from an 8-aligned copy when the buffer is not.
  const bytes = raw.byteOffset % 8 === 0 ? raw : Buffer.from(new Uint8Array(raw));
  let at = PREFIX + jsonLength + pad8(PREFIX + jsonLength);
  const views: Record<string, ArrayBufferView> = {};
  for (const [i, [name, type, count]] of SECTIONS.entries()) {
    const length = header.sections[i];
    const expected = count(header);
    if (
      !Number.isSafeInteger(length) || length < 0 || length % type.BYTES_PER_ELEMENT !== 0
      || (expected >= 0 && length !== expected * type.BYTES_PER_ELEMENT)
    ) {
      throw new Error(`section ${name} holds ${length} bytes`);
    }
    if (at + length > bytes.length) throw new Error(`cut short in section ${name}`);
    views[name] = new type(bytes.buffer as ArrayBuffer, bytes.byteOffset + at, length / type.BYTES_PER_ELEMENT);
    at += length + pad8(length);
  }
  if (at !== bytes.length) throw new Error(`${bytes.length - at} bytes after the last section`);
  const v = views as Record<string, never>;
  const termBytes: Uint8Array = v.terms;
  const termsText = Buffer.from(termBytes.buffer, termBytes.byteOffset, termBytes.byteLength).toString('utf8');
  const terms = header.terms.terms === 0 ? [] : termsText.split('\n');
  if (terms.length !== header.terms.terms) {
    throw new Error(`${terms.length} terms where the header says ${header.terms.terms}`);
  }
  await turn();
  // What the checksum cannot vouch for, a file written wrongly: ids and ranges that index other
  // arrays would make a search throw, not just rank wrong. Checked per term, slot and forward entry;
  // not per posting: a list is checked as it is decoded (a posting's slot out of range reads as a
  // removed document).
  const termCount = header.terms.terms;
  const fwdTerm: Int32Array = v.fwdTerm;
  for (let i = 0; i < fwdTerm.length; i++) {
    if (!(fwdTerm[i] >= 0 && fwdTerm[i] < termCount)) throw new Error(`a forward entry names term ${fwdTerm[i]}`);
  }
  const counts: Int32Array = v.counts;
  const sorted: Int32Array = v.sorted;
  let postings = 0;
  for (let i = 0; i < termCount; i++) {
    if (!(sorted[i] >= 0 && sorted[i] < termCount)) throw new Error(`the term order names term ${sorted[i]}`);
    if (counts[i] < 0) throw new Error(`term ${i} has ${counts[i]} postings`);
    postings += counts[i];
  }
  if (postings !== header.terms.postings) throw new Error('list lengths do not add up to the postings');
  const slots = header.terms.slots;
  const fwdStart: Int32Array = v.fwdStart;
  const fwdLength: Int32Array = v.fwdLength;
  for (let s = 0; s < slots; s++) {
    if (fwdStart[s] < 0 || fwdLength[s] < 0 || fwdStart[s] + fwdLength[s] > header.terms.forward) {
      throw new Error(`slot ${s} points outside the forward entries`);
    }
  }
  await turn();

  const termIndex = TermIndex.restore({
    meta: header.terms,
    terms,
    sorted: v.sorted,
    counts: v.counts,
    offsets: v.offsets,
    postings: v.postings,
    fwdStart: v.fwdStart,
    fwdLength: v.fwdLength,
    fwdTerm: v.fwdTerm,
    fwdPseudo: v.fwdPseudo,
    fwdFields: v.fwdFields,
    alive: v.alive,
  });
  const vectors = VectorIndex.restore({
    dims: header.vectors.dims,
    slots: header.vectors.slots,
    columns: v.columns,
    has: v.has,
  });
  const rid: Int32Array = v.rid;
  const kind: Uint16Array = v.kind;
  const language: Uint16Array = v.language;
  const ix: SearchIndex = {
    generation: header.key.generation,
    origin: 'saved',
    changes: 0,
    model: header.key.model,
    terms: termIndex,
    vectors,
    rid: Array.from(rid),
    kind: Array.from(kind, (c) => header.kinds[c] ?? ''),
    language: Array.from(language, (c) => header.languages[c] ?? ''),
    deprecated: new Uint8Array(Math.max(1024, slots)),
    slotOf: new Map(),
  };
  ix.deprecated.set(v.deprecated);
  for (let s = 0; s < slots; s++) {
    if (termIndex.isAlive(s)) ix.slotOf.set(rid[s], s);
  }
  return { ix, key: header.key };
}
