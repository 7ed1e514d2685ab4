/**
 * What refiners of built-in rules look at around a match: the comment right above a statement, the
 * end of a statement, the function a match sits in and its doc comment.
 */
import { Blocks } from '../blocks';
import type { MatchSite } from './pack';

let cached: { code: string; blocks: Blocks } | undefined;

/** The blocks of a text's code, built once for the many matches of one check. */
export function blocksOf(code: string): Blocks {
  if (cached?.code !== code) cached = { code, blocks: new Blocks(code) };
  return cached.blocks;
}

function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/**
 * The comment lines (`//`, `///`, `#`, ` * `) directly above the line holding `offset`, joined, or ''
 * when the line above is code or blank. With `statementStart`, starts from the line where the
 * statement holding `offset` begins (a `match unsafe {` under its comment).
 */
export function commentAbove(text: string, offset: number, maxLines = 40): string {
  const lines: string[] = [];
  let end = lineStartOf(text, offset) - 1;
  while (end > 0 && lines.length < maxLines) {
    const start = lineStartOf(text, end);
    const line = text.slice(start, end).trim();
    end = start - 1;
    // Attributes and annotations sit between a doc comment and its declaration.
    if (/^#!?\[.*\]$|^@\w/.test(line)) continue;
    if (!/^(?:\/\/|#|\*|\/\*)/.test(line)) break;
    lines.unshift(line);
  }
  return lines.join('\n');
}

/** The offset just past the `;` (or the end of line for languages without one) that ends the statement holding `from`. */
export function statementEnd(code: string, from: number): number {
  let depth = 0;
  for (let i = from; i < code.length; i++) {
    const c = code[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (depth === 0) return i;
      depth--;
    } else if (c === ';' && depth === 0) return i + 1;
  }
  return code.length;
}

/**
 * The header of the block opening at `open`: its line, and the lines above it that continue the same
 * declaration (a multi-line signature, a `where` clause), up to a blank line, a comment or the end of
 * the previous statement. Braces inside it (`interface{}`, `impl Fn() -> T {`) do not cut it short.
 */
function headerOf(code: string, open: number): { text: string; start: number } {
  let start = code.lastIndexOf('\n', open - 1) + 1;
  for (let n = 0; n < 12 && start > 0; n++) {
    const prevStart = code.lastIndexOf('\n', start - 2) + 1;
    const prev = code.slice(prevStart, start - 1).trim();
    if (!prev || /[;{}]$/.test(prev) || prev.startsWith('//') || prev.startsWith('/*') || prev.startsWith('#')) break;
    start = prevStart;
  }
  return { text: code.slice(start, open), start };
}

/** Whether `offset` is inside a block whose header says `async` (an async fn, block or closure). */
export function insideAsync(code: string, offset: number): boolean {
  const blocks = blocksOf(code);
  return blocks.enclosing(offset).some((b) => /\basync\b/.test(headerOf(code, blocks.openOf(b)).text));
}

/**
 * Whether `offset` sits directly in a parenthesised list (a call's arguments, a declaration's
 * parameters) whose text before `(` matches `callee` (`/\bsubprocess\.\w+\s*$/`, `/\bdef\s+\w+\s*$/`).
 */
export function insideParensOf(code: string, offset: number, callee: RegExp): boolean {
  let depth = 0;
  for (let i = offset - 1; i >= 0 && i >= offset - 4000; i--) {
    const c = code[i];
    if (c === ')' || c === ']' || c === '}') depth++;
    else if (c === '(' || c === '[' || c === '{') {
      if (depth === 0) return c === '(' && callee.test(code.slice(Math.max(0, i - 120), i));
      depth--;
    }
  }
  return false;
}

const LOOP_HEADER = /\b(?:for|while)\s*(?:await\s*)?\(|\bdo\s*$/;
const FUNCTION_HEADER = /\bfunction\b|=>\s*$|(?:^|[\s,{(])(?!(?:if|for|while|switch|catch|with|return|else)\b)[\w$]+\s*\([^()]*\)\s*(?::\s*[^{}]+)?$/;

/**
 * Whether `offset` runs once per iteration of a loop (JS/TS): the nearest enclosing loop body comes
 * before any function around it, as ESLint's no-await-in-loop reads it (a callback in the loop is its
 * own function and may run concurrently).
 */
export function insideLoopBody(code: string, offset: number): boolean {
  const blocks = blocksOf(code);
  for (const b of blocks.enclosing(offset)) {
    const header = headerOf(code, blocks.openOf(b)).text.trim();
    if (LOOP_HEADER.test(header)) return true;
    if (FUNCTION_HEADER.test(header)) return false;
  }
  return false;
}

/**
 * The innermost function around `offset` whose header matches `header` (`/\bfn\b/` for Rust,
 * `/\bfunc\b/` for Go): its header text and the comment right above it.
 */
export function enclosingFunction(text: string, code: string, offset: number, header: RegExp): { header: string; doc: string } | undefined {
  const blocks = blocksOf(code);
  for (const b of blocks.enclosing(offset)) {
    const h = headerOf(code, blocks.openOf(b));
    const at = h.text.search(header);
    if (at < 0) continue;
    return { header: h.text.trim(), doc: commentAbove(text, h.start + at) };
  }
  return undefined;
}

/** `catch (ignored: E) {}`, `catch (_: E)`, `catch (expected …)`: the name says the catch is empty on purpose (IntelliJ's convention). */
export function namedAsIgnored(m: MatchSite): boolean {
  const name = /catch\s*\(\s*(?:final\s+)?(?:[\w.|\s]+\s+)?([\w$]+)\s*(?::[^)]*)?\)/.exec(m.text.slice(m.start, m.end))?.[1] ?? '';
  return /^(?:_\w*|ignored?|expected|unused)$/i.test(name);
}

/**
 * `x!` (Swift) or `x!!` (Kotlin) right after the same line checked `x` against nil / null
 * (`guard error == nil else { throw error! }`): a smell, not a crash waiting to happen.
 */
export function checkedJustBefore(m: MatchSite, nil: 'nil' | 'null'): boolean {
  const name = /([A-Za-z_]\w*)\s*$/.exec(m.code.slice(Math.max(0, m.start - 80), m.start))?.[1];
  if (!name) return false;
  const lineStart = m.code.lastIndexOf('\n', m.start) + 1;
  const before = m.code.slice(lineStart, m.start - name.length);
  return new RegExp(`\\b${name}\\s*[!=]=\\s*${nil}\\b`).test(before);
}
