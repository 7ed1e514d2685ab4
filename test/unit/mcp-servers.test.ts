// The MCP manager: other servers reached in three levels, through the catalog (and so the Gateway).
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { createCatalog } from '../../src/core/catalog';
import type { ToolContext } from '../../src/core/catalog/types';
import { Workspace } from '../../src/core/ground/workspace';

const home = mkdtempSync(path.join(os.tmpdir(), 'as-home-'));
process.env.AUTOSNIPPET_HOME = home;
const fixture = path.join(__dirname, '..', 'fixtures', 'mcp-servers', 'notes-server.ts');
// The servers start in the workspace folder, where `tsx` is not resolvable by name: its loader by path.
const tsxLoader = pathToFileURL(path.join(__dirname, '..', '..', 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const stdioEntry = { command: process.execPath, args: ['--import', tsxLoader, fixture] };
const agent: ToolContext = { actor: 'external_agent', channel: 'mcp' };
const person: ToolContext = { actor: 'human', channel: 'cli' };
const catalog = createCatalog();
const open: Workspace[] = [];
after(async () => {
  for (const ws of open) await ws.dispose();
  writeFileSync(path.join(home, 'mcp.json'), '{"mcpServers": {}}');
});

async function workspace(project: object | undefined, trusted: boolean): Promise<Workspace> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'as-servers-'));
  if (project) {
    mkdirSync(path.join(root, '.autosnippet'));
    writeFileSync(path.join(root, '.autosnippet', 'mcp.json'), JSON.stringify(project));
  }
  const ws = await Workspace.open(root, {
    settings: { trusted, trustNote: trusted ? undefined : 'the folder is not trusted: run autosnippet trust' },
  });
  open.push(ws);
  return ws;
}

async function call(ws: Workspace, name: string, input: object, ctx: ToolContext = agent) {
  return catalog.invoke(ws, name, input, ctx);
}

test('a project server in an untrusted folder is listed as disabled with the reason, and never started', async () => {
  const ws = await workspace({ mcpServers: { notes: stdioEntry } }, false);
  const list = await call(ws, 'list_mcp_servers', {});
  assert.ok(list.ok);
  assert.deepEqual(
    (list.data as { servers: { name: string; state: string; reason: string }[] }).servers.map((s) => [s.name, s.state]),
    [['notes', 'disabled']],
  );
  assert.match(JSON.stringify(list.data), /not trusted/);
  const r = await call(ws, 'get_mcp_instructions', { server: 'notes' });
  assert.equal(!r.ok && r.error.code, 'PERMISSION_DENIED');
});

test('stdio: instructions and tools with permissions; reads run for agents, writes wait for a person; a project cannot allow a write', async () => {
  const ws = await workspace({
    mcpServers: { notes: { ...stdioEntry, permissions: { tools: { write_note: 'allow' } } } },
  }, true);
  const info = await call(ws, 'get_mcp_instructions', { server: 'notes' });
  assert.ok(info.ok, JSON.stringify(info));
  const data = info.data as { instructions: string; tools: { name: string; permission: string }[] };
  assert.match(data.instructions, /read_note before write_note/);
  assert.deepEqual(Object.fromEntries(data.tools.map((t) => [t.name, t.permission])), {
    read_note: 'allow',
    write_note: 'ask',
    die: 'allow',
  });

  const refused = await call(ws, 'call_mcp_tool', {
    server: 'notes',
    tool: 'write_note',
    arguments: { key: 'a', text: 'hello' },
  });
  assert.equal(!refused.ok && refused.error.code, 'NEEDS_APPROVAL');
  const written = await call(ws, 'call_mcp_tool', {
    server: 'notes',
    tool: 'write_note',
    arguments: { key: 'a', text: 'hello' },
  }, person);
  assert.ok(written.ok, JSON.stringify(written));
  const read = await call(ws, 'call_mcp_tool', { server: 'notes', tool: 'read_note', arguments: { key: 'a' } });
  assert.ok(read.ok);
  assert.equal((read.data as { content: { text: string }[] }).content[0].text, 'hello');
  const audit = await call(ws, 'query_audit_log', { limit: 50 }, person);
  assert.match(JSON.stringify(audit), /call_mcp_tool/);

  const listed = await call(ws, 'list_mcp_servers', {});
  assert.ok(listed.ok);
  assert.deepEqual(
    (listed.data as { servers: { state: string; tools: number }[] }).servers.map((s) => [s.state, s.tools]),
    [['connected', 3]],
  );
});

test('a server that dies comes back on the next call (a new process)', async () => {
  const ws = await workspace({ mcpServers: { notes: stdioEntry } }, true);
  const pidOf = async () => {
    const r = await call(ws, 'call_mcp_tool', { server: 'notes', tool: 'read_note', arguments: { key: 'x' } });
    assert.ok(r.ok, JSON.stringify(r));
    return /pid (\d+)/.exec((r.data as { content: { text: string }[] }).content[0].text)![1];
  };
  const first = await pidOf();
  await call(ws, 'call_mcp_tool', { server: 'notes', tool: 'die' });
  await new Promise((r) => setTimeout(r, 300));
  const second = await pidOf();
  assert.notEqual(second, first);
});

test("the person's own config may allow a write and deny a tool; a server that cannot start is retried only after a pause", async () => {
  writeFileSync(
    path.join(home, 'mcp.json'),
    JSON.stringify({
      mcpServers: {
        notes: { ...stdioEntry, permissions: { tools: { write_note: 'allow', die: 'deny' } } },
        broken: { command: path.join(home, 'no-such-server') },
      },
    }),
  );
  const ws = await workspace(undefined, false);
  const w = await call(ws, 'call_mcp_tool', {
    server: 'notes',
    tool: 'write_note',
    arguments: { key: 'k', text: 'v' },
  });
  assert.ok(w.ok, JSON.stringify(w));
  const d = await call(ws, 'call_mcp_tool', { server: 'notes', tool: 'die' });
  assert.equal(!d.ok && d.error.code, 'PERMISSION_DENIED');
  const b1 = await call(ws, 'get_mcp_instructions', { server: 'broken' });
  assert.equal(!b1.ok && b1.error.code, 'MCP_SERVER_UNAVAILABLE');
  const b2 = await call(ws, 'get_mcp_instructions', { server: 'broken' });
  assert.match(!b2.ok ? b2.error.message : '', /trying again in \d+ s/);
  const unknown = await call(ws, 'get_mcp_instructions', { server: 'nope' });
  assert.match(
    !unknown.ok ? `${unknown.error.message} ${unknown.error.hint}` : '',
    /no MCP server "nope".*notes, broken/,
  );
});

test("Streamable HTTP: a remote server from the person's config answers through the same three levels", async () => {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', fixture, '--http'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('the HTTP fixture did not start')), 20_000);
      child.stdout!.on('data', (d: Buffer) => {
        const m = /port (\d+)/.exec(d.toString());
        if (!m) return;
        clearTimeout(t);
        resolve(Number(m[1]));
      });
    });
    writeFileSync(
      path.join(home, 'mcp.json'),
      JSON.stringify({ mcpServers: { remote: { url: `http://127.0.0.1:${port}/mcp` } } }),
    );
    const ws = await workspace(undefined, false);
    const info = await call(ws, 'get_mcp_instructions', { server: 'remote' });
    assert.ok(info.ok, JSON.stringify(info));
    assert.equal((info.data as { tools: unknown[] }).tools.length, 3);
    const read = await call(ws, 'call_mcp_tool', { server: 'remote', tool: 'read_note', arguments: { key: 'q' } });
    assert.ok(read.ok, JSON.stringify(read));
    assert.match((read.data as { content: { text: string }[] }).content[0].text, /no note q/);
  } finally {
    child.kill();
  }
});
