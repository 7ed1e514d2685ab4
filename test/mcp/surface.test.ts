// The tool surface over MCP: the built server, spawned, with the SDK's client over stdio. By default
// tools/list holds the few everyday tools; every other tool is reached through list_tools,
// get_tool_info and call_tool, with the same checks as a direct call.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { createCatalog } from '../../src/core/catalog';
import { DEFAULT_TOOLS } from '../../src/core/catalog/surface';
import { call, connectStdio, repo, tempWorkspace } from './client';
import { toolSamples } from './tool-samples';

/** The size contract of the default tools/list: about 6k tokens, against ~37k for every tool in full. */
const MAX_DEFAULT_LIST_BYTES = 24 * 1024;

const closers: (() => Promise<void>)[] = [];
after(async () => {
  for (const close of closers) await close();
});

async function connect(workspace: string, args: string[] = []): Promise<Client> {
  const { client } = await connectStdio(workspace, args);
  closers.push(() => client.close());
  return client;
}

const listBytes = async (client: Client) => {
  const result = await client.listTools();
  return { tools: result.tools, bytes: Buffer.byteLength(JSON.stringify(result)) };
};

test(`the default tools/list is the everyday tools, within ${MAX_DEFAULT_LIST_BYTES} bytes`, async () => {
  const client = await connect(tempWorkspace('sample-workspace'));
  const { tools, bytes } = await listBytes(client);
  const all = await listBytes(await connect(tempWorkspace('sample-workspace'), ['--tools', 'all']));
  console.log(
    `tools/list: default ${tools.length} tools, ${bytes} bytes; --tools all ${all.tools.length} tools, ${all.bytes} bytes`,
  );
  assert.ok(bytes <= MAX_DEFAULT_LIST_BYTES, `${bytes} bytes`);
  assert.deepEqual(tools.map((t) => t.name).sort(), DEFAULT_TOOLS.map((n) => `autosnippet_${n}`).sort());
  assert.ok(tools.every((t) => !t.outputSchema), 'no output schemas in the default list');
  assert.equal(all.tools.length, createCatalog().agentTools.length);
  assert.ok(all.tools.every((t) => t.outputSchema), '--tools all keeps every output schema');
});

test("an agent walks list_tools → get_tool_info → call_tool to a tool it was not listed, and the answer is that tool's own", async () => {
  const client = await connect(tempWorkspace('sample-workspace'));
  const listed = (await client.listTools()).tools.map((t) => t.name);
  assert.ok(!listed.includes('autosnippet_get_targets'));

  const catalog = await call(client, 'autosnippet_list_tools', {});
  assert.equal(catalog.envelope.ok, true);
  const structure = catalog.envelope.data.domains.find((d: { domain: string }) => d.domain === 'structure');
  assert.ok(structure.tools.some((t: { name: string }) => t.name === 'get_targets'));
  assert.match(catalog.envelope.data.howToCall, /call_tool/);

  const info = await call(client, 'autosnippet_get_tool_info', { name: 'get_targets' });
  assert.equal(info.envelope.data.name, 'get_targets');
  assert.ok(info.envelope.data.inputSchema.properties.ecosystem);

  const through = await call(client, 'autosnippet_call_tool', { name: 'get_targets', arguments: { filter: 'sample' } });
  const direct = await call(client, 'autosnippet_get_targets', { filter: 'sample' });
  assert.equal(through.isError, false, JSON.stringify(through.envelope));
  assert.equal(through.envelope.tool, 'get_targets');
  assert.deepEqual(through.envelope, direct.envelope);
});

test('a people-only tool stays refused through call_tool, and the refusal is audited under its own name', async () => {
  const client = await connect(tempWorkspace('sample-workspace'));
  const refused = await call(client, 'autosnippet_call_tool', {
    name: 'approve_candidate',
    arguments: { id: 'cand-000000000000' },
  });
  assert.equal(refused.isError, true);
  assert.equal(refused.envelope.tool, 'approve_candidate');
  assert.equal(refused.envelope.error?.code, 'PERMISSION_DENIED');

  const audit = await call(client, 'autosnippet_call_tool', {
    name: 'query_audit_log',
    arguments: { action: 'approve_candidate' },
  });
  const entry = audit.envelope.data.entries[0];
  assert.deepEqual(
    [entry.action, entry.decision, entry.actor, entry.channel],
    ['approve_candidate', 'denied', 'external_agent', 'mcp'],
  );
  const asCallTool = await call(client, 'autosnippet_call_tool', {
    name: 'query_audit_log',
    arguments: { action: 'call_tool' },
  });
  assert.equal(asCallTool.envelope.data.total, 0, 'nothing is audited as call_tool');
});

test('a proposal through call_tool passes the Gateway and is audited as the real tool', async () => {
  const client = await connect(tempWorkspace('sample-workspace'));
  const batch = {
    candidates: [{
      title: 'Greet through greet()',
      summary: 'Greetings go through greet().',
      code: 'greet(name)',
      language: 'typescript',
    }],
  };
  const submitted = await call(client, 'autosnippet_call_tool', {
    name: 'autosnippet_submit_candidates',
    arguments: batch,
  });
  assert.equal(submitted.envelope.ok, true, JSON.stringify(submitted.envelope));
  assert.equal(submitted.envelope.tool, 'submit_candidates');
  const audit = await call(client, 'autosnippet_call_tool', {
    name: 'query_audit_log',
    arguments: { action: 'submit_candidates' },
  });
  assert.ok(
    audit.envelope.data.entries.some((e: { decision: string; actor: string }) =>
      e.decision === 'allowed' && e.actor === 'external_agent'
    ),
    JSON.stringify(audit.envelope.data),
  );
});

test('every tool an agent may call is reachable through call_tool: each checks its own arguments', async () => {
  const client = await connect(tempWorkspace('sample-workspace'));
  for (const tool of createCatalog().agentTools) {
    const sample = toolSamples[tool.name];
    assert.ok(sample, `add ${tool.name} to test/mcp/tool-samples.ts`);
    if (tool.forwards) continue;
    const r = await call(client, 'autosnippet_call_tool', { name: tool.name, arguments: sample.invalid });
    assert.equal(r.envelope.tool, tool.name);
    assert.equal(r.envelope.error?.code, 'INVALID_INPUT', `${tool.name}: ${JSON.stringify(r.envelope)}`);
    assert.equal(r.envelope.error?.field, sample.invalidField, tool.name);
  }
});

test('the tools.offered setting of .autosnippet/settings.json lists every tool; --tools overrides it', async () => {
  const workspace = realpathSync(tempWorkspace('sample-workspace'));
  mkdirSync(path.join(workspace, '.autosnippet'), { recursive: true });
  writeFileSync(
    path.join(workspace, '.autosnippet', 'settings.json'),
    JSON.stringify({ 'autosnippet.tools.offered': 'all' }),
  );
  const all = (await (await connect(workspace)).listTools()).tools;
  assert.equal(all.length, createCatalog().agentTools.length);
  const overridden = (await (await connect(workspace, ['--tools', 'default'])).listTools()).tools;
  assert.equal(overridden.length, DEFAULT_TOOLS.length);
});

test('call_tool does not call itself', async () => {
  const client = await connect(tempWorkspace('sample-workspace'));
  const r = await call(client, 'autosnippet_call_tool', { name: 'call_tool', arguments: { name: 'health' } });
  assert.equal(r.isError, true);
  assert.equal(r.envelope.error?.code, 'INVALID_INPUT');
});

/**
 * An agent whose client calls only the tools it was listed: a listed tool by name, any other through
 * call_tool. Each step's tool must be one the skill names, so the flow is the skill's own.
 */
function listedOnlyAgent(client: Client, listed: string[], skill: string) {
  const text = readFileSync(path.join(repo, 'skills', skill, 'SKILL.md'), 'utf8');
  return async (name: string, args: Record<string, unknown>) => {
    assert.ok(text.includes(`autosnippet_${name}`), `${skill} does not name ${name}`);
    const r = listed.includes(`autosnippet_${name}`)
      ? await call(client, `autosnippet_${name}`, args)
      : await call(client, 'autosnippet_call_tool', { name, arguments: args });
    assert.equal(r.envelope.tool, name);
    assert.equal(r.envelope.ok, true, `${skill}: ${name} answered ${JSON.stringify(r.envelope).slice(0, 400)}`);
    return r.envelope.data;
  };
}

test('with only the default tools listed, an agent completes the cold-start and create flows of the bundled skills', {
  timeout: 120_000,
}, async () => {
  const client = await connect(tempWorkspace('sample-workspace'));
  const listed = (await client.listTools()).tools.map((t) => t.name);

  // The cold start as the skill walks it without a model: evidence pages, then the cards in one batch;
  // within the budget of an agent's cold start (30 calls, 100K characters of results).
  let calls = 0;
  let chars = 0;
  const step = listedOnlyAgent(client, listed, 'autosnippet-coldstart');
  const coldstart = async (name: string, args: Record<string, unknown>) => {
    const data = await step(name, args);
    calls++;
    chars += JSON.stringify(data).length;
    return data;
  };
  await coldstart('health', {});
  assert.equal((await coldstart('write_coldstart_cards', {})).mode, 'diagnostic', 'no sampling: diagnostic');
  const packs: { dimension: string; text: string }[] = [];
  for (let cursor: number | undefined = 0; cursor !== undefined;) {
    const page = await coldstart('coldstart_evidence', { cursor });
    packs.push(...page.packs);
    cursor = page.nextCursor;
  }
  assert.ok(packs.length >= 2, packs.map((p) => p.dimension).join(', '));
  const cards = packs.map((p) => {
    const ref = /^- (\S+:\d+) `(.*)`$/m.exec(p.text)!;
    return {
      title: `The ${p.dimension} rule the evidence shows`,
      summary: `What ${ref[1]} shows, stated as the rule.`,
      knowledgeType: 'code-standard',
      language: 'typescript',
      category: p.dimension,
      reasoning: { whyStandard: 'From the scan evidence.', sources: [ref[1]], confidence: 0.8 },
    };
  });
  const batch = await coldstart('submit_candidates', { candidates: cards });
  assert.equal(batch.created.length, cards.length, JSON.stringify(batch).slice(0, 400));
  assert.ok(calls <= 30 && chars <= 100_000, `${calls} calls, ${chars} characters`);

  const create = listedOnlyAgent(client, listed, 'autosnippet-create');
  const draft = {
    title: 'Fetch JSON through getJson',
    summary: 'HTTP reads go through getJson().',
    // Quoted as the cited file has it: a card whose sources do not hold is refused.
    code: 'export async function getJson<T>(url: string, timeoutMs = 5000): Promise<T> {',
    language: 'typescript',
  };
  await create('check_duplicate', draft);
  await create('keyword_search', { query: '@get-json' });
  assert.equal(typeof (await create('validate_candidate', { candidate: draft })).score, 'number');
  const submitted = await create('submit_candidate', {
    ...draft,
    category: 'http',
    knowledgeType: 'code-pattern',
    reasoning: { whyStandard: 'Every read uses it.', sources: ['src/http.ts:2'], confidence: 0.9 },
  });
  assert.equal(submitted.status, 'created', JSON.stringify(submitted).slice(0, 300));
});
