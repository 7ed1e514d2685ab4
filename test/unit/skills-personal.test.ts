// The person's own skills (~/.autosnippet/skills, moved by AUTOSNIPPET_HOME) follow them into every
// workspace, below the workspace's own folders and above the bundled skills, and are never written
// into a workspace.
import assert from 'node:assert/strict';
import { readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ToolCatalog } from '../../src/core/catalog/catalog';
import { skillTools } from '../../src/core/catalog/skills';
import type { ToolContext, ToolResult } from '../../src/core/catalog/types';
import { SkillRegistry } from '../../src/core/domains/skills/registry';
import { openWorkspace, skillText, tempDir, tempFixture, writeSkill } from './skills-helpers';

const home = tempDir('as-home-');
process.env.AUTOSNIPPET_HOME = home;
const personal = path.join(home, 'skills');
writeSkill(
  path.join(personal, 'my-review-habits'),
  skillText(
    'name: my-review-habits\ndescription: How I like pull requests reviewed. Use when reviewing a pull request.',
  ),
);
writeSkill(
  path.join(personal, 'shared-name'),
  skillText('name: shared-name\ndescription: The personal copy of a shared skill.', 'Personal body.\n'),
);
writeSkill(
  path.join(personal, 'guard-rules'),
  skillText('name: guard-rules\ndescription: The personal copy of a bundled skill.', 'Personal guard body.\n'),
);

function data(r: ToolResult): any {
  if (!r.ok) assert.fail(`expected ok, got ${JSON.stringify(r.error)}`);
  return r.data;
}

test('personal skills sit below the workspace folders and above the bundled skills', () => {
  const fx = tempFixture();
  const reg = new SkillRegistry({ root: fx.root, bundledDir: fx.bundled, personalDir: personal });
  assert.deepEqual(reg.sources.map((s) => s.id), ['project', 'github', 'claude', 'agents', 'personal', 'bundled']);
  assert.equal(reg.get('my-review-habits')?.source.id, 'personal');
  // The project's skill of the same name wins; the person's own wins over the bundled one.
  assert.match(reg.get('shared-name')!.body, /Project body/);
  assert.match(reg.get('guard-rules')!.body, /Personal guard body/);
  assert.deepEqual(
    reg.shadowed().filter((s) => s.skill.source.id === 'personal' || s.shadowedBy.source === 'personal').map((
      s,
    ) => [s.skill.name, s.skill.source.id, s.shadowedBy.source]),
    [['shared-name', 'personal', 'project'], ['guard-rules', 'bundled', 'personal']],
  );
});

test('a personal skill reaches two workspaces through the tools, marked with its origin, and writes nothing into them', async () => {
  const catalog = new ToolCatalog(skillTools);
  for (const n of [1, 2]) {
    const root = tempDir(`as-ws${n}-`);
    const ws = await openWorkspace(root);
    const ctx: ToolContext = { actor: 'external_agent', channel: 'test' };
    const listed = data(await catalog.invoke(ws, 'list_skills', {}, ctx));
    const mine = listed.skills.find((s: any) => s.name === 'my-review-habits');
    assert.equal(mine?.source, 'personal', `workspace ${n}: ${JSON.stringify(listed.skills.map((s: any) => s.name))}`);
    const found = data(await catalog.invoke(ws, 'search_skills', { task: 'review a pull request' }, ctx));
    assert.equal(found.matched_skills[0]?.name, 'my-review-habits');
    const loaded = data(await catalog.invoke(ws, 'load_skill', { name: 'my-review-habits' }, ctx));
    assert.equal(loaded.source, 'personal');
    assert.equal(loaded.content, 'Do the thing.');
    // Listing, searching and loading leave no copy of the person's skill in the workspace.
    const written = readdirSync(root, { recursive: true }).map(String).filter((f) => f.includes('my-review-habits'));
    assert.deepEqual(written, []);
  }
});

test('a link in the personal folder to a folder outside it is passed over with the reason', () => {
  const elsewhere = tempDir('as-elsewhere-');
  writeSkill(path.join(elsewhere, 'linked-away'), skillText('name: linked-away\ndescription: Lives elsewhere.'));
  const own = tempDir('as-own-');
  symlinkSync(path.join(elsewhere, 'linked-away'), path.join(own, 'linked-away'));
  const reg = new SkillRegistry({ personalDir: own });
  assert.equal(reg.get('linked-away'), undefined);
  assert.match(JSON.stringify(reg.skipped()), /outside/);
});
