import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';

/**
 * A data file of the text layer (glossaries, word vectors, technology names): beside this module in
 * the sources, in dist/vendor/ when bundled; undefined when neither can be read (the feature that
 * needs it then does without). The build ships the large ones brotli-compressed as `NAME.br`.
 */
export function readDataFile(name: string, dirs = [__dirname, path.join(__dirname, 'vendor')]): Buffer | undefined {
  for (const file of dirs.map((dir) => path.join(dir, name))) {
    const bytes = readOrUndefined(file) ?? readOrUndefined(`${file}.br`, brotliDecompressSync);
    if (bytes) return bytes;
  }
  return undefined;
}

function readOrUndefined(file: string, decode: (b: Buffer) => Buffer = (b) => b): Buffer | undefined {
  try {
    return decode(readFileSync(file));
  } catch {
    return undefined; // not there (or not readable): the caller tries the next place
  }
}
