// Relative JS/TS imports name a file the way Node and TypeScript resolve them; the architecture graph
// and the symbol uses read the same list, so neither misses a folder imported through its index.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveJsFile } from '../../src/core/domains/bootstrap/js-resolution';

const tree = (...files: string[]) => (f: string) => files.includes(f);

test('a folder import reaches its index file in every module flavour', () => {
  for (const index of ['index.ts', 'index.tsx', 'index.js', 'index.jsx', 'index.mjs', 'index.cjs', 'index.mts']) {
    assert.equal(resolveJsFile('src/widgets', tree(`src/widgets/${index}`)), `src/widgets/${index}`, index);
  }
});

test('a file import prefers the file as written, then the extensions in order', () => {
  assert.equal(resolveJsFile('src/a.css', tree('src/a.css', 'src/a.css.ts')), 'src/a.css');
  assert.equal(resolveJsFile('src/a', tree('src/a.js', 'src/a.ts')), 'src/a.ts');
  assert.equal(resolveJsFile('src/a', tree('src/a/index.ts', 'src/a.tsx')), 'src/a.tsx', 'a file before a folder');
});

test('a .js specifier names the TypeScript source it is compiled from', () => {
  assert.equal(resolveJsFile('src/util.js', tree('src/util.ts')), 'src/util.ts');
  assert.equal(resolveJsFile('src/util.mjs', tree('src/util.mts')), 'src/util.mts');
  assert.equal(resolveJsFile('src/util.js', tree('src/other.ts')), undefined);
});
