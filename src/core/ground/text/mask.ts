import { type LexFamily, lexFamily } from '../kernel/languages';

/** What each character of a text is: code, part of a comment, or inside a string/regex literal. */
export const CODE = 0;
export const COMMENT = 1;
export const STRING = 2;

export interface MaskedText {
  /** The text with comment and string contents replaced by spaces (newlines and delimiters kept). */
  code: string;
  /** One entry per UTF-16 unit: CODE, COMMENT or STRING. */
  kinds: Uint8Array;
  /** What `remaskText` needs to re-lex only around an edit: the blanked ranges and the outermost template literals, as flat [from, to) pairs. */
  lexed?: { blanks: number[]; templates: number[] };
}

const NL = 10, SPACE = 32, SLASH = 47, STAR = 42, BACKSLASH = 92, HASH = 35, DQ = 34, SQ = 39, BT = 96;
const DOLLAR = 36, LBRACE = 123, RBRACE = 125, AT = 64;

/** Characters where something other than plain code may start, per family. */
const INTERESTING: Record<LexFamily, RegExp> = {
  js: /[\/"'`{}]/g,
  swift: /[\/"#]/g,
  kotlin: /[\/"']/g,
  java: /[\/"']/g,
  go: /[\/"'`]/g,
  rust: /[\/"']|(?<![\w])b?r#*"|(?<![\w])b'/g,
  c: /[\/"'@]/g,
  python: /#|(?<![\w])[rbfuRBFU]{1,2}(?=["'])|["']/g,
  hash: /[#"']/g,
};

/**
 * One linear pass over the text that finds comments and strings with the lexical rules of the
 * language's family. It is not a parser: it errs toward "code" on malformed input, and it never
 * looks back more than one token (for JavaScript's regex-or-division question).
 */
export function maskText(text: string, language: string, opts: { forRemask?: boolean } = {}): MaskedText {
  const family = lexFamily(language);
  const kinds = new Uint8Array(text.length);
  const lex = new Lexer(text, kinds, family);
  lex.run();
  // What a later `remaskText` starts from: kept only for a document being edited (not a scan's thousands of files).
  return {
    code: blankRanges(text, lex.blanks),
    kinds,
    ...(opts.forRemask ? { lexed: { blanks: lex.blanks, templates: lex.templates } } : {}),
  };
}

/**
 * The mask of `text`, a new version of `prev.text`, lexing only from the start of the edited line back
 * to where the lexer is in plain code, up to the first line after the edit where it is in the same
 * state as it was on the same text before (then the rest is the previous mask, shifted). The result is
 * the one `maskText` gives (a randomized test holds it to that); a keystroke in a 5,000-line file
 * re-lexes a few lines instead of the file.
 */
export function remaskText(
  prev: { text: string; masked: MaskedText },
  text: string,
  language: string,
  changed?: { edit?: TextEdit },
): MaskedText {
  const old = prev.text;
  const lexed = prev.masked.lexed;
  if (!lexed || old === text) return old === text ? prev.masked : maskText(text, language, { forRemask: true });
  const diff = changedSpan(old, text);
  const { masked, from, until } = remask(prev, lexed, text, language, diff);
  if (changed) changed.edit = codeEdit(prev.masked.code, masked.code, diff, from, until);
  return masked;
}

/** The changed span between two versions of a text, in the text or its mask: [start, oldEnd) before, [start, newEnd) after. */
export interface TextEdit {
  start: number;
  oldEnd: number;
  newEnd: number;
}

/**
 * Where the text or its mask changed: the text's own diff widened by the code of the re-lexed lines
 * [from, until) (a quote typed on one line changes the mask of the next ones). Outside them the masks
 * are copies. What a diff of both texts and both masks finds.
 */
function codeEdit(oldCode: string, code: string, diff: TextEdit, from: number, until: number | undefined): TextEdit {
  const shift = diff.newEnd - diff.oldEnd;
  let s = from;
  while (s < diff.start && oldCode.charCodeAt(s) === code.charCodeAt(s)) s++;
  let e = until ?? code.length;
  while (e > diff.newEnd && e - shift > diff.oldEnd && oldCode.charCodeAt(e - 1 - shift) === code.charCodeAt(e - 1)) {
    e--;
  }
  return { start: s, oldEnd: e - shift, newEnd: e };
}

function remask(
  prev: { text: string; masked: MaskedText },
  lexed: NonNullable<MaskedText['lexed']>,
  text: string,
  language: string,
  diff: TextEdit,
): { masked: MaskedText; from: number; until?: number } {
  const old = prev.text;
  const { start, oldEnd, newEnd } = diff;
  const pk = prev.masked.kinds;
  const inTemplate = (spans: number[], at: number) => {
    for (let t = 0; t < spans.length; t += 2) if (spans[t] < at && at < spans[t + 1]) return true;
    return false;
  };
  // Restart at a line start in plain code, outside any template literal, at or before the edit.
  // (lastIndexOf with a negative start still looks at offset 0.)
  const lineStart = (at: number) => (at <= 0 ? 0 : old.lastIndexOf('\n', at - 1) + 1);
  let r = lineStart(start);
  while (r > 0 && (pk[r - 1] !== CODE || inTemplate(lexed.templates, r))) r = lineStart(r - 1);
  const kinds = new Uint8Array(text.length);
  kinds.set(pk.subarray(0, r));
  const family = lexFamily(language);
  const lex = new Lexer(text, kinds, family);
  lex.startAt(r);
  const shift = newEnd - oldEnd;
  // Back in step: a line start after the edit, in plain code now and before, where the last code
  // token before it (what the next `/` is judged by) is in unchanged text and lexed alike.
  const resync = (gapFrom: number, gapTo: number): number | undefined => {
    for (
      let l = text.indexOf('\n', Math.max(gapFrom, newEnd)) + 1;
      l > 0 && l <= gapTo;
      l = text.indexOf('\n', l) + 1
    ) {
      const lo = l - shift;
      if (lo <= oldEnd || pk[lo - 1] !== CODE || inTemplate(lexed.templates, lo)) continue;
      const q = lex.lastSignificantBefore(l);
      let w = q;
      while (w > 0 && /[\w$]/.test(text[w - 1])) w--;
      if (q < 0 || w <= newEnd || w - shift <= oldEnd) continue;
      let same = true;
      for (let k = w; k < l && same; k++) same = kinds[k] === pk[k - shift];
      if (same) return l;
    }
    return undefined;
  };
  const until = lex.run(resync);
  const before: number[] = [];
  for (let k = 0; k < lexed.blanks.length && lexed.blanks[k + 1] <= r; k += 2) {
    before.push(lexed.blanks[k], lexed.blanks[k + 1]);
  }
  const templatesBefore: number[] = [];
  for (let k = 0; k < lexed.templates.length && lexed.templates[k + 1] <= r; k += 2) {
    templatesBefore.push(lexed.templates[k], lexed.templates[k + 1]);
  }
  if (until === undefined) {
    const all = [...before, ...lex.blanks];
    return {
      from: r,
      masked: {
        code: prev.masked.code.slice(0, r) + blankRanges(text.slice(r), lex.blanks.map((x) => x - r)),
        kinds,
        lexed: { blanks: all, templates: [...templatesBefore, ...lex.templates] },
      },
    };
  }
  const lo = until - shift;
  kinds.set(pk.subarray(lo), until);
  const after: number[] = [];
  for (let k = 0; k < lexed.blanks.length; k += 2) {
    if (lexed.blanks[k] >= lo) after.push(lexed.blanks[k] + shift, lexed.blanks[k + 1] + shift);
  }
  const templatesAfter: number[] = [];
  for (let k = 0; k < lexed.templates.length; k += 2) {
    if (lexed.templates[k] >= lo) templatesAfter.push(lexed.templates[k] + shift, lexed.templates[k + 1] + shift);
  }
  const code = prev.masked.code.slice(0, r) + blankRanges(text.slice(r, until), lex.blanks.map((x) => x - r))
    + prev.masked.code.slice(lo);
  return {
    from: r,
    until,
    masked: {
      code,
      kinds,
      lexed: {
        blanks: [...before, ...lex.blanks, ...after],
        templates: [...templatesBefore, ...lex.templates, ...templatesAfter],
      },
    },
  };
}

/**
 * The changed span between two versions of a text: their common prefix and suffix, over the text and,
 * when given, over its masks too (a quote typed on one line changes the mask far below it).
 */
export function changedSpan(oldText: string, newText: string, oldCode = oldText, newCode = newText): TextEdit {
  const max = Math.min(oldText.length, newText.length);
  const same = (i: number, j: number) =>
    oldText.charCodeAt(i) === newText.charCodeAt(j) && oldCode.charCodeAt(i) === newCode.charCodeAt(j);
  // Whole chunks first, compared natively; a character loop only inside the chunk that differs.
  let p = 0;
  while (
    p + CHUNK <= max && oldText.slice(p, p + CHUNK) === newText.slice(p, p + CHUNK)
    && oldCode.slice(p, p + CHUNK) === newCode.slice(p, p + CHUNK)
  ) p += CHUNK;
  while (p < max && same(p, p)) p++;
  const maxS = max - p;
  let s = 0;
  while (s + CHUNK <= maxS) {
    const a = oldText.length - s;
    const b = newText.length - s;
    if (
      oldText.slice(a - CHUNK, a) !== newText.slice(b - CHUNK, b)
      || oldCode.slice(a - CHUNK, a) !== newCode.slice(b - CHUNK, b)
    ) break;
    s += CHUNK;
  }
  while (s < maxS && same(oldText.length - 1 - s, newText.length - 1 - s)) s++;
  return { start: p, oldEnd: oldText.length - s, newEnd: newText.length - s };
}

const CHUNK = 512;

/** A character that Latin-1 cannot hold. */
const WIDE = /[^\x00-\xff]/;

/**
 * The text with the given ranges (ascending, disjoint) blanked: spaces for every character but line
 * breaks, so offsets and lines stay. Done on a buffer with native fills: a JavaScript file has
 * thousands of strings and comments, and building the text from slices churns the heap. Text with no
 * character above U+00FF (nearly every source file) takes a one-byte buffer: half the bytes, and the
 * code comes back as a one-byte string, which the cold start's regexes scan faster (its identifier
 * scan by a third) than the two-byte string a UTF-16 buffer gives.
 */
function blankRanges(text: string, ranges: number[]): string {
  if (ranges.length === 0) return text;
  const oneByte = !WIDE.test(text);
  let buf = Buffer.from(text, oneByte ? 'latin1' : 'utf16le');
  if (!oneByte && buf.byteOffset % 2) buf = Buffer.from(buf); // a Uint16Array view needs an even offset
  const units = oneByte ? buf : new Uint16Array(buf.buffer, buf.byteOffset, text.length);
  for (let r = 0; r < ranges.length; r += 2) {
    const to = ranges[r + 1];
    let from = ranges[r];
    while (from < to) {
      let nl = text.indexOf('\n', from);
      if (nl < 0 || nl > to) nl = to;
      const end = nl > from && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      if (end > from) units.fill(SPACE, from, end);
      from = nl + 1;
    }
  }
  return buf.toString(oneByte ? 'latin1' : 'utf16le');
}

class Lexer {
  private i = 0;
  /** Open `${` of template literals (JS) — the brace depth at which each resumes its template. */
  private readonly templateStack: number[] = [];
  private braceDepth = 0;

  /** Ranges to blank in the code, as flat [from, to) pairs in ascending order. */
  readonly blanks: number[] = [];
  /** Outermost template literals (JS), as flat [from, to) pairs: code inside their `${…}` is not plain code. */
  readonly templates: number[] = [];
  private templateOpen = -1;

  constructor(
    private readonly text: string,
    private readonly kinds: Uint8Array,
    private readonly family: LexFamily,
  ) {}

  /** Lexes from `i`, a line start in plain code (the kinds before it already filled in). */
  startAt(i: number): void {
    this.i = i;
  }

  /**
   * Lexes to the end, or, with `resync`, until it names a line start in a stretch of plain code (from,
   * to] outside any template literal: then returns that offset.
   */
  run(resync?: (from: number, to: number) => number | undefined): number | undefined {
    const { text, family } = this;
    const n = text.length;
    const hashComments = family === 'python' || family === 'hash';
    const nestedBlocks = family === 'swift' || family === 'rust' || family === 'kotlin';
    // Jump from one character that can start a comment, string or (JS) brace to the next; plain
    // code in between is skipped by the regex engine, which is much faster than a JS loop.
    const interesting = INTERESTING[family];
    // Braces matter only inside a template literal's `${…}` (to find where it ends); elsewhere a
    // JavaScript file's many braces would each cost a turn of this loop.
    const outsideTemplates = family === 'js' ? /[\/"'`]/g : interesting;
    while (this.i < n) {
      const re = this.templateStack.length ? interesting : outsideTemplates;
      re.lastIndex = this.i;
      const found = re.exec(text);
      if (resync && !this.templateStack.length) {
        const at = resync(this.i, found ? found.index : n);
        if (at !== undefined) return at;
      }
      if (!found) break;
      this.i = found.index;
      const c = text.charCodeAt(this.i);
      const next = this.i + 1 < n ? text.charCodeAt(this.i + 1) : 0;
      if (hashComments && c === HASH) {
        this.lineComment(this.i);
        continue;
      }
      if (!hashComments && c === SLASH && next === SLASH) {
        this.lineComment(this.i);
        continue;
      }
      if (!hashComments && c === SLASH && next === STAR) {
        this.blockComment(nestedBlocks);
        continue;
      }
      if (family === 'python' && (c === DQ || c === SQ || isPyPrefix(text, this.i))) {
        if (this.pythonString()) continue;
      }
      if (c === DQ) {
        if (family === 'rust' && this.rustRawOrByte()) continue;
        if (
          (family === 'swift' || family === 'kotlin' || family === 'java' || family === 'python')
          && text.startsWith('"""', this.i)
        ) {
          this.delimited(3, '"""', true);
          continue;
        }
        // A Rust string literal may span lines (`&'static str = "\` and text on the next lines).
        if (family === 'rust') {
          this.delimited(1, '"', true);
          continue;
        }
        this.quoted(DQ, family !== 'hash');
        continue;
      }
      if (c === SQ) {
        if (family === 'rust' && this.rustLifetime()) continue;
        if (family === 'swift' || family === 'kotlin') {
          this.i++;
          continue;
        }
        this.quoted(SQ, true);
        continue;
      }
      if (c === BT && (family === 'js' || family === 'go')) {
        if (family === 'go') this.delimited(1, '`', false);
        else this.template();
        continue;
      }
      if (c === HASH && family === 'swift' && (next === DQ || next === HASH)) { if (this.swiftRaw()) continue; }
      if (c === AT && next === DQ && family === 'c') {
        this.i++;
        this.quoted(DQ, true);
        continue;
      }
      if (family === 'rust' && (c === 114 /* r */ || c === 98 /* b */) && this.rustRawOrByte()) continue;
      if (family === 'js') {
        if (c === SLASH && this.regexAllowed()) {
          this.regexLiteral();
          continue;
        }
        if (c === LBRACE) this.braceDepth++;
        else if (c === RBRACE) {
          const top = this.templateStack[this.templateStack.length - 1];
          if (top !== undefined && top === this.braceDepth) {
            this.templateStack.pop();
            this.braceDepth--;
            this.i++;
            this.templateBody();
            continue;
          }
          this.braceDepth--;
        }
      }
      this.i++;
    }
    // A `${` never closed: the template runs to the end.
    if (this.templateOpen >= 0) this.templates.push(this.templateOpen, n);
    this.templateOpen = -1;
    return undefined;
  }

  /** The last code character before `at` that is not white space (comments and strings skipped). */
  lastSignificantBefore(at: number): number {
    let k = at - 1;
    while (k >= 0) {
      const ch = this.text.charCodeAt(k);
      if (this.kinds[k] === CODE && ch !== SPACE && ch !== NL && ch !== 9 && ch !== 13) return k;
      k--;
    }
    return -1;
  }

  /**
   * Marks [from, to) as `kind` and blanks it in the code, except `keepStart` characters at its start
   * and `keepEnd` at its end (a comment's delimiters stay visible).
   */
  private mark(from: number, to: number, kind: number, keepStart = 0, keepEnd = 0): void {
    if (to <= from) return;
    this.kinds.fill(kind, from, to);
    if (kind !== CODE && to - keepEnd > from + keepStart) this.blanks.push(from + keepStart, to - keepEnd);
  }

  // The delimiters stay visible, so an empty block holding only a comment does not look empty.
  private lineComment(from: number): void {
    let end = this.text.indexOf('\n', from);
    if (end < 0) end = this.text.length;
    this.mark(from, end, COMMENT, this.text.charCodeAt(from) === HASH ? 1 : 2);
    this.i = end;
  }

  private blockComment(nested: boolean): void {
    const { text } = this;
    const from = this.i;
    let depth = 0;
    let k = from;
    while (k < text.length) {
      if (text.charCodeAt(k) === SLASH && text.charCodeAt(k + 1) === STAR) {
        depth++;
        k += 2;
        if (!nested) break;
        continue;
      }
      if (text.charCodeAt(k) === STAR && text.charCodeAt(k + 1) === SLASH) {
        depth--;
        k += 2;
        if (depth === 0) break;
        continue;
      }
      k++;
    }
    if (!nested) {
      const close = text.indexOf('*/', from + 2);
      k = close < 0 ? text.length : close + 2;
    }
    this.mark(from, k, COMMENT, 2, k - from >= 4 && this.text.charCodeAt(k - 1) === SLASH ? 2 : 0);
    this.i = k;
  }

  /** A quoted string on one line (or continued with a backslash); the quotes stay as code. */
  private quoted(quote: number, escapes: boolean): void {
    const { text } = this;
    const from = this.i;
    let k = from + 1;
    while (k < text.length) {
      const ch = text.charCodeAt(k);
      if (escapes && ch === BACKSLASH) {
        k += 2;
        continue;
      }
      if (ch === quote) break;
      if (ch === NL) break; // unterminated: stop at the line end
      k++;
    }
    this.mark(from + 1, Math.min(k, text.length), STRING);
    this.i = k < text.length && text.charCodeAt(k) === quote ? k + 1 : k;
  }

  /** A string closed by `close` (`"""`, a backtick), possibly spanning lines. */
  private delimited(openLen: number, close: string, escapes: boolean): void {
    const { text } = this;
    const from = this.i;
    let k = from + openLen;
    while (k < text.length) {
      if (escapes && text.charCodeAt(k) === BACKSLASH) {
        k += 2;
        continue;
      }
      if (text.startsWith(close, k)) break;
      k++;
    }
    this.mark(from + openLen, Math.min(k, text.length), STRING);
    this.i = Math.min(k + close.length, text.length);
  }

  private template(): void {
    if (!this.templateStack.length) this.templateOpen = this.i;
    this.i++; // the opening backtick stays code
    this.templateBody();
  }

  /** Template text up to the closing backtick or a `${`, which pushes a code context. */
  private templateBody(): void {
    const { text } = this;
    const from = this.i;
    let k = from;
    while (k < text.length) {
      const ch = text.charCodeAt(k);
      if (ch === BACKSLASH) {
        k += 2;
        continue;
      }
      if (ch === BT) break;
      if (ch === DOLLAR && text.charCodeAt(k + 1) === LBRACE) {
        this.mark(from, k, STRING);
        this.braceDepth++;
        this.templateStack.push(this.braceDepth);
        this.i = k + 2;
        return;
      }
      k++;
    }
    this.mark(from, Math.min(k, text.length), STRING);
    this.i = Math.min(k + 1, text.length);
    if (!this.templateStack.length && this.templateOpen >= 0) {
      this.templates.push(this.templateOpen, this.i);
      this.templateOpen = -1;
    }
  }

  private regexAllowed(): boolean {
    const { text } = this;
    const next = text.charCodeAt(this.i + 1);
    if (next === SLASH || next === STAR) return false;
    const last = this.lastSignificantBefore(this.i);
    if (last < 0) return true;
    const p = text[last];
    if ('(,=:[!&|?{};+-*%<>~^'.includes(p)) return true;
    if (/[\w$]/.test(p)) {
      let s = last;
      while (s > 0 && /[\w$]/.test(text[s - 1])) s--;
      const word = text.slice(s, last + 1);
      return /^(return|typeof|case|do|else|in|of|new|delete|void|throw|yield|await|instanceof)$/.test(word);
    }
    return false;
  }

  private regexLiteral(): void {
    const { text } = this;
    const from = this.i;
    let k = from + 1;
    let inClass = false;
    while (k < text.length) {
      const ch = text.charCodeAt(k);
      if (ch === NL) { // not a regex after all: treat the slash as an operator
        this.i = from + 1;
        return;
      }
      if (ch === BACKSLASH) {
        k += 2;
        continue;
      }
      if (ch === 91 /* [ */) inClass = true;
      else if (ch === 93 /* ] */) inClass = false;
      else if (ch === SLASH && !inClass) break;
      k++;
    }
    this.mark(from + 1, Math.min(k, text.length), STRING);
    this.i = Math.min(k + 1, text.length);
    while (this.i < text.length && /[a-z]/.test(text[this.i])) this.i++;
  }

  private pythonString(): boolean {
    const { text } = this;
    let k = this.i;
    while (k < text.length && /[rbfuRBFU]/.test(text[k]) && k - this.i < 2) k++;
    const q = text.charCodeAt(k);
    if (q !== DQ && q !== SQ) return false;
    const raw = /[rR]/.test(text.slice(this.i, k));
    const triple = text.startsWith(String.fromCharCode(q).repeat(3), k);
    this.i = k;
    if (triple) this.delimited(3, String.fromCharCode(q).repeat(3), !raw);
    else this.quoted(q, !raw);
    return true;
  }

  /** Swift `#"…"#` and `#"""…"""#` raw strings. */
  private swiftRaw(): boolean {
    const { text } = this;
    let k = this.i;
    while (text.charCodeAt(k) === HASH) k++;
    const hashes = k - this.i;
    if (text.charCodeAt(k) !== DQ) return false;
    const triple = text.startsWith('"""', k);
    const close = (triple ? '"""' : '"') + '#'.repeat(hashes);
    const start = k + (triple ? 3 : 1);
    const end = text.indexOf(close, start);
    const stop = end < 0 ? text.length : end;
    this.mark(start, stop, STRING);
    this.i = end < 0 ? text.length : end + close.length;
    return true;
  }

  /** Rust `r#"…"#`, `br"…"`, `b"…"`, `b'x'`. */
  private rustRawOrByte(): boolean {
    const { text } = this;
    let k = this.i;
    if (text[k] === 'b') k++;
    if (text[k] === 'r') {
      let h = k + 1;
      while (text.charCodeAt(h) === HASH) h++;
      if (text.charCodeAt(h) !== DQ) return false;
      if (k > this.i - 0 && this.i > 0 && /[\w]/.test(text[this.i - 1])) return false;
      const close = '"' + '#'.repeat(h - k - 1);
      const end = text.indexOf(close, h + 1);
      const stop = end < 0 ? text.length : end;
      this.mark(h + 1, stop, STRING);
      this.i = end < 0 ? text.length : end + close.length;
      return true;
    }
    if (k > this.i && (text.charCodeAt(k) === DQ || text.charCodeAt(k) === SQ)) {
      if (this.i > 0 && /[\w]/.test(text[this.i - 1])) return false;
      this.i = k;
      if (text.charCodeAt(k) === DQ) this.delimited(1, '"', true);
      else this.quoted(SQ, true);
      return true;
    }
    return false;
  }

  /** A Rust `'a` lifetime or label is code; `'x'` and `'\n'` are char literals. */
  private rustLifetime(): boolean {
    const { text } = this;
    const k = this.i;
    if (text.charCodeAt(k + 1) === BACKSLASH) return false;
    if (text.charCodeAt(k + 2) === SQ) return false;
    // 'a followed by a non-quote: a lifetime
    if (/[A-Za-z_]/.test(text[k + 1] ?? '')) {
      this.i = k + 1;
      return true;
    }
    return false;
  }
}

function isPyPrefix(text: string, i: number): boolean {
  const c = text[i];
  if (!/[rbfuRBFU]/.test(c)) return false;
  if (i > 0 && /[\w]/.test(text[i - 1])) return false;
  const n1 = text[i + 1];
  if (n1 === '"' || n1 === "'") return true;
  return /[rbfRBF]/.test(n1 ?? '') && (text[i + 2] === '"' || text[i + 2] === "'");
}
