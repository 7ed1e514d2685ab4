/**
 * How search reads text: identifiers are split (`fetchUserById` → fetch, user, by, id, and the whole
 * word), CJK runs become overlapping bigrams (they have no spaces), everything is lower case. The
 * keyword index stores text in this form, so SQLite's tokenizer only has to split on spaces.
 */

const STOPWORDS = new Set(
  'a an and are as at be by for from has have how i in is it its of on or that the this to was were what when where which who why will with do does should can use using'.split(' '),
);

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]/;

/** Words of a text in search form, in order, with repeats. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.match(/[\p{L}\p{N}_$]+/gu) ?? []) {
    if (CJK.test(raw)) {
      for (const run of raw.match(/[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]+|[^\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]+/g) ?? []) {
        if (CJK.test(run)) {
          if (run.length === 1) out.push(run);
          for (let i = 0; i + 1 < run.length; i++) out.push(run.slice(i, i + 2));
        } else out.push(...splitIdentifier(run));
      }
      continue;
    }
    out.push(...splitIdentifier(raw));
  }
  return out;
}

/** `fetchUserById` → fetchuserbyid, fetch, user, by, id; `MAX_RETRIES` → maxretries, max, retries. */
function splitIdentifier(word: string): string[] {
  const parts = word
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_$]+/)
    .filter(Boolean)
    .map((p) => p.toLowerCase());
  const whole = word.replace(/[_$]/g, '').toLowerCase();
  if (parts.length <= 1) return whole ? [whole] : [];
  return [whole, ...parts];
}

export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

/** The words of a query worth searching for: stop words dropped unless nothing else is left. */
export function queryTerms(query: string): string[] {
  const all = [...new Set(tokenize(query))];
  const content = all.filter((t) => !STOPWORDS.has(t));
  return (content.length ? content : all).slice(0, 32);
}

/** Text as the keyword index stores it. */
export function indexForm(text: string | undefined, maxChars = Infinity): string {
  if (!text) return '';
  const t = text.length > maxChars ? text.slice(0, maxChars) : text;
  return tokenize(t).join(' ');
}
