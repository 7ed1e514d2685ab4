// add_graph_edge: an agent records a relation the manifests and the scan cannot see (a runtime call, a
// convention), and graph_query, graph_impact and graph_path follow it from then on.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createCatalog } from '../../src/core/catalog';
import { agent, closeWorkspaces, dataOf, errorOf, fixtureWorkspace, human } from './structure-helpers';

after(closeWorkspaces);
const catalog = createCatalog();

test('add_graph_edge records an edge an agent proposes; graph_query and graph_impact follow it, with its evidence', async () => {
  assert.equal(catalog.get('add_graph_edge')?.access, 'propose');
  const ws = await fixtureWorkspace('gradle');
  const added = await catalog.invoke(ws, 'add_graph_edge', {
    from: ':core:model',
    to: 'app/src/main/kotlin/shop/MainActivity.kt',
    relation: 'calledBy',
    evidence: 'app/src/main/kotlin/shop/MainActivity.kt:3',
  }, agent);
  assert.ok(added.ok, JSON.stringify(added));
  assert.deepEqual(dataOf(added), {
    from: 'target::core:model',
    to: 'file:app/src/main/kotlin/shop/MainActivity.kt',
    relation: 'called_by',
    weight: 1,
    evidence: 'app/src/main/kotlin/shop/MainActivity.kt:3',
    created: true,
  });

  const out = dataOf(
    await catalog.invoke(ws, 'graph_query', { node: ':core:model', direction: 'out', relation: 'called-by' }, agent),
  );
  assert.deepEqual(out.neighbours.map((n: { node: string; evidence?: string }) => [n.node, n.evidence]), [[
    'file:app/src/main/kotlin/shop/MainActivity.kt',
    'app/src/main/kotlin/shop/MainActivity.kt:3',
  ]]);
  const impact = dataOf(
    await catalog.invoke(ws, 'graph_impact', { node: 'file:app/src/main/kotlin/shop/MainActivity.kt' }, agent),
  );
  assert.ok(
    impact.dependents.some((d: { node: string }) => d.node === 'target::core:model'),
    JSON.stringify(impact.dependents),
  );

  // The same edge again changes nothing and says so; a new weight or evidence updates it.
  const again = await catalog.invoke(ws, 'add_graph_edge', {
    from: 'target::core:model',
    to: 'file:app/src/main/kotlin/shop/MainActivity.kt',
    relation: 'called_by',
    weight: 2,
  }, agent);
  assert.equal(dataOf(again).created, false);
  assert.equal(dataOf(again).weight, 2);
  assert.equal(dataOf(again).evidence, 'app/src/main/kotlin/shop/MainActivity.kt:3', 'evidence given before is kept');

  const audit = dataOf(await catalog.invoke(ws, 'query_audit_log', { action: 'add_graph_edge' }, human));
  assert.deepEqual(audit.entries.map((e: { actor: string; decision: string }) => [e.actor, e.decision]), [
    ['external_agent', 'allowed'],
    ['external_agent', 'allowed'],
  ]);
});

test('add_graph_edge refuses a node that does not exist, an edge to itself and an empty relation, and writes nothing', async () => {
  const ws = await fixtureWorkspace('gradle');
  const missing = await catalog.invoke(ws, 'add_graph_edge', {
    from: ':app',
    to: 'file:src/nowhere.kt',
    relation: 'uses',
  }, agent);
  assert.equal(errorOf(missing).code, 'NOT_FOUND');
  assert.equal(errorOf(missing).details?.field, 'to');
  const loop = await catalog.invoke(ws, 'add_graph_edge', { from: ':app', to: 'target::app', relation: 'uses' }, agent);
  assert.equal(errorOf(loop).code, 'INVALID_INPUT');
  const blank = await catalog.invoke(ws, 'add_graph_edge', { from: ':app', to: ':core:data', relation: '--' }, agent);
  assert.equal(errorOf(blank).code, 'INVALID_INPUT');
  const stats = dataOf(await catalog.invoke(ws, 'graph_stats', {}, agent));
  assert.equal(stats.byRelation.uses, undefined);
});
