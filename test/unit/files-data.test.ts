import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseFrontMatter, parseJson, parseYaml } from '../../src/core/ground/files';
import { yamlAliasBomb } from './files-helpers';

test('a YAML alias bomb ("billion laughs") is refused in milliseconds with INVALID_YAML, not expanded', () => {
  const t0 = performance.now();
  const r = parseYaml(yamlAliasBomb(), { subject: 'The frontmatter' });
  assert.ok(performance.now() - t0 < 500);
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.equal(r.problem.code, 'INVALID_YAML');
  assert.match(
    r.problem.message,
    /^The frontmatter is refused as too complex: it (expands to more than 10000 values|uses more than 100 aliases)/,
  );
});

test('a few aliases are fine; dates become ISO text; __proto__ stays an ordinary key', () => {
  const r = parseYaml('base: &b {retries: 3}\na: *b\nb: *b\nwhen: 2024-05-01\n__proto__: {polluted: true}\n');
  assert.ok(r.ok);
  const v = r.value as Record<string, unknown>;
  assert.deepEqual(v.a, { retries: 3 });
  assert.equal(v.when, '2024-05-01T00:00:00.000Z');
  assert.deepEqual(Object.getOwnPropertyDescriptor(v, '__proto__')?.value, { polluted: true });
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('deep nesting is refused with a message, not a stack overflow', () => {
  const deep = parseYaml('['.repeat(5000) + ']'.repeat(5000));
  assert.equal(deep.ok, false);
  const json = parseJson('['.repeat(100_000) + ']'.repeat(100_000), { subject: 'rules.json' });
  assert.equal(json.ok, false);
  if (!json.ok) {
    assert.match(json.problem.message, /^rules\.json is refused as too complex: it is nested more than 64 levels deep/);
  }
});

test('front matter: body and its first line; no front matter; unclosed; a YAML error names the line of the file', () => {
  const ok = parseFrontMatter('---\ntitle: A\ntags: [x, y]\n---\n\n# Body\n');
  assert.ok(ok.ok);
  if (ok.ok) {
    assert.deepEqual(ok.value.data, { title: 'A', tags: ['x', 'y'] });
    assert.equal(ok.value.body, '\n# Body\n');
    assert.equal(ok.value.bodyLine, 5);
  }
  const none = parseFrontMatter('# Just Markdown\n');
  assert.ok(none.ok && !none.value.present && none.value.body === '# Just Markdown\n');
  const empty = parseFrontMatter('---\n---\nbody');
  assert.ok(
    empty.ok && empty.value.present && Object.keys(empty.value.data).length === 0 && empty.value.body === 'body',
  );
  const unclosed = parseFrontMatter('---\ntitle: A\n');
  assert.ok(!unclosed.ok && /no closing `---`/.test(unclosed.problem.message));
  const bad = parseFrontMatter('---\ntitle: A\nsummary: [unclosed\nx: 1\n---\n');
  assert.ok(!bad.ok);
  if (!bad.ok) {
    assert.match(bad.problem.message, /^The frontmatter is not valid YAML at line \d+:/);
    assert.ok(bad.problem.line! >= 3 && bad.problem.line! <= 5, String(bad.problem.line));
  }
  const list = parseFrontMatter('---\n- a\n- b\n---\n');
  assert.ok(!list.ok && /must be a mapping/.test(list.problem.message));
});

test('JSON: a syntax error names the line; a byte-order mark is fine', () => {
  const bad = parseJson('{\n  "rules": [\n    {"id": "x",}\n  ]\n}', { subject: '.autosnippet/guard/a.json' });
  assert.ok(!bad.ok);
  if (!bad.ok) {
    assert.match(bad.problem.message, /^\.autosnippet\/guard\/a\.json is not valid JSON: /);
    assert.equal(bad.problem.line, 3);
  }
  const bom = parseJson('\uFEFF{"a": 1}');
  assert.ok(bom.ok && (bom.value as { a: number }).a === 1);
});
