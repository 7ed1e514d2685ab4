import porter2 from 'wink-porter2-stemmer';

/**
 * The Porter2 (Snowball English) stem of a lower-case word: write/writes/writing meet at "write",
 * while "theme" stays apart from "them". Words with digits, non-Latin words and short words are kept
 * as they are.
 */
export function stem(word: string): string {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  let s = cache.get(word);
  if (s === undefined) {
    s = porter2(BRITISH.get(word) ?? word);
    if (cache.size >= 50_000) cache.clear();
    cache.set(word, s);
  }
  return s;
}

// Stems are pure functions of the word; a bounded memo makes indexing large texts cheap.
const cache = new Map<string, string>();

// British spellings whose Porter2 stems differ from the American ones.
const BRITISH = new Map(
  'analyse:analyze analysed:analyzed analyses:analyzes analysing:analyzing organise:organize organised:organized organising:organizing organisation:organization initialise:initialize initialised:initialized initialisation:initialization serialise:serialize serialised:serialized serialisation:serialization normalise:normalize normalised:normalized normalisation:normalization optimise:optimize optimised:optimized optimisation:optimization customise:customize customised:customized prioritise:prioritize summarise:summarize summarised:summarized behaviour:behavior behaviours:behaviors colour:color colours:colors favourite:favorite licence:license licences:licenses catalogue:catalog catalogues:catalogs'
    .split(' ')
    .map((pair) => pair.split(':') as [string, string]),
);
