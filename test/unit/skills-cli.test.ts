import assert from 'node:assert/strict';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { skillsCommand } from '../../src/cli/skills';
import type { Workspace } from '../../src/core/ground/workspace';
import { BUNDLED_FIXTURE, FIXTURES, openWorkspace, tempFixture } from './skills-helpers';

async function run(args: string[], ws?: () => Promise<Workspace>) {
  let stdout = '';
  let stderr = '';
  const noWorkspace = async (): Promise<Workspace> => {
    throw new Error('this command should not open the workspace');
  };
  const code = await skillsCommand(args, ws ?? noWorkspace, {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
  });
  return { code, stdout, stderr };
}

async function fixtureWorkspace() {
  const fx = tempFixture();
  const ws = await openWorkspace(fx.root, { bundledDir: fx.bundled });
  return { fx, ws: async () => ws };
}

test('skills -h explains every command and exits 0; no command or an unknown one is a usage error (2)', async () => {
  const help = await run(['-h']);
  assert.equal(help.code, 0);
  for (const word of [
    'validate [path]',
    'list',
    'load <name> [--section S] [--chunk C]',
    'search "<task>" [--xml] [--limit N]',
  ]) assert.ok(help.stdout.includes(word), word);
  assert.equal((await run([])).code, 2);
  const unknown = await run(['frobnicate']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown skills command "frobnicate"/);
  assert.equal((await run(['list', '--bogus'])).code, 2);
});

test('validate <dir> exits 0 for valid skills and 1 with file:line problems for invalid ones', async () => {
  const good = await run(['validate', BUNDLED_FIXTURE]);
  assert.equal(good.code, 0, good.stdout + good.stderr);
  assert.match(good.stdout, /4 skills checked: 0 errors/);
  const bad = await run(['validate', path.join(FIXTURES, 'invalid')]);
  assert.equal(bad.code, 1);
  assert.match(bad.stdout, /bad-name[\\/]SKILL\.md:2: error \[name-charset\]/);
  assert.match(bad.stdout, /1 skill checked: 2 errors/);
  const json = await run(['validate', path.join(FIXTURES, 'invalid', 'bad-name'), '--json']);
  assert.equal(json.code, 1);
  assert.equal(JSON.parse(json.stdout).errors, 2);
});

test('validate without a folder checks the workspace skill folders and fails on the skipped one', async () => {
  const { ws } = await fixtureWorkspace();
  const r = await run(['validate'], ws);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /no-description[\\/]SKILL\.md:\d+: error \[description-required\]/);
  assert.match(r.stdout, /colon-value[\\/]SKILL\.md:3: error \[frontmatter-unquoted-colon\]/);
});

test('validate exits 0 once the workspace skills are fixed', async () => {
  const { fx, ws } = await fixtureWorkspace();
  rmSync(path.join(fx.root, '.agents'), { recursive: true });
  const r = await run(['validate'], ws);
  assert.equal(r.code, 0, r.stdout);
});

test('list prints skills by source with shadowed and skipped ones; --json gives the same as data', async () => {
  const { ws } = await fixtureWorkspace();
  const r = await run(['list'], ws);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /Project \(\.autosnippet\/skills\)\n  shared-name /);
  assert.match(r.stdout, /GitHub \(\.github\/skills\)\n  gh-only /);
  assert.match(r.stdout, /shadowed: shared-name in Claude \(\.claude\/skills\) \(hidden by project\)/);
  assert.match(r.stdout, /skipped: .*no-description.*no description/);
  const json = JSON.parse((await run(['list', '--json'], ws)).stdout);
  assert.equal(json.skills.length, 6);
  assert.equal(json.shadowed.length, 2);
});

test('load prints level 2, a section or a chunk; unknown names exit 1 with the closest names', async () => {
  const { ws } = await fixtureWorkspace();
  const body = await run(['load', 'project-coldstart'], ws);
  assert.equal(body.code, 0);
  assert.match(body.stdout, /^# Cold start\n/, 'the body as written, as load_skill gives it to a model');
  assert.match(body.stdout, /- examples: Worked examples for large monorepos/);
  assert.doesNotMatch(body.stdout, /Scan each package on its own/);
  const section = await run(['load', 'project-coldstart', '--section', 'Pitfalls'], ws);
  assert.match(section.stdout, /## Pitfalls/);
  assert.doesNotMatch(section.stdout, /bootstrap_scan/);
  const chunk = await run(['load', 'project-coldstart', '--chunk', 'examples'], ws);
  assert.equal(chunk.stdout, '### Example: a monorepo\n\nScan each package on its own, then merge duplicates.\n');
  const missing = await run(['load', 'coldstart'], ws);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /SKILL_NOT_FOUND: No skill named "coldstart"\. Closest: project-coldstart/);
  assert.equal((await run(['load', 'project-coldstart', '--chunk', 'nope'], ws)).code, 1);
  assert.equal((await run(['load', 'project-coldstart', '--section', 'Nope'], ws)).code, 1);
  assert.equal((await run(['load'], ws)).code, 2);
});

test('search prints {"no_match", "matched_skills": [{name, description, confidence}]} best first, or an <available-skills> block with --xml', async () => {
  const { ws } = await fixtureWorkspace();
  const r = await run(['search', 'cold start a new project', '--limit', '2'], ws);
  assert.equal(r.code, 0);
  const json = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(json), ['no_match', 'matched_skills']);
  assert.equal(json.no_match, false);
  assert.ok(json.matched_skills.length >= 1);
  assert.deepEqual(Object.keys(json.matched_skills[0]), ['name', 'description', 'confidence']);
  assert.equal(json.matched_skills[0].name, 'project-coldstart');
  const xml = await run(['search', 'guard rules', '--xml', '--limit', '1'], ws);
  assert.match(
    xml.stdout,
    /^<available-skills>\n<skill><name>guard-rules<\/name><description>Use when writing or checking guard rules[^<]*<\/description><location>[^<]*guard-rules[\\/]SKILL\.md<\/location><confidence>(0\.\d+|1)<\/confidence><\/skill>\n<\/available-skills>\n$/,
  );
  const none = await run(['search', '今晚想做番茄炒蛋', '--xml'], ws);
  assert.match(
    none.stdout,
    /^<available-skills>\n<!-- No skill fits this task\..*-->\n<\/available-skills>\n$/,
    'the XML form says when no skill fits',
  );
  assert.equal((await run(['search'], ws)).code, 2);
  assert.equal((await run(['search', 'x', '--limit', 'lots'], ws)).code, 2);
});

test('validate takes a SKILL.md path; a plain file and a missing path exit 1 with a clear message', async () => {
  const { fx } = await fixtureWorkspace();
  const file = path.join(fx.bundled, 'guard-rules', 'SKILL.md');
  const one = await run(['validate', file]);
  assert.equal(one.code, 0, one.stdout + one.stderr);
  assert.match(one.stdout, /1 skill checked: 0 errors/);
  const lower = path.join(fx.base, 'lower', 'lower-case');
  mkdirSync(lower, { recursive: true });
  writeFileSync(
    path.join(lower, 'skill.md'),
    '---\nname: lower-case\ndescription: A lowercase skill file. Use when testing.\n---\n\nBody.\n',
  );
  const lowerRun = await run(['validate', path.join(lower, 'skill.md')]);
  assert.equal(lowerRun.code, 0, lowerRun.stdout + lowerRun.stderr);
  assert.match(lowerRun.stdout, /warning \[skill-file-name\]/);
  const plain = path.join(fx.base, 'notes.txt');
  writeFileSync(plain, 'not a skill');
  const notSkill = await run(['validate', plain]);
  assert.equal(notSkill.code, 1);
  assert.doesNotMatch(notSkill.stderr, /ENOTDIR/);
  assert.match(
    notSkill.stderr,
    /notes\.txt is a file, not a skill: give a SKILL\.md, a skill folder or a folder of skills/,
  );
  const missing = await run(['validate', path.join(fx.base, 'no-such-folder')]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /NOT_FOUND: .*no-such-folder does not exist/);
});

test('validate skips a skill folder linked to outside the workspace and says why', async () => {
  const { fx, ws } = await fixtureWorkspace();
  const outside = path.join(fx.base, 'elsewhere', 'outside-skill');
  mkdirSync(outside, { recursive: true });
  writeFileSync(
    path.join(outside, 'SKILL.md'),
    '---\nname: outside-skill\ndescription: Kept outside. Use when never.\n---\n\nSECRET BODY\n',
  );
  symlinkSync(outside, path.join(fx.root, '.autosnippet', 'skills', 'outside-skill'));
  const r = await run(['validate'], ws);
  assert.doesNotMatch(r.stdout, /outside-skill[\\/]SKILL\.md:/, 'not read');
  assert.match(r.stdout, /skipped: .*outside-skill: .*outside the workspace/);
  const json = JSON.parse((await run(['validate', '--json'], ws)).stdout);
  assert.ok(!json.results.some((x: { file: string }) => x.file.includes('outside-skill')));
  assert.ok(
    json.skipped.some((x: { path: string; reason: string }) =>
      x.path.endsWith('outside-skill') && /outside the workspace/.test(x.reason)
    ),
  );
});
