// The @autosnippet participant's answers are checked with guard before they are shown: findings in the
// code an answer proposes go back to the model once, and the corrected answer is what the person sees.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createCatalog } from '../../src/core/catalog';
import { catalogToolbox, guardAnswerCheck } from '../../src/core/catalog/toolbox';
import { editsInAnswer } from '../../src/core/domains/agent/answer-check';
import { textOf } from '../../src/core/domains/agent/model';
import { type AgentEvent, runAgent } from '../../src/core/domains/agent/react';
import { ScriptedModel } from '../../src/core/domains/agent/scripted';
import { languageForPath } from '../../src/core/ground/kernel/languages';
import { guardWorkspace, rulesFile } from './guard-helpers';

let t: Awaited<ReturnType<typeof guardWorkspace>>;
before(async () => {
  t = await guardWorkspace(
    {
      '.autosnippet/guard/http.json': rulesFile([{
        id: 'project/fetch-json',
        message: 'Use fetchJson, not fetch.',
        languages: ['typescript'],
        pattern: String.raw`(?<![\w$.])fetch\s*\(`,
        examples: { bad: ["fetch('/x')"], good: ["fetchJson('/x')", "// fetch('/x')"] },
      }]),
    },
    { trusted: true },
  );
});
after(() => t.cleanup());

const BAD = "Here is the endpoint:\n\n```ts src/features/team.ts\nexport const team = () => fetch('/api/team');\n```\n";
const GOOD =
  "Here is the endpoint:\n\n```ts src/features/team.ts\nexport const team = () => fetchJson('/api/team');\n```\n";

async function run(answers: string[]) {
  const catalog = createCatalog();
  const context = { actor: 'copilot_agent' as const, channel: 'test' as const };
  const model = new ScriptedModel(answers.map((text) => ({ text })));
  const events: AgentEvent[] = [];
  const result = await runAgent({
    model,
    toolbox: catalogToolbox({ catalog, ws: t.ws, context, only: ['guard_check'] }),
    system: 'SYSTEM',
    prompt: 'Add an endpoint for teams.',
    onEvent: (e) => events.push(e),
    reviewAnswer: guardAnswerCheck({ catalog, ws: t.ws, context }),
  });
  const shown = events.filter((e) => e.type === 'text').map((e) => (e as { delta: string }).delta).join('');
  return { model, result, events, shown };
}

test('a finding in the proposed code goes back to the model once; the person sees only the fixed answer', async () => {
  const { model, result, events, shown } = await run([BAD, GOOD]);
  assert.equal(model.requests.length, 2);
  const correction = textOf(model.requests[1].messages.at(-1)!);
  assert.match(
    correction,
    /block 1 \(src\/features\/team\.ts\), line 1, column 27: project\/fetch-json: Use fetchJson/,
  );
  assert.equal(result.text, GOOD);
  assert.equal(shown, GOOD, 'the flawed answer was never streamed');
  assert.deepEqual(events.filter((e) => e.type === 'review'), [{ type: 'review', findings: 1, final: false }]);
});

test('an answer that still breaks a rule after its one correction is shown with a note, not sent back again', async () => {
  const { model, result, events } = await run([BAD, BAD]);
  assert.equal(model.requests.length, 2);
  assert.equal(result.text, BAD);
  assert.deepEqual(events.filter((e) => e.type === 'review').map((e) => (e as { final: boolean }).final), [
    false,
    true,
  ]);
});

test("a diff is checked on the lines it adds: a finding on a context line is not the answer's", async () => {
  const diff = [
    'The change:',
    '',
    '```diff',
    '--- a/src/api.ts',
    '+++ b/src/api.ts',
    '@@ -1,2 +1,3 @@',
    " export const legacy = () => fetch('/old');",
    "+export const team = () => fetchJson('/api/team');",
    ' export {};',
    '```',
    '',
  ].join('\n');
  const edits = editsInAnswer(diff, languageForPath);
  assert.deepEqual(edits.map((e) => [e.path, e.language, e.changedLines]), [['src/api.ts', 'typescript', [{
    start: 2,
    end: 2,
  }]]]);
  const { model, result } = await run([diff]);
  assert.equal(model.requests.length, 1);
  assert.equal(result.text, diff);
  const added = diff.replace(
    "+export const team = () => fetchJson('/api/team');",
    "+export const team = () => fetch('/api/team');",
  );
  const again = await run([added, diff]);
  assert.equal(again.model.requests.length, 2);
  assert.match(textOf(again.model.requests[1].messages.at(-1)!), /\(src\/api\.ts\), line 2, column 27/);
});
