import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  parseRecipeFile,
  patchFrontmatter,
  serializeRecipe,
  slugify,
  triggerFor,
} from '../../src/core/domains/knowledge/recipe-file';
import type { Recipe } from '../../src/core/domains/knowledge/types';

const FILE = '.autosnippet/recipes/networking/fetch-with-retry.md';

const full: Recipe = {
  id: 'networking/fetch-with-retry',
  title: 'Fetch with retry',
  trigger: '@fetchRetry',
  language: 'typescript',
  category: 'networking',
  knowledgeType: 'code-pattern',
  kind: 'pattern',
  status: 'published',
  summary: 'Wrap every HTTP call in withRetry: transient failures are retried: with backoff.',
  usageGuide: 'Use it for idempotent requests.\n\n- GET and PUT\n- never POST without an idempotency key',
  code: 'const res = await withRetry(() => fetch(url), { attempts: 3 });\n```\nnested fence\n```',
  rationale: 'The API gateway drops about 1% of requests.',
  steps: [
    {
      title: 'Import withRetry',
      description: 'From src/net/retry.ts.',
      code: "import { withRetry } from './net/retry';",
    },
    { title: 'Wrap the call' },
  ],
  tags: ['http', 'retry', '2024'],
  scope: 'target',
  target: 'api-client',
  complexity: 'basic',
  relations: { dependsOn: ['networking/http-client'], related: ['errors/result-type'] },
  constraints: {
    guards: [{ pattern: 'fetch\\(', message: 'Use withRetry', severity: 'warning' }],
    preconditions: ['the request is idempotent'],
  },
  sourceFiles: ['src/api/users.ts:42', 'src/api/orders.ts:17'],
  candidateId: 'cand-0123456789ab',
  createdBy: 'external_agent',
  createdAt: '2024-05-01T10:00:00.000Z',
  approvedBy: 'human',
  approvedAt: '2024-05-02T10:00:00.000Z',
  publishedBy: 'human',
  publishedAt: '2024-05-03T10:00:00.000Z',
  file: FILE,
};

test('a recipe survives serialize → parse unchanged, every field included', () => {
  const text = serializeRecipe(full);
  const parsed = parseRecipeFile(text, FILE);
  assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.problems));
  assert.deepEqual(parsed.recipe, full);
  assert.deepEqual(parsed.warnings, []);
  // frontmatter keys are camelCase and the code sits in a fenced block that its own fences cannot close
  assert.match(text, /^knowledgeType: code-pattern$/m);
  assert.match(text, /^````typescript$/m);
});

test('a minimal hand-written file gets sensible defaults', () => {
  const text =
    '# Log errors with context\n\nAlways pass the error as the last argument.\n\n```ts\nlog.error("save failed", err);\n```\n';
  const parsed = parseRecipeFile(text, '.autosnippet/recipes/logging/errors.md');
  assert.ok(parsed.ok);
  const r = parsed.recipe;
  assert.equal(r.title, 'Log errors with context');
  assert.equal(r.summary, 'Always pass the error as the last argument.');
  assert.equal(r.language, 'typescript', 'the fence language is normalized');
  assert.equal(r.category, 'logging', 'the folder is the category');
  assert.equal(r.id, 'logging/errors', 'the path is the id');
  assert.equal(r.trigger, '@log-errors-context');
  assert.equal(r.knowledgeType, 'code-pattern');
  assert.equal(r.kind, 'pattern');
  assert.equal(r.status, 'published');
  assert.equal(r.code, 'log.error("save failed", err);');
});

test('knowledgeType implies the kind', () => {
  for (const [type, kind] of [['code-standard', 'rule'], ['architecture', 'pattern'], ['data-flow', 'fact']]) {
    const parsed = parseRecipeFile(
      `---\ntitle: Something long enough\nknowledgeType: ${type}\nsummary: A summary of the thing.\n---\n`,
      FILE,
    );
    assert.ok(parsed.ok);
    assert.equal(parsed.recipe.kind, kind);
  }
});

test('problems name the file and the field', () => {
  const cases: [string, string | undefined, RegExp][] = [
    ['---\ntitle: [oops\n---\n', undefined, /not valid YAML at line \d+: unexpected end/],
    ['---\nsummary: no title here\n---\n', 'title', /Missing `title`/],
    [
      '---\ntitle: Valid title\nknowledgeType: recipe-ish\nsummary: s\n---\n',
      'knowledgeType',
      /`knowledgeType: recipe-ish` is not one of code-standard/,
    ],
    ['---\ntitle: Valid title\ntrigger: "@has space"\nsummary: s\n---\n', 'trigger', /must be `@` followed by/],
    ['---\ntitle: Valid title\ntags: {a: 1}\nsummary: s\n---\n', 'tags', /must be a list of text/],
    ['---\ntitle: Valid title\nstatus: live\nsummary: s\n---\n', 'status', /not one of draft, published, deprecated/],
    ['---\ntitle: Valid title\n---\n', 'summary', /says nothing/],
    [
      '---\ntitle: Valid title\nsummary: s\nconstraints:\n  guards:\n    - pattern: "("\n      message: m\n---\n',
      'constraints.guards[0].pattern',
      /not a valid regular expression/,
    ],
    ['---\ntitle: Valid title\nsummary: s\n', undefined, /no closing `---`/],
  ];
  for (const [text, field, message] of cases) {
    const parsed = parseRecipeFile(text, FILE);
    assert.equal(parsed.ok, false, text);
    if (parsed.ok) continue;
    assert.equal(parsed.problems[0].file, FILE);
    assert.equal(parsed.problems[0].field, field, text);
    assert.match(parsed.problems[0].message, message);
  }
});

test('a snake_case key is read with a warning naming the camelCase one; unknown keys warn', () => {
  const parsed = parseRecipeFile(
    '---\ntitle: Valid title\nknowledge_type: code-standard\nsumary: typo\nsummary: A summary.\n---\n',
    FILE,
  );
  assert.ok(parsed.ok);
  assert.equal(parsed.recipe.knowledgeType, 'code-standard');
  assert.deepEqual(parsed.warnings.map((w) => w.field), ['knowledge_type', 'sumary']);
  assert.match(parsed.warnings[0].message, /should be written `knowledgeType`/);
});

test('patchFrontmatter changes fields and keeps the body byte for byte', () => {
  const body = '\n# Title\n\nHand-written prose, *kept*.\n\n```ts\nx()\n```\n';
  const text = `---\ntitle: T is long enough\nstatus: draft\nsummary: s\n---\n${body}`;
  const patched = patchFrontmatter(text, { status: 'published', publishedBy: 'human' });
  assert.ok(patched.endsWith(body));
  const parsed = parseRecipeFile(patched, FILE);
  assert.ok(parsed.ok);
  assert.equal(parsed.recipe.status, 'published');
  assert.equal(parsed.recipe.publishedBy, 'human');
});

test('slugs and triggers', () => {
  assert.equal(slugify('Fetch with Retry!'), 'fetch-with-retry');
  assert.equal(slugify('useHTTPClient'), 'use-httpclient');
  assert.equal(triggerFor('Fetch with retry'), '@fetch-retry');
  assert.equal(
    triggerFor('Use `Protected` from Source/Core/Protected.swift for locked state'),
    '@use-protected-source-core',
    'four words at most, none cut',
  );
  assert.equal(
    triggerFor('Internationalization-compatibility-layer-for-everything'),
    '@internationalization',
    'never cut inside a word',
  );
});
