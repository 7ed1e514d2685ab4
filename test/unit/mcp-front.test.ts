import Ajv from 'ajv';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import guardRulesSchema from '../../schemas/guard-rules.schema.json';
import { createCatalog } from '../../src/core/catalog';
import { startFront } from '../../src/mcp/front';
import { type McpManifest, mcpManifest } from '../../src/mcp/manifest';

const manifestFile = path.join(__dirname, '..', '..', 'src', 'mcp', 'manifest.json');

test('src/mcp/manifest.json is what the catalog publishes (run `npm run gen:manifest` when this fails)', () => {
  assert.deepEqual(
    JSON.parse(readFileSync(manifestFile, 'utf8')),
    JSON.parse(JSON.stringify(mcpManifest(createCatalog()))),
  );
});

/** The front over in-memory streams; `loaded` holds what the server would read once it loads. */
function front(answerTools = true) {
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as McpManifest;
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const out: Record<string, unknown>[] = [];
  stdout.on('data', (d: Buffer) => out.push(...d.toString().split('\n').filter(Boolean).map((l) => JSON.parse(l))));
  const loaded: { stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream; read: string } = { read: '' };
  startFront({
    manifest,
    tools: answerTools ? manifest.tools : undefined,
    stdin,
    stdout,
    load: (io) => {
      loaded.stdin = io.stdin;
      loaded.stdout = io.stdout;
      io.stdin.on('data', (d: Buffer) => (loaded.read += d.toString()));
    },
  });
  const send = (m: unknown) => stdin.write(typeof m === 'string' ? m : JSON.stringify(m) + '\n');
  return { manifest, stdin, out, loaded, send };
}

const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms));
const initialize = (id: number, protocolVersion = '2025-06-18') => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: { sampling: {} }, clientInfo: { name: 't', version: '1' } },
});

test('initialize and tools/list are answered before the server loads; the server then gets initialize first and every other message in order', async () => {
  const { manifest, out, loaded, send } = front();
  send(initialize(1));
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  await tick();
  assert.equal(loaded.stdout, undefined, 'a notification does not load the server');
  assert.deepEqual(out[0], {
    jsonrpc: '2.0',
    id: 1,
    result: {
      protocolVersion: '2025-06-18',
      capabilities: manifest.capabilities,
      serverInfo: manifest.serverInfo,
      instructions: manifest.instructions,
    },
  });
  send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
  send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'autosnippet_health', arguments: {} } });
  await tick();
  assert.deepEqual(out[1], { jsonrpc: '2.0', id: 2, result: { tools: manifest.tools } });
  assert.ok(manifest.tools.some((t) => t.name === 'autosnippet_health'));
  assert.ok(loaded.stdout, 'the server loads once the first answers are out');
  const handed = loaded.read.split('\n').filter(Boolean).map((l) => JSON.parse(l));
  assert.deepEqual(handed.map((m) => m.method), ['initialize', 'notifications/initialized', 'tools/call']);
  assert.deepEqual(handed[0].params.capabilities, { sampling: {} }, "the server learns the client's capabilities");

  // what the server writes passes through, except its own answer to the replayed initialize
  const serverOut = loaded.stdout as unknown as NodeJS.WritableStream;
  serverOut.write(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-06-18' } }) + '\n');
  serverOut.write(JSON.stringify({ jsonrpc: '2.0', id: 3, result: { content: [] } }) + '\n');
  await tick();
  assert.deepEqual(out.map((m) => m.id), [1, 2, 3]);
});

test('an unknown protocol version gets the latest; bad or unusual messages are left to the server', async () => {
  const { manifest, out, loaded, send } = front();
  send(initialize(7, '1999-01-01'));
  await tick();
  assert.equal((out[0].result as { protocolVersion: string }).protocolVersion, manifest.latestProtocolVersion);
  send('not json\n');
  await tick();
  assert.ok(loaded.stdout, 'a line that is not JSON loads the server, whose transport answers it');
  assert.deepEqual(loaded.read.split('\n').filter(Boolean).slice(1), ['not json']);
  assert.equal(out.length, 1);
});

test("a tools/list before initialize, or with a cursor, is the server's to answer; stdin ending hands everything over", async () => {
  const { out, loaded, send, stdin } = front();
  send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  send(initialize(2));
  send({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { cursor: '10' } });
  stdin.end();
  await tick();
  assert.ok(loaded.stdin);
  assert.deepEqual(loaded.read.split('\n').filter(Boolean).map((l) => JSON.parse(l).id), [1, 2, 3]);
  assert.deepEqual(out.map((m) => m.id), [2], 'only the initialize was answered early');
});

test('without a tools/list answer (a settings file may choose the tool surface), the front hands tools/list to the server', async () => {
  const { out, loaded, send } = front(false);
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
  await tick();
  assert.deepEqual(out.map((m) => m.id), [1], 'only the initialize was answered early');
  assert.ok(loaded.stdin, 'the server was loaded to answer tools/list');
  assert.deepEqual(loaded.read.split('\n').filter(Boolean).map((l) => JSON.parse(l).id), [1, 2]);
});

test('every published input and output schema, and the guard rules schema, is valid JSON Schema (they are not checked at run time)', () => {
  const ajv = new Ajv({ strict: false });
  const tools = mcpManifest(createCatalog()).allTools as { name: string; inputSchema: object; outputSchema?: object }[];
  assert.ok(tools.length > 40);
  for (const t of tools) {
    for (const [which, schema] of [['input', t.inputSchema], ['output', t.outputSchema]] as const) {
      if (!schema) continue;
      assert.equal(ajv.validateSchema(schema), true, `${t.name} ${which}: ${ajv.errorsText(ajv.errors)}`);
    }
  }
  assert.equal(ajv.validateSchema(guardRulesSchema), true, `guard-rules.schema.json: ${ajv.errorsText(ajv.errors)}`);
  // The check can fail: a type that is not a JSON Schema type.
  assert.equal(ajv.validateSchema({ type: 'object', properties: { a: { type: 'text' } } }), false);
});
