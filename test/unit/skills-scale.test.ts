// A thousand skills: what an agent and a person see stays bounded and useful.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ToolCatalog } from '../../src/core/catalog/catalog';
import { skillTools } from '../../src/core/catalog/skills';
import { buildSystemPrompt } from '../../src/core/domains/agent/prompt';
import { skillRegistry } from '../../src/core/domains/skills/registry';
import { loadTokenCounter } from '../../src/core/domains/skills/tokens';
import { registerSkillsOnServer } from '../../src/mcp/skills';
import { BUNDLED_FIXTURE, openWorkspace, tempDir } from './skills-helpers';

const COUNT = 1000;

/** A workspace with a cloned collection of 1,000 skills under .claude/skills, plus the bundled fixture; shared by the tests (they only read). */
let shared: ReturnType<typeof createBigWorkspace> | undefined;
const bigWorkspace = () => (shared ??= createBigWorkspace());

async function createBigWorkspace() {
  const root = tempDir('as-scale-');
  const base = path.join(root, '.claude', 'skills', 'big-collection', 'skills');
  for (let i = 0; i < COUNT; i++) {
    const name = `collection-skill-${String(i).padStart(4, '0')}`;
    mkdirSync(path.join(base, name), { recursive: true });
    const useWhen =
      `handling request number ${i} of the collection (with a parenthesis that goes on, e.g. this one, and further words) until the line is long enough to need a cut somewhere`;
    writeFileSync(
      path.join(base, name, 'SKILL.md'),
      `---\nname: ${name}\ndescription: Use when ${useWhen}. Does task ${i}.\nmetadata:\n  use-when: "${useWhen}"\n---\n\n## Steps\n\n1. Do task ${i}.\n`,
    );
  }
  const ws = await openWorkspace(root, { bundledDir: BUNDLED_FIXTURE });
  return { ws, root };
}

test('at 1,000 skills the prompt catalog keeps the project and bundled skills and says what it left out', async () => {
  const { ws } = await bigWorkspace();
  const skills = skillRegistry(ws).list();
  assert.equal(skills.length, COUNT + 4);
  const counter = await loadTokenCounter();
  const prompt = buildSystemPrompt({ tools: [{ name: 'load_skill', summary: 'Load a skill.' }], skills, counter });
  for (const name of ['guard-rules', 'project-coldstart', 'recipe-writing', 'shared-name']) {
    assert.ok(prompt.skills.included.includes(name), `${name} kept`);
  }
  assert.ok(prompt.skills.omitted.length > 900, `${prompt.skills.omitted.length} omitted`);
  assert.match(prompt.text, /more skills are not listed/);
  assert.ok(prompt.tokens <= prompt.maxTokens);
});

test('list_skills pages: the hidden list is not repeated, text is cut at word boundaries, the pages add up', async () => {
  const { ws } = await bigWorkspace();
  const catalog = new ToolCatalog(skillTools);
  const seen: string[] = [];
  let cursor: number | undefined = 0;
  let pages = 0;
  while (cursor !== undefined) {
    const r = await catalog.invoke(ws, 'list_skills', cursor ? { cursor } : {}, {
      actor: 'external_agent',
      channel: 'test',
    });
    assert.ok(r.ok);
    const d = r.data as { skills: { name: string; useWhen?: string; summary: string }[]; shadowed?: unknown };
    assert.equal(d.shadowed, undefined);
    assert.ok(JSON.stringify(d).length <= 24_000);
    for (const s of d.skills) {
      seen.push(s.name);
      if (s.useWhen && s.useWhen.endsWith('…')) {
        assert.match(s.useWhen, /\w…$/, `cut inside a word or after a bracket: ${s.useWhen}`);
      }
      assert.ok(!/\(e\.$/.test(s.summary), `summary cut at "e.g.": ${s.summary}`);
    }
    cursor = r.truncated?.nextCursor;
    pages++;
  }
  assert.ok(pages > 1);
  assert.equal(new Set(seen).size, COUNT + 4);
});

test('an unknown name among 1,000 skills lists at most 5 close names', async () => {
  const { ws } = await bigWorkspace();
  const catalog = new ToolCatalog(skillTools);
  const r = await catalog.invoke(
    ws,
    'load_skill',
    { name: 'collection-skil-0042' },
    { actor: 'external_agent', channel: 'test' },
  );
  assert.ok(!r.ok);
  const details = r.error.details as { available: string[] };
  assert.equal(details.available.length, 5);
  assert.equal(details.available[0], 'collection-skill-0042');
  assert.ok(JSON.stringify(r.error).length < 1000);
});

test('MCP prompts/list and resources/list are paginated at 1,000 skills', async () => {
  const { ws } = await bigWorkspace();
  const server = new Server({ name: 'test', version: '0' }, { capabilities: { resources: {}, prompts: {} } });
  const stop = registerSkillsOnServer(server, ws);
  const client = new Client({ name: 'test-client', version: '0' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), client.connect(b)]);
  try {
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listPrompts(cursor ? { cursor } : {});
      assert.ok(page.prompts.length <= 100);
      names.push(...page.prompts.map((p) => p.name));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    assert.equal(pages, Math.ceil((COUNT + 4) / 100));
    assert.equal(new Set(names).size, COUNT + 4);
    const first = await client.listResources();
    assert.ok(first.nextCursor, 'resources are paged too');
    await assert.rejects(
      client.getPrompt({ name: 'collection-skil-0042' }),
      (e: Error) => /Closest: collection-skill-0042/.test(e.message) && e.message.length < 500,
    );
  } finally {
    stop();
    await client.close();
    await server.close();
  }
});
