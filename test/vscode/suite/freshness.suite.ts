// Freshness and export inside VS Code: a published recipe cites src/greeting.ts; the person edits
// that code and saves; the file watcher feeds the tracker (no tool call checks on its own here), so
// the verdict turns stale on the watcher's path; "Review Changes" opens the recorded and current lines
// side by side; "Accept" records the code as it is now. Then "Export Recipes…" writes AGENTS.md and
// the Cursor rules as one undoable edit. Every file the tests touch is restored afterwards.
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { createCatalog } from '../../../src/core/catalog';
import { freshnessTracker } from '../../../src/core/domains/knowledge/freshness';
import { listRecipes } from '../../../src/core/domains/knowledge/recipes';
import type { Workspace } from '../../../src/core/ground/workspace';
import type { AutoSnippetApi } from '../../../src/vscode/extension';
import { test } from './collector';
import { activateExtension, eventually, workspaceRoot } from './expect';

const CATEGORY = 'vscode-suite-freshness';
const GREETING = 'src/greeting.ts';
const LINE = 8; // const text = `Hello, ${name.trim()}${options.punctuation ?? '!'}`;

async function workspace(): Promise<Workspace> {
  return ((await activateExtension()) as unknown as { getWorkspace(): Promise<Workspace> }).getWorkspace();
}

/** Writes a draft recipe citing src/greeting.ts, waits for the index, and publishes it as the view's action does (confirmed once). */
async function publishedRecipe(ws: Workspace): Promise<string> {
  const root = workspaceRoot();
  const lines = readFileSync(path.join(root, GREETING), 'utf8').split('\n');
  const excerpt = lines.slice(LINE - 2, LINE + 1).join('\n');
  const file = path.join(root, '.autosnippet', 'recipes', CATEGORY, 'greet.md');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(
    file,
    `---\ntitle: Greetings go through greet (suite)\nsummary: Build greetings with greet.\nlanguage: typescript\nstatus: draft\nsources: ["${GREETING}:${LINE}"]\n---\n\n\`\`\`ts\n${excerpt}\n\`\`\`\n`,
  );
  const id = `${CATEGORY}/greet`;
  // Indexed at once (the recipes watcher would, later); the view's publish action gets the entry the view lists.
  const synced = await createCatalog().invoke(
    ws,
    'rebuild_index',
    { force: false },
    { actor: 'human', channel: 'test' },
  );
  assert.ok(synced.ok, JSON.stringify(synced));
  const entry = listRecipes(ws, { status: 'any', category: CATEGORY }).find((x) => x.id === id);
  assert.ok(entry, `${id} is indexed`);
  const api = (await activateExtension()) as unknown as AutoSnippetApi;
  if (api.testing) {
    // The view's action asks once; the test answers as the person would.
    const asked: string[] = [];
    api.testing.stubDialogs({ confirm: async (message) => (asked.push(message), true) });
    try {
      await vscode.commands.executeCommand('autosnippet.recipes.publish', { type: 'recipe', recipe: entry });
    } finally {
      api.testing.stubDialogs(undefined);
    }
    assert.deepEqual(asked, ['Publish "Greetings go through greet (suite)"?']);
  } else {
    // An installed extension runs in production mode, where its modal cannot be answered: publish as the command does.
    const done = await createCatalog().invoke(ws, 'publish_recipe', { id }, { actor: 'human', channel: 'test' });
    assert.ok(done.ok, JSON.stringify(done));
  }
  assert.match(readFileSync(file, 'utf8'), /^fingerprints:/m, 'publishing recorded the fingerprints');
  return id;
}

test(
  'editing the code a published recipe cites makes it stale through the file watcher within 2 s; Review Changes shows recorded and current lines; Accept makes it fresh',
  async () => {
    const ws = await workspace();
    const root = workspaceRoot();
    const original = readFileSync(path.join(root, GREETING), 'utf8');
    try {
      const id = await publishedRecipe(ws);
      const tracker = freshnessTracker(ws);
      await eventually('the recipe checked fresh', () => tracker.get(id)?.freshness === 'fresh', 10_000);

      // The person edits the cited line and saves, in the editor.
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(root, GREETING)));
      const line = doc.lineAt(LINE - 1);
      const edit = new vscode.WorkspaceEdit();
      edit.replace(doc.uri, line.range, '  const text = `Hi ${name}${options.punctuation ?? "."}`;');
      assert.ok(await vscode.workspace.applyEdit(edit));
      const saved = Date.now();
      assert.ok(await doc.save());
      await eventually('the tracker marks the recipe stale', () => tracker.get(id)?.freshness === 'stale', 2_000);
      const elapsed = Date.now() - saved;
      assert.match(
        tracker.get(id)!.reason,
        new RegExp(`^${GREETING.replace('.', '\\.')}:${LINE}: The cited line ${LINE} changed`),
      );

      const opened = await vscode.commands.executeCommand<{ left: string; right: string; title: string } | undefined>(
        'autosnippet.recipes.reviewChanges',
        id,
      );
      assert.ok(opened, 'Review Changes opened a diff');
      const left = await vscode.workspace.openTextDocument(vscode.Uri.parse(opened.left));
      const right = await vscode.workspace.openTextDocument(vscode.Uri.parse(opened.right));
      assert.match(left.getText(), /Hello, \$\{name\.trim\(\)\}/, `recorded side:\n${left.getText()}`);
      assert.match(right.getText(), /Hi \$\{name\}/, `current side:\n${right.getText()}`);
      assert.equal(left.languageId, 'typescript');
      const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
      assert.ok(tab?.input instanceof vscode.TabInputTextDiff, `the active tab is a diff: ${tab?.label}`);
      assert.equal(tab.label, opened.title);
      assert.match(opened.title, /\(recorded ↔ now\)$/);

      // Accept from the diff editor's title bar (the command reads the recipe from the diff's documents).
      await vscode.commands.executeCommand('autosnippet.recipes.acceptFreshness', vscode.Uri.parse(opened.right));
      await eventually('the recipe fresh after Accept', () => tracker.get(id)?.freshness === 'fresh', 5_000);
      console.log(`stale ${elapsed} ms after the save`);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      writeFileSync(path.join(root, GREETING), original);
      rmSync(path.join(root, '.autosnippet', 'recipes', CATEGORY), { recursive: true, force: true });
    }
  },
  { timeoutMs: 40_000 },
);

test(
  '"Export Recipes to Agent Instruction Files" writes the block into AGENTS.md after the person\'s text, and the Cursor rules, as one edit',
  async () => {
    const ws = await workspace();
    const root = workspaceRoot();
    const agents = path.join(root, 'AGENTS.md');
    try {
      await publishedRecipe(ws);
      writeFileSync(agents, '# Working here\n\nRun npm test.\n');
      const result = await vscode.commands.executeCommand<{ written: string[] } | undefined>(
        'autosnippet.exportRecipes',
        { to: ['agents', 'cursor'] },
      );
      assert.ok(result, 'the export ran');
      assert.deepEqual([...result.written].sort(), ['.cursor/rules/autosnippet-typescript.mdc', 'AGENTS.md']);
      const text = readFileSync(agents, 'utf8');
      assert.ok(text.startsWith('# Working here\n\nRun npm test.\n\n<!-- autosnippet:begin'), text);
      assert.match(
        text,
        /Build greetings with greet\. \(\[vscode-suite-freshness\/greet\]\(\.autosnippet\/recipes\/vscode-suite-freshness\/greet\.md\)\)/,
      );
      assert.match(
        readFileSync(path.join(root, '.cursor/rules/autosnippet-typescript.mdc'), 'utf8'),
        /^globs: "\*\*\/\*\.ts,\*\*\/\*\.mts,\*\*\/\*\.cts,\*\*\/\*\.tsx"$/m,
      );
      const again = await vscode.commands.executeCommand<{ written: string[] }>('autosnippet.exportRecipes', {
        to: ['agents', 'cursor'],
      });
      assert.deepEqual(again?.written, [], 'nothing changed: nothing written');
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      rmSync(agents, { force: true });
      rmSync(path.join(root, '.cursor'), { recursive: true, force: true });
      rmSync(path.join(root, '.autosnippet', 'recipes', CATEGORY), { recursive: true, force: true });
      assert.ok(!existsSync(agents));
    }
  },
  { timeoutMs: 40_000 },
);

test(
  '"Export Recipes…" refuses a linked AGENTS.md (its target untouched) and keeps a rule file\'s BOM and CRLF line endings',
  async () => {
    const ws = await workspace();
    const root = workspaceRoot();
    const agents = path.join(root, 'AGENTS.md');
    const rules = path.join(root, '.claude/rules/autosnippet-typescript.md');
    const manifest = readFileSync(path.join(root, 'package.json'));
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    try {
      await publishedRecipe(ws);
      symlinkSync('package.json', agents);
      mkdirSync(path.dirname(rules), { recursive: true });
      writeFileSync(rules, '\uFEFF# TypeScript rules\r\n');
      const result = await vscode.commands.executeCommand<{ written: string[] } | undefined>(
        'autosnippet.exportRecipes',
        { to: ['agents', 'claude'] },
      );
      assert.ok(result, 'the export ran');
      assert.deepEqual(result.written, ['.claude/rules/autosnippet-typescript.md']);
      assert.deepEqual(readFileSync(path.join(root, 'package.json')), manifest, 'nothing written through the link');
      assert.ok(lstatSync(agents).isSymbolicLink());
      const bytes = readFileSync(rules);
      assert.deepEqual(bytes.subarray(0, 3), bom);
      assert.notDeepEqual(bytes.subarray(3, 6), bom, 'one BOM, not two');
      assert.ok(
        bytes.toString('utf8').startsWith('\uFEFF# TypeScript rules\r\n\r\n<!-- autosnippet:begin'),
        JSON.stringify(bytes.toString('utf8').slice(0, 50)),
      );
      assert.ok(!/[^\r]\n/.test(bytes.toString('utf8')), 'CRLF throughout');
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      rmSync(agents, { force: true });
      rmSync(path.join(root, '.claude'), { recursive: true, force: true });
      rmSync(path.join(root, '.autosnippet', 'recipes', CATEGORY), { recursive: true, force: true });
    }
  },
  { timeoutMs: 40_000 },
);
