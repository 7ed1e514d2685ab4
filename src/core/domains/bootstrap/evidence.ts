import type { SourceFile } from './types';

export interface Sample {
  path: string;
  line: number;
  text: string;
}

/** Occurrences of one signal: how many, in how many files, and a few places (one per file first). */
export class Tally {
  count = 0;
  readonly files = new Set<string>();
  readonly samples: Sample[] = [];
  /** The functions the first occurrences sit in (`get_environment_proxies`), to name the mechanism. */
  readonly functions = new Set<string>();
  /** The first places seen, several per file, with the function each is in (to cite the lines the summary names). */
  readonly sites: { path: string; line: number; fn?: string }[] = [];

  /** `places`: also the functions and sites above (the boundaries name them; other tallies skip the walk up the file). */
  constructor(
    private readonly maxSamples = 8,
    private readonly places = false,
  ) {}

  add(file: Pick<SourceFile, 'path' | 'lines'>, line: number, times = 1): void {
    this.count += times;
    if (!this.files.has(file.path) && this.samples.length < this.maxSamples) {
      this.samples.push({ path: file.path, line, text: (file.lines[line - 1] ?? '').trim().slice(0, 160) });
    }
    if (this.places && (this.functions.size < 6 || this.sites.length < 12)) {
      const fn = enclosingFunction(file.lines, line);
      if (fn && this.functions.size < 6) this.functions.add(fn);
      if (this.sites.length < 12) this.sites.push({ path: file.path, line, ...(fn ? { fn } : {}) });
    }
    this.files.add(file.path);
  }

  sources(limit = 6): string[] {
    return this.samples.slice(0, limit).map((s) => `${s.path}:${s.line}`);
  }
}

const FUNCTION_DECL =
  /^\s*(?:(?:pub(?:\([^)]*\))?|public|private|fileprivate|internal|static|class|async|export|override|open|final|@\w+(?:\([^)]*\))?)\s+)*(?:def|func|fn|fun|function)\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)/;
/** A type's body: a line in it (a property's initialiser or observers) is in no function. */
const TYPE_DECL =
  /^\s*(?:(?:pub(?:\([^)]*\))?|public|private|fileprivate|internal|static|final|open|abstract|sealed|data|export|default|@\w+(?:\([^)]*\))?)\s+)*(?:class|struct|enum|extension|protocol|actor|impl|trait|interface|object)\b(?!\s*(func|var|let|fun|val)\b)/;

/**
 * The function a line sits in: walking up, the nearest function declaration indented less than the
 * lines between. A type's declaration reached first (through a property's observers or initialiser)
 * means the line is in no function (a property's `didSet` block is not in the
 * `cancel()` above it).
 */
export function enclosingFunction(lines: string[], line: number): string | undefined {
  return enclosingScope(lines, line)?.name;
}

/**
 * The same, with the line of its declaration: two methods of one name in two classes are two scopes
 * (two middlewares' `dispatch`). With `scopes`, a declaration's own line (its parameters) is in it, not in
 * its class, and a line in a type's body outside its functions is in that type (`type@line`): the
 * properties of two structs in one file are two scopes.
 */
export function enclosingScope(
  lines: string[],
  line: number,
  scopes = false,
): { name: string; line: number } | undefined {
  const own = scopes ? FUNCTION_DECL.exec(lines[line - 1] ?? '') : null;
  if (own) return { name: own[1], line };
  // A type's (or an extension's) own line is in that type: `extension DataRequest {` beside `extension DownloadRequest {`.
  if (scopes && TYPE_DECL.test(lines[line - 1] ?? '')) return { name: 'type', line };
  return scopeAbove(lines, line, scopes);
}

function scopeAbove(lines: string[], line: number, types: boolean): { name: string; line: number } | undefined {
  const indent = (l: string) => /^\s*/.exec(l)![0].replace(/\t/g, '    ').length;
  let depth = indent(lines[line - 1] ?? '');
  // Inside a Swift property's observer (`didSet {`): named `property.didSet` once the property is reached.
  let observer: string | undefined;
  for (let i = line - 2; i >= 0 && i >= line - 200; i--) {
    const l = lines[i];
    const t = l.trim();
    // Blank lines, comments and the closing of a multi-line signature (`) {`) say nothing about the scope.
    // So does a brace on its own line (`{` under a multi-line Swift signature).
    if (!t || t === '{' || /^(\/\/|\/?\*|#(?!\[)|\)|\])/.test(t)) continue;
    if (indent(l) >= depth) continue;
    const fn = FUNCTION_DECL.exec(l);
    if (fn) return { name: fn[1], line: i + 1 };
    if (/^\s*(?:(?:public|private|fileprivate|internal|override|convenience|required)\s+)*init[?!]?\s*[(<]/.test(l)) {
      return { name: 'init', line: i + 1 };
    }
    if (TYPE_DECL.test(l)) return types ? { name: 'type', line: i + 1 } : undefined;
    const accessor = /^\s*(didSet|willSet)\b/.exec(l)?.[1];
    if (accessor) observer = accessor;
    const property = observer
      && /^\s*(?:(?:public|private|fileprivate|internal|open|static|lazy|weak|override|@\w+(?:\([^)]*\))?)\s+)*var\s+(\w+)/
        .exec(l)?.[1];
    if (property) return { name: `${property}.${observer}`, line: i + 1 };
    depth = indent(l);
    if (depth === 0) return undefined;
  }
  return undefined;
}

/** Tallies by key, created on first use. */
export class Tallies {
  private readonly map = new Map<string, Tally>();
  constructor(
    private readonly maxSamples = 8,
    private readonly places = false,
  ) {}
  get(key: string): Tally {
    let t = this.map.get(key);
    if (!t) {
      t = new Tally(this.maxSamples, this.places);
      this.map.set(key, t);
    }
    return t;
  }
  peek(key: string): Tally | undefined {
    return this.map.get(key);
  }
  entries(): [string, Tally][] {
    return [...this.map.entries()];
  }
}

/**
 * Calibrated per the coldstart skill: 0.9+ only when the habit is near universal with plenty of
 * evidence, 0.5–0.7 for a habit with exceptions; under 0.5 the scan does not propose.
 */
export function confidence(ratio: number, support: number): number {
  const r = Math.max(0, Math.min(1, (ratio - 0.5) / 0.5));
  const s = Math.min(1, support / 20);
  let c = 0.45 + 0.42 * r + 0.08 * s;
  if (support < 3) c = Math.min(c, 0.55);
  return Math.round(c * 100) / 100;
}

export function percent(part: number, whole: number): string {
  return whole ? `${Math.round((part / whole) * 100)} %` : '0 %';
}

/**
 * The declaration at `line`: whole when its braces (or, in Python, its indentation) close within
 * twice `maxLines`; else cut after the last whole statement of its body within `maxLines`, marked
 * `// …` (`# …`) and closed, so an excerpt never stops mid-statement. Common indentation is removed.
 */
export function excerptFrom(text: string, line: number, maxLines = 14, python = false): string {
  const all = text.split('\n');
  const from = Math.max(0, line - 1);
  // A block that ends within twice the budget is shown whole: a cut costs more than a few lines.
  const lines = all.slice(from, from + maxLines * 2);
  const more = from + lines.length < all.length;
  const out: string[] = [];
  const firstIndent = indentOf(lines[0] ?? '');
  let depth = 0;
  let opened = false;
  let closed = false;
  /** The last line (index in `out`) after which the body is back at its own top level, within the budget. */
  let lastWhole = -1;
  let bodyIndent = -1;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (python) {
      if (i > 0 && l.trim()) {
        // A signature's closing `) -> X:` sits at the `def`'s own depth; it ends the signature, not the declaration.
        if (indentOf(l) <= firstIndent && !/^\s*[)\]]/.test(l)) {
          closed = true;
          break;
        }
        if (bodyIndent < 0) bodyIndent = indentOf(l);
        if (indentOf(l) === bodyIndent && i <= maxLines) lastWhole = out.length - 1;
      }
      out.push(l);
      continue;
    }
    // A declaration without braces (`fun f() = …`, a constant) ends at the first blank line.
    if (!opened && i > 0 && !l.trim() && out.some((x) => /[^=!<>]=(?!=)/.test(x))) {
      closed = true;
      break;
    }
    out.push(l);
    for (const c of l.replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '').replace(/\/\/.*$/, '')) {
      if (c === '{') {
        depth++;
        opened = true;
      } else if (c === '}') depth--;
    }
    if (opened && depth <= 0) {
      closed = true;
      break;
    }
    if (!opened && i === 0 && /;\s*$/.test(l)) {
      closed = true;
      break;
    }
    if (opened && depth === 1 && i < maxLines && l.trim() && !/^\s*(\/\/|\/\*|\*|#)/.test(l)) lastWhole = i;
  }
  if (!closed && !python && !opened) out.splice(maxLines);
  else if (!closed && more) {
    if (lastWhole >= 0) {
      out.splice(lastWhole + 1);
      while (out.length > 1 && !out[out.length - 1].trim()) out.pop();
      const inner = python
        ? bodyIndent
        : Math.max(firstIndent + 2, indentOf(lines.find((x, j) => j > 0 && x.trim()) ?? ''));
      out.push(`${' '.repeat(inner)}${python ? '#' : '//'} …`);
      if (!python) out.push(`${' '.repeat(firstIndent)}}`);
    } else out.splice(maxLines);
  }
  while (out.length && !out[out.length - 1].trim()) out.pop();
  const indent = Math.min(...out.filter((l) => l.trim()).map(indentOf));
  return out.map((l) => l.slice(Number.isFinite(indent) ? indent : 0).replace(/\s+$/, '')).join('\n');
}

function indentOf(l: string): number {
  return l.length - l.trimStart().length;
}
