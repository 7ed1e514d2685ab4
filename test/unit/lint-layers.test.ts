// The layering is a lint rule (eslint/layers.mjs, run by `npm run lint` inside `npm test`): an upward
// import fails the lint, a legal one passes.
import { ESLint } from 'eslint';
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';

const root = path.join(__dirname, '..', '..');
const eslint = new ESLint({ cwd: root });

/** Lints `code` as if it were `file`; `@/x` in a specifier stands for src/x, relative to the file. */
async function layerErrors(file: string, code: string): Promise<string[]> {
  const dir = path.posix.dirname(file);
  const text = code.replace(/'@\/([^']+)'/g, (_, to: string) => {
    const rel = path.posix.relative(dir, `src/${to}`);
    return `'${rel.startsWith('.') ? rel : `./${rel}`}'`;
  });
  const [result] = await eslint.lintText(text, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.ruleId === 'autosnippet/layers').map((m) => m.message);
}

test('an upward import fails the lint, with the reason', async () => {
  const cases: [file: string, code: string, says: RegExp][] = [
    [
      'src/core/ground/kernel/x.ts',
      "import { ToolCatalog } from '@/core/catalog/catalog';\nexport const c = ToolCatalog;\n",
      /kernel is the bottom layer/,
    ],
    [
      'src/cli/x.ts',
      "import { RuleRunner } from '@/core/domains/guard/engine';\nexport const r = RuleRunner;\n",
      /only through the catalog/,
    ],
    [
      'src/core/ground/text/x.ts',
      "export { searchRecipes } from '@/core/domains/knowledge/recipes';\n",
      /text and file layers build on the kernel only/,
    ],
    [
      'src/core/domains/knowledge/x.ts',
      "export const load = () => import('@/core/domains/guard/engine');\n",
      /knowledge sits below guard/,
    ],
    [
      'src/core/ground/workspace.ts',
      "import { syncRecipes } from '@/core/domains/knowledge/recipe-index';\n",
      /shared ground imports no domain/,
    ],
    [
      'src/core/domains/guard/x.ts',
      "import { createCatalog } from '@/core/catalog/catalog';\nexport const c = createCatalog;\n",
      /domains \(the gateway too\) do not import the catalog/,
    ],
    [
      'src/core/domains/gateway/x.ts',
      "import type { ToolContext } from '@/core/catalog/types';\nexport type C = ToolContext;\n",
      /domains \(the gateway too\) do not import the catalog/,
    ],
    [
      'src/mcp/x.ts',
      "import { skillRegistry } from '@/core/domains/skills/registry';\nexport const s = skillRegistry;\n",
      /only through the catalog/,
    ],
    [
      'src/core/ground/store/x.ts',
      "import * as vscode from 'vscode';\nexport const v = vscode;\n",
      /run without VS Code/,
    ],
    [
      'src/webview/review/x.ts',
      "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n",
      /runs in a browser/,
    ],
    ['src/core/workspace-extra.ts', "import { run } from '@/mcp/run';\nexport const r = run;\n", /imports no adapter/],
  ];
  for (const [file, code, says] of cases) {
    const errors = await layerErrors(file, code);
    assert.equal(errors.length, 1, `${file}: ${code.trim()} -> ${JSON.stringify(errors)}`);
    assert.match(errors[0], says);
  }
});

test('legal imports pass: down the layers, the adapters facade', async () => {
  const cases: [file: string, code: string][] = [
    [
      'src/cli/x.ts',
      "import { createCatalog } from '@/core/catalog/catalog';\nimport { AutoSnippetError } from '@/core/ground/kernel/errors';\nimport { openWorkspace } from '@/core/ground/workspace';\nexport const a = [createCatalog, AutoSnippetError, openWorkspace];\n",
    ],
    [
      'src/core/ground/files/x.ts',
      "import { AutoSnippetError } from '@/core/ground/kernel/errors';\nexport const e = AutoSnippetError;\n",
    ],
    [
      'src/core/domains/guard/x.ts',
      "import { classifyFile } from '@/core/ground/files/classify';\nexport const c = classifyFile;\n",
    ],
    ['src/mcp/x.ts', "import { skillRegistry } from '@/core/catalog/adapters';\nexport const s = skillRegistry;\n"],
    [
      'src/core/catalog/x.ts',
      "import { searchRecipes } from '@/core/domains/retrieval/context';\nexport const s = searchRecipes;\n",
    ],
  ];
  for (const [file, code] of cases) assert.deepEqual(await layerErrors(file, code), [], `${file}: ${code.trim()}`);
});

test('the tree as it is passes its own layering', async () => {
  const results = await eslint.lintFiles(['src']);
  const errors = results.flatMap((r) =>
    r.messages.filter((m) => m.ruleId === 'autosnippet/layers').map((m) =>
      `${path.relative(root, r.filePath)}:${m.line} ${m.message}`
    )
  );
  assert.deepEqual(errors, []);
});
