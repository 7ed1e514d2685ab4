// The project map on excerpts of real repositories (test/fixtures/real, each with its licence and
// commit): every gap found by running the structure reader on them has a test here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { discoverStructure, listWorkspaceFiles, type ProjectStructure } from '../../src/core/structure';
import { assertEvidence, target } from './structure-helpers';

export const REAL_FIXTURES = path.join(__dirname, '..', 'fixtures', 'real');

async function discoverReal(name: string): Promise<ProjectStructure> {
  const root = path.join(REAL_FIXTURES, name);
  const listing = await listWorkspaceFiles(root);
  return discoverStructure(root, listing.files);
}

const edges = (s: ProjectStructure, from: string) =>
  target(s, from)
    .dependencies.filter((d) => d.target)
    .map((d) => `${d.target} (${d.scope})`)
    .sort();

test('trpc: pnpm globs over dot-folders (examples/.test/*, examples/.experimental/*) find their packages', async () => {
  const s = await discoverReal('trpc');
  const dirs = s.targets.map((t) => t.dir).sort();
  assert.ok(dirs.includes('examples/.test/ssg'), dirs.join(', '));
  assert.ok(dirs.includes('examples/.test/monotest-api'));
  assert.ok(dirs.includes('examples/.experimental/next-app-dir'));
  assert.deepEqual(edges(s, 'examples-test-ssg'), ['@trpc/client (prod)', '@trpc/server (prod)']);
  assert.equal(s.targets.length, 11, 'every package.json but the root one');
});

test('trpc: a package is a library when it has an entry point, whatever its bin; a CLI, a site and test packages are not', async () => {
  const s = await discoverReal('trpc');
  assert.equal(target(s, '@trpc/client').kind, 'library', 'bin beside main/exports: still a library');
  assert.equal(target(s, '@trpc/server').kind, 'library');
  assert.equal(target(s, '@trpc/upgrade').kind, 'app', 'a bin and only sub-path exports: the codemod CLI');
  assert.equal(target(s, '@trpc/tests').kind, 'test');
  assert.equal(target(s, 'examples-test-ssg').kind, 'test', 'under examples/.test');
  assert.equal(target(s, 'www').kind, 'app', 'a private Docusaurus site is an app, not a library');
  assert.equal(target(s, '@www/og-image').kind, 'app');
  assert.equal(target(s, 'examples-minimal-react-client').kind, 'app');
  assertEvidence(path.join(REAL_FIXTURES, 'trpc'), target(s, '@trpc/client').dependencies.find((d) => d.scope === 'peer')?.evidence, '"@trpc/server"');
});
