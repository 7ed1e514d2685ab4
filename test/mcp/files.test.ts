// Special files, bombs and links through the real MCP server: each call answers within 5 s with a
// problem that names the file, and the server answers `health` after each.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { call, connectStdio, type Envelope } from './client';

let client: Client;
let root: string;
let outside: string;

function write(rel: string, content: string | Buffer): void {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), content);
}

function fifo(rel: string): void {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  assert.equal(spawnSync('mkfifo', [path.join(root, rel)]).status, 0);
}

const bomb = [
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...'bcdefghi'.split('').map((n, i) => `${n}: &${n} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(', ')}]`),
].join('\n');

before(async () => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'autosnippet-mcp-files-')));
  outside = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'autosnippet-mcp-outside-')));
  writeFileSync(path.join(outside, 'secret.ts'), 'eval("outside-secret");\n');
  mkdirSync(path.join(outside, 'skill'));
  writeFileSync(
    path.join(outside, 'skill', 'SKILL.md'),
    '---\nname: outsider\ndescription: A skill served from outside the workspace.\n---\noutside-secret\n',
  );
  write('package.json', JSON.stringify({ name: 'demo' }));
  write('src/index.ts', 'export const x = eval("1");\n');
  fifo('.gitignore');
  fifo('src/pipe.ts');
  symlinkSync(path.join(outside, 'secret.ts'), path.join(root, 'src', 'secret-link.ts'));
  write('.autosnippet/skills/demo/SKILL.md', '---\nname: demo\ndescription: A demo skill for the tests.\n---\nbody\n');
  fifo('.autosnippet/skills/demo/references/pipe.md');
  symlinkSync(path.join(outside, 'skill'), path.join(root, '.autosnippet', 'skills', 'outsider'));
  write(
    '.autosnippet/recipes/net/get-json.md',
    '---\ntitle: Network calls go through getJson\nsummary: Call the network through getJson.\n---\nbody\n',
  );
  write('.autosnippet/recipes/net/bomb.md', `---\ntitle: Bomb\n${bomb}\n---\nbody\n`);
  write('.autosnippet/recipes/net/huge.md', Buffer.alloc(50 << 20, 'a'));
  write(
    '.autosnippet/guard/rules.json',
    JSON.stringify({
      rules: [{
        id: 'project/huge',
        message: 'm',
        languages: ['typescript'],
        why: 'w',
        suggestion: 's',
        regex: 'x'.repeat(100_000),
      }],
    }),
  );
  // Trusted, so the project's 100,000-character regex reaches the safety analysis.
  client = (await connectStdio(root, ['--trust'])).client;
});

after(async () => {
  await client?.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

/** One tool call within 5 s, then `health` must answer too. */
async function callThenHealth(name: string, args: Record<string, unknown>): Promise<Envelope> {
  const t0 = Date.now();
  const { envelope } = await call(client, `autosnippet_${name}`, args);
  assert.ok(Date.now() - t0 < 5000, `${name} took ${Date.now() - t0} ms`);
  const health = await call(client, 'autosnippet_health', {});
  assert.equal(health.envelope.ok, true, `health after ${name}: ${JSON.stringify(health.envelope.error)}`);
  assert.ok(!JSON.stringify(envelope).includes('outside-secret'), `${name} returned text from outside the workspace`);
  return envelope;
}

test('a FIFO .gitignore: the listing tools answer and name it', async () => {
  const targets = await callThenHealth('get_targets', {});
  assert.equal(targets.ok, true, JSON.stringify(targets.error));
  assert.match(JSON.stringify(targets.data.problems), /\.gitignore is a FIFO/);
  const files = await callThenHealth('get_target_files', { target: 'demo' });
  assert.equal(files.ok, true, JSON.stringify(files.error));
  const scan = await callThenHealth('scan_project', {});
  assert.equal(scan.ok, true, JSON.stringify(scan.error));
  assert.match(JSON.stringify(scan.data.skipped), /src\/pipe\.ts is a FIFO/);
  const boot = await callThenHealth('bootstrap_knowledge', {});
  assert.equal(boot.ok, true, JSON.stringify(boot.error));
});

test('guard_audit_files refuses a link to a file outside the workspace', async () => {
  const r = await callThenHealth('guard_audit_files', { paths: ['src/secret-link.ts'] });
  assert.equal(r.error?.code, 'PATH_OUTSIDE_WORKSPACE');
  const whole = await callThenHealth('guard_audit_files', { paths: ['src'] });
  assert.equal(whole.ok, true, JSON.stringify(whole.error));
});

test("a FIFO in a skill's references/ is refused; a skill folder linked to outside is not served", async () => {
  const r = await callThenHealth('read_skill_resource', { skill: 'demo', path: 'references/pipe.md' });
  assert.equal(r.error?.code, 'NOT_A_REGULAR_FILE');
  const outsider = await callThenHealth('load_skill', { name: 'outsider' });
  assert.equal(outsider.error?.code, 'SKILL_NOT_FOUND');
});

test('rebuild_index: the alias bomb and the 50 MB recipe are problems on their files; the other recipe is indexed', async () => {
  const r = await callThenHealth('rebuild_index', {});
  assert.equal(r.ok, true, JSON.stringify(r.error));
  // Added now, or already indexed by an earlier call (scan_project reads recipes' guard constraints).
  assert.equal(r.data.added + r.data.unchanged, 1);
  const problems = JSON.stringify(r.data.problems);
  assert.match(problems, /bomb\.md/);
  assert.match(problems, /huge\.md is 50 MiB/);
});

test('a 100,000-character project regex: guard still answers with the built-in rules, and a small problem', async () => {
  const rules = await callThenHealth('guard_rules', {});
  assert.equal(rules.ok, true, JSON.stringify(rules.error));
  assert.ok(JSON.stringify(rules.data.problems).length < 2000);
  const check = await callThenHealth('guard_check', { code: 'eval("x");\n', language: 'typescript' });
  assert.ok(check.data.violations.some((v: { ruleId: string }) => v.ruleId === 'ts/no-eval'));
});
