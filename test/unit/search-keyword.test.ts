import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { syncRecipes } from '../../src/core/domains/knowledge';
import { indexRecipeTexts } from '../../src/core/domains/knowledge/recipe-index';
import { recipeRowsByRid } from '../../src/core/domains/knowledge/recipes';
import { prepareRecipeSearch } from '../../src/core/domains/retrieval';
import { FIELD_WEIGHTS, keywordQuery, keywordSearch, semanticSearch } from '../../src/core/domains/search';
import { Bm25fIndex, tokenize } from '../../src/core/ground/text';
import { Workspace } from '../../src/core/ground/workspace';
import { call, recipeText, tempWorkspace, writeRecipe } from './knowledge-helpers';

const ids = (ws: Workspace, hits: { rid: number }[]) => {
  const rows = recipeRowsByRid(ws, hits.map((h) => h.rid));
  return hits.map((h) => rows.get(h.rid)!.id);
};

test('query words are split like identifiers; the last word is a prefix unless a space follows it', () => {
  assert.deepEqual(tokenize('fetchUserById MAX_RETRIES'), [
    'fetchuserbyid',
    'fetch',
    'user',
    'by',
    'id',
    'maxretries',
    'max',
    'retries',
  ]);
  assert.deepEqual(tokenize('网络请求'), ['网络', '络请', '请求']);
  assert.deepEqual(keywordQuery('how to "retry" OR NEAR(x) -z'), {
    terms: ['retri', 'near', 'x', 'z'],
    prefixLast: false,
  }, 'stems, no stopwords; a one-letter word is no prefix');
  assert.deepEqual(keywordQuery('fetch user'), { terms: ['fetch', 'user'], prefixLast: true });
  assert.deepEqual(keywordQuery('fetch user '), { terms: ['fetch', 'user'], prefixLast: false });
  assert.deepEqual(keywordQuery('the of')?.terms, ['the', 'of'], 'only stop words: they are searched after all');
  assert.equal(keywordQuery('!!!'), undefined);
});

test('keyword search finds the expected recipe first; a trigger match outranks a body match', async () => {
  const ws = await tempWorkspace();
  try {
    writeRecipe(
      ws,
      'net/retry.md',
      recipeText({
        title: 'Fetch with retry',
        trigger: '@fetchRetry',
        summary: 'Wrap HTTP calls in withRetry.',
        language: 'typescript',
        tags: ['http'],
      }),
    );
    writeRecipe(
      ws,
      'log/errors.md',
      recipeText({ title: 'Log errors with context', summary: 'Pass the error object last.', language: 'typescript' }),
    );
    // "paginate" in the trigger of one recipe, and several times in the body of another
    writeRecipe(
      ws,
      'api/pages.md',
      recipeText({
        title: 'List endpoints',
        trigger: '@paginate',
        summary: 'Cursor-based lists.',
        language: 'typescript',
        code: 'list(cursor)',
      }),
    );
    writeRecipe(
      ws,
      'api/other.md',
      recipeText({
        title: 'Query builder',
        summary: 'Build SQL with the query builder.',
        language: 'typescript',
        body: 'It can paginate results; paginate with limit and offset; paginate everything.',
        code: 'qb.select()',
      }),
    );
    writeRecipe(
      ws,
      'ui/list.md',
      recipeText({
        title: 'Virtualized lists',
        summary: 'Render long lists with VirtualList.',
        language: 'swift',
        knowledgeType: 'code-standard',
      }),
    );
    writeRecipe(
      ws,
      'old/retry.md',
      recipeText({ title: 'Old retry helper', summary: 'retry retry retry', status: 'deprecated' }),
    );
    await syncRecipes(ws);

    assert.equal(ids(ws, await keywordSearch(ws, 'retry http'))[0], 'net/retry');
    assert.equal(ids(ws, await keywordSearch(ws, 'log the error object'))[0], 'log/errors');

    const pag = await keywordSearch(ws, 'paginate');
    assert.deepEqual(ids(ws, pag), ['api/pages', 'api/other']);
    assert.deepEqual(pag[0].fields, ['trigger']);
    assert.deepEqual(pag[1].fields, ['body']);

    // prefix on the last word, identifiers split
    assert.equal(ids(ws, await keywordSearch(ws, 'withRet'))[0], 'net/retry');
    // filters: kind, language; deprecated left out unless asked
    assert.deepEqual(ids(ws, await keywordSearch(ws, 'lists', { kind: 'rule' })), ['ui/list']);
    assert.deepEqual(ids(ws, await keywordSearch(ws, 'lists', { language: 'swift' })), ['ui/list']);
    assert.ok(!ids(ws, await keywordSearch(ws, 'retry')).includes('old/retry'));
    assert.ok(ids(ws, await keywordSearch(ws, 'retry', { includeDeprecated: true })).includes('old/retry'));

    const viaTool = await call(ws, 'keyword_search', { query: 'paginate' });
    assert.equal(viaTool.mode, 'keyword');
    assert.equal(viaTool.groups[0].results[0].id, 'api/pages');
    assert.match(viaTool.groups[0].results[0].why[0], /keyword #1 on trigger/);
    assert.deepEqual(await keywordSearch(ws, 'zzzz-nothing'), []);
  } finally {
    await ws.cleanup();
  }
});

test('the top-k of the in-memory index is the exhaustive BM25F ranking (trigger 8, title 4, summary 2, rest 1)', async () => {
  const ws = await tempWorkspace();
  try {
    const verbs = ['retry', 'parse', 'render', 'cache', 'validate', 'encrypt', 'paginate', 'debounce'];
    const nouns = ['request', 'token', 'image', 'order', 'invoice', 'message', 'profile', 'report', 'chunk', 'cookie'];
    const docs = Array.from({ length: 300 }, (_, i) => {
      const v = verbs[i % verbs.length];
      const n = nouns[(i * 7) % nouns.length];
      return {
        file: `.autosnippet/recipes/g/r${i}.md`,
        text: `---\ntitle: ${v} the ${n} number ${i}\nsummary: Always ${v} ${n}s through the ${n} service layer ${
          i % 97
        }.\n---\n\nUse ${n}Service for ${
          i % 3 ? 'long ' + 'text '.repeat(i % 13) : 'it'
        }.\n\n\`\`\`ts\n${v}${n}${i}()\n\`\`\`\n`,
      };
    });
    await indexRecipeTexts(ws, docs, { sliceSize: 100 });
    // The reference: the text layer's BM25F over the stored fields, scoring every document.
    const rows = ws.store.all<{ rid: number; trigger: string; title: string; summary: string; body: string }>(
      'SELECT rid, trigger, title, summary, body FROM recipe_terms ORDER BY rid',
    );
    const split = (v: string) => (v ? v.split(' ') : []);
    const reference = new Bm25fIndex(
      {
        trigger: { weight: FIELD_WEIGHTS[0], b: 0.75 },
        title: { weight: FIELD_WEIGHTS[1], b: 0.75 },
        summary: { weight: FIELD_WEIGHTS[2], b: 0.75 },
        body: { weight: FIELD_WEIGHTS[3], b: 0.75 },
      },
      rows.map((r) => ({
        trigger: split(r.trigger),
        title: split(r.title),
        summary: split(r.summary),
        body: split(r.body),
      })),
    );
    for (const q of [
      'retry token service ',
      'encrypt the invoice through the service layer ',
      'paginate cookie number 123 ',
      'text ',
      'long report chunk ',
    ]) {
      const expected = reference.search(keywordQuery(q)!.terms, 10).map((m) => ({
        rid: rows[m.doc].rid,
        score: m.score,
      }));
      const got = await keywordSearch(ws, q, {}, 10);
      assert.deepEqual(got.map((h) => h.rid), expected.map((h) => h.rid), q);
      for (const [i, h] of got.entries()) {
        assert.ok(Math.abs(h.score - expected[i].score) < 1e-4, `${q}: ${h.score} vs ${expected[i].score}`);
      }
    }
  } finally {
    await ws.cleanup();
  }
});

test("the index follows changes: added, edited and removed recipes, and another process's commits", async () => {
  const ws = await tempWorkspace();
  const other = await Workspace.open(ws.root);
  try {
    const filler = Array.from(
      { length: 40 },
      (_, i) =>
        writeRecipe(
          ws,
          `g/r${i}.md`,
          recipeText({ title: `Generic helper number ${i}`, summary: `Use helper ${i} for the usual work.` }),
        ),
    );
    writeRecipe(
      ws,
      'net/retry.md',
      recipeText({ title: 'Fetch with retry', trigger: '@fetchRetry', summary: 'Wrap HTTP calls in withRetry.' }),
    );
    await syncRecipes(ws);
    assert.deepEqual(ids(ws, await keywordSearch(ws, 'withRetry ')), ['net/retry']);

    // edited: found by its new words, not by its old ones
    writeRecipe(
      ws,
      'net/retry.md',
      recipeText({ title: 'Fetch with backoff', trigger: '@fetchBackoff', summary: 'Wrap HTTP calls in withBackoff.' }),
    );
    await syncRecipes(ws);
    assert.deepEqual(ids(ws, await keywordSearch(ws, 'withBackoff ')), ['net/retry']);
    assert.deepEqual(await keywordSearch(ws, 'withRetry '), []);

    // removed
    rmSync(filler[3]);
    await syncRecipes(ws);
    assert.ok(!ids(ws, await keywordSearch(ws, 'helper number 3 ', {}, 50)).includes('g/r3'));

    // another process adds a recipe: this one finds it through the journal and the change log
    writeRecipe(
      other,
      'db/tx.md',
      recipeText({
        title: 'Transactions wrap every write',
        trigger: '@inTransaction',
        summary: 'Call inTransaction around writes.',
      }),
    );
    await syncRecipes(other);
    assert.deepEqual(ids(ws, await keywordSearch(ws, 'inTransaction ')), ['db/tx']);
    assert.equal(
      (await semanticSearch(ws, 'transactions wrap every write'))[0]?.rid,
      (await keywordSearch(ws, 'inTransaction '))[0].rid,
    );
  } finally {
    await other.dispose();
    await ws.cleanup();
  }
});

test('prepareRecipeSearch indexes the files and builds the search index before the first search, which then serves from it', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-prepare-'));
  // An earlier session left a database.
  const earlier = await Workspace.open(root);
  for (let i = 0; i < 300; i++) {
    writeRecipe(
      earlier,
      `g/r${i}.md`,
      recipeText({ title: `Generic helper number ${i}`, summary: `Use helper ${i} for the usual work.` }),
    );
  }
  await syncRecipes(earlier);
  await earlier.dispose();
  // A file added while no server ran; then a server starts and prepares search.
  writeRecipe(
    earlier,
    'net/retry.md',
    recipeText({ title: 'Fetch with retry', trigger: '@fetchRetry', summary: 'Wrap HTTP calls in withRetry.' }),
  );
  const ws = Workspace.start(root);
  try {
    await prepareRecipeSearch(ws);
    const prepared = ws.service('search.index', () => ({}) as { current?: object }).current;
    assert.ok(prepared, 'the search index is built');
    assert.deepEqual(ids(ws, await keywordSearch(ws, 'withRetry ')), ['net/retry']);
    assert.equal(
      ws.service('search.index', () => ({}) as { current?: object }).current,
      prepared,
      'the first search used the prepared index',
    );

    // A file that changes later is still picked up by the search after it (the index catches up).
    writeRecipe(
      ws,
      'g/r7.md',
      recipeText({ title: 'Debounce the search box', summary: 'Use debounceInput for typing.' }),
    );
    await syncRecipes(ws);
    assert.deepEqual(ids(ws, await keywordSearch(ws, 'debounceInput ')), ['g/r7']);
  } finally {
    await ws.dispose();
    rmSync(root, { recursive: true, force: true });
  }
});

test('prepareRecipeSearch creates no database and never rejects, even when the store cannot open', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-prepare-'));
  try {
    const ws = Workspace.start(root);
    await prepareRecipeSearch(ws);
    assert.deepEqual(readdirSync(root), [], 'no .autosnippet/ for a read');
    // A fresh clone: recipe files, no database (it is not committed). Starting a server creates none.
    writeRecipe(
      ws,
      'net/retry.md',
      recipeText({ title: 'Fetch with retry', trigger: '@fetchRetry', summary: 'Wrap HTTP calls in withRetry.' }),
    );
    await prepareRecipeSearch(ws);
    assert.deepEqual(readdirSync(path.join(root, '.autosnippet')), ['recipes']);
    await ws.dispose();
    rmSync(path.join(root, '.autosnippet'), { recursive: true });

    writeFileSync(path.join(root, '.autosnippet'), 'a file where the folder should be');
    const broken = Workspace.start(root);
    await prepareRecipeSearch(broken);
    await assert.rejects(keywordSearch(broken, 'anything'), /STORE|database|\.autosnippet/i);
    await broken.dispose();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
