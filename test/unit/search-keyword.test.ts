import { test } from 'node:test';
import assert from 'node:assert/strict';
import { syncRecipes } from '../../src/core/knowledge';
import { keywordSearch, matchExpression, FIELD_WEIGHTS } from '../../src/core/search';
import { bm25, tokenize } from '../../src/core/text';
import { indexRecipeTexts } from '../../src/core/knowledge/recipe-index';
import { recipeRowsByRid } from '../../src/core/knowledge/recipes';
import { tempWorkspace, writeRecipe, recipeText, call } from './knowledge-helpers';
import type { Workspace } from '../../src/core/workspace';

const ids = (ws: Workspace, hits: { rid: number }[]) => {
  const rows = recipeRowsByRid(ws, hits.map((h) => h.rid));
  return hits.map((h) => rows.get(h.rid)!.id);
};

test('BM25 from matchinfo: more hits, rarer terms and heavier fields score higher', () => {
  // p=1 phrase, c=2 columns, n=10 rows, avg lengths, this row's lengths, then hits/total/docs per column
  const info = (tf0: number, tf1: number, docs0: number, docs1: number, len0 = 5, len1 = 5) => new Uint8Array(new Uint32Array([1, 2, 10, 5, 5, len0, len1, tf0, tf0, docs0, tf1, tf1, docs1]).buffer);
  const one = bm25(info(1, 0, 5, 5), [1, 1]).score;
  assert.ok(bm25(info(2, 0, 5, 5), [1, 1]).score > one, 'term frequency');
  assert.ok(bm25(info(1, 0, 1, 5), [1, 1]).score > one, 'rarity (idf)');
  assert.ok(bm25(info(1, 0, 5, 5, 2), [1, 1]).score > one, 'shorter field');
  assert.ok(bm25(info(1, 0, 5, 5), [4, 1]).score > bm25(info(0, 1, 5, 5), [4, 1]).score, 'field weight');
  assert.deepEqual(bm25(info(0, 1, 5, 5), [1, 1]).columns, [1]);
});

test('query words are split like identifiers; no FTS syntax leaks in', () => {
  assert.deepEqual(tokenize('fetchUserById MAX_RETRIES'), ['fetchuserbyid', 'fetch', 'user', 'by', 'id', 'maxretries', 'max', 'retries']);
  assert.deepEqual(tokenize('网络请求'), ['网络', '络请', '请求']);
  assert.equal(matchExpression('how to "retry" OR NEAR(x) -z')!.expr, 'retri OR near OR x OR z', 'stems, no stopwords, no operators');
  assert.equal(matchExpression('fetch user')!.expr, 'fetch OR user*');
  assert.equal(matchExpression('fetch user ')!.expr, 'fetch OR user');
  assert.equal(matchExpression('the of')!.expr, 'the OR of', 'only stop words: they are searched after all');
  assert.equal(matchExpression('!!!'), undefined);
});

test('keyword search finds the expected recipe first; a trigger match outranks a body match', async () => {
  const ws = await tempWorkspace();
  try {
    writeRecipe(ws, 'net/retry.md', recipeText({ title: 'Fetch with retry', trigger: '@fetchRetry', summary: 'Wrap HTTP calls in withRetry.', language: 'typescript', tags: ['http'] }));
    writeRecipe(ws, 'log/errors.md', recipeText({ title: 'Log errors with context', summary: 'Pass the error object last.', language: 'typescript' }));
    // "paginate" in the trigger of one recipe, and several times in the body of another
    writeRecipe(ws, 'api/pages.md', recipeText({ title: 'List endpoints', trigger: '@paginate', summary: 'Cursor-based lists.', language: 'typescript', code: 'list(cursor)' }));
    writeRecipe(ws, 'api/other.md', recipeText({ title: 'Query builder', summary: 'Build SQL with the query builder.', language: 'typescript', body: 'It can paginate results; paginate with limit and offset; paginate everything.', code: 'qb.select()' }));
    writeRecipe(ws, 'ui/list.md', recipeText({ title: 'Virtualized lists', summary: 'Render long lists with VirtualList.', language: 'swift', knowledgeType: 'code-standard' }));
    writeRecipe(ws, 'old/retry.md', recipeText({ title: 'Old retry helper', summary: 'retry retry retry', status: 'deprecated' }));
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

test('BM25 from per-row hits and cached lengths equals BM25 from matchinfo pcnalx', async () => {
  const ws = await tempWorkspace();
  try {
    const verbs = ['retry', 'parse', 'render', 'cache', 'validate', 'encrypt', 'paginate', 'debounce'];
    const nouns = ['request', 'token', 'image', 'order', 'invoice', 'message', 'profile', 'report', 'chunk', 'cookie'];
    const docs = Array.from({ length: 300 }, (_, i) => {
      const v = verbs[i % verbs.length];
      const n = nouns[(i * 7) % nouns.length];
      return { file: `.autosnippet/recipes/g/r${i}.md`, text: `---\ntitle: ${v} the ${n} number ${i}\nsummary: Always ${v} ${n}s through the ${n} service layer ${i % 97}.\n---\n\nUse ${n}Service for ${i % 3 ? 'long ' + 'text '.repeat(i % 13) : 'it'}.\n\n\`\`\`ts\n${v}${n}${i}()\n\`\`\`\n` };
    });
    await indexRecipeTexts(ws, docs, { sliceSize: 100 });
    for (const q of ['retry token service', 'encrypt the invoice through the service layer', 'paginate cookie number 123', 'text']) {
      const fast = await keywordSearch(ws, q, {}, 300);
      assert.ok(fast.length > 0, q);
      const reference = new Map(
        ws.store
          .all<{ rid: number; mi: Uint8Array }>("SELECT docid AS rid, matchinfo(recipe_fts, 'pcnalx') AS mi FROM recipe_fts WHERE recipe_fts MATCH ?", [matchExpression(q)!.expr])
          .map((r) => [r.rid, bm25(r.mi, FIELD_WEIGHTS).score]),
      );
      assert.equal(fast.length, reference.size, q);
      for (const h of fast) assert.ok(Math.abs(h.score - reference.get(h.rid)!) < 1e-9, `${q}: ${h.score} vs ${reference.get(h.rid)}`);
    }
  } finally {
    await ws.cleanup();
  }
});
