import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A data file of the text layer (glossaries, word vectors, technology names): beside this module in
 * the sources, in dist/vendor/ when bundled; undefined when neither can be read (the feature that
 * needs it then does without).
 */
export function readDataFile(name: string): Buffer | undefined {
  for (const file of [path.join(__dirname, name), path.join(__dirname, 'vendor', name)]) {
    try {
      return readFileSync(file);
    } catch {
      // try the next place
    }
  }
  return undefined;
}
