/**
 * Whether a regex can match the code view of a text (see mask.ts), where every string keeps its
 * quotes and has its contents blanked to spaces. A pattern that needs an opening quote followed by
 * text that cannot be a space — `from\s+['"]\.\./`, `require\(\s*"@app/` — can never match there.
 *
 * An opening quote is told from a closing one by what precedes it in the pattern: a space class
 * or one of `( = , : [ {` (a closing quote follows string text, and `'a'.length` is code). Only the top level of the pattern is read (no alternation at depth 0), so a pattern this
 * says "never" about has no other way to match.
 */

interface Token {
  /** What the token can match: a set of characters, or `other` (groups, anchors, backreferences). */
  chars: 'quote' | 'space' | 'opener' | 'solid' | 'other';
  /** Quantified so that it may match nothing. */
  optional: boolean;
  depth: number;
  text: string;
}

const QUOTES = new Set(['"', "'", '`']);
const OPENERS = new Set(['(', '=', ',', ':', '[', '{']);
const SPACE_CLASSES = new Set(['\\s', ' ', '\\t']);
const SOLID_ESCAPES = /^\\[wdSWD.\/@\-_:]$|^\\[^sbBtnrfv0-9kpPuxc]$/;

/**
 * The quoted text the pattern needs (as written), when it can never match in code; else undefined.
 * `quotes`: the characters that open a string in every language the rule covers (`'` is code in Swift).
 */
export function neverMatchesInCode(source: string, quotes = '"\''): string | undefined {
  const tokens = tokenize(source);
  if (!tokens) return undefined;
  if (tokens.some((t) => t.depth === 0 && t.text === '|')) return undefined;
  for (let i = 0; i < tokens.length - 1; i++) {
    const q = tokens[i];
    if (
      q.depth !== 0 || q.chars !== 'quote' || q.optional || ![...quoteChars(q.text)].every((ch) => quotes.includes(ch))
    ) continue;
    const next = tokens[i + 1];
    if (next.depth !== 0 || next.chars !== 'solid' || next.optional) continue;
    if (!opensString(tokens, i)) continue;
    return tokens.slice(i, Math.min(tokens.length, i + 4)).filter((t) => t.depth === 0).map((t) => t.text).join('');
  }
  return undefined;
}

function quoteChars(text: string): string {
  return text.replace(/[[\]\\]/g, '');
}

function opensString(tokens: Token[], at: number): boolean {
  let j = at - 1;
  while (j >= 0 && tokens[j].chars === 'space') j--;
  // At the pattern's start (or after spaces only) the quote may as well close a string.
  if (j < 0) return false;
  return endsInCode(tokens, j);
}

/**
 * Whether the token (or a group, through every alternative's last token) must match a character
 * that is neither a space nor a quote: in the code view such a character before a quote is code, so
 * the quote opens a string (a closing quote follows blanked contents or the opening quote).
 */
function endsInCode(tokens: Token[], j: number): boolean {
  const t = tokens[j];
  if (t.optional) return false;
  if (t.chars === 'solid' || t.chars === 'opener') return true;
  if (t.text !== ')') return false;
  const depth = t.depth;
  for (let k = j - 1; k >= 0 && tokens[k].depth >= depth; k--) {
    const inner = tokens[k];
    if (inner.depth !== depth || (inner.text !== '|' && inner.text !== '(')) continue;
    const last = nextBoundary(tokens, k, depth) - 1;
    if (last === k || !endsInCode(tokens, last)) return false;
    if (inner.text === '(') return true;
  }
  return false;
}

/** The index of the next `|` or `)` of the same group after `k`. */
function nextBoundary(tokens: Token[], k: number, depth: number): number {
  let i = k + 1;
  while (i < tokens.length && !(tokens[i].depth === depth && (tokens[i].text === '|' || tokens[i].text === ')'))) i++;
  return i;
}

/** Tokens of a regex source; undefined when it uses something this reader does not follow. */
function tokenize(source: string): Token[] | undefined {
  const out: Token[] = [];
  let depth = 0;
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    let text: string;
    let chars: Token['chars'];
    if (c === '\\') {
      text = source.slice(i, i + 2);
      chars = SPACE_CLASSES.has(text)
        ? 'space'
        : QUOTES.has(text[1])
        ? 'quote'
        : text === '\\(' || text === '\\[' || text === '\\{'
        ? 'opener'
        : SOLID_ESCAPES.test(text)
        ? 'solid'
        : 'other';
      i += 2;
    } else if (c === '[') {
      const end = classEnd(source, i);
      if (end < 0) return undefined;
      text = source.slice(i, end + 1);
      chars = classKind(text);
      i = end + 1;
    } else if (c === '(') {
      const open = /^\((\?(:|=|!|<=|<!|<[A-Za-z_]\w*>))?/.exec(source.slice(i))!;
      depth++;
      i += open[0].length;
      out.push({ chars: 'other', optional: false, depth, text: '(' });
      continue;
    } else if (c === ')') {
      out.push({ chars: 'other', optional: false, depth, text: ')' });
      depth--;
      i++;
      // A group's quantifier makes what follows it reachable without the group: treat as other.
      continue;
    } else if ('?*+{'.includes(c)) {
      const m = /^(\?|\*|\+|\{(\d*)(,\d*)?\})\??/.exec(source.slice(i));
      if (!m) return undefined;
      const prev = out[out.length - 1];
      if (prev && (m[1] === '?' || m[1] === '*' || m[2] === '0' || m[2] === '')) prev.optional = true;
      i += m[0].length;
      continue;
    } else {
      text = c;
      chars = QUOTES.has(c)
        ? 'quote'
        : c === ' '
        ? 'space'
        : OPENERS.has(c)
        ? 'opener'
        : c === '|' || c === '^' || c === '$' || c === '.'
        ? 'other'
        : 'solid';
      i++;
    }
    out.push({ chars, optional: false, depth, text });
  }
  return depth === 0 ? out : undefined;
}

function classEnd(source: string, start: number): number {
  for (let i = start + 1; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === ']' && i > start + 1) return i;
  }
  return -1;
}

/** A class of quotes only is a quote; a class that cannot hold a space is solid. */
function classKind(text: string): Token['chars'] {
  if (text.startsWith('[^')) return 'other';
  const body = text.slice(1, -1).replace(/\\(.)/g, '$1');
  if ([...body].every((ch) => QUOTES.has(ch))) return 'quote';
  if (/\s|\\s/.test(text.slice(1, -1)) || body.includes(' ')) return 'space';
  return 'solid';
}
