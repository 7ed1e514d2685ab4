import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

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
