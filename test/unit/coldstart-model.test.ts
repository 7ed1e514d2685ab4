// The cold start with a model: the deterministic scripted model writes cards from the packs it is sent;
// what is recorded is checked against the evidence and the files.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { createCatalog } from '../../src/core/catalog';
import type { ToolContext } from '../../src/core/catalog/types';
import { coldstartPrompt } from '../../src/core/domains/agent/coldstart-prompt';
import { type ChatRequest, textOf } from '../../src/core/domains/agent/model';
import { ScriptedModel, type ScriptTurnData } from '../../src/core/domains/agent/scripted';
import { listCandidates } from '../../src/core/domains/knowledge/candidates';
import { validateCandidate } from '../../src/core/domains/knowledge/validate';
import type { Workspace } from '../../src/core/ground/workspace';
import { closeWorkspaces, dataOf, fixtureWorkspace } from './structure-helpers';

after(closeWorkspaces);
const catalog = createCatalog();
const ctx = (model?: ScriptedModel, signal?: AbortSignal): ToolContext => ({
  actor: 'copilot_agent',
  channel: 'test',
  ...(model ? { model } : {}),
  ...(signal ? { signal } : {}),
});

/** The references the prompt shows, per dimension: `- path:line \`text\``. */
function evidenceIn(prompt: string): Map<string, { at: string; text: string }[]> {
  const out = new Map<string, { at: string; text: string }[]>();
  let dim = '';
  for (const line of prompt.split('\n')) {
    const h = /^## (\S+)/.exec(line);
    if (h) dim = h[1];
    const r = /^- (\S+:\d+) `(.*)`$/.exec(line);
    if (r && dim) out.set(dim, [...(out.get(dim) ?? []), { at: r[1], text: r[2] }]);
  }
  return out;
}

const userOf = (r: Omit<ChatRequest, 'onText'>) => textOf(r.messages[0]);
const answer = (cards: unknown[]): ScriptTurnData => ({ text: '```json\n' + JSON.stringify({ cards }) + '\n```' });

/** A card per dimension that cites its first reference and quotes that line. */
function honestCards(prompt: string) {
  return [...evidenceIn(prompt)].map(([dimension, refs]) => ({
    dimension,
    evidence: [`${dimension}#1`],
    title: `The ${dimension} rule the evidence shows`,
    knowledgeType: 'code-standard',
    summary: `What ${refs[0].at} shows, stated as the rule new code follows here.`,
    code: refs[0].text.length >= 6 ? refs[0].text : '',
    sources: [refs[0].at],
    confidence: 0.8,
  }));
}

function lineOf(ws: Workspace, at: string): string {
  const [, file, line] = /^(.+):(\d+)$/.exec(at)!;
  return readFileSync(path.join(ws.root, file), 'utf8').split('\n')[Number(line) - 1].trim();
}

test('the model writes the cards from the packs; they replace the scan cards and cite the evidence', async () => {
  const ws = await fixtureWorkspace('bootstrap-ts');
  const script = (r: ChatRequest) => answer(honestCards(userOf(r)));
  const model = new ScriptedModel(Array.from({ length: 10 }, () => script));
  const r = await catalog.invoke(ws, 'write_coldstart_cards', {}, ctx(model));
  assert.ok(r.ok, JSON.stringify(r));
  const data = r.data as any;
  assert.equal(data.mode, 'model');
  assert.ok(data.requests >= 1 && data.requests === model.requests.length);
  assert.deepEqual(data.refused, []);
  assert.deepEqual(data.flagged, []);
  const cards = listCandidates(ws);
  assert.equal(cards.length, data.written);
  assert.ok(cards.length >= 4);
  for (const c of cards) {
    assert.ok(c.tags.includes('model-written'), c.title);
    assert.match(c.origin, /^bootstrap:/);
    assert.match(c.reasoning.whyStandard, /Written by a model from the scan's evidence \(\S+#1\)/);
    if (c.code) assert.equal(c.code, lineOf(ws, c.reasoning.sources[0]));
  }
  // Every prompt carries the rules and asks for JSON cards of its own dimensions only.
  for (const req of model.requests) {
    assert.match(userOf(req), /Every card cites `sources`/);
    assert.equal(req.purpose, 'coldstart_cards');
  }
});

test('a card citing a real line the scan did not show is flagged with that line; one citing no such line is refused', async () => {
  const ws = await fixtureWorkspace('bootstrap-ts');
  let asked = 0;
  const model = new ScriptedModel(Array.from({ length: 10 }, () => (r: ChatRequest) => {
    const user = userOf(r);
    const [first] = honestCards(user);
    if (asked++ > 0 || !first) return answer([]);
    // The first request: one honest card, one citing a line outside the evidence, one citing a missing line.
    return answer([
      first,
      { ...first, title: 'A rule resting on a line the scan never showed', code: '', sources: ['package.json:1'] },
      { ...first, title: 'A rule resting on nothing', code: '', sources: ['src/core/app-error.ts:9999'] },
    ]);
  }));
  const data = dataOf(await catalog.invoke(ws, 'write_coldstart_cards', {}, ctx(model)));
  assert.equal(data.flagged.length, 1);
  assert.match(
    data.flagged[0].note,
    /^Check before approving: package\.json:1 `.+` is not among the lines the scan found/,
  );
  assert.equal(data.refused.length, 1);
  assert.equal(data.refused[0].title, 'A rule resting on nothing');
  assert.match(data.refused[0].problem, /line 9999 .* is past its end/);
  // The refused card was sent back once, with what the file holds.
  const repair = model.requests.find((q) => /their sources do not hold/.test(textOf(q.messages[0])));
  assert.ok(repair, 'a repair request');
  const cards = listCandidates(ws);
  const flagged = cards.find((c) => c.title === 'A rule resting on a line the scan never showed');
  assert.ok(flagged?.tags.includes('unverified-source'));
  assert.match(flagged!.rationale ?? '', new RegExp(`package\\.json:1 \`${escape(lineOf(ws, 'package.json:1'))}\``));
  assert.equal(cards.some((c) => c.title === 'A rule resting on nothing'), false);
});

test('dimensions whose request fails keep the scan cards; a cancelled run records nothing', async () => {
  const ws = await fixtureWorkspace('bootstrap-ts');
  const failing = new ScriptedModel([], {
    whenExhausted: { error: { code: 'MODEL_FAILED' as any, message: 'the model is unavailable' } },
  });
  const data = dataOf(await catalog.invoke(ws, 'write_coldstart_cards', {}, ctx(failing)));
  assert.ok(data.fallback.length >= 1);
  assert.match(data.fallback[0].reason, /the model is unavailable/);
  const cards = listCandidates(ws);
  assert.ok(cards.length >= 4 && cards.every((c) => !c.tags.includes('model-written')));
  assert.equal(data.result.candidates.created, cards.length);

  const ws2 = await fixtureWorkspace('bootstrap-ts');
  const controller = new AbortController();
  const slow = new ScriptedModel([], { whenExhausted: { text: '{"cards": []}', delayMs: 5000 } });
  setTimeout(() => controller.abort(), 50);
  const r = await catalog.invoke(ws2, 'write_coldstart_cards', {}, ctx(slow, controller.signal));
  assert.equal(r.ok, false);
  assert.equal((r as any).error.code, 'CANCELLED');
  assert.equal(listCandidates(ws2).length, 0);
});

test('without a model the tool says how to write the cards from coldstart_evidence, and records nothing', async () => {
  const ws = await fixtureWorkspace('bootstrap-ts');
  const data = dataOf(await catalog.invoke(ws, 'write_coldstart_cards', {}, ctx()));
  assert.equal(data.mode, 'diagnostic');
  assert.match(data.next, /coldstart_evidence/);
  assert.match(data.next, /submit_candidates in batches of at most 50/);
  // The answer carries no prompt, so its reason must not send the agent looking for one.
  assert.equal(data.prompt, undefined);
  assert.doesNotMatch(data.reason, /prompt below/);
  assert.equal(listCandidates(ws).length, 0);
  // Nothing was written, so the repository gains no `.autosnippet/` folder and the answer says none was made.
  assert.equal(existsSync(ws.dataDir), false, 'a diagnostic answer leaves the repository untouched');
  assert.equal(data.notice, undefined);
  // health says so first, so an agent can skip the call that only explains.
  assert.equal(dataOf(await catalog.invoke(ws, 'health', {}, ctx())).model, false);
  assert.equal(dataOf(await catalog.invoke(ws, 'health', {}, ctx(new ScriptedModel([])))).model, true);
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

test('the prompt asks for titles no longer than validation keeps without a warning', () => {
  const { user } = coldstartPrompt([], { files: 1 });
  const asked = Number(/Titles [^.]*? at most (\d+) characters/.exec(user)?.[1]);
  const card = (title: string) => ({
    title,
    knowledgeType: 'code-standard' as const,
    summary: 'When to use it and what to do.',
  });
  const titleIssues = (title: string) => validateCandidate(card(title)).issues.filter((i) => i.field === 'title');
  assert.deepEqual(titleIssues('A'.repeat(asked)), [], 'a title of the asked length passes');
  assert.equal(titleIssues('A'.repeat(asked + 1)).length, 1, 'one character more is flagged');
  assert.match(user, /flagged for the person who reviews it/);
});
