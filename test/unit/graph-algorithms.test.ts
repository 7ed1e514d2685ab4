import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EdgeIndex, MAX_IMPACT_DEPTH, MAX_PATH_DEPTH } from '../../src/core/domains/graph/algorithms';
import { isDependencyRelation, nodeKey, normalizeRelation, parseNodeKey } from '../../src/core/domains/graph/relations';
import type { GraphEdge } from '../../src/core/domains/graph/types';

const dep = (from: string, to: string, relation = 'depends_on', evidence?: string): GraphEdge => ({
  from: `target:${from}`,
  to: `target:${to}`,
  relation,
  weight: 1,
  ...(evidence ? { evidence } : {}),
});
const T = (n: string) => `target:${n}`;

test('relation names are normalised: camelCase, kebab, spaces, case and synonyms meet', () => {
  for (const r of [
    'dependsOn',
    'depends-on',
    'depends_on',
    'DependsOn',
    'DEPENDS_ON',
    'depends on',
    ' depends-on ',
    'requires',
    'dependency',
  ]) assert.equal(normalizeRelation(r), 'depends_on', r);
  assert.equal(normalizeRelation('related'), 'related_to');
  assert.equal(normalizeRelation('relatedTo'), 'related_to');
  assert.equal(normalizeRelation('conflicts'), 'conflicts_with');
  assert.equal(normalizeRelation('usesAPIClient'), 'uses_api_client');
  assert.equal(normalizeRelation('extends'), 'extends');
  assert.equal(isDependencyRelation('depends_on'), true);
  assert.equal(isDependencyRelation('related_to'), false);
  assert.equal(nodeKey('file', './src\\a.ts'), 'file:src/a.ts');
  assert.deepEqual(parseNodeKey('target::core:data'), { kind: 'target', id: ':core:data' });
  assert.deepEqual(parseNodeKey('Plain'), { kind: undefined, id: 'Plain' });
});

test('neighbours: out, in, both and a relation filter; duplicates merge keeping the highest weight', () => {
  const g = new EdgeIndex([
    dep('App', 'Core'),
    dep('App', 'Net'),
    dep('Net', 'Core'),
    { ...dep('App', 'Core'), weight: 3 },
    dep('App', 'Core', 'uses'),
    dep('Core', 'Core'),
  ]);
  assert.deepEqual(g.neighbours(T('App'), 'out').map((n) => `${n.node}:${n.relation}:${n.weight}`), [
    'target:Core:depends_on:3',
    'target:Core:uses:1',
    'target:Net:depends_on:1',
  ]);
  assert.deepEqual(g.neighbours(T('Core'), 'in').map((n) => n.node), ['target:App', 'target:App', 'target:Net']);
  assert.deepEqual(g.neighbours(T('Core'), 'in', 'uses').map((n) => n.node), ['target:App']);
  assert.equal(g.neighbours(T('Net')).length, 2);
  assert.equal(g.edgeCount, 4, 'the self-loop is dropped and the duplicate merged');
});

test('impact: dependents breadth-first, each at its shortest depth with the chain, bounded at depth 3', () => {
  // A → B → C → D → E, and X → C: what depends on E?
  const g = new EdgeIndex([
    dep('A', 'B'),
    dep('B', 'C'),
    dep('C', 'D'),
    dep('D', 'E'),
    dep('X', 'C'),
    dep('Y', 'E', 'related_to'),
  ]);
  const impact = g.impact(T('E'));
  assert.deepEqual(impact.map((i) => `${i.node}@${i.depth}`), ['target:D@1', 'target:C@2', 'target:B@3', 'target:X@3']);
  assert.deepEqual(impact.find((i) => i.node === T('B'))?.via, [T('B'), T('C'), T('D'), T('E')]);
  assert.ok(!impact.some((i) => i.node === T('A')), 'A is 4 hops away: beyond the bound');
  assert.ok(!impact.some((i) => i.node === T('Y')), 'related_to is not a dependency');
  assert.deepEqual(g.impact(T('E'), 1).map((i) => i.node), [T('D')]);
  assert.equal(g.impact(T('E'), 99).length, 4, `depth is capped at ${MAX_IMPACT_DEPTH}`);
  assert.deepEqual(g.impact(T('E'), 3, ['related_to']).map((i) => i.node), [T('Y')]);
  assert.deepEqual(g.impact(T('A')), []);
});

test('impact terminates on cycles and lists every node once', () => {
  const g = new EdgeIndex([dep('A', 'B'), dep('B', 'C'), dep('C', 'A')]);
  assert.deepEqual(g.impact(T('A')).map((i) => i.node), [T('C'), T('B')]);
});

test('path: the shortest chain, with relation and evidence per step; at most 5 edges; none when unreachable', () => {
  const g = new EdgeIndex([
    dep('A', 'B', 'depends_on', 'Package.swift:10'),
    dep('B', 'C'),
    dep('C', 'D'),
    dep('A', 'D', 'uses', 'a.ts:3'),
    dep('D', 'E'),
    dep('E', 'F'),
    dep('F', 'G'),
    dep('G', 'H'),
    dep('H', 'I'),
    dep('Z', 'A'),
  ]);
  const short = g.path(T('A'), T('D'))!;
  assert.deepEqual(short.map((s) => `${s.from}->${s.to}:${s.relation}`), ['target:A->target:D:uses']);
  assert.equal(short[0].evidence, 'a.ts:3');
  assert.equal(g.path(T('A'), T('H'))!.length, 5, 'A→D→E→F→G→H is 5 edges: found');
  assert.equal(g.path(T('A'), T('I')), undefined, 'A→…→I needs 6 edges: beyond the bound');
  assert.equal(g.path(T('A'), T('I'), 99), undefined, `maxDepth is capped at ${MAX_PATH_DEPTH}`);
  assert.equal(g.path(T('A'), T('H'), 4), undefined);
  assert.equal(g.path(T('D'), T('A')), undefined, 'edges are followed in their direction');
  const back = g.path(T('D'), T('Z'), 5, false)!;
  assert.deepEqual(back.map((s) => `${s.to}:${s.direction}`), ['target:A:backward', 'target:Z:backward']);
  assert.deepEqual(g.path(T('A'), T('A')), []);
});

test('stats: counts by kind and relation, rankings, components and cycles', () => {
  const g = new EdgeIndex([
    dep('App', 'Core'),
    dep('Net', 'Core'),
    dep('App', 'Net'),
    { from: 'recipe:money', to: T('Core'), relation: 'applies_to', weight: 1 },
    { from: 'file:src/a.ts', to: 'file:src/b.ts', relation: 'imports', weight: 1 },
    dep('P', 'Q'),
    dep('Q', 'P'),
    { from: 'recipe:a', to: 'recipe:b', relation: 'related_to', weight: 1 },
  ]);
  const s = g.stats(2);
  assert.equal(s.nodes, 10);
  assert.equal(s.edges, 8);
  assert.deepEqual(s.byKind, { target: 5, file: 2, recipe: 3 });
  assert.deepEqual(s.byRelation, { depends_on: 5, applies_to: 1, imports: 1, related_to: 1 });
  assert.deepEqual(s.mostDependedOn[0], { node: T('Core'), dependents: 3 });
  assert.equal(s.mostDependedOn.length, 2);
  assert.equal(s.components, 4);
  assert.deepEqual(s.cycles, [[T('P'), T('Q'), T('P')]]);
});

test("membership: a file change reaches the target that contains it and that target's dependents; rankings ignore it", () => {
  const g = new EdgeIndex([
    dep('App', 'Core'),
    { from: T('Core'), to: 'file:core/a.ts', relation: 'contains', weight: 0.5 },
    { from: T('Core'), to: 'file:core/b.ts', relation: 'contains', weight: 0.5 },
    { from: 'file:core/b.ts', to: 'file:core/a.ts', relation: 'imports', weight: 1 },
  ]);
  assert.deepEqual(g.impact('file:core/a.ts').map((i) => `${i.node}@${i.depth}`), [
    'file:core/b.ts@1',
    'target:Core@1',
    'target:App@2',
  ]);
  const s = g.stats();
  assert.deepEqual(
    s.mostDependencies.map((x) => `${x.node}:${x.dependencies}`),
    ['file:core/b.ts:1', 'target:App:1'],
    'Core containing two files does not make it depend on them',
  );
  assert.deepEqual(g.path(T('App'), 'file:core/a.ts')!.map((x) => x.relation), ['depends_on', 'contains']);
});

test('resolve: full keys, bare names tried as each kind, case-insensitive fallback, ambiguity reported', () => {
  const g = new EdgeIndex([dep('CoreKit', 'Net'), {
    from: 'recipe:Net',
    to: 'file:src/app.ts',
    relation: 'references',
    weight: 1,
  }]);
  assert.deepEqual(g.resolve('target:CoreKit'), { ok: true, key: T('CoreKit') });
  assert.deepEqual(g.resolve('CoreKit'), { ok: true, key: T('CoreKit') });
  assert.deepEqual(g.resolve('corekit'), { ok: true, key: T('CoreKit') });
  assert.deepEqual(g.resolve('./src/app.ts'), { ok: true, key: 'file:src/app.ts' });
  assert.deepEqual(g.resolve('Net'), { ok: false, ambiguous: ['recipe:Net', 'target:Net'] });
  assert.deepEqual(g.resolve('Nope'), { ok: false, missing: true });
});

test('a 10,000-edge graph answers impact and path quickly', () => {
  const edges: GraphEdge[] = [];
  for (let i = 0; i < 10_000; i++) edges.push(dep(`m${i}`, `m${Math.floor(i / 3)}`));
  const g = new EdgeIndex(edges);
  const t0 = performance.now();
  for (let i = 0; i < 100; i++) {
    g.impact(T('m0'));
    g.path(T(`m${9999 - i}`), T('m1'));
  }
  assert.ok(performance.now() - t0 < 2000, 'well under 20 ms per impact + path');
});
