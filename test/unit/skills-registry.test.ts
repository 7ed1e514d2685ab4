import assert from 'node:assert/strict';
import { readdirSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { SkillRegistry, type SkillsChange } from '../../src/core/domains/skills/registry';
import { AutoSnippetError } from '../../src/core/ground/kernel/errors';
import { closestNames } from '../../src/core/ground/kernel/names';
import { eventually, skillText, tempFixture, writeSkill } from './skills-helpers';

function registry() {
  const fx = tempFixture();
  return { fx, reg: new SkillRegistry({ root: fx.root, bundledDir: fx.bundled, pollMs: 50 }) };
}

test('sources are read in precedence order: .autosnippet, .github, .claude, .agents, then bundled', () => {
  const { reg, fx } = registry();
  assert.deepEqual(reg.sources.map((s) => s.id), ['project', 'github', 'claude', 'agents', 'bundled']);
  assert.equal(reg.sources[0].dir, path.join(fx.root, '.autosnippet', 'skills'));
  assert.deepEqual(reg.list().map((s) => `${s.source.id}:${s.name}`), [
    'project:shared-name',
    'github:gh-only',
    'agents:colon-value',
    'bundled:guard-rules',
    'bundled:project-coldstart',
    'bundled:recipe-writing',
  ]);
});

test('a project skill shadows the claude and bundled skills of the same name, and both are reported', () => {
  const { reg } = registry();
  assert.match(reg.get('shared-name')!.body, /Project body/);
  assert.deepEqual(reg.shadowed().map((s) => [s.skill.source.id, s.shadowedBy.source]), [
    ['claude', 'project'],
    ['bundled', 'project'],
  ]);
});

test('removing the project copy lets the next source in precedence take over', () => {
  const { reg, fx } = registry();
  rmSync(path.join(fx.root, '.autosnippet', 'skills', 'shared-name'), { recursive: true });
  assert.match(reg.get('shared-name')!.body, /Claude body/);
  assert.deepEqual(reg.shadowed().map((s) => s.skill.source.id), ['bundled']);
});

test('a folder without a description is skipped with its reason, never silently', () => {
  const { reg } = registry();
  const skipped = reg.skipped();
  assert.equal(skipped.length, 1);
  assert.equal(path.basename(skipped[0].dir), 'no-description');
  assert.equal(skipped[0].source.id, 'agents');
  assert.match(skipped[0].reason, /no description/);
  assert.equal(reg.get('no-description'), undefined);
});

test('two folders of one source with the same name: the folder matching the name wins, the other is shadowed', () => {
  const { reg, fx } = registry();
  writeSkill(
    path.join(fx.root, '.github', 'skills', 'aaa-copy'),
    skillText('name: gh-only\ndescription: Use when testing duplicates.'),
  );
  assert.equal(reg.get('gh-only')!.folderName, 'gh-only');
  assert.deepEqual(reg.shadowed().filter((s) => s.skill.name === 'gh-only').map((s) => s.skill.folderName), [
    'aaa-copy',
  ]);
});

test('hot reload: an edit to SKILL.md on disk is seen by the next call', () => {
  const { reg, fx } = registry();
  const before = reg.version;
  assert.equal(reg.get('gh-only')!.sections[0].heading, 'Only section');
  writeFileSync(
    path.join(fx.root, '.github', 'skills', 'gh-only', 'SKILL.md'),
    skillText('name: gh-only\ndescription: Use when the file was edited.', '## Edited section\n\nNew.\n'),
  );
  const skill = reg.get('gh-only')!;
  assert.equal(skill.description, 'Use when the file was edited.');
  assert.equal(skill.sections[0].heading, 'Edited section');
  assert.ok(reg.version > before);
});

test('hot reload: new, renamed and deleted skill folders are seen by the next call', () => {
  const { reg, fx } = registry();
  assert.equal(reg.get('brand-new'), undefined);
  writeSkill(
    path.join(fx.root, '.agents', 'skills', 'brand-new'),
    skillText('name: brand-new\ndescription: Use when new.'),
  );
  assert.equal(reg.get('brand-new')?.source.id, 'agents');
  renameSync(
    path.join(fx.root, '.agents', 'skills', 'brand-new'),
    path.join(fx.root, '.autosnippet', 'skills', 'brand-new'),
  );
  assert.equal(reg.get('brand-new')?.source.id, 'project');
  rmSync(path.join(fx.root, '.autosnippet', 'skills', 'brand-new'), { recursive: true });
  assert.equal(reg.get('brand-new'), undefined);
});

test('an unchanged disk returns the same snapshot (no re-parse)', () => {
  const { reg } = registry();
  const a = reg.list();
  assert.equal(reg.list(), a);
  assert.equal(reg.get('guard-rules'), reg.get('guard-rules'));
});

/** Sets every folder under `dir` ten seconds back, so the registry trusts their times (none is "racy"). */
function ageFolders(dir: string): void {
  const old = new Date(Date.now() - 10_000);
  utimesSync(dir, old, old);
  for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory()) ageFolders(path.join(dir, e.name));
}

test('freshness without checking every file: added and removed skills are seen by the next call, an edit by the next load, by the list after invalidate() or within freshMs', async () => {
  const fx = tempFixture();
  ageFolders(fx.base);
  const reg = new SkillRegistry({ root: fx.root, bundledDir: fx.bundled, freshMs: 60_000 });
  const names = () => reg.list().map((s) => s.name);
  assert.ok(names().includes('gh-only'));

  // added: its parent folder's time changed
  writeSkill(
    path.join(fx.root, '.github', 'skills', 'added-one'),
    skillText('name: added-one\ndescription: Use when a skill was just added.'),
  );
  assert.ok(names().includes('added-one'));
  ageFolders(fx.base);
  assert.ok(names().includes('added-one'));

  // removed
  rmSync(path.join(fx.root, '.github', 'skills', 'gh-only'), { recursive: true });
  assert.ok(!names().includes('gh-only'));
  ageFolders(fx.base);

  // a skills folder that did not exist is created
  writeSkill(
    path.join(fx.root, '.claude', 'skills', 'nested', 'late-comer'),
    skillText('name: late-comer\ndescription: Use when the folder came later.'),
  );
  assert.ok(names().includes('late-comer'));
  ageFolders(fx.base);

  // changed in place: loading that skill sees it at once (one stat)
  const file = path.join(fx.root, '.github', 'skills', 'added-one', 'SKILL.md');
  writeFileSync(file, skillText('name: added-one\ndescription: Use when the skill was edited in place.'));
  assert.equal(reg.get('added-one')!.description, 'Use when the skill was edited in place.');
  assert.equal(reg.list().find((s) => s.name === 'added-one')!.description, 'Use when the skill was edited in place.');

  // changed in place again: a watcher's invalidate() makes the list see it at once, even when watched
  reg.setWatched(true);
  writeFileSync(file, skillText('name: added-one\ndescription: Use when a watcher saw the second edit.'));
  reg.invalidate();
  assert.equal(reg.list().find((s) => s.name === 'added-one')!.description, 'Use when a watcher saw the second edit.');

  // without a watcher or a load, the list sees an edit within freshMs
  const quick = new SkillRegistry({ root: fx.root, bundledDir: fx.bundled, freshMs: 50 });
  assert.equal(quick.get('added-one')!.description, 'Use when a watcher saw the second edit.');
  writeFileSync(file, skillText('name: added-one\ndescription: Use when nobody loads it, third edit.'));
  await eventually(() =>
    quick.list().find((s) => s.name === 'added-one')!.description === 'Use when nobody loads it, third edit.'
  );
  reg.dispose();
  quick.dispose();
});

test('onDidChange fires for changes on disk without anyone calling, and stops after dispose', async () => {
  const { reg, fx } = registry();
  const changes: SkillsChange[] = [];
  const sub = reg.onDidChange((c) => changes.push(c));
  writeSkill(
    path.join(fx.root, '.github', 'skills', 'watched'),
    skillText('name: watched\ndescription: Use when watching.'),
  );
  await eventually(() => changes.some((c) => c.added.includes('watched')));
  writeFileSync(
    path.join(fx.root, '.github', 'skills', 'watched', 'SKILL.md'),
    skillText('name: watched\ndescription: Use when watching, edited.'),
  );
  await eventually(() => changes.some((c) => c.changed.includes('watched')));
  writeFileSync(path.join(fx.root, '.github', 'skills', 'watched', 'notes.md'), 'a resource');
  await eventually(() => changes.filter((c) => c.changed.includes('watched')).length >= 2);
  sub.dispose();
  const count = changes.length;
  rmSync(path.join(fx.root, '.github', 'skills', 'watched'), { recursive: true });
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(changes.length, count);
  reg.dispose();
});

test('an unknown name fails with SKILL_NOT_FOUND and at most 5 names, closest first', () => {
  const { reg } = registry();
  assert.throws(
    () => reg.require('coldstart'),
    (e: unknown) => {
      assert.ok(e instanceof AutoSnippetError);
      assert.equal(e.code, 'SKILL_NOT_FOUND');
      const available = e.details?.available as string[];
      assert.equal(available[0], 'project-coldstart');
      assert.equal(available.length, Math.min(5, reg.list().length));
      assert.match(e.message, /Closest: project-coldstart/);
      return true;
    },
  );
  assert.equal(reg.require('Guard-Rules').name, 'guard-rules');
});

test('closest names: containment first, then edit distance', () => {
  assert.deepEqual(closestNames('gaurd-rules', ['recipe-writing', 'guard-rules', 'gh-only']), [
    'guard-rules',
    'gh-only',
    'recipe-writing',
  ]);
  assert.deepEqual(closestNames('recipe', ['guard-rules', 'recipe-writing']), ['recipe-writing', 'guard-rules']);
});
