// The pure parts of the chat participant: history across turns, what a turn mentions (for the review
// buttons), and choosing other extensions' tools by relevance.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { candidatesIn, draftRecipesIn } from '../../src/core/domains/agent/mentions';
import { type ChatMessage, textOf } from '../../src/core/domains/agent/model';
import { rankToolsByRelevance } from '../../src/core/domains/agent/relevance';
import { compactTurn, historyMessages, type TurnMetadata } from '../../src/vscode/chat/history';

const P = 'autosnippet.agent';
const req = (prompt: string, command?: string, participant = P) => ({
  prompt,
  command,
  participant,
  references: [],
  toolReferences: [],
});
const res = (text: string, meta?: Partial<TurnMetadata>, participant = P) => ({
  participant,
  response: [{ value: { value: text } }],
  result: {
    metadata: meta
      ? {
        autosnippet: {
          version: 1,
          messages: [],
          references: [],
          candidates: [],
          stoppedBy: 'answer',
          rounds: 0,
          tools: [],
          ...meta,
        },
      }
      : {},
  },
});

test('history: turns with metadata replay their messages (tool calls and results); others their prose', () => {
  const turn: ChatMessage[] = [
    { role: 'user', parts: [{ type: 'text', text: 'check' }] },
    { role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'autosnippet_health', input: {} }] },
    { role: 'user', parts: [{ type: 'tool_result', callId: 'c1', name: 'autosnippet_health', text: '{"ok":true}' }] },
    { role: 'assistant', parts: [{ type: 'text', text: 'ready' }] },
  ];
  const history = [
    req('check'),
    res('ready', { messages: turn }),
    req('older answer without metadata', 'search'),
    res('plain answer'),
    req('someone else', undefined, 'other.participant'),
    res('not ours', undefined, 'other.participant'),
  ];
  const messages = historyMessages(history as any, P);
  assert.equal(messages.length, 6);
  assert.deepEqual(messages.slice(0, 4), turn);
  assert.equal(textOf(messages[4]), '/search older answer without metadata');
  assert.equal(textOf(messages[5]), 'plain answer');
});

test('history keeps the last eight turns, and stored tool results are shortened', () => {
  const history = Array.from({ length: 12 }, (_, i) => [req(`q${i}`), res(`a${i}`)]).flat();
  const messages = historyMessages(history as any, P);
  assert.equal(messages.length, 16);
  assert.equal(textOf(messages[0]), 'q4');
  const [long] = compactTurn([{
    role: 'user',
    parts: [{ type: 'tool_result', callId: 'x', name: 't', text: 'y'.repeat(10_000) }],
  }]);
  const part = long.parts[0];
  assert.ok(part.type === 'tool_result' && part.text.length < 3100 && /more characters not kept/.test(part.text));
});

test('mentions: pending candidates (with titles when known) and draft recipes, found in any result shape', () => {
  const results = [
    { dimensions: [{ id: 'code-standard', created: ['cand-aaaaaaaaaaaa'] }], next: 'x' },
    {
      candidates: [
        { id: 'cand-aaaaaaaaaaaa', title: 'Strict mode', status: 'pending' },
        { id: 'cand-bbbbbbbbbbbb', title: 'Rejected', status: 'rejected' },
      ],
    },
    {
      recipe: {
        id: 'errors/app-error',
        title: 'AppError',
        status: 'draft',
        file: '.autosnippet/recipes/errors/app-error.md',
      },
      recipeId: 'cand-cccccccccccc',
    },
  ];
  assert.deepEqual([...candidatesIn(results).values()], [{ id: 'cand-aaaaaaaaaaaa', title: 'Strict mode' }]);
  assert.deepEqual(
    [...draftRecipesIn(results).values()],
    [{ id: 'errors/app-error', title: 'AppError', file: '.autosnippet/recipes/errors/app-error.md' }],
  );
});

test('other tools are chosen by relevance to the request, within the room left', () => {
  const tools = [
    { name: 'github_create_issue', description: 'Create an issue in a GitHub repository', tags: ['github'] },
    { name: 'run_tests', description: 'Run the test suite of the workspace', tags: ['testing'] },
    { name: 'fetch_webpage', description: 'Fetch a web page', tags: [] },
    { name: 'searchIssues', description: 'Search GitHub issues and pull requests', tags: ['github'] },
  ];
  assert.deepEqual(rankToolsByRelevance('open a GitHub issue for the failing tests', tools, 2).map((t) => t.name), [
    'github_create_issue',
    'searchIssues',
  ]);
  assert.deepEqual(rankToolsByRelevance('run the tests', tools, 5).map((t) => t.name), ['run_tests']);
  assert.deepEqual(rankToolsByRelevance('anything', tools, 0), []);
  assert.deepEqual(rankToolsByRelevance('the a of', tools, 5), []);
});
