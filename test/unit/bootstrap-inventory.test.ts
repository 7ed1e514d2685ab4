// Inventory hygiene: what the cold start counts as the product. One fixture per construct under
// test/fixtures/inventory.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { bootstrapKnowledge } from '../../src/core/domains/bootstrap';
import { EdgeIndex } from '../../src/core/domains/graph/algorithms';
import { listCandidates } from '../../src/core/domains/knowledge';
import { discoverStructure, structureEdges } from '../../src/core/domains/structure';
import { declaredKinds, walkWorkspace } from '../../src/core/ground/files';
import { Workspace } from '../../src/core/ground/workspace';
import { closeWorkspaces } from './structure-helpers';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'inventory');
const workspaces: Workspace[] = [];
after(async () => {
  for (const ws of workspaces.splice(0)) await ws.dispose();
  await closeWorkspaces();
});

async function structureOf(name: string) {
  const root = path.join(FIXTURES, name);
  return discoverStructure(root, (await walkWorkspace(root)).files);
}

async function profileOf(name: string): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `as-inventory-${name}-`));
  cpSync(path.join(FIXTURES, name), dir, { recursive: true });
  const ws = await Workspace.open(dir);
  workspaces.push(ws);
  await bootstrapKnowledge(ws, {}, { actor: 'human' });
  const profile = listCandidates(ws, { status: 'any' }).find((c) => c.tags?.includes('project-profile'));
  assert.ok(profile, 'a project profile');
  return [profile.title, profile.summary, profile.usageGuide, profile.code, ...profile.reasoning.sources].join('\n');
}

test('a devDependency back onto a package that depends on it is a development edge, not a product cycle', async () => {
  const s = await structureOf('dev-dependency-back-edge');
  const edges = structureEdges(s.targets);
  const byPair = new Map(edges.map((e) => [`${e.from} -> ${e.to}`, e.relation]));
  assert.equal(byPair.get('target:@fx/testkit -> target:@fx/core'), 'depends_on');
  assert.equal(byPair.get('target:@fx/core -> target:@fx/testkit'), 'dev_depends_on');
  const stats = new EdgeIndex(edges).stats();
  assert.deepEqual(stats.cycles, [], 'no cycle is invented from a development edge');
  assert.deepEqual(
    stats.mostDependedOn.map((m) => m.node),
    ['target:@fx/core'],
    'product rankings count product edges only',
  );
});

test('a private package that declares what importers get (exports) is a library; private only keeps it off the registry', async () => {
  const s = await structureOf('private-package-with-exports');
  assert.deepEqual(s.targets.map((t) => [t.name, t.kind]), [['fx-lib', 'library']]);
});

test('a published package (version and entry point, not private) is a library whatever its folder or name says', async () => {
  const s = await structureOf('published-package-named-test');
  const kinds = Object.fromEntries(s.targets.map((t) => [t.name, t.kind]));
  assert.equal(kinds['@fx/test'], 'library');
  assert.equal(kinds['@fx/app'], 'library');
});

test('a crate whose [lib] declares crate types publishes a library, even beside a binary of its name', async () => {
  const s = await structureOf('crate-type-cdylib-with-named-bin');
  assert.deepEqual(s.targets.map((t) => [t.name, t.kind]), [['fxcrate', 'library']]);
});

test('a submodule path is vendored and linguist-generated / linguist-vendored attributes apply as git applies them', () => {
  const fixture = declaredKinds(path.join(FIXTURES, 'declared-vendored-code'));
  assert.equal(fixture.kindOf('native/miniz/miniz_part1.c'), 'vendored');
  assert.equal(fixture.kindOf('lib/parser/rules1.js'), 'generated');
  assert.equal(fixture.kindOf('src/index.js'), undefined);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'as-attributes-'));
  writeFileSync(
    path.join(dir, '.gitattributes'),
    'deps/** linguist-vendored\ndeps/ours/** -linguist-vendored\n*.pb.js linguist-generated=true\n',
  );
  const attrs = declaredKinds(dir);
  assert.equal(attrs.kindOf('deps/zlib/inflate.c'), 'vendored');
  assert.equal(attrs.kindOf('deps/ours/glue.c'), undefined, 'a later line unsets it');
  assert.equal(attrs.kindOf('src/api/user.pb.js'), 'generated', 'a pattern without a slash matches at any depth');
});

test('code the repository declares vendored (a submodule) or generated (.gitattributes linguist-*) stays out of the profile', async () => {
  const profile = await profileOf('declared-vendored-code');
  assert.match(profile, /JavaScript 100 %|javascript 100 %/i, profile);
  assert.doesNotMatch(profile, /\bC \d+ %|native\/miniz|lib\/parser/, profile);
});

test("a documented command is the project's only when a file of the repository defines what it runs", async () => {
  const profile = await profileOf('unrun-documented-commands');
  assert.match(profile, /npm test/);
  assert.match(profile, /npm run lint/);
  for (const stale of ['test:unit', 'make docs', 'release.sh']) {
    assert.ok(!profile.includes(stale), `${stale} is not run by any file:\n${profile}`);
  }
});
