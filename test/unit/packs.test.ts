// Knowledge packs: made with `packs create`, packed with the real `npm pack`, added from the tarball
// and from a local git repository (no network), pinned by hash, updated with what changed shown,
// overridden by a project recipe, an item switched off, removed; a tampered cache is refused by its
// hash, and a pack's guard rules run only in a trusted folder, as the project's own do.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { cacheEntryDir } from '../../src/core/domains/packs/cache';
import { cli } from './cli-helpers';
import { writeFiles } from './guard-helpers';

const home = mkdtempSync(path.join(os.tmpdir(), 'as-packs-home-'));
process.env.AUTOSNIPPET_HOME = home;

function tmp(prefix: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `as-packs-${prefix}-`));
}

async function ok(root: string, ...args: string[]): Promise<string> {
  const r = await cli(root, ...args);
  assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}${r.stdout}`);
  return r.stdout;
}

/** The recipes the workspace sees: id → the pack it comes from (`name@version`) or `project`. */
async function recipes(root: string): Promise<Record<string, string>> {
  const listed = JSON.parse(await ok(root, 'list-recipes', '--status', 'any')) as {
    recipes: { id: string; pack?: { name: string; version: string }; file: string }[];
  };
  return Object.fromEntries(listed.recipes.map((r) => [r.id, r.pack ? `${r.pack.name}@${r.pack.version}` : 'project']));
}

function recipe(id: string, title: string, body = 'Text.'): string {
  return `---\nid: ${id}\ntitle: ${title}\nlanguage: typescript\ncategory: api\nknowledgeType: code-standard\nstatus: published\nsummary: ${title}.\n---\n\n${body}\n`;
}

function npmPack(dir: string): string {
  const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts'], { cwd: dir, encoding: 'utf8' });
  return path.join(dir, (JSON.parse(out) as { filename: string }[])[0].filename);
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } })
    .trim();
}

function gitRepo(dir: string): void {
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.email', 'pack@example.com');
  git(dir, 'config', 'user.name', 'Pack Author');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'pack');
}

const pins = (root: string) => JSON.parse(readFileSync(path.join(root, '.autosnippet/packs.json'), 'utf8'));

test('a pack from packs create and npm pack: added from the tarball, pinned, overridden, switched off, updated, removed', async () => {
  const source = tmp('source');
  writeFiles(source, {
    '.autosnippet/recipes/api/client.md': recipe('api-client', 'Call the API through apiClient'),
    '.autosnippet/recipes/api/errors.md': recipe('api-errors', 'Wrap API errors in ApiError'),
    '.autosnippet/recipes/api/retry.md': recipe('api-retry', 'Retry idempotent calls twice'),
  });
  const packDir = path.join(tmp('pack'), 'team-pack');
  const created = await ok(source, 'packs', 'create', '--out', packDir, '--name', 'team-pack', '--version', '1.0.0');
  assert.match(created, /npm pack/);
  assert.deepEqual(JSON.parse(readFileSync(path.join(packDir, 'package.json'), 'utf8')).name, 'team-pack');
  const tgz1 = npmPack(packDir);

  const project = tmp('project');
  writeFiles(project, { 'src/a.ts': 'export const a = 1;\n' });
  const added = await ok(project, 'packs', 'add', tgz1);
  assert.match(added, /Added team-pack@1\.0\.0 \(tarball .*3 recipes/);
  const pin = pins(project).packs['team-pack'];
  assert.equal(pin.version, '1.0.0');
  assert.equal(pin.integrity, `sha512-${createHash('sha512').update(readFileSync(tgz1)).digest('base64')}`);
  assert.match(pin.tree, /^sha512-/);
  assert.ok(existsSync(path.join(cacheEntryDir('team-pack', pin.tree), 'pack.tgz')), 'cached under AUTOSNIPPET_HOME');
  assert.deepEqual(await recipes(project), {
    'api-client': 'team-pack@1.0.0',
    'api-errors': 'team-pack@1.0.0',
    'api-retry': 'team-pack@1.0.0',
  });
  // The copy the workspace reads is git-ignored; export leaves pack recipes out.
  assert.match(readFileSync(path.join(project, '.autosnippet/.gitignore'), 'utf8'), /^state\/$/m);
  const exported = JSON.parse(await ok(project, 'export-recipes', '--to', 'agents', '--dry-run'));
  assert.equal(exported.published, 0);

  // Read-only here: a person changing a pack recipe is told how to override it instead.
  const del = await cli(project, 'deprecate-recipe', '--id', 'api-retry', '--reason', 'old');
  assert.equal(del.code, 1);
  assert.match(del.stderr, /api-retry comes from pack team-pack@1\.0\.0 and is read-only/);

  // The project's recipe of the same id wins; switching an item off hides it.
  writeFiles(project, { '.autosnippet/recipes/api/client.md': recipe('api-client', 'Our own client rule') });
  await ok(project, 'packs', 'disable', 'api-errors');
  assert.deepEqual(pins(project).disabled, ['api-errors']);
  assert.deepEqual(await recipes(project), { 'api-client': 'project', 'api-retry': 'team-pack@1.0.0' });

  // Version 1.1.0: one recipe changed, one added, one removed; update says so and pins it.
  writeFiles(source, {
    '.autosnippet/recipes/api/retry.md': recipe('api-retry', 'Retry idempotent calls twice', 'With backoff.'),
    '.autosnippet/recipes/api/timeouts.md': recipe('api-timeouts', 'Every call has a timeout'),
  });
  rmSync(path.join(source, '.autosnippet/recipes/api/errors.md'));
  await ok(source, 'packs', 'create', '--out', packDir, '--name', 'team-pack', '--version', '1.1.0');
  const tgz2 = npmPack(packDir);
  const dry = await ok(project, 'packs', 'update', 'team-pack', tgz2, '--dry-run');
  assert.match(dry, /dry run/);
  assert.equal(pins(project).packs['team-pack'].version, '1.0.0');
  const updated = await ok(project, 'packs', 'update', 'team-pack', tgz2);
  assert.match(updated, /team-pack: 1\.0\.0 → 1\.1\.0\n {2}recipes: \+api-timeouts, -api-errors, ~api-retry\n/);
  assert.equal(pins(project).packs['team-pack'].version, '1.1.0');
  assert.deepEqual(await recipes(project), {
    'api-client': 'project',
    'api-retry': 'team-pack@1.1.0',
    'api-timeouts': 'team-pack@1.1.0',
  });
  assert.match(await ok(project, 'packs', 'update', 'team-pack', tgz2), /team-pack: 1\.1\.0, unchanged/);

  await ok(project, 'packs', 'remove', 'team-pack');
  assert.deepEqual(pins(project).packs, {});
  assert.deepEqual(await recipes(project), { 'api-client': 'project' });
  assert.deepEqual(readdirSync(path.join(project, '.autosnippet/state/packs')), []);
});

test('a pack from a local git repository: pinned by commit, updated from its branch, a tampered cache refused by its hash', async () => {
  const source = tmp('git-source');
  writeFiles(source, { '.autosnippet/recipes/api/client.md': recipe('api-client', 'Call the API through apiClient') });
  const repo = path.join(tmp('repo'), 'rules');
  await ok(source, 'packs', 'create', '--out', repo, '--name', '@team/rules', '--version', '2.0.0');
  gitRepo(repo);

  const project = tmp('git-project');
  await ok(project, 'packs', 'add', repo);
  const pin = pins(project).packs['@team/rules'];
  assert.equal(pin.kind, 'git');
  assert.equal(pin.commit, git(repo, 'rev-parse', 'HEAD'));
  assert.deepEqual(await recipes(project), { 'api-client': '@team/rules@2.0.0' });

  // Someone edits the cached copy: the pack is refused, naming it and both hashes, and nothing of it loads.
  const cached = path.join(cacheEntryDir('@team/rules', pin.tree), 'files/recipes/api/client.md');
  writeFileSync(cached, readFileSync(cached, 'utf8').replace('apiClient', 'fetch'));
  const listed = await cli(project, 'packs', 'list');
  assert.equal(listed.code, 1);
  assert.match(listed.stderr, /PACK_TAMPERED: Pack @team\/rules: the cached content in .* does not match its pin/);
  assert.ok(listed.stderr.includes(`pins ${pin.tree}, the cache holds sha512-`), listed.stderr);
  assert.match(listed.stdout, /\[not loaded\] @team\/rules@2\.0\.0/);
  assert.deepEqual(await recipes(project), {});
  // install fetches the pinned commit again and checks it against the pin.
  assert.match(await ok(project, 'packs', 'install'), /@team\/rules@2\.0\.0: replaced/);
  assert.deepEqual(await recipes(project), { 'api-client': '@team/rules@2.0.0' });

  // A new commit on the branch: update follows it and says what changed.
  writeFiles(repo, { 'recipes/api/paging.md': recipe('api-paging', 'Page with cursors') });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'paging');
  const updated = await ok(project, 'packs', 'update');
  assert.match(updated, /@team\/rules: 2\.0\.0 → 2\.0\.0\n {2}recipes: \+api-paging\n/);
  assert.equal(pins(project).packs['@team/rules'].commit, git(repo, 'rev-parse', 'HEAD'));
  assert.deepEqual(await recipes(project), { 'api-client': '@team/rules@2.0.0', 'api-paging': '@team/rules@2.0.0' });

  // A file:// URL with a branch works the same way.
  const other = tmp('git-url');
  await ok(other, 'packs', 'add', `file://${repo}#main`);
  assert.equal(pins(other).packs['@team/rules'].wanted, 'main');
});

test("a pack's guard rules run only in a trusted folder; its skills are a source of their own", async () => {
  const repo = path.join(tmp('guard-repo'), 'guard-pack');
  writeFiles(repo, {
    'autosnippet-pack.json': JSON.stringify({ name: 'guard-pack', version: '1.0.0' }),
    'guard/logging.json': JSON.stringify({
      rules: [
        {
          id: 'pack/no-console-log',
          message: 'Log through logger.',
          languages: ['typescript'],
          pattern: 'console\\.log\\(',
        },
        { id: 'pack/no-debugger', message: 'No debugger.', languages: ['typescript'], pattern: '\\bdebugger\\b' },
      ],
    }),
    'skills/pack-review/SKILL.md':
      '---\nname: pack-review\ndescription: How the team reviews API changes. Use when reviewing an API change.\n---\n\nReview it.\n',
  });
  gitRepo(repo);
  const project = tmp('guard-project');
  writeFiles(project, { 'src/a.ts': 'console.log(1);\ndebugger;\n' });
  await ok(project, 'packs', 'add', repo);

  const untrusted = await cli(project, 'guard', 'src', '--format', 'json');
  assert.match(untrusted.stderr + untrusted.stdout, /UNTRUSTED_RULES/);
  assert.doesNotMatch(untrusted.stdout, /pack\/no-console-log/);

  await ok(project, 'packs', 'disable', 'pack/no-debugger');
  const trusted = await cli(project, '--trust', 'guard', 'src', '--format', 'json');
  assert.match(trusted.stdout, /pack\/no-console-log/);
  assert.doesNotMatch(trusted.stdout, /pack\/no-debugger/);

  const skills = JSON.parse(await ok(project, 'list-skills'));
  const skill = (skills.skills as { name: string; source: string }[]).find((s) => s.name === 'pack-review');
  assert.equal(skill?.source, 'pack');
});

test('bad pack sources are refused with what to do, and nothing is pinned', async () => {
  const project = tmp('bad');
  const notAPack = tmp('not-a-pack');
  writeFiles(notAPack, { 'README.md': 'hello\n' });
  gitRepo(notAPack);
  const r = await cli(project, 'packs', 'add', notAPack);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /PACK_FETCH_FAILED: .* is not a knowledge pack: it has no autosnippet-pack\.json/);
  const missing = await cli(project, 'packs', 'add', path.join(project, 'nope-1.0.0.tgz'));
  assert.match(missing.stderr, /PACK_FETCH_FAILED: The tarball .*nope-1\.0\.0\.tgz cannot be read/);
  assert.equal(existsSync(path.join(project, '.autosnippet/packs.json')), false);
  const usage = await cli(project, 'packs', 'frobnicate');
  assert.equal(usage.code, 2);
});

test('packs create carries the guard rule files and named skills, never the baseline or a link', async () => {
  const source = tmp('source-all');
  const rules = {
    rules: [{
      id: 'project/no-raw-fetch',
      message: 'Call the API through apiClient.',
      languages: ['typescript'],
      pattern: '\\bfetch\\(',
      examples: { bad: ["fetch('/x')"], good: ["apiClient.get('/x')"] },
    }],
  };
  writeFiles(source, {
    '.autosnippet/recipes/api/client.md': recipe('api-client', 'Call the API through apiClient'),
    '.autosnippet/guard/api.json': JSON.stringify(rules, null, 2),
    '.autosnippet/guard/baseline.json': '{"version":1,"findings":[]}\n',
    '.autosnippet/skills/api-howto/SKILL.md':
      '---\nname: api-howto\ndescription: Use when adding an API call: the client, errors and retries.\n---\n\n# API calls\n\nUse apiClient.\n',
    '.autosnippet/skills/api-howto/references/errors.md': '# Errors\n\nWrap them in ApiError.\n',
  });
  const secret = path.join(tmp('secret'), 'token.txt');
  writeFileSync(secret, 'not for a pack\n');
  symlinkSync(secret, path.join(source, '.autosnippet/skills/api-howto/references/token.txt'));

  const packDir = path.join(tmp('pack-all'), 'team-all');
  const created = await ok(
    source,
    'packs',
    'create',
    '--out',
    packDir,
    '--name',
    'team-all',
    '--rules',
    '--skill',
    'api-howto',
  );
  assert.match(created, /rule project\/no-raw-fetch, skill api-howto/);
  const files = (dir: string): string[] =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() || e.isSymbolicLink())
      .map((e) => path.relative(packDir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
      .sort();
  assert.deepEqual(files(packDir), [
    'README.md',
    'autosnippet-pack.json',
    'guard/api.json',
    'package.json',
    'recipes/api/client.md',
    'skills/api-howto/SKILL.md',
    'skills/api-howto/references/errors.md',
  ]);

  // Added to another project, the pack's rule and skill are listed with it.
  const project = tmp('project-all');
  writeFiles(project, { 'src/a.ts': 'export const a = 1;\n' });
  const added = await ok(project, 'packs', 'add', npmPack(packDir));
  assert.match(added, /team-all@1\.0\.0 .*; 1 recipe, 1 skill, 1 guard rule\)/);
  writeFiles(project, { 'src/b.ts': "export const b = () => fetch('/api/b');\n" });
  const trusted = await cli(project, '--trust', 'guard', 'src', '--format', 'json');
  assert.match(trusted.stdout, /project\/no-raw-fetch/, 'the rule file came with the pack and runs');
  const skillsSeen = JSON.parse(await ok(project, 'list-skills')).skills as { name: string; source: string }[];
  assert.equal(skillsSeen.find((sk) => sk.name === 'api-howto')?.source, 'pack');

  // A skill the project does not have is refused by name, and nothing is written.
  const missing = await cli(source, 'packs', 'create', '--out', path.join(tmp('pack-none'), 'p'), '--skill', 'nope');
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /There is no skill "nope" in \.autosnippet\/skills/);
});
