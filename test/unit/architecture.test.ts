import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { cycles, importGraph, relativeImports, sourceFiles } from '../../scripts/import-graph.cjs';

const src = path.join(__dirname, '..', '..', 'src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

// Which folder may import which is the lint rule autosnippet/layers (eslint/layers.mjs, tested in
// lint-layers.test.ts); this file keeps what an import graph cannot show.

test('adapters write only through catalog tools: no file writes in src/vscode or src/cli outside the known places', () => {
  // mcp-config-command writes a client's MCP configuration and mcp-launcher the per-user launcher it points at
  // (not AutoSnippet data); guard -o writes the report a person asked for.
  const known = new Set(['vscode/mcp-config-command.ts', 'vscode/mcp-launcher.ts', 'cli/guard.ts']);
  const offenders = [...files(path.join(src, 'cli')), ...files(path.join(src, 'vscode'))]
    .filter((f) => !known.has(path.relative(src, f)))
    .filter((f) =>
      /\b(writeFileSync|appendFileSync|mkdirSync|rmSync|renameSync|unlinkSync|fsp?\.(writeFile|appendFile|mkdir|rm|rename|unlink))\b/
        .test(readFileSync(f, 'utf8'))
    )
    .map((f) => path.relative(src, f));
  assert.deepEqual(offenders, []);
});

test('no import cycles in src, type-only imports included', () => {
  const graph = importGraph(sourceFiles(src));
  assert.ok(graph.size > 200, `the graph covers the tree (${graph.size} files)`);
  const found = cycles(graph).map((c) => c.map((f) => path.relative(src, f)).join(' -> '));
  assert.deepEqual(found, []);
});

test('the cycle check sees a cycle made only of type imports, and an import() or export-from edge', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cycles-'));
  try {
    writeFileSync(path.join(dir, 'a.ts'), "import type { B } from './b';\nexport interface A { b?: B }\n");
    writeFileSync(path.join(dir, 'b.ts'), "import type { A } from './a';\nexport interface B { a?: A }\n");
    writeFileSync(path.join(dir, 'c.ts'), "export { d } from './d';\n");
    writeFileSync(path.join(dir, 'd.ts'), "export const d = () => import('./c');\n");
    writeFileSync(path.join(dir, 'e.ts'), "import { d } from './d';\nexport const e = d;\n");
    const found = cycles(importGraph(sourceFiles(dir))).map((c) => c.map((f) => path.basename(f)));
    assert.deepEqual(found.sort(), [['a.ts', 'b.ts'], ['c.ts', 'd.ts']]);
    assert.deepEqual(
      relativeImports(readFileSync(path.join(dir, 'a.ts'), 'utf8')).map((i) => [i.specifier, i.typeOnly]),
      [['./b', true]],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
