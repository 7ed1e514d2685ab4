/**
 * A small TOML reader for the manifest fields structure needs (Cargo.toml, pyproject.toml): tables,
 * arrays of tables, dotted and quoted keys, strings of all four kinds, numbers, booleans, arrays
 * and inline tables. Dates stay strings. It also records the line of every key, for `file:line`.
 */
export interface TomlDocument {
  data: Record<string, unknown>;
  /** Line (1-based) of each key, by dotted path: `dependencies.serde`, `bin.0.name`. */
  lines: Map<string, number>;
}

export class TomlError extends Error {
  constructor(message: string, readonly line: number) {
    super(`${message} (line ${line})`);
  }
}

type Table = Record<string, unknown>;

export function parseToml(text: string): TomlDocument {
  return new Reader(text).document();
}

class Reader {
  private i = 0;
  private line = 1;
  readonly lines = new Map<string, number>();

  constructor(private readonly s: string) {}

  document(): TomlDocument {
    const root: Table = {};
    let current = root;
    let currentPath: string[] = [];
    for (;;) {
      this.skipBlank();
      if (this.i >= this.s.length) break;
      if (this.s[this.i] === '[') {
        const arrayTable = this.s[this.i + 1] === '[';
        this.i += arrayTable ? 2 : 1;
        this.skipSpaces();
        const path = this.key();
        this.skipSpaces();
        this.expect(arrayTable ? ']]' : ']');
        if (arrayTable) {
          const parent = this.descend(root, path.slice(0, -1), []);
          const last = path[path.length - 1];
          const list = (parent[last] ??= []) as unknown[];
          if (!Array.isArray(list)) throw new TomlError(`"${path.join('.')}" is not an array of tables`, this.line);
          current = {};
          list.push(current);
          currentPath = [...path, String(list.length - 1)];
        } else {
          current = this.descend(root, path, []);
          currentPath = path;
        }
        this.lines.set(currentPath.join('.'), this.line);
      } else {
        this.keyValue(current, currentPath);
      }
      this.endOfLine();
    }
    return { data: root, lines: this.lines };
  }

  private keyValue(table: Table, prefix: string[]): void {
    const line = this.line;
    const path = this.key();
    this.skipSpaces();
    this.expect('=');
    this.skipSpaces();
    const full = [...prefix, ...path];
    const value = this.value(full);
    const parent = this.descend(table, path.slice(0, -1), prefix);
    parent[path[path.length - 1]] = value;
    this.lines.set(full.join('.'), line);
  }

  private descend(table: Table, path: string[], prefix: string[]): Table {
    let t = table;
    for (const k of path) {
      let next = t[k];
      if (Array.isArray(next)) next = next[next.length - 1];
      if (next === undefined) {
        next = {};
        t[k] = next;
        if (!this.lines.has([...prefix, k].join('.'))) this.lines.set([...prefix, k].join('.'), this.line);
      }
      if (typeof next !== 'object' || next === null) throw new TomlError(`"${k}" is not a table`, this.line);
      t = next as Table;
      prefix = [...prefix, k];
    }
    return t;
  }

  private key(): string[] {
    const parts: string[] = [];
    for (;;) {
      this.skipSpaces();
      const c = this.s[this.i];
      if (c === '"' || c === "'") parts.push(this.string());
      else {
        const m = /^[A-Za-z0-9_-]+/.exec(this.s.slice(this.i, this.i + 256));
        if (!m) throw new TomlError('expected a key', this.line);
        parts.push(m[0]);
        this.i += m[0].length;
      }
      this.skipSpaces();
      if (this.s[this.i] !== '.') return parts;
      this.i++;
    }
  }

  private value(path: string[]): unknown {
    const c = this.s[this.i];
    if (c === '"' || c === "'") return this.string();
    if (c === '[') {
      this.i++;
      const out: unknown[] = [];
      for (;;) {
        this.skipBlank();
        if (this.s[this.i] === ']') {
          this.i++;
          return out;
        }
        this.lines.set([...path, String(out.length)].join('.'), this.line);
        out.push(this.value([...path, String(out.length)]));
        this.skipBlank();
        if (this.s[this.i] === ',') this.i++;
        else if (this.s[this.i] !== ']') throw new TomlError('expected "," or "]" in an array', this.line);
      }
    }
    if (c === '{') {
      this.i++;
      const t: Table = {};
      this.skipSpaces();
      if (this.s[this.i] === '}') {
        this.i++;
        return t;
      }
      for (;;) {
        this.skipSpaces();
        this.keyValue(t, path);
        this.skipSpaces();
        if (this.s[this.i] === ',') this.i++;
        else if (this.s[this.i] === '}') {
          this.i++;
          return t;
        } else throw new TomlError('expected "," or "}" in an inline table', this.line);
      }
    }
    const m = /^[^\s,\]}#]+/.exec(this.s.slice(this.i, this.i + 128));
    if (!m) throw new TomlError('expected a value', this.line);
    this.i += m[0].length;
    const raw = m[0];
    if (raw === 'true') return true;
    if (raw === 'false') return false;
    const n = Number(raw.replace(/_/g, ''));
    return Number.isNaN(n) ? raw : n;
  }

  private string(): string {
    const q = this.s[this.i];
    const multi = this.s.startsWith(q.repeat(3), this.i);
    const close = multi ? q.repeat(3) : q;
    this.i += close.length;
    if (multi && this.s[this.i] === '\n') this.advanceNewline();
    else if (multi && this.s.startsWith('\r\n', this.i)) {
      this.i++;
      this.advanceNewline();
    }
    let out = '';
    for (;;) {
      if (this.i >= this.s.length) throw new TomlError('unterminated string', this.line);
      if (this.s.startsWith(close, this.i)) {
        this.i += close.length;
        return out;
      }
      const c = this.s[this.i];
      if (c === '\n') {
        if (!multi) throw new TomlError('newline in a string', this.line);
        this.advanceNewline();
        out += '\n';
        continue;
      }
      if (c === '\\' && q === '"') {
        const e = this.s[this.i + 1];
        const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\', b: '\b', f: '\f' };
        if (e in simple) {
          out += simple[e];
          this.i += 2;
        } else if (e === 'u' || e === 'U') {
          const len = e === 'u' ? 4 : 8;
          out += String.fromCodePoint(parseInt(this.s.slice(this.i + 2, this.i + 2 + len), 16));
          this.i += 2 + len;
        } else if (multi && (e === '\n' || e === ' ' || e === '\r')) {
          this.i++;
          while (/\s/.test(this.s[this.i] ?? '')) {
            if (this.s[this.i] === '\n') this.line++;
            this.i++;
          }
        } else throw new TomlError(`unknown escape \\${e}`, this.line);
        continue;
      }
      out += c;
      this.i++;
    }
  }

  private advanceNewline(): void {
    this.i++;
    this.line++;
  }

  private skipSpaces(): void {
    while (this.s[this.i] === ' ' || this.s[this.i] === '\t') this.i++;
  }

  /** Spaces, newlines and comments. */
  private skipBlank(): void {
    for (;;) {
      const c = this.s[this.i];
      if (c === ' ' || c === '\t' || c === '\r') this.i++;
      else if (c === '\n') this.advanceNewline();
      else if (c === '#') { while (this.i < this.s.length && this.s[this.i] !== '\n') this.i++; }
      else return;
    }
  }

  private endOfLine(): void {
    this.skipSpaces();
    if (this.s[this.i] === '#') { while (this.i < this.s.length && this.s[this.i] !== '\n') this.i++; }
    if (this.s[this.i] === '\r') this.i++;
    if (this.i < this.s.length && this.s[this.i] !== '\n') {
      throw new TomlError(`unexpected "${this.s[this.i]}"`, this.line);
    }
  }

  private expect(token: string): void {
    if (!this.s.startsWith(token, this.i)) throw new TomlError(`expected "${token}"`, this.line);
    this.i += token.length;
  }
}
