import type { FixEdit, MatchSite } from './pack';

/**
 * The fix for a mutable default argument (`items=[]`): default to `None` and create the value at the
 * start of the body, after the docstring (`if items is None: items = []`), so every call gets its own.
 * Every call that passed the argument behaves as before; only the state shared between calls that did
 * not is gone, which is what the rule reports. Offered only where that is all it changes:
 * - no annotation on the parameter (`items: list = []` would need `list | None`, a typing decision);
 * - a body on its own lines (not `def f(x=[]): return x`);
 * - not a parameter named for deliberate shared state (`cache`, `memo`, `registry`, `seen`).
 */
export function mutableDefaultFix(m: MatchSite): FixEdit | undefined {
  const param = /^([A-Za-z_]\w*)\s*=\s*(\S[\s\S]*)$/.exec(m.text.slice(m.start, m.end));
  if (!param || /cache|memo|registry|seen/i.test(param[1])) return undefined;
  const [, name, value] = param;
  const header = headerEnd(m.code, m.end);
  if (header === undefined) return undefined;
  const defLineStart = m.code.lastIndexOf('\n', defStart(m.code, m.start)) + 1;
  const defIndent = /^[ \t]*/.exec(m.text.slice(defLineStart))![0];
  const body = firstStatement(m.code, header);
  if (!body || body.indent.length <= defIndent.length || !body.indent.startsWith(defIndent)) return undefined;
  const unit = body.indent.slice(defIndent.length);
  const after = docstringEnd(m.code, body.start) ?? lineEnd(m.code, header);
  const init = `\n${body.indent}if ${name} is None:\n${body.indent}${unit}${name} = ${value.trim()}`;
  return { text: `${name}=None${m.text.slice(m.end, after)}${init}`, end: after };
}

/** The `def` keyword before a parameter at `offset` (the match is inside its parentheses). */
function defStart(code: string, offset: number): number {
  const at = code.lastIndexOf('def', offset);
  return at < 0 ? offset : at;
}

/** The offset just after the `:` that ends the `def` header the parameter list at `from` belongs to. */
function headerEnd(code: string, from: number): number | undefined {
  let depth = 1;
  for (let i = from; i < code.length && i < from + 4000; i++) {
    const c = code[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ':' && depth === 0) {
      // The body must start on a later line: nothing but a comment may follow the colon.
      return /^[ \t]*(?:#[^\n]*)?(?:\n|$)/.test(code.slice(i + 1, i + 200)) ? i + 1 : undefined;
    }
  }
  return undefined;
}

function lineEnd(code: string, from: number): number {
  const nl = code.indexOf('\n', from);
  return nl < 0 ? code.length : nl;
}

/** The first non-blank, non-comment line after `from`: its start and indentation. */
function firstStatement(code: string, from: number): { start: number; indent: string } | undefined {
  let at = lineEnd(code, from) + 1;
  while (at < code.length) {
    const end = lineEnd(code, at);
    const line = code.slice(at, end);
    const indent = /^[ \t]*/.exec(line)![0];
    if (line.trim() && !line.trimStart().startsWith('#')) return { start: at + indent.length, indent };
    at = end + 1;
  }
  return undefined;
}

/**
 * The end of the line where a docstring at `start` closes, if the first statement is one: in the code
 * view a string keeps its quotes and has its contents blanked, so the closing quotes are the next
 * occurrence of the opening ones.
 */
function docstringEnd(code: string, start: number): number | undefined {
  const open = /^[rRuUbB]{0,2}("""|'''|"|')/.exec(code.slice(start, start + 5));
  if (!open) return undefined;
  const quotes = open[1];
  const close = code.indexOf(quotes, start + open[0].length);
  return close < 0 ? undefined : lineEnd(code, close + quotes.length);
}
