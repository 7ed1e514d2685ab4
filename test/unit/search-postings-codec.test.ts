// Posting lists as the saved search index stores them: runs of equal impact with delta-encoded
// slots. What is encoded decodes to the same list; bytes that are cut short, run on or were changed
// decode to nothing (the list reads as empty) instead of to a wrong list or an exception.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ByteWriter, decodePostings, encodePostings } from '../../src/core/domains/search/postings-codec';
import { TermIndex } from '../../src/core/domains/search/term-index';

/** A list in impact order: impacts descending, slots ascending among equal impacts, as a term index keeps it. */
function list(n: number, seed: number): { slots: Int32Array; impacts: Float32Array } {
  const rows = Array.from({ length: n }, (_, i) => ({
    slot: (i * 7919 + seed * 104729) % 4_000_000, // slots up to the 22-bit range: deltas of one to four bytes
    impact: Math.fround(1 + ((i * seed) % 5) * 0.37), // five impacts: long runs
  }));
  const seen = new Set<number>();
  const unique = rows.filter((r) => !seen.has(r.slot) && seen.add(r.slot));
  unique.sort((a, b) => b.impact - a.impact || a.slot - b.slot);
  return {
    slots: Int32Array.from(unique, (r) => r.slot),
    impacts: Float32Array.from(unique, (r) => r.impact),
  };
}

test('lists of any length decode to exactly what was encoded, one after another in one buffer', () => {
  const lists = [0, 1, 2, 17, 1000, 25_000].map((n, k) => list(n, k + 3));
  const out = new ByteWriter();
  const offsets = [0];
  for (const l of lists) {
    encodePostings(l.slots, l.impacts, l.slots.length, out);
    offsets.push(out.length);
  }
  const bytes = out.result();
  lists.forEach((l, k) => {
    const d = decodePostings(bytes, offsets[k], offsets[k + 1], l.slots.length);
    assert.ok(d, `list ${k}`);
    assert.deepEqual(d.slots, l.slots, `list ${k}: slots`);
    assert.deepEqual(d.impacts, l.impacts, `list ${k}: impacts`);
  });
  const postings = lists.reduce((sum, l) => sum + l.slots.length, 0);
  assert.ok(bytes.length < postings * 4, `${bytes.length} bytes for ${postings} postings: under half of 8 bytes each`);
});

test('cut short, running on, a wrong count or a changed byte decodes to nothing, never past the list', () => {
  const l = list(300, 5);
  const out = new ByteWriter();
  encodePostings(l.slots, l.impacts, l.slots.length, out);
  const bytes = out.result();
  const n = l.slots.length;
  assert.equal(decodePostings(bytes, 0, bytes.length - 1, n), undefined, 'cut short by one byte');
  assert.equal(decodePostings(bytes, 0, bytes.length, n + 1), undefined, 'one posting more than the bytes hold');
  assert.equal(decodePostings(bytes, 0, bytes.length, n - 1), undefined, 'one posting fewer: bytes left over');
  assert.equal(decodePostings(bytes, 0, bytes.length + 8, n), undefined, 'an end past the buffer');
  assert.equal(decodePostings(bytes, 5, 2, n), undefined, 'an end before the start');
  const runOn = Uint8Array.from(bytes);
  runOn[runOn.length - 1] |= 0x80; // the last varint never ends
  assert.equal(decodePostings(runOn, 0, runOn.length, n), undefined, 'a varint that runs on');
  const longRun = Uint8Array.from(bytes);
  longRun[0] = 0x7f; // the first run claims 127 postings, more than its bytes hold or the count allows
  assert.equal(decodePostings(longRun, 0, longRun.length, n), undefined, 'a run longer than the list');
});

test('a restored term index whose list bytes are damaged answers without that list, and the others as before', async () => {
  const fields = [{ weight: 2, b: 0.75 }, { weight: 1, b: 0.75 }];
  const doc = (i: number) => [[`t${i % 5}`], ['body', `w${i % 7}`]];
  const original = new TermIndex(fields, Array.from({ length: 100 }, (_, i) => doc(i).map((f) => f.length)));
  for (let i = 0; i < 100; i++) original.add(doc(i));
  const img = await original.image();
  const terms = img.terms;
  const damaged = { ...img, postings: Uint8Array.from(img.postings) };
  const w3 = terms.indexOf('w3');
  // The list of "w3" made to end before its bytes do: it no longer decodes.
  damaged.offsets = Float64Array.from(img.offsets);
  damaged.offsets[w3 + 1] -= 1;
  const restored = TermIndex.restore(damaged);
  const ask = (ix: TermIndex, t: string) =>
    ix.search({ terms: [t], prefixLast: false, limit: 5, accept: () => true }).map((h) => h.slot);
  assert.deepEqual(ask(restored, 'w3'), [], 'the damaged list reads as empty');
  assert.deepEqual(ask(restored, 't2'), ask(original, 't2'), 'another list answers as before');
  assert.equal(ask(original, 'w3').length, 5, 'the original does find w3');
});
