import { readDataFile } from './data-file';
import { isStopword } from './stopwords';

/**
 * English words for the Chinese words of a text, so that a request written in Chinese can find a
 * skill or a recipe written in English. Two glossaries:
 * - `zh-en-dev.json` (ours, MIT): the vocabulary of software work as developers write it (仓库 →
 *   repository, 周报 → weekly status report, 挂 → fail crash), one to four characters; it wins over
 * - `zh-en.json` (CC BY-SA 4.0, derived from CC-CEDICT by scripts/gen-zh-glossary.mjs): general
 *   words of two or three characters.
 * Words are found by forward maximum matching (four characters down to one) over each run of Han
 * characters; function words are skipped.
 */
export function englishGlosses(text: string): string[] {
  const runs = text.match(/\p{Script=Han}+/gu);
  if (!runs) return [];
  const glossary = loadGlossary();
  const out: string[] = [];
  for (const run of runs) {
    const chars = [...run];
    const words: string[] = [];
    for (let i = 0; i < chars.length;) {
      // The candidates at i, one to four characters, built by appending (a constant cost per character).
      words.length = 0;
      for (let n = 0, w = ''; n < MAX_WORD && i + n < chars.length; n++) words.push(w += chars[i + n]);
      let matched = 0;
      for (let n = words.length; n >= 1; n--) {
        const gloss = glossary.get(words[n - 1]);
        if (gloss === undefined) continue;
        if (!isStopword(words[n - 1])) { for (const g of gloss.split(' ')) out.push(g); }
        matched = n;
        break;
      }
      i += matched || 1;
    }
  }
  return out;
}

const MAX_WORD = 4;
let glossary: Map<string, string> | undefined;

/** Both glossaries in one map, the developer one over the general one. */
function loadGlossary(): Map<string, string> {
  if (glossary) return glossary;
  glossary = new Map([...Object.entries(readBeside('zh-en.json')), ...Object.entries(readBeside('zh-en-dev.json'))]);
  return glossary;
}

/** A glossary file (see `readDataFile`); empty when missing or unreadable. */
function readBeside(name: string): Record<string, string> {
  try {
    return JSON.parse(readDataFile(name)?.toString('utf8') ?? '{}') as Record<string, string>;
  } catch {
    return {};
  }
}
