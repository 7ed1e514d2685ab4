// The @autosnippet chat participant inside VS Code, driven by the scripted language model of the
// test-only extension test/vscode/fake-lm-extension (the harness installs it beside AutoSnippet).
// The participant's handler is called with a recording response stream and that model.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { AGENT_COMMANDS } from '../../../src/core/agent/commands';
import type { ScriptTurnData } from '../../../src/core/agent/scripted';
import { listCandidates } from '../../../src/core/knowledge/candidates';
import { createCatalog } from '../../../src/core/tools';
import type { Workspace } from '../../../src/core/workspace';
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

/** The refine step's own model request: one refinement per candidate named in it. */
function refineAnswer(request: RecordedRequest): ScriptTurnData | undefined {
  if (!/Candidates to refine:/.test(request.lastText)) return undefined;
  const ids = [...new Set([...request.lastText.matchAll(/"id": "(cand-[0-9a-f]+)"/g)].map((m) => m[1]))];
  return {
    text: JSON.stringify(
      ids.map((id) => ({ id, summary: `Refined by the scripted model: ${id}`, confidence: 0.7, tags: ['scripted'] })),
    ),
  };
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
  '@autosnippet /coldstart: loads the coldstart skill, runs the pipeline, streams progress, references and buttons, and candidates exist',
  async () => {
    const { fake, ws, catalog, ask } = await setup('scripted');
    fake.setScript(
      [
        {
          text: 'I will load the cold-start guide first.',
          toolCalls: [{ name: 'autosnippet_load_skill', input: { name: 'autosnippet-coldstart', section: 'Steps' } }],
        },
        {
          text: 'Now the full cold-start pipeline.',
          toolCalls: [{ name: 'autosnippet_run_pipeline', input: { name: 'bootstrap_full_pipeline' } }],
        },
        (req) => ({
          text: `Cold start done: ${
            (req.lastText.match(/"candidateIds":\[[^\]]*\]/)?.[0].match(/cand-/g) ?? []).length
          } candidates are waiting for your review in the Candidates view.`,
        }),
      ],
      refineAnswer,
    );
    const { stream, result } = await ask('', 'coldstart');

    const first = fake.requests[0];
    assert.match(first.text, /## This request: \/coldstart/, 'the system prompt carries the command');
    assert.match(first.text, /Set up AutoSnippet for this workspace\./, 'an empty prompt gets the command default');
    assert.ok(
      first.tools.includes('autosnippet_run_pipeline') && first.tools.includes('autosnippet_load_skill'),
      `tools offered: ${first.tools.join(', ')}`,
    );
    assert.ok(first.tools.length < 128, `${first.tools.length} tools, under the 128-tool limit`);
    assert.ok(!first.tools.some((t) => /approve|publish|delete/.test(t)), 'no people-only tools are offered');

    const progress = stream.of('progress').join('\n');
    assert.match(progress, /Load a skill…/);
    assert.match(progress, /bootstrap_full_pipeline: bootstrap/);
    assert.match(progress, /bootstrap_full_pipeline: refine/);

    const refs = stream.of('reference').map((u: vscode.Uri) => u.fsPath);
    assert.ok(refs.some((p) => /autosnippet-coldstart[\\/]SKILL\.md$/.test(p)), `references: ${refs.join(', ')}`);
    assert.ok(
      refs.some((p) => /autosnippet-reference-jsts[\\/]SKILL\.md$/.test(p)),
      `the language's reference skill loaded by the pipeline is referenced: ${refs.join(', ')}`,
    );
    assert.match(stream.text, /I will load the cold-start guide first\./);
    assert.match(stream.text, /Cold start done: \d+ candidates are waiting/);
    assert.doesNotMatch(stream.text, /```action/);

    const meta = result.metadata?.autosnippet;
    assert.equal(meta.stoppedBy, 'answer');
    assert.deepEqual(meta.tools.map((t: { name: string; ok: boolean }) => [t.name, t.ok]), [
      ['autosnippet_load_skill', true],
      ['autosnippet_run_pipeline', true],
    ]);
    const pending = listCandidates(ws, { status: 'pending' });
    assert.ok(pending.length > 0, 'the cold start created candidates');
    const mentioned: string[] = meta.candidates.map((c: { id: string }) => c.id);
    for (const id of mentioned) assert.ok(pending.some((c) => c.id === id), `candidate ${id} exists and is pending`);
    const refined = pending.filter((c) => c.summary.startsWith('Refined by the scripted model'));
    assert.ok(refined.length > 0, 'the refine step used the chat model to improve the candidates');

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
