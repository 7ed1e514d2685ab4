/**
 * The `{…}` blocks of a file, from its masked code (comments and strings blanked, so their braces do
 * not count), built once per file in one pass. Suppressions and refiners ask it which blocks hold an
 * offset and where the declaration after an annotation ends.
 */
export class Blocks {
  /** Opening and closing offsets, sorted by opening; `parent` is the index of the enclosing block or -1. */
  private readonly open: number[] = [];
  private readonly close: number[] = [];
  private readonly parent: number[] = [];

  constructor(private readonly code: string) {
    const stack: number[] = [];
    const re = /[{}]/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(code)) !== null) {
      if (m[0] === '{') {
        this.open.push(m.index);
        this.close.push(code.length);
        this.parent.push(stack.length ? stack[stack.length - 1] : -1);
        stack.push(this.open.length - 1);
      } else if (stack.length) {
        this.close[stack.pop()!] = m.index + 1;
      }
    }
  }

  /** Indices of the blocks that contain `offset`, innermost first. */
  enclosing(offset: number): number[] {
    let lo = 0;
    let hi = this.open.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.open[mid] < offset) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    const out: number[] = [];
    for (let b = found; b !== -1; b = this.parent[b]) if (this.close[b] > offset) out.push(b);
    return out;
  }

  openOf(block: number): number {
    return this.open[block];
  }

  closeOf(block: number): number {
    return this.close[block];
  }

  /** The end of the block whose `{` is at `openOffset`, or undefined when there is no block there. */
  closeAt(openOffset: number): number | undefined {
    let lo = 0;
    let hi = this.open.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.open[mid] === openOffset) return this.close[mid];
      if (this.open[mid] < openOffset) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /**
   * Where the declaration or statement that starts at or after `from` ends: the close of its first
   * `{…}` body, or a `;` before any body, or (Kotlin, Swift, Go without a body) the end of its
   * last line.
   */
  itemEnd(from: number): number {
    const code = this.code;
    let depth = 0;
    let seenCode = false;
    for (let i = from; i < code.length; i++) {
      const c = code[i];
      if (c === '(' || c === '[') depth++;
      else if (c === ')' || c === ']') depth = Math.max(0, depth - 1);
      else if (depth === 0 && c === '{') return this.closeAt(i) ?? code.length;
      else if (depth === 0 && c === ';') return i + 1;
      else if (c === '\n' && depth === 0 && seenCode) {
        const before = code.slice(Math.max(from, i - 3), i).trimEnd();
        const after = /^\s*(\S)/.exec(code.slice(i, i + 200))?.[1];
        const continues = /[=(,.:|&+\-*/]$|->$/.test(before) || (after !== undefined && '.?:={)'.includes(after));
        if (!continues) return i;
      }
      if (c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r') seenCode = true;
    }
    return code.length;
  }
}
