// The facts of a file's code beyond its imports and declarations: which types implement which,
// annotations and attributes, macro definitions and uses, call sites, and the file's role. Extracted
// once per file with the other facts (facts.ts); detectors read them, never the text.
import { classifyFile } from '../../ground/files/classify';
import type { LineIndex } from './source';
import type { Family, SourceFile } from './types';

/** A type declared to implement, conform to, or extend another. */
export interface ImplFact {
  /** The implementing type as written (`KF.Builder` for a nested one). */
  type: string;
  /** The implemented or extended type, without generic arguments or path (`Display`, not `fmt::Display`). */
  base: string;
  line: number;
  /**
   * `declaration`: in the type's own header (`class A: B`, `class A extends B implements C`);
   * `impl`: a Rust `impl Trait for Type` block; `extension`: a Swift extension adding a conformance.
   */
  how: 'declaration' | 'impl' | 'extension';
  /** `unsafe impl Send for T` (Rust), `@unchecked Sendable` (Swift): the compiler's check is waived. */
  unchecked?: boolean;
}

/** An annotation, attribute or decorator (`@MainActor`, `@Synchronized`, `#[derive(Debug)]`, `@app.route(…)`). */
export interface AnnotationFact {
  /** As written without `@`/`#[`: `MainActor`, `derive`, `app.route`. */
  name: string;
  line: number;
  /** The argument list as written, when short (`Debug, Clone` of a derive). */
  args?: string;
}

/** A macro defined (`macro_rules! name`, Swift `macro name`, C `#define NAME(`) or invoked (`name!(…)`, `#name(…)`). */
export interface MacroFact {
  name: string;
  line: number;
  def: boolean;
  /** An invocation at the top level of the file (a whole item: a type, an impl), not inside a body. */
  item?: boolean;
  /** A definition inside a body (indented): it can be invoked only in its own file. */
  local?: boolean;
  /** `#[macro_export]`: invocable from the whole crate and its users. */
  exported?: boolean;
}

/**
 * Where the file belongs: conventions are mined from `production`; `test` files inform test
 * findings; `vendored` (third-party code copied in) and `generated` code are no part of the project's style.
 */
export type FileRole = 'production' | 'test' | 'vendored' | 'generated';

export interface CodeFacts {
  impls: ImplFact[];
  annotations: AnnotationFact[];
  macros: MacroFact[];
  /**
   * Call sites by callee: a bare `name(`, or `qualifier.name(` / `qualifier::name(` with the nearest
   * identifier before the dot (`mu.Lock`, `asyncio.to_thread`, `.lock` after a call or index) →
   * [first line, count].
   */
  calls: Map<string, [number, number]>;
  role: FileRole;
}

const MAX_CALLEES = 2000;
const MAX_ITEMS = 2000;

export function codeFacts(
  file: SourceFile,
  lines: LineIndex,
  calls: Map<string, [number, number]>,
): CodeFacts {
  return {
    impls: implsOf(file, lines),
    annotations: annotationsOf(file, lines),
    macros: macrosOf(file, lines),
    calls,
    role: roleOf(file),
  };
}

function roleOf(file: SourceFile): FileRole {
  if (file.kind !== 'generated') return file.kind;
  return classifyFile(file.path).kind === 'vendored' ? 'vendored' : 'generated';
}

/** The last path segment of a type, without generic arguments: `fmt::Display<T>` → Display. */
function bareType(t: string): string {
  return t.replace(/<.*$/s, '').split(/::|\./).pop()!.trim();
}

function implsOf(file: SourceFile, lines: LineIndex): ImplFact[] {
  const { code } = file;
  const out: ImplFact[] = [];
  switch (file.family) {
    case 'rust':
      if (!code.includes('impl')) break;
      for (
        const m of code.matchAll(
          /^[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?(unsafe[ \t]+)?impl(?:[ \t]*<[^{\n]*?>)?[ \t]+!?([\w:]+)(?:<[^{\n]*?>)?[ \t]+for[ \t]+(?:&(?:'\w+[ \t]+)?(?:mut[ \t]+)?)?(?:dyn[ \t]+)?([\w:]+)/gm,
        )
      ) {
        // A trait reached by a path outside the crate (`fmt::Debug`) keeps its path: it is not a project type of that name.
        const external = m[2].includes('::') && !/^(crate|self|super)::/.test(m[2]);
        out.push({
          type: bareType(m[3]),
          base: external ? m[2].replace(/<.*$/s, '') : bareType(m[2]),
          line: lines.lineOf(m.index + m[0].indexOf('impl')),
          how: 'impl',
          ...(m[1] ? { unchecked: true } : {}),
        });
      }
      break;
    case 'swift':
      if (!code.includes('extension')) break;
      for (
        const m of code.matchAll(
          /^[ \t]*(?:(?:public|internal|fileprivate|private|@\w+(?:\([^)\n]*\))?)[ \t]+)*extension[ \t]+([\w.]+)[ \t]*:[ \t]*([^{\n]+?)[ \t]*(?:where\b[^{\n]*)?\{/gm,
        )
      ) {
        const line = lines.lineOf(m.index + m[0].indexOf('extension'));
        for (const raw of m[2].split(',')) {
          const b = raw.trim();
          const base = b.replace(/@\w+\s*/g, '').replace(/<.*$/, '');
          if (!/^[A-Z]\w*$/.test(base)) continue;
          out.push({
            type: m[1],
            base,
            line,
            how: 'extension',
            ...(/@unchecked\b/.test(b) ? { unchecked: true } : {}),
          });
        }
      }
      break;
    case 'jsts':
    case 'java':
      // `extends` of a class is in its declaration fact; the interfaces it implements are here.
      if (!code.includes('implements')) break;
      for (
        const m of code.matchAll(
          /^[ \t]*(?:(?:export|default|public|abstract|final|static|sealed|private|protected)[ \t]+)*(?:class|record|enum)[ \t]+([\w$]+)[^{;]*?\bimplements[ \t]+([^{]+)\{/gm,
        )
      ) {
        const line = lines.lineOf(m.index + m[0].indexOf(m[1]));
        for (const raw of splitTopLevel(m[2])) {
          const base = bareType(raw.trim());
          if (/^[A-Za-z_$][\w$]*$/.test(base)) out.push({ type: m[1], base, line, how: 'declaration' });
        }
      }
      break;
  }
  return out;
}

/** Splits a list at the commas outside `<…>`. */
function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '<') depth++;
    else if (c === '>') depth--;
    else if (c === ',' && depth === 0) {
      out.push(s.slice(from, i));
      from = i + 1;
    }
  }
  out.push(s.slice(from));
  return out;
}

/** Keywords that follow `@` in a family without being annotations (Objective-C directives, Java's annotation declaration). */
const NOT_ANNOTATION = new Set(['interface', 'protocol', 'implementation', 'end', 'property', 'synthesize']);

function annotationsOf(file: SourceFile, lines: LineIndex): AnnotationFact[] {
  const { code } = file;
  const out: AnnotationFact[] = [];
  if (file.family === 'rust') {
    if (!code.includes('#')) return out;
    for (const m of code.matchAll(/#!?\[[ \t]*([\w:]+)[ \t]*(?:\(([^\]\n]*)\))?/g)) {
      if (out.length >= MAX_ITEMS) break;
      out.push({ name: m[1], line: lines.lineOf(m.index), ...(m[2] ? { args: m[2].trim().slice(0, 160) } : {}) });
    }
    return out;
  }
  if (file.family === 'objc' || file.family === 'go' || file.family === 'other' || !code.includes('@')) return out;
  for (const m of code.matchAll(/(?<![\w@.$])@([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*)(?:[ \t]*\(([^()\n]*)\))?/g)) {
    if (out.length >= MAX_ITEMS) break;
    if (NOT_ANNOTATION.has(m[1])) continue;
    out.push({ name: m[1], line: lines.lineOf(m.index), ...(m[2]?.trim() ? { args: m[2].trim().slice(0, 160) } : {}) });
  }
  return out;
}

function macrosOf(file: SourceFile, lines: LineIndex): MacroFact[] {
  const { code } = file;
  const out: MacroFact[] = [];
  const atTop = (index: number) => index === 0 || code[index - 1] === '\n';
  switch (file.family) {
    case 'rust': {
      if (!code.includes('!')) break;
      for (const m of code.matchAll(/^[ \t]*(#\[macro_export\][ \t]*\n[ \t]*)?macro_rules![ \t]*(\w+)/gm)) {
        // Indented: defined inside a function or a module block, usable only there.
        const local = /^[ \t]+macro_rules/.test(m[0].slice(m[0].lastIndexOf('\n') + 1));
        out.push({
          name: m[2],
          line: lines.lineOf(m.index + m[0].indexOf('macro_rules')),
          def: true,
          ...(local ? { local: true } : {}),
          ...(m[1] ? { exported: true } : {}),
        });
      }
      for (const m of code.matchAll(/(?<![\w:.])(\w+)![ \t]*[({[]/g)) {
        if (out.length >= MAX_ITEMS) break;
        if (m[1] === 'macro_rules') continue;
        out.push({ name: m[1], line: lines.lineOf(m.index), def: false, ...(atTop(m.index) ? { item: true } : {}) });
      }
      break;
    }
    case 'swift': {
      if (!code.includes('macro') && !code.includes('#')) break;
      for (const m of code.matchAll(/^[ \t]*(?:(?:public|internal|package)[ \t]+)?macro[ \t]+(\w+)/gm)) {
        out.push({ name: m[1], line: lines.lineOf(m.index + m[0].indexOf(m[1])), def: true });
      }
      for (const m of code.matchAll(/(?<![\w])#(\w+)[ \t]*\(/g)) {
        if (out.length >= MAX_ITEMS) break;
        out.push({ name: m[1], line: lines.lineOf(m.index), def: false, ...(atTop(m.index) ? { item: true } : {}) });
      }
      break;
    }
    case 'objc':
    case 'other': {
      if (!code.includes('#define')) break;
      for (const m of code.matchAll(/^[ \t]*#[ \t]*define[ \t]+(\w+)\(/gm)) {
        out.push({ name: m[1], line: lines.lineOf(m.index), def: true });
      }
      break;
    }
  }
  return out;
}

const NOT_CALLEE = new Set([
  'if',
  'for',
  'while',
  'switch',
  'catch',
  'return',
  'function',
  'def',
  'func',
  'fn',
  'fun',
  'sizeof',
  'typeof',
  'match',
  'elif',
  'and',
  'or',
  'not',
  'in',
  'with',
  'assert',
  'when',
  'init',
  'constructor',
  'super',
  'this',
]);
/** Words before a name that make it a declaration, not a call (`def name(`, `fn name(`). */
const DECL_WORDS = new Set([
  'def',
  'func',
  'fn',
  'fun',
  'function',
  'class',
  'struct',
  'interface',
  'protocol',
  'trait',
  'enum',
]);

const isIdent = (c: number) =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36;
const isBlank = (c: number) => c === 32 || c === 9;

/** The identifier that ends at `end` (exclusive), or ''. */
function wordBefore(code: string, end: number): string {
  let k = end;
  while (k > 0 && isIdent(code.charCodeAt(k - 1))) k--;
  return code.slice(k, end);
}

/**
 * Collects call sites as the identifier scan of facts.ts meets a name followed by `(` (one pass
 * over the identifiers serves uses and calls; a pattern of its own cost ~200 ms on 5,000 files).
 */
export function callCollector(
  code: string,
  lines: LineIndex,
  decls: readonly { name: string; line: number }[],
  family: Family,
): { calls: Map<string, [number, number]>; add(name: string, at: number): void } {
  const calls = new Map<string, [number, number]>();
  // A declaration's own name is followed by `(` too: not a call.
  const declared = new Set(decls.map((d) => `${d.line}:${d.name}`));
  const add = (name: string, at: number) => {
    let j = at - 1;
    while (j >= 0 && isBlank(code.charCodeAt(j))) j--;
    const c = code.charCodeAt(j);
    let key = name;
    if (c === 46 /* . */ || (c === 58 /* : */ && code.charCodeAt(j - 1) === 58)) {
      // A member or path call: qualified by the nearest identifier before the dot (`self.mu.Lock()` → mu.Lock),
      // or `.name` after a call or an index (`state.lock().unwrap()` → .unwrap).
      let k = c === 46 ? j : j - 1;
      while (code.charCodeAt(k - 1) === 63 /* ?. */ || code.charCodeAt(k - 1) === 33 /* !!. */) k--;
      const q = wordBefore(code, k);
      key = q && !/^\d/.test(q) ? `${q}.${name}` : `.${name}`;
    } else if (isIdent(c)) {
      const w = wordBefore(code, j + 1);
      if (DECL_WORDS.has(w)) return;
      // A Go statement that starts a goroutine (`go func() {…}()`, `go worker(ch)`): counted as the callee `go `.
      if (w === 'go' && family === 'go') bump(calls, 'go ', lines.lineOf(at));
    } else if (c === 91 /* [ */ && (code.charCodeAt(j - 1) === 35 || code.charCodeAt(j - 1) === 33)) return;
    if (NOT_CALLEE.has(name)) return;
    const hit = calls.get(key);
    if (hit) {
      hit[1]++;
      return;
    }
    const line = lines.lineOf(at);
    if (key === name && declared.has(`${line}:${name}`)) return;
    if (calls.size < MAX_CALLEES) calls.set(key, [line, 1]);
  };
  return { calls, add };
}

function bump(calls: Map<string, [number, number]>, key: string, line: number): void {
  const hit = calls.get(key);
  if (hit) hit[1]++;
  else if (calls.size < MAX_CALLEES) calls.set(key, [line, 1]);
}

/** For tests and detectors: the callee names of a `calls` map whose last segment is `name`. */
export function calleesNamed(calls: Map<string, [number, number]>, name: string): string[] {
  return [...calls.keys()].filter((k) => k === name || k.endsWith(`.${name}`));
}

export type { Family };
