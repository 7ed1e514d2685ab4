import { stem } from './stem';
import { isStopword } from './stopwords';
import { tokenize } from './tokenize';

/**
 * Bumped whenever `analyze` gives different terms for the same text, so stored indexes built with
 * the old analyser are rebuilt.
 */
export const ANALYZER_VERSION = 4;

/** The terms of a text for search: tokenized (Unicode words, CJK bigrams, identifiers split), stopwords dropped, stemmed. */
export function analyze(text: string): string[] {
  const out: string[] = [];
  for (const t of tokenize(text)) {
    if (!isStopword(t)) out.push(stem(t));
  }
  return out;
}

/** The distinct terms of a query, in order, at most 32; stopwords only when nothing else is left ("how to"). */
export function queryTerms(query: string): string[] {
  const terms = [...new Set(analyze(query))];
  if (terms.length === 0) terms.push(...new Set(tokenize(query).map(stem)));
  return terms.slice(0, 32);
}

/** Text as the keyword index stores it: its terms, separated by spaces. */
export function indexForm(text: string | undefined, maxChars = Infinity): string {
  if (!text) return '';
  return analyze(text.length > maxChars ? text.slice(0, maxChars) : text).join(' ');
}
