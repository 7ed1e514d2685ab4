import { isStopword } from './stopwords';

/**
 * The longest token the analyser gives. Longer ones are dropped: no word is that long, and the
 * steps after tokenizing (the stemmer most of all) cost more than linear time in a token's length.
 * The longest identifiers of real code (`NSManagedObjectContextObjectsDidChangeNotification`, long
 * snake_case test names) fit, and a long identifier's parts are kept when its whole is dropped.
 */
export const MAX_TOKEN_CHARS = 64;

/**
 * Words of a text in search form, in order, with repeats, in lower case:
 * - identifiers are split and kept whole: `fetchUserById` → fetchuserbyid, fetch, user, by, id;
 * - scripts written without spaces (Chinese, Japanese, Thai…) are cut into words by
 *   `Intl.Segmenter`; function words (的, 了, の, を…) split a run into stretches, and each stretch
 *   gives its overlapping character bigrams plus its words of three or more characters. Bigrams match
 *   whatever the segmenter's dictionary says; the words add precision where it knows them.
 * Stopwords are kept here (the keyword index stores every word); `analyze` drops them.
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  // A scan by character codes: a group is a run of ASCII word characters and characters beyond ASCII
  // with no separator between them ("café", "用Python写"); a group that is all ASCII is split here,
  // one with characters beyond ASCII goes through the Unicode-aware path. Regular expressions and
  // string concatenation per piece were most of the time an index build spent here.
  let checkLength = false;
  const n = text.length;
  for (let i = 0; i < n;) {
    let c = text.charCodeAt(i);
    if (!isGroupChar(c)) {
      i++;
      continue;
    }
    const start = i;
    let ascii = true;
    let plain = true;
    for (; i < n; c = text.charCodeAt(++i)) {
      if (c >= 0x80) ascii = false;
      else if (!isAsciiWordChar(c)) break;
      else if (!isLowerOrDigit(c)) plain = false;
    }
    const group = text.slice(start, i);
    if (!ascii) {
      unicodeWords(group, out);
      checkLength = true;
    } else {
      if (plain) out.push(group);
      else splitAsciiIdentifier(group, out);
      if (group.length > MAX_TOKEN_CHARS) checkLength = true;
    }
  }
  return checkLength && out.some((t) => t.length > MAX_TOKEN_CHARS)
    ? out.filter((t) => t.length <= MAX_TOKEN_CHARS)
    : out;
}

/** `[A-Za-z0-9_$]`. */
const isAsciiWordChar = (c: number) =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36;
const isGroupChar = (c: number) => c >= 0x80 || isAsciiWordChar(c);

const isUpper = (c: number) => c >= 65 && c <= 90;
const isLowerOrDigit = (c: number) => (c >= 97 && c <= 122) || (c >= 48 && c <= 57);

/**
 * `splitIdentifier` for a word of ASCII letters, digits, `_` and `$`, by character codes: the same
 * pieces without the Unicode regular expressions, which are most of the time an index build spends
 * on words. A piece starts after `_`/`$`, at an upper-case letter after a lower-case letter or digit
 * (`userId`), and at the last capital of a run followed by a lower-case letter (`HTTPServer`).
 */
export function splitAsciiIdentifier(word: string, out: string[]): void {
  const n = word.length;
  const lower = word.toLowerCase(); // ASCII: same length, so pieces are slices of it
  const first = out.length;
  let start = 0;
  let separators = false;
  for (let i = 0; i < n; i++) {
    const c = word.charCodeAt(i);
    if (c === 95 || c === 36) {
      if (i > start) out.push(lower.slice(start, i));
      start = i + 1;
      separators = true;
      continue;
    }
    if (i > start && isUpper(c)) {
      const before = word.charCodeAt(i - 1);
      const after = i + 1 < n ? word.charCodeAt(i + 1) : 0;
      if (isLowerOrDigit(before) || (isUpper(before) && after >= 97 && after <= 122)) {
        out.push(lower.slice(start, i));
        start = i;
      }
    }
  }
  if (n > start) out.push(lower.slice(start, n));
  const whole = separators ? lower.replace(/[_$]/g, '') : lower;
  if (out.length - first <= 1) {
    out.length = first;
    if (whole) out.push(whole);
    return;
  }
  out.splice(first, 0, whole);
}

/** Words of a text that has characters beyond ASCII. */
function unicodeWords(text: string, out: string[]): void {
  for (const raw of text.match(WORD) ?? []) {
    if (PLAIN.test(raw)) {
      out.push(raw);
      continue;
    }
    if (!UNSPACED.test(raw)) {
      splitIdentifier(raw, out);
      continue;
    }
    for (const run of raw.match(RUNS) ?? []) {
      if (UNSPACED.test(run)) unspacedTerms(run, out);
      else splitIdentifier(run, out);
    }
  }
}

const WORD = /[\p{L}\p{N}\p{M}_$]+/gu;
// Most words of English text and code: nothing to split, nothing to segment.
const PLAIN = /^[a-z0-9]+$/;
// Han, Hiragana, Katakana (and their extensions), Thai, Lao, Khmer, Myanmar: no spaces between words.
const UNSPACED_CLASS =
  '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}ー々';
const UNSPACED = new RegExp(`[${UNSPACED_CLASS}]`, 'u');
const RUNS = new RegExp(`[${UNSPACED_CLASS}\\p{M}]+|[^${UNSPACED_CLASS}]+`, 'gu');

// Immutable and costly to create, so one per process.
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

/**
 * The segmenter's dictionary search costs more than linear time in the length of the run it is given,
 * so a longer run is given to it in windows of this many characters. A word across a window's edge is
 * cut in two; the bigrams are not, as a stretch runs on across windows. Runs of real text between
 * punctuation are far shorter.
 */
const SEGMENTER_WINDOW = 256;

function* segmentsOf(run: string): Generator<Intl.SegmentData> {
  for (let start = 0; start < run.length;) {
    let end = Math.min(run.length, start + SEGMENTER_WINDOW);
    // Never between the two halves of a character beyond the Basic Multilingual Plane.
    if (end < run.length && isLowSurrogate(run.charCodeAt(end))) end--;
    yield* segmenter.segment(start === 0 && end === run.length ? run : run.slice(start, end));
    start = end;
  }
}

const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;

function unspacedTerms(run: string, out: string[]): void {
  let stretch = '';
  const flush = () => {
    const chars = [...stretch];
    if (chars.length === 1) out.push(stretch);
    for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
    stretch = '';
  };
  for (const { segment, isWordLike } of segmentsOf(run)) {
    if (!isWordLike || isStopword(segment)) {
      flush();
      continue;
    }
    stretch += segment;
    if ([...segment].length >= 3) out.push(segment);
  }
  flush();
}

/** `fetchUserById` → fetchuserbyid, fetch, user, by, id; `MAX_RETRIES` → maxretries, max, retries. */
export function splitIdentifier(word: string, out: string[]): void {
  const whole = word.replace(/[_$]/g, '').toLowerCase();
  if (!/\p{Lu}/u.test(word.slice(1)) && !/[_$]/.test(word)) {
    if (whole) out.push(whole);
    return;
  }
  const parts = word
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, '$1 $2')
    // The last capital of a run that starts a word (`HTTPServer`), found by looking ahead: matching the
    // run itself backtracks over it from every start, quadratic in its length.
    .replace(/(\p{Lu})(?=\p{Lu}\p{Ll})/gu, '$1 ')
    .split(/[\s_$]+/)
    .filter(Boolean)
    .map((p) => p.toLowerCase());
  if (parts.length <= 1) {
    if (whole) out.push(whole);
    return;
  }
  out.push(whole, ...parts);
}
