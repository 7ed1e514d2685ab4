/**
 * A posting as one float64 key, so a list sorts natively into impact order: the float32 bits of the
 * pseudo-frequency above a 22-bit slot, the slot stored inverted so that descending order puts lower
 * slots first among equal impacts. And the list a term index keeps per term.
 */

const SLOT_BITS = 22;
const SLOT_SPAN = 2 ** SLOT_BITS;
/** Slots that fit a key (one is kept back). */
export const MAX_SLOTS_IN_KEYS = SLOT_SPAN - 1;

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
// The slot is stored inverted, so that descending order puts lower slots first among equal impacts.
export const pack = (pseudo: number, slot: number) => {
  f32[0] = pseudo;
  return u32[0] * SLOT_SPAN + (SLOT_SPAN - 1 - slot);
};
// `key - floor(key / SPAN) * SPAN` is `key % SPAN`: every step is exact for keys below 2^53, and a
// float modulo is a call out of compiled code where this is a division and a multiplication.
export const slotOf = (key: number) => SLOT_SPAN - 1 - (key - Math.floor(key / SLOT_SPAN) * SLOT_SPAN);
export const pseudoOf = (key: number) => {
  u32[0] = Math.floor(key / SLOT_SPAN);
  return f32[0];
};

export interface Postings {
  /** Absent for a restored list until it changes: it is read as `slots` and `impacts` (see `keysOf`). */
  keys?: Float64Array;
  /** The keys unpacked (see `decoded`), while the list has not changed. */
  slots?: Int32Array;
  impacts?: Float32Array;
  length: number;
  /** Live postings (the list also holds removed documents' until it is next compacted). */
  live: number;
  /** Appended since the list was last sorted. */
  dirty: boolean;
}

/** A list's keys, packed from its slots and impacts when it was restored and has not changed since. */
export function keysOf(list: Postings): Float64Array {
  if (!list.keys) {
    const keys = new Float64Array(list.length);
    for (let i = 0; i < list.length; i++) keys[i] = pack(list.impacts![i], list.slots![i]);
    list.keys = keys;
  }
  return list.keys;
}

/** A list's keys unpacked into slots and pseudo-frequencies. */
export function unpack(list: Postings): { slots: Int32Array; impacts: Float32Array } {
  const keys = list.keys!;
  const slots = new Int32Array(list.length);
  const impacts = new Float32Array(list.length);
  for (let i = 0; i < list.length; i++) {
    const key = keys[i];
    const high = Math.floor(key / SLOT_SPAN);
    slots[i] = SLOT_SPAN - 1 - (key - high * SLOT_SPAN);
    u32[0] = high;
    impacts[i] = f32[0];
  }
  return { slots, impacts };
}

type Typed = Float64Array | Float32Array | Int32Array | Uint32Array | Uint8Array;

export function grow<T extends Typed>(a: T, size: number): T {
  const next = new (a.constructor as new(n: number) => T)(size);
  next.set(a);
  return next;
}
