import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const src = path.join(__dirname, '..', '..', 'src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const importsOf = (file: string) => [...readFileSync(file, 'utf8').matchAll(/(?:from\s+|require\(|import\()\s*['"]([^'"]+)['"]/g)].map((m) => m[1]);

test('src/core never imports vscode, so the MCP server and the CLI can run it', () => {
  const offenders = files(path.join(src, 'core')).filter((f) => importsOf(f).includes('vscode'));
  assert.deepEqual(offenders.map((f) => path.relative(src, f)), []);
});

test('src/core imports no adapter (vscode/, mcp/, cli/): dependencies point down only', () => {
  const offenders = files(path.join(src, 'core')).flatMap((f) =>
    importsOf(f)
      .filter((i) => i.startsWith('.'))
      .map((i) => path.relative(src, path.resolve(path.dirname(f), i)))
      .filter((target) => /^(vscode|mcp|cli)(\/|$)/.test(target))
      .map((target) => `${path.relative(src, f)} -> ${target}`),
  );
  assert.deepEqual(offenders, []);
});

test('the MCP server and the CLI never import vscode', () => {
  const offenders = [...files(path.join(src, 'mcp')), ...files(path.join(src, 'cli'))].filter((f) => importsOf(f).includes('vscode'));
  assert.deepEqual(offenders.map((f) => path.relative(src, f)), []);
});

test('the CLI and the extension reach the core only through the catalog (core/tools, its adapters facade), the Workspace and the kernel', () => {
  const allowed = /^core\/(tools(\/|$)|workspace$|kernel\/)/;
  const offenders = [...files(path.join(src, 'cli')), ...files(path.join(src, 'vscode'))].flatMap((f) =>
    importsOf(f)
      .filter((i) => i.startsWith('.'))
      .map((i) => path.relative(src, path.resolve(path.dirname(f), i)))
      .filter((target) => target.startsWith('core/') && !allowed.test(target))
      .map((target) => `${path.relative(src, f)} -> ${target}`),
  );
  assert.deepEqual(offenders, []);
});

test('adapters write only through catalog tools: no file writes in src/vscode or src/cli outside the known places', () => {
  // mcp-config-command writes a client's MCP configuration and mcp-launcher the per-user launcher it points at
  // (not AutoSnippet data); guard -o writes the report a person asked for.
  const known = new Set(['vscode/mcp-config-command.ts', 'vscode/mcp-launcher.ts', 'cli/guard.ts']);
  const offenders = [...files(path.join(src, 'cli')), ...files(path.join(src, 'vscode'))]
    .filter((f) => !known.has(path.relative(src, f)))
    .filter((f) => /\b(writeFileSync|appendFileSync|mkdirSync|rmSync|renameSync|unlinkSync|fsp?\.(writeFile|appendFile|mkdir|rm|rename|unlink))\b/.test(readFileSync(f, 'utf8')))
    .map((f) => path.relative(src, f));
  assert.deepEqual(offenders, []);
});

test('no upward imports between the layers this repository fixed: agent → tools, knowledge/search → guard, search → knowledge', () => {
  // Upward = a lower layer importing a higher one. The retrieval layer (context_search, grouped results) sits above knowledge and search.
  const forbidden: [from: string, to: RegExp][] = [
    ['core/agent', /^core\/(tools|retrieval)(\/|$)/],
    ['core/knowledge', /^core\/(guard|tools|retrieval|agent)(\/|$)/],
    ['core/search', /^core\/(guard|knowledge|retrieval|tools|agent)(\/|$)/],
    ['core/kernel', /^core\/(?!kernel\/)/],
  ];
  const offenders = forbidden.flatMap(([from, to]) =>
    files(path.join(src, from)).flatMap((f) =>
      importsOf(f)
        .filter((i) => i.startsWith('.'))
        .map((i) => path.relative(src, path.resolve(path.dirname(f), i)))
        .filter((target) => to.test(target))
        .map((target) => `${path.relative(src, f)} -> ${target}`),
    ),
  );
  assert.deepEqual(offenders, []);
});
