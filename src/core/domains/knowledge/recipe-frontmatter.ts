/**
 * A recipe file's front matter, read without a YAML parser when it is in the simple form the recipe
 * writer produces: one `key: value` per line, where a value is a plain word-like scalar, a single- or
 * double-quoted string on one line, a one-line `[a, b]` list, or a `- item` list of such scalars.
 * Anything else (nested mappings, multi-line or block scalars, anchors, tags, comments, numbers,
 * dates, unusual characters) goes to the general parser, so both paths give the same data: the fast
 * one declines whenever a construct could read differently, never guesses. js-yaml was most of the
 * time reading a recipe took while indexing.
 */
import { type FrontMatter, type Parsed, parseFrontMatter } from '../../ground/files';

/** Values a simple front matter may hold; more goes to the general parser and its limits. */
const MAX_VALUES = 1000;

/** Same result as `parseFrontMatter(text)`, faster for simple front matter. */
export function readFrontMatter(text: string): Parsed<FrontMatter> {
  return fastFrontMatter(text) ?? parseFrontMatter(text);
}

/** The front matter when its form is simple, else undefined (then the general parser decides). */
export function fastFrontMatter(text: string): { ok: true; value: FrontMatter } | undefined {
  const open = /^---[ \t]*\n/.exec(text);
  if (!open) return undefined;
  CLOSE.lastIndex = open[0].length;
  const close = CLOSE.exec(text);
  if (!close) return undefined;
  const yaml = text.slice(open[0].length, close.index);
  const data = simpleYaml(yaml);
  if (!data) return undefined;
  const after = close.index + close[0].length;
  const body = after < text.length ? text.slice(after + 1) : '';
  let bodyLine = 2;
  for (let i = text.indexOf('\n'); i >= 0 && i < close.index; i = text.indexOf('\n', i + 1)) bodyLine++;
  return { ok: true, value: { present: true, data, body, bodyLine } };
}

const CLOSE = /^---[ \t]*$/gm;
/** Characters js-yaml refuses or treats specially (controls, BOM, other line breaks, lone surrogates). */
const UNUSUAL = /[^\n\x20-\x7E\u00A0-\u2027\u202A-\uD7FF\uE000-\uFEFE\uFF00-\uFFFD]/;
const KEY_LINE = /^([A-Za-z][A-Za-z0-9_-]*):(?:$| +(.*)$)/;
const ITEM_LINE = /^( *)- +(.*)$/;

/** The mapping of a simple front matter, or undefined when any line is not of the simple form. */
export function simpleYaml(yaml: string): Record<string, unknown> | undefined {
  if (UNUSUAL.test(yaml)) return undefined;
  const data: Record<string, unknown> = {};
  const lines = yaml.split('\n');
  let values = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = trimEnd(lines[i]);
    if (line === '') continue;
    const m = KEY_LINE.exec(line);
    if (!m || Object.prototype.hasOwnProperty.call(data, m[1])) return undefined;
    if (++values > MAX_VALUES) return undefined;
    if (m[2] !== undefined) {
      const v = m[2].startsWith('[') ? flowList(m[2]) : scalar(m[2]);
      if (v === undefined) return undefined;
      data[m[1]] = v.value;
      continue;
    }
    // `key:` alone: a block list of scalars on the following lines, or null.
    const items: unknown[] = [];
    let indent: number | undefined;
    for (; i + 1 < lines.length; i++) {
      const next = trimEnd(lines[i + 1]);
      if (next === '') {
        // A blank line ends the list unless more of it follows (rare: left to the general parser).
        let k = i + 2;
        while (k < lines.length && trimEnd(lines[k]) === '') k++;
        if (k < lines.length && (lines[k][0] === ' ' || lines[k][0] === '-')) return undefined;
        break;
      }
      if (next[0] !== ' ' && next[0] !== '-') break;
      const item = ITEM_LINE.exec(next);
      if (!item || (indent !== undefined && item[1].length !== indent)) return undefined;
      indent = item[1].length;
      const v = scalar(item[2]);
      if (v === undefined || ++values > MAX_VALUES) return undefined;
      items.push(v.value);
    }
    data[m[1]] = indent === undefined ? null : items;
  }
  return data;
}

function trimEnd(line: string): string {
  let end = line.length;
  while (end > 0 && line.charCodeAt(end - 1) === 32) end--;
  return end === line.length ? line : line.slice(0, end);
}

/** A scalar on one line: quoted, or plain and certain to read as text, null or a boolean. */
function scalar(s: string): { value: unknown } | undefined {
  if (s[0] === "'") return singleQuoted(s);
  if (s[0] === '"') return doubleQuoted(s);
  return plain(s, false);
}

/** Plain scalars that start with a letter read as text, except these words. */
const KEYWORDS: Record<string, unknown> = {
  null: null,
  Null: null,
  NULL: null,
  true: true,
  True: true,
  TRUE: true,
  false: false,
  False: false,
  FALSE: false,
};

/**
 * A plain scalar that starts with a letter (so not a number, a date, or an indicator) and holds
 * nothing that ends it early or starts a comment; inside a `[…]` list, no flow indicators either.
 */
function plain(s: string, inFlow: boolean): { value: unknown } | undefined {
  const c = s.charCodeAt(0);
  const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c >= 0xa0;
  if (!letter || s.includes(': ') || s.includes(' #') || s.endsWith(':')) return undefined;
  if (inFlow && /[,[\]{}]/.test(s)) return undefined;
  if (Object.prototype.hasOwnProperty.call(KEYWORDS, s)) return { value: KEYWORDS[s] };
  return { value: s };
}

/** `'text'` on one line, `''` standing for a quote. */
function singleQuoted(s: string): { value: string } | undefined {
  if (s.length < 2 || !s.endsWith("'")) return undefined;
  const inner = s.slice(1, -1);
  if (inner.replace(/''/g, '').includes("'")) return undefined;
  return { value: inner.replace(/''/g, "'") };
}

/** `"text"` on one line with only the escapes JSON shares with YAML. */
function doubleQuoted(s: string): { value: string } | undefined {
  if (s.length < 2 || !s.endsWith('"')) return undefined;
  for (let i = 1; i < s.length - 1; i++) {
    const c = s[i];
    if (c === '"') return undefined;
    if (c !== '\\') continue;
    const e = s[++i];
    if (e === 'u') {
      if (!/^[0-9a-fA-F]{4}$/.test(s.slice(i + 1, i + 5))) return undefined;
      i += 4;
    } else if (!'"\\/bfnrt'.includes(e) || i >= s.length - 1) return undefined;
  }
  try {
    const value: unknown = JSON.parse(s);
    return typeof value === 'string' && !/[\uD800-\uDFFF]/.test(value) ? { value } : undefined;
  } catch {
    return undefined;
  }
}

/** `[a, 'b', "c"]` on one line: scalars separated by commas, nothing after the bracket. */
function flowList(s: string): { value: unknown[] } | undefined {
  if (!s.endsWith(']')) return undefined;
  const inner = s.slice(1, -1).trim();
  if (inner === '') return { value: [] };
  const out: unknown[] = [];
  let i = 0;
  while (i <= inner.length) {
    let end: number;
    let item: { value: unknown } | undefined;
    if (inner[i] === "'" || inner[i] === '"') {
      end = closingQuote(inner, i);
      if (end < 0) return undefined;
      item = inner[i] === "'" ? singleQuoted(inner.slice(i, end + 1)) : doubleQuoted(inner.slice(i, end + 1));
      end++;
    } else {
      end = inner.indexOf(',', i);
      if (end < 0) end = inner.length;
      item = plain(inner.slice(i, end).trim(), true);
    }
    if (!item) return undefined;
    out.push(item.value);
    const rest = inner.slice(end).match(/^ *(,|$) */);
    if (!rest) return undefined;
    if (rest[1] === '') break;
    i = end + rest[0].length;
    if (i >= inner.length) return undefined; // a trailing comma
  }
  return { value: out };
}

function closingQuote(s: string, start: number): number {
  const q = s[start];
  for (let i = start + 1; i < s.length; i++) {
    if (q === '"' && s[i] === '\\') i++;
    else if (s[i] === q) {
      if (q === "'" && s[i + 1] === "'") i++;
      else return i;
    }
  }
  return -1;
}
