import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import Ajv from 'ajv';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { call, connectStdio, serverJs, tempWorkspace } from './client';
import { toolSamples } from './tool-samples';

let client: Client;
let workspace: string;
let close: () => Promise<void>;

before(async () => {
  workspace = realpathSync(tempWorkspace('sample-workspace'));
  // Every tool in full: this file checks each tool the server has, as a client that lists them all sees it.
  const c = await connectStdio(workspace, ['--tools', 'all']);
  client = c.client;
  close = () => c.client.close();
});
after(async () => close?.());

test('the server introduces itself and tells an agent where to start', () => {
  assert.equal(client.getServerVersion()?.name, 'autosnippet');
  const instructions = client.getInstructions() ?? '';
  assert.match(instructions, /autosnippet_health/);
  assert.match(instructions, /autosnippet_list_tools/);
  assert.match(instructions, /autosnippet_call_tool/);
});

test('tools/list: every tool carries the prefix and annotations that follow its access class; no people-only tools', async () => {
  const { tools } = await client.listTools();
  assert.ok(tools.length >= 3);
  for (const t of tools) {
    assert.match(t.name, /^autosnippet_[a-z0-9_]+$/);
    assert.ok(t.description && t.description.length > 20, `${t.name} has a description`);
    assert.equal(t.inputSchema.type, 'object');
    const readOnly = t.annotations?.readOnlyHint;
    assert.equal(typeof readOnly, 'boolean', `${t.name} has readOnlyHint`);
    assert.equal(t.annotations?.idempotentHint, readOnly, `${t.name}: read tools are idempotent, proposals are not`);
    assert.equal(t.annotations?.destructiveHint, false, `${t.name}: nothing offered to agents is destructive`);
  }
  assert.ok(
    !tools.some((t) => /approve|publish|delete|deprecate|reject|install_skill/.test(t.name)),
    'review tools are not offered',
  );
});

test('health answers with this workspace and a database not yet created (nothing was written)', async () => {
  const { envelope, isError } = await call(client, 'autosnippet_health', {});
  assert.equal(isError, false);
  assert.equal(envelope.ok, true);
  assert.equal(envelope.data.workspace.root, workspace);
  assert.equal(envelope.data.database.status, 'not-created');
  assert.ok(envelope.data.database.schemaVersion >= 1);
  assert.ok(envelope.data.counts.tools >= 3);
});

test('every published tool answers a valid call with ok, and an invalid one with INVALID_INPUT naming the field', async () => {
  const { tools } = await client.listTools();
  const missing = tools.map((t) => t.name.replace(/^autosnippet_/, '')).filter((n) => !toolSamples[n]);
  assert.deepEqual(missing, [], 'add these tools to test/mcp/tool-samples.ts');
  for (const t of tools) {
    const sample = toolSamples[t.name.replace(/^autosnippet_/, '')];
    const good = await call(client, t.name, sample.valid);
    if (sample.validError) {
      assert.equal(
        good.envelope.error?.code,
        sample.validError,
        `${t.name} valid call: ${JSON.stringify(good.envelope)}`,
      );
    } else {
      assert.equal(good.envelope.ok, true, `${t.name} valid call: ${JSON.stringify(good.envelope.error)}`);
      assert.equal(good.isError, false);
    }
    const bad = await call(client, t.name, sample.invalid);
    assert.equal(bad.isError, true, `${t.name} invalid call is an error`);
    assert.equal(bad.envelope.error?.code, 'INVALID_INPUT', `${t.name}: ${JSON.stringify(bad.envelope.error)}`);
    assert.equal(bad.envelope.error?.field, sample.invalidField, `${t.name} names the bad field`);
  }
});

/** Tools whose successful answer a model reads as Markdown (the envelope is the structured content beside it). */
const MARKDOWN_TEXT = new Set(['autosnippet_load_skill', 'autosnippet_load_skill_chunk']);

test('every tool publishes an outputSchema, and every answer (ok or not) carries structuredContent that validates against it', async () => {
  const { tools } = await client.listTools();
  const ajv = new Ajv({ strict: false, allErrors: true });
  for (const t of tools) {
    assert.equal(t.outputSchema?.type, 'object', `${t.name} has an outputSchema`);
    const validate = ajv.compile(t.outputSchema as object);
    const sample = toolSamples[t.name.replace(/^autosnippet_/, '')];
    for (const args of [sample.valid, sample.invalid]) {
      // The SDK client itself checks structuredContent against the outputSchema it listed; Ajv says where it fails.
      const r = (await client.callTool({ name: t.name, arguments: args })) as {
        structuredContent?: unknown;
        content: { text: string }[];
      };
      assert.ok(r.structuredContent, `${t.name} answers with structuredContent`);
      const envelope = r.structuredContent as { ok: boolean; data?: { content?: string } };
      if (MARKDOWN_TEXT.has(t.name) && envelope.ok) {
        // Its text is the Markdown a model reads: the content unescaped, not the envelope again.
        assert.ok(
          envelope.data?.content && r.content[0].text.includes(envelope.data.content),
          `${t.name}: the text carries the content as written`,
        );
        assert.throws(() => JSON.parse(r.content[0].text), `${t.name}: the text is Markdown, not JSON`);
      } else {
        assert.deepEqual(
          r.structuredContent,
          JSON.parse(r.content[0].text),
          `${t.name}: the text form is the same envelope`,
        );
      }
      assert.ok(
        validate(r.structuredContent),
        `${t.name}(${JSON.stringify(args)}): ${ajv.errorsText(validate.errors)}`,
      );
    }
  }
});

test('non-object arguments are JSON-RPC -32602 Invalid params, and the server keeps serving', async () => {
  for (const bad of [[1, 2], 'text', 42, null]) {
    await assert.rejects(
      client.request({
        method: 'tools/call',
        params: { name: 'autosnippet_health', arguments: bad as unknown as Record<string, unknown> },
      }, CallToolResultSchema),
      (e: { code?: number }) => e.code === -32602,
      `arguments ${JSON.stringify(bad)}`,
    );
  }
  assert.equal((await call(client, 'autosnippet_health', {})).envelope.ok, true);
});

test('an unknown tool is an error with the closest names', async () => {
  const { envelope, isError } = await call(client, 'autosnippet_helth', {});
  assert.equal(isError, true);
  assert.equal(envelope.error?.code, 'UNKNOWN_TOOL');
  assert.match(envelope.error?.hint ?? '', /health/);
});

test('stdout carries only JSON-RPC, and the server exits cleanly when stdin closes', async () => {
  const child = spawn(process.execPath, [serverJs, '--workspace', tempWorkspace()], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const init = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  };
  child.stdin.write(JSON.stringify(init) + '\n');
  await waitFor(() => out.includes('"id":1'), 10_000);
  child.stdin.end();
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  assert.equal(code, 0);
  const lines = out.split('\n').filter(Boolean);
  assert.ok(lines.length >= 1);
  for (const l of lines) assert.equal(JSON.parse(l).jsonrpc, '2.0');
});

test('SIGTERM stops the server with exit code 0', async () => {
  const child = spawn(process.execPath, [serverJs, '--workspace', tempWorkspace()], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  await waitFor(() => err.includes('on stdio'), 10_000);
  child.kill('SIGTERM');
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  assert.equal(code, 0);
  assert.match(err, /shutting down \(SIGTERM\)/);
});

test('a bad command line is a usage error with exit code 2', async () => {
  const child = spawn(process.execPath, [serverJs, '--http', 'not-a-port'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  assert.equal(code, 2);
  assert.match(err, /--http takes a port number/);
});

async function waitFor(cond: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('`autosnippet mcp` from the CLI serves the workspace given before or after the command', async () => {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const cliJs = serverJs.replace(/mcp\.js$/, 'cli.js');
  for (const order of ['before', 'after'] as const) {
    const dir = realpathSync(tempWorkspace());
    const args = order === 'before'
      ? [cliJs, '--workspace', dir, 'mcp', '--log-level', 'warn']
      : [cliJs, 'mcp', '--workspace', dir];
    const c = new Client({ name: 'cli-test', version: '0' });
    await c.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'pipe' }));
    const r = (await c.callTool({ name: 'autosnippet_health', arguments: {} })) as { content: { text: string }[] };
    assert.equal(JSON.parse(r.content[0].text).data.workspace.root, dir, order);
    await c.close();
  }
});
