import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TermIndex } from '../../src/core/domains/search/term-index';
import { MAX_SLOTS_IN_KEYS, pack, pseudoOf, slotOf, unpack } from '../../src/core/domains/search/term-keys';
import { VectorIndex } from '../../src/core/domains/search/vector-index';
import { Bm25fIndex } from '../../src/core/ground/text';

const FIELDS = [8, 4, 2, 1].map((weight) => ({ weight, b: 0.75 }));
const NAMES = ['trigger', 'title', 'summary', 'body'] as const;

/** A corpus with a Zipf-like vocabulary (a few words everywhere, most rare) and one with flat, repetitive words. */
function corpus(n: number, vocabulary: number, zipf: boolean, seed = 1): string[][][] {
  let s = seed;
  const random = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const word = () => `w${zipf ? Math.floor(vocabulary ** random()) : Math.floor(random() * vocabulary)}`;
  return Array.from(
    { length: n },
    () => [1, 4, 10, 40].map((len) => Array.from({ length: 1 + Math.floor(random() * len) }, word)),
  );
}

function reference(docs: string[][][]) {
  return new Bm25fIndex(
    Object.fromEntries(NAMES.map((f, i) => [f, FIELDS[i]])) as Record<
      (typeof NAMES)[number],
      { weight: number; b: number }
    >,
    docs.map((d) => Object.fromEntries(NAMES.map((f, i) => [f, d[i]])) as Record<(typeof NAMES)[number], string[]>),
  );
}

for (const [label, zipf] of [['skewed', true], ['flat', false]] as const) {
  test(`top-k equals the exhaustive BM25F ranking on a ${label} vocabulary (threshold algorithm and term at a time)`, async () => {
    const docs = corpus(3000, label === 'flat' ? 60 : 5000, zipf);
    const index = new TermIndex(FIELDS, docs.map((d) => d.map((f) => f.length)));
    for (const d of docs) index.add(d);
    await index.sortAll();
    const ref = reference(docs);
    const queries = [
      ['w1', 'w2'],
      ['w3', 'w10', 'w40', 'w41'],
      ['w7'],
      ['w0', 'w1', 'w2', 'w3', 'w4', 'w5'],
      ['w999', 'w5'],
      ['w12', 'nothing'],
    ];
    for (const terms of queries) {
      for (const limit of [1, 10, 30]) {
        const got = index.search({ terms, prefixLast: false, limit, accept: () => true });
        const want = ref.search(terms, limit);
        assert.deepEqual(got.map((h) => h.slot), want.map((m) => m.doc), `${terms.join(' ')} @${limit}`);
        got.forEach((h, i) =>
          assert.ok(Math.abs(h.score - want[i].score) < 1e-3, `${terms.join(' ')}: ${h.score} vs ${want[i].score}`)
        );
        got.forEach((h, i) => assert.equal(h.termsMatched, new Set(want[i].terms).size));
      }
    }
  });
}

test('top-k stays exact on random queries with filters, against the exhaustive ranking', async () => {
  for (const [vocabulary, zipf, seed] of [[300, true, 3], [80, false, 5]] as const) {
    const docs = corpus(4000, vocabulary, zipf, seed);
    const index = new TermIndex(FIELDS, docs.map((d) => d.map((f) => f.length)));
    for (const d of docs) index.add(d);
    await index.sortAll();
    const ref = reference(docs);
    let s = seed;
    const random = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
    for (let n = 0; n < 60; n++) {
      // Distinct terms, as queryTerms gives them.
      const terms = [
        ...new Set(
          Array.from({ length: 1 + Math.floor(random() * 5) }, () => `w${Math.floor(random() * (vocabulary / 3))}`),
        ),
      ];
      const keep = n % 3; // no filter, every other document, or the documents whose slot is not a multiple of 7
      const accept = (slot: number) => keep === 0 || (keep === 1 ? slot % 2 === 0 : slot % 7 !== 0);
      for (const limit of [1, 10]) {
        const got = index.search({ terms, prefixLast: false, limit, accept });
        const want = ref.search(terms, docs.length).filter((m) => accept(m.doc)).slice(0, limit);
        const label = `${terms.join(' ')} @${limit}, filter ${keep}`;
        assert.deepEqual(got.map((h) => h.slot), want.map((m) => m.doc), label);
        got.forEach((h, i) =>
          assert.ok(Math.abs(h.score - want[i].score) < 1e-3, `${label}: ${h.score} vs ${want[i].score}`)
        );
        got.forEach((h, i) => assert.equal(h.termsMatched, new Set(want[i].terms).size, label));
      }
    }
  }
});

test('removed documents are never returned; filters apply; fields and the matched share are reported', async () => {
  const docs = [
    [['fetchretry', 'fetch', 'retri'], ['fetch', 'retri'], ['wrap', 'http', 'call'], []],
    [[], ['log', 'error'], ['pass', 'error', 'last'], ['retri', 'log']],
    [[], ['paginat'], ['cursor'], ['retri']],
  ];
  const index = new TermIndex(FIELDS, docs.map((d) => d.map((f) => f.length)));
  docs.forEach((d) => index.add(d));
  const hits = index.search({ terms: ['retri', 'fetch'], prefixLast: false, limit: 10, accept: () => true });
  assert.deepEqual(hits.map((h) => h.slot), [0, 2, 1], 'the shorter body ranks its match higher');
  assert.equal(hits[0].fieldMask, 0b0011, 'trigger and title');
  assert.equal(hits[2].fieldMask, 0b1000, 'body');
  assert.deepEqual(hits.map((h) => h.termsMatched), [2, 1, 1]);
  assert.deepEqual(
    index.search({ terms: ['retri'], prefixLast: false, limit: 10, accept: (slot) => slot !== 1 }).map((h) => h.slot),
    [0, 2],
  );
  index.remove(0);
  assert.deepEqual(
    index.search({ terms: ['retri', 'fetch'], prefixLast: false, limit: 10, accept: () => true }).map((h) => h.slot),
    [2, 1],
  );
  assert.equal(index.live, 2);
});

test('lists already searched take later documents and removals: every live match is found, and no removed one', () => {
  // Two passes: the threshold algorithm (skewed words) and term at a time (flat words) read the lists unpacked and kept.
  for (const [vocabulary, zipf] of [[5000, true], [40, false]] as const) {
    const docs = corpus(1200, vocabulary, zipf, 7);
    const index = new TermIndex(FIELDS, docs.slice(0, 800).map((d) => d.map((f) => f.length)));
    const queries = [['w1', 'w2'], ['w3', 'w10', 'w4'], ['w0', 'w5', 'w6', 'w7', 'w8']];
    const check = (live: Set<number>, label: string) => {
      for (const terms of queries) {
        const got = index.search({ terms, prefixLast: false, limit: 10, accept: () => true }).map((h) => h.slot);
        for (const slot of got) {
          assert.ok(live.has(slot), `${label}: removed document ${slot} returned for ${terms.join(' ')}`);
        }
        const best = index.search({ terms, prefixLast: false, limit: 1200, accept: () => true }).map((h) => h.slot);
        const expected = [...live].filter((slot) => terms.some((t) => docs[slot].some((f) => f.includes(t))));
        assert.deepEqual(
          [...best].sort((a, b) => a - b),
          expected.sort((a, b) => a - b),
          `${label}: every live match of ${terms.join(' ')}`,
        );
      }
    };
    const live = new Set<number>();
    for (let i = 0; i < 800; i++) live.add(index.add(docs[i]));
    check(live, 'built');
    for (let i = 800; i < 1200; i++) live.add(index.add(docs[i]));
    check(live, 'after adding to searched lists');
    for (let i = 0; i < 1200; i += 3) {
      index.remove(i);
      live.delete(i);
    }
    check(live, 'after removing a third');
  }
});

test('the last term matches as a prefix: the word itself at full weight, its completions at half', () => {
  const docs = [
    [['retri'], [], [], []],
    [['retrier'], [], [], []],
    [['retriev'], [], [], []],
    [['other'], [], [], []],
  ];
  const index = new TermIndex(FIELDS, docs.map((d) => d.map((f) => f.length)));
  docs.forEach((d) => index.add(d));
  const hits = index.search({ terms: ['retri'], prefixLast: true, limit: 10, accept: () => true });
  assert.deepEqual(hits.map((h) => h.slot), [0, 1, 2]);
  assert.ok(hits[0].score > hits[1].score);
  assert.deepEqual(
    index.search({ terms: ['retri'], prefixLast: false, limit: 10, accept: () => true }).map((h) => h.slot),
    [0],
  );
  // a word added later is found as a completion too
  index.add([['retrieval'], [], [], []]);
  assert.deepEqual(
    index.search({ terms: ['retrieva'], prefixLast: true, limit: 10, accept: () => true }).map((h) => h.slot),
    [4],
  );
});

test('vector index: exact cosine ranking over int8 vectors, cleared slots and filters left out', () => {
  const dims = 8;
  const v = new VectorIndex(dims, 2);
  const unit = (xs: number[]) => {
    const norm = Math.hypot(...xs);
    return Float32Array.from(xs.map((x) => x / norm));
  };
  const int8 = (f: Float32Array) => new Uint8Array(Int8Array.from(f, (x) => Math.round(x * 127)).buffer);
  const vectors = [
    unit([1, 0, 0, 0, 0, 0, 0, 0]),
    unit([1, 1, 0, 0, 0, 0, 0, 0]),
    unit([0, 0, 1, 0, 0, 0, 0, 0]),
    unit([1, 0.2, 0, 0, 0, 0, 0, 1]),
  ];
  vectors.forEach((x, slot) => v.set(slot, int8(x)));
  const q = unit([1, 0.1, 0, 0, 0, 0, 0, 0]);
  const exact = vectors.map((x, slot) => ({ slot, sim: x.reduce((a, xi, d) => a + xi * q[d], 0) })).filter((h) =>
    h.sim >= 0.1
  ).sort((a, b) => b.sim - a.sim);
  const got = v.nearest(q, 10, 0.1, () => true);
  assert.deepEqual(got.map((h) => h.slot), exact.map((h) => h.slot));
  got.forEach((h, i) => assert.ok(Math.abs(h.similarity - exact[i].sim) < 0.02));
  v.clear(0);
  assert.ok(!v.nearest(q, 10, 0.1, () => true).some((h) => h.slot === 0));
  assert.deepEqual(v.nearest(q, 10, 0.1, (slot) => slot !== 1).map((h) => h.slot), [3]);
});

test('a posting key gives back its slot and impact, at the ends of both ranges', () => {
  const f32 = new Float32Array(1);
  const impacts = [0, 1e-30, 0.5, 1, 3.25, 1e6, 3e38].map((x) => ((f32[0] = x), f32[0]));
  const slots = [0, 1, 2, 1023, 2 ** 21, MAX_SLOTS_IN_KEYS - 1];
  const keys: number[] = [];
  for (const p of impacts) {
    for (const slot of slots) {
      const key = pack(p, slot);
      keys.push(key);
      assert.equal(slotOf(key), slot);
      assert.equal(pseudoOf(key), p);
    }
  }
  const list = unpack({ keys: Float64Array.from(keys), length: keys.length, live: keys.length, dirty: false });
  assert.deepEqual([...list.slots], impacts.flatMap(() => slots));
  assert.deepEqual([...list.impacts], impacts.flatMap((p) => slots.map(() => p)));
});
