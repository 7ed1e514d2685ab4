import assert from 'node:assert/strict';
import { test } from 'node:test';
import { syncRecipes } from '../../src/core/domains/knowledge';
import { recipeRowsByRid } from '../../src/core/domains/knowledge/recipes';
import { type Embedder, HashedNgramEmbedder, semanticSearch, useEmbedder } from '../../src/core/domains/search';
import type { Workspace } from '../../src/core/ground/workspace';
import { call, recipeText, tempWorkspace, writeRecipe } from './knowledge-helpers';

const ids = (ws: Workspace, hits: { rid: number }[]) => {
  const rows = recipeRowsByRid(ws, hits.map((h) => h.rid));
  return hits.map((h) => rows.get(h.rid)!.id);
};

async function seed(ws: Workspace) {
  writeRecipe(
    ws,
    'auth/session.md',
    recipeText({
      title: 'Sign-in session tokens',
      summary: 'Store the login token in the keychain and refresh it before expiry.',
      language: 'swift',
      code: 'Keychain.save(token)',
    }),
  );
  writeRecipe(
    ws,
    'db/migrations.md',
    recipeText({
      title: 'Schema migrations',
      summary: 'Every database migration runs inside a transaction.',
      language: 'typescript',
      code: 'await db.transaction(migrate)',
    }),
  );
  writeRecipe(
    ws,
    'net/retry.md',
    recipeText({
      title: 'Fetch with retry',
      summary: 'Wrap HTTP requests in withRetry.',
      language: 'typescript',
      code: 'withRetry(() => fetch(url))',
    }),
  );
  await syncRecipes(ws);
}

test('the offline embedder is deterministic, normalized, and puts related words close', async () => {
  const e = new HashedNgramEmbedder();
  const [a, b, c, d] = await e.embed([
    'user authentication',
    'user authentication',
    'login with credentials',
    'render a table view',
  ]);
  assert.deepEqual(a, b);
  const dot = (x: Float32Array, y: Float32Array) => x.reduce((s, v, i) => s + v * y[i], 0);
  assert.ok(Math.abs(dot(a, a) - 1) < 1e-5);
  assert.ok(dot(a, c) > dot(a, d), 'synonyms are closer than unrelated words');
  const [inflected, base] = await e.embed(['migrating schemas', 'schema migration']);
  assert.ok(dot(inflected, base) > 0.3, 'inflections share character n-grams');
});

test('semantic search finds a recipe by meaning when the words differ', async () => {
  const ws = await tempWorkspace();
  try {
    await seed(ws);
    assert.equal(ids(ws, await semanticSearch(ws, 'authentication credentials'))[0], 'auth/session');
    assert.equal(ids(ws, await semanticSearch(ws, 'sql schema migrating'))[0], 'db/migrations');
    assert.equal(ids(ws, await semanticSearch(ws, 'retries for network calls'))[0], 'net/retry');
    assert.deepEqual(
      ids(ws, await semanticSearch(ws, 'authentication', { language: 'typescript' })).includes('auth/session'),
      false,
      'language filter',
    );

    const viaTool = await call(ws, 'semantic_search', { query: 'authentication credentials' });
    assert.equal(viaTool.mode, 'semantic');
    assert.equal(viaTool.groups[0].results[0].id, 'auth/session');
    assert.match(viaTool.groups[0].results[0].why[0], /meaning #1 \(similarity 0\.\d+\)/);
  } finally {
    await ws.cleanup();
  }
});

test('another embedder plugs in: vectors are rebuilt with it on the next sync', async () => {
  const ws = await tempWorkspace();
  try {
    await seed(ws);
    const calls: string[][] = [];
    const topical: Embedder = {
      id: 'test-topics-v1',
      dimensions: 2,
      async embed(texts) {
        calls.push(texts);
        return texts.map((t) => (/keychain|login|auth/i.test(t) ? new Float32Array([1, 0]) : new Float32Array([0, 1])));
      },
    };
    useEmbedder(ws, topical);
    const report = await syncRecipes(ws);
    assert.equal(report.scanned, 3);
    assert.equal(calls.flat().length, 3, 'all three recipes re-embedded with the new model');
    assert.equal(ids(ws, await semanticSearch(ws, 'auth'))[0], 'auth/session');
    assert.equal((await syncRecipes(ws)).unchanged, 3, 'and not again');
  } finally {
    await ws.cleanup();
  }
});
