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
const FUNCTION_HEADER =
  /\bfunction\b|=>\s*$|(?:^|[\s,{(])(?!(?:if|for|while|switch|catch|with|return|else)\b)[\w$]+\s*\([^()]*\)\s*(?::\s*[^{}]+)?$/;

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
export function enclosingFunction(
  text: string,
  code: string,
  offset: number,
  header: RegExp,
): { header: string; doc: string; annotations: string[] } | undefined {
  const blocks = blocksOf(code);
  for (const b of blocks.enclosing(offset)) {
    const h = headerOf(code, blocks.openOf(b));
    const at = h.text.search(header);
    if (at < 0) continue;
    return {
      header: h.text.trim(),
      doc: commentAbove(text, h.start + at),
      annotations: annotationsAbove(text, h.start + at),
    };
  }
  return undefined;
}

/** The annotations (`@WorkerThread`, `#[inline]`) on the lines directly above the line holding `offset`, past comments between them. */
function annotationsAbove(text: string, offset: number, maxLines = 40): string[] {
  const found: string[] = [];
  let end = lineStartOf(text, offset) - 1;
  for (let n = 0; end > 0 && n < maxLines; n++) {
    const start = lineStartOf(text, end);
    const line = text.slice(start, end).trim();
    end = start - 1;
    if (/^#!?\[.*\]$|^@\w/.test(line)) found.push(line);
    else if (!/^(?:\/\/|#|\*|\/\*)/.test(line)) break;
  }
  return found;
}

/**
 * Inside a JVM function annotated `@WorkerThread` (AndroidX, or a project's own of that name): it
 * declares it runs off the main thread, so blocking there is its contract (an `executeBlocking` method),
 * as Android Lint's thread checks read it.
 */
export function inWorkerThreadFunction(m: MatchSite): boolean {
  const fn = enclosingFunction(
    m.text,
    m.code,
    m.start,
    /\bfun\b|(?:^|\s)[\w<>[\],.? ]+\s+\w+\s*\([^()]*\)\s*(?:throws\s[\w.,\s]+)?$/,
  );
  return !!fn && fn.annotations.some((a) => /^@(?:[\w.]+\.)?WorkerThread\b/.test(a));
}

/** `catch (ignored: E) {}`, `catch (_: E)`, `catch (expected …)`: the name says the catch is empty on purpose (IntelliJ's convention). */
export function namedAsIgnored(m: MatchSite): boolean {
  const name =
    /catch\s*\(\s*(?:final\s+)?(?:[\w.|\s]+\s+)?([\w$]+)\s*(?::[^)]*)?\)/.exec(m.text.slice(m.start, m.end))?.[1] ?? '';
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

/** A call whose function says it escapes or sanitizes markup: `escapeHtml(x)`, `Util.encodeHTML(x)`, `DOMPurify.sanitize(x)`. */
const ESCAPING_CALL = /^(?:[\w$]+\s*\.\s*)*[\w$]*(?:escape|encode|saniti[sz]e|purify)[\w$]*\s*\(/i;
const ESCAPING_TAG = /(?:^|[^\w$.])(?:[\w$]+\s*\.\s*)*[\w$]*(?:escape|saniti[sz]e)[\w$]*\s*$/i;

/**
 * Whether the value assigned after `m.end` (an `=` or `+=`) is built only from string literals and
 * the results of escaping or sanitizing calls, as eslint-plugin-no-unsanitized accepts an escaping
 * template: such markup carries no data as markup. Anything else (a variable, a property, another
 * call) is data that may hold markup.
 */
export function assignsOnlyEscapedMarkup(m: MatchSite): boolean {
  const { code } = m;
  const operands: string[] = [];
  let depth = 0;
  let escapedByTag = false;
  let from = m.end;
  let i = m.end;
  const push = (to: number) => operands.push(code.slice(from, to).trim());
  for (; i < code.length; i++) {
    const c = code[i];
    if (c === '`') {
      // A template: its text is constant, each `${…}` inside it an operand of its own (or, inside a
      // call's parentheses, part of that operand); an escaping tag (Sanitizer.escapeHTML`…`) escapes them all.
      const tagged = depth === 0 && ESCAPING_TAG.test(code.slice(Math.max(from, i - 120), i));
      escapedByTag ||= tagged;
      for (i++; i < code.length && code[i] !== '`'; i++) {
        if (code[i] !== '$' || code[i + 1] !== '{') continue;
        const start = i + 2;
        let d = 0;
        for (i += 2; i < code.length && !(code[i] === '}' && d === 0); i++) {
          if (code[i] === '{') d++;
          else if (code[i] === '}') d--;
        }
        if (depth === 0 && !tagged) operands.push(code.slice(start, i).trim());
      }
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (depth === 0) break;
      depth--;
    } else if (depth === 0 && (c === ';' || c === ',')) break;
    else if (depth === 0 && c === '+') {
      push(i);
      from = i + 1;
    } else if (depth === 0 && c === '\n') {
      // The statement goes on when this line ends with `+` or the next one starts with it.
      const before = code.slice(from, i).trim();
      const after = code.slice(i + 1).trimStart();
      if (before !== '' && !after.startsWith('+')) break;
    }
  }
  push(i);
  // Templates at the top level were split into their `${…}` operands above; their text is constant.
  const dynamic = operands.map((o) => o.replace(/^(?:[\w$.\s]*)`[^`]*`$/, '').trim()).filter((o) => o !== '');
  if (dynamic.length === 0) return escapedByTag; // else a constant string, which the regex leaves out already
  // The element's own markup, wrapped in constant markup (`el.innerHTML = "<b>" + el.innerHTML + "</b>"`), adds no data.
  const target = /[\w$.[\]]+$/.exec(code.slice(code.lastIndexOf('\n', m.start - 1) + 1, m.start))?.[0];
  const own = target
    && `${target}${code.slice(m.start, m.end).match(/^\.(?:inner|outer)HTML/)?.[0] ?? ''}`.replace(/\s+/g, '');
  return dynamic.every((o) =>
    /^(["'])\s*\1$/.test(o) || (ESCAPING_CALL.test(o.slice(0, 200)) && balancedCall(o))
    || (own !== undefined && o.replace(/\s+/g, '') === own)
  );
}

/** `f(…)` whose closing parenthesis ends the operand (not `f(x).y` or `f(x) || y`). */
function balancedCall(expr: string): boolean {
  const open = expr.indexOf('(');
  let depth = 0;
  for (let i = open; i < expr.length; i++) {
    if (expr[i] === '(') depth++;
    else if (expr[i] === ')' && --depth === 0) return expr.slice(i + 1).trim() === '';
  }
  return false;
}

/** The text inside the block whose `{` is at `open` (nested blocks included). */
export function bracedBody(code: string, open: number): string {
  return code.slice(open + 1, (blocksOf(code).closeAt(open) ?? code.length) - 1);
}
