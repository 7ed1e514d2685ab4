import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { serverJs, tempWorkspace } from './client';

const TOKEN = 'test-token-123';
let child: ChildProcess;
let port: number;

before(async () => {
  child = spawn(process.execPath, [serverJs, '--workspace', tempWorkspace(), '--http', '0', '--token', TOKEN], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${err}`)), 10_000);
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
  });
});
after(() => {
  child?.kill('SIGTERM');
});

test('an MCP client with the bearer token lists and calls tools over Streamable HTTP', async () => {
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
  });
  const client = new Client({ name: 'http-test', version: '0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  assert.ok(tools.some((t) => t.name === 'autosnippet_health'));
  const r = (await client.callTool({ name: 'autosnippet_health', arguments: {} })) as { content: { text: string }[] };
  assert.equal(JSON.parse(r.content[0].text).ok, true);
  await client.close();
});

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

function post(headers: Record<string, string>, body = initialize): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port,
      path: '/mcp',
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('no token or a wrong token is refused with 401', async () => {
  assert.equal(await post({}), 401);
  assert.equal(await post({ authorization: 'Bearer wrong' }), 401);
  assert.equal(await post({ authorization: `Bearer ${TOKEN}` }), 200);
});

test('a foreign Host header (DNS rebinding) is refused with 403, even with the token', async () => {
  assert.equal(await post({ host: `evil.example:${port}`, authorization: `Bearer ${TOKEN}` }), 403);
  assert.equal(await post({ host: `localhost:${port}`, authorization: `Bearer ${TOKEN}` }), 200);
});

test('a foreign Origin is refused with 403; a loopback Origin is accepted', async () => {
  assert.equal(await post({ origin: 'https://evil.example', authorization: `Bearer ${TOKEN}` }), 403);
  assert.equal(await post({ origin: 'http://localhost:5173', authorization: `Bearer ${TOKEN}` }), 200);
});

test('requests without a session that are not initialize are refused with 400', async () => {
  const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
  assert.equal(await post({ authorization: `Bearer ${TOKEN}` }, list), 400);
});

/** A request whose status line is read even when the server answers before the body is sent. */
function rawRequest(lines: string[], body = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(
      port,
      '127.0.0.1',
      () => socket.end([...lines, `content-length: ${Buffer.byteLength(body)}`, '', body].join('\r\n')),
    );
    let got = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (got += d));
    socket.on('end', () => resolve(got.split('\r\n')[0]));
    socket.on('error', reject);
  });
}

test('a body over 4 MiB is answered 413 (not a reset), and the server keeps serving', async () => {
  const big = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { padding: 'x'.repeat(5 * 1024 * 1024) },
  });
  assert.equal(await post({ authorization: `Bearer ${TOKEN}` }, big), 413);
  assert.equal(await post({ authorization: `Bearer ${TOKEN}` }), 200);
});

test('a duplicate Host (or Authorization) header is refused with 400', async () => {
  const head = (extra: string[]) => [
    'POST /mcp HTTP/1.1',
    'content-type: application/json',
    'accept: application/json, text/event-stream',
    'connection: close',
    ...extra,
  ];
  assert.equal(
    await rawRequest(head([`host: 127.0.0.1:${port}`, `authorization: Bearer ${TOKEN}`]), initialize),
    'HTTP/1.1 200 OK',
  );
  assert.equal(
    await rawRequest(
      head([`host: 127.0.0.1:${port}`, 'host: evil.example', `authorization: Bearer ${TOKEN}`]),
      initialize,
    ),
    'HTTP/1.1 400 Bad Request',
  );
  assert.equal(
    await rawRequest(
      head([`host: 127.0.0.1:${port}`, `authorization: Bearer ${TOKEN}`, 'authorization: Bearer other']),
      initialize,
    ),
    'HTTP/1.1 400 Bad Request',
  );
});
