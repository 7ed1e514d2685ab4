// The AI-assisted tools of the built server (dist/mcp.js) use the client's model through MCP
// sampling when the client offers it, and answer in diagnostic mode when it does not.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CreateMessageRequest, CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { call, serverJs, tempWorkspace } from './client';

const closers: (() => Promise<void>)[] = [];
after(async () => {
  for (const c of closers.splice(0)) await c();
});

/** A client that declares sampling (or not) and answers each sampling/createMessage from a list. */
async function connect(
  sampling: boolean,
  answers: (string | ((params: CreateMessageRequest['params']) => string))[] = [],
  fixture?: string,
) {
  const seen: CreateMessageRequest['params'][] = [];
  const client = new Client(
    { name: 'sampling-test-client', version: '1.0.0' },
    { capabilities: sampling ? { sampling: {} } : {} },
  );
  if (sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      seen.push(request.params);
      const answer = answers[seen.length - 1];
      const text = typeof answer === 'function' ? answer(request.params) : answer;
      if (text === undefined) throw new Error(`no scripted answer for sampling request ${seen.length}`);
      return {
        role: 'assistant' as const,
        model: 'test-model',
        stopReason: 'endTurn',
        content: { type: 'text' as const, text },
      };
    });
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [process.env.AUTOSNIPPET_MCP_JS ?? serverJs, '--workspace', tempWorkspace(fixture), '--tools', 'all'],
    stderr: 'pipe',
  });
  await client.connect(transport);
  closers.push(() => client.close());
  const { tools } = await client.listTools();
  assert.ok(
    tools.some((t) => t.name === 'autosnippet_summarize_code'),
    `the agent tools are not in the built server: ${tools.map((t) => t.name).join(', ')}`,
  );
  return { client, seen };
}

test('with sampling, summarize_code asks the client model and returns its answer', async () => {
  const { client, seen } = await connect(true, [
    '```json\n{"summary": "Returns a greeting for a name.", "keyPoints": ["pure function"], "apis": ["greet"]}\n```',
  ]);
  const { envelope, isError } = await call(client, 'autosnippet_summarize_code', {
    code: 'export function greet(name: string) { return `Hi ${name}`; }',
    language: 'typescript',
  });
  assert.equal(isError, false, JSON.stringify(envelope));
  assert.equal(envelope.data.mode, 'model');
  assert.equal(envelope.data.summary, 'Returns a greeting for a name.');
  assert.deepEqual(envelope.data.apis, ['greet']);
  assert.equal(seen.length, 1);
  assert.match(seen[0].systemPrompt ?? '', /summarize source code/);
  assert.match(JSON.stringify(seen[0].messages), /export function greet/);
  assert.ok(seen[0].maxTokens > 0);
  assert.deepEqual(seen[0].metadata, { purpose: 'autosnippet:summarize_code' });
});

test('with sampling, generate_guard_rule sends a failing rule back to the client model and returns the checked one', async () => {
  const rule = (regex: string) =>
    JSON.stringify({
      id: 'no-console-log',
      message: 'Use the logger',
      regex,
      why: 'console output is lost',
      suggestion: 'log.info(...)',
    });
  const { client, seen } = await connect(true, [rule('console|log'), rule('\\bconsole\\.log\\s*\\(')]);
  const { envelope } = await call(client, 'autosnippet_generate_guard_rule', {
    description: 'no console.log in src',
    language: 'typescript',
    badExamples: ['console.log("x")'],
    goodExamples: ['log.info("x")', '// console.log("old")'],
  });
  assert.equal(envelope.ok, true, JSON.stringify(envelope));
  assert.equal(envelope.data.proposed, true);
  assert.equal(envelope.data.attempts, 2);
  assert.equal(seen.length, 2);
  assert.match(JSON.stringify(seen[1].messages), /The rule fails its examples/);
});

test('without sampling, the same tools answer in diagnostic mode with the prompt', async () => {
  const { client } = await connect(false);
  const { envelope, isError } = await call(client, 'autosnippet_summarize_code', {
    code: 'def f(): pass',
    language: 'python',
  });
  assert.equal(isError, false);
  assert.equal(envelope.data.mode, 'diagnostic');
  assert.deepEqual(envelope.data.missing, ['model']);
  assert.match(envelope.data.prompt.user, /Summarize this python code/);
});

test('with sampling, write_coldstart_cards has the client model write the cards from the evidence packs', async () => {
  /** A card per pack of the request, citing the pack's first line. */
  const cardsFrom = (params: CreateMessageRequest['params']) => {
    const content = params.messages[0].content as { type: string; text?: string };
    const cards: unknown[] = [];
    let dimension = '';
    for (const line of (content.text ?? '').split('\n')) {
      dimension = /^## (\S+)/.exec(line)?.[1] ?? dimension;
      const ref = /^- (\S+:\d+) `/.exec(line);
      if (!ref || cards.some((c) => (c as { dimension: string }).dimension === dimension)) continue;
      cards.push({
        dimension,
        evidence: [`${dimension}#1`],
        title: `Sampled card for ${dimension}`,
        knowledgeType: 'code-standard',
        summary: `What ${ref[1]} shows.`,
        code: '',
        sources: [ref[1]],
        confidence: 0.8,
      });
    }
    return JSON.stringify({ cards });
  };
  const { client, seen } = await connect(true, Array.from({ length: 8 }, () => cardsFrom), 'ecosystems/bootstrap-ts');
  const { envelope, isError } = await call(client, 'autosnippet_write_coldstart_cards', {});
  assert.equal(isError, false, JSON.stringify(envelope));
  assert.equal(envelope.data.mode, 'model');
  assert.equal(envelope.data.requests, seen.length);
  assert.ok(envelope.data.written >= 3, JSON.stringify(envelope.data));
  assert.equal((seen[0].metadata as { purpose?: string } | undefined)?.purpose, 'autosnippet:coldstart_cards');
  assert.match(seen[0].systemPrompt ?? '', /first knowledge cards/);
  const listed = await call(client, 'autosnippet_list_candidates', { origin: 'bootstrap' });
  const titles = (listed.envelope.data.candidates as { title: string }[]).map((c) => c.title);
  assert.ok(titles.filter((t) => t.startsWith('Sampled card for')).length >= 3, titles.join('\n'));
});
