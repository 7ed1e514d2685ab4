/**
 * BM25 computed from FTS4's `matchinfo(table, 'pcnalx')`: sql.js has FTS3/FTS4 but not FTS5, so there
 * is no `bm25()` function. The blob is an array of 32-bit unsigned integers:
 *   p            number of phrases in the query
 *   c            number of columns
 *   n            number of rows in the table
 *   a[c]         average number of tokens per column
 *   l[c]         tokens in each column of this row
 *   x[p][c][3]   per phrase and column: hits in this row, hits in all rows, rows with a hit
 * Each column gets its own idf and length normalisation, then a weight (BM25F-like).
 * Recipe search uses it; documents held in memory use `Bm25fIndex`.
 */
export const MATCHINFO_FORMAT = 'pcnalx';

export interface Bm25Score {
  score: number;
  /** Indexes of the columns that matched at least one term. */
  columns: number[];
  /** How many of the query's phrases matched somewhere in this row. */
  phrasesMatched: number;
}

export function bm25(info: Uint8Array, weights: readonly number[], k1 = 1.2, b = 0.75): Bm25Score {
  const m = toUint32(info);
  const p = m[0];
  const c = m[1];
  const n = m[2];
  const avg = 3;
  const len = 3 + c;
  const x = 3 + 2 * c;
  let score = 0;
  let matchedMask = 0;
  let phrasesMatched = 0;
  for (let i = 0; i < p; i++) {
    let phraseHit = false;
    for (let j = 0; j < c; j++) {
      const w = weights[j] ?? 1;
      const base = x + 3 * (i * c + j);
      const tf = m[base];
      if (tf === 0 || w === 0) continue;
      phraseHit = true;
      matchedMask |= 1 << j;
      const df = m[base + 2];
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      const avgLen = m[avg + j] || 1;
      const norm = tf + k1 * (1 - b + (b * m[len + j]) / avgLen);
      score += w * idf * ((tf * (k1 + 1)) / norm);
    }
    if (phraseHit) phrasesMatched++;
  }
  const columns: number[] = [];
  for (let j = 0; j < c; j++) if (matchedMask & (1 << j)) columns.push(j);
  return { score, columns, phrasesMatched };
}

function toUint32(info: Uint8Array): Uint32Array {
  if (info.byteOffset % 4 === 0) return new Uint32Array(info.buffer, info.byteOffset, info.byteLength >>> 2);
  return new Uint32Array(info.slice().buffer);
}

/** Query-wide statistics from one row's `matchinfo(table, 'pcnax')`: they are the same on every row. */
export interface QueryStats {
  phrases: number;
  columns: number;
  rows: number;
  avgLength: Float64Array;
  /** idf of phrase i in column j at [i * columns + j]. */
  idf: Float64Array;
}

export const STATS_FORMAT = 'pcnax';
/** Per-row hits only: cheap, unlike 'l', which reads each row's stored size. */
export const HITS_FORMAT = 'pcy';

export function queryStats(info: Uint8Array): QueryStats {
  const m = toUint32(info);
  const [p, c, n] = [m[0], m[1], m[2]];
  const avgLength = new Float64Array(c);
  for (let j = 0; j < c; j++) avgLength[j] = m[3 + j] || 1;
  const idf = new Float64Array(p * c);
  for (let i = 0; i < p; i++) {
    for (let j = 0; j < c; j++) {
      const df = m[3 + c + 3 * (i * c + j) + 2];
      idf[i * c + j] = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    }
  }
  return { phrases: p, columns: c, rows: n, avgLength, idf };
}

/**
 * BM25 of one row from its per-row hits (`matchinfo 'pcy'`), the query's statistics and the row's
 * column lengths kept beside the index: the same score as `bm25` on 'pcnalx', without the per-row
 * size lookup that makes 'l' costly.
 */
export function bm25Hits(hits: Uint8Array, lengths: ArrayLike<number>, offset: number, s: QueryStats, weights: readonly number[], k1 = 1.2, b = 0.75): Bm25Score {
  const y = toUint32(hits);
  const { phrases: p, columns: c } = s;
  let score = 0;
  let matchedMask = 0;
  let phrasesMatched = 0;
  for (let i = 0; i < p; i++) {
    let phraseHit = false;
    for (let j = 0; j < c; j++) {
      const tf = y[2 + i * c + j];
      const w = weights[j] ?? 1;
      if (tf === 0 || w === 0) continue;
      phraseHit = true;
      matchedMask |= 1 << j;
      const norm = tf + k1 * (1 - b + (b * lengths[offset + j]) / s.avgLength[j]);
      score += w * s.idf[i * c + j] * ((tf * (k1 + 1)) / norm);
    }
    if (phraseHit) phrasesMatched++;
  }
  const columns: number[] = [];
  for (let j = 0; j < c; j++) if (matchedMask & (1 << j)) columns.push(j);
  return { score, columns, phrasesMatched };
}
