// Issue 10's findings about files, each through the tools an agent calls: special files, bombs and
// links that leave the workspace answer within 5 s with a problem that names the file, the other
// files and tools keep working, and `health` still answers afterwards.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { createCatalog } from '../../src/core/catalog';
import type { ToolContext, ToolResult } from '../../src/core/catalog/types';
import { validateSkillFolder } from '../../src/core/domains/skills/validate';
import { Workspace } from '../../src/core/ground/workspace';
import { fifo, link, socket, tempTree, within, yamlAliasBomb } from './files-helpers';

const catalog = createCatalog();
const agent: ToolContext = { actor: 'external_agent', channel: 'test' };
const opened: Workspace[] = [];
after(async () => {
  for (const ws of opened.splice(0)) await ws.dispose();
});

const PROJECT = {
  'package.json': JSON.stringify({ name: 'demo', version: '1.0.0' }),
  'src/index.ts': 'export function main() {\n  const x = eval("1");\n  return x;\n}\n',
  'src/util.ts': 'export const add = (a: number, b: number) => a + b;\n',
};

async function open(files: Record<string, string>): Promise<{ ws: Workspace; root: string }> {
  const root = tempTree(files, 'as-isolation-');
  const ws = await Workspace.open(root);
  opened.push(ws);
  return { ws, root };
}

/** Calls a tool; fails the test if it takes more than 5 s or its answer is over the tool's bound. */
async function call(
  ws: Workspace,
  name: string,
  input: Record<string, unknown> = {},
): Promise<ToolResult & { data?: any; error?: any }> {
  const r = await within(5000, catalog.invoke(ws, name, input, agent), name);
  const bound = catalog.get(name)?.maxOutputChars;
  if (bound) {
    assert.ok(
      JSON.stringify(r).length <= bound + 2000,
      `${name} answered ${JSON.stringify(r).length} characters, over its bound ${bound}`,
    );
  }
  return r as ToolResult & { data?: any; error?: any };
}

function ok(r: ToolResult & { data?: any }, what: string): any {
  assert.equal(r.ok, true, `${what}: ${JSON.stringify(r).slice(0, 600)}`);
  return r.data;
}

async function healthy(ws: Workspace): Promise<void> {
  ok(await call(ws, 'health'), 'health');
}

async function listingTools(ws: Workspace, mentions: RegExp): Promise<void> {
  const targets = ok(await call(ws, 'get_targets'), 'get_targets');
  assert.ok(targets.targets.some((t: { name: string }) => t.name === 'demo'));
  assert.match(JSON.stringify(targets.problems), mentions);
  const files = ok(await call(ws, 'get_target_files', { target: 'demo' }), 'get_target_files');
  assert.ok(JSON.stringify(files).includes('src/index.ts'));
  const scan = ok(await call(ws, 'scan_project'), 'scan_project');
  assert.ok(scan.violations.some((v: { ruleId: string }) => v.ruleId === 'ts/no-eval'));
  assert.match(JSON.stringify(scan.skipped), mentions);
  const audit = ok(await call(ws, 'guard_audit_files', { paths: ['src'] }), 'guard_audit_files');
  assert.equal(audit.files, 2);
  const boot = ok(await call(ws, 'bootstrap_knowledge'), 'bootstrap_knowledge');
  assert.ok(boot.scanned.files >= 2);
  assert.match(JSON.stringify(boot.problems), mentions);
  await healthy(ws);
}

test('a FIFO .gitignore: get_targets, get_target_files, scan_project, guard_audit_files, bootstrap_knowledge and health answer, naming it', async () => {
  const { ws, root } = await open(PROJECT);
  fifo(root, '.gitignore');
  await listingTools(ws, /\.gitignore is a FIFO/);
});

test('a .gitignore linked to /dev/zero: the same tools answer at once, naming it', async () => {
  const { ws, root } = await open(PROJECT);
  link(root, '.gitignore', '/dev/zero');
  await listingTools(ws, /\.gitignore is outside the workspace/);
});

test('a 1 MB .gitignore line is left out alone: its other lines still apply, the tools answer', async () => {
  const { ws } = await open({ ...PROJECT, '.gitignore': `${'x'.repeat(1 << 20)}\nsrc/util.ts\n` });
  const scan = ok(await call(ws, 'scan_project'), 'scan_project');
  assert.equal(scan.files, 1, 'src/util.ts is still ignored by the next line');
  assert.match(JSON.stringify(scan.skipped), /\.gitignore line 1: it is 1048576 characters long/);
  ok(await call(ws, 'get_targets'), 'get_targets');
  await healthy(ws);
});

test("a FIFO in a skill's references/: read_skill_resource refuses it at once; the skill still loads", async () => {
  const skill =
    '---\nname: demo-skill\ndescription: A demo skill for the tests.\n---\n\n# Demo\n\nSee references/ok.md.\n';
  const { ws, root } = await open({
    '.autosnippet/skills/demo-skill/SKILL.md': skill,
    '.autosnippet/skills/demo-skill/references/ok.md': 'fine',
  });
  fifo(root, '.autosnippet/skills/demo-skill/references/pipe.md');
  const r = await call(ws, 'read_skill_resource', { skill: 'demo-skill', path: 'references/pipe.md' });
  assert.equal(r.ok, false);
  assert.equal(r.error.code, 'NOT_A_REGULAR_FILE');
  assert.match(r.error.message, /FIFO/);
  assert.equal(
    ok(await call(ws, 'read_skill_resource', { skill: 'demo-skill', path: 'references/ok.md' }), 'ok.md').content,
    'fine',
  );
  ok(await call(ws, 'load_skill', { name: 'demo-skill' }), 'load_skill');
  await healthy(ws);
});

test('a skill folder that is a link to outside the workspace is not served; its neighbours are', async () => {
  const outside = tempTree({
    'evil/SKILL.md': '---\nname: evil\ndescription: Served from outside the workspace.\n---\nsecret body\n',
  });
  const { ws, root } = await open({
    '.autosnippet/skills/good/SKILL.md': '---\nname: good\ndescription: A skill inside the workspace.\n---\nbody\n',
  });
  link(root, '.autosnippet/skills/evil', path.join(outside, 'evil'));
  const names = JSON.stringify(ok(await call(ws, 'list_skills'), 'list_skills'));
  assert.ok(names.includes('"good"'));
  assert.ok(!names.includes('evil'));
  const hidden = JSON.stringify(ok(await call(ws, 'list_skills', { hidden: true }), 'list_skills'));
  assert.ok(!hidden.includes('secret body'));
  assert.match(hidden, /outside the workspace/);
  const r = await call(ws, 'load_skill', { name: 'evil' });
  assert.equal(r.ok, false);
  assert.equal(r.error.code, 'SKILL_NOT_FOUND');
  await healthy(ws);
});

const RECIPE =
  '---\ntitle: Network calls go through getJson\nlanguage: typescript\ncategory: networking\nsummary: Call the network through getJson.\n---\n\n```ts\nconst users = await getJson("/users");\n```\n';

test("a YAML alias bomb in a recipe's frontmatter: rebuild_index reports that file and indexes the others", async () => {
  const { ws } = await open({
    '.autosnippet/recipes/networking/get-json.md': RECIPE,
    '.autosnippet/recipes/networking/bomb.md': `---\ntitle: Bomb\n${yamlAliasBomb()}\n---\nbody\n`,
  });
  const report = ok(await call(ws, 'rebuild_index'), 'rebuild_index');
  assert.equal(report.added, 1);
  assert.equal(report.problems.length, 1);
  assert.equal(report.problems[0].file, '.autosnippet/recipes/networking/bomb.md');
  assert.match(report.problems[0].message, /too complex/);
  ok(await call(ws, 'search', { query: 'getJson' }), 'search');
  await healthy(ws);
});

test('a recipe that is a FIFO, a socket or a link out of the workspace is a problem naming it, not silently left out', async () => {
  const { ws, root } = await open({ '.autosnippet/recipes/networking/get-json.md': RECIPE });
  const outside = tempTree({ 'recipe.md': RECIPE.replace('getJson', 'outsideJson') }, 'as-outside-');
  fifo(root, '.autosnippet/recipes/networking/pipe.md');
  await socket(root, '.autosnippet/recipes/networking/socket.md');
  link(root, '.autosnippet/recipes/networking/linked.md', path.join(outside, 'recipe.md'));
  const report = ok(await call(ws, 'rebuild_index', { force: true }), 'rebuild_index');
  assert.equal(report.added, 1);
  const named = report.problems.map((p: { file: string; message: string }) => `${p.file}: ${p.message}`).sort();
  assert.equal(named.length, 3, JSON.stringify(named));
  assert.match(named[0], /linked\.md: .*outside the workspace/);
  assert.match(named[1], /pipe\.md: .*FIFO/);
  assert.match(named[2], /socket\.md: .*socket/);
  assert.ok(!JSON.stringify(ok(await call(ws, 'list_recipes'), 'list_recipes')).includes('outsideJson'));
  await healthy(ws);
});

test('a 50 MB recipe is refused before it is read; the others are indexed', async () => {
  const { ws, root } = await open({ '.autosnippet/recipes/networking/get-json.md': RECIPE });
  writeFileSync(path.join(root, '.autosnippet/recipes/networking/huge.md'), Buffer.alloc(50 << 20, 'a'));
  const t0 = Date.now();
  const report = ok(await call(ws, 'rebuild_index'), 'rebuild_index');
  assert.ok(Date.now() - t0 < 3000, `${Date.now() - t0} ms`);
  assert.equal(report.added, 1);
  assert.match(report.problems[0].message, /huge\.md is 50 MiB; recipe files are read up to 1 MiB/);
  await healthy(ws);
});

test('guard_audit_files never reads outside the workspace, in five ways', async () => {
  const outside = tempTree({
    'secret.ts': 'const leaked = eval("outside-secret");\n',
    'dir/inner.ts': 'eval("outside-dir-secret");\n',
  });
  const { ws, root } = await open(PROJECT);
  link(root, 'src/secret-link.ts', path.join(outside, 'secret.ts'));
  link(root, 'src/dir-link', path.join(outside, 'dir'));
  // The caller's own paths may be echoed; the outside folder's location and content must not be.
  const leaks = (r: unknown) => /outside-(dir-)?secret/.test(JSON.stringify(r)) || JSON.stringify(r).includes(outside);
  for (const paths of [
    ['src/secret-link.ts'],
    ['src/dir-link'],
    ['src/dir-link/inner.ts'],
    [path.join(root, 'src', 'dir-link', 'inner.ts')],
  ]) {
    const r = await call(ws, 'guard_audit_files', { paths });
    assert.equal(r.ok, false, `${paths[0]}: ${JSON.stringify(r).slice(0, 300)}`);
    assert.equal(r.error.code, 'PATH_OUTSIDE_WORKSPACE');
    assert.ok(!leaks(r), JSON.stringify(r));
  }
  const whole = ok(await call(ws, 'guard_audit_files', { paths: ['.'] }), 'guard_audit_files .');
  assert.ok(!leaks(whole), JSON.stringify(whole).slice(0, 500));
  assert.ok(whole.violations.some((v: { path: string }) => v.path === 'src/index.ts'));
  await healthy(ws);
});

test('submit_draft_recipes refuses a draft linked from outside the workspace; nothing of it becomes a candidate', async () => {
  const outside = tempTree({ 'private.md': '---\ntitle: Private notes\nsummary: outside-secret text\n---\nbody\n' });
  const { ws, root } = await open({ 'drafts/ok.md': RECIPE });
  link(root, 'drafts/private.md', path.join(outside, 'private.md'));
  const r = ok(
    await call(ws, 'submit_draft_recipes', { files: ['drafts/ok.md', 'drafts/private.md'] }),
    'submit_draft_recipes',
  );
  assert.equal(r.created.length, 1);
  assert.equal(r.problems[0].file, 'drafts/private.md');
  assert.match(r.problems[0].message, /outside the workspace/);
  const candidates = ok(await call(ws, 'list_candidates', {}), 'list_candidates');
  assert.ok(!JSON.stringify(candidates).includes('outside-secret'));
  await healthy(ws);
});

test('one bad project rule (a 100,000-character regex, a bad id) is left out alone: built-in and other project rules run, answers stay small', async () => {
  const rules = {
    rules: [
      {
        id: 'project/huge',
        message: 'huge',
        languages: ['typescript'],
        why: 'w',
        suggestion: 's',
        regex: 'x'.repeat(100_000),
      },
      {
        id: 'Bad Id!'.repeat(20_000),
        message: 'bad',
        languages: ['typescript'],
        why: 'w',
        suggestion: 's',
        regex: 'foo',
      },
      {
        id: 'project/no-fetch-raw',
        message: 'no fetchRaw',
        languages: ['typescript'],
        why: 'w',
        suggestion: 's',
        regex: '\\bfetchRaw\\(',
      },
    ],
  };
  const { ws } = await open({ ...PROJECT, '.autosnippet/guard/rules.json': JSON.stringify(rules) });
  const listed = ok(await call(ws, 'guard_rules', {}), 'guard_rules');
  assert.equal(listed.problems.length >= 2, true, JSON.stringify(listed.problems).slice(0, 500));
  assert.ok(JSON.stringify(listed.problems).length < 3000, 'problems do not quote the pattern or the id');
  const checked = ok(
    await call(ws, 'guard_check', { code: 'eval("x");\nfetchRaw(1);\n', language: 'typescript' }),
    'guard_check',
  );
  assert.deepEqual(checked.violations.map((v: { ruleId: string }) => v.ruleId).sort(), [
    'project/no-fetch-raw',
    'ts/no-eval',
  ]);
  ok(await call(ws, 'scan_project'), 'scan_project');
  await healthy(ws);
});

test('a project rule file with 20,000 rules loads the first 1,000 with a problem saying so, and guard keeps working', async () => {
  // Compact rules, so the file stays under the 2 MiB cap and the rule count is what is capped.
  const rules = Array.from({ length: 20_000 }, (_, i) => ({
    id: `p/${i}`,
    message: 'm',
    languages: ['typescript'],
    why: 'w',
    suggestion: 's',
    regex: `foo${i}\\b`,
  }));
  const { ws } = await open({ ...PROJECT, '.autosnippet/guard/many.json': JSON.stringify({ rules }) });
  const listed = ok(await within(60_000, catalog.invoke(ws, 'guard_rules', {}, agent), 'guard_rules'), 'guard_rules');
  assert.match(JSON.stringify(listed.problems), /has 20000 rules; only the first 1000 are loaded/);
  const checked = ok(
    await call(ws, 'guard_check', { code: 'eval("x"); foo7();\n', language: 'typescript' }),
    'guard_check',
  );
  assert.deepEqual(checked.violations.map((v: { ruleId: string }) => v.ruleId).sort(), ['p/7', 'ts/no-eval']);
  await healthy(ws);
});

test('validating a skill folder whose SKILL.md is a FIFO reports it instead of blocking', async () => {
  const dir = tempTree({}, 'as-skill-');
  fifo(dir, 'SKILL.md');
  const result = await within(5000, Promise.resolve().then(() => validateSkillFolder(dir)));
  assert.equal(result.problems[0].rule, 'skill-file');
  assert.match(result.problems[0].message, /FIFO/);
});
