// Issue 14 point 1 and issue 10 item 5 at the workspace's level: reading creates nothing (the CLI's
// read commands included), the first write creates .autosnippet/ and says so, and a database that
// cannot be used is a clear error on the tools that need it while the rest keep working.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { createCatalog } from '../../src/core/catalog';
import { Workspace } from '../../src/core/ground/workspace';
import { cli } from './cli-helpers';

function plainGitRepo(): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'autosnippet-ws-')));
  mkdirSync(path.join(dir, 'src'));
  writeFileSync(path.join(dir, 'src', 'app.ts'), 'export function main(): void {\n  console.log(eval("1 + 1"));\n}\n');
  writeFileSync(path.join(dir, 'package.json'), '{ "name": "plain", "version": "1.0.0" }\n');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: dir, stdio: 'pipe' });
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'init');
  return dir;
}

const gitStatus = (dir: string) =>
  execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: dir, encoding: 'utf8' });

test("the CLI's read commands leave a repository untouched; its first write creates .autosnippet/ and says so", async () => {
  const repo = plainGitRepo();
  for (const args of [
    ['health'],
    ['skills', 'list'],
    ['search', 'main'],
    ['recipes'],
    ['candidates'],
    ['guard', path.join(repo, 'src')],
    ['tools'],
    ['call', 'get_targets'],
    ['call', 'scan_project'],
    ['call', 'graph_stats'],
  ]) {
    const r = await cli(repo, ...args);
    assert.ok(r.code === 0 || (args[0] === 'guard' && r.code === 1), `${args.join(' ')}: exit ${r.code} ${r.stderr}`);
    assert.equal(gitStatus(repo), '', `${args.join(' ')} wrote into the repository`);
  }
  const health = JSON.parse((await cli(repo, 'health')).stdout);
  assert.equal(health.database.status, 'not-created');

  const proposal = {
    title: 'Never eval',
    summary: 'Parse input instead of eval().',
    code: 'JSON.parse(text)',
    language: 'typescript',
    category: 'security',
  };
  const r = await cli(repo, 'call', 'submit_candidate', JSON.stringify(proposal));
  assert.equal(r.code, 0, r.stderr);
  assert.match(JSON.parse(r.stdout).notice, /Created \.autosnippet\/ in .* for this first write/);
  assert.deepEqual(gitStatus(repo).trim().split('\n'), ['?? .autosnippet/.gitignore']);
  // The search index the duplicate check built is saved beside the database for the next process (git-ignored with it).
  assert.deepEqual(readdirSync(path.join(repo, '.autosnippet')).sort(), [
    '.gitignore',
    'audit',
    'autosnippet.db',
    'autosnippet.db.journal',
    'autosnippet.db.search',
    'state',
  ]);
});

test('a workspace opened and read by the catalog creates nothing; compliance and structure answers are kept in memory', async () => {
  const repo = plainGitRepo();
  const ws = await Workspace.open(repo);
  const catalog = createCatalog();
  for (
    const [tool, input] of [
      ['health', {}],
      ['scan_project', {}],
      ['compliance_report', {}],
      ['get_targets', {}],
      ['list_candidates', {}],
      ['context_search', { query: 'eval' }],
    ] as const
  ) {
    const r = await catalog.invoke(ws, tool, input, { actor: 'external_agent', channel: 'test' });
    assert.ok(r.ok, `${tool}: ${JSON.stringify(r)}`);
  }
  const scans = ws.store.all('SELECT id FROM guard_scans');
  assert.equal(scans.length, 1, 'the scan is recorded, in memory, for the next compliance_report');
  await ws.dispose();
  assert.equal(existsSync(path.join(repo, '.autosnippet')), false);
});

test('a database path that is a folder: store tools answer STORE_UNAVAILABLE naming it, skill tools keep working', async () => {
  const repo = plainGitRepo();
  mkdirSync(path.join(repo, '.autosnippet', 'autosnippet.db'), { recursive: true });
  const ws = await Workspace.open(repo);
  const catalog = createCatalog();
  const ctx = { actor: 'human' as const, channel: 'test' as const };
  const health = await catalog.invoke(ws, 'health', {}, ctx);
  assert.ok(!health.ok);
  assert.equal(health.error.code, 'STORE_UNAVAILABLE');
  assert.match(health.error.message, /autosnippet\.db is a folder/);
  assert.match(health.error.hint ?? '', /Move or rename/);
  const write = await catalog.invoke(ws, 'submit_candidate', {
    title: 'x',
    summary: 'y',
    language: 'typescript',
    category: 'c',
  }, ctx);
  assert.ok(!write.ok && write.error.code === 'STORE_UNAVAILABLE', JSON.stringify(write));
  assert.ok((await catalog.invoke(ws, 'list_skills', {}, ctx)).ok, 'skills need no database');
  await ws.dispose();
});

test('.autosnippet as a file: the first write answers STORE_UNAVAILABLE, not INTERNAL', async () => {
  const repo = plainGitRepo();
  writeFileSync(path.join(repo, '.autosnippet'), 'not a folder');
  const ws = await Workspace.open(repo);
  const catalog = createCatalog();
  const r = await catalog.invoke(
    ws,
    'submit_candidate',
    { title: 'x', summary: 'y', language: 'typescript', category: 'c' },
    { actor: 'human', channel: 'test' },
  );
  assert.ok(!r.ok);
  assert.match(r.error.code, /STORE_UNAVAILABLE|GATEWAY_UNAVAILABLE/);
  assert.match(r.error.message, /\.autosnippet is a file/);
  await ws.dispose();
});

test('a database whose image bytes changed is moved aside, said in health, and the recipes are rebuilt from their files', async () => {
  const repo = plainGitRepo();
  const recipe = path.join(repo, '.autosnippet', 'recipes', 'networking', 'get-json.md');
  mkdirSync(path.dirname(recipe), { recursive: true });
  writeFileSync(
    recipe,
    '---\ntitle: Network calls go through getJson\ntrigger: "@getjson"\nlanguage: typescript\ncategory: networking\nknowledgeType: code-pattern\nsummary: Call the network through getJson, never fetch directly.\n---\n\n```ts\nconst users = await getJson<User[]>("/users");\n```\n',
  );
  const catalog = createCatalog();
  const ctx = { actor: 'human' as const, channel: 'test' as const };
  const first = await Workspace.open(repo);
  const synced = await catalog.invoke(first, 'rebuild_index', {}, ctx);
  assert.ok(synced.ok, JSON.stringify(synced));
  await first.dispose();

  const dbPath = path.join(repo, '.autosnippet', 'autosnippet.db');
  const bytes = readFileSync(dbPath);
  const at = bytes.indexOf('Network calls go through getJson');
  assert.ok(at > 0, 'the title is in the image');
  bytes[at + 8] ^= 0x01; // one flipped bit inside a row
  writeFileSync(dbPath, bytes);

  const again = await Workspace.open(repo);
  const health = await catalog.invoke(again, 'health', {}, ctx);
  assert.ok(health.ok);
  const db =
    (health.data as { database: { status: string; recovered?: { movedTo: string; reason: string } } }).database;
  assert.equal(db.status, 'recovered');
  assert.match(db.recovered?.reason ?? '', /CRC-32 differs/);
  assert.ok(existsSync(db.recovered!.movedTo), 'the damaged image is kept beside the new one');
  const recipes = await catalog.invoke(again, 'list_recipes', {}, ctx);
  assert.ok(recipes.ok);
  assert.deepEqual((recipes.data as { recipes: { title: string }[] }).recipes.map((r) => r.title), [
    'Network calls go through getJson',
  ], 'rebuilt from the file');
  await again.dispose();
});
