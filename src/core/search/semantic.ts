import type { Workspace } from '../workspace';
import { embedderOf } from './documents';
import type { SearchFilter } from './keyword';
import { passes, searchIndexCache, type SearchIndexCache } from './index-cache';

export interface SemanticHit {
  rid: number;
  /** Cosine similarity, -1..1. */
  similarity: number;
}

/** Below this, a vector match says nothing: it is left out rather than fused in as noise. */
export const MIN_SIMILARITY = 0.12;

/** Above this many vectors, a sign-bit (Hamming) pass picks a shortlist that the exact scan then ranks. */
export const EXACT_SCAN_MAX = 20_000;
const SHORTLIST = 2_000;

export async function embedQuery(ws: Workspace, text: string, signal?: AbortSignal): Promise<Float32Array> {
  return (await embedderOf(ws).embed([text], signal))[0];
}

/** The recipes nearest in meaning to `query` (or to a ready vector), most similar first. */
export async function semanticSearch(ws: Workspace, query: string | Float32Array, filter: SearchFilter = {}, limit = 20, minSimilarity = MIN_SIMILARITY): Promise<SemanticHit[]> {
  const q = typeof query === 'string' ? await embedQuery(ws, query) : query;
  return nearest(await searchIndexCache(ws), q, filter, limit, minSimilarity);
}

/**
 * Brute-force dot products over the int8 matrix: 100,000 recipes × 256 dimensions is tens of
 * milliseconds in JavaScript, so above EXACT_SCAN_MAX a sign-bit pass picks the shortlist first.
 */
function nearest(m: SearchIndexCache, q: Float32Array, filter: SearchFilter, limit: number, minSimilarity: number): SemanticHit[] {
  const n = m.size;
  const dims = m.dims;
  const eligible = (i: number) => m.hasVector[i] === 1 && passes(m, i, filter);
  const rows = n > EXACT_SCAN_MAX ? shortlist(m, q, Math.max(SHORTLIST, limit * 20), eligible) : undefined;
  // A sorted top-k array: simple, and fine for k ≤ 100.
  const top: SemanticHit[] = [];
  let floor = minSimilarity;
  const count = rows ? rows.length : n;
  for (let k = 0; k < count; k++) {
    const i = rows ? rows[k] : k;
    if (!rows && !eligible(i)) continue;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let p = i * dims;
    for (let d = 0; d < dims; d += 4, p += 4) {
      s0 += q[d] * m.vectors[p];
      s1 += q[d + 1] * m.vectors[p + 1];
      s2 += q[d + 2] * m.vectors[p + 2];
      s3 += q[d + 3] * m.vectors[p + 3];
    }
    const sim = (s0 + s1 + s2 + s3) / 127;
    if (sim < floor) continue;
    let at = top.length;
    while (at > 0 && top[at - 1].similarity < sim) at--;
    top.splice(at, 0, { rid: m.rids[i], similarity: sim });
    if (top.length > limit) {
      top.pop();
      floor = Math.max(floor, top[top.length - 1].similarity);
    }
  }
  return top.map((h) => ({ rid: h.rid, similarity: Math.round(h.similarity * 1000) / 1000 }));
}

/** The `size` eligible rows whose sign bits differ least from the query's (Hamming distance), by a histogram of distances. */
function shortlist(m: SearchIndexCache, q: Float32Array, size: number, eligible: (i: number) => boolean): Int32Array {
  const n = m.size;
  const words = m.words;
  const qb = new Int32Array(words);
  for (let d = 0; d < m.dims; d++) if (q[d] > 0) qb[d >>> 5] |= 1 << (d & 31);
  const dist = new Uint16Array(n);
  const histogram = new Uint32Array(words * 32 + 2);
  for (let i = 0; i < n; i++) {
    if (!eligible(i)) {
      dist[i] = 65535;
      continue;
    }
    let h = 0;
    const base = i * words;
    for (let w = 0; w < words; w++) h += popcount(m.bits[base + w] ^ qb[w]);
    dist[i] = h;
    histogram[h]++;
  }
  let cut = 0;
  for (let total = 0; cut < histogram.length - 1 && total + histogram[cut] < size; cut++) total += histogram[cut];
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (dist[i] <= cut) out.push(i);
  return Int32Array.from(out);
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}
