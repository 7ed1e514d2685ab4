import assert from 'node:assert/strict';
import { test } from 'node:test';
import { catalogToolbox } from '../../src/core/catalog/toolbox';
import { ChatModelError, type ChatRequest, textOf } from '../../src/core/domains/agent/model';
import { type AgentEvent, MAX_TOOL_ROUNDS, runAgent } from '../../src/core/domains/agent/react';
import { ScriptedModel } from '../../src/core/domains/agent/scripted';
import { approveTool, echoTool, recordingProposeTool, tempWorkspace, testCatalog, waitTool } from './agent-helpers';

async function setup(log: string[] = []) {
  const ws = await tempWorkspace();
  const catalog = testCatalog([echoTool, waitTool, approveTool, recordingProposeTool(log)]);
  const toolbox = catalogToolbox({ catalog, ws, context: { actor: 'copilot_agent', channel: 'test' } });
  return { ws, catalog, toolbox };
}

const lastUserText = (r: Omit<ChatRequest, 'onText'>) => textOf(r.messages[r.messages.length - 1]);

test('native tool calls: the model calls a tool, reads its result, then answers', async () => {
  const { toolbox } = await setup();
  const model = new ScriptedModel([
    { text: 'Let me check.', toolCalls: [{ name: 'autosnippet_echo', input: { text: 'hi' } }] },
    { text: 'The tool said hi.' },
  ]);
  const events: AgentEvent[] = [];
  const result = await runAgent({ model, toolbox, system: 'SYSTEM', prompt: 'say hi', onEvent: (e) => events.push(e) });

  assert.equal(result.stoppedBy, 'answer');
  assert.equal(result.protocol, 'native');
  assert.equal(result.text, 'The tool said hi.');
  assert.equal(result.rounds, 1);
  assert.equal(result.requests, 2);
  assert.deepEqual(result.toolCalls.map((c) => [c.call.name, c.ok]), [['autosnippet_echo', true]]);
  // The first request offers the tools natively, prefixed as the skills name them.
  assert.ok(
    model.requests[0].tools?.some((t) => t.name === 'autosnippet_echo' && t.description === 'Answers with its input.'),
  );
  assert.equal(model.requests[0].system, 'SYSTEM');
  // The second request carries the call and its result, paired by id.
  const second = model.requests[1].messages;
  assert.deepEqual(second.map((m) => m.role), ['user', 'assistant', 'user']);
  const call = second[1].parts.find((p) => p.type === 'tool_call');
  const res = second[2].parts[0];
  assert.ok(call && call.type === 'tool_call' && res.type === 'tool_result' && res.callId === call.id);
  assert.deepEqual(JSON.parse(res.type === 'tool_result' ? res.text : ''), {
    ok: true,
    tool: 'echo',
    data: { echoed: 'hi' },
  });
  // Events: progress for the tool, streamed text.
  assert.deepEqual(events.filter((e) => e.type !== 'text').map((e) => e.type), [
    'request',
    'tool_started',
    'tool_finished',
    'request',
  ]);
  assert.equal(
    events.filter((e) => e.type === 'text').map((e) => (e as { delta: string }).delta).join(''),
    'Let me check.The tool said hi.',
  );
  assert.equal(result.turn.length, 4);
});

test('text protocol: a model without tool calling writes action blocks; results come back as text', async () => {
  const { toolbox } = await setup();
  const model = new ScriptedModel(
    [
      {
        text: 'First the tool.',
        toolCalls: [{ name: 'echo', input: { text: 'one' } }, { name: 'echo', input: { text: 'two' } }],
      },
      { text: 'Both ran.' },
    ],
    { supportsToolCalling: false },
  );
  let streamed = '';
  const result = await runAgent({
    model,
    toolbox,
    system: 'SYSTEM',
    prompt: 'go',
    onEvent: (e) => {
      if (e.type === 'text') streamed += e.delta;
    },
  });
  assert.equal(result.protocol, 'text');
  assert.equal(result.text, 'Both ran.');
  assert.equal(result.toolCalls.length, 2);
  assert.equal(model.requests[0].tools, undefined, 'no native tools are sent');
  assert.match(model.requests[0].system ?? '', /```action/, 'the protocol is explained in the system prompt');
  const results = lastUserText(model.requests[1]);
  assert.match(results, /Result of echo:\n```json\n\{"ok":true,"tool":"echo","data":\{"echoed":"one"\}\}/);
  assert.match(results, /"echoed":"two"/);
  assert.doesNotMatch(streamed, /```action/, 'action blocks are not shown to the person');
  assert.match(streamed, /First the tool\./);
});

test('a malformed action block is answered with a correction, and the model recovers', async () => {
  const { toolbox } = await setup();
  const model = new ScriptedModel(
    [
      { text: '```action\n{"tool": "echo", "params": {"text": "x"}\n```' },
      { text: '```action\n{"tool": "echo", "params": {"text": "fixed"}}\n```' },
      { text: 'Fixed it.' },
    ],
    { supportsToolCalling: false },
  );
  const events: AgentEvent[] = [];
  const result = await runAgent({ model, toolbox, system: 'S', prompt: 'go', onEvent: (e) => events.push(e) });
  assert.equal(result.stoppedBy, 'answer');
  assert.equal(result.text, 'Fixed it.');
  assert.match(lastUserText(model.requests[1]), /could not be read:\n- action block 1 .*not valid JSON/);
  assert.ok(events.some((e) => e.type === 'correction'));
  assert.deepEqual(result.toolCalls.map((c) => c.call.input), [{ text: 'fixed' }]);
  assert.equal(result.rounds, 2, 'the correction round counts');
});

test(`at most ${MAX_TOOL_ROUNDS} tool rounds: then one last request without tools asks for the answer`, async () => {
  const { toolbox } = await setup();
  const model = new ScriptedModel([], {
    whenExhausted: { text: 'again', toolCalls: [{ name: 'echo', input: { text: 'loop' } }] },
  });
  const events: AgentEvent[] = [];
  const result = await runAgent({
    model,
    toolbox,
    system: 'S',
    prompt: 'loop forever',
    onEvent: (e) => events.push(e),
  });
  assert.equal(result.stoppedBy, 'max_rounds');
  assert.equal(result.rounds, MAX_TOOL_ROUNDS);
  assert.equal(result.toolCalls.length, MAX_TOOL_ROUNDS);
  assert.equal(model.requests.length, MAX_TOOL_ROUNDS + 1);
  const last = model.requests[MAX_TOOL_ROUNDS];
  assert.equal(last.tools, undefined, 'the last request offers no tools');
  assert.match(lastUserText(last), /used all 6 rounds/);
  assert.ok(events.some((e) => e.type === 'limit'));
  // A smaller cap is honoured too.
  const small = await runAgent({
    model: new ScriptedModel([], { whenExhausted: { toolCalls: [{ name: 'echo' }] } }),
    toolbox,
    system: 'S',
    prompt: 'x',
    maxRounds: 2,
  });
  assert.equal(small.rounds, 2);
  assert.equal(small.requests, 3);
});

test('cancellation while the model thinks: no tool runs, the run says cancelled', async () => {
  const { toolbox } = await setup();
  const controller = new AbortController();
  const model = new ScriptedModel([{ delayMs: 5000, toolCalls: [{ name: 'echo' }] }]);
  setTimeout(() => controller.abort(), 30);
  const started = Date.now();
  const result = await runAgent({ model, toolbox, system: 'S', prompt: 'x', signal: controller.signal });
  assert.equal(result.stoppedBy, 'cancelled');
  assert.equal(result.toolCalls.length, 0);
  assert.ok(Date.now() - started < 2000, 'the wait was cut short');
});

test('cancellation while a tool runs: the tool sees the signal and the model is not asked again', async () => {
  const { toolbox } = await setup();
  const controller = new AbortController();
  const model = new ScriptedModel([{ toolCalls: [{ name: 'wait_forever' }, { name: 'echo' }] }, { text: 'never' }]);
  setTimeout(() => controller.abort(), 30);
  const result = await runAgent({ model, toolbox, system: 'S', prompt: 'x', signal: controller.signal });
  assert.equal(result.stoppedBy, 'cancelled');
  assert.equal(model.requests.length, 1);
  assert.deepEqual(result.toolCalls.map((c) => c.call.name), ['wait_forever'], 'the second call never started');
});

test('already cancelled: nothing is sent', async () => {
  const { toolbox } = await setup();
  const controller = new AbortController();
  controller.abort();
  const model = new ScriptedModel([{ text: 'x' }]);
  const result = await runAgent({ model, toolbox, system: 'S', prompt: 'x', signal: controller.signal });
  assert.equal(result.stoppedBy, 'cancelled');
  assert.equal(model.requests.length, 0);
});

test('every call goes through the catalog as copilot_agent: proposals pass the Gateway, people-only tools are refused', async () => {
  const log: string[] = [];
  const { toolbox } = await setup(log);
  const model = new ScriptedModel([
    {
      toolCalls: [
        { name: 'autosnippet_note_proposal', input: { title: 'a' } },
        { name: 'autosnippet_approve_thing', input: { id: 'x' } },
        { name: 'no_such_tool' },
        { name: 'echo', input: { bad: 1 } },
      ],
    },
    { text: 'done' },
  ]);
  const result = await runAgent({ model, toolbox, system: 'S', prompt: 'x' });
  assert.deepEqual(log, ['copilot_agent:a']);
  assert.deepEqual(result.toolCalls.map((c) => [c.ok, c.code]), [
    [true, undefined],
    [false, 'PERMISSION_DENIED'],
    [false, 'UNKNOWN_TOOL'],
    [false, 'INVALID_INPUT'],
  ]);
  assert.ok(!toolbox.specs.some((s) => s.name.endsWith('approve_thing')), 'review tools are not offered');
  const results = model.requests[1].messages[2].parts;
  assert.equal(results.length, 4);
  assert.ok(results.every((p) => p.type === 'tool_result'));
  assert.deepEqual(results.map((p) => (p.type === 'tool_result' ? Boolean(p.isError) : null)), [
    false,
    true,
    true,
    true,
  ]);
});

test('skills loaded are reported as references, once each', async () => {
  const { toolbox } = await setup();
  const model = new ScriptedModel([
    { toolCalls: [{ name: 'autosnippet_load_skill', input: { name: 'autosnippet-coldstart', section: 'Steps' } }] },
    { toolCalls: [{ name: 'autosnippet_load_skill', input: { name: 'autosnippet-coldstart' } }] },
    { text: 'ok' },
  ]);
  const refs: AgentEvent[] = [];
  const result = await runAgent({
    model,
    toolbox,
    system: 'S',
    prompt: 'x',
    onEvent: (e) => e.type === 'reference' && refs.push(e),
  });
  assert.equal(refs.length, 1);
  assert.equal(result.references.length, 1);
  assert.equal(result.references[0].kind, 'skill');
  assert.equal(result.references[0].name, 'autosnippet-coldstart');
  assert.match(result.references[0].path ?? '', /skills[\\/]autosnippet-coldstart[\\/]SKILL\.md$/);
});

test('model errors reach the caller as ChatModelError; history is sent before the new prompt', async () => {
  const { toolbox } = await setup();
  const failing = new ScriptedModel([{ error: { code: 'MODEL_BLOCKED', message: 'quota' } }]);
  await assert.rejects(
    runAgent({ model: failing, toolbox, system: 'S', prompt: 'x' }),
    (e: unknown) => e instanceof ChatModelError && e.code === 'MODEL_BLOCKED',
  );

  const first = await runAgent({
    model: new ScriptedModel([{ toolCalls: [{ name: 'echo', input: { text: 'h' } }] }, { text: 'one' }]),
    toolbox,
    system: 'S',
    prompt: 'first',
  });
  const model = new ScriptedModel([{ text: 'two' }], { supportsToolCalling: false });
  await runAgent({ model, toolbox, system: 'S', prompt: 'second', history: first.turn });
  const sent = model.requests[0].messages;
  assert.equal(sent.length, first.turn.length + 1);
  assert.equal(textOf(sent[0]), 'first');
  assert.match(textOf(sent[1]), /```action\n\{"tool":"echo"/, 'earlier native calls are shown in the text protocol');
  assert.equal(textOf(sent[sent.length - 1]), 'second');
});
