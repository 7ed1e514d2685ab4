// The built server's small front (dist/mcp.js): it answers a client's first requests from the
// manifest file without the server bundle (dist/mcp-server.js), which it reads only afterwards. And the
// CLI's (dist/cli.js): `--version` without the CLI bundle (dist/cli-main.js).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { repo, tempWorkspace } from './client';

const dist = path.join(repo, 'dist');

test('dist/mcp.js loads nothing but Node built-ins and, later, dist/mcp-server.js', () => {
  const source = readFileSync(path.join(dist, 'mcp.js'), 'utf8');
  const required = [...source.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]);
  const outside = required.filter((r) => r !== './mcp-server.js' && !builtinModules.includes(r.replace(/^node:/, '')));
  assert.deepEqual(outside, []);
  assert.ok(required.includes('./mcp-server.js'));
});

test('initialize and tools/list are answered from the manifest before the server bundle is read', async () => {
  // A copy of the front and the manifest only: the server bundle is missing, so it cannot have answered.
  const alone = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-front-'));
  for (const f of ['mcp.js', 'mcp-manifest.json']) copyFileSync(path.join(dist, f), path.join(alone, f));
  const child = spawn(process.execPath, [path.join(alone, 'mcp.js'), '--workspace', tempWorkspace()], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const send = (m: object) => child.stdin.write(JSON.stringify(m) + '\n');
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });

  // Once it has answered, the front loads the server, which is not there: it says so and exits 1.
  assert.equal(await exited, 1);
  assert.match(stderr, /mcp-server\.js/);
  const answers = stdout.trim().split('\n').map((l) =>
    JSON.parse(l) as { id: number; result: { serverInfo?: { name: string }; tools?: { name: string }[] } }
  );
  const manifest = JSON.parse(readFileSync(path.join(dist, 'mcp-manifest.json'), 'utf8')) as {
    tools: { name: string }[];
  };
  assert.deepEqual(answers.map((a) => a.id), [1, 2]);
  assert.equal(answers[0].result.serverInfo?.name, 'autosnippet');
  assert.deepEqual(answers[1].result.tools?.map((t) => t.name), manifest.tools.map((t) => t.name));
  assert.ok(manifest.tools.some((t) => t.name === 'autosnippet_call_tool'));
});

test('dist/cli.js answers --version without the CLI bundle, and hands every other command to it', () => {
  const version = (JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as { version: string }).version;
  const alone = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-cli-front-'));
  copyFileSync(path.join(dist, 'cli.js'), path.join(alone, 'cli.js'));
  const bare = spawnSync(process.execPath, [path.join(alone, 'cli.js'), '--version'], { encoding: 'utf8' });
  assert.equal(bare.status, 0, bare.stderr);
  assert.equal(bare.stdout, `${version}\n`);
  const other = spawnSync(process.execPath, [path.join(alone, 'cli.js'), 'tools'], { encoding: 'utf8' });
  assert.notEqual(other.status, 0);
  assert.match(other.stderr, /cli-main\.js/);
  const built = spawnSync(process.execPath, [path.join(dist, 'cli.js'), 'tools', 'system'], { encoding: 'utf8' });
  assert.equal(built.status, 0, built.stderr);
  assert.match(built.stdout, /health/);
});
