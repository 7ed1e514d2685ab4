// Issue 14 point 1 and issue 10 item 4/7 at the process edge: starting the server on a project writes
// nothing, the first write says it created .autosnippet/, and bad stdio input is answered, not fatal.
import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { call, connectStdio, serverJs } from './client';

/** A small git repository with one committed file, as a user's project would be. */
function plainGitRepo(): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'autosnippet-plain-')));
  writeFileSync(path.join(dir, 'app.py'), 'def main():\n    print("hello")\n');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: dir, stdio: 'pipe' });
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'init');
  return dir;
}

const gitStatus = (dir: string) =>
  execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: dir, encoding: 'utf8' });

test('a server started on a plain git repository writes nothing while it is read; the first proposal creates .autosnippet/ and says so', async () => {
  const repo = plainGitRepo();
  const { client } = await connectStdio(repo);
  try {
    const { tools } = await client.listTools();
    assert.ok(tools.length > 10);
    const health = await call(client, 'autosnippet_health', {});
    assert.equal(health.envelope.data.database.status, 'not-created');
    assert.ok((await call(client, 'autosnippet_list_skills', {})).envelope.ok);
    assert.ok((await call(client, 'autosnippet_search', { query: 'print hello' })).envelope.ok);
    assert.ok((await call(client, 'autosnippet_get_targets', {})).envelope.ok);
    assert.ok((await call(client, 'autosnippet_compliance_report', {})).envelope.ok);
    assert.equal(gitStatus(repo), '', 'reads leave the repository as it was');
    assert.equal(existsSync(path.join(repo, '.autosnippet')), false);

    const first = await call(client, 'autosnippet_submit_candidate', {
      title: 'Print through main',
      summary: 'Entry points print via main().',
      code: 'def main():\n    print("hello")',
      language: 'python',
      category: 'style',
    });
    assert.equal(first.envelope.ok, true, JSON.stringify(first.envelope));
    assert.match(
      (first.envelope as { notice?: string }).notice ?? '',
      /Created \.autosnippet\/ in .* for this first write/,
    );
    assert.deepEqual(
      gitStatus(repo).trim().split('\n'),
      ['?? .autosnippet/.gitignore'],
      'the database and the audit log are git-ignored',
    );
    const second = await call(client, 'autosnippet_submit_candidate', {
      title: 'Keep main small',
      summary: 'main() only wires.',
      code: 'def main(): run()',
      language: 'python',
      category: 'style',
    });
    assert.equal((second.envelope as { notice?: string }).notice, undefined, 'said once');
    assert.equal((await call(client, 'autosnippet_health', {})).envelope.data.database.status, 'ok');
  } finally {
    await client.close();
  }
});

/** The raw server on stdio, with its answers by id. */
function rawServer(
  workspace: string,
): { child: ChildProcessWithoutNullStreams; answer(id: number | string | null): Promise<any>; all: any[] } {
  const child = spawn(process.execPath, [serverJs, '--workspace', workspace], { stdio: ['pipe', 'pipe', 'pipe'] });
  const all: any[] = [];
  const waiting: { id: unknown; resolve: (m: any) => void }[] = [];
  let buf = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d: string) => {
    buf += d;
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const msg = JSON.parse(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
      all.push(msg);
      const i = waiting.findIndex((w) => w.id === msg.id);
      if (i >= 0) waiting.splice(i, 1)[0].resolve(msg);
    }
  });
  child.stderr.resume();
  return {
    child,
    all,
    answer: (id) => {
      const seen = all.find((m) => m.id === id);
      return seen ? Promise.resolve(seen) : new Promise((resolve) => waiting.push({ id, resolve }));
    },
  };
}

const send = (child: ChildProcessWithoutNullStreams, text: string) =>
  new Promise<void>((r) => child.stdin.write(text, () => r()));

test('one stdio message over 10 MiB gets a JSON-RPC error with its id, and the server keeps serving', {
  timeout: 30_000,
}, async () => {
  const s = rawServer(plainGitRepo());
  try {
    await send(
      s.child,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }) + '\n',
    );
    assert.ok((await s.answer(1)).result);
    await send(s.child, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
    // The SDK's client writes the id last: {method, params, jsonrpc, id}.
    const huge = JSON.stringify({
      method: 'tools/call',
      params: { name: 'autosnippet_search', arguments: { query: 'x'.repeat(11 * 1024 * 1024) } },
      jsonrpc: '2.0',
      id: 7,
    });
    await send(s.child, huge + '\n');
    const tooLarge = await s.answer(7);
    assert.equal(tooLarge.error?.code, -32600);
    assert.match(tooLarge.error.message, /too large: \d+ bytes.*10 MiB/);

    await send(s.child, JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/list', params: {} }) + '\n');
    assert.ok((await s.answer(8)).result.tools.length > 10, 'still serving');
    assert.equal(s.child.exitCode, null);
  } finally {
    s.child.kill('SIGTERM');
  }
});

test(
  'a line that is not JSON, or not JSON-RPC, gets an error answer and the server keeps serving',
  { timeout: 30_000 },
  async () => {
    const s = rawServer(plainGitRepo());
    try {
      await send(s.child, '{"jsonrpc": "2.0", "id": 1, "method": \n');
      await send(s.child, JSON.stringify({ jsonrpc: '2.0', id: 2, verb: 'nothing' }) + '\n');
      await send(
        s.child,
        JSON.stringify({
          jsonrpc: '2.0',
          id: 3,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        }) + '\n',
      );
      assert.ok((await s.answer(3)).result, 'still serving');
      assert.equal((await s.answer(null)).error.code, -32700);
      assert.equal((await s.answer(2)).error.code, -32600);
    } finally {
      s.child.kill('SIGTERM');
    }
  },
);

test('a workspace folder that does not exist ends the server with exit 1 and one clear line, no stack', {
  timeout: 30_000,
}, async () => {
  const missing = path.join(os.tmpdir(), 'autosnippet-no-such-folder', 'project');
  const child = spawn(process.execPath, [serverJs, '--workspace', missing], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  assert.equal(code, 1);
  assert.match(stderr, /autosnippet mcp: The workspace folder .*project does not exist\.\nGive the project folder/);
  assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
});
