import { LineIndex } from './source';
import type { Family, SourceFile } from './types';

export interface ImportFact {
  /** The module as written: `./errors`, `react`, `Foundation`, `github.com/x/y`, `.models`. */
  spec: string;
  line: number;
}

export type DeclKind = 'function' | 'type' | 'constant';

export interface DeclFact {
  name: string;
  kind: DeclKind;
  line: number;
  exported: boolean;
  /** For classes: the base class or first conformance, when declared. */
  base?: string;
}

/** What several dimensions need from one file, extracted once. */
export interface FileFacts {
  imports: ImportFact[];
  decls: DeclFact[];
  /** Identifiers called (`name(`) or used as a type (`Name.`), with their first line. */
  uses: Map<string, number>;
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
  'if', 'for', 'while', 'switch', 'catch', 'function', 'return', 'typeof', 'await', 'async', 'new', 'super', 'this', 'import', 'require',
  'guard', 'init', 'func', 'def', 'print', 'elif', 'with', 'assert', 'not', 'and', 'or', 'in', 'is', 'sizeof', 'defer', 'go', 'make',
  'len', 'append', 'fn', 'match', 'loop', 'constructor', 'get', 'set', 'of', 'when', 'fun', 'else', 'do', 'try', 'throw', 'case', 'let', 'var', 'const',
  'String', 'Number', 'Boolean', 'Object', 'Array', 'Promise', 'Error', 'Map', 'Set', 'Date', 'JSON', 'Math', 'Symbol', 'Self', 'self',
]);

const MAX_USES = 3000;

function extract(file: SourceFile): FileFacts {
  const lines = new LineIndex(file.text);
  const imports: ImportFact[] = [];
  const decls: DeclFact[] = [];
  const { text, code } = file;
  const isCode = (offset: number) => code[offset] === text[offset];
  const addImport = (spec: string, offset: number) => {
    if (spec && isCode(offset)) imports.push({ spec, line: lines.lineOf(offset) });
  };
  for (const [re, group] of IMPORTS[file.family] ?? []) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (group === -1) {
        // Go import blocks: every quoted path inside the parentheses.
        for (const q of m[0].matchAll(/"([^"]+)"/g)) addImport(q[1], m.index + (q.index ?? 0));
      } else addImport(m[group], m.index + (m[0].length - m[0].trimStart().length));
    }
  }
  for (const [re, kind, nameGroup, exportGroup, baseGroup] of DECLS[file.family] ?? []) {
    re.lastIndex = 0;
    for (let m = re.exec(code); m; m = re.exec(code)) {
      const name = m[nameGroup];
      if (!name) continue;
      const exported = exportGroup === undefined ? !name.startsWith('_') && (file.family !== 'go' || /^[A-Z]/.test(name)) : !!m[exportGroup];
      const base = baseGroup !== undefined ? m[baseGroup]?.trim().split(/[\s<(,{]/)[0] : undefined;
      decls.push({ name, kind, line: lines.lineOf(m.index + m[0].indexOf(name)), exported, ...(base ? { base } : {}) });
    }
  }
  const uses = new Map<string, number>();
  const useRe = file.family === 'go' ? /(?<![\w$])(?:\w+\.)?([A-Za-z_]\w*)\s*\(|(?<![\w$.])([A-Z]\w*)\.(?=[a-z_])/g : /(?<![\w$.])([A-Za-z_$][\w$]*)\s*\(|(?<![\w$.])([A-Z][\w$]*)\.(?=[a-z_])/g;
  for (let m = useRe.exec(code); m && uses.size < MAX_USES; m = useRe.exec(code)) {
    const name = m[1] ?? m[2];
    if (KEYWORDS.has(name) || uses.has(name)) continue;
    uses.set(name, lines.lineOf(m.index));
  }
  return { imports, decls, uses };
}

type ImportRule = [RegExp, number];
const IMPORTS: Partial<Record<Family, ImportRule[]>> = {
  jsts: [
    [/(?:^|[\n;])\s*(?:import|export)\s[^;'"]*?\sfrom\s*['"]([^'"\n]+)['"]/g, 1],
    [/(?:^|[\n;])\s*import\s*['"]([^'"\n]+)['"]/g, 1],
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
  swift: [[/^[ \t]*(?:@testable[ \t]+|@_exported[ \t]+)?import[ \t]+(?:(?:class|struct|enum|protocol|func|var|typealias)[ \t]+)?(\w+)/gm, 1]],
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
    [/^(export[ \t]+)?(?:const|let)[ \t]+([\w$]+)(?:[ \t]*:[^=\n]+)?[ \t]*=[ \t]*(?:async[ \t]+)?(?:function\b|\([^)]*\)[ \t]*(?::[^=\n]+)?=>|[\w$]+[ \t]*=>)/gm, 'function', 2, 1, undefined],
    [/^(export[ \t]+)?(?:default[ \t]+)?(?:abstract[ \t]+)?class[ \t]+([\w$]+)(?:<[^>{]*>)?(?:[ \t]+extends[ \t]+([\w$.]+))?/gm, 'type', 2, 1, 3],
    [/^(export[ \t]+)?(?:declare[ \t]+)?(?:interface|type|enum)[ \t]+([\w$]+)/gm, 'type', 2, 1, undefined],
    [/^(export[ \t]+)?const[ \t]+([A-Za-z_$][\w$]*)[ \t]*(?::[^=\n]+)?=[ \t]*(?:['"`\d\-[{]|true|false|new[ \t]|Object\.freeze)/gm, 'constant', 2, 1, undefined],
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
    [/^[ \t]*((?:public|open)[ \t]+)?(?:(?:final|internal|private|fileprivate|static|@\w+)[ \t]+)*(?:class|struct|enum|protocol|actor)[ \t]+(\w+)(?:<[^>]*>)?(?:[ \t]*:[ \t]*([\w.]+))?/gm, 'type', 2, undefined, 3],
    [/^[ \t]*((?:public|open)[ \t]+)?(?:(?:static|class|final|internal|private|fileprivate|override|@\w+|nonisolated|mutating)[ \t]+)*func[ \t]+(\w+)/gm, 'function', 2, undefined, undefined],
  ],
  objc: [
    [/^@(?:interface|protocol)[ \t]+(\w+)(?:[ \t]*:[ \t]*(\w+))?/gm, 'type', 1, undefined, 2],
    [/^[-+][ \t]*\([^)]*\)[ \t]*(\w+)/gm, 'function', 1, undefined, undefined],
  ],
  rust: [
    [/^[ \t]*(pub(?:\([^)]*\))?[ \t]+)?(?:async[ \t]+)?(?:unsafe[ \t]+)?fn[ \t]+(\w+)/gm, 'function', 2, undefined, undefined],
    [/^[ \t]*(pub(?:\([^)]*\))?[ \t]+)?(?:struct|enum|trait)[ \t]+(\w+)/gm, 'type', 2, undefined, undefined],
  ],
  java: [
    [/^[ \t]*(public[ \t]+)?(?:(?:abstract|final|static|sealed)[ \t]+)*(?:class|interface|enum|record)[ \t]+(\w+)(?:<[^>{]*>)?(?:[ \t]+extends[ \t]+([\w.]+))?/gm, 'type', 2, undefined, 3],
    [/^[ \t]+(?:(?:public|protected|private|static|final|synchronized|abstract|default)[ \t]+)*(?!return\b|new\b|throw\b|else\b|case\b)[\w.?[\]]+(?:<[^>\n]*>)?[ \t]+(\w+)[ \t]*\(/gm, 'function', 1, undefined, undefined],
  ],
  kotlin: [
    [/^[ \t]*((?:public)[ \t]+)?(?:(?:abstract|open|sealed|data|enum|inner|private|internal|annotation)[ \t]+)*(?:class|interface|object)[ \t]+(\w+)(?:<[^>]*>)?(?:\([^)]*\))?(?:[ \t]*:[ \t]*([\w.]+))?/gm, 'type', 2, undefined, 3],
    [/^[ \t]*((?:public)[ \t]+)?(?:(?:suspend|private|internal|override|inline|operator|infix|tailrec)[ \t]+)*fun[ \t]+(?:<[^>]*>[ \t]*)?(?:[\w.]+\.)?(\w+)/gm, 'function', 2, undefined, undefined],
  ],
};
