/** Sentence and word boundaries for cutting text that people and models read. */

const ABBREVIATION = /(?:^|[\s(])(?:e\.g|i\.e|etc|vs|cf|approx|incl|esp|viz|al|fig|no|st|mr|mrs|dr|jr|sr)\.$/i;

/**
 * The sentence that starts at `start`: up to the first `.`, `!` or `?` that is outside brackets,
 * followed by a space or the end, and not the dot of an abbreviation ("e.g.", "etc.") or of a
 * dotted name (".NET", "Next.js").
 */
export function sentenceAt(text: string, start = 0): string {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if ((c === ')' || c === ']' || c === '}') && depth > 0) depth--;
    else if (
      (c === '.' || c === '!' || c === '?') && depth === 0 && (i + 1 === text.length || /\s/.test(text[i + 1]))
    ) {
      if (c === '.' && ABBREVIATION.test(text.slice(Math.max(start, i - 8), i + 1))) continue;
      return text.slice(start, i + 1);
    }
  }
  return text.slice(start);
}

/** At most `max` characters, cut at the last word boundary (never inside a word) and marked with "…". */
export function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, Math.max(1, max - 1));
  const cut = head.replace(/[\s,;:(\-–—]+\S*$/u, '');
  return `${(cut.length >= max * 0.5 ? cut : head).replace(/[\s,;:(]+$/, '')}…`;
}
