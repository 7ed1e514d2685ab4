// The repository-level detectors (API checks, version floors, changelogs, deprecations, shared test
// setup, contributor rules): one fixture per construct under test/fixtures/detectors.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { bootstrapKnowledge } from '../../src/core/domains/bootstrap';
import { listCandidates } from '../../src/core/domains/knowledge';
import { Workspace } from '../../src/core/ground/workspace';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'detectors');
const workspaces: Workspace[] = [];
after(async () => {
  for (const ws of workspaces.splice(0)) await ws.dispose();
});

async function cardsOf(name: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `as-detectors-${name}-`));
  cpSync(path.join(FIXTURES, name), dir, { recursive: true });
  const ws = await Workspace.open(dir);
  workspaces.push(ws);
  await bootstrapKnowledge(ws, {}, { actor: 'human' });
  return listCandidates(ws, { status: 'any' });
}

const find = (cards: Awaited<ReturnType<typeof cardsOf>>, title: RegExp) => {
  const c = cards.find((x) => title.test(x.title));
  assert.ok(c, `no card ${title} among:\n${cards.map((x) => x.title).join('\n')}`);
  return c;
};

test('an API dump committed beside the code and checked in CI is a compatibility rule with the command that updates it', async () => {
  const c = find(
    await cardsOf('api-dump-checked-in-ci'),
    /Public API changes are checked by Kotlin binary-compatibility-validator/,
  );
  assert.match(c.summary, /CI runs `\.\/gradlew apiCheck`/);
  assert.match(c.summary, /`\.\/gradlew apiDump`/);
  assert.match(c.summary, /api\//);
  assert.doesNotMatch(c.summary, /\b\d+ (files|of)\b/, 'a rule, not a count');
  assert.ok(c.reasoning.sources.some((s) => s.startsWith('.github/workflows/ci.yml:')), c.reasoning.sources.join());
});

test('a pinned oldest language version CI builds with is a rule; a pin CI does not check stays a profile fact', async () => {
  const c = find(await cardsOf('pinned-floor-tested-in-ci'), /New code must build on Python 3\.9/);
  assert.deepEqual(c.reasoning.sources.slice(0, 1), ['pyproject.toml:4']);
  assert.ok(c.reasoning.sources.some((s) => s.startsWith('.github/workflows/test.yml:')));
  const untested = await cardsOf('pinned-floor-untested');
  assert.equal(untested.filter((x) => /must build on/.test(x.title)).length, 0);
});

test('a Keep a Changelog file with an Unreleased heading says where an entry goes, in which section, ending how', async () => {
  const c = find(await cardsOf('keep-a-changelog-unreleased'), /adds a bullet under `\[Unreleased\]` in CHANGELOG\.md/);
  assert.match(c.summary, /Added and Fixed/);
  assert.match(c.summary, /pull request number/);
  assert.match(c.summary, /Keep a Changelog/);
  assert.deepEqual(c.reasoning.sources, ['CHANGELOG.md:5']);
  // No contributor guide says which changes need no entry, so the card does not say it either.
  assert.doesNotMatch(c.summary, /no entry/);
});

test('changeset fragments replace editing the changelog by hand', async () => {
  const c = find(await cardsOf('changeset-fragments'), /recorded with Changesets/);
  assert.match(c.summary, /\.changeset\//);
  assert.match(c.summary, /do not edit it by hand/);
});

test("Go's `// Deprecated:` comments naming the replacement, kept in a file of their own, are the deprecation rule", async () => {
  const c = find(await cardsOf('go-deprecated-comment-in-own-file'), /retired with the `\/\/ Deprecated:` doc comment/);
  assert.match(c.summary, /names the replacement/);
  assert.match(c.summary, /moved to `deprecated\.go`/);
  // No fact shows when a release removes them: the card does not say it.
  assert.doesNotMatch(c.summary, /major release|beside their replacement/);
  assert.match(c.code ?? '', /Deprecated: Use Handle instead\.\nfunc \(r \*Router\) Bind/);
  assert.equal(c.language, 'go');
});

test("a conftest fixture most test files ask for is the tests' shared setup, with the folder that does without it", async () => {
  const c = find(await cardsOf('conftest-fixture-shared'), /Tests get their subject from the `server` fixture/);
  assert.match(c.summary, /from tests\/conftest\.py/);
  assert.match(c.summary, /exception is `tests\/units\/`/);
  assert.match(c.code ?? '', /def server\(\):/);
  assert.equal(c.reasoning.sources[0], 'tests/conftest.py:7');
  assert.ok(c.reasoning.sources.slice(1).every((s) => /^tests\/test_\w+\.py:1$/.test(s)), c.reasoning.sources.join());
});

test('contributor rules on commits, tests and the pre-PR command come first; generic git steps and commands no file runs are left out', async () => {
  const c = find(await cardsOf('contributing-conventional-commits'), /^Before a pull request:/);
  assert.match(c.summary, /^Commit messages follow Conventional Commits/);
  assert.match(c.summary, /add a failing test first/);
  assert.match(c.summary, /Run `make check` before opening a pull request/);
  assert.doesNotMatch(c.summary, /make lint-all/, 'the Makefile defines no lint-all: the guide outlived it');
  assert.doesNotMatch(c.summary, /Fork the repository|Stage your changes/);
});

test("a standard module every test imports (Go's `testing`) is not the project's shared setup", async () => {
  const cards = await cardsOf('go-tests-import-standard-testing');
  assert.deepEqual(cards.filter((c) => c.tags?.includes('testing')).map((c) => c.title), []);
});

test('a helper module of the project that most test files import is their shared setup', async () => {
  const c = find(
    await cardsOf('helper-module-imported-by-tests'),
    /^Tests (import their setup from|reuse the shared helper)/,
  );
  assert.match(c.title, /helpers\/server|startServer/);
  assert.ok(c.reasoning.sources.some((s) => /^test\/\w+\.test\.ts:[2-5]$/.test(s)), c.reasoning.sources.join());
});

test("CI that takes its toolchain from the manifest's rust-version builds with the floor: the pin is a rule", async () => {
  const c = find(await cardsOf('msrv-read-from-manifest-in-ci'), /New code must build on Rust 1\.74/);
  assert.deepEqual(c.reasoning.sources.slice(0, 1), ['Cargo.toml:5']);
  assert.ok(c.reasoning.sources.some((s) => s.startsWith('.github/workflows/ci.yml:')), c.reasoning.sources.join());
});

test("another package's member (`assert.Error`) is not a use of a test helper of the same name", async () => {
  const cards = await cardsOf('qualified-member-named-like-a-test-helper');
  assert.deepEqual(cards.filter((c) => c.tags?.includes('testing')).map((c) => c.title), []);
});

test('a stand-in declared twice is the one the tests import, and a helper is said as used, not as what it builds', async () => {
  const c = find(await cardsOf('kotlin-stand-in-declared-twice'), /Tests replace real dependencies with `MockServer`/);
  assert.match(c.summary, /server\/src\/main\/kotlin\/server3\/MockServer\.kt/);
  assert.doesNotMatch(c.summary, /legacy\/src/);
  assert.equal(c.reasoning.sources[0], 'server/src/main/kotlin/server3/MockServer.kt:4');
  // The test that imports the other declaration is not counted as a user of this one.
  assert.ok(!c.reasoning.sources.some((s) => s.includes('LegacyTest')), c.reasoning.sources.join());
  assert.equal(c.reasoning.sources.filter((s) => s.includes('/src/test/')).length, 5);
});
