import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { skillsCommand } from '../../src/cli/skills';
import { scanSkillRoot } from '../../src/core/domains/skills/discover';
import { SkillRegistry } from '../../src/core/domains/skills/registry';
import { validateSkillsIn } from '../../src/core/domains/skills/validate';
import { skillText, tempDir, writeSkill } from './skills-helpers';

const skill = (name: string) => skillText(`name: ${name}\ndescription: Use when testing discovery of ${name}.`);

function workspace(): string {
  return tempDir('as-discover-');
}

test('a cloned collection with nested and dot-folders is found under .claude/skills', () => {
  const root = workspace();
  const repo = path.join(root, '.claude', 'skills', 'openai-skills');
  writeSkill(path.join(repo, 'skills', '.curated', 'gh-fix-ci'), skill('gh-fix-ci'));
  writeSkill(path.join(repo, 'skills', '.system', 'skill-creator'), skill('skill-creator'));
  writeSkill(path.join(repo, 'skills', '.experimental', 'notion-spec'), skill('notion-spec'));
  writeSkill(path.join(repo, 'skills', 'pdf'), skill('pdf'));
  writeFileSync(path.join(repo, 'README.md'), '# a collection\n');
  const reg = new SkillRegistry({ root });
  assert.deepEqual(reg.list().map((s) => s.name), ['gh-fix-ci', 'notion-spec', 'pdf', 'skill-creator']);
  assert.ok(reg.list().every((s) => s.source.id === 'claude'));
  assert.deepEqual(reg.skipped(), []);
});

test('a skill folder is not looked into: a SKILL.md under its references is not a second skill', () => {
  const root = workspace();
  const dir = path.join(root, '.agents', 'skills', 'outer');
  writeSkill(dir, skill('outer'));
  writeSkill(path.join(dir, 'references', 'inner'), skill('inner'));
  assert.deepEqual(new SkillRegistry({ root }).list().map((s) => s.name), ['outer']);
});

test('a lowercase skill.md is accepted with a warning', () => {
  const root = workspace();
  const dir = path.join(root, '.github', 'skills', 'lower');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'skill.md'), skill('lower'));
  const found = new SkillRegistry({ root }).get('lower');
  assert.ok(found, 'found');
  assert.equal(path.basename(found.file), 'skill.md');
  assert.ok(
    found.problems.some((p) => p.rule === 'skill-file-name' && p.severity === 'warning' && /SKILL\.md/.test(p.message)),
  );
  const v = validateSkillsIn(path.join(root, '.github', 'skills'));
  assert.equal(v.length, 1);
  assert.ok(v[0].problems.some((p) => p.rule === 'skill-file-name'));
});

test('the scan is bounded: more than 4 levels down is not scanned and is reported with the reason', () => {
  const root = workspace();
  const base = path.join(root, '.agents', 'skills');
  writeSkill(path.join(base, 'a', 'b', 'c', 'ok'), skill('ok'));
  writeSkill(path.join(base, 'a', 'b', 'c', 'd', 'too-deep'), skill('too-deep'));
  const reg = new SkillRegistry({ root });
  assert.deepEqual(reg.list().map((s) => s.name), ['ok']);
  const skipped = reg.skipped();
  assert.equal(skipped.length, 1);
  assert.match(skipped[0].reason, /more than 4 levels/);
  assert.match(skipped[0].reason, /too-deep/);
});

test('.git and node_modules are never scanned; a SKILL.md that is a folder is reported', () => {
  const root = workspace();
  const base = path.join(root, '.agents', 'skills');
  writeSkill(path.join(base, 'node_modules', 'dep-skill'), skill('dep-skill'));
  writeSkill(path.join(base, 'repo', '.git', 'hooks-skill'), skill('hooks-skill'));
  mkdirSync(path.join(base, 'weird', 'SKILL.md'), { recursive: true });
  const reg = new SkillRegistry({ root });
  assert.deepEqual(reg.list(), []);
  assert.deepEqual(reg.skipped().map((s) => [path.relative(base, s.file), s.reason]), [[
    path.join('weird', 'SKILL.md'),
    'SKILL.md is not a regular file',
  ]]);
});

test('a link back up the tree does not loop', () => {
  const root = workspace();
  const base = path.join(root, '.agents', 'skills');
  writeSkill(path.join(base, 'real'), skill('real'));
  mkdirSync(path.join(base, 'group'), { recursive: true });
  symlinkSync(base, path.join(base, 'group', 'loop'));
  const scan = scanSkillRoot(base);
  assert.deepEqual(scan.found.map((f) => f.folderName).sort(), ['real']);
});

test('validate on a folder that holds plain files (README.md, LICENSE) does not crash with ENOTDIR', async () => {
  const dir = tempDir('as-validate-');
  writeFileSync(path.join(dir, 'README.md'), '# skills\n');
  writeFileSync(path.join(dir, 'LICENSE'), 'MIT\n');
  writeSkill(path.join(dir, 'good-one'), skill('good-one'));
  assert.deepEqual(validateSkillsIn(dir).map((v) => path.basename(v.dir)), ['good-one']);
  let out = '';
  let err = '';
  const code = await skillsCommand(['validate', dir], async () => {
    throw new Error('no workspace needed');
  }, { stdout: (s) => (out += s), stderr: (s) => (err += s) });
  assert.equal(code, 0, err);
  assert.match(out, /1 skill checked: 0 errors/);
});

test('a link to a skill kept outside the skills folder is followed', () => {
  const root = workspace();
  const shared = path.join(root, 'shared', 'team-skill');
  writeSkill(shared, skill('team-skill'));
  mkdirSync(path.join(root, '.agents', 'skills'), { recursive: true });
  symlinkSync(shared, path.join(root, '.agents', 'skills', 'team-skill'));
  assert.deepEqual(new SkillRegistry({ root }).list().map((s) => s.name), ['team-skill']);
});
