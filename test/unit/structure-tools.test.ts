import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { ToolCatalog } from '../../src/core/catalog/catalog';
import { graphTools } from '../../src/core/catalog/graph';
import { agent, closeWorkspaces, dataOf, errorOf, fixtureWorkspace } from './structure-helpers';

after(closeWorkspaces);
const catalog = new ToolCatalog(graphTools);

test('get_targets lists every target with its internal dependencies, filtered by ecosystem, kind or text', async () => {
  const ws = await fixtureWorkspace('gradle');
  const r = await catalog.invoke(ws, 'get_targets', {}, agent);
  assert.ok(r.ok, JSON.stringify(r));
  const d = r.data as any;
  assert.equal(d.total, 3);
  assert.deepEqual(d.ecosystems, { gradle: 3 });
  assert.deepEqual(d.targets.find((t: any) => t.name === ':app'), {
    name: ':app',
    ecosystem: 'gradle',
    kind: 'app',
    language: 'kotlin',
    manifest: 'app/build.gradle.kts',
    dir: 'app',
    dependsOn: [':core:data'],
    externalDependencies: 1,
  });
  const libs = await catalog.invoke(ws, 'get_targets', { kind: 'library', filter: 'model' }, agent);
  assert.deepEqual(dataOf(libs).targets.map((t: any) => t.name), [':core:model']);
  const none = await catalog.invoke(ws, 'get_targets', { ecosystem: 'swift' }, agent);
  assert.equal(dataOf(none).total, 0);
  const bad = await catalog.invoke(ws, 'get_targets', { ecosystem: 'bazel' }, agent);
  assert.equal(errorOf(bad).code, 'INVALID_INPUT');
});

test('get_target_files pages through a large target; .gitignore and nested targets are respected', async () => {
  const ws = await fixtureWorkspace('npm-workspaces', (dir) => {
    const src = path.join(dir, 'packages', 'core', 'src', 'many');
    mkdirSync(src, { recursive: true });
    for (let i = 0; i < 400; i++) {
      writeFileSync(path.join(src, `module-number-${String(i).padStart(3, '0')}.js`), `export const n${i} = ${i};\n`);
    }
    writeFileSync(path.join(dir, '.gitignore'), 'packages/core/src/many/module-number-0*\n');
  });
  const seen: string[] = [];
  let cursor: number | undefined = 0;
  let pages = 0;
  while (cursor !== undefined) {
    const r = await catalog.invoke(ws, 'get_target_files', { target: '@acme/core', cursor }, agent);
    assert.ok(r.ok, JSON.stringify(r));
    seen.push(...dataOf(r).files);
    cursor = r.truncated?.nextCursor;
    pages++;
  }
  assert.ok(pages > 1, 'the answer is paged');
  assert.equal(seen.length, 300 + 2, '300 numbered modules not ignored, package.json and src/index.js');
  assert.ok(!seen.some((f) => f.includes('module-number-0')), 'ignored files are not listed');
  const js = await catalog.invoke(ws, 'get_target_files', { target: '@acme/core', language: 'json' }, agent);
  assert.deepEqual(dataOf(js).files, ['packages/core/package.json']);
  const missing = await catalog.invoke(ws, 'get_target_files', { target: '@acme/cor' }, agent);
  assert.equal(errorOf(missing).code, 'NOT_FOUND');
  assert.match(errorOf(missing).message, /@acme\/core/);
});

test('get_target_metadata: manifest fields, dependencies with lines, dependents, file count, linked recipes', async () => {
  const ws = await fixtureWorkspace('cargo');
  const r = await catalog.invoke(ws, 'get_target_metadata', { target: 'shop-core' }, agent);
  assert.ok(r.ok, JSON.stringify(r));
  const d = r.data as any;
  assert.equal(d.kind, 'library');
  assert.equal(d.metadata.description, 'Domain types');
  assert.deepEqual(d.dependents, [{ name: 'shop-cli', scope: 'prod', evidence: 'crates/cli/Cargo.toml:11' }]);
  assert.equal(d.files, 2);
  assert.deepEqual(d.recipes, []);
  assert.equal(d.dependencies[0].name, 'serde');
});
