import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { test } from 'node:test';
import { errorCodeTable, generatedBlock, REFERENCE_DOC } from '../../src/core/catalog/docs';
import { ERROR_CODES } from '../../src/core/ground/kernel/errors';
import { closestNames, editDistance, escapeRegExp } from '../../src/core/ground/kernel/names';

const root = path.join(__dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Node's own codes (ENOENT, ERR_…) are compared against, never answered with. */
const isNodeErrorCode = (code: string) => /^E[A-Z]+$/.test(code) || code.startsWith('ERR_');

test('every error code written in src is in the registry (src/core/ground/kernel/errors.ts)', () => {
  const unknown: string[] = [];
  for (const file of sources(path.join(root, 'src'))) {
    // `code: 'X'`, `code === 'X'`, `new SomeError('X', …)`: the places a code is written (the type ErrorCode catches the rest).
    for (
      const m of readFileSync(file, 'utf8').matchAll(
        /(?:\bcode\??\s*(?::|===|!==)\s*|Error\(\s*)['"`]([A-Z][A-Z0-9_]*)['"`]/g,
      )
    ) {
      if (isNodeErrorCode(m[1])) continue;
      if (!(m[1] in ERROR_CODES)) unknown.push(`${path.relative(root, file)}: ${m[1]}`);
    }
  }
  assert.deepEqual(
    unknown,
    [],
    'add these codes to ERROR_CODES (with meaning and action), then run npm run gen:manifest',
  );
});

test('the reference lists every code of the registry with its meaning and what to do (run npm run gen:manifest when this fails)', () => {
  const reference = readFileSync(path.join(root, REFERENCE_DOC), 'utf8');
  assert.equal(generatedBlock(reference, 'error-codes'), errorCodeTable());
  for (const code of Object.keys(ERROR_CODES)) assert.ok(reference.includes(`| \`${code}\` |`), code);
});

test('closestNames: containment first, then edit distance, then shared prefix', () => {
  assert.deepEqual(closestNames('load_skil', ['list_skills', 'load_skill', 'load_skill_chunk']), [
    'load_skill',
    'load_skill_chunk',
    'list_skills',
  ]);
  assert.deepEqual(closestNames('helth', ['capabilities', 'health'], 1), ['health']);
  assert.equal(editDistance('kitten', 'sitting'), 3);
});

test('closestNames answers at once for a 100,000-character name over a thousand names', () => {
  const names = Array.from({ length: 1000 }, (_, i) => `recipe-category-${i}/some-longer-recipe-name-${i}`);
  const huge = 'x'.repeat(100_000);
  const t0 = performance.now();
  const near = closestNames(huge, names, 5);
  const ms = performance.now() - t0;
  assert.equal(near.length, 5);
  // Uncapped, one 100,000 × 50 distance per name takes seconds; capped, a thousand take milliseconds.
  assert.ok(ms < 1000, `took ${ms.toFixed(0)} ms`);
});

test('escapeRegExp: every character a pattern gives a meaning matches itself', () => {
  const text = 'github.com/a+b (x|y)?*^$[1]{2}\\z';
  const re = new RegExp(`^${escapeRegExp(text)}$`);
  assert.ok(re.test(text));
  assert.ok(!re.test(text.replace('.', 'X')), 'a dot is not any character');
  assert.ok(!new RegExp(escapeRegExp('a+')).test('aa'), 'a plus is not a repetition');
});
