import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { ToolCatalog } from '../../src/core/catalog/catalog';
import { graphTools } from '../../src/core/catalog/graph';
import { graphVersion, knowledgeGraph, loadEdges, replaceEdges } from '../../src/core/domains/graph';
import { recipeEdgeSource } from '../../src/core/domains/graph/recipe-edges';
import { syncRecipes } from '../../src/core/domains/knowledge/recipe-index';
import { agent, closeWorkspaces, dataOf, emptyWorkspace, errorOf, fixtureWorkspace } from './structure-helpers';

after(closeWorkspaces);
const catalog = new ToolCatalog(graphTools);

test('replaceEdges normalises relations, writes nothing when unchanged, and replaces only its own origin', async () => {
  const ws = await emptyWorkspace();
  const v0 = await graphVersion(ws);
  const first = await replaceEdges(ws, 'manual', [
    { from: 'recipe:a', to: 'recipe:b', relation: 'dependsOn', weight: 1 },
    { from: 'recipe:a', to: 'recipe:b', relation: 'depends-on', weight: 2, evidence: 'x.md:1' },
    { from: 'recipe:a', to: 'recipe:a', relation: 'uses', weight: 1 },
  ]);
  assert.deepEqual(first, { edges: 1, changed: true });
  assert.deepEqual(await loadEdges(ws), [{
    from: 'recipe:a',
    to: 'recipe:b',
    relation: 'depends_on',
    weight: 2,
    evidence: 'x.md:1',
  }]);
  const v1 = await graphVersion(ws);
  assert.ok(v1 > v0);
  assert.deepEqual(
    await replaceEdges(ws, 'manual', [{
      from: 'recipe:a',
      to: 'recipe:b',
      relation: 'depends_on',
      weight: 2,
      evidence: 'x.md:1',
    }]),
    { edges: 1, changed: false },
  );
  assert.equal(await graphVersion(ws), v1, 'an unchanged set does not bump the version');
  await replaceEdges(ws, 'structure', [{ from: 'target:x', to: 'target:y', relation: 'depends_on', weight: 1 }]);
  await replaceEdges(ws, 'structure', []);
  assert.deepEqual(
    (await loadEdges(ws)).map((e) => e.from),
    ['recipe:a'],
    'the manual edge survives the structure origin being cleared',
  );
});

test('a large edge set is written in slices and read back whole; rewriting it unchanged costs nothing', async () => {
  const ws = await emptyWorkspace();
  const edges = Array.from({ length: 4500 }, (_, i) => ({
    from: `file:src/m${i}.ts`,
    to: `file:src/m${Math.floor(i / 2)}.ts`,
    relation: 'imports',
    weight: 1,
  }));
  assert.deepEqual(await replaceEdges(ws, 'bootstrap', edges), { edges: 4499, changed: true });
  assert.equal((await loadEdges(ws)).length, 4499);
  const v = await graphVersion(ws);
  assert.equal((await replaceEdges(ws, 'bootstrap', [...edges].reverse())).changed, false, 'order does not matter');
  assert.equal(await graphVersion(ws), v);
  assert.deepEqual(await replaceEdges(ws, 'bootstrap', edges.slice(0, 10)), { edges: 9, changed: true });
  assert.equal((await loadEdges(ws)).length, 9);
});

test('the in-memory graph follows the store: rebuilt when the version moves, reused otherwise', async () => {
  const ws = await emptyWorkspace();
  await replaceEdges(ws, 'manual', [{ from: 'target:a', to: 'target:b', relation: 'depends_on', weight: 1 }]);
  const g1 = await knowledgeGraph(ws);
  assert.equal(await knowledgeGraph(ws), g1);
  await replaceEdges(ws, 'manual', [{ from: 'target:a', to: 'target:c', relation: 'depends_on', weight: 1 }]);
  const g2 = await knowledgeGraph(ws);
  assert.notEqual(g2, g1);
  assert.deepEqual(g2.neighbours('target:a', 'out').map((n) => n.node), ['target:c']);
});

test('recipes join the graph: their relations (dependsOn → depends_on), target and sources become edges', async () => {
  const ws = await emptyWorkspace();
  const dir = path.join(ws.root, '.autosnippet', 'recipes', 'money');
  mkdirSync(dir, { recursive: true });
  const recipe = (id: string, extra: string) =>
    `---\nid: ${id}\ntitle: ${id} recipe\ntrigger: "@${id}"\nlanguage: swift\ncategory: money\nknowledgeType: code-pattern\nsummary: About ${id}.\n${extra}---\n\n\`\`\`swift\nlet x = 1\n\`\`\`\n`;
  writeFileSync(
    path.join(dir, 'format.md'),
    recipe(
      'money-format',
      'relations:\n  dependsOn: ["@money-rounding"]\ntarget: CoreKit\nsources: ["Sources/CoreKit/Money.swift:12"]\n',
    ),
  );
  writeFileSync(path.join(dir, 'rounding.md'), recipe('money-rounding', ''));
  const report = await syncRecipes(ws);
  assert.deepEqual(report.problems, []);
  const g = await knowledgeGraph(ws, recipeEdgeSource(ws));
  assert.deepEqual(
    g.neighbours('recipe:money-format', 'out').map((n) => `${n.relation} ${n.node}`),
    ['depends_on recipe:money-rounding', 'applies_to target:CoreKit', 'references file:Sources/CoreKit/Money.swift'],
  );
  assert.deepEqual(g.impact('recipe:money-rounding').map((i) => i.node), ['recipe:money-format']);
});

test('graph tools on a real project: neighbours, impact with direct and transitive dependents, path, stats', async () => {
  const ws = await fixtureWorkspace('swift');
  const q = await catalog.invoke(ws, 'graph_query', { node: 'Networking' }, agent);
  assert.ok(q.ok, JSON.stringify(q));
  assert.deepEqual(dataOf(q).neighbours.map((n: any) => `${n.direction} ${n.node}`), [
    'in target:App',
    'out target:Core',
  ]);
  assert.match(dataOf(q).neighbours[1].evidence, /^Package\.swift:\d+$/);

  const impact = await catalog.invoke(ws, 'graph_impact', { node: 'target:Core' }, agent);
  assert.ok(impact.ok);
  const d = impact.data as any;
  assert.deepEqual(d.counts, { direct: 1, transitive: 2, recipes: 0 });
  assert.deepEqual(d.dependents.map((x: any) => `${x.node}@${x.depth}`), [
    'target:Networking@1',
    'target:App@2',
    'target:AppTests@3',
  ]);

  const shallow = await catalog.invoke(ws, 'graph_impact', { node: 'Core', depth: 1 }, agent);
  assert.equal(dataOf(shallow).dependents.length, 1);

  const p = await catalog.invoke(ws, 'graph_path', { from: 'AppTests', to: 'Core' }, agent);
  assert.deepEqual(dataOf(p).path, ['target:AppTests', 'target:App', 'target:Networking', 'target:Core']);
  const none = await catalog.invoke(ws, 'graph_path', { from: 'Core', to: 'AppTests' }, agent);
  assert.equal(dataOf(none).found, false);
  assert.match(dataOf(none).explanation, /directed: false/);

  const stats = await catalog.invoke(ws, 'graph_stats', {}, agent);
  assert.equal(dataOf(stats).edges, 4);
  assert.deepEqual(dataOf(stats).byKind, { target: 5 });
});

test('graph tools refuse bad input with an actionable error', async () => {
  const ws = await fixtureWorkspace('swift');
  const missing = await catalog.invoke(ws, 'graph_query', { node: 'Netwrking' }, agent);
  assert.equal(missing.ok, false);
  assert.equal(errorOf(missing).code, 'NOT_FOUND');
  assert.match(errorOf(missing).message, /Closest: target:Networking/);
  const deep = await catalog.invoke(ws, 'graph_impact', { node: 'Core', depth: 4 }, agent);
  assert.equal(errorOf(deep).code, 'INVALID_INPUT');
  const far = await catalog.invoke(ws, 'graph_path', { from: 'Core', to: 'App', maxDepth: 6 }, agent);
  assert.equal(errorOf(far).code, 'INVALID_INPUT');
  const aliased = await catalog.invoke(ws, 'graph_query', { id: 'Core', direction: 'in' }, agent);
  assert.ok(aliased.ok);
  const outside = await catalog.invoke(ws, 'graph_query', { node: '../../etc/passwd' }, agent);
  assert.equal(errorOf(outside).code, 'NOT_FOUND');
});

test('a target or file with no edge yet is a node with no neighbours, not an error', async () => {
  const ws = await fixtureWorkspace('swift');
  assert.deepEqual(
    dataOf(await catalog.invoke(ws, 'graph_query', { node: 'Core', direction: 'out' }, agent)).neighbours,
    [],
  );
  const file = dataOf(await catalog.invoke(ws, 'graph_impact', { node: './Sources/Core/Money.swift' }, agent));
  assert.equal(file.node, 'file:Sources/Core/Money.swift');
  assert.deepEqual(file.dependents, []);
  const same = dataOf(await catalog.invoke(ws, 'graph_path', { from: 'Core', to: 'target:Core' }, agent));
  assert.deepEqual(same.path, ['target:Core']);
});
