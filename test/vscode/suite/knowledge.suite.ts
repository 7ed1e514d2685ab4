// The knowledge base inside VS Code: "Create Recipe from Selection" and approving a candidate the way
// the Candidates view's inline button does. Each test removes the recipe files it made, so the other
// suites (and the UI checks that run after the suite on the same workspace) see the fixture as it was.
//
// "Create Recipe from Selection" takes an argument that replaces its input boxes ({ title, category });
// the approval's modal is answered by stubbing the extension's dialogs (api.testing, present only when
// VS Code runs these tests against the extension under development): no argument can skip it.
// Candidates are submitted through the catalog as an agent (vscode.lm.invokeTool of a `propose` tool
// without a chat request's toolInvocationToken makes VS Code show a modal confirmation first).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { createCatalog } from '../../../src/core/catalog';
import type { AutoSnippetApi } from '../../../src/vscode/extension';
import { log, test } from './collector';
import { activateExtension, eventually, toolResultJson, workspaceRoot } from './expect';

/** A read tool through vscode.lm, as an agent calls it; fails unless it answered ok. */
async function lmTool(name: string, input: Record<string, unknown>): Promise<any> {
  const json = toolResultJson(
    await vscode.lm.invokeTool(`autosnippet_${name}`, { input, toolInvocationToken: undefined }),
  );
  assert.equal(json.ok, true, `${name} answered ${JSON.stringify(json).slice(0, 500)}`);
  return json.data;
}

/** The recipe files (workspace-relative) in `.autosnippet/recipes/<category>/`. */
function recipeFiles(category: string): string[] {
  const dir = path.join(workspaceRoot(), '.autosnippet', 'recipes', category);
  return existsSync(dir)
    ? readdirSync(dir).filter((f) => f.endsWith('.md')).map((f) => `.autosnippet/recipes/${category}/${f}`)
    : [];
}

/** Removes a category folder of recipe files and waits until the index has forgotten them. */
async function removeCategory(category: string): Promise<void> {
  rmSync(path.join(workspaceRoot(), '.autosnippet', 'recipes', category), { recursive: true, force: true });
  await eventually(
    `the recipes of ${category} leave the index`,
    async () => (await lmTool('list_recipes', { status: 'any', category })).total === 0,
    10_000,
  );
}

/** The code inside the body's first fenced block. */
function fencedCode(markdown: string): string | undefined {
  return markdown.match(/^(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n\1[ \t]*$/m)?.[2];
}

test(
  '"Create Recipe from Selection" writes a draft recipe file with the selected code, and it is indexed',
  async () => {
    await activateExtension();
    const category = 'vscode-suite-selection';
    const title = 'Build greetings with greet (suite)';
    const source = vscode.Uri.file(path.join(workspaceRoot(), 'src', 'greeting.ts'));
    try {
      const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(source));
      // Select the function greet, from `export function greet` to its closing brace.
      const text = editor.document.getText();
      const start = text.indexOf('export function greet');
      const end = text.indexOf('\n}', start) + 2;
      assert.ok(start >= 0 && end > start, 'src/greeting.ts of the fixture has the function greet');
      editor.selection = new vscode.Selection(editor.document.positionAt(start), editor.document.positionAt(end));
      const selected = editor.document.getText(editor.selection);

      const created = await vscode.commands.executeCommand<{ id: string; file: string } | undefined>(
        'autosnippet.recipes.createFromSelection',
        { title, category },
      );

      // On disk: one draft under .autosnippet/recipes/<category>/, the selection in a fenced block.
      const [file] = await eventually(`a recipe file under .autosnippet/recipes/${category}/`, () => {
        const f = recipeFiles(category);
        return f.length ? f : undefined;
      }, 10_000);
      assert.deepEqual(recipeFiles(category), [file], 'exactly one file was written');
      assert.equal(created?.file, file, 'the command answers the file it wrote');
      const markdown = readFileSync(path.join(workspaceRoot(), file), 'utf8');
      assert.match(markdown, /^---\n[\s\S]*?\n---\n/, `the file starts with YAML frontmatter:\n${markdown}`);
      assert.match(
        markdown,
        new RegExp(`^title: ["']?${title.replace(/[()]/g, '\\$&')}["']?$`, 'm'),
        `frontmatter title:\n${markdown}`,
      );
      assert.match(markdown, /^status: ["']?draft["']?$/m, `a draft:\n${markdown}`);
      assert.match(markdown, /^language: ["']?typescript["']?$/m, `the editor's language:\n${markdown}`);
      assert.equal(
        fencedCode(markdown.replace(/^---\n[\s\S]*?\n---\n/, '')),
        selected,
        `the selection in a fenced block:\n${markdown}`,
      );

      // Indexed: list_recipes and get_recipe through vscode.lm see it, with the code and the source line.
      const id = file.replace(/^\.autosnippet\/recipes\//, '').replace(/\.md$/, '');
      const listed = await eventually('the draft in list_recipes', async () => {
        const data = await lmTool('list_recipes', { status: 'any', category });
        return data.recipes.find((r: { id: string }) => r.id === id);
      }, 10_000);
      assert.equal(listed.title, title);
      assert.equal(listed.status, 'draft');
      const recipe = await lmTool('get_recipe', { id });
      assert.equal(recipe.code, selected, 'get_recipe answers the selected code');
      assert.equal(recipe.file, file);
      assert.ok(
        (recipe.sourceFiles as string[]).includes(`src/greeting.ts:${editor.selection.start.line + 1}`),
        `sourceFiles: ${JSON.stringify(recipe.sourceFiles)}`,
      );
      // The new file is opened for the person to finish it.
      await eventually(
        'the draft opens in an editor',
        () => vscode.window.activeTextEditor?.document.uri.fsPath === path.join(workspaceRoot(), file),
        5_000,
      );
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await removeCategory(category);
    }
  },
  { timeoutMs: 40_000 },
);

test(
  'approving a candidate as the Candidates view does writes its draft recipe file, and it is no longer pending',
  async () => {
    const api = (await activateExtension()) as unknown as AutoSnippetApi;
    if (!api.testing) {
      log(
        '    (skipped: an installed extension runs in production mode, where its approval modal cannot be answered by a test)',
      );
      return;
    }
    const asked: string[] = [];
    let answer = false;
    api.testing.stubDialogs({ confirm: async (message) => (asked.push(message), answer) });
    const ws = await api.getWorkspace();
    const category = 'vscode-suite-approve';
    const title = 'Fetch JSON through getJson with a timeout (suite)';
    // Quoted from the line it cites: a candidate's code must be found in the files it cites.
    const code = 'export async function getJson<T>(url: string, timeoutMs = 5000): Promise<T> {';
    try {
      // An agent proposes it (the catalog as actor copilot_agent: what the language-model tool runs).
      const submitted = await createCatalog().invoke(
        ws,
        'submit_candidate',
        {
          title,
          code,
          language: 'typescript',
          category,
          knowledgeType: 'code-pattern',
          summary: 'Call getJson instead of fetch so every request has a timeout.',
          reasoning: {
            whyStandard: 'src/http.ts wraps fetch with an AbortController timeout.',
            sources: ['src/http.ts:2'],
            confidence: 0.8,
          },
        },
        { actor: 'copilot_agent', channel: 'test' },
      );
      assert.ok(submitted.ok, JSON.stringify(submitted).slice(0, 500));
      const { id, status } = submitted.data as { id: string; status: string };
      assert.equal(status, 'created', `the candidate is new: ${JSON.stringify(submitted.data)}`);

      // The view's tree node, built from what the view itself lists (list_candidates).
      const pending = await lmTool('list_candidates', { status: 'pending', limit: 1000 });
      const entry = pending.candidates.find((c: { id: string }) => c.id === id);
      assert.ok(entry, `${id} is listed as pending`);
      const node = { type: 'candidate', candidate: entry };
      // The view shows it at the top level, where what waits for review is.
      await eventually(
        'the candidate at the top of the Candidates view',
        async () => (await api.testing!.candidatesTree()).some((n) => n.label === title),
        10_000,
      );

      // Another extension cannot skip the person's confirmation: `{ confirmed: true }` still asks, and "no" approves nothing.
      const refused = await vscode.commands.executeCommand('autosnippet.candidates.approve', node, { confirmed: true });
      assert.deepEqual(asked, [`Approve "${title}"?`], 'the modal was shown');
      assert.equal(refused, undefined, "without the person's yes nothing is approved");
      assert.ok(
        (await lmTool('list_candidates', { status: 'pending', limit: 1000 })).candidates.some((c: { id: string }) =>
          c.id === id
        ),
        `${id} is still pending`,
      );

      answer = true;
      const approved = await vscode.commands.executeCommand<
        { status?: string; recipe?: { id: string; file: string } } | undefined
      >('autosnippet.candidates.approve', node);
      assert.equal(asked.length, 2, 'the person was asked again');
      assert.equal(approved?.status, 'approved', `the command answers the approval: ${JSON.stringify(approved)}`);

      // The draft recipe file is on disk, under the candidate's category, with its code.
      const [file] = await eventually(`a recipe file under .autosnippet/recipes/${category}/`, () => {
        const f = recipeFiles(category);
        return f.length ? f : undefined;
      }, 10_000);
      assert.equal(approved?.recipe?.file, file);
      const markdown = readFileSync(path.join(workspaceRoot(), file), 'utf8');
      assert.match(markdown, /^status: ["']?draft["']?$/m, markdown);
      assert.equal(
        fencedCode(markdown.replace(/^---\n[\s\S]*?\n---\n/, '')),
        code,
        `the candidate's code in a fenced block:\n${markdown}`,
      );

      // The candidate is decided: not pending any more, approved by the person, linked to its recipe.
      const stillPending = await lmTool('list_candidates', { status: 'pending', limit: 1000 });
      assert.ok(!stillPending.candidates.some((c: { id: string }) => c.id === id), `${id} is still pending`);
      const candidate = await lmTool('get_candidate', { id });
      assert.equal(candidate.status, 'approved');
      assert.equal(candidate.decidedBy, 'human', 'the command approves as the person');
      assert.equal(candidate.recipeId, approved?.recipe?.id);
      const listed = await lmTool('list_recipes', { status: 'any', category });
      assert.deepEqual(listed.recipes.map((r: { id: string }) => r.id), [approved?.recipe?.id], 'the draft is indexed');

      // The view moves it into the collapsed group of decided candidates: the top level keeps what waits for review.
      const tree = await eventually('the candidate under "Decided" in the Candidates view', async () => {
        const t = await api.testing!.candidatesTree();
        return t.some((n) => n.children?.includes(title)) ? t : undefined;
      }, 10_000);
      assert.ok(!tree.some((n) => n.label === title), `not at the top level any more: ${JSON.stringify(tree)}`);
      assert.match(tree[tree.length - 1].label, /^Decided \(\d+\)$/, 'the group comes last');

      // A decided candidate cannot be approved twice: the command refuses and writes nothing.
      const again = await vscode.commands.executeCommand('autosnippet.candidates.approve', node);
      assert.equal(again, undefined, 'a second approval is refused');
      assert.equal(recipeFiles(category).length, 1, 'no second file');
    } finally {
      api.testing.stubDialogs(undefined);
      await removeCategory(category);
    }
  },
  { timeoutMs: 40_000 },
);

test('typing a trigger offers only recipes that have code, and accepting one inserts that code', async () => {
  await activateExtension();
  const category = 'vscode-suite-triggers';
  const dir = path.join(workspaceRoot(), '.autosnippet', 'recipes', category);
  const doc = await vscode.workspace.openTextDocument({ language: 'typescript', content: '@suite-\n' });
  try {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'with-code.md'),
      '---\ntitle: Greet with greet (suite)\ntrigger: "@suite-greet"\nlanguage: typescript\nsummary: Build greetings with greet.\n---\n\n```ts\nconst message = greet(name);\n```\n',
    );
    // What the cold start used to write: a "code" block that is a list of places. It is not code.
    writeFileSync(
      path.join(dir, 'listing.md'),
      '---\ntitle: Weak captures (suite)\ntrigger: "@suite-listing"\nlanguage: typescript\nknowledgeType: code-pattern\nsummary: A listing of places.\n---\n\n```ts\nsrc/greeting.ts:3  export function greet(name: string) {\nsrc/greeting.ts:7  return greet(other);\n```\n',
    );
    await eventually(
      'both recipes are indexed',
      async () => (await lmTool('list_recipes', { status: 'any', category })).total === 2,
      10_000,
    );

    const editor = await vscode.window.showTextDocument(doc);
    const end = new vscode.Position(0, '@suite-'.length);
    const labels = async () => {
      const list = await vscode.commands.executeCommand<vscode.CompletionList>(
        'vscode.executeCompletionItemProvider',
        doc.uri,
        end,
        '@',
      );
      return list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label)).filter((l) =>
        l.startsWith('@suite-')
      );
    };
    await eventually('the recipe with code is offered', async () => (await labels()).includes('@suite-greet'), 15_000);
    assert.deepEqual(
      await labels(),
      ['@suite-greet'],
      'the recipe whose code block is a listing of places is not offered',
    );

    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      doc.uri,
      end,
      '@',
    );
    const item = list.items.find((i) => (typeof i.label === 'string' ? i.label : i.label.label) === '@suite-greet')!;
    await editor.edit((e) => e.replace(new vscode.Range(new vscode.Position(0, 0), end), ''));
    await vscode.commands.executeCommand(item.command!.command, ...(item.command!.arguments ?? []));
    await eventually(
      'the code is inserted',
      async () => doc.getText().includes('const message = greet(name);'),
      10_000,
    );
    log('typed @suite-, accepted @suite-greet: the code was inserted; @suite-listing was never offered');
  } finally {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await removeCategory(category);
  }
});
