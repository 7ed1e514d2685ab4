// Freshness over MCP, as Cursor or Claude Desktop would see it: a published recipe cites the sample
// workspace's code; after the code changes (no watcher in this process), check_recipe_freshness names
// what changed, health counts it, and context_search ranks it with a `stale` flag. The people-only
// tools (accept, export) are not offered to agents.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { call, connectStdio, repo, tempWorkspace } from './client';

let client: Client;
let workspace: string;
const cli = path.join(repo, 'dist', 'cli.js');

before(async () => {
  workspace = tempWorkspace('sample-workspace');
  const users = readFileSync(path.join(workspace, 'src/users.ts'), 'utf8').split('\n');
  const line = users.findIndex((l) => l.includes('return this.byId.get(id);')) + 1;
  mkdirSync(path.join(workspace, '.autosnippet/recipes/users'), { recursive: true });
  writeFileSync(
    path.join(workspace, '.autosnippet/recipes/users/find.md'),
    `---\ntitle: Find users through UserRepository.find\nsummary: Look users up by id with UserRepository.find.\nlanguage: typescript\nstatus: draft\nsources: ["src/users.ts:${line}"]\n---\n\n\`\`\`ts\n${
      users.slice(line - 2, line + 1).join('\n')
    }\n\`\`\`\n`,
  );
  // A person publishes it (the CLI acts as a person): its fingerprints are recorded.
  execFileSync(process.execPath, [cli, '-w', workspace, 'recipes', 'publish', 'users/find'], { encoding: 'utf8' });
  client = (await connectStdio(workspace)).client;
});
after(async () => {
  await client?.close();
  rmSync(workspace, { recursive: true, force: true });
});

test('check_recipe_freshness, health and context_search see a recipe go stale when the code it cites changes', async () => {
  const fresh = await call(client, 'autosnippet_check_recipe_freshness', {});
  assert.equal(fresh.envelope.ok, true, JSON.stringify(fresh.envelope.error));
  // The sample's own recipes are hand-written, with no fingerprints: untracked.
  assert.deepEqual(fresh.envelope.data.counts, { fresh: 1, stale: 0, moved: 0, untracked: 2 });
  assert.equal(fresh.envelope.data.recipes.find((r: { id: string }) => r.id === 'users/find')?.freshness, 'fresh');

  const file = path.join(workspace, 'src/users.ts');
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace('return this.byId.get(id);', 'return this.byId.get(Number(id));'),
  );

  const stale = await call(client, 'autosnippet_check_recipe_freshness', { id: 'users/find', details: true });
  assert.equal(stale.envelope.ok, true, JSON.stringify(stale.envelope.error));
  const [recipe] = stale.envelope.data.recipes;
  assert.equal(recipe.freshness, 'stale');
  assert.match(recipe.reason, /^src\/users\.ts:\d+: The cited line \d+ changed since the recipe recorded it\.$/);
  assert.equal(stale.envelope.data.changes[0].then.origin, 'recipe excerpt');
  assert.match(stale.envelope.data.changes[0].now.text, /Number\(id\)/);

  const health = await call(client, 'autosnippet_health', {});
  assert.equal(health.envelope.data.counts.stale, 1);
  const search = await call(client, 'autosnippet_context_search', {
    query: 'find users by id',
    currentFile: 'src/app.ts',
  });
  const hit = search.envelope.data.results.find((r: { id: string }) => r.id === 'users/find');
  assert.ok(hit, JSON.stringify(search.envelope.data).slice(0, 600));
  assert.match(hit.stale, /src\/users\.ts:\d+/);
});

test('accepting an update and exporting are for people: not offered over MCP', async () => {
  const { tools } = await client.listTools();
  const listed = tools.map((t) => t.name);
  const catalog = (await call(client, 'autosnippet_list_tools', {})).envelope.data as {
    domains: { tools: { name: string }[] }[];
  };
  const names = catalog.domains.flatMap((d) => d.tools.map((t) => t.name));
  assert.ok(names.includes('check_recipe_freshness'));
  for (const people of ['accept_recipe_freshness', 'export_recipes']) {
    assert.ok(!names.includes(people) && !listed.includes(`autosnippet_${people}`), people);
  }
  const refused = await call(client, 'autosnippet_export_recipes', { to: ['agents'] });
  assert.equal(refused.isError, true);
});
