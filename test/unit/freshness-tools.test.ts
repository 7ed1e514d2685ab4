import assert from 'node:assert/strict';
import { test } from 'node:test';
import { main } from '../../src/cli/main';
import { createCatalog } from '../../src/core/catalog';
import { publishRecipe, readRecipe } from '../../src/core/domains/knowledge';
import { freshnessTracker } from '../../src/core/domains/knowledge/freshness';
import { hashLines } from '../../src/core/domains/knowledge/freshness-fingerprint';
import { contextSearch } from '../../src/core/domains/retrieval/context';
import { citingRecipe, edit, HTTP_TS, writeSource } from './freshness-helpers';
import { agent, human, tempWorkspace } from './knowledge-helpers';

const catalog = createCatalog();

async function tool(ws: any, name: string, input: unknown, ctx = agent): Promise<any> {
  const r = await catalog.invoke(ws, name, input, ctx);
  assert.ok(r.ok, JSON.stringify(r));
  return r.data;
}

function capture() {
  const out = { stdout: '', stderr: '' };
  return { out, io: { stdout: (s: string) => void (out.stdout += s), stderr: (s: string) => void (out.stderr += s) } };
}

/** Two published recipes about timeouts, one citing src/http.ts (which then changes), one citing src/log.ts. */
async function seeded() {
  const ws = await tempWorkspace();
  writeSource(ws, 'src/http.ts', HTTP_TS);
  writeSource(ws, 'src/log.ts', 'export function log(m: string) {\n  console.log(m);\n}\n');
  for (const [slug, title, source] of [
    ['abort-timeout', 'Abort requests after a timeout', 'src/http.ts:7'],
    ['log-timeouts', 'Log request timeouts', 'src/log.ts:2'],
  ]) {
    const id = await citingRecipe(ws, slug, {
      title,
      sources: [source],
      status: 'draft',
      summary: `${title} with an AbortController timeout.`,
    });
    await publishRecipe(ws, id, 'human');
  }
  return ws;
}

test('check_recipe_freshness: all recipes with reasons, stale first; one recipe with the lines then and now; health counts the stale ones', async () => {
  const ws = await seeded();
  try {
    const before = await tool(ws, 'check_recipe_freshness', {});
    assert.deepEqual(before.counts, { fresh: 2, stale: 0, moved: 0, untracked: 0 });
    assert.equal((await tool(ws, 'health', {})).counts.stale, 0);

    edit(ws, 'src/http.ts', 'await fetch(url, { signal: controller.signal })', 'await fetch(url)');
    const after = await tool(ws, 'check_recipe_freshness', {});
    assert.deepEqual(after.counts, { fresh: 1, stale: 1, moved: 0, untracked: 0 });
    assert.equal(after.recipes[0].id, 'networking/abort-timeout', 'stale first');
    assert.equal(after.recipes[0].freshness, 'stale');
    assert.deepEqual(after.recipes[0].sources, [{
      source: 'src/http.ts:7',
      state: 'changed',
      message: 'The cited line 7 changed since the recipe recorded it.',
    }]);
    assert.match(after.hint, /1 stale/);
    assert.equal((await tool(ws, 'check_recipe_freshness', { problemsOnly: true })).recipes.length, 1);
    assert.equal((await tool(ws, 'health', {})).counts.stale, 1);

    const one = await tool(ws, 'check_recipe_freshness', { id: 'networking/abort-timeout', details: true });
    assert.equal(one.recipes[0].freshness, 'stale');
    assert.equal(one.changes[0].source, 'src/http.ts:7');
    assert.match(one.changes[0].now.text, /await fetch\(url\);/);
    assert.equal(one.changes[0].then, undefined, 'no excerpt and no git history: the recorded line cannot be shown');

    const missing = await catalog.invoke(ws, 'check_recipe_freshness', { id: 'networking/abort-timout' }, agent);
    assert.equal(missing.ok, false);
    if (!missing.ok) assert.match(missing.error.hint ?? '', /networking\/abort-timeout/);
  } finally {
    await ws.cleanup();
  }
});

test('accept_recipe_freshness is for people only; after a person accepts, the recipe is fresh again', async () => {
  const ws = await seeded();
  try {
    edit(
      ws,
      'src/http.ts',
      'await fetch(url, { signal: controller.signal })',
      'await fetch(url, { signal: controller.signal, cache: "no-store" })',
    );
    assert.ok(!catalog.agentTools.some((t) => t.name === 'accept_recipe_freshness'), 'never offered to agents');
    const byAgent = await catalog.invoke(ws, 'accept_recipe_freshness', { id: 'networking/abort-timeout' }, agent);
    assert.equal(byAgent.ok, false);
    if (!byAgent.ok) assert.equal(byAgent.error.code, 'PERMISSION_DENIED');
    const before = (await readRecipe(ws, 'networking/abort-timeout')).fingerprints;
    const accepted = await tool(ws, 'accept_recipe_freshness', { id: 'networking/abort-timeout' }, human);
    assert.equal(accepted.freshness, 'fresh');
    assert.notDeepEqual((await readRecipe(ws, 'networking/abort-timeout')).fingerprints, before);
    assert.deepEqual((await tool(ws, 'check_recipe_freshness', {})).counts, {
      fresh: 2,
      stale: 0,
      moved: 0,
      untracked: 0,
    });
  } finally {
    await ws.cleanup();
  }
});

test('context_search ranks a stale recipe below an equally relevant fresh one and flags it', async () => {
  const ws = await tempWorkspace();
  try {
    writeSource(ws, 'src/a.ts', 'export const retryA = () => withRetry(fetchA);\n');
    writeSource(ws, 'src/b.ts', 'export const retryB = () => withRetry(fetchB);\n');
    // Two recipes that match the query equally; the one that sorts first by id goes stale.
    for (const [slug, source] of [['retry-a', 'src/a.ts:1'], ['retry-b', 'src/b.ts:1']]) {
      const id = await citingRecipe(ws, slug, {
        title: 'Retry requests with withRetry',
        sources: [source],
        status: 'draft',
        summary: 'Wrap every request in withRetry.',
      });
      await publishRecipe(ws, id, 'human');
    }
    await freshnessTracker(ws).refresh();
    const before = await contextSearch(ws, { query: 'retry requests withRetry', limit: 5 });
    assert.deepEqual(before.results.map((r) => r.id), ['networking/retry-a', 'networking/retry-b']);
    assert.equal(before.results[0].stale, undefined);

    writeSource(ws, 'src/a.ts', 'export const retryA = () => fetchA();\n');
    await freshnessTracker(ws).refresh();
    const after = await contextSearch(ws, { query: 'retry requests withRetry', limit: 5 });
    assert.deepEqual(
      after.results.map((r) => r.id),
      ['networking/retry-b', 'networking/retry-a'],
      'the stale one ranks lower',
    );
    const stale = after.results[1];
    assert.match(stale.stale!, /^src\/a\.ts:1: The cited line 1 changed/);
    assert.ok(stale.why.some((w) => w.startsWith('stale:')), stale.why.join(' | '));
    assert.ok(stale.score < after.results[0].score);
  } finally {
    await ws.cleanup();
  }
});

test('autosnippet recipes check exits 1 when a published recipe is stale (0 when only drafts are), and recipes accept fixes it', async () => {
  const ws = await seeded();
  try {
    const argv = (...a: string[]) => ['--workspace', ws.root, ...a];
    // A draft that recorded a line that has changed since: stale, but drafts do not fail CI.
    await citingRecipe(ws, 'draft-log', {
      title: 'Draft about logging',
      sources: ['src/log.ts:1'],
      status: 'draft',
      fingerprints: `fingerprints:\n  sources:\n    "src/log.ts:1": ${
        hashLines(['export function log(msg: string) {'])
      }`,
    });
    const clean = capture();
    assert.equal(await main(argv('recipes', 'check'), clean.io), 0, clean.out.stderr);
    assert.match(clean.out.stdout, /^STALE {5}networking\/draft-log \[draft\]$/m);
    assert.match(clean.out.stdout, /3 recipes checked: 1 stale \(0 published\), 0 moved, 0 untracked, 2 fresh\./);

    edit(ws, 'src/http.ts', 'await fetch(url, { signal: controller.signal })', 'await fetch(url)');
    const stale = capture();
    assert.equal(await main(argv('recipes', 'check'), stale.io), 1);
    assert.match(
      stale.out.stdout,
      /^STALE {5}networking\/abort-timeout\n {10}src\/http\.ts:7: The cited line 7 changed/m,
    );
    assert.match(stale.out.stderr, /1 published recipe cites code that changed/);

    const json = capture();
    assert.equal(await main(argv('recipes', 'check', '--json'), json.io), 1);
    assert.deepEqual(JSON.parse(json.out.stdout).counts, { fresh: 1, stale: 2, moved: 0, untracked: 0 });

    const unknown = capture();
    assert.equal(await main(argv('recipes', 'check', 'no/such-recipe'), unknown.io), 2);
    assert.match(unknown.out.stderr, /^RECIPE_NOT_FOUND/);

    const accept = capture();
    assert.equal(await main(argv('recipes', 'accept', 'networking/abort-timeout'), accept.io), 0, accept.out.stderr);
    assert.match(accept.out.stdout, /networking\/abort-timeout: 1 sources recorded .*; now fresh\./);
    const again = capture();
    assert.equal(await main(argv('recipes', 'check'), again.io), 0);
  } finally {
    await ws.cleanup();
  }
});
