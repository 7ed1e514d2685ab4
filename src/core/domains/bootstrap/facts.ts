import { callCollector, type CodeFacts, codeFacts } from './code-facts';
import { ownersOf, shapeOf } from './decl-shape';
import type { DeclFact, DeclKind, Visibility } from './decl-types';
import { LineIndex } from './source';
import type { Family, SourceFile } from './types';

export interface ImportFact {
  /** The module as written: `./errors`, `react`, `Foundation`, `github.com/x/y`, `.models`. */
  spec: string;
  line: number;
  /**
   * The names this import binds in the file: `{ a, b as c }` gives a, c (with `from` a, b); a
   * namespace or module alias (`* as ns`, `import x.y as z`, Go's package name) is in `alias`.
   */
  names?: { local: string; imported: string }[];
  alias?: string;
  /** `export { a } from './x'` (JS/TS): the names are passed on to the file's own importers. */
  reexport?: boolean;
  /** How many lines the statement spans (a `{ … }` list may take several). */
  span?: number;
  /** A module declaration that brings a file into the module tree (Rust `mod x;`): `spec` is the module's name. */
  module?: boolean;
}

export type { DeclFact, DeclKind, Visibility } from './decl-types';

/** What several dimensions and the detectors need from one file, extracted once. */
export interface FileFacts extends CodeFacts {
  imports: ImportFact[];
  decls: DeclFact[];
  /**
   * Identifiers called (`name(`) or used as a type (`Name.`), with their first line. Qualified
   * occurrences (`x.name(`, `Enum::Name`, `pkg.Name`) and declarations are not uses of a bare name.
   */
  uses: Map<string, number>;
  /** `pkg.Name` occurrences (Go, Python modules, JS namespaces): qualifier → names with their first line. */
  qualified: Map<string, Map<string, number>>;
  /** Java/Kotlin `package x.y`, Go `package name`. */
  packageName?: string;
}

const cache = new WeakMap<SourceFile, FileFacts>();

export function factsOf(file: SourceFile): FileFacts {
  let f = cache.get(file);
  if (!f) {
    f = extract(file);
    cache.set(file, f);
  }
  return f;
}

const KEYWORDS = new Set([
  'if',
  'for',
  'while',
  'switch',
  'catch',
  'function',
  'return',
  'typeof',
  'await',
  'async',
  'new',
  'super',
  'this',
  'import',
  'require',
  'guard',
  'init',
  'func',
  'def',
  'print',
  'elif',
  'with',
  'assert',
  'not',
  'and',
  'or',
  'in',
  'is',
  'sizeof',
  'defer',
  'go',
  'make',
  'len',
  'append',
  'fn',
  'match',
  'loop',
  'constructor',
  'get',
  'set',
  'of',
  'when',
  'fun',
  'else',
  'do',
  'try',
  'throw',
  'case',
  'let',
  'var',
  'const',
  'pub',
  'impl',
  'where',
  'yield',
  'lambda',
  'elif',
  'except',
  'raise',
  'from',
  'use',
  'mod',
  'crate',
  'super',
  'sizeof',
  'typeof',
  'instanceof',
  'String',
  'Number',
  'Boolean',
  'Object',
  'Array',
  'Promise',
  'Error',
  'Map',
  'Set',
  'Date',
  'JSON',
  'Math',
  'Symbol',
  'Self',
  'self',
]);

const MAX_USES = 3000;

function extract(file: SourceFile): FileFacts {
  const lines = new LineIndex(file.text);
  const imports: ImportFact[] = [];
  const decls: DeclFact[] = [];
  const { text, code } = file;
  const isCode = (offset: number) => code[offset] === text[offset];
  const addImport = (spec: string, offset: number, statement = '') => {
    const span = statement.split('\n').length;
    if (spec && isCode(offset)) {
      imports.push({
        spec,
        line: lines.lineOf(offset),
        ...bindings(file.family, spec, statement),
        ...(file.family === 'jsts' && /^\s*export\b/.test(statement) ? { reexport: true } : {}),
        ...(span > 1 ? { span } : {}),
      });
    }
  };
  for (const [re, group, statementStart] of IMPORTS[file.family] ?? []) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (statementStart && !atStatementStart(text, m.index)) {
        // Not an import statement; one may still start inside this match.
        re.lastIndex = m.index + 1;
        continue;
      }
      if (group === -1) {
        // Go import blocks: every quoted path inside the parentheses, with its alias when given.
        for (const q of m[0].matchAll(/(?:^|\n)[ \t]*([\w.]+[ \t]+)?"([^"]+)"/g)) {
          addImport(q[2], m.index + (q.index ?? 0) + q[0].indexOf('"'), q[0]);
        }
      } else {
        // The match may start at the `;` that ends the previous statement: the import starts after it.
        const at = m.index + /^[\s;]*/.exec(m[0])![0].length;
        addImport(m[group], at, statementAt(text, at, m[0].length - (at - m.index)));
      }
    }
  }
  for (const [re, kind, nameGroup, exportGroup, baseGroup] of DECLS[file.family] ?? []) {
    re.lastIndex = 0;
    for (let m = re.exec(code); m; m = re.exec(code)) {
      const name = m[nameGroup];
      if (!name) continue;
      const exported = exportGroup === undefined
        ? !name.startsWith('_') && (file.family !== 'go' || /^[A-Z]/.test(name))
        : !!m[exportGroup];
      const bases = baseGroup !== undefined && m[baseGroup] ? supertypes(m[baseGroup]) : [];
      const base = bases[0];
      const head = m[0];
      // Go methods have a receiver; elsewhere a member is indented inside its type or impl block.
      const member = file.family === 'go' ? /^func[ \t]*\(/.test(head) : /^[ \t]+\S/.test(head);
      // Modifiers before the name are the declaration's (`class X internal constructor` is a public class).
      const modifiers = head.slice(0, head.indexOf(name) + name.length);
      const line = lines.lineOf(m.index + head.indexOf(name));
      // A typing.overload stub is a signature; the definition is the undecorated `def` after it (not the first stub).
      if (
        file.family === 'python' && kind === 'function'
        && /^\s*@(?:typing\.)?overload\b/.test(file.lines[line - 2] ?? '')
      ) continue;
      decls.push({
        name,
        kind,
        line,
        exported,
        ...(base ? { base, bases } : {}),
        visibility: visibilityOf(file, name, modifiers, exported),
        member,
        ...shapeOf(kind, name, modifiers, file.lines[line - 1] ?? ''),
      });
    }
  }
  const uses = new Map<string, number>();
  const qualified = new Map<string, Map<string, number>>();
  // Names inside import statements are bindings, not uses.
  const importLines = new Set(
    imports.flatMap((i) => (i.names?.length ? Array.from({ length: i.span ?? 1 }, (_, k) => i.line + k) : [])),
  );
  const calls = callCollector(code, lines, decls, file.family);
  scanUses(code, (name, at) => {
    if (uses.size >= MAX_USES || KEYWORDS.has(name) || uses.has(name)) return;
    const line = lines.lineOf(at);
    if (importLines.size && importLines.has(line)) return;
    uses.set(name, line);
  }, calls.add);
  // `pkg.Name` matters where a module alias qualifies names: Go packages, Python modules, JS namespaces.
  const qualRe = /(?<![\w$.])([a-z_][\w$]*)\.([A-Za-z_][\w$]*)/g;
  const aliases = new Set(imports.flatMap((i) => (i.alias ? [i.alias] : [])));
  for (let m = aliases.size ? qualRe.exec(code) : null; m && qualified.size < MAX_USES; m = qualRe.exec(code)) {
    if (!aliases.has(m[1])) continue;
    if (m[1] === 'self' || m[1] === 'this') continue;
    let names = qualified.get(m[1]);
    if (!names) qualified.set(m[1], names = new Map());
    if (!names.has(m[2])) names.set(m[2], lines.lineOf(m.index));
  }
  // The word is needed and rare outside Java, Kotlin and Go: a substring test spares the other files a multiline scan (~60 ms on 5,000 files).
  const packageName = code.includes('package') ? /^[ \t]*package[ \t]+([\w.]+)/m.exec(code)?.[1] : undefined;
  if (file.family === 'rust' && code.includes('mod')) {
    // `mod x;` brings x.rs (or x/mod.rs) into the module tree: an edge of the import graph as much as a `use`.
    for (const m of code.matchAll(/^[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?mod[ \t]+(\w+)[ \t]*;/gm)) {
      imports.push({ spec: m[1], line: lines.lineOf(m.index + m[0].indexOf('mod')), module: true });
    }
  }
  ownersOf(file, decls, lines);
  return {
    imports,
    decls,
    uses,
    qualified,
    ...(packageName ? { packageName } : {}),
    ...codeFacts(file, lines, calls.calls),
  };
}

const DECL_KEYWORDS = new Set([
  'def',
  'func',
  'fn',
  'function',
  'fun',
  'class',
  'struct',
  'enum',
  'interface',
  'protocol',
  'trait',
  'type',
  'typealias',
  'actor',
  'object',
  'extension',
  'impl',
  'let',
  'var',
  'val',
  'const',
  'static',
  'case',
  'macro_rules',
]);
const TYPE_POSITION_WORDS = new Set(['extends', 'implements', 'new', 'as', 'is', 'throw', 'throws', 'mut', 'dyn']);

/**
 * Every bare use of a name in masked code: a call (`name(`, `name<T>(`), a type qualifier
 * (`Name.x`, `Name::x`) or a type position (`: Name`, `<Name`, `(Name`, `extends Name`, `-> Name`).
 * Not a use: a name after `.`, `::`, `->` or `?.` (a member or a path), or the name a declaration
 * introduces (`def name`, `class Name`). One pass over the identifiers, no backtracking.
 */
function scanUses(
  code: string,
  onUse: (name: string, at: number) => void,
  onCall?: (name: string, at: number) => void,
): void {
  const ident = /[A-Za-z_$][\w$]*/g;
  let prevWord = '';
  let prevEnd = 0;
  for (let m = ident.exec(code); m; m = ident.exec(code)) {
    const name = m[0];
    const at = m.index;
    const end = at + name.length;
    const word = prevWord;
    const wordEnd = prevEnd;
    prevWord = name;
    prevEnd = end;
    const before = code.charCodeAt(at - 1);
    let k = end;
    while (code.charCodeAt(k) === 32 || code.charCodeAt(k) === 9) k++;
    const next = code.charCodeAt(k);
    if (onCall && next === 40 /* ( */) onCall(name, at);
    // `.name`, `::name`, `#name`: a member, a path or a directive. (`@Name` is a use: a property wrapper, an annotation.)
    if (before === 46 || (before === 58 && code.charCodeAt(at - 2) === 58) || before === 35) continue;
    // The last non-blank character before the name.
    let j = at - 1;
    while (j >= 0 && isBlank(code.charCodeAt(j))) j--;
    const onlyBlanksSinceWord = j < wordEnd;
    // The name a declaration introduces, with only blanks between it and its keyword.
    if (onlyBlanksSinceWord && DECL_KEYWORDS.has(word)) continue;
    const capital = name.charCodeAt(0) >= 65 && name.charCodeAt(0) <= 90;
    if (next === 40 /* ( */ || (before === 64 /* @ */ && capital)) onUse(name, at);
    else if (next === 60 /* < */ && /^<[\w$<>, .?:[\]]*>\s*\(/.test(code.slice(k, k + 120))) onUse(name, at);
    else if (
      capital && (next === 46 || (next === 58 && code.charCodeAt(k + 1) === 58))
      && /[A-Za-z_]/.test(code[next === 46 ? k + 1 : k + 2] ?? '')
    ) onUse(name, at);
    else if (capital && !(next === 58 && code.charCodeAt(k + 1) === 58)) {
      const last = code.charCodeAt(j);
      // `: Name` (not `::`), `<Name`, `(Name`, `, Name`, `-> Name`, `&Name` and `&mut Name` (Rust's
      // references, else a type passed by `&` is missed in most files that use it), `extends Name`, `new Name`…
      if (
        (last === 58 && code.charCodeAt(j - 1) !== 58) || last === 60 || last === 40 || last === 44 || last === 38
        || (last === 62 && code.charCodeAt(j - 1) === 45) || (onlyBlanksSinceWord && TYPE_POSITION_WORDS.has(word))
      ) onUse(name, at);
    }
  }
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** Folders whose code a module keeps to itself, whatever its modifiers say. */
export const INTERNAL_PATH =
  /(^|\/)(internal|internals|_internal|private|impl|detail|[\w-]*do-not-import[\w-]*)(\/|$)/i;

/** What a declaration's modifiers, name and place say about who may use it (see DeclFact.visibility). */
function visibilityOf(file: SourceFile, name: string, head: string, exported: boolean): Visibility {
  const internalPath = INTERNAL_PATH.test(file.path);
  switch (file.family) {
    case 'swift':
      return /\b(private|fileprivate)\b/.test(head)
        ? 'private'
        : /\b(public|open)\b/.test(head) && !internalPath
        ? 'public'
        : 'internal';
    case 'kotlin':
      return /\bprivate\b/.test(head) ? 'private' : /\binternal\b/.test(head) || internalPath ? 'internal' : 'public';
    case 'java':
      return /\bprivate\b/.test(head) ? 'private' : /\bpublic\b/.test(head) && !internalPath ? 'public' : 'internal';
    case 'rust':
      return /\bpub\s*\(/.test(head)
        ? 'internal'
        : /\bpub\b/.test(head)
        ? (internalPath ? 'internal' : 'public')
        : 'private';
    case 'go':
      return /^[A-Z]/.test(name) && !internalPath ? 'public' : 'internal';
    case 'python':
      // A module or package whose name starts with `_` is internal unless its package re-exports the name.
      return name.startsWith('_')
        ? 'private'
        : /(^|\/)_[a-z]\w*(\/|\.py$)/.test(file.path) || internalPath
        ? 'internal'
        : 'public';
    case 'objc':
      return /(^|\/)(Private|Internal)(\/|$)|(Private|Internal)\.h$/.test(file.path) ? 'internal' : 'public';
    case 'jsts':
      return !exported ? 'private' : internalPath ? 'internal' : 'public';
    default:
      return exported ? 'public' : 'private';
  }
}

/**
 * The type names of a supertype clause: `@unchecked Sendable, RequestInterceptor where T: X` →
 * Sendable, RequestInterceptor; `Base(arg), Iface` → Base, Iface; Python `(Base, metaclass=M)` → Base.
 */
function supertypes(clause: string): string[] {
  const flat = clause.replace(/\bwhere\b.*$/, '').replace(/<[^<>]*>/g, '').replace(/\([^()]*\)/g, '');
  return flat
    .split(',')
    .map((x) => x.replace(/@\w+/g, '').replace(/\bby\b.*$/, '').trim())
    .filter((x) => /^[A-Za-z_][\w.]*$/.test(x) && !x.includes('='));
}

/**
 * Whether a statement starts at `at`: only whitespace between it and the start of the text, a
 * line break or a `;`.
 */
function atStatementStart(text: string, at: number): boolean {
  let w = at;
  let lineBreak = false;
  while (w > 0 && /\s/.test(text[w - 1])) {
    w--;
    if (text.charCodeAt(w) === 10) lineBreak = true;
  }
  return w === 0 || lineBreak || text.charCodeAt(w - 1) === 59;
}

/** The import statement around a match: to the end of the line, or to the closing brace of a `{ … }` list. */
function statementAt(text: string, index: number, length: number): string {
  const start = text.lastIndexOf('\n', index) + 1;
  let end = text.indexOf('\n', index + length);
  if (end < 0) end = text.length;
  let stmt = text.slice(start, end);
  // A `{ … }` (JS, Rust) or `( … )` (Python, Go) list may continue over several lines.
  for (const [open, closer] of [['{', '}'], ['(', ')']] as const) {
    if (stmt.includes(open) && !stmt.includes(closer)) {
      const close = text.indexOf(closer, end);
      if (close > 0 && close - start < 4000) stmt = text.slice(start, close + 1);
      break;
    }
  }
  return stmt;
}

/** The names an import statement binds (see ImportFact.names / alias). */
function bindings(family: Family, spec: string, stmt: string): Pick<ImportFact, 'names' | 'alias'> {
  const list = (s: string, sep: RegExp) =>
    s
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x && x !== '*' && !/^type$/.test(x))
      .map((x) => {
        const [imported, local] = x.replace(/^type\s+/, '').split(sep).map((y) => y.trim());
        return { imported, local: local || imported };
      })
      .filter((b) => /^[\w$]+$/.test(b.imported) && /^[\w$]+$/.test(b.local));
  switch (family) {
    case 'jsts': {
      // Comments inside a `{ … }` list (a `@deprecated` note, a `// ---` divider) are not names.
      stmt = stmt.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/[^\n]*/g, ' ');
      const ns = /\*\s+as\s+([\w$]+)/.exec(stmt)?.[1];
      const braces = /\{([^}]*)\}/.exec(stmt)?.[1];
      const def = /^\s*(?:import|export)\s+(?:type\s+)?([\w$]+)\s*(?:,|from\b)/.exec(stmt)?.[1];
      const names = [
        ...(braces ? list(braces, /\s+as\s+/) : []),
        ...(def && def !== 'type' ? [{ imported: 'default', local: def }] : []),
      ];
      return { ...(names.length ? { names } : {}), ...(ns ? { alias: ns } : {}) };
    }
    case 'python': {
      const from = /^\s*from\s+\S+\s+import\s+\(?([^)#\n]*(?:\n[^)#]*)*)\)?/.exec(stmt);
      if (from) return { names: list(from[1].replace(/\n/g, ','), /\s+as\s+/) };
      const as = /^\s*import\s+[\w.]+\s+as\s+(\w+)/.exec(stmt)?.[1];
      return { alias: as ?? spec.split('.').pop()! };
    }
    case 'rust': {
      const braces = /\{([^}]*)\}/.exec(stmt)?.[1];
      if (braces) return { names: list(braces.replace(/\n/g, ' '), /\s+as\s+/) };
      const m = /::([\w]+)(?:\s+as\s+(\w+))?\s*;/.exec(stmt);
      return m ? { names: [{ imported: m[1], local: m[2] ?? m[1] }] } : {};
    }
    case 'go': {
      const alias = /^\s*(?:import\s+)?([\w.]+)\s+"/.exec(stmt)?.[1];
      return {
        alias: alias && alias !== 'import'
          ? alias
          : spec.split('/').pop()!.replace(/^go-|\.go$|-go$/g, '').replace(/\/v\d+$/, ''),
      };
    }
    case 'java':
    case 'kotlin': {
      const last = spec.split('.').pop()!;
      const as = /\bas\s+(\w+)/.exec(stmt)?.[1];
      return last === '*' ? {} : { names: [{ imported: last, local: as ?? last }] };
    }
    default:
      return {};
  }
}

/**
 * [pattern over the text, group of the module (-1: a Go import block), statementStart]. With
 * `statementStart` the pattern begins at the keyword, and a match counts only where a statement
 * starts (see atStatementStart): what `(?:^|[\n;])\s*import…` would match, but V8 looks for the
 * keyword instead of trying every line break and semicolon (the two JS/TS patterns took ~110 ms
 * on 5,000 files, about half as long now).
 */
type ImportRule = [RegExp, number, boolean?];
const IMPORTS: Partial<Record<Family, ImportRule[]>> = {
  jsts: [
    [/(?:import|export)\s[^;'"]*?\sfrom\s*['"]([^'"\n]+)['"]/g, 1, true],
    [/import\s*['"]([^'"\n]+)['"]/g, 1, true],
    [/(?<![\w.$])require\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g, 1],
    [/(?<![\w.$])import\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g, 1],
  ],
  python: [
    [/^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import\b/gm, 1],
    [/^[ \t]*import[ \t]+([\w.]+)/gm, 1],
  ],
  go: [
    [/^import[ \t]+(?:[\w.]+[ \t]+)?"([^"]+)"/gm, 1],
    [/^import[ \t]*\([^)]*\)/gm, -1],
  ],
  swift: [[
    /^[ \t]*(?:@testable[ \t]+|@_exported[ \t]+)?import[ \t]+(?:(?:class|struct|enum|protocol|func|var|typealias)[ \t]+)?(\w+)/gm,
    1,
  ]],
  objc: [
    [/^[ \t]*#(?:import|include)[ \t]*[<"]([^>"]+)[>"]/gm, 1],
    [/^[ \t]*@import[ \t]+([\w.]+)/gm, 1],
  ],
  rust: [[/^[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?use[ \t]+([\w:]+)/gm, 1]],
  java: [[/^[ \t]*import[ \t]+(?:static[ \t]+)?([\w.]+)/gm, 1]],
  kotlin: [[/^[ \t]*import[ \t]+([\w.]+)/gm, 1]],
};

/** [pattern over masked code, kind, name group, exported group (undefined: by name), base group]. */
type DeclRule = [RegExp, DeclKind, number, number | undefined, number | undefined];
const DECLS: Partial<Record<Family, DeclRule[]>> = {
  jsts: [
    [/^(export[ \t]+)?(?:default[ \t]+)?(?:async[ \t]+)?function\*?[ \t]+([\w$]+)/gm, 'function', 2, 1, undefined],
    [
      /^(export[ \t]+)?(?:const|let)[ \t]+([\w$]+)(?:[ \t]*:[^=\n]+)?[ \t]*=[ \t]*(?:async[ \t]+)?(?:function\b|\([^)]*\)[ \t]*(?::[^=\n]+)?=>|[\w$]+[ \t]*=>)/gm,
      'function',
      2,
      1,
      undefined,
    ],
    [
      /^(export[ \t]+)?(?:default[ \t]+)?(?:abstract[ \t]+)?class[ \t]+([\w$]+)(?:<[^>{]*>)?(?:[ \t]+extends[ \t]+([\w$.]+))?/gm,
      'type',
      2,
      1,
      3,
    ],
    [/^(export[ \t]+)?(?:declare[ \t]+)?(?:interface|type|enum)[ \t]+([\w$]+)/gm, 'type', 2, 1, undefined],
    [
      /^(export[ \t]+)?const[ \t]+([A-Za-z_$][\w$]*)[ \t]*(?::[^=\n]+)?=[ \t]*(?:['"`\d\-[{]|true|false|new[ \t]|Object\.freeze)/gm,
      'constant',
      2,
      1,
      undefined,
    ],
  ],
  python: [
    [/^(?:async[ \t]+)?def[ \t]+(\w+)/gm, 'function', 1, undefined, undefined],
    [/^class[ \t]+(\w+)(?:\(([^)]*)\))?/gm, 'type', 1, undefined, 2],
    [/^([A-Z][A-Z0-9_]+)[ \t]*(?::[^=\n]+)?=/gm, 'constant', 1, undefined, undefined],
  ],
  go: [
    [/^func[ \t]+(?:\([^)]*\)[ \t]*)?(\w+)/gm, 'function', 1, undefined, undefined],
    [/^type[ \t]+(\w+)[ \t]+(?:struct|interface)/gm, 'type', 1, undefined, undefined],
  ],
  swift: [
    [
      /^[ \t]*(?:@\w+(?:\([^)\n]*\))?[ \t]+)*((?:public|open)[ \t]+)?(?:(?:final|internal|private|fileprivate|static|@\w+(?:\([^)\n]*\))?)[ \t]+)*(?:class|struct|enum|protocol|actor)[ \t]+(\w+)(?:<[^>]*>)?(?:[ \t]*:[ \t]*([^{\n]+))?/gm,
      'type',
      2,
      undefined,
      3,
    ],
    [
      /^[ \t]*((?:public|open)[ \t]+)?(?:(?:static|class|final|internal|private|fileprivate|override|@\w+|nonisolated|mutating)[ \t]+)*func[ \t]+(\w+)/gm,
      'function',
      2,
      undefined,
      undefined,
    ],
  ],
  objc: [
    // A category or class extension (`@interface UIColor (SDHexString)`) adds to a type; it does not declare one.
    // The name is whole before the look-ahead (`\b`): without it, `UIButton (Networking)` backtracked to a type `UIButto`.
    [/^@(?:interface|protocol)[ \t]+(\w+)\b(?![ \t]*\()(?:[ \t]*:[ \t]*(\w+))?/gm, 'type', 1, undefined, 2],
    [/^[-+][ \t]*\([^)]*\)[ \t]*(\w+)/gm, 'function', 1, undefined, undefined],
  ],
  rust: [
    [
      /^[ \t]*(pub(?:\([^)]*\))?[ \t]+)?(?:async[ \t]+)?(?:unsafe[ \t]+)?fn[ \t]+(\w+)/gm,
      'function',
      2,
      undefined,
      undefined,
    ],
    [/^[ \t]*(pub(?:\([^)]*\))?[ \t]+)?(?:struct|enum|trait)[ \t]+(\w+)/gm, 'type', 2, undefined, undefined],
  ],
  java: [
    [
      /^[ \t]*(public[ \t]+)?(?:(?:abstract|final|static|sealed)[ \t]+)*(?:class|interface|enum|record)[ \t]+(\w+)(?:<[^>{]*>)?(?:[ \t]+extends[ \t]+([\w.]+))?/gm,
      'type',
      2,
      undefined,
      3,
    ],
    [
      /^[ \t]+(?:(?:public|protected|private|static|final|synchronized|abstract|default)[ \t]+)*(?!return\b|new\b|throw\b|else\b|case\b)[\w.?[\]]+(?:<[^>\n]*>)?[ \t]+(\w+)[ \t]*\(/gm,
      'function',
      1,
      undefined,
      undefined,
    ],
  ],
  kotlin: [
    // Supertypes come after the primary constructor, which may carry annotations and a visibility on lines of its own.
    [
      /^[ \t]*((?:public)[ \t]+)?(?:(?:abstract|open|sealed|data|enum|inner|private|internal|annotation)[ \t]+)*(?:class|interface|object)[ \t]+(\w+)(?:<[^>]*>)?(?:\s*(?:@\w+(?:\([^)]*\))?\s*)*(?:(?:private|internal|protected|public)\s+)?constructor)?(?:[ \t]*\([^)]*\))?(?:\s*:\s*([^{\n]+))?/gm,
      'type',
      2,
      undefined,
      3,
    ],
    [
      /^[ \t]*((?:public)[ \t]+)?(?:(?:suspend|private|internal|override|inline|operator|infix|tailrec)[ \t]+)*fun[ \t]+(?:<[^>]*>[ \t]*)?(?:[\w.]+(?:<(?:[^<>]|<[^<>]*>)*>)?\??\.)?(\w+)/gm,
      'function',
      2,
      undefined,
      undefined,
    ],
  ],
};
