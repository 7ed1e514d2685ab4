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
  return analyzeTokens(tokenize(text));
}

/** `analyze` of a text already split by `tokenize`. */
export function analyzeTokens(tokens: readonly string[]): string[] {
  const out: string[] = [];
  for (const t of tokens) {
    let term = TERM_OF.get(t);
    if (term === undefined) {
      term = isStopword(t) ? null : stem(t);
      if (TERM_OF.size >= MAX_MEMO) TERM_OF.clear();
      TERM_OF.set(t, term);
    }
    if (term !== null) out.push(term);
  }
  return out;
}

/** A token's term (null for a stopword): one lookup where a stopword test and the stemmer's own memo took two and a pattern test. */
const TERM_OF = new Map<string, string | null>();
const MAX_MEMO = 100_000;

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
