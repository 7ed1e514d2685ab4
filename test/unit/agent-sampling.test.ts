// The MCP sampling ChatModel against the SDK's own client, in one process (InMemoryTransport). The
// same path through the built server is in test/mcp/sampling.test.ts.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type CreateMessageRequest,
  CreateMessageRequestSchema,
  type CreateMessageResult,
} from '@modelcontextprotocol/sdk/types.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { catalogToolbox } from '../../src/core/catalog/toolbox';
import { ChatModelError } from '../../src/core/domains/agent/model';
import { runAgent } from '../../src/core/domains/agent/react';
import { samplingModel } from '../../src/mcp/sampling';
import { echoTool, tempWorkspace, testCatalog } from './agent-helpers';

type Answer = (
  params: CreateMessageRequest['params'],
) => CreateMessageResult | Promise<CreateMessageResult> | Record<string, unknown>;

async function connect(capabilities: Record<string, unknown>, answers: Answer[]) {
  const server = new Server({ name: 'test-server', version: '0' }, { capabilities: { tools: {} } });
  const client = new Client({ name: 'sampling-client', version: '1' }, { capabilities });
  const seen: CreateMessageRequest['params'][] = [];
  if (capabilities.sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      seen.push(request.params);
      const answer = answers[seen.length - 1];
      if (!answer) throw new Error('no scripted answer');
      return (await answer(request.params)) as CreateMessageResult;
    });
  }
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), client.connect(b)]);
  return { server, client, seen, close: () => client.close() };
}

const text = (t: string) => ({ role: 'assistant', model: 'client-model', content: { type: 'text', text: t } });

test('no sampling capability: no model, so tools fall back to diagnostic mode', async () => {
  const { server, close } = await connect({}, []);
  assert.equal(samplingModel(server), undefined);
  await close();
});

test('sampling without tools: the text protocol carries tool calls, and the system prompt travels as systemPrompt', async () => {
  const { server, seen, close } = await connect({ sampling: {} }, [
    () => text('Checking.\n```action\n{"tool": "echo", "params": {"text": "via sampling"}}\n```'),
    () => text('The echo said: via sampling.'),
  ]);
  const model = samplingModel(server)!;
  assert.equal(model.supportsToolCalling, false);
  assert.equal(model.id, 'mcp-sampling:sampling-client');
  const ws = await tempWorkspace();
  const toolbox = catalogToolbox({
    catalog: testCatalog([echoTool]),
    ws,
    context: { actor: 'external_agent', channel: 'mcp' },
  });
  const result = await runAgent({ model, toolbox, system: 'SYSTEM PROMPT', prompt: 'echo something' });
  assert.equal(result.text, 'The echo said: via sampling.');
  assert.equal(result.toolCalls.length, 1);
  assert.match(seen[0].systemPrompt ?? '', /^SYSTEM PROMPT/);
  assert.equal(seen[0].tools, undefined);
  assert.equal(seen[0].includeContext, 'none');
  assert.deepEqual(seen[0].metadata, { purpose: 'autosnippet:react' });
  const last = seen[1].messages[seen[1].messages.length - 1];
  assert.equal(last.role, 'user');
  assert.match(JSON.stringify(last.content), /Result of echo/);
  await close();
});

test('sampling with tools: native tool_use and tool_result blocks, paired by id', async () => {
  const { server, seen, close } = await connect({ sampling: { tools: {} } }, [
    () => ({
      role: 'assistant',
      model: 'm',
      stopReason: 'toolUse',
      content: [
        { type: 'text', text: 'Let me look.' },
        { type: 'tool_use', id: 'tu_1', name: 'autosnippet_echo', input: { text: 'native' } },
      ],
    }),
    () => text('Done natively.'),
  ]);
  const model = samplingModel(server)!;
  assert.equal(model.supportsToolCalling, true);
  const ws = await tempWorkspace();
  const toolbox = catalogToolbox({
    catalog: testCatalog([echoTool]),
    ws,
    context: { actor: 'external_agent', channel: 'mcp' },
  });
  const result = await runAgent({ model, toolbox, system: 'S', prompt: 'go' });
  assert.equal(result.text, 'Done natively.');
  assert.ok(seen[0].tools?.some((t) => t.name === 'autosnippet_echo'));
  assert.deepEqual(seen[0].toolChoice, { mode: 'auto' });
  const [assistant, results] = seen[1].messages.slice(-2);
  assert.deepEqual((assistant.content as { type: string }[]).map((c) => c.type), ['text', 'tool_use']);
  const block = (Array.isArray(results.content) ? results.content[0] : results.content) as {
    type: string;
    toolUseId: string;
    content: { text: string }[];
  };
  assert.equal(block.type, 'tool_result');
  assert.equal(block.toolUseId, 'tu_1');
  assert.match(block.content[0].text, /"echoed":"native"/);
  await close();
});

test('an AI-assisted tool uses the client model through sampling', async () => {
  const { server, seen, close } = await connect({ sampling: {} }, [() => text('{"summary": "Adds two numbers."}')]);
  const ws = await tempWorkspace();
  const result = await testCatalog().invoke(
    ws,
    'summarize_code',
    { code: 'const add = (a, b) => a + b;', language: 'javascript' },
    { actor: 'external_agent', channel: 'mcp', model: samplingModel(server) },
  );
  assert.equal(result.ok, true);
  assert.equal((result as any).data.summary, 'Adds two numbers.');
  assert.deepEqual(seen[0].metadata, { purpose: 'autosnippet:summarize_code' });
  assert.equal(seen[0].temperature, 0);
  await close();
});

test('a client that refuses or fails the request gives a ChatModelError a person can act on', async () => {
  const { server, close } = await connect({ sampling: {} }, [() => {
    throw new Error('User rejected sampling request');
  }]);
  await assert.rejects(
    samplingModel(server)!.send({ messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }] }),
    (e: unknown) =>
      e instanceof ChatModelError && e.code === 'MODEL_FAILED' && /User rejected/.test(e.message)
      && /diagnostic mode/.test(e.hint ?? ''),
  );
  await close();
});
