/**
 * The suppressions teams already write for their linters, read so that a built-in rule whose
 * equivalent they silenced stays silent too: ESLint and Biome comments, SwiftLint commands, Ruff /
 * flake8 `noqa`, bandit `nosec`, pylint `disable=`, Rust `#[allow(...)]` / `#[expect(...)]`,
 * golangci `//nolint`, Kotlin `@Suppress` / `@OptIn`, Java `@SuppressWarnings`, IntelliJ
 * `noinspection`, clang `#pragma clang diagnostic ignored` and clang-tidy `NOLINT`.
 *
 * A rule names its equivalents as `tool:name` (GuardRule.equivalents); a suppression without names
 * (`// eslint-disable-next-line`, `# noqa`, `//nolint`) silences every rule that has an equivalent
 * in that tool.
 */
import { type LexFamily, lexFamily } from '../../ground/kernel/languages';
import { COMMENT, type MaskedText } from '../../ground/text/mask';
import { Blocks } from './blocks';
import { lineOf } from './checker';

export type SuppressionTool =
  | 'eslint'
  | 'biome'
  | 'swiftlint'
  | 'noqa'
  | 'nosec'
  | 'pylint'
  | 'clippy'
  | 'nolint'
  | 'suppress'
  | 'clang'
  | 'clang-tidy';

export interface Suppression {
  tool: SuppressionTool;
  /** Lower-case names, or '*' for every rule of the tool. */
  names: Set<string> | '*';
  /** 0-based lines, inclusive. */
  from: number;
  to: number;
}

/**
 * The words a suppression of each family holds: a cheap test first (most files hold none and are
 * never parsed for suppressions), and only the family's own, so a large JavaScript file is not
 * searched for Python's or Kotlin's words.
 */
const MARKERS: Record<LexFamily, RegExp | undefined> = {
  js: /eslint-(?:disable|enable)|biome-ignore/,
  swift: /swiftlint:/,
  python: /noqa|nosec|pylint:/,
  hash: /noqa|nosec|pylint:/,
  go: /nolint/,
  kotlin: /@(?:file:)?(?:Suppress|OptIn)|noinspection/,
  java: /@(?:file:)?(?:Suppress|OptIn)|noinspection/,
  rust: /#!?\[(?:allow|expect)\(/,
  c: /NOLINT|clang diagnostic/,
};

export class FileSuppressions {
  private constructor(readonly list: Suppression[]) {}

  static none = new FileSuppressions([]);

  static read(text: string, masked: MaskedText, language: string, lineStarts: number[]): FileSuppressions {
    const markers = MARKERS[lexFamily(language)];
    if (!markers?.test(text)) return FileSuppressions.none;
    const reader = new SuppressionReader(text, masked, language, lineStarts);
    return new FileSuppressions(reader.read());
  }

  /** Whether a suppression covering `line` (0-based) silences a rule with these equivalents. */
  silences(equivalents: readonly string[] | undefined, line: number): boolean {
    if (!equivalents?.length || !this.list.length) return false;
    for (const s of this.list) {
      if (line < s.from || line > s.to) continue;
      for (const eq of equivalents) {
        const colon = eq.indexOf(':');
        if (eq.slice(0, colon) !== s.tool) continue;
        if (s.names === '*' || s.names.has(eq.slice(colon + 1).toLowerCase())) return true;
      }
    }
    return false;
  }
}

class SuppressionReader {
  private readonly out: Suppression[] = [];
  private blocks?: Blocks;
  private readonly family: LexFamily;

  constructor(
    private readonly text: string,
    private readonly masked: MaskedText,
    language: string,
    private readonly lineStarts: number[],
  ) {
    this.family = lexFamily(language);
  }

  private line(offset: number): number {
    return lineOf(this.lineStarts, offset);
  }

  private get lastLine(): number {
    return this.lineStarts.length - 1;
  }

  private add(tool: SuppressionTool, names: Set<string> | '*', from: number, to: number): void {
    this.out.push({ tool, names, from, to });
  }

  /** Whether the line holding `offset` has code before it (a trailing comment) or only the comment. */
  private trailing(offset: number): boolean {
    const start = this.lineStarts[this.line(offset)];
    return this.masked.code.slice(start, offset).trim().length > 0;
  }

  /** The last line of the declaration or statement that starts after `offset`. */
  private itemLastLine(offset: number): number {
    this.blocks ??= new Blocks(this.masked.code);
    return this.line(Math.max(offset, this.blocks.itemEnd(offset) - 1));
  }

  /** The last line of the innermost block around `offset` (the whole file at top level). */
  private blockLastLine(offset: number): number {
    this.blocks ??= new Blocks(this.masked.code);
    const inner = this.blocks.enclosing(offset)[0];
    return inner === undefined ? this.lastLine : this.line(this.blocks.closeOf(inner) - 1);
  }

  read(): Suppression[] {
    this.comments();
    if (this.family === 'rust') this.rustAttributes();
    if (this.family === 'kotlin' || this.family === 'java') this.annotations();
    if (this.family === 'c') this.clangPragmas();
    return this.out;
  }

  /** The comments that hold a suppression word, in order (a comment is a run of COMMENT characters). */
  private comments(): void {
    const { kinds } = this.masked;
    const n = kinds.length;
    const markers = new RegExp(MARKERS[this.family]!.source, 'g');
    let done = -1;
    let m: RegExpExecArray | null;
    while ((m = markers.exec(this.text)) !== null) {
      const at = m.index;
      if (kinds[at] !== COMMENT || at < done) continue;
      let from = at;
      while (from > 0 && kinds[from - 1] === COMMENT) from--;
      let to = at;
      while (to < n && kinds[to] === COMMENT) to++;
      this.comment(from, to);
      done = to;
      markers.lastIndex = to;
    }
    this.closeOpenRanges();
  }

  /** eslint-disable / swiftlint:disable ranges still open at the end of the file. */
  private readonly open: { tool: SuppressionTool; names: Set<string> | '*'; from: number }[] = [];

  private closeOpenRanges(): void {
    for (const o of this.open.splice(0)) this.add(o.tool, o.names, o.from, this.lastLine);
  }

  private openRange(tool: SuppressionTool, names: Set<string> | '*', from: number): void {
    this.open.push({ tool, names, from });
  }

  private closeRange(tool: SuppressionTool, names: Set<string> | '*', at: number): void {
    for (let k = this.open.length - 1; k >= 0; k--) {
      const o = this.open[k];
      if (o.tool !== tool) continue;
      if (names === '*' || o.names === '*') {
        if (names !== '*' && o.names === '*') continue; // enabling one rule does not end a disable-all
        this.add(o.tool, o.names, o.from, at);
        this.open.splice(k, 1);
        continue;
      }
      const rest = new Set([...o.names].filter((x) => !names.has(x)));
      if (rest.size === o.names.size) continue;
      this.add(o.tool, new Set([...o.names].filter((x) => names.has(x))), o.from, at);
      if (rest.size) o.names = rest;
      else this.open.splice(k, 1);
    }
  }

  private comment(from: number, to: number): void {
    const body = this.text.slice(from, to);
    const line = this.line(from);
    const endLine = this.line(to - 1);
    switch (this.family) {
      case 'js':
        this.eslint(body, line, endLine);
        break;
      case 'swift':
        this.swiftlint(body, line);
        break;
      case 'python':
      case 'hash':
        this.python(body, from, line);
        break;
      case 'go':
        this.nolint(body, from, line, endLine);
        break;
      case 'kotlin':
      case 'java':
        this.noinspection(body, from, endLine);
        break;
      case 'c':
        this.clangTidy(body, line, endLine);
        break;
    }
  }

  private eslint(body: string, line: number, endLine: number): void {
    const m = /\beslint-(disable-next-line|disable-line|disable|enable)\b([^\n]*)/.exec(body);
    if (m) {
      const names = nameList(m[2].replace(/\*\/\s*$/, '').split(/\s--\s?/)[0]);
      if (m[1] === 'disable-next-line') this.add('eslint', names, endLine + 1, endLine + 1);
      else if (m[1] === 'disable-line') this.add('eslint', names, line, line);
      else if (m[1] === 'disable') this.openRange('eslint', names, line);
      else this.closeRange('eslint', names, line);
    }
    const b = /\bbiome-ignore(?:-all|-start|-end)?\s+([\w/]+)/.exec(body);
    if (b) {
      this.add('biome', new Set([b[1].toLowerCase(), b[1].split('/').pop()!.toLowerCase()]), endLine + 1, endLine + 1);
    }
  }

  private swiftlint(body: string, line: number): void {
    const m = /\bswiftlint:(disable|enable)(?::(next|this|previous))?\b([^\n]*)/.exec(body);
    if (!m) return;
    const list = m[3].trim().split(/\s+/).filter((x) => /^[a-z_]+$/.test(x));
    const names: Set<string> | '*' = list.length === 0 || list.includes('all') ? '*' : new Set(list);
    if (m[1] === 'enable') {
      this.closeRange('swiftlint', names, line);
      return;
    }
    if (m[2] === 'next') this.add('swiftlint', names, line + 1, line + 1);
    else if (m[2] === 'this') this.add('swiftlint', names, line, line);
    else if (m[2] === 'previous') this.add('swiftlint', names, line - 1, line - 1);
    else this.openRange('swiftlint', names, line);
  }

  private python(body: string, from: number, line: number): void {
    const noqa = /#\s*noqa\b(?::\s*([A-Za-z0-9, ]+))?/i.exec(body);
    if (noqa) {
      this.add(
        'noqa',
        noqa[1] ? new Set(noqa[1].split(/[\s,]+/).filter(Boolean).map((c) => c.toLowerCase())) : '*',
        line,
        line,
      );
    }
    const nosec = /#\s*nosec\b(?::?\s*([A-Za-z0-9, ]+))?/.exec(body);
    if (nosec) {
      this.add(
        'nosec',
        nosec[1]?.trim() ? new Set(nosec[1].split(/[\s,]+/).filter(Boolean).map((c) => c.toLowerCase())) : '*',
        line,
        line,
      );
    }
    const pylint = /#\s*pylint:\s*(disable|enable)(?:-next)?\s*=\s*([\w\-, ]+)/.exec(body);
    if (pylint) {
      const names = nameList(pylint[2]);
      if (pylint[1] === 'enable') this.closeRange('pylint', names, line);
      else if (/disable-next/.test(pylint[0])) this.add('pylint', names, line + 1, line + 1);
      else if (this.trailing(from)) this.add('pylint', names, line, line);
      else this.add('pylint', names, line, this.indentedBlockEnd(line));
    }
  }

  /** The last line of the indented block a comment on `line` sits in (pylint's scope for a disable on its own line). */
  private indentedBlockEnd(line: number): number {
    const indentOf = (l: number) => {
      const start = this.lineStarts[l];
      const end = l + 1 < this.lineStarts.length ? this.lineStarts[l + 1] - 1 : this.text.length;
      const s = this.text.slice(start, end);
      return s.trim() ? s.length - s.trimStart().length : -1;
    };
    const own = indentOf(line);
    if (own <= 0) return this.lastLine;
    for (let l = line + 1; l <= this.lastLine; l++) {
      const ind = indentOf(l);
      if (ind >= 0 && ind < own) return l - 1;
    }
    return this.lastLine;
  }

  private nolint(body: string, from: number, line: number, endLine: number): void {
    const m = /^\/\/\s?nolint\b(?::([\w,-]+))?/.exec(body);
    if (!m) return;
    const names: Set<string> | '*' = m[1] ? new Set(m[1].split(',').map((x) => x.toLowerCase())) : '*';
    if (this.trailing(from)) this.add('nolint', names, line, line);
    // On its own line, //nolint covers the declaration or statement below it (golangci's rule).
    else {
      this.add('nolint', names, endLine + 1, this.itemLastLine(this.lineStarts[Math.min(endLine + 1, this.lastLine)]));
    }
  }

  private noinspection(body: string, from: number, endLine: number): void {
    const m = /^\/\/\s*noinspection\s+([\w, ]+)/.exec(body);
    if (!m || this.trailing(from)) return;
    this.add(
      'suppress',
      nameList(m[1]),
      endLine + 1,
      this.itemLastLine(this.lineStarts[Math.min(endLine + 1, this.lastLine)]),
    );
  }

  private clangTidy(body: string, line: number, endLine: number): void {
    const m = /\bNOLINT(NEXTLINE|BEGIN|END)?\b(?:\(([^)]*)\))?/.exec(body);
    if (!m) return;
    const names: Set<string> | '*' = m[2] ? nameList(m[2]) : '*';
    if (m[1] === 'NEXTLINE') this.add('clang-tidy', names, endLine + 1, endLine + 1);
    else if (m[1] === 'BEGIN') this.openRange('clang-tidy', names, line);
    else if (m[1] === 'END') this.closeRange('clang-tidy', names, line);
    else this.add('clang-tidy', names, line, line);
  }

  /** `#[allow(clippy::x, unused_must_use)]` covers the item below it; `#![allow(...)]` its enclosing block or the file. */
  private rustAttributes(): void {
    const re = /#(!?)\[\s*(?:allow|expect)\s*\(([^\]]*)\)\s*\]/g;
    const code = this.masked.code;
    let m: RegExpExecArray | null;
    while ((m = re.exec(code)) !== null) {
      const names = new Set(
        m[2].split(',').map((x) => x.trim().replace(/^clippy::/, '').toLowerCase()).filter(Boolean),
      );
      const line = this.line(m.index);
      if (m[1]) this.add('clippy', names, line, this.blockLastLine(m.index));
      else this.add('clippy', names, line, this.itemLastLine(m.index + m[0].length));
    }
  }

  /** Kotlin `@Suppress("X")` / `@file:Suppress` / `@OptIn(X::class)`, Java `@SuppressWarnings({"X"})`. */
  private annotations(): void {
    const re = /@(file:)?(Suppress|SuppressWarnings|OptIn)\s*\(/g;
    const code = this.masked.code;
    let m: RegExpExecArray | null;
    while ((m = re.exec(code)) !== null) {
      const close = code.indexOf(')', m.index + m[0].length);
      if (close < 0) break;
      const args = this.text.slice(m.index + m[0].length, close);
      const names = m[2] === 'OptIn'
        ? new Set([...args.matchAll(/([\w.]+)::class/g)].map((x) => x[1].split('.').pop()!.toLowerCase()))
        : new Set(
          [...args.matchAll(/"([^"]+)"/g)].map((x) => x[1].replace(/^(?:detekt|ktlint|PMD)[:.]/i, '').toLowerCase()),
        );
      if (!names.size) continue;
      const line = this.line(m.index);
      if (m[1]) this.add('suppress', names, 0, this.lastLine);
      else this.add('suppress', names, line, this.itemLastLine(close + 1));
      re.lastIndex = close + 1;
    }
  }

  /** `#pragma clang diagnostic ignored "-Wx"` until the matching `pop` (or the end of the file). */
  private clangPragmas(): void {
    const re = /^[ \t]*#pragma\s+clang\s+diagnostic\s+(push|pop|ignored\s+"-W([\w-]+)")/gm;
    const stack: { from: number; names: Set<string> }[] = [{ from: 0, names: new Set() }];
    let m: RegExpExecArray | null;
    while ((m = re.exec(this.text)) !== null) {
      const line = this.line(m.index);
      if (m[1] === 'push') stack.push({ from: line, names: new Set() });
      else if (m[1] === 'pop') {
        const top = stack.length > 1 ? stack.pop()! : undefined;
        if (top?.names.size) this.add('clang', top.names, top.from, line);
      } else {
        const top = stack[stack.length - 1];
        if (!top.names.size) top.from = line;
        top.names.add(m[2].toLowerCase());
      }
    }
    for (const s of stack) if (s.names.size) this.add('clang', s.names, s.from, this.lastLine);
  }
}

/** `a, b c` → the names, lower case; nothing → every rule. */
function nameList(spec: string): Set<string> | '*' {
  const names = spec.split(/[\s,]+/).map((x) => x.trim().toLowerCase()).filter(Boolean);
  return names.length ? new Set(names) : '*';
}
