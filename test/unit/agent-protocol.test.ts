import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  ActionBlockFilter,
  correctionMessage,
  formatAction,
  parseActions,
  toTextProtocol,
} from '../../src/core/domains/agent/action-protocol';
import { extractJson } from '../../src/core/domains/agent/model';

test('parseActions: one valid block is a call, and the prose around it is kept', () => {
  const answer =
    'I will load the guide first.\n\n```action\n{"tool": "load_skill", "params": {"name": "autosnippet-coldstart"}}\n```\n';
  const parsed = parseActions(answer);
  assert.deepEqual(parsed.actions, [{ tool: 'load_skill', params: { name: 'autosnippet-coldstart' }, index: 0 }]);
  assert.deepEqual(parsed.problems, []);
  assert.equal(parsed.text, 'I will load the guide first.');
});

test('parseActions: several blocks run in order', () => {
  const answer = [
    formatAction('health', {}),
    'then',
    formatAction('search_skills', { query: 'cold start' }),
    formatAction('load_skill', { name: 'x' }),
  ].join('\n');
  const parsed = parseActions(answer);
  assert.deepEqual(parsed.actions.map((a) => a.tool), ['health', 'search_skills', 'load_skill']);
  assert.deepEqual(parsed.actions.map((a) => a.index), [0, 1, 2]);
  assert.deepEqual(parsed.actions[1].params, { query: 'cold start' });
  assert.equal(parsed.text, 'then');
});

test('parseActions: an answer without blocks is the final answer; other fences are prose', () => {
  const answer = 'Done. Here is the pattern:\n```swift\nlet x = 1\n```\n```json\n{"tool": "health"}\n```';
  const parsed = parseActions(answer);
  assert.deepEqual(parsed.actions, []);
  assert.deepEqual(parsed.problems, []);
  assert.equal(parsed.text, answer);
});

test('parseActions: malformed blocks become problems, never exceptions, and valid neighbours still run', () => {
  const answer = [
    '```action\n{"tool": "health", "params": {}\n```', // missing brace
    '```action\n{"params": {"a": 1}}\n```', // no tool
    '```action\n{"tool": "echo", "params": [1, 2]}\n```', // params not an object
    '```action\n```', // empty
    '```action\n"just a string"\n```', // not an object
    formatAction('echo', { text: 'ok' }),
  ].join('\n');
  const parsed = parseActions(answer);
  assert.deepEqual(parsed.actions.map((a) => [a.tool, a.index]), [['echo', 5]]);
  assert.deepEqual(parsed.problems.map((p) => p.index), [0, 1, 2, 3, 4]);
  assert.match(parsed.problems[0].message, /not valid JSON/);
  assert.match(parsed.problems[1].message, /no "tool"/);
  assert.match(parsed.problems[2].message, /"params" must be an object/);
  assert.match(parsed.problems[3].message, /empty/);
  assert.match(parsed.problems[4].message, /one JSON object/);
  const correction = correctionMessage(parsed.problems, parsed.actions.length);
  assert.match(correction, /5 action blocks could not be read; the other 1 ran/);
  assert.match(correction, /```action\n\{"tool":"tool_name"/);
});

test('parseActions: an unclosed block is a problem; lenient JSON and other field names are accepted', () => {
  assert.match(parseActions('text ```action\n{"tool": "health"}').problems[0].message, /not closed/);
  const lenient = parseActions('```action\n{"name": "echo", "arguments": {"text": "a",},}\n```');
  assert.deepEqual(lenient.actions, [{ tool: 'echo', params: { text: 'a' }, index: 0 }]);
  const sameLine = parseActions('```action {"tool": "echo", "input": {"text": "b"}} ```');
  assert.deepEqual(sameLine.actions, [{ tool: 'echo', params: { text: 'b' }, index: 0 }]);
  const noParams = parseActions('```ACTION\n{"tool": "health"}\n```');
  assert.deepEqual(noParams.actions, [{ tool: 'health', params: {}, index: 0 }]);
});

test('ActionBlockFilter streams the prose and holds back action blocks, whatever the chunking', () => {
  const answer =
    'Loading the guide.\n```action\n{"tool": "load_skill", "params": {"name": "a"}}\n```\nThen ``code`` and more.';
  for (const size of [1, 2, 3, 5, 7, 11, 64]) {
    const filter = new ActionBlockFilter();
    let shown = '';
    for (let i = 0; i < answer.length; i += size) shown += filter.push(answer.slice(i, i + size));
    shown += filter.end();
    assert.equal(shown, 'Loading the guide.\n\nThen ``code`` and more.', `chunk size ${size}`);
  }
  const unclosed = new ActionBlockFilter();
  assert.equal(unclosed.push('a ```action\n{"tool"') + unclosed.end(), 'a ');
});

test('toTextProtocol turns native calls and results of an earlier turn into text', () => {
  const [call, result] = toTextProtocol([
    {
      role: 'assistant',
      parts: [{ type: 'text', text: 'Checking.' }, { type: 'tool_call', id: 'c1', name: 'health', input: {} }],
    },
    { role: 'user', parts: [{ type: 'tool_result', callId: 'c1', name: 'health', text: '{"ok":true}' }] },
  ]);
  assert.equal(call.parts.length, 1);
  assert.match(
    (call.parts[0] as { text: string }).text,
    /Checking\.\n\n```action\n\{"tool":"health","params":\{\}\}\n```/,
  );
  assert.match((result.parts[0] as { text: string }).text, /Result of health:\n```json\n\{"ok":true\}\n```/);
});

test('extractJson finds fenced, bare and slightly broken JSON, and says when there is none', () => {
  assert.deepEqual(extractJson('Sure:\n```json\n{"a": 1}\n```'), { ok: true, value: { a: 1 } });
  assert.deepEqual(extractJson('The answer is {"a": [1, 2,]} as asked.'), { ok: true, value: { a: [1, 2] } });
  assert.deepEqual(extractJson('[{"id": "x"}]'), { ok: true, value: [{ id: 'x' }] });
  assert.equal(extractJson('no json here').ok, false);
  assert.equal(extractJson('{"a": }').ok, false);
});
