/**
 * Posting lists as bytes, for the saved search index. A list is in impact order (pseudo-frequency
 * descending, slot ascending among equal ones), so it is written as runs of equal impact: the run's
 * length (varint), the impact's float32 bits (4 bytes, little-endian), then its slots as ascending
 * deltas (varints, the first one absolute). Documents with the same field lengths and counts share an
 * impact, so most lists are a few runs of small deltas: one to two bytes a posting instead of eight.
 * A list is decoded on its first query, never at load.
 */

const f32 = new Float32Array(1);
const f32Bytes = new Uint8Array(f32.buffer);

/** A growable byte buffer. */
export class ByteWriter {
  bytes = new Uint8Array(1 << 16);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const next = new Uint8Array(Math.max(this.length + n, this.bytes.length * 2));
    next.set(this.bytes.subarray(0, this.length));
    this.bytes = next;
  }

  varint(v: number): void {
    this.room(5);
    while (v >= 0x80) {
      this.bytes[this.length++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.bytes[this.length++] = v;
  }

  float32(v: number): void {
    this.room(4);
    f32[0] = v;
    this.bytes.set(f32Bytes, this.length);
    this.length += 4;
  }

  raw(b: Uint8Array): void {
    this.room(b.length);
    this.bytes.set(b, this.length);
    this.length += b.length;
  }

  result(): Uint8Array<ArrayBuffer> {
    return this.bytes.slice(0, this.length);
  }
}

/** Appends a list (in impact order) to `out`. */
export function encodePostings(slots: Int32Array, impacts: Float32Array, length: number, out: ByteWriter): void {
  for (let i = 0; i < length;) {
    let end = i + 1;
    while (end < length && impacts[end] === impacts[i]) end++;
    out.varint(end - i);
    out.float32(impacts[i]);
    let previous = 0;
    for (let j = i; j < end; j++) {
      out.varint(slots[j] - previous);
      previous = slots[j];
    }
    i = end;
  }
}

/**
 * The `count` postings encoded in `bytes[start, end)`; undefined when they do not decode to exactly
 * that (a damaged file: the caller treats the list as empty rather than read past it).
 */
export function decodePostings(
  bytes: Uint8Array,
  start: number,
  end: number,
  count: number,
): { slots: Int32Array; impacts: Float32Array } | undefined {
  if (!(start >= 0 && start <= end && end <= bytes.length && count >= 0)) return undefined;
  const slots = new Int32Array(count);
  const impacts = new Float32Array(count);
  let at = start;
  const varint = (): number => {
    let v = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (at >= end) return -1;
      const b = bytes[at++];
      v += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return v;
    }
    return -1;
  };
  let i = 0;
  while (i < count) {
    const run = varint();
    if (run <= 0 || i + run > count || at + 4 > end) return undefined;
    for (let k = 0; k < 4; k++) f32Bytes[k] = bytes[at + k];
    at += 4;
    const impact = f32[0];
    let slot = 0;
    for (let k = 0; k < run; k++, i++) {
      const delta = varint();
      if (delta < 0) return undefined;
      slot += delta;
      slots[i] = slot;
      impacts[i] = impact;
    }
  }
  return at === end ? { slots, impacts } : undefined;
}
