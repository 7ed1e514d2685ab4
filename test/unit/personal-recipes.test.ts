// A person's own recipes (~/.autosnippet/recipes, moved by AUTOSNIPPET_HOME) follow them into every
// workspace: listed, searched and guarded there, marked with their origin, below the project's own
// recipes and above a pack's, never exported into a repository unless a person adds that recipe, and
// never a way for a file to make rules run in a folder nobody trusted.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { cli } from './cli-helpers';
import { writeFiles } from './guard-helpers';

const home = mkdtempSync(path.join(os.tmpdir(), 'as-personal-home-'));
process.env.AUTOSNIPPET_HOME = home;
const personal = (rel: string) => path.join(home, 'recipes', ...rel.split('/'));

function recipe(title: string, extra = ''): string {
  return `---\ntitle: ${title}\nlanguage: typescript\nknowledgeType: code-standard\nstatus: published\nsummary: ${title}.\n${extra}---\n\nText.\n`;
}

function putPersonal(rel: string, text: string): void {
  mkdirSync(path.dirname(personal(rel)), { recursive: true });
  writeFileSync(personal(rel), text);
}

/** A workspace AutoSnippet has written to before (it has `.autosnippet/`). */
function workspace(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'as-personal-ws-'));
  writeFiles(dir, { '.autosnippet/.gitignore': 'state/\n', ...files });
  return dir;
}

async function json(root: string, ...args: string[]): Promise<any> {
  const r = await cli(root, ...args);
  assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}${r.stdout}`);
  return JSON.parse(r.stdout);
}

/** id → origin (`project` when the recipe carries none). */
async function origins(root: string): Promise<Record<string, string>> {
  const listed = await json(root, 'list-recipes', '--status', 'any');
  return Object.fromEntries(
    (listed.recipes as { id: string; origin?: string }[]).map((r) => [r.id, r.origin ?? 'project']),
  );
}

test('two workspaces see the same personal recipe, in lists and search, marked personal', async () => {
  putPersonal('style/early-return.md', recipe('Return early instead of nesting conditionals'));
  try {
    const a = workspace({ '.autosnippet/recipes/api/client.md': recipe('Call the API through apiClient') });
    const b = workspace();
    for (const root of [a, b]) {
      assert.equal((await origins(root))['style/early-return'], 'personal', root);
      const found = await json(root, 'keyword-search', '--query', 'return early nesting');
      const hit = found.groups.flatMap((g: { results: unknown[] }) => g.results)[0];
      assert.equal(hit.id, 'style/early-return');
      assert.equal(hit.origin, 'personal');
      const ctx = await json(root, 'context-search', '--query', 'return early instead of nesting');
      assert.equal(ctx.results[0].id, 'style/early-return');
      assert.equal(ctx.results[0].origin, 'personal');
    }
    assert.equal((await origins(a))['api/client'], 'project');
    const got = await json(b, 'get-recipe', '--id', 'style/early-return');
    assert.equal(got.origin, 'personal');

    // Edited in the person's folder: the next look in a workspace sees the new text.
    putPersonal('style/early-return.md', recipe('Return early; guard clauses first'));
    const listed = await json(b, 'list-recipes');
    assert.equal(
      listed.recipes.find((r: { id: string }) => r.id === 'style/early-return').title,
      'Return early; guard clauses first',
    );
  } finally {
    rmSync(path.join(home, 'recipes'), { recursive: true, force: true });
  }
});

test('a project recipe with the same id wins; a personal one is read-only in the workspace', async () => {
  putPersonal('api/client.md', recipe('My own way to call the API'));
  try {
    const root = workspace({
      '.autosnippet/recipes/api/client.md': recipe('The team calls the API through apiClient'),
    });
    const listed = await json(root, 'list-recipes');
    const client = listed.recipes.filter((r: { id: string }) => r.id === 'api/client');
    assert.equal(client.length, 1);
    assert.equal(client[0].title, 'The team calls the API through apiClient');
    assert.equal(client[0].origin, undefined);

    putPersonal('style/mine.md', recipe('Name booleans as questions'));
    const refused = await cli(root, 'deprecate-recipe', '--id', 'style/mine', '--reason', 'old');
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr + refused.stdout, /personal recipes and is read-only/);
    assert.ok(existsSync(personal('style/mine.md')), "the person's file is untouched");
  } finally {
    rmSync(path.join(home, 'recipes'), { recursive: true, force: true });
  }
});

test('export leaves personal recipes out until a person adds that recipe to the project', async () => {
  putPersonal('style/early-return.md', recipe('Return early instead of nesting conditionals'));
  try {
    const root = workspace({ '.autosnippet/recipes/api/client.md': recipe('Call the API through apiClient') });
    await json(root, 'export-recipes', '--to', 'agents');
    const agents = readFileSync(path.join(root, 'AGENTS.md'), 'utf8');
    assert.match(agents, /Call the API through apiClient/);
    assert.doesNotMatch(agents, /Return early/);
    assert.doesNotMatch(agents, /state\/personal/);

    const shared = await json(root, 'share-personal-recipe', '--id', 'style/early-return');
    assert.equal(shared.file, '.autosnippet/recipes/style/early-return.md');
    assert.equal((await origins(root))['style/early-return'], 'project', 'the project file now overrides it');
    await json(root, 'export-recipes', '--to', 'agents');
    const after = readFileSync(path.join(root, 'AGENTS.md'), 'utf8');
    assert.match(after, /Return early/);
    assert.match(after, /\.autosnippet\/recipes\/style\/early-return\.md/);
  } finally {
    rmSync(path.join(home, 'recipes'), { recursive: true, force: true });
  }
});

test("remember --personal writes to the person's folder, is seen in another workspace and written into none", async () => {
  try {
    const a = workspace();
    const b = workspace();
    const r = await cli(a, 'remember', 'Prefer named exports over default exports.', '--personal', '--yes');
    assert.equal(r.code, 0, r.stderr);
    const file = /Published (\S+?)\.\n/.exec(r.stdout)![1];
    assert.ok(file.startsWith(path.join(home, 'recipes', 'conventions')), file);
    assert.match(readFileSync(file, 'utf8'), /status: published/);
    assert.ok(!existsSync(path.join(a, 'AGENTS.md')), 'nothing exported');
    assert.ok(!existsSync(path.join(a, '.autosnippet/recipes')), 'nothing in the project recipes');
    const id = Object.entries(await origins(b)).find(([, o]) => o === 'personal')?.[0];
    assert.match(id ?? '', /^conventions\/prefer-named-exports/);
  } finally {
    rmSync(path.join(home, 'recipes'), { recursive: true, force: true });
  }
});

test('a hostile file cannot pass as personal, nor make rules run in a folder nobody trusted', async () => {
  // The person's recipe carries a guard, and claims a pack and an origin of its own.
  putPersonal(
    'style/no-console.md',
    recipe(
      'No console.log in committed code',
      'pack: { name: evil, version: 1.0.0 }\norigin: project\nconstraints:\n  guards:\n    - pattern: "console\\\\.log\\\\("\n      message: No console.log.\n',
    ),
  );
  try {
    // A repository that commits a file where the person's copy goes.
    const root = workspace({
      'src/a.ts': 'console.log(1);\n',
      '.autosnippet/state/personal/recipes/x/planted.md': recipe('Planted by the repository'),
    });
    const seen = await origins(root);
    assert.equal(seen['x/planted'], undefined, 'a file the repository planted is not read as personal');
    assert.ok(!existsSync(path.join(root, '.autosnippet/state/personal/recipes/x/planted.md')));
    assert.equal(seen['style/no-console'], 'personal', 'the file cannot claim another origin');

    const untrusted = await cli(root, 'guard', 'src', '--format', 'json');
    assert.match(untrusted.stderr + untrusted.stdout, /UNTRUSTED_RULES/);
    assert.doesNotMatch(untrusted.stdout, /No console\.log\./);
    const trusted = await cli(root, '--trust', 'guard', 'src', '--format', 'json');
    assert.match(trusted.stdout, /No console\.log\./);
  } finally {
    rmSync(path.join(home, 'recipes'), { recursive: true, force: true });
  }
});

test('a folder AutoSnippet never wrote to gets nothing written by reading', async () => {
  putPersonal('style/early-return.md', recipe('Return early instead of nesting conditionals'));
  try {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'as-personal-fresh-'));
    await json(dir, 'list-recipes');
    assert.ok(!existsSync(path.join(dir, '.autosnippet')));
  } finally {
    rmSync(path.join(home, 'recipes'), { recursive: true, force: true });
  }
});
