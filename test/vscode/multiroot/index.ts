// Multi-root: run by test/vscode/multiroot.test.ts in a window with two folders, `alpha` (the sample
// workspace: a project guard rule against direct fetch(, the recipe @getJson, the skill add-a-user-field)
// and `beta` (its own recipe and skill, no project rule). Each folder's recipes, skills, squiggles and
// freshness are their own, the tools follow the folder of the active file, and a folder removed at run time is let go.
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { createCatalog } from '../../../src/core/catalog';
import { freshnessTracker } from '../../../src/core/domains/knowledge/freshness';
import type { Workspace } from '../../../src/core/ground/workspace';
import { runRegisteredTests, test } from '../suite/collector';
import { activateExtension, eventually, toolResultJson } from '../suite/expect';

function folder(name: string): vscode.WorkspaceFolder {
  const f = vscode.workspace.workspaceFolders?.find((x) => x.name === name);
  assert.ok(
    f,
    `the workspace has a folder ${name}: ${vscode.workspace.workspaceFolders?.map((x) => x.name).join(', ')}`,
  );
  return f;
}

async function open(name: string, rel: string): Promise<vscode.Uri> {
  const uri = vscode.Uri.file(path.join(folder(name).uri.fsPath, rel));
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
  return uri;
}

async function tool(name: string, input: Record<string, unknown> = {}): Promise<any> {
  const json = toolResultJson(
    await vscode.lm.invokeTool(`autosnippet_${name}`, { input, toolInvocationToken: undefined }),
  );
  assert.equal(json.ok, true, `${name} answered ${JSON.stringify(json).slice(0, 400)}`);
  return json.data;
}

const guardCodes = (uri: vscode.Uri) =>
  vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'AutoSnippet Guard').map((
    d,
  ) => (typeof d.code === 'object' ? String(d.code.value) : String(d.code))).sort();

test("the tools follow the folder of the active file: recipes and skills are each folder's own", async () => {
  await activateExtension();
  await open('alpha', 'src/profile.ts');
  const a = await tool('list_recipes', { status: 'any' });
  assert.deepEqual(a.recipes.map((r: { id: string }) => r.id).sort(), ['http/get-json', 'users/find-user']);
  const aSkills = JSON.stringify(await tool('list_skills', {}));
  assert.ok(
    aSkills.includes('add-a-user-field') && !aSkills.includes('beta-release-notes'),
    'alpha sees its own skill only',
  );
  assert.equal((await tool('health')).workspace.root, folder('alpha').uri.fsPath);

  await open('beta', 'src/api.ts');
  const b = await tool('list_recipes', { status: 'any' });
  assert.deepEqual(b.recipes.map((r: { id: string }) => r.id), ['beta/log-with-context']);
  const bSkills = JSON.stringify(await tool('list_skills', {}));
  assert.ok(
    bSkills.includes('beta-release-notes') && !bSkills.includes('add-a-user-field'),
    'beta sees its own skill only',
  );
  assert.equal((await tool('health')).workspace.root, folder('beta').uri.fsPath);
}, { timeoutMs: 90_000 });

test("squiggles follow each folder's own rules: alpha's project rule does not reach beta", async () => {
  await activateExtension();
  const a = await open('alpha', 'src/profile.ts');
  await eventually(
    "alpha's project rule on profile.ts",
    () => guardCodes(a).includes('project/no-direct-fetch'),
    20_000,
  );
  const b = await open('beta', 'src/api.ts');
  await eventually(
    "the built-in rule on beta's api.ts",
    () => guardCodes(b).includes('ts/no-explicit-any-cast'),
    20_000,
  );
  assert.ok(
    !guardCodes(b).includes('project/no-direct-fetch'),
    `beta has no project rule: ${guardCodes(b).join(', ')}`,
  );
});

test('the MCP server definitions: one per folder', async () => {
  const api = await activateExtension();
  const defs = api.mcpServerDefinitions();
  assert.deepEqual(defs.map((d) => d.label).sort(), ['AutoSnippet (alpha)', 'AutoSnippet (beta)']);
  for (const name of ['alpha', 'beta']) {
    assert.ok(defs.some((d) => d.args.includes(folder(name).uri.fsPath)), `a server for ${name}`);
  }
});

test(
  "freshness is per folder: beta's tracker follows beta's files while alpha is the active folder, and alpha's check does not see beta's recipe",
  async () => {
    const api = (await activateExtension()) as unknown as { getWorkspace(): Promise<Workspace> };
    await open('beta', 'src/api.ts');
    const beta = await api.getWorkspace();
    assert.equal(beta.root, folder('beta').uri.fsPath);
    // A file of its own, so the other tests' files (and their squiggles) are left alone.
    const source = path.join(beta.root, 'src/loader.ts');
    const recipeFile = path.join(beta.root, '.autosnippet/recipes/beta/load-through-api.md');
    try {
      writeFileSync(
        source,
        'export async function loadAll(): Promise<string> {\n  const res = await fetch("/api");\n  return res.text();\n}\n',
      );
      writeFileSync(
        recipeFile,
        '---\ntitle: Load through the API\nsummary: Fetch from /api.\nlanguage: typescript\nstatus: draft\nsources: ["src/loader.ts:2"]\n---\n\n```ts\nconst res = await fetch("/api");\n```\n',
      );
      const catalog = createCatalog();
      assert.ok(
        (await catalog.invoke(beta, 'rebuild_index', { force: false }, { actor: 'human', channel: 'test' })).ok,
      );
      const published = await catalog.invoke(
        beta,
        'publish_recipe',
        { id: 'beta/load-through-api' },
        { actor: 'human', channel: 'test' },
      );
      assert.ok(published.ok, JSON.stringify(published));
      const tracker = freshnessTracker(beta);
      await eventually(
        "beta's recipe checked fresh",
        () => tracker.get('beta/load-through-api')?.freshness === 'fresh',
        10_000,
      );

      await open('alpha', 'src/profile.ts');
      writeFileSync(source, readFileSync(source, 'utf8').replace('fetch("/api")', 'fetch("/api/v2")'));
      await eventually(
        "beta's watcher marks the recipe stale",
        () => tracker.get('beta/load-through-api')?.freshness === 'stale',
        5_000,
      );
      const alpha = await tool('check_recipe_freshness', {});
      assert.ok(
        !alpha.recipes.some((r: { id: string }) => r.id.startsWith('beta/')),
        `alpha's check lists alpha's recipes only: ${JSON.stringify(alpha.recipes.map((r: { id: string }) => r.id))}`,
      );
    } finally {
      rmSync(source, { force: true });
      rmSync(recipeFile, { force: true });
    }
  },
  { timeoutMs: 60_000 },
);

test('a folder removed at run time is let go: its squiggles go, the tools serve the other folder', async () => {
  await activateExtension();
  const b = await open('beta', 'src/api.ts');
  await eventually("beta's squiggles", () => guardCodes(b).length > 0, 20_000);
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const index = vscode.workspace.workspaceFolders!.findIndex((f) => f.name === 'beta');
  assert.ok(vscode.workspace.updateWorkspaceFolders(index, 1), 'VS Code accepted the removal');
  await eventually(
    'beta leaves the workspace',
    () => !vscode.workspace.workspaceFolders?.some((f) => f.name === 'beta'),
    10_000,
  );
  await eventually("beta's squiggles are gone", () => guardCodes(b).length === 0, 10_000);
  assert.equal((await tool('health')).workspace.root, folder('alpha').uri.fsPath);
  const api = await activateExtension();
  assert.deepEqual(api.mcpServerDefinitions().map((d) => d.label), ['AutoSnippet']);
});

export async function run(): Promise<void> {
  process.setSourceMapsEnabled?.(true);
  await runRegisteredTests();
}
