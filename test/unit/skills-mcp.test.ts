// Skills as MCP resources and prompts, through the SDK's own client over an in-memory transport.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import assert from 'node:assert/strict';
import { symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { SkillRegistry } from '../../src/core/domains/skills/registry';
import { registerSkillsOnServer } from '../../src/mcp/skills';
import { eventually, openWorkspace, skillText, tempFixture, writeSkill } from './skills-helpers';

const textOf = (c: { text: string } | { blob: string }): string => ('text' in c ? c.text : '');

async function connect() {
  const fx = tempFixture();
  const ws = await openWorkspace(fx.root, { bundledDir: fx.bundled });
  // Fast polling so the change notification test does not wait two seconds.
  ws.service('skills', (w) => new SkillRegistry({ root: w.root, bundledDir: w.bundledSkillsDir, pollMs: 50 }));
  const server = new Server(
    { name: 'test', version: '0' },
    { capabilities: { resources: { listChanged: true }, prompts: { listChanged: true } } },
  );
  const stop = registerSkillsOnServer(server, ws);
  const client = new Client({ name: 'test-client', version: '0' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), client.connect(b)]);
  const close = async () => {
    stop();
    await client.close();
    await server.close();
  };
  return { fx, ws, client, close };
}

test('every skill, chunk and file is listed as a skill:// resource', async () => {
  const { client, close } = await connect();
  const { resources } = await client.listResources();
  const uris = resources.map((r) => r.uri);
  assert.ok(uris.includes('skill://project-coldstart/SKILL.md'));
  assert.ok(uris.includes('skill://project-coldstart/chunks/examples'));
  assert.ok(uris.includes('skill://project-coldstart/references/dimensions.md'));
  assert.ok(uris.includes('skill://gh-only/SKILL.md'));
  assert.ok(!uris.includes('skill://no-description/SKILL.md'));
  assert.equal(
    resources.find((r) => r.uri === 'skill://project-coldstart/chunks/examples')?.description,
    'Worked examples for large monorepos',
  );
  const { resourceTemplates } = await client.listResourceTemplates();
  assert.ok(resourceTemplates.some((t) => t.uriTemplate === 'skill://{name}/chunks/{chunk}'));
  await close();
});

test('reading SKILL.md gives level 2 with chunk URIs; chunks, sections and files read by URI', async () => {
  const { client, close } = await connect();
  const body = (await client.readResource({ uri: 'skill://project-coldstart/SKILL.md' })).contents[0];
  assert.equal(body.mimeType, 'text/markdown');
  assert.match(textOf(body), /^# Cold start/);
  assert.doesNotMatch(textOf(body), /Scan each package on its own/);
  assert.match(textOf(body), /- skill:\/\/project-coldstart\/chunks\/examples: Worked examples/);
  const chunk = (await client.readResource({ uri: 'skill://project-coldstart/chunks/examples' })).contents[0];
  assert.equal(textOf(chunk), '### Example: a monorepo\n\nScan each package on its own, then merge duplicates.');
  const section = (await client.readResource({ uri: 'skill://project-coldstart/sections/pitfalls' })).contents[0];
  assert.match(textOf(section), /^## Pitfalls/);
  assert.doesNotMatch(textOf(section), /bootstrap_scan/);
  const file = (await client.readResource({ uri: 'skill://project-coldstart/references/dimensions.md' })).contents[0];
  assert.equal(textOf(file), '# Dimensions\n\nThe nine knowledge dimensions.\n');
  await close();
});

test('unknown skills, chunks and paths outside the skill are errors', async () => {
  const { client, close, fx } = await connect();
  await assert.rejects(client.readResource({ uri: 'skill://nope/SKILL.md' }), /No skill named "nope"/);
  await assert.rejects(
    client.readResource({ uri: 'skill://project-coldstart/chunks/nope' }),
    /no chunk "nope"\. Its chunks: examples, troubleshooting/,
  );
  await assert.rejects(
    client.readResource({ uri: 'skill://project-coldstart/../guard-rules/SKILL.md' }),
    /`\.\.` segments are refused/,
  );
  await assert.rejects(
    client.readResource({ uri: 'skill://project-coldstart/%2E%2E/guard-rules/SKILL.md' }),
    /`\.\.` segments are refused/,
  );
  writeFileSync(path.join(fx.base, 'secret.txt'), 'secret');
  symlinkSync(path.join(fx.base, 'secret.txt'), path.join(fx.bundled, 'project-coldstart', 'references', 'leak.md'));
  await assert.rejects(
    client.readResource({ uri: 'skill://project-coldstart/references/leak.md' }),
    /outside the skill folder/,
  );
  await close();
});

test('each skill is a prompt that returns its level 2 as a user message, optionally one section and a task', async () => {
  const { client, close } = await connect();
  const { prompts } = await client.listPrompts();
  assert.deepEqual(prompts.map((p) => p.name).sort(), [
    'colon-value',
    'gh-only',
    'guard-rules',
    'project-coldstart',
    'recipe-writing',
    'shared-name',
  ]);
  const p = await client.getPrompt({ name: 'project-coldstart', arguments: { section: 'Steps', task: 'scan my app' } });
  assert.equal(p.messages[0].role, 'user');
  const text = (p.messages[0].content as { text: string }).text;
  assert.match(text, /^## Steps/);
  assert.match(text, /chunks\/examples/);
  assert.match(text, /Task: scan my app$/);
  await assert.rejects(
    client.getPrompt({ name: 'project-coldstart', arguments: { section: 'Nope' } }),
    /no section "Nope"/,
  );
  await close();
});

test('a skill added on disk sends resources/list_changed and prompts/list_changed', async () => {
  const { client, close, fx } = await connect();
  let resourcesChanged = 0;
  let promptsChanged = 0;
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void resourcesChanged++);
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => void promptsChanged++);
  // A client is told about changes to the lists it has seen: watching starts with its first list.
  assert.ok(!(await client.listResources()).resources.some((r) => r.uri === 'skill://late/SKILL.md'));
  writeSkill(
    path.join(fx.root, '.github', 'skills', 'late'),
    skillText('name: late\ndescription: Use when added late.'),
  );
  await eventually(() => resourcesChanged > 0 && promptsChanged > 0, 5000);
  assert.ok((await client.listResources()).resources.some((r) => r.uri === 'skill://late/SKILL.md'));
  await close();
});
