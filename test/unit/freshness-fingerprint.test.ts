import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  formatSourceRef,
  hashLines,
  parseSourceRef,
  SourceText,
} from '../../src/core/domains/knowledge/freshness-fingerprint';
import { parseRecipeFile, serializeRecipe } from '../../src/core/domains/knowledge/recipe-file';

test('source references: path:line, ranges, GitHub anchors, whole files; URLs, absolute paths and ../ are not references', () => {
  assert.deepEqual(parseSourceRef('src/http.ts:12'), {
    raw: 'src/http.ts:12',
    path: 'src/http.ts',
    start: 12,
    end: 12,
  });
  assert.deepEqual(parseSourceRef('src/http.ts:12-20'), {
    raw: 'src/http.ts:12-20',
    path: 'src/http.ts',
    start: 12,
    end: 20,
  });
  assert.deepEqual(parseSourceRef('src/http.ts:12:5'), {
    raw: 'src/http.ts:12:5',
    path: 'src/http.ts',
    start: 12,
    end: 12,
  });
  assert.deepEqual(parseSourceRef('src/http.ts#L3-L9'), {
    raw: 'src/http.ts#L3-L9',
    path: 'src/http.ts',
    start: 3,
    end: 9,
  });
  assert.deepEqual(parseSourceRef('./package.json'), { raw: './package.json', path: 'package.json' });
  assert.deepEqual(parseSourceRef('src\\win\\a.cs:4'), {
    raw: 'src\\win\\a.cs:4',
    path: 'src/win/a.cs',
    start: 4,
    end: 4,
  });
  for (const bad of [
    'https://example.com/a.ts:3',
    '/etc/passwd:1',
    '../outside.ts:2',
    'src/../../x.ts:1',
    'C:/x.ts:1',
    'two words:3',
    '',
  ]) {
    assert.equal(parseSourceRef(bad), undefined, bad);
  }
  assert.equal(formatSourceRef('a.ts', 3), 'a.ts:3');
  assert.equal(formatSourceRef('a.ts', 3, 7), 'a.ts:3-7');
  assert.equal(formatSourceRef('a.ts'), 'a.ts');
});

test('hashes ignore indentation, spacing and blank lines, and change with the code', () => {
  const base = hashLines(['if (x) {', '  return fetch(url);', '}']);
  assert.equal(hashLines(['if (x) {', '', '\treturn   fetch(url);  ', '}']), base, 'reformatting is not a change');
  assert.equal(hashLines(['if (x) {\r', '  return fetch(url);', '}']), base, 'CRLF is not a change');
  assert.notEqual(hashLines(['if (x) {', '  return getJson(url);', '}']), base, 'another call is a change');
  assert.notEqual(hashLines(['if (y) {', '  return fetch(url);', '}']), base);
  assert.match(base, /^[0-9a-f]{12}$/);
});

test('a block of lines is found again where it moved, the nearest of several first; blank content is never "found"', () => {
  const before = new SourceText('a\nb\nconst x = fetch(u);\nc\n');
  const hash = before.hashAt(3, 3)!;
  const after = new SourceText('new\nnew\na\nb\nc\nconst x  = fetch(u);\nd\nconst x = fetch(u);\n');
  assert.deepEqual(after.findBlock(hash, 1, 3), { start: 6, end: 6, matches: 2 });
  assert.deepEqual(after.findBlock(hash, 1, 8), { start: 8, end: 8, matches: 2 });
  assert.equal(after.findBlock(before.hashAt(3, 3)!.replace(/./, '0'), 1, 3), undefined);
  const blank = new SourceText('a\n\n\nb\n');
  assert.equal(blank.findBlock(blank.hashAt(2, 2)!, 1, 2), undefined, 'an empty line says nothing about where it went');
  assert.equal(before.hashAt(4, 9), undefined, 'lines past the end have no hash');
});

test('an excerpt is found in a file whatever its indentation, and not when a line of it changed', () => {
  const file = new SourceText(
    'export class Api {\n  get(u: string) {\n    return withRetry(() => fetch(u));\n  }\n}\n',
  );
  assert.deepEqual(file.findExcerpt('get(u: string) {\n  return withRetry(() => fetch(u));\n}'), { start: 2, end: 4 });
  assert.equal(file.findExcerpt('get(u: string) {\n  return fetch(u);\n}'), undefined);
  assert.equal(file.findExcerpt('\n\n'), undefined);
});

test('fingerprints round-trip through the recipe file; a damaged value is a warning, never a lost recipe', () => {
  const text =
    '---\ntitle: Use getJson\nsummary: Call getJson.\nsources: [src/http.ts:3]\nfingerprints:\n  code: 0123456789ab\n  sources:\n    src/http.ts:3: abcdef012345\n---\n\n```ts\ngetJson(u)\n```\n';
  const parsed = parseRecipeFile(text, '.autosnippet/recipes/net/use-getjson.md');
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.recipe.fingerprints, { code: '0123456789ab', sources: { 'src/http.ts:3': 'abcdef012345' } });
  const again = parseRecipeFile(serializeRecipe(parsed.recipe), parsed.recipe.file);
  assert.ok(again.ok);
  assert.deepEqual(again.recipe.fingerprints, parsed.recipe.fingerprints);

  const damaged = parseRecipeFile(text.replace(/fingerprints:[\s\S]*?---/, 'fingerprints: [1, 2]\n---'), 'x.md');
  assert.ok(damaged.ok, 'the recipe is still read');
  assert.equal(damaged.recipe.fingerprints, undefined);
  assert.ok(damaged.warnings.some((w) => w.field === 'fingerprints'), JSON.stringify(damaged.warnings));
  const notHashes = parseRecipeFile(text.replace('abcdef012345', '"not a hash; rm -rf"'), 'x.md');
  assert.ok(notHashes.ok);
  assert.deepEqual(notHashes.recipe.fingerprints, { code: '0123456789ab' }, 'values that are not hashes are dropped');
});
