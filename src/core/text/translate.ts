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
    for (let i = 0; i < chars.length; ) {
      let matched = 0;
      for (let n = Math.min(MAX_WORD, chars.length - i); n >= 1; n--) {
        const word = chars.slice(i, i + n).join('');
        const gloss = glossary.get(word);
        if (gloss === undefined) continue;
        if (!isStopword(word)) out.push(...gloss.split(' '));
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
