import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isTriggerShape } from '../../src/core/domains/knowledge/quality';
import { parseRecipeFile } from '../../src/core/domains/knowledge/recipe-file';

const UNICODE = /^@[\p{L}\p{N}_.-]+$/u;

test('a trigger is accepted exactly when letters and digits of any script, _, . and - follow the @', () => {
  const cases = [
    '@fetchWithRetry',
    '@a.b-c_d9',
    '@获取用户',
    '@café',
    '@Ωmega٣',
    '@',
    '@two words',
    '@tab\there',
    '@line\n',
    '@semi;colon',
    '@emoji😀',
    '@combining\u0301',
    'noAt',
    '@@double',
    '@$dollar',
  ];
  for (const t of cases) assert.equal(isTriggerShape(t), UNICODE.test(t), t);
  // Every single character after the @, in the Basic Multilingual Plane.
  for (let c = 0; c < 0x10000; c++) {
    const t = `@${String.fromCharCode(c)}`;
    if (isTriggerShape(t) !== UNICODE.test(t)) assert.fail(`differs on U+${c.toString(16)}`);
  }
});

test('a recipe file whose trigger has a space is refused, naming the field', () => {
  const text = '---\ntitle: T\ntrigger: "@two words"\nsummary: S\n---\n\nBody\n';
  const r = parseRecipeFile(text, '.autosnippet/recipes/general/t.md');
  assert.equal(r.ok, false);
  assert.ok(!r.ok && r.problems.some((p) => p.field === 'trigger'));
});
