// The @autosnippet chat participant inside VS Code, driven by the scripted language model of the
// test-only extension test/vscode/fake-lm-extension (the harness installs it beside AutoSnippet).
// The participant's handler is called with a recording response stream and that model.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { createCatalog } from '../../../src/core/catalog';
import { AGENT_COMMANDS } from '../../../src/core/domains/agent/commands';
import type { ScriptTurnData } from '../../../src/core/domains/agent/scripted';
import { listCandidates } from '../../../src/core/domains/knowledge/candidates';
import type { Workspace } from '../../../src/core/ground/workspace';
import { createChatRequestHandler, followupsFor, PARTICIPANT_ID } from '../../../src/vscode/chat/participant';
import { CONFIRM_ACTION_COMMAND } from '../../../src/vscode/chat/review-actions';
import type { FakeLmApi, RecordedRequest } from '../fake-lm-extension/src/extension';
import { test } from './collector';
import { activateExtension, EXTENSION_ID } from './expect';

const FAKE_LM_ID = 'autosnippet-test.fake-lm';

/** Everything a handler streamed, in order. */
class RecordingStream implements vscode.ChatResponseStream {
  readonly parts: {
    kind: 'markdown' | 'progress' | 'reference' | 'button' | 'anchor' | 'filetree' | 'push';
    value: any;
  }[] = [];
  markdown(value: string | vscode.MarkdownString): void {
    this.parts.push({ kind: 'markdown', value: typeof value === 'string' ? value : value.value });
  }
  anchor(value: vscode.Uri | vscode.Location): void {
    this.parts.push({ kind: 'anchor', value });
  }
  button(command: vscode.Command): void {
    this.parts.push({ kind: 'button', value: command });
  }
  filetree(value: vscode.ChatResponseFileTree[]): void {
    this.parts.push({ kind: 'filetree', value });
  }
  progress(value: string): void {
    this.parts.push({ kind: 'progress', value });
  }
  reference(value: vscode.Uri | vscode.Location): void {
    this.parts.push({ kind: 'reference', value });
  }
  push(part: vscode.ChatResponsePart): void {
    this.parts.push({ kind: 'push', value: part });
  }
  of(kind: RecordingStream['parts'][number]['kind']): any[] {
    return this.parts.filter((p) => p.kind === kind).map((p) => p.value);
  }
  get text(): string {
    return this.of('markdown').join('');
  }
}

async function setup(modelId: 'scripted' | 'scripted-text') {
  const api = (await activateExtension()) as unknown as { getWorkspace(): Promise<Workspace> };
  const ext = vscode.extensions.getExtension<FakeLmApi>(FAKE_LM_ID);
  assert.ok(
    ext,
    `${FAKE_LM_ID} is not loaded: the harness must install test/vscode/fake-lm-extension (CodeServer installExtensions) beside AutoSnippet`,
  );
  const fake = await ext.activate();
  const [model] = await vscode.lm.selectChatModels({ vendor: fake.vendor, id: modelId });
  assert.ok(model, `vscode.lm.selectChatModels found no ${fake.vendor}/${modelId} model`);
  const ws = await api.getWorkspace();
  const catalog = createCatalog();
  const handler = createChatRequestHandler({
    catalog,
    getWorkspace: async () => ws,
    log: { debug() {}, info() {}, warn() {}, error() {} },
  });
  const ask = async (
    prompt: string,
    command?: string,
    options: { token?: vscode.CancellationToken; history?: vscode.ChatContext['history'] } = {},
  ) => {
    const stream = new RecordingStream();
    const request = {
      prompt,
      command,
      references: [],
      toolReferences: [],
      toolInvocationToken: undefined,
      model,
    } as unknown as vscode.ChatRequest;
    const result = (await handler(
      request,
      { history: options.history ?? [] },
      stream,
      options.token ?? new vscode.CancellationTokenSource().token,
    )) as vscode.ChatResult;
    return { stream, result };
  };
  return { fake, ws, catalog, ask };
}

/** The cold start's own model request: a card per pack, citing the pack's first line and quoting it. */
function cardsAnswer(request: RecordedRequest): ScriptTurnData | undefined {
  if (!/The evidence, by dimension/.test(request.lastText)) return undefined;
  const cards: unknown[] = [];
  let dimension = '';
  for (const line of request.lastText.split('\n')) {
    dimension = /^## (\S+)/.exec(line)?.[1] ?? dimension;
    const ref = /^- (\S+:\d+) `(.*)`$/.exec(line);
    if (!ref || !dimension || cards.some((c) => (c as { dimension: string }).dimension === dimension)) continue;
    cards.push({
      dimension,
      evidence: [`${dimension}#1`],
      title: `Written by the scripted model for ${dimension}`,
      knowledgeType: 'code-standard',
      summary: `What ${ref[1]} shows, as the rule new code follows.`,
      code: '',
      sources: [ref[1]],
      confidence: 0.8,
    });
  }
  return { text: JSON.stringify({ cards }) };
}

test('package.json declares @autosnippet with its slash commands', () => {
  const pkg = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as {
    contributes?: { chatParticipants?: { id: string; name: string; commands?: { name: string }[] }[] };
  };
  const participant = pkg.contributes?.chatParticipants?.find((p) => p.id === PARTICIPANT_ID);
  assert.ok(participant, `contributes.chatParticipants has no ${PARTICIPANT_ID}`);
  assert.equal(participant.name, 'autosnippet');
  assert.deepEqual(participant.commands?.map((c) => c.name).sort(), AGENT_COMMANDS.map((c) => c.name).sort());
});

test(
  '@autosnippet /coldstart: the chat model writes the cards from the scan evidence, with progress, a summary and buttons',
  async () => {
    const { fake, ws, catalog, ask } = await setup('scripted');
    fake.setScript([], cardsAnswer);
    const { stream, result } = await ask('', 'coldstart');

    assert.ok(fake.requests.length >= 1, 'the model was asked');
    for (const r of fake.requests) {
      assert.match(r.lastText, /Every card cites `sources`/, 'the prompt carries the rules for cards');
      assert.deepEqual(r.tools, [], 'writing cards offers the model no tools');
    }
    const progress = stream.of('progress').join('\n');
    assert.match(progress, /Scanning the workspace; .+ then writes the cards/);
    assert.match(progress, /Writing cards from the evidence: /);
    assert.match(stream.text, /wrote \d+ cards from the scan of \d+ files \(\d+ requests\)/);

    const pending = listCandidates(ws, { status: 'pending' });
    const written = pending.filter((c) => c.title.startsWith('Written by the scripted model'));
    assert.ok(written.length > 0, 'the cards the model wrote are pending candidates');
    for (const c of written) assert.ok(c.tags.includes('model-written'), c.title);
    const meta = result.metadata?.autosnippet;
    assert.equal(meta.command, 'coldstart');
    for (const { id } of meta.candidates) assert.ok(pending.some((c) => c.id === id), `candidate ${id} is pending`);

    const buttons = stream.of('button') as vscode.Command[];
    if (catalog.get('approve_candidate')) {
      assert.ok(
        buttons.some((b) => b.command === CONFIRM_ACTION_COMMAND && b.arguments?.[0]?.tool === 'approve_candidate'),
        `approve buttons: ${JSON.stringify(buttons)}`,
      );
    }
    assert.ok(buttons.some((b) => b.command === 'workbench.view.extension.autosnippet'));
    const followups = followupsFor(result);
    assert.ok(followups.some((f) => f.command === 'review'), JSON.stringify(followups));
  },
  { timeoutMs: 90_000 },
);

test('@autosnippet /coldstart stopped from the chat records no candidates', async () => {
  const { fake, ws, ask } = await setup('scripted');
  fake.setScript([], cardsAnswer);
  const before = listCandidates(ws).length;
  const source = new vscode.CancellationTokenSource();
  source.cancel();
  const { stream, result } = await ask('', 'coldstart', { token: source.token });
  assert.equal(result.metadata?.autosnippet.stoppedBy, 'cancelled');
  assert.match(stream.text, /Cold start cancelled; no candidates were recorded/);
  assert.equal(listCandidates(ws).length, before);
});

test('a model without tool calling uses the text protocol; the action blocks are not shown', async () => {
  const { fake, ask } = await setup('scripted-text');
  fake.setScript([
    { text: 'Checking the workspace.', toolCalls: [{ name: 'autosnippet_health' }] },
    { text: 'AutoSnippet is ready.' },
  ]);
  const { stream, result } = await ask('is it ready?');
  assert.deepEqual(fake.requests[0].tools, [], 'no native tools are sent');
  assert.match(fake.requests[0].text, /```action/);
  assert.match(fake.requests[1].lastText, /Result of autosnippet_health:/);
  assert.match(stream.of('progress').join('\n'), /AutoSnippet health…/);
  assert.doesNotMatch(stream.text, /```action/);
  assert.match(stream.text, /AutoSnippet is ready\./);
  assert.equal(result.metadata?.autosnippet.stoppedBy, 'answer');
});

test('history: the next turn sends the earlier prompt, tool calls and results to the model', async () => {
  const { fake, ask } = await setup('scripted');
  fake.setScript([{ toolCalls: [{ name: 'autosnippet_health' }] }, { text: 'Ready.' }, { text: 'Still ready.' }]);
  const first = await ask('check health');
  const requestTurn = {
    prompt: 'check health',
    participant: PARTICIPANT_ID,
    command: undefined,
    references: [],
    toolReferences: [],
  };
  const responseTurn = { response: [], result: first.result, participant: PARTICIPANT_ID };
  await ask('and now?', undefined, {
    history: [requestTurn, responseTurn] as unknown as vscode.ChatContext['history'],
  });
  const third = fake.requests[2];
  assert.match(third.text, /check health/);
  assert.match(third.text, /call autosnippet_health/);
  assert.match(third.text, /"tool":"health"/, 'the earlier tool result is in the history');
});

test('a model error is explained in the chat with what to do', async () => {
  const { fake, ask } = await setup('scripted');
  fake.setScript([{ error: { code: 'MODEL_FAILED', message: 'the scripted model is down' } }]);
  const { stream, result } = await ask('hello');
  assert.ok(result.errorDetails?.message, 'the result carries errorDetails');
  assert.match(stream.text, /the scripted model is down/);
  assert.match(stream.text, /pick another model/i);
});

test('cancellation: a cancelled request stops without calling tools', async () => {
  const { fake, ask } = await setup('scripted');
  fake.setScript([{ toolCalls: [{ name: 'autosnippet_health' }] }, { text: 'never' }]);
  const source = new vscode.CancellationTokenSource();
  source.cancel();
  const { stream, result } = await ask('hello', undefined, { token: source.token });
  assert.equal(result.metadata?.autosnippet.stoppedBy, 'cancelled');
  assert.equal(stream.of('progress').length, 0);
});

test('@autosnippet /remember: a preview naming the files and a Publish button; the button publishes the rule and updates them', async () => {
  const { ws, ask } = await setup('scripted');
  const rule = 'Every HTTP call goes through apiClient';
  const { stream } = await ask(`${rule}. It adds auth and retries.`, 'remember');
  assert.match(stream.text, new RegExp(rule));
  const recipeFile = /`(\.autosnippet\/recipes\/conventions\/[\w-]+\.md)`/.exec(stream.text)?.[1];
  assert.ok(recipeFile, stream.text);
  const updated = [...stream.text.split('updates')[1]?.matchAll(/`([^`]+)`/g) ?? []].map((m) => m[1]);
  assert.ok(updated.length >= 1, `the preview names the instruction files it updates: ${stream.text}`);
  const [button] = stream.of('button') as vscode.Command[];
  assert.equal(button?.command, 'autosnippet.remember');
  assert.ok(!existsSync(path.join(ws.root, recipeFile)), 'nothing is written before the person presses Publish');
  const file = (await vscode.commands.executeCommand(button.command, ...(button.arguments ?? []))) as string;
  assert.equal(file, recipeFile);
  assert.match(readFileSync(path.join(ws.root, file), 'utf8'), /status: published/);
  for (const f of updated) assert.match(readFileSync(path.join(ws.root, f), 'utf8'), new RegExp(rule), f);
});
