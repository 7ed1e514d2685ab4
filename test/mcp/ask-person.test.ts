// "Ask a person" over MCP and custom tools over MCP, with the SDK's own client: a client that offers
// elicitation is asked before another server's write runs; one that does not gets NEEDS_APPROVAL. An
// MCP client can never approve a custom tool: it sees it as needing approval until a person does.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { call, connectStdio, repo, tempWorkspace, testHome } from './client';

const tsxLoader = pathToFileURL(path.join(repo, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const notes = path.join(repo, 'test', 'fixtures', 'mcp-servers', 'notes-server.ts');

function withNotesServer(): string {
  const root = tempWorkspace();
  mkdirSync(path.join(root, '.autosnippet'), { recursive: true });
  writeFileSync(
    path.join(root, '.autosnippet', 'mcp.json'),
    JSON.stringify({ mcpServers: { notes: { command: process.execPath, args: ['--import', tsxLoader, notes] } } }),
  );
  return root;
}

/** A client that answers every elicitation with `answer`, and records the questions it was asked. */
function askingClient(answer: (message: string) => { action: 'accept' | 'decline'; content?: object }) {
  const client = new Client(
    { name: 'asking-client', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } } },
  );
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    const message = (req.params as { message: string }).message;
    asked.push(message);
    return answer(message) as never;
  });
  return { client, asked };
}

const write = { server: 'notes', tool: 'write_note', arguments: { key: 'k', text: 'from the agent' } };

test('a client offering elicitation is asked before a write of another server runs; yes runs it, no refuses it', async () => {
  const root = withNotesServer();
  let yes = true;
  const { client, asked } = askingClient(
    () => (yes ? { action: 'accept', content: { approve: true } } : { action: 'decline' }),
  );
  const { client: c, transport } = await connectStdio(root, ['--trust', '--tools', 'all'], {}, client);
  try {
    const ran = await call(c, 'autosnippet_call_mcp_tool', write);
    assert.equal(ran.envelope.ok, true, JSON.stringify(ran.envelope));
    assert.equal(asked.length, 1);
    assert.match(asked[0], /write_note.*"notes"/s);
    assert.match(asked[0], /from the agent/);
    const read = await call(c, 'autosnippet_call_mcp_tool', {
      server: 'notes',
      tool: 'read_note',
      arguments: { key: 'k' },
    });
    assert.equal(read.envelope.data.content[0].text, 'from the agent');
    assert.equal(asked.length, 1, 'a read-only tool is not asked about');

    yes = false;
    const refused = await call(c, 'autosnippet_call_mcp_tool', { ...write, arguments: { key: 'k', text: 'again' } });
    assert.equal(refused.envelope.error?.code, 'PERMISSION_DENIED');
    assert.match(refused.envelope.error!.message, /declined/);
    const after = await call(c, 'autosnippet_call_mcp_tool', {
      server: 'notes',
      tool: 'read_note',
      arguments: { key: 'k' },
    });
    assert.equal(after.envelope.data.content[0].text, 'from the agent', 'the declined write did not run');
  } finally {
    await transport.close();
  }
});

test('a client without elicitation gets NEEDS_APPROVAL, and the write does not run', async () => {
  const root = withNotesServer();
  const { client, transport } = await connectStdio(root, ['--trust', '--tools', 'all']);
  try {
    const r = await call(client, 'autosnippet_call_mcp_tool', write);
    assert.equal(r.envelope.error?.code, 'NEEDS_APPROVAL');
    const read = await call(client, 'autosnippet_call_mcp_tool', {
      server: 'notes',
      tool: 'read_note',
      arguments: { key: 'k' },
    });
    assert.match(read.envelope.data.content[0].text, /no note k/);
  } finally {
    await transport.close();
  }
});

test('over MCP a custom tool shows as needing approval and cannot be approved; once a person approved it, it runs on the bundled worker', async () => {
  const root = tempWorkspace();
  mkdirSync(path.join(root, '.autosnippet', 'tools'), { recursive: true });
  writeFileSync(
    path.join(root, '.autosnippet', 'tools', 'shout.mjs'),
    `export default { description: 'Shouts.', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, handler: ({ text }) => text.toUpperCase() + '!' };`,
  );
  const { client: asking } = askingClient(() => ({ action: 'accept', content: { approve: true } }));
  const { client, transport } = await connectStdio(root, ['--trust'], {}, asking);
  try {
    const listed = await call(client, 'autosnippet_list_tools', { domain: 'custom' });
    assert.deepEqual(
      listed.envelope.data.domains[0].tools.map((
        t: { name: string; state: string; origin: string },
      ) => [t.name, t.origin, t.state]),
      [['shout', 'custom', 'needs-approval']],
    );
    const approve = await call(client, 'autosnippet_call_tool', {
      name: 'approve_custom_tool',
      arguments: { file: 'shout' },
    });
    assert.equal(
      approve.envelope.error?.code,
      'PERMISSION_DENIED',
      'an MCP client cannot approve, even one that can ask its user',
    );
    const direct = await call(client, 'autosnippet_approve_custom_tool', { file: 'shout' });
    assert.equal(direct.envelope.error?.code, 'PERMISSION_DENIED');
    const before = await call(client, 'autosnippet_call_tool', { name: 'shout', arguments: { text: 'hi' } });
    assert.equal(before.envelope.error?.code, 'CUSTOM_TOOL_NOT_APPROVED');

    // The person approves with the built CLI, in the same home (AUTOSNIPPET_HOME).
    const out = execFileSync(
      process.execPath,
      [path.join(repo, 'dist', 'cli.js'), '-w', root, '--trust', 'tools', 'approve', 'shout', '--yes'],
      { env: { ...process.env, AUTOSNIPPET_HOME: testHome() }, encoding: 'utf8' },
    );
    assert.match(out, /the tool shout is ready/);
    const ran = await call(client, 'autosnippet_call_tool', { name: 'shout', arguments: { text: 'hi' } });
    assert.equal(ran.envelope.ok, true, JSON.stringify(ran.envelope));
    assert.equal(ran.envelope.data, 'HI!');
  } finally {
    await transport.close();
  }
});
