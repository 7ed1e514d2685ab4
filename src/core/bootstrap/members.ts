// How other files use a project type: the methods of its body they call, most called first. The
// blind reviewers asked for a helper type's API (Alamofire's `Protected.read { }` / `write { }`,
// alacritty's `Scheduler.schedule`) rather than "use it instead of writing a local variant".
import path from 'node:path';
import type { Definition, Use } from './symbols';
import { escapeName } from './form';
import type { AnalysisContext } from './types';

/** Names that say nothing about a type's API even when they are called. */
const NOT_API = new Set(['init', 'new', 'constructor', 'toString', 'equals', 'hashCode', 'description', 'clone', 'copy', 'fmt', 'eq', 'hash', 'default', 'from', 'into', 'compareTo', 'close', 'deinit', 'drop', 'main']);

/** What declares a method, per family: the name is group 1. */
const METHOD: Partial<Record<Definition['family'], RegExp>> = {
  swift: /^\s*(?:(?:public|internal|open|fileprivate|static|class|final|override|mutating|nonisolated|@\w+(?:\([^)]*\))?)\s+)*func\s+(\w+)/,
  kotlin: /^\s*(?:(?:public|internal|protected|override|open|suspend|inline|operator|infix|final|abstract|actual|expect|@\w+)\s+)*fun\s+(?:<[^>]*>\s*)?(?:[\w.]+(?:<(?:[^<>]|<[^<>]*>)*>)?\??\.)?(\w+)\s*\(/,
  java: /^\s*(?:(?:public|protected|static|final|synchronized|abstract|default|@\w+)\s+)+[\w<>[\],.? ]+?\s+(\w+)\s*\(/,
  jsts: /^\s*(?:(?:public|protected|static|async|readonly|override|get|set)\s+)*(\w+)\s*(?:<[^>]*>)?\s*\([^)]*\)?\s*(?::[^={]*)?\{?\s*$/,
  python: /^\s+(?:async\s+)?def\s+([a-zA-Z]\w*)\s*\(/,
  rust: /^\s+(?:pub(?:\([^)]*\))?\s+)(?:const\s+|async\s+|unsafe\s+)*fn\s+(\w+)/,
};
const KEYWORDS = new Set(['if', 'for', 'while', 'switch', 'return', 'catch', 'function', 'new', 'super', 'this', 'else', 'when', 'synchronized']);

/** The methods declared for `def` (its body; Rust `impl` blocks; Go methods of its package). */
export async function methodsOf(def: Definition, ctx: AnalysisContext, own = false): Promise<string[]> {
  const names = new Set<string>();
  const name = escapeName(def.name);
  const add = (n: string | undefined) => {
    if (n && !KEYWORDS.has(n) && !NOT_API.has(n) && n !== def.name && !n.startsWith('_')) names.add(n);
  };
  if (def.family === 'go') {
    const receiver = new RegExp(`^func\\s*\\(\\s*\\w+\\s+\\*?${name}(?:\\[[^\\]]*\\])?\\s*\\)\\s*([A-Z]\\w*)`, 'gm');
    const dir = path.posix.dirname(def.path);
    for (const f of ctx.listing.filter((p) => p.endsWith('.go') && !p.endsWith('_test.go') && path.posix.dirname(p) === dir)) {
      for (const m of ((await ctx.read(f)) ?? '').matchAll(receiver)) add(m[1]);
    }
    return [...names];
  }
  const method = METHOD[def.family];
  if (!method) return [];
  const lines = ((await ctx.read(def.path)) ?? '').split('\n');
  const bodies: [number, number, number][] = [];
  const blockFrom = (start: number) => {
    const indent = /^\s*/.exec(lines[start])![0].length;
    let end = start + 1;
    for (; end < lines.length; end++) {
      const l = lines[end];
      if (!l.trim()) continue;
      const i = /^\s*/.exec(l)![0].length;
      // Python: the class ends at the first line as shallow as its `class`; braces: at its closing `}`.
      if (def.family === 'python' ? i <= indent : i <= indent && /^\s*[})]/.test(l)) break;
    }
    // Members at the body's own depth: a nested type's methods are not the type's (okhttp's DnsQuery.Callback).
    const first = lines.slice(start + 1, end).find((l) => l.trim() && !/^\s*[})]/.test(l));
    bodies.push([start + 1, end, first ? /^\s*/.exec(first)![0].length : -1]);
  };
  // A declaration without a body (`class X(val a: Int)`, a Rust struct) has no methods of its own there.
  const opens = def.family === 'python' || lines.slice(def.line - 1, def.line + 4).some((l) => l.includes('{'));
  if (opens) blockFrom(def.line - 1);
  // Kotlin's companion object is the type's static side (okhttp's `Platform.get()`).
  const [body] = bodies;
  if (body && def.family === 'kotlin') for (let i = body[0]; i < body[1]; i++) if (/^\s*companion object\b.*\{\s*$/.test(lines[i])) blockFrom(i);
  // Methods added in the same file: Rust `impl Name` blocks (not trait impls), Swift `extension Name`.
  const more = def.family === 'rust' ? new RegExp(`^impl\\b(?:<[^>]*>)?\\s*${name}\\b(?!.*\\bfor\\b)`) : def.family === 'swift' ? new RegExp(`^(?:public |internal )?extension\\s+${name}\\b`) : undefined;
  // `own`: what the declaration itself requires, not what extensions add (a protocol's requirements).
  if (more && !own) lines.forEach((l, i) => more.test(l) && blockFrom(i));
  for (const [from, to, depth] of bodies) for (let i = from; i < to; i++) if (/^\s*/.exec(lines[i])![0].length === depth) add(method.exec(lines[i])?.[1]);
  return [...names];
}

/**
 * The names a file gives values of type `name`: annotated (`x: Name`, `x: &mut Name`, Go `x *Name`,
 * Java `Name x`) or assigned from it (`let x = Name(…)`, `val p = Name.get()`, `let s = Name::new(…)`).
 * A call counts only on one of these or on the type itself: `continuation.resume()` is not
 * `AccountDelegate.resume` (a blind reviewer found the counts by bare name false).
 */
export function receiversOf(source: string, identifier: string, family: Definition['family']): Set<string> {
  const out = new Set<string>();
  const name = escapeName(identifier);
  // Declarations are short lines; a long (minified or generated) line would make the qualified-name patterns backtrack.
  const text = source.split('\n').filter((l) => l.length <= 400 && l.includes(identifier)).join('\n');
  const add = (re: RegExp) => {
    for (const m of text.matchAll(re)) {
      const n = m[1] ?? m[2];
      if (n && !['self', 'this', '_', 'super', 'func', 'return'].includes(n)) out.add(n);
    }
  };
  add(new RegExp(`\\b(\\w+)\\s*:\\s*(?:&\\s*(?:'\\w+\\s+)?(?:mut\\s+)?)?(?:[\\w.]+\\.|[\\w:]+::)?${name}\\b(?!\\s*[.(])`, 'g'));
  add(new RegExp(`\\b(?:let|var|val|const|auto)\\s+(?:mut\\s+)?(\\w+)\\s*=\\s*(?:new\\s+)?(?:[\\w.]+\\.|[\\w:]+::)?${name}\\s*(?:<[^>]*>)?\\s*(?:[({]|\\.\\w|::\\w)`, 'g'));
  if (family === 'go') add(new RegExp(`[(,{]\\s*(\\w+)\\s+\\*?(?:\\w+\\.)?${name}\\b|^\\s*(\\w+)\\s+\\*?(?:\\w+\\.)?${name}\\b`, 'gm'));
  if (family === 'java') add(new RegExp(`\\b${name}(?:<[^>]*>)?\\s+(\\w+)\\s*[=;,)]`, 'g'));
  // A name the file also declares with another type (`LazilyParsedNumber value` in one method of gson's
  // TypeAdapters, `Number value` in others) says nothing about which calls are on this type.
  for (const n of out) {
    const typed = new RegExp(`\\b${escapeName(n)}\\s*:\\s*(?:&\\s*(?:mut\\s+)?)?([A-Z][\\w.:]*)|\\b([A-Z][\\w.]*)(?:<[^>]*>)?\\s+${escapeName(n)}\\s*[=;,)]`, 'g');
    for (const m of source.matchAll(typed)) {
      if ((m[1] ?? m[2]).split(/[.:]/).pop() !== identifier) {
        out.delete(n);
        break;
      }
    }
  }
  return out;
}

/** The type's methods its users call on values of the type (`.read(`, `.read {`, `::new_with(`), most called first: at most three, each called twice or more. */
export async function calledMethods(def: Definition, users: readonly Use[], ctx: AnalysisContext): Promise<{ name: string; calls: number }[]> {
  if (def.kind !== 'type') return [];
  const methods = await methodsOf(def, ctx);
  if (methods.length === 0) return [];
  const counts = new Map<string, number>();
  for (const u of new Set(users.map((x) => x.path))) {
    const text = (await ctx.read(u)) ?? '';
    const receivers = [...receiversOf(text, def.name, def.family)].map(escapeName);
    const names = `(${methods.map(escapeName).join('|')})\\b\\s*[({]`;
    // On the type itself (`Platform.get(`, `Name::new(`), on what its accessor returns (`Platform.get().log(`), on a value of the type.
    const calls = [
      new RegExp(`\\b${escapeName(def.name)}\\s*(?:\\.|::)${names}`, 'g'),
      new RegExp(`\\b${escapeName(def.name)}(?:\\.|::)\\w+\\(\\)\\s*[?!]?\\.${names}`, 'g'),
      ...(receivers.length ? [new RegExp(`\\b(?:${receivers.join('|')})\\s*[?!]?\\s*(?:\\.|::|->)${names}`, 'g')] : []),
    ];
    for (const call of calls) for (const m of text.matchAll(call)) counts.set(m[1], (counts.get(m[1]) ?? 0) + 1);
  }
  return [...counts]
    .filter(([, n]) => n >= 2)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 3)
    .map(([name, calls]) => ({ name, calls }));
}

/** "Other files call its `read`, `write` and `value`." (most called first; counts left out: a reviewer recounting through fields declared elsewhere found them off.) */
export function callsSentence(calls: readonly { name: string; calls: number }[]): string {
  if (calls.length === 0) return '';
  const items = calls.map((c) => `\`${c.name}\``);
  return `Other files call its ${items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}` : items[0]}.`;
}
