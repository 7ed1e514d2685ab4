// Issue 10 item 7: the Streamable HTTP transport caps its sessions and closes idle ones, so clients
// that never say goodbye cannot grow the server without bound.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { createCatalog } from '../../src/core/catalog';
import { Workspace } from '../../src/core/ground/workspace';
import { startHttpServer } from '../../src/mcp/http';
import { createMcpServer } from '../../src/mcp/server';

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function withServer(
  limits: { maxSessions?: number; sessionIdleMs?: number },
  run: (s: Awaited<ReturnType<typeof startHttpServer>>) => Promise<void>,
): Promise<void> {
  const ws = await Workspace.open(mkdtempSync(path.join(os.tmpdir(), 'autosnippet-http-')));
  const catalog = createCatalog();
  let disposed = 0;
  const log = { debug() {}, info() {}, warn() {}, error() {} };
  const server = await startHttpServer({
    port: 0,
    log,
    ...limits,
    createServer: () => {
      const made = createMcpServer(ws, catalog);
      return { server: made.server, dispose: () => (disposed++, made.dispose()) };
    },
  });
  try {
    await run(server);
  } finally {
    await server.close();
    await ws.dispose();
  }
  assert.ok(disposed > 0);
}

async function openSession(url: string): Promise<string> {
  const res = await fetch(url, { method: 'POST', headers, body: initialize });
  assert.equal(res.status, 200);
  await res.text();
  return res.headers.get('mcp-session-id')!;
}

async function listTools(url: string, session: string): Promise<number> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }),
  });
  await res.text();
  return res.status;
}

test('1,000 sessions never hold more than the cap: the longest idle ones are closed, the newest keep working', async () => {
  await withServer({ maxSessions: 50 }, async (server) => {
    const ids: string[] = [];
    for (let i = 0; i < 1000; i++) {
      ids.push(await openSession(server.url));
      assert.ok(server.sessionCount() <= 50, `${server.sessionCount()} sessions open`);
    }
    assert.equal(server.sessionCount(), 50);
    assert.equal(await listTools(server.url, ids[999]), 200);
    assert.equal(await listTools(server.url, ids[0]), 404, 'the oldest was closed to make room');
  });
});

test('a session with no request for the idle time is closed; one in use is kept', async () => {
  await withServer({ sessionIdleMs: 300 }, async (server) => {
    const idle = await openSession(server.url);
    const used = await openSession(server.url);
    for (let i = 0; i < 8; i++) {
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(await listTools(server.url, used), 200);
    }
    assert.equal(await listTools(server.url, idle), 404);
    assert.equal(server.sessionCount(), 1);
  });
});
