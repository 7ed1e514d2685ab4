import assert from 'node:assert/strict';
import { test } from 'node:test';
import { recordUsage, syncRecipes } from '../../src/core/domains/knowledge';
import { contextSearch } from '../../src/core/domains/retrieval';
import { reciprocalRankFusion, RRF_K } from '../../src/core/domains/search';
import { agent, call, recipeText, tempWorkspace, writeRecipe } from './knowledge-helpers';

test('reciprocal rank fusion: Σ 1/(k + rank); agreement beats a single first place', () => {
  const fused = reciprocalRankFusion({
    keyword: [{ rid: 1 }, { rid: 2 }, { rid: 3 }],
    semantic: [{ rid: 2 }, { rid: 4 }, { rid: 1 }],
  });
  const by = new Map(fused.map((f) => [f.rid, f]));
  assert.equal(by.get(1)!.score, 1 / (RRF_K + 1) + 1 / (RRF_K + 3));
  assert.equal(by.get(2)!.score, 1 / (RRF_K + 2) + 1 / (RRF_K + 1));
  assert.deepEqual(by.get(4)!.ranks, { semantic: 2 });
  assert.deepEqual(fused.map((f) => f.rid), [2, 1, 4, 3]);
});

async function seed(ws: Awaited<ReturnType<typeof tempWorkspace>>) {
  writeRecipe(
    ws,
    'net/retry.md',
    recipeText({
      title: 'Fetch with retry',
      trigger: '@fetchRetry',
      summary: 'Wrap HTTP requests in withRetry so transient failures are retried.',
      language: 'typescript',
      knowledgeType: 'code-pattern',
      code: 'withRetry(() => fetch(url))',
    }),
  );
  writeRecipe(
    ws,
    'net/no-raw-fetch.md',
    recipeText({
      title: 'No raw fetch calls',
      summary: 'Never call fetch directly: go through the HTTP client, which retries.',
      language: 'typescript',
      knowledgeType: 'code-standard',
      code: '// forbidden: fetch(url)',
    }),
  );
  writeRecipe(
    ws,
    'net/flow.md',
    recipeText({
      title: 'Request flow',
      summary: 'A request goes view → store → HTTP client → retry → fetch.',
      language: 'typescript',
      knowledgeType: 'data-flow',
    }),
  );
  writeRecipe(
    ws,
    'ios/retry.md',
    recipeText({
      title: 'URLSession retry',
      summary: 'Retry URLSession requests with RetryPolicy.',
      language: 'swift',
      code: 'RetryPolicy.default.run { try await session.data(for: req) }',
    }),
  );
  writeRecipe(
    ws,
    'ui/button.md',
    recipeText({
      title: 'Use the Button component',
      summary: 'Never style a raw button element.',
      language: 'typescriptreact',
    }),
  );
  await syncRecipes(ws);
}

test('search fuses keyword and meaning and groups the results by kind, the best result first', async () => {
  const ws = await tempWorkspace();
  try {
    await seed(ws);
    const r = await call(ws, 'search', { query: 'retry http requests' }, agent);
    assert.equal(r.mode, 'hybrid');
    assert.deepEqual(r.groups.map((g: { kind: string }) => g.kind).sort(), ['fact', 'pattern', 'rule']);
    const heads = r.groups.map((g: { results: { score: number }[] }) => g.results[0].score);
    assert.deepEqual(heads, [...heads].sort((a, b) => b - a), 'groups in the order of their best results');
    const best = await call(ws, 'search', { query: 'wrap requests in withRetry' }, agent);
    assert.equal(best.groups[0].results[0].id, 'net/retry', 'the best result comes first, whatever its kind');
    const patterns = r.groups.find((g: { kind: string }) => g.kind === 'pattern').results;
    assert.equal(patterns[0].id, 'net/retry');
    assert.equal(patterns[0].why.length, 2, 'found by both indexes');
    assert.equal(patterns[0].code, undefined, 'no code in search results');

    const rules = await call(ws, 'search', { query: 'retry', kind: 'rule' }, agent);
    assert.deepEqual(rules.groups.map((g: { kind: string }) => g.kind), ['rule']);
    const swift = await call(ws, 'search', { query: 'retry', language: 'swift' }, agent);
    assert.deepEqual(swift.groups.flatMap((g: { results: { id: string }[] }) => g.results.map((x) => x.id)), [
      'ios/retry',
    ]);
  } finally {
    await ws.cleanup();
  }
});

test('context_search ranks by relevance, quality, usage, freshness and language, and says why', async () => {
  const ws = await tempWorkspace();
  try {
    await seed(ws);
    const ts = await contextSearch(ws, { query: 'retry a request', currentFile: 'src/api/users.ts', limit: 10 });
    assert.equal(ts.language, 'typescript');
    const swiftRank = ts.results.findIndex((r) => r.id === 'ios/retry');
    const tsRank = ts.results.findIndex((r) => r.id === 'net/retry');
    assert.ok(tsRank >= 0 && tsRank < swiftRank, "the current file's language ranks first");
    const swiftResult = ts.results[swiftRank];
    assert.equal(swiftResult.signals.language, 0);
    assert.ok(swiftResult.why.some((w) => /other language \(swift\)/.test(w)));
    const top = ts.results[0];
    assert.ok(top.why.some((w) => /^matched /.test(w) || /^close in meaning/.test(w)));
    assert.ok(top.why.some((w) => /^quality /.test(w)));
    for (const k of ['relevance', 'quality', 'usage', 'freshness', 'language'] as const) {
      assert.equal(typeof top.signals[k], 'number');
    }
    assert.deepEqual(ts.results.map((r) => r.rank), ts.results.map((_, i) => i + 1));
    assert.equal(top.code, undefined, 'code only on request');

    const sw = await contextSearch(ws, {
      query: 'retry a request',
      currentFile: 'Sources/App/Client.swift',
      limit: 10,
    });
    assert.equal(sw.results[0].id, 'ios/retry', 'from a Swift file the Swift recipe leads');

    // code on request, bounded
    const withCode = await call(ws, 'context_search', {
      query: 'fetch with retry',
      file: 'src/a.ts',
      includeCode: true,
      limit: 1,
    }, agent);
    assert.equal(withCode.results.length, 1);
    assert.equal(withCode.results[0].code, 'withRetry(() => fetch(url))');
    assert.ok(withCode.funnel.recalled >= withCode.funnel.returned);

    // usage counts: a much-adopted recipe climbs
    const before = ts.results.find((r) => r.id === 'net/no-raw-fetch')!;
    await recordUsage(ws, 'net/no-raw-fetch', 'adoption', 20);
    const after = (await contextSearch(ws, { query: 'retry a request', currentFile: 'src/api/users.ts', limit: 10 }))
      .results.find((r) => r.id === 'net/no-raw-fetch')!;
    assert.ok(after.score > before.score && after.signals.usage > before.signals.usage);
    assert.ok(after.why.includes('adopted 20×'));

    // what the conversation touched is listed, not repeated
    const touched = await contextSearch(ws, {
      query: 'retry a request',
      currentFile: 'src/api/users.ts',
      touched: ['net/retry'],
    });
    assert.ok(!touched.results.some((r) => r.id === 'net/retry'));
    assert.deepEqual(touched.alreadySeen, [{ id: 'net/retry', title: 'Fetch with retry' }]);
    assert.equal(touched.funnel.skippedTouched, 1);

    const nothing = await contextSearch(ws, { query: 'kubernetes helm chart' });
    assert.ok(nothing.results.length === 0 || nothing.results.every((r) => r.signals.relevance < 0.5));
  } finally {
    await ws.cleanup();
  }
});
