import assert from 'node:assert/strict';
import { test } from 'node:test';
import { catalogToolbox } from '../../src/core/catalog/toolbox';
import { buildSystemPrompt, SKILL_FOR_TASK } from '../../src/core/domains/agent/prompt';
import { skillRegistry } from '../../src/core/domains/skills/registry';
import { loadTokenCounter } from '../../src/core/domains/skills/tokens';
import type { Skill } from '../../src/core/domains/skills/types';
import { tempWorkspace, testCatalog } from './agent-helpers';

async function inputs() {
  const ws = await tempWorkspace();
  const catalog = testCatalog();
  const toolbox = catalogToolbox({ catalog, ws, context: { actor: 'copilot_agent', channel: 'test' } });
  const tools = toolbox.specs.map((s) => ({ name: s.name, summary: s.description }));
  return { tools, skills: skillRegistry(ws).list(), counter: await loadTokenCounter() };
}

test('the system prompt lists every tool in one line, mentions get_tool_info, and carries the skills catalog', async () => {
  const { tools, skills, counter } = await inputs();
  const prompt = buildSystemPrompt({ tools, skills, counter });
  for (const t of tools) {
    const line = prompt.text.split('\n').find((l) => l.startsWith(`- ${t.name}: `));
    assert.ok(line, `${t.name} is listed`);
    assert.ok(!line.includes('{'), `${t.name} is listed without its schema`);
  }
  assert.match(prompt.text, /autosnippet_get_tool_info \{"name": "<tool>"\} gives a tool's full description/);
  assert.equal(prompt.tools.listed, tools.length);
  assert.ok(skills.length >= 13);
  for (const s of skills) assert.ok(prompt.text.includes(s.name), `skill ${s.name} is in the catalog`);
  assert.deepEqual(prompt.skills.omitted, []);
  assert.ok(prompt.tokens <= prompt.maxTokens, `${prompt.tokens} tokens within ${prompt.maxTokens}`);
  assert.equal(prompt.tokens, counter.count(prompt.text));
});

test('the rules map each task to the skill to load first', async () => {
  const { tools, skills, counter } = await inputs();
  const { text } = buildSystemPrompt({ tools, skills, counter });
  const pairs: [RegExp, string][] = [
    [/cold start/, 'autosnippet-coldstart'],
    [/analysing/, 'autosnippet-analysis'],
    [/submitting candidates/, 'autosnippet-candidates'],
    [/code standards/, 'autosnippet-guard'],
    [/unsure/, 'autosnippet-intent'],
  ];
  assert.equal(SKILL_FOR_TASK.length, pairs.length);
  for (const [task, skill] of pairs) {
    const line = text.split('\n').find((l) => task.test(l) && l.includes('→'));
    assert.ok(line?.endsWith(`→ ${skill}`), `${task} → ${skill}: ${line}`);
  }
  assert.match(text, /You cannot approve, reject, publish, deprecate or delete/);
  assert.match(text, /autosnippet_run_pipeline \{"name": "bootstrap_full_pipeline"\}/);
});

test('a slash command and the text protocol add their parts', async () => {
  const { tools, skills, counter } = await inputs();
  const plain = buildSystemPrompt({ tools, skills, counter });
  const cold = buildSystemPrompt({ tools, skills, counter, command: 'coldstart', textProtocol: true });
  assert.match(cold.text, /## This request: \/coldstart\nLoad the skill autosnippet-coldstart first/);
  assert.match(cold.text, /```action\n\{"tool":"load_skill"/);
  assert.ok(cold.parts.protocol > 0 && cold.parts.command > 0);
  assert.ok(cold.tokens > plain.tokens);
  assert.doesNotMatch(plain.text, /```action/);
});

test('the prompt stays within its budget: skills are shortened or left out first, then tools, with notes', async () => {
  const { tools, skills, counter } = await inputs();
  const full = buildSystemPrompt({ tools, skills, counter });
  const tight = buildSystemPrompt({ tools, skills, counter, maxTokens: full.tokens - 200 });
  assert.ok(tight.tokens <= tight.maxTokens, `${tight.tokens} ≤ ${tight.maxTokens}`);
  assert.ok(tight.skills.shortened.length + tight.skills.omitted.length > 0);
  assert.match(tight.text, /list_skills or search_skills/);

  const many: Skill[] = Array.from({ length: 400 }, (_, i) => ({
    ...skills[0],
    name: `generated-skill-${i}`,
    description:
      `Use when doing generated task number ${i} with a long description that goes on and on. It has a second sentence too.`,
  }));
  const crowded = buildSystemPrompt({ tools, skills: many, counter });
  assert.ok(crowded.tokens <= crowded.maxTokens);
  assert.ok(crowded.skills.omitted.length > 0, 'most generated skills are left out');

  const tiny = buildSystemPrompt({ tools, skills, counter, maxTokens: 600 });
  assert.ok(tiny.tokens <= 600, `${tiny.tokens} ≤ 600`);
  assert.equal(tiny.skills.included.length, 0, 'no room for the skills catalog: a line says how to list them');
  assert.match(tiny.text, /13 skills are available: call autosnippet_list_skills|call list_skills to see them/);
  assert.ok(tiny.tools.omitted.length > 0);
  assert.match(tiny.text, /more tools are not listed: call capabilities/);
});
