import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { benchCorpus, rng } from '../../bench/recipe-corpus';
import { normalizeText, serializeRecipe } from '../../src/core/domains/knowledge/recipe-file';
import { fastFrontMatter, readFrontMatter } from '../../src/core/domains/knowledge/recipe-frontmatter';
import type { Recipe } from '../../src/core/domains/knowledge/types';
import { parseFrontMatter } from '../../src/core/ground/files';

/** The fast path either declines or gives exactly what the general parser gives; returns whether it answered. */
function same(text: string): boolean {
  const fast = fastFrontMatter(text);
  const slow = parseFrontMatter(text);
  if (!fast) return false;
  assert.ok(slow.ok, `the fast path read front matter the general parser refuses:\n${text}`);
  assert.deepEqual(fast.value, slow.value, text);
  // Same key order too: the first key decides what an unknown-field warning names first.
  assert.deepEqual(Object.keys(fast.value.data), Object.keys(slow.value.data), text);
  return true;
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => path.join(e.parentPath, e.name));
}

test('every Markdown fixture with front matter reads the same on both paths', () => {
  const root = path.join(__dirname, '../fixtures');
  let answered = 0;
  let withFrontMatter = 0;
  for (const file of markdownFiles(root)) {
    const text = normalizeText(readFileSync(file, 'utf8'));
    if (!text.startsWith('---')) continue;
    withFrontMatter++;
    if (same(text)) answered++;
  }
  assert.ok(withFrontMatter >= 10, `fixtures with front matter: ${withFrontMatter}`);
  // The recipe fixtures are in the writer's simple form: the fast path must take them.
  assert.ok(answered >= 2, `answered ${answered} of ${withFrontMatter}`);
  for (const name of ['users/find-user.md', 'http/get-json.md']) {
    const file = path.join(root, 'sample-workspace/.autosnippet/recipes', name);
    assert.ok(fastFrontMatter(normalizeText(readFileSync(file, 'utf8'))), name);
  }
});

test('the benchmark recipes and what the recipe writer produces take the fast path with the same result', () => {
  for (const doc of benchCorpus(200)) assert.ok(same(doc.text), doc.file);
  const base: Recipe = {
    id: 'net/fetch',
    title: 'Fetch with retry',
    trigger: '@fetchRetry',
    language: 'typescript',
    category: 'net',
    knowledgeType: 'code-pattern',
    kind: 'pattern',
    status: 'published',
    summary: 'Wrap calls in withRetry.',
    tags: ['http'],
    scope: 'project',
    complexity: 'basic',
    file: '.autosnippet/recipes/net/fetch.md',
  };
  const tricky = [
    'it\'s "quoted" here',
    'a: colon then space',
    'hash # inside',
    '2024-05-01',
    '12',
    'yes',
    'null',
    'true',
    '@at',
    '- dash',
    '[bracket]',
    'tail:',
    'éclair café',
    '汉字 标题',
    ' leading space',
    'back\\slash',
    'tab\there',
    'line\nbreak',
    '',
  ];
  let answered = 0;
  for (const s of tricky) {
    const recipe = {
      ...base,
      title: s || 'untitled',
      summary: s,
      tags: [s, 'plain', '0x1f'].filter(Boolean),
      sourceFiles: ['src/a.ts:4'],
      createdAt: '2024-05-01T10:00:00.000Z',
      createdBy: 'human',
    };
    if (same(serializeRecipe(recipe))) answered++;
  }
  assert.ok(answered >= tricky.length / 2, `answered ${answered} of ${tricky.length}`);
});

test('constructs the fast path leaves to the general parser', () => {
  const declined = [
    'relations:\n  dependsOn:\n    - a', // nested mapping
    'summary: >\n  folded\n  text', // block scalar
    'summary: first line\n  continued', // multi-line plain scalar
    'title: &a x\nsummary: *a', // anchor and alias
    'title: !!str x', // tag
    'title: x # comment', // comment
    '# comment\ntitle: x',
    'title: x\ntitle: y', // duplicate key
    'size: 12', // a number
    'createdAt: 2024-05-01', // a date
    'title: ~',
    'title: .inf',
    'title: "a\\x41"', // a YAML-only escape
    "title: 'unterminated",
    'title: "unterminated',
    'tags: [a, [b]]',
    'tags: [a, b,]',
    'tags: [a: b]',
    'tags: [a] # c',
    'tags:\n  - a\n    - b',
    'tags:\n  - a\n\n  - b',
    'tags:\n  - a: b',
    'title:\tx',
    '__proto__: x',
    'title: a\u0085b',
    'title: a\u2028b',
    'title:x',
    ' title: x',
    '"title": x',
  ];
  for (const yaml of declined) {
    const text = `---\n${yaml}\n---\nbody\n`;
    assert.equal(fastFrontMatter(text), undefined, yaml);
    const read = readFrontMatter(text);
    assert.deepEqual(read, parseFrontMatter(text), yaml);
  }
  // Problems are the general parser's, word for word.
  const broken = '---\ntitle: x\ntitle: y\n---\n';
  assert.equal(readFrontMatter(broken).ok, false);
  assert.deepEqual(readFrontMatter(broken), parseFrontMatter(broken));
  assert.deepEqual(readFrontMatter('---\ntitle: x\n'), parseFrontMatter('---\ntitle: x\n'));
  assert.deepEqual(readFrontMatter('no front matter'), parseFrontMatter('no front matter'));
});

test('simple forms read as the general parser reads them', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['title: Plain text with [brackets], {braces} and a:colon', {
      title: 'Plain text with [brackets], {braces} and a:colon',
    }],
    ["title: 'it''s'", { title: "it's" }],
    ['title: "tab\\tand \\"quote\\" \\u00e9 \\/"', { title: 'tab\tand "quote" é /' }],
    ['flag: true\nnone: null\nempty:', { flag: true, none: null, empty: null }],
    ['tags: [a, \'b, c\', "d", src/x.ts:4]', { tags: ['a', 'b, c', 'd', 'src/x.ts:4'] }],
    ['tags: []', { tags: [] }],
    ['tags:\n- a\n- b\ntitle: t', { tags: ['a', 'b'], title: 't' }],
    ['tags:\n    -   a   \n    - b', { tags: ['a', 'b'] }],
    ['title: x   \n\nsummary: y', { title: 'x', summary: 'y' }],
  ];
  for (const [yaml, data] of cases) {
    const text = `---\n${yaml}\n---\n\n# Body\n`;
    const fast = fastFrontMatter(text);
    assert.ok(fast, yaml);
    assert.deepEqual(fast.value.data, data, yaml);
    assert.ok(same(text));
  }
});

test('random front matter built from awkward pieces: the fast path never disagrees with the general parser', () => {
  const r = rng(20240501);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
  const keys = ['title', 'summary', 'tags', 'id', 'x-y', 'a_b', 'true', 'null', 'on', 'y'];
  const atoms = [
    'word',
    'two words',
    'a:b',
    'a: b',
    'a #b',
    'a#b',
    'end:',
    '12',
    '1.5',
    '0x1F',
    '.5',
    '-1',
    '+1',
    '2024-01-02',
    'true',
    'False',
    'NULL',
    'Null',
    '~',
    'yes',
    'no',
    'on',
    'nan',
    '.nan',
    "'q'",
    "'it''s'",
    "'a'b'",
    '"q"',
    '"a\\"b"',
    '"a\\nb"',
    '"a\\x41"',
    '"\\ud83d\\ude00"',
    '"a\\\\"',
    '[a]',
    '[a, b]',
    '[ a ,b ]',
    "['x, y', z]",
    '[a:b]',
    '[a, ]',
    '[]',
    '{a: b}',
    '&x a',
    '*x',
    '!t a',
    '|',
    '>',
    '@a',
    '`a`',
    '%a',
    '?a',
    ',a',
    'é',
    '汉字',
    'a b  c',
    'a\tb',
    'x ',
    'a, b',
    'a [b]',
    'a {b}',
    'a ]',
    "a'b",
    'a"b',
  ];
  let answered = 0;
  const N = 4000;
  for (let n = 0; n < N; n++) {
    const lines: string[] = [];
    const count = 1 + Math.floor(r() * 4);
    for (let k = 0; k < count; k++) {
      const key = pick(keys);
      const shape = r();
      if (shape < 0.6) lines.push(`${key}: ${pick(atoms)}`);
      else if (shape < 0.8) {
        const indent = pick(['', '  ', '    ']);
        lines.push(`${key}:`);
        for (let j = Math.floor(r() * 3); j > 0; j--) lines.push(`${indent}- ${pick(atoms)}`);
      } else if (shape < 0.9) lines.push(`${key}: [${pick(atoms)}, ${pick(atoms)}]`);
      else lines.push(pick(['', '  continued', '# c', `${key}:${pick(atoms)}`, `  ${key}: x`, '- stray']));
    }
    if (same(`---\n${lines.join('\n')}\n---\nbody`)) answered++;
  }
  // Enough of the simple shapes occur to exercise the fast path, not only its refusals.
  assert.ok(answered > N / 10, `answered ${answered} of ${N}`);
});
