// The cold start on excerpts of real repositories (test/fixtures/real, each with its licence and
// commit): every wrong or useless candidate a blind reviewer found on them has a test here.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bootstrapKnowledge } from '../../src/core/bootstrap';
import { listCandidates, type Candidate } from '../../src/core/knowledge';
import { Workspace } from '../../src/core/workspace';

const REAL = path.join(__dirname, '..', 'fixtures', 'real');
const opened: { ws: Workspace; dir: string }[] = [];
after(async () => {
  for (const { ws, dir } of opened.splice(0)) {
    await ws.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});

async function coldStart(name: string): Promise<{ ws: Workspace; candidates: Candidate[]; titles: string[] }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `as-real-${name}-`));
  cpSync(path.join(REAL, name), dir, { recursive: true });
  const ws = await Workspace.open(dir);
  opened.push({ ws, dir });
  await bootstrapKnowledge(ws, {}, { actor: 'human' });
  const candidates = listCandidates(ws, { status: 'any' });
  return { ws, candidates, titles: candidates.map((c) => c.title) };
}

const lineAt = (ws: Workspace, source: string) => {
  const [, file, line] = /^(.+):(\d+)$/.exec(source)!;
  return readFileSync(path.join(ws.root, file), 'utf8').split('\n')[Number(line) - 1];
};

function every(candidates: Candidate[], ws: Workspace) {
  for (const c of candidates) {
    assert.ok(c.title.length <= 100, c.title);
    assert.ok(c.summary.length <= 300, c.summary);
    assert.equal(c.createdBy, 'system');
    for (const s of c.reasoning.sources) assert.ok(lineAt(ws, s) !== undefined, `${c.title}: ${s} is not a line of the file`);
  }
}

test('trpc: packages that import each other by name are not "independent"; no RxJS or React-context claim from tRPC\'s own observable and createContext; the internal isObject() helper is found through the package import', async () => {
  const { ws, candidates, titles } = await coldStart('trpc');
  every(candidates, ws);
  assert.ok(!titles.some((t) => /Folders under `packages` do not import each other/.test(t)), titles.join('\n'));
  assert.ok(!titles.some((t) => /RxJS|React context/.test(t)), titles.join('\n'));
  const helper = candidates.find((c) => /`isObject\(\)`/.test(c.title));
  assert.ok(helper, titles.join('\n'));
  assert.match(helper.title, /^Reuse the internal `isObject\(\)`/);
  assert.ok(helper.reasoning.sources.some((s) => s.startsWith('packages/client/src/TRPCClientError.ts:') && lineAt(ws, s).includes('isObject(')), 'the client imports it from @trpc/server/unstable-core-do-not-import');
  assert.ok(!titles.some((t) => /examples?-|examples\//.test(t)), 'nothing from the example apps');
});

test('ripgrep: enum variants (WalkEvent::File, PatternSource::File) are not uses of a type File; a file maintained by hand is not "generated"; a `fn main` in a string is not an entry point', async () => {
  const { ws, candidates, titles } = await coldStart('ripgrep');
  every(candidates, ws);
  assert.ok(!titles.some((t) => /`File`|`Bytes`|`Candidate`/.test(t)), titles.join('\n'));
  assert.ok(!titles.some((t) => /Generated files/.test(t)), 'zsh.rs says its completions are maintained by hand');
  const entry = candidates.find((c) => /^Entry point/.test(c.title));
  assert.ok(entry, titles.join('\n'));
  assert.deepEqual(entry.reasoning.sources.map((s) => s.split(':')[0]), ['crates/core/main.rs']);
  const fmt = candidates.find((c) => /rustfmt/.test(c.title));
  assert.ok(fmt && /max_width = 79/.test(fmt.summary), 'the project\'s rustfmt.toml settings, not "4-space indentation"');
  assert.ok(!titles.some((t) => /snake_case|4-space|naming/.test(t)), 'rustc and rustfmt defaults are not project knowledge');
});

test('httpx: sync and async APIs side by side, not "I/O is asynchronous"; ruff format found, not "no formatter"; request() methods are not uses of _api.request()', async () => {
  const { ws, candidates, titles } = await coldStart('httpx');
  every(candidates, ws);
  assert.ok(!titles.some((t) => /asynchronous/.test(t)), titles.join('\n'));
  const twins = candidates.find((c) => /Sync and async APIs are kept in pairs/.test(c.title));
  assert.ok(twins, titles.join('\n'));
  assert.match(twins.summary, /Client \/ AsyncClient/);
  const fmt = candidates.find((c) => /formatting is enforced by ruff/.test(c.title));
  assert.ok(fmt, titles.join('\n'));
  assert.match(fmt.title, /run `scripts\/lint`/, 'the script that formats, not the one that only checks');
  assert.ok(!candidates.some((c) => /No formatter configuration/.test(c.summary)));
  assert.ok(!titles.some((t) => /`request\(\)`|`Response`/.test(t)), 'public API and name clashes are not helpers');
  const helper = candidates.find((c) => /primitive_value_to_str/.test(c.title));
  assert.ok(helper, titles.join('\n'));
  assert.ok(helper.reasoning.sources.slice(1).every((s) => lineAt(ws, s).includes('primitive_value_to_str(')));
});

test('cobra: gofmt/goimports enforced by golangci-lint, not "no formatter"; public getters of Command are not helpers; no generic Go conventions', async () => {
  const { ws, candidates, titles } = await coldStart('cobra');
  every(candidates, ws);
  const fmt = candidates.find((c) => /golangci-lint/.test(c.title));
  assert.ok(fmt, titles.join('\n'));
  assert.ok(fmt.reasoning.sources.includes('.golangci.yml:9'), fmt.reasoning.sources.join(', '));
  assert.ok(!titles.some((t) => /`(Commands|Name|HasParent|CommandPath|IsAvailableCommand)\(\)`/.test(t)), titles.join('\n'));
  assert.ok(!titles.some((t) => /snake_case|defer|tab indentation/.test(t)), titles.join('\n'));
  const header = candidates.find((c) => /license header/.test(c.title));
  assert.match(header?.code ?? '', /Copyright 2013-2023 The Cobra Authors/);
});

test('Alamofire: Swift 5 language mode is not strict concurrency; the ExistentialAny setting is; no SwiftUI claim from the watchOS example; the internal Protected helper with its purpose', async () => {
  const { ws, candidates, titles } = await coldStart('alamofire');
  every(candidates, ws);
  assert.ok(!titles.some((t) => /strict concurrency|complete concurrency/i.test(t)), titles.join('\n'));
  assert.ok(titles.includes('The package turns on Swift feature `ExistentialAny`'), titles.join('\n'));
  assert.ok(!titles.some((t) => /SwiftUI/.test(t)));
  assert.ok(!candidates.some((c) => c.reasoning.sources.some((s) => s.startsWith('watchOS Example/'))), 'nothing from the example app');
  const helper = candidates.find((c) => /`Protected`/.test(c.title));
  assert.equal(helper?.title, 'Reuse the internal `Protected`: a thread-safe wrapper around a value');
  const header = candidates.find((c) => /license header/.test(c.title));
  assert.ok(header && !/swift-tools-version/.test(header.code ?? ''), 'the header of a source file, not of Package.swift');
  assert.ok(!titles.some((t) => /PascalCase|camelCase|4-space|\[weak self\]|defer/.test(t)), titles.join('\n'));
});

test('SDWebImage: a category on UIColor is not a project type; demo apps are not entry points; blocks capture self with the project\'s own macros', async () => {
  const { ws, candidates, titles } = await coldStart('sdwebimage');
  every(candidates, ws);
  assert.ok(!titles.some((t) => /UIColor/.test(t)), titles.join('\n'));
  assert.ok(!titles.some((t) => /Entry point/.test(t)), titles.join('\n'));
  const weak = candidates.find((c) => /@weakify/.test(c.title));
  assert.ok(weak, titles.join('\n'));
  assert.equal(weak.reasoning.sources[0], 'SDWebImage/Private/SDInternalMacros.h:90', 'cites the macro the project defines');
  assert.ok(!titles.some((t) => /Swift file names|Swift code uses/.test(t)), 'Package.swift is a build file, not Swift code');
});

test('okhttp: nothing mined from samples, testing support or the Maven test project; the header is cited from the library', async () => {
  const { ws, candidates, titles } = await coldStart('okhttp');
  every(candidates, ws);
  for (const c of candidates) {
    for (const s of c.reasoning.sources) assert.ok(!/^(samples|okhttp-testing-support|maven-tests|module-tests)\//.test(s) || c.knowledgeType === 'project-profile' || c.knowledgeType === 'module-dependency', `${c.title}: ${s}`);
  }
  assert.ok(!titles.some((t) => /Catch specific|\.use \{|try-with-resources|naming/.test(t)), titles.join('\n'));
  const header = candidates.find((c) => /Kotlin source files start with/.test(c.title));
  assert.ok(header, titles.join('\n'));
  assert.ok(header.reasoning.sources.every((s) => /^(okhttp|okcurl|mockwebserver)[/-]/.test(s)), header.reasoning.sources.join(', '));
});
