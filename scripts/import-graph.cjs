// The import graph of the code base's own files, read with TypeScript's pre-processor (no type
// check): every `import`, `import type`, `export … from`, `import()` and `require()` of a relative
// path, with where its specifier sits in the file. Used by the import-cycle test and by
// scripts/move-layers.mjs, which rewrites the specifiers after moving folders.
'use strict';
const { existsSync, readdirSync, readFileSync, statSync } = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;

/** The source files under `dir` (absolute paths), skipping node_modules, fixtures and build output. */
function sourceFiles(dir, skip = /(^|\/)(node_modules|fixtures|dist|out|\.cache)(\/|$)/) {
  dir = path.resolve(dir);
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (skip.test(p)) return [];
    if (statSync(p).isDirectory()) return sourceFiles(p, skip);
    return SOURCE.test(name) && !name.endsWith('.d.ts') ? [p] : [];
  });
}

/**
 * The relative specifiers of a file: `{ specifier, start, end }`, offsets of the text between the
 * quotes, and `typeOnly` when the import or export names types only (so it vanishes at run time).
 */
function relativeImports(text) {
  const info = ts.preProcessFile(text, true, true);
  const typeOnly = typeOnlySpecifiers(text);
  return info.importedFiles
    .filter((f) => f.fileName.startsWith('.'))
    // `pos` is the opening quote's offset.
    .map((f) => ({
      specifier: f.fileName,
      start: f.pos + 1,
      end: f.pos + 1 + f.fileName.length,
      typeOnly: typeOnly.has(f.pos + 1),
    }));
}

/** Offsets of the specifiers of `import type …` and `export type … from` declarations. */
function typeOnlySpecifiers(text) {
  const out = new Set();
  const source = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  for (const s of source.statements) {
    const spec = s.moduleSpecifier;
    if (!spec || !ts.isStringLiteral(spec)) continue;
    const named = s.importClause?.namedBindings;
    const allTypes = ts.isImportDeclaration(s)
      ? s.importClause?.isTypeOnly
        || (!s.importClause?.name && named && ts.isNamedImports(named) && named.elements.length > 0
          && named.elements.every((e) => e.isTypeOnly))
      : s.isTypeOnly
        || (s.exportClause && ts.isNamedExports(s.exportClause) && s.exportClause.elements.length > 0
          && s.exportClause.elements.every((e) => e.isTypeOnly));
    if (allTypes) out.add(spec.getStart(source) + 1);
  }
  return out;
}

/** The file a relative specifier names, as TypeScript and esbuild resolve it; undefined when none. */
function resolveSpecifier(fromFile, specifier) {
  const base = path.resolve(path.dirname(fromFile), specifier);
  const stem = base.replace(/\.(js|mjs|cjs)$/, '');
  const candidates = [
    base,
    ...['.ts', '.tsx', '.mts', '.js', '.mjs', '.json'].map((e) => stem + e),
    ...['index.ts', 'index.tsx', 'index.js', 'index.mjs'].map((i) => path.join(base, i)),
  ];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

/** file → the files it imports (type-only edges included unless `runtimeOnly`). */
function importGraph(files, { runtimeOnly = false } = {}) {
  const graph = new Map();
  for (const file of files) {
    const targets = new Set();
    for (const imp of relativeImports(readFileSync(file, 'utf8'))) {
      if (runtimeOnly && imp.typeOnly) continue;
      const target = resolveSpecifier(file, imp.specifier);
      if (target && SOURCE.test(target)) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The strongly connected components with more than one file (or a file importing itself): the cycles. */
function cycles(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const out = [];
  const visit = (v) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)?.has(v)) out.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

module.exports = { cycles, importGraph, relativeImports, resolveSpecifier, sourceFiles };
