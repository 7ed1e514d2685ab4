import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { call, connectStdio, repo, tempWorkspace } from './client';

let client: Client;
let workspace: string;

const bundled = readdirSync(path.join(repo, 'skills')).sort();

before(async () => {
  workspace = tempWorkspace('sample-workspace');
  client = (await connectStdio(workspace)).client;
});
after(async () => client?.close());

test('every bundled skill is an MCP resource and a prompt', async () => {
  const { resources } = await client.listResources();
  for (const name of bundled) {
    assert.ok(resources.some((r) => r.uri === `skill://${name}/SKILL.md`), `resource for ${name}`);
  }
  const { prompts } = await client.listPrompts();
  for (const name of bundled) assert.ok(prompts.some((p) => p.name === name), `prompt for ${name}`);
});

test('reading a skill resource gives its level-2 body; a chunk resource gives the chunk', async () => {
  const r = await client.readResource({ uri: 'skill://autosnippet-coldstart/SKILL.md' });
  const text = (r.contents[0] as { text: string }).text;
  assert.match(text, /## Steps/);
  assert.doesNotMatch(text, /<chunk /, 'chunks are not inlined at level 2');
  const chunk = await client.readResource({ uri: 'skill://autosnippet-coldstart/chunks/examples' });
  assert.ok((chunk.contents[0] as { text: string }).text.length > 50);
});

test('a prompt returns the skill as a user message', async () => {
  const p = await client.getPrompt({ name: 'autosnippet-intent' });
  assert.equal(p.messages[0].role, 'user');
  assert.match(JSON.stringify(p.messages[0].content), /autosnippet/);
});

test('load_skill of an unknown name answers SKILL_NOT_FOUND with the closest names first', async () => {
  const { envelope } = await call(client, 'autosnippet_load_skill', { name: 'autosnippet-gaurd' });
  assert.equal(envelope.error?.code, 'SKILL_NOT_FOUND');
  assert.match(envelope.error?.message + JSON.stringify(envelope.error), /autosnippet-guard/);
});

test('load_skill answers in Markdown (the body unescaped, one line per chunk) with the envelope as structured content', async () => {
  const { envelope, text, isError } = await call(client, 'autosnippet_load_skill', { name: 'autosnippet-guard' });
  assert.equal(isError, false);
  assert.ok(text.startsWith(envelope.data.content), 'the text opens with the body as written');
  assert.doesNotMatch(text, /\\n|\\"/, 'nothing escaped');
  for (const c of envelope.data.chunks) assert.ok(text.includes(`- ${c.id}: ${c.description}`), c.id);
  assert.ok(text.length < JSON.stringify(envelope).length * 0.85, 'the text is smaller than the JSON it replaces');
  const chunk = await call(client, 'autosnippet_load_skill_chunk', { skill: 'autosnippet-guard', chunk: 'pitfalls' });
  assert.match(chunk.text, /^# autosnippet-guard — chunk "pitfalls"\n\n### Pitfalls/);
});

test('read_skill_resource refuses paths out of the skill folder', async () => {
  for (const p of ['../autosnippet-guard/SKILL.md', '/etc/passwd']) {
    const { envelope, isError } = await call(client, 'autosnippet_read_skill_resource', {
      skill: 'autosnippet-intent',
      path: p,
    });
    assert.equal(isError, true, p);
    assert.equal(envelope.error?.code, 'PATH_OUTSIDE_SKILL', `${p}: ${JSON.stringify(envelope.error)}`);
  }
});

test('a skill added on disk shows up without a restart and the client is told resources changed', async () => {
  const changed = new Promise<void>((resolve) =>
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => resolve())
  );
  // the server watches only while someone listens; ask once so the registry is loaded
  await client.listResources();
  const dir = path.join(workspace, '.github', 'skills', 'team-release');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'SKILL.md'),
    '---\nname: team-release\ndescription: Use when cutting a release of this project.\n---\n\n## Steps\n\n1. Tag it.\n',
  );
  await Promise.race([
    changed,
    new Promise((_, reject) => setTimeout(() => reject(new Error('no resources/list_changed within 10 s')), 10_000)),
  ]);
  const { resources } = await client.listResources();
  assert.ok(resources.some((r) => r.uri === 'skill://team-release/SKILL.md'));
  const { envelope } = await call(client, 'autosnippet_list_skills', { filter: 'release' });
  assert.ok(JSON.stringify(envelope.data).includes('team-release'));
});
