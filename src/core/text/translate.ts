import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isStopword } from './stopwords';

/**
 * English words for the Chinese words of a text, from a glossary derived from CC-CEDICT
 * (`zh-en.json`, CC BY-SA 4.0; scripts/gen-zh-glossary.mjs makes it): a request written in Chinese
 * can then find a skill or a recipe written in English. Words are found by forward maximum matching
 * (three characters, then two) over each run of Han characters; function words are skipped.
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
      for (const n of [3, 2]) {
        if (i + n > chars.length) continue;
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

let glossary: Map<string, string> | undefined;

function loadGlossary(): Map<string, string> {
  if (glossary) return glossary;
  // Beside this module in the sources; in dist/vendor/ when bundled.
  for (const file of [path.join(__dirname, 'zh-en.json'), path.join(__dirname, 'vendor', 'zh-en.json')]) {
    try {
      glossary = new Map(Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>));
      return glossary;
    } catch {
      // try the next place
    }
  }
  glossary = new Map();
  return glossary;
}
