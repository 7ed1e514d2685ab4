import { lexFamily, type LexFamily } from '../kernel/languages';

/** What each character of a text is: code, part of a comment, or inside a string/regex literal. */
export const CODE = 0;
export const COMMENT = 1;
export const STRING = 2;

export interface MaskedText {
  /** The text with comment and string contents replaced by spaces (newlines and delimiters kept). */
  code: string;
  /** One entry per UTF-16 unit: CODE, COMMENT or STRING. */
  kinds: Uint8Array;
}

const NL = 10, SPACE = 32, SLASH = 47, STAR = 42, BACKSLASH = 92, HASH = 35, DQ = 34, SQ = 39, BT = 96;
const DOLLAR = 36, LBRACE = 123, RBRACE = 125, AT = 64;

const decoder = new TextDecoder('utf-16le');

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
export function maskText(text: string, language: string): MaskedText {
  const family = lexFamily(language);
  const n = text.length;
  const kinds = new Uint8Array(n);
  const out = new Uint16Array(n);
  for (let i = 0; i < n; i++) out[i] = text.charCodeAt(i);
  const lex = new Lexer(text, kinds, out, family);
  lex.run();
  return { code: decoder.decode(out), kinds };
}

class Lexer {
  private i = 0;
  /** Open `${` of template literals (JS) — the brace depth at which each resumes its template. */
  private readonly templateStack: number[] = [];
  private braceDepth = 0;

  constructor(
    private readonly text: string,
    private readonly kinds: Uint8Array,
    private readonly out: Uint16Array,
    private readonly family: LexFamily,
  ) {}

  run(): void {
    const { text, family } = this;
    const n = text.length;
    const hashComments = family === 'python' || family === 'hash';
    const nestedBlocks = family === 'swift' || family === 'rust' || family === 'kotlin';
    // Jump from one character that can start a comment, string or (JS) brace to the next; plain
    // code in between is skipped by the regex engine, which is much faster than a JS loop.
    const interesting = INTERESTING[family];
    while (this.i < n) {
      interesting.lastIndex = this.i;
      const found = interesting.exec(text);
      if (!found) break;
      this.i = found.index;
      const c = text.charCodeAt(this.i);
      const next = this.i + 1 < n ? text.charCodeAt(this.i + 1) : 0;
      if (hashComments && c === HASH) { this.lineComment(this.i); continue; }
      if (!hashComments && c === SLASH && next === SLASH) { this.lineComment(this.i); continue; }
      if (!hashComments && c === SLASH && next === STAR) { this.blockComment(nestedBlocks); continue; }
      if (family === 'python' && (c === DQ || c === SQ || isPyPrefix(text, this.i))) {
        if (this.pythonString()) continue;
      }
      if (c === DQ) {
        if (family === 'rust' && this.rustRawOrByte()) continue;
        if ((family === 'swift' || family === 'kotlin' || family === 'java' || family === 'python') && text.startsWith('"""', this.i)) { this.delimited(3, '"""', true); continue; }
        this.quoted(DQ, family !== 'hash');
        continue;
      }
      if (c === SQ) {
        if (family === 'rust' && this.rustLifetime()) continue;
        if (family === 'swift' || family === 'kotlin') { this.i++; continue; }
        this.quoted(SQ, true);
        continue;
      }
      if (c === BT && (family === 'js' || family === 'go')) {
        if (family === 'go') this.delimited(1, '`', false);
        else this.template();
        continue;
      }
      if (c === HASH && family === 'swift' && (next === DQ || next === HASH)) { if (this.swiftRaw()) continue; }
      if (c === AT && next === DQ && family === 'c') { this.i++; this.quoted(DQ, true); continue; }
      if (family === 'rust' && (c === 114 /* r */ || c === 98 /* b */) && this.rustRawOrByte()) continue;
      if (family === 'js') {
        if (c === SLASH && this.regexAllowed()) { this.regexLiteral(); continue; }
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
  }

  /** The last code character before `at` that is not white space (comments and strings skipped). */
  private lastSignificantBefore(at: number): number {
    let k = at - 1;
    while (k >= 0) {
      const ch = this.text.charCodeAt(k);
      if (this.kinds[k] === CODE && ch !== SPACE && ch !== NL && ch !== 9 && ch !== 13) return k;
      k--;
    }
    return -1;
  }

  /** Marks [from, to) as `kind`, blanking everything but newlines. */
  private mark(from: number, to: number, kind: number): void {
    const { kinds, out, text } = this;
    for (let k = from; k < to; k++) {
      kinds[k] = kind;
      if (kind !== CODE) {
        const ch = text.charCodeAt(k);
        if (ch !== NL && ch !== 13) out[k] = SPACE;
      }
    }
  }

  // The delimiters stay visible, so an empty block holding only a comment does not look empty.
  private lineComment(from: number): void {
    let end = this.text.indexOf('\n', from);
    if (end < 0) end = this.text.length;
    this.mark(from, end, COMMENT);
    this.keep(from, this.text.charCodeAt(from) === HASH ? 1 : 2);
    this.i = end;
  }

  private keep(from: number, length: number): void {
    for (let k = from; k < from + length && k < this.text.length; k++) this.out[k] = this.text.charCodeAt(k);
  }

  private blockComment(nested: boolean): void {
    const { text } = this;
    const from = this.i;
    let depth = 0;
    let k = from;
    while (k < text.length) {
      if (text.charCodeAt(k) === SLASH && text.charCodeAt(k + 1) === STAR) { depth++; k += 2; if (!nested) break; continue; }
      if (text.charCodeAt(k) === STAR && text.charCodeAt(k + 1) === SLASH) { depth--; k += 2; if (depth === 0) break; continue; }
      k++;
    }
    if (!nested) {
      const close = text.indexOf('*/', from + 2);
      k = close < 0 ? text.length : close + 2;
    }
    this.mark(from, k, COMMENT);
    this.keep(from, 2);
    if (k - from >= 4 && this.text.charCodeAt(k - 1) === SLASH) this.keep(k - 2, 2);
    this.i = k;
  }

  /** A quoted string on one line (or continued with a backslash); the quotes stay as code. */
  private quoted(quote: number, escapes: boolean): void {
    const { text } = this;
    const from = this.i;
    let k = from + 1;
    while (k < text.length) {
      const ch = text.charCodeAt(k);
      if (escapes && ch === BACKSLASH) { k += 2; continue; }
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
      if (escapes && text.charCodeAt(k) === BACKSLASH) { k += 2; continue; }
      if (text.startsWith(close, k)) break;
      k++;
    }
    this.mark(from + openLen, Math.min(k, text.length), STRING);
    this.i = Math.min(k + close.length, text.length);
  }

  private template(): void {
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
      if (ch === BACKSLASH) { k += 2; continue; }
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
      if (ch === BACKSLASH) { k += 2; continue; }
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
      this.quoted(text.charCodeAt(k), true);
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
    if (/[A-Za-z_]/.test(text[k + 1] ?? '')) { this.i = k + 1; return true; }
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
