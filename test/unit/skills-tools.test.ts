import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ToolCatalog } from '../../src/core/catalog/catalog';
import { skillTools } from '../../src/core/catalog/skills';
import { skillsHealthCounter } from '../../src/core/catalog/skills-health';
import type { ToolContext, ToolResult } from '../../src/core/catalog/types';
import { dimensionGuides } from '../../src/core/domains/bootstrap';
import { sourceKind } from '../../src/core/domains/skills/install';
import { findSection, skillPartText } from '../../src/core/domains/skills/parse';
import { skillRegistry } from '../../src/core/domains/skills/registry';
import { loadTokenCounter } from '../../src/core/domains/skills/tokens';
import type { DeepPartial, Settings } from '../../src/core/ground/settings';
import { openWorkspace, REPO_SKILLS, tempDir, tempFixture } from './skills-helpers';

const catalog = new ToolCatalog(skillTools);
const agent: ToolContext = { actor: 'external_agent', channel: 'test' };

async function setup(settings?: DeepPartial<Settings>) {
  const fx = tempFixture();
  const ws = await openWorkspace(fx.root, { bundledDir: fx.bundled, settings });
  const call = async (tool: string, input: unknown, ctx: ToolContext = agent) => catalog.invoke(ws, tool, input, ctx);
  return { fx, ws, call };
}

function data(r: ToolResult): any {
  if (!r.ok) assert.fail(`expected ok, got ${JSON.stringify(r.error)}`);
  return r.data;
}
function error(r: ToolResult): { code: string; message: string; hint?: string; details?: any } {
  if (r.ok) assert.fail(`expected an error, got ${JSON.stringify(r.data).slice(0, 300)}`);
  return r.error;
}

test('every skills tool is in the skills domain, has a summary, a description and a known access class', () => {
  assert.deepEqual(skillTools.map((t) => t.name), [
    'list_skills',
    'load_skill',
    'load_skill_chunk',
    'read_skill_resource',
    'search_skills',
    'install_skill',
    'create_skill',
    'run_skill_script',
  ]);
  for (const t of skillTools) {
    assert.equal(t.domain, 'skills');
    assert.ok(t.summary.length > 20 && t.summary.length <= 120, `${t.name} summary: ${t.summary.length}`);
    assert.ok(t.description.length > t.summary.length);
  }
  assert.equal(skillTools.find((t) => t.name === 'install_skill')!.access, 'review');
  assert.equal(skillTools.find((t) => t.name === 'create_skill')!.access, 'review');
  assert.equal(skillTools.find((t) => t.name === 'run_skill_script')!.access, 'propose');
});

test('list_skills gives level 1 with sources and counts the hidden ones; hidden: true lists them once; filter and source narrow it', async () => {
  const { call } = await setup();
  const all = data(await call('list_skills', {}));
  assert.deepEqual(all.skills.map((s: any) => s.name), [
    'shared-name',
    'gh-only',
    'colon-value',
    'guard-rules',
    'project-coldstart',
    'recipe-writing',
  ]);
  const cold = all.skills.find((s: any) => s.name === 'project-coldstart');
  assert.equal(cold.summary, 'Use when starting on a new project that has no recipes yet.');
  assert.equal(cold.source, 'bundled');
  assert.equal(cold.chunks, 2);
  assert.deepEqual(all.hidden, {
    shadowed: 2,
    skipped: 1,
    hint: 'Call list_skills with hidden: true to see them and why.',
  });
  assert.equal(all.shadowed, undefined, 'the hidden list is not repeated on every page of skills');
  const hidden = data(await call('list_skills', { hidden: true }));
  assert.equal(hidden.total, 3);
  assert.deepEqual(hidden.skills.filter((s: any) => s.shadowedBy).map((s: any) => `${s.source}>${s.shadowedBy}`), [
    'claude>project',
    'bundled>project',
  ]);
  assert.match(hidden.skills.find((s: any) => s.skipped).skipped, /no description/);
  assert.deepEqual(data(await call('list_skills', { filter: 'RECIPE' })).skills.map((s: any) => s.name), [
    'project-coldstart',
    'recipe-writing',
  ]);
  assert.deepEqual(data(await call('list_skills', { source: 'github' })).skills.map((s: any) => s.name), ['gh-only']);
});

test('load_skill returns the body without chunks, lists the chunks with their size, files and related skills, and little else', async () => {
  const { call } = await setup();
  const d = data(await call('load_skill', { name: 'project-coldstart' }));
  assert.doesNotMatch(d.content, /Scan each package on its own/);
  assert.match(d.content, /## Pitfalls/);
  assert.deepEqual(d.chunks.map((c: any) => [c.id, c.loaded]), [
    ['examples', undefined],
    ['troubleshooting', undefined],
  ]);
  assert.ok(d.chunks.every((c: any) => c.tokens > 0));
  assert.ok(d.files.includes('references/dimensions.md'));
  assert.deepEqual(d.related, ['guard-rules', 'recipe-writing']);
  assert.deepEqual(Object.keys(d), ['name', 'source', 'file', 'content', 'tokens', 'chunks', 'files', 'related']);
  const counter = await loadTokenCounter();
  assert.equal(d.tokens, counter.count(d.content));
});

test('load_skill with section returns only that section; an unknown section lists the headings', async () => {
  const { call } = await setup();
  const d = data(await call('load_skill', { name: 'project-coldstart', section: 'pitfalls' }));
  assert.equal(d.section, 'Pitfalls');
  assert.deepEqual(d.otherSections, ['Steps', 'Example of the chunk syntax']);
  assert.match(d.content, /^## Pitfalls/);
  assert.doesNotMatch(d.content, /Steps|bootstrap_scan|exclude`/);
  assert.deepEqual(d.chunks.map((c: any) => c.id), ['troubleshooting']);
  const e = error(await call('load_skill', { name: 'project-coldstart', section: 'Setup' }));
  assert.equal(e.code, 'SECTION_NOT_FOUND');
  assert.deepEqual(e.details.available, ['Steps', 'Pitfalls', 'Example of the chunk syntax']);
});

test('loaded chunks are marked as loaded in level 2', async () => {
  const { call } = await setup();
  const d = data(await call('load_skill', { name: 'project-coldstart', loadedChunks: ['examples'] }));
  assert.deepEqual(d.chunks.map((c: any) => c.loaded ?? false), [true, false]);
});

test('an unknown skill gives SKILL_NOT_FOUND with the names that exist, closest first', async () => {
  const { call } = await setup();
  const e = error(await call('load_skill', { name: 'recipe-writer' }));
  assert.equal(e.code, 'SKILL_NOT_FOUND');
  assert.equal(e.details.available[0], 'recipe-writing');
  assert.equal(e.details.available.length, 5, 'at most 5 closest names, never the whole list');
  assert.ok(e.hint);
  assert.equal(error(await call('load_skill_chunk', { skill: 'nope', chunk: 'x' })).code, 'SKILL_NOT_FOUND');
  assert.equal(error(await call('read_skill_resource', { skill: 'nope', path: 'x' })).code, 'SKILL_NOT_FOUND');
});

test('load_skill_chunk returns a chunk; an unknown one gives CHUNK_NOT_FOUND with the ids', async () => {
  const { call } = await setup();
  const d = data(await call('load_skill_chunk', { skill: 'project-coldstart', chunk: 'examples' }));
  assert.equal(d.content, '### Example: a monorepo\n\nScan each package on its own, then merge duplicates.');
  assert.equal(d.description, 'Worked examples for large monorepos');
  const e = error(await call('load_skill_chunk', { skill: 'project-coldstart', chunk: 'example' }));
  assert.equal(e.code, 'CHUNK_NOT_FOUND');
  assert.deepEqual(e.details.available, ['examples', 'troubleshooting']);
});

test('aliases agents already use are accepted: skillName, skill_name, chunk_id', async () => {
  const { call } = await setup();
  assert.equal(data(await call('load_skill', { skillName: 'guard-rules' })).name, 'guard-rules');
  assert.equal(data(await call('load_skill', { skill_name: 'guard-rules' })).name, 'guard-rules');
  assert.equal(
    data(await call('load_skill_chunk', { skill_name: 'project-coldstart', chunk_id: 'troubleshooting' })).chunk,
    'troubleshooting',
  );
  assert.equal(
    data(await call('load_skill_chunk', { skillName: 'project-coldstart', chunk_id: 'examples' })).chunk,
    'examples',
  );
  assert.equal(
    data(await call('read_skill_resource', { skill_name: 'project-coldstart', file: 'assets/template.txt' })).content,
    'Title: {{title}}\n',
  );
  assert.equal(data(await call('search_skills', { task: 'guard rules' })).matched_skills[0].name, 'guard-rules');
});

test('over a token budget a load is refused with its size and the size of each section', async () => {
  const { call } = await setup();
  const full = data(await call('load_skill', { name: 'project-coldstart' }));
  const e = error(await call('load_skill', { name: 'project-coldstart', maxTokens: 20 }));
  assert.equal(e.code, 'BUDGET_EXCEEDED');
  assert.equal(e.details.tokens, full.tokens);
  assert.equal(e.details.maxTokens, 20);
  assert.deepEqual(e.details.sections.map((s: any) => s.heading), ['Steps', 'Pitfalls', 'Example of the chunk syntax']);
  assert.match(e.hint!, /section/);
  assert.equal(
    error(await call('load_skill_chunk', { skill: 'project-coldstart', chunk: 'examples', maxTokens: 3 })).code,
    'BUDGET_EXCEEDED',
  );
  assert.equal(
    data(await call('load_skill', { name: 'project-coldstart', maxTokens: full.tokens })).content,
    full.content,
  );
});

test('with truncate: true a load is cut to the budget with a note naming what was left out', async () => {
  const { call } = await setup();
  const d = data(await call('load_skill', { name: 'project-coldstart', maxTokens: 60, truncate: true }));
  assert.ok(d.tokens <= 60, `tokens ${d.tokens}`);
  assert.ok(d.totalTokens > 60);
  assert.match(d.content, /^# Cold start/);
  assert.match(d.cut, /Cut to fit 60 tokens/);
  assert.match(d.cut, /"Pitfalls"/);
  assert.ok(d.content.endsWith(d.cut));
});

test('read_skill_resource reads a file of the skill; a missing one lists the files', async () => {
  const { call } = await setup();
  const d = data(await call('read_skill_resource', { skill: 'project-coldstart', path: 'references/dimensions.md' }));
  assert.equal(d.content, '# Dimensions\n\nThe nine knowledge dimensions.\n');
  assert.equal(d.kind, 'reference');
  const e = error(await call('read_skill_resource', { skill: 'project-coldstart', path: 'references/missing.md' }));
  assert.equal(e.code, 'RESOURCE_NOT_FOUND');
  assert.ok(e.details.available.includes('references/dimensions.md'));
});

test('read_skill_resource refuses ../, absolute paths and links that lead out of the skill folder', async () => {
  const { call, fx } = await setup();
  const dir = path.join(fx.bundled, 'project-coldstart');
  writeFileSync(path.join(fx.base, 'secret.txt'), 'secret');
  symlinkSync(path.join(fx.base, 'secret.txt'), path.join(dir, 'references', 'leak.md'));
  symlinkSync(fx.base, path.join(dir, 'assets', 'outside'));
  symlinkSync(path.join(dir, 'references', 'dimensions.md'), path.join(dir, 'references', 'alias.md'));
  for (const bad of [
    '../guard-rules/SKILL.md',
    'references/../../guard-rules/SKILL.md',
    '..\\guard-rules\\SKILL.md',
    path.join(fx.base, 'secret.txt'),
    '/etc/passwd',
    'C:\\Windows\\win.ini',
    'references/leak.md',
    'assets/outside/secret.txt',
  ]) {
    const e = error(await call('read_skill_resource', { skill: 'project-coldstart', path: bad }));
    assert.equal(e.code, 'PATH_OUTSIDE_SKILL', `${bad}: ${e.code}`);
    assert.doesNotMatch(JSON.stringify(e), /secret"?$|root:/);
  }
  assert.match(
    data(await call('read_skill_resource', { skill: 'project-coldstart', path: 'references/alias.md' })).content,
    /nine knowledge dimensions/,
  );
});

test('search_skills ranks the cold-start skill first for "cold start a new project", with confidences and matched terms', async () => {
  const { call } = await setup();
  const d = data(await call('search_skills', { query: 'cold start a new project', mode: 'bm25' }));
  const [first, second] = d.matched_skills;
  assert.equal(first.name, 'project-coldstart');
  assert.equal(d.no_match, false);
  assert.ok(first.confidence > 0.5 && first.confidence <= 1, `confidence ${first.confidence}`);
  assert.ok(!second || first.confidence > second.confidence, `${first.confidence} vs ${second?.confidence}`);
  assert.ok(first.matchedTerms.includes('cold'));
  assert.ok(first.matchedTerms.includes('project'));
  assert.equal(
    data(await call('search_skills', { query: 'write a guard rule', limit: 1 })).matched_skills[0].name,
    'guard-rules',
  );
  const none = data(await call('search_skills', { query: 'quantum zebra' }));
  assert.equal(none.no_match, true);
  assert.deepEqual(none.matched_skills, []);
  assert.match(none.hint, /No skill/);
  assert.match(none.hint, /mode "llm"/, 'the words decided: a model choosing from the catalog may still find one');
  const noModel = data(await call('search_skills', { query: 'quantum zebra', mode: 'llm' }));
  assert.equal(noModel.ranking, 'bm25', 'no model here: the ranking answers');
  assert.doesNotMatch(noModel.hint, /mode "llm"/, 'asking for the model again would give the same answer');
  assert.equal(error(await call('search_skills', { query: 'x', mode: 'vector' })).code, 'INVALID_INPUT');
});

test('run_skill_script is refused unless the workspace is trusted and scripts are allowed', async () => {
  const off = await setup();
  const human: ToolContext = { actor: 'human', channel: 'test' };
  assert.equal(
    error(await off.call('run_skill_script', { skill: 'project-coldstart', script: 'count.sh' }, human)).code,
    'SCRIPTS_DISABLED',
  );
  const untrusted = await setup({ trusted: false, skills: { allowScripts: true } });
  const e = error(await untrusted.call('run_skill_script', { skill: 'project-coldstart', script: 'count.sh' }, human));
  assert.equal(e.code, 'SCRIPTS_DISABLED');
  assert.match(e.message, /not trusted/);
});

test('run_skill_script runs a script with args as an array, no shell, in the workspace root', async () => {
  const { call, fx, ws } = await setup({ trusted: true, skills: { allowScripts: true } });
  const human: ToolContext = { actor: 'human', channel: 'test' };
  const d = data(
    await call('run_skill_script', {
      skill: 'project-coldstart',
      script: 'scripts/count.sh',
      args: ['a b', '$(whoami)', ';rm -rf /'],
    }, human),
  );
  assert.equal(d.exitCode, 0);
  assert.equal(d.stdout, `args: a b $(whoami) ;rm -rf /\ncwd: ${ws.root}\n`);
  assert.equal(d.timedOut, false);
  assert.equal(
    error(await call('run_skill_script', { skill: 'project-coldstart', script: '../SKILL.md' }, human)).code,
    'PATH_OUTSIDE_SKILL',
  );
  // A file outside scripts/ cannot run even though it is inside the skill.
  chmodSync(path.join(fx.bundled, 'project-coldstart', 'assets', 'template.txt'), 0o755);
  assert.equal(
    error(await call('run_skill_script', { skill: 'project-coldstart', script: '../assets/template.txt' }, human)).code,
    'PATH_OUTSIDE_SKILL',
  );
});

test('run_skill_script stops a script at its time limit and bounds its output', async () => {
  const { call, fx } = await setup({ trusted: true, skills: { allowScripts: true } });
  const human: ToolContext = { actor: 'human', channel: 'test' };
  const started = Date.now();
  const slow = data(
    await call('run_skill_script', { skill: 'project-coldstart', script: 'slow.sh', timeoutMs: 300 }, human),
  );
  assert.equal(slow.timedOut, true);
  assert.ok(Date.now() - started < 5000);
  writeFileSync(
    path.join(fx.bundled, 'project-coldstart', 'scripts', 'loud.js'),
    'process.stdout.write("x".repeat(200000));',
  );
  const loud = data(await call('run_skill_script', { skill: 'project-coldstart', script: 'loud.js' }, human));
  assert.equal(loud.stdout.length, 16 * 1024);
  assert.equal(loud.stdoutTruncated, true);
});

test('run_skill_script asks for confirmation with the script and its arguments', () => {
  const tool = skillTools.find((t) => t.name === 'run_skill_script')!;
  const c = tool.confirmation!({ skill: 'demo', script: 'check.py', args: ['--fix'] });
  assert.match(c.message, /scripts\/check\.py of skill "demo" with \["--fix"\]/);
});

test('install_skill copies a validated folder into .autosnippet/skills and the registry sees it at once', async () => {
  const { call, ws, fx } = await setup();
  const human: ToolContext = { actor: 'human', channel: 'test' };
  const source = path.join(fx.bundled, 'guard-rules');
  const d = data(await call('install_skill', { source }, human));
  assert.equal(d.name, 'guard-rules');
  assert.equal(d.installedTo, '.autosnippet/skills/guard-rules');
  assert.equal(d.replaced, false);
  assert.equal(data(await call('load_skill', { name: 'guard-rules' })).source, 'project');
  const again = error(await call('install_skill', { source }, human));
  assert.equal(again.code, 'SKILL_EXISTS');
  assert.equal(data(await call('install_skill', { source, overwrite: true }, human)).replaced, true);
  assert.ok(existsSync(path.join(ws.root, '.autosnippet', 'skills', 'guard-rules', 'SKILL.md')));
  assert.equal(error(await call('install_skill', { source }, agent)).code, 'PERMISSION_DENIED');
});

test('install_skill refuses a skill that does not validate and copies nothing', async () => {
  const { call, ws, fx } = await setup();
  const human: ToolContext = { actor: 'human', channel: 'test' };
  const bad = path.join(fx.base, 'invalid', 'bad-name');
  const e = error(await call('install_skill', { source: bad }, human));
  assert.equal(e.code, 'INVALID_SKILL');
  assert.ok(e.details.problems.some((p: any) => p.rule === 'name-charset'));
  assert.ok(!existsSync(path.join(ws.root, '.autosnippet', 'skills', 'bad-name')));
});

test('install_skill takes one skill out of a folder of several only when named', async () => {
  const { call, fx } = await setup();
  const human: ToolContext = { actor: 'human', channel: 'test' };
  const e = error(await call('install_skill', { source: fx.bundled }, human));
  assert.equal(e.code, 'INVALID_INPUT');
  assert.match(e.hint!, /project-coldstart/);
  const d = data(await call('install_skill', { source: fx.bundled, name: 'project-coldstart' }, human));
  assert.equal(d.name, 'project-coldstart');
});

test('install_skill installs from a .zip and from a git repository', async (t) => {
  const { call, fx, ws } = await setup();
  const human: ToolContext = { actor: 'human', channel: 'test' };
  const { spawnSync } = await import('node:child_process');
  const hasZip = spawnSync('zip', ['-v']).status === 0 && spawnSync('unzip', ['-v']).status === 0;
  if (hasZip) {
    const zip = path.join(fx.base, 'recipe.zip');
    spawnSync('zip', ['-qr', zip, 'recipe-writing'], { cwd: fx.bundled });
    assert.equal(data(await call('install_skill', { source: zip }, human)).kind, 'zip');
    assert.ok(existsSync(path.join(ws.root, '.autosnippet', 'skills', 'recipe-writing', 'SKILL.md')));
  } else t.diagnostic('zip/unzip not installed: .zip install not exercised');
  if (spawnSync('git', ['--version']).status !== 0) return t.diagnostic('git not installed');
  const repo = path.join(fx.base, 'repo');
  mkdirSync(repo);
  writeFileSync(path.join(repo, 'SKILL.md'), readFileSync(path.join(fx.bundled, 'shared-name', 'SKILL.md')));
  const git = (...args: string[]) =>
    spawnSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: repo });
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'skill');
  const d = data(await call('install_skill', { source: `file://${repo}`, overwrite: true }, human));
  assert.equal(d.kind, 'git');
  assert.equal(d.name, 'shared-name');
  assert.match(data(await call('load_skill', { name: 'shared-name' })).content, /Bundled body/);
  assert.ok(!existsSync(path.join(ws.root, '.autosnippet', 'skills', 'shared-name', '.git')));
});

test('install_skill tells folders, .zip files and git URLs apart, and refuses option-like sources and remote helpers', () => {
  assert.equal(sourceKind('skills/my-skill'), 'folder');
  assert.equal(sourceKind('/tmp/skill.zip'), 'zip');
  assert.equal(sourceKind('https://github.com/owner/repo'), 'git');
  assert.equal(sourceKind('git@github.com:owner/repo.git'), 'git');
  assert.throws(() => sourceKind('--upload-pack=touch /tmp/x'), /cannot start with "-"/);
  assert.throws(() => sourceKind('ext::sh -c touch% /tmp/pwned'), /remote helpers/);
  assert.throws(() => sourceKind('https://example.com/skill.zip'), /a \.zip from a URL is not supported/);
});

test('health counts the skills in effect, the shadowed and the skipped ones', async () => {
  const { ws } = await setup();
  assert.deepEqual(await skillsHealthCounter(ws), { skills: 6, skillsShadowed: 2, skillsSkipped: 1 });
});

test('load_skill on the bundled skills: the answer a model reads is the Markdown of level 2 with at most 5% around it; chunks likewise', async () => {
  const ws = await openWorkspace(tempDir(), { bundledDir: REPO_SKILLS });
  const catalog = new ToolCatalog(skillTools);
  const counter = await loadTokenCounter();
  const ctx: ToolContext = { actor: 'external_agent', channel: 'test' };
  const list = (await catalog.invoke(ws, 'list_skills', {}, ctx)) as any;
  assert.equal(list.data.skills.length, 13);
  for (const { name } of list.data.skills) {
    const r = (await catalog.invoke(ws, 'load_skill', { name }, ctx)) as any;
    // The SKILL.md path starts with wherever the repository is checked out: count it from a fixed root.
    r.data.file = path.join('/repo', path.relative(path.dirname(REPO_SKILLS), r.data.file));
    const answer = catalog.resultText(r);
    // What it delivers: the body as written, and one line per chunk, file and related skill.
    const delivered = [
      r.data.content,
      ...r.data.chunks.map((c: any) => `- ${c.id}: ${c.description}`),
      ...(r.data.files ?? []),
      ...(r.data.related ?? []),
    ].join('\n');
    assert.ok(answer.includes(r.data.content), `${name}: the body is carried as written, unescaped`);
    const overhead = counter.count(answer) / counter.count(delivered) - 1;
    assert.ok(overhead <= 0.05, `${name}: the answer is ${(overhead * 100).toFixed(1)}% larger than what it delivers`);
    for (const c of r.data.chunks) {
      const chunk = (await catalog.invoke(ws, 'load_skill_chunk', { skill: name, chunk: c.id }, ctx)) as any;
      const text = catalog.resultText(chunk);
      assert.ok(text.includes(chunk.data.content));
      assert.ok(
        counter.count(text) / counter.count(chunk.data.content) - 1 <= 0.05
          || counter.count(text) - counter.count(chunk.data.content) <= 16,
        `${name}/${c.id}: the chunk's answer adds more than its header`,
      );
    }
  }
  const bad = await catalog.invoke(ws, 'load_skill', { name: 'no-such-skill' }, ctx);
  assert.equal(
    JSON.parse(catalog.resultText(bad)).error.code,
    'SKILL_NOT_FOUND',
    'a failure stays the JSON envelope, with its code',
  );
});

test('search_skills: a request in Chinese finds an English skill through the glossary; an off-topic one is no_match', async () => {
  const ws = await openWorkspace(tempDir(), { bundledDir: REPO_SKILLS });
  const catalog = new ToolCatalog(skillTools);
  const ctx: ToolContext = { actor: 'external_agent', channel: 'test' };
  const zh =
    (await catalog.invoke(ws, 'search_skills', { query: '列出项目的模块和它们之间的依赖', limit: 3 }, ctx)) as any;
  assert.equal(zh.data.no_match, false);
  assert.equal(zh.data.matched_skills[0].name, 'autosnippet-structure');
  const off = (await catalog.invoke(ws, 'search_skills', { query: 'what wine goes with grilled salmon' }, ctx)) as any;
  assert.equal(off.data.no_match, true);
  assert.deepEqual(off.data.matched_skills, []);
});

test('the bundled skills keep their reference tables in chunks, and the cold start still reads them (section or chunk)', async () => {
  const ws = await openWorkspace(tempDir(), { bundledDir: REPO_SKILLS });
  const guides = dimensionGuides(ws, ['swift']);
  assert.ok(
    guides.filter((g) => g.from === 'autosnippet-coldstart').length >= 7,
    'the nine dimensions table, from its chunk',
  );
  assert.ok(guides.some((g) => g.from === 'autosnippet-reference-swift'), 'the Swift dimensions, from their chunk');
  const registry = skillRegistry(ws);
  const swift = registry.require('autosnippet-reference-swift');
  assert.equal(findSection(swift, 'What to look for'), undefined, 'not in level 2 any more');
  assert.match(skillPartText(swift, 'What to look for') ?? '', /^### What to look for/);
  assert.equal(skillPartText(swift, 'look-for'), skillPartText(swift, 'What to look for'), 'by id or by heading');
  assert.match(skillPartText(swift, 'Steps') ?? '', /^1\. /m, 'a section still comes first');
  assert.equal(skillPartText(swift, 'No such part'), undefined);
});

test('a lowercase skill.md is the skill file, not one of its resources', async () => {
  const { fx, call } = await setup();
  const dir = path.join(fx.root, '.autosnippet', 'skills', 'lower-case');
  mkdirSync(path.join(dir, 'references'), { recursive: true });
  writeFileSync(
    path.join(dir, 'skill.md'),
    '---\nname: lower-case\ndescription: A lowercase skill file. Use when testing.\n---\n\nBody.\n',
  );
  writeFileSync(path.join(dir, 'references', 'notes.md'), 'Notes.\n');
  const d = data(await call('load_skill', { name: 'lower-case' }));
  assert.deepEqual(d.files, ['references/notes.md']);
});

test('the note of a budget-cut load appears once in the text a model reads', async () => {
  const { ws } = await setup();
  const result = await catalog.invoke(
    ws,
    'load_skill',
    { name: 'project-coldstart', maxTokens: 60, truncate: true },
    agent,
  );
  const text = catalog.resultText(result);
  assert.equal(text.match(/Cut to fit 60 tokens/g)?.length, 1, text);
  const chunk = await catalog.invoke(ws, 'load_skill_chunk', {
    skill: 'project-coldstart',
    chunk: 'examples',
    maxTokens: 8,
    truncate: true,
  }, agent);
  assert.equal(catalog.resultText(chunk).match(/Cut to fit 8 tokens/g)?.length, 1, catalog.resultText(chunk));
});
