import path from 'node:path';
import * as vscode from 'vscode';
import { confirmUsageTool, getRecipeTool, listRecipesTool, rebuildIndexTool } from '../../core/catalog/knowledge';
import { createRecipeTool } from '../../core/catalog/knowledge-review';
import {
  approveCandidateTool,
  deleteRecipeTool,
  deprecateRecipeTool,
  promoteCandidateTool,
  publishRecipeTool,
  rejectCandidateTool,
  reopenCandidateTool,
} from '../../core/catalog/knowledge-review';
import { searchRecipesTool } from '../../core/catalog/search';
import type { ExtensionHost } from '../host';
import { plainText, statusLabel } from '../labels';
import { CandidateFileSystem } from './candidate-editor';
import { invoke, invokeAll, showError } from './catalog-calls';
import { recipeCode } from './trigger-completion';
import { type CandidateNode, type RecipeEntry, type RecipeNode, recipeUri, shownInView } from './views';

type Refresh = () => void;

function recipeOf(node: RecipeNode | undefined): RecipeEntry | undefined {
  return node?.type === 'recipe' ? node.recipe : undefined;
}

/**
 * The recipe a command acts on: the tree node it was run on, the recipe file in the active editor,
 * or (from the palette) one the person picks among those `fits` allows.
 */
async function recipeFor(
  host: ExtensionHost,
  node: RecipeNode | undefined,
  placeHolder: string,
  fits: (r: RecipeEntry) => boolean = () => true,
): Promise<RecipeEntry | undefined> {
  const fromNode = recipeOf(node);
  if (fromNode) return fromNode;
  let recipes: RecipeEntry[];
  try {
    recipes = await invokeAll(host, listRecipesTool, { status: 'any' }, 'recipes');
  } catch (e) {
    void vscode.window.showErrorMessage((e as Error).message);
    return undefined;
  }
  const active = vscode.window.activeTextEditor?.document.uri;
  const inEditor = active && recipes.find((r) => recipeUri(host, r.file)?.fsPath === active.fsPath);
  if (inEditor && fits(inEditor)) return inEditor;
  const choices = recipes.filter(fits);
  if (!choices.length) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No recipe fits this command yet.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    choices.map((r) => ({
      label: plainText(r.title),
      description: `${r.trigger} · ${statusLabel(r.status)}`,
      detail: plainText(r.summary),
      recipe: r,
    })),
    { placeHolder, matchOnDescription: true, matchOnDetail: true },
  );
  return picked?.recipe;
}

function candidateOf(node: CandidateNode | undefined) {
  return node?.type === 'candidate' ? node.candidate : undefined;
}

function confirmApproval(host: ExtensionHost, c: { title: string; category: string }): Promise<boolean> {
  return host.dialogs.confirm(
    vscode.l10n.t('Approve "{0}"?', plainText(c.title)),
    vscode.l10n.t(
      'It becomes a draft recipe file under .autosnippet/recipes/{0}/ that you can edit, then publish.',
      c.category,
    ),
    vscode.l10n.t('Approve'),
  );
}

/** A notification after a one-click approval; its Undo puts the candidate back to pending and removes the unedited draft. */
async function offerUndo(host: ExtensionHost, id: string, title: string, file: string, refresh: Refresh) {
  const undo = vscode.l10n.t('Undo');
  const picked = await vscode.window.showInformationMessage(
    vscode.l10n.t('Approved "{0}": draft recipe {1}.', title, file),
    undo,
  );
  if (picked !== undo) return;
  await invoke(host, reopenCandidateTool, { id });
  refresh();
}

/** The commands of the Recipes and Candidates views, the palette and the editor. */
export function registerKnowledgeCommands(host: ExtensionHost, refresh: Refresh): vscode.Disposable {
  const reg = vscode.commands.registerCommand;
  return vscode.Disposable.from(
    reg('autosnippet.recipes.refresh', refresh),
    reg('autosnippet.candidates.refresh', refresh),
    reg('autosnippet.recipes.sync', () => syncWithProgress(host, refresh, true)),
    reg('autosnippet.recipes.open', async (node?: RecipeNode) => {
      const r = await recipeFor(host, node, vscode.l10n.t('Recipe to open'));
      const uri = r && recipeUri(host, r.file);
      if (uri) await vscode.window.showTextDocument(uri, { preview: true });
    }),
    reg('autosnippet.recipes.preview', async (node?: RecipeNode) => {
      const r = await recipeFor(host, node, vscode.l10n.t('Recipe to preview'));
      const uri = r && recipeUri(host, r.file);
      if (uri) await vscode.commands.executeCommand('markdown.showPreviewToSide', uri);
    }),
    // Publishing is what reaches agents: it asks once, like approving.
    reg('autosnippet.recipes.publish', async (node?: RecipeNode) => {
      const r = await recipeFor(host, node, vscode.l10n.t('Draft recipe to publish'), (x) => x.status === 'draft');
      if (!r) return;
      if (
        !(await host.dialogs.confirm(
          vscode.l10n.t('Publish "{0}"?', r.title),
          vscode.l10n.t('Agents, search and completions use it from now on. You can deprecate it later.'),
          vscode.l10n.t('Publish'),
        ))
      ) return;
      const done = await invoke(host, publishRecipeTool, { id: r.id });
      refresh();
      if (done) vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Published "{0}"', r.title), 5000);
    }),
    reg('autosnippet.recipes.deprecate', async (node?: RecipeNode) => {
      const r = await recipeFor(
        host,
        node,
        vscode.l10n.t('Published recipe to deprecate'),
        (x) => x.status === 'published',
      );
      if (!r) return;
      const reason = await vscode.window.showInputBox({
        title: vscode.l10n.t('Deprecate "{0}"', r.title),
        prompt: vscode.l10n.t('Why is it deprecated? Name its replacement if there is one.'),
        validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('A reason is required.')),
        ignoreFocusOut: true,
      });
      if (!reason) return;
      await invoke(host, deprecateRecipeTool, { id: r.id, reason });
      refresh();
    }),
    reg('autosnippet.recipes.delete', async (node?: RecipeNode) => {
      const r = await recipeFor(host, node, vscode.l10n.t('Recipe to delete'));
      if (!r) return;
      if (
        !(await host.dialogs.confirm(
          vscode.l10n.t('Delete the recipe "{0}"?', r.title),
          vscode.l10n.t('Its file {0} is deleted, with its usage counts. Git keeps the history.', r.file),
          vscode.l10n.t('Delete'),
        ))
      ) return;
      await invoke(host, deleteRecipeTool, { id: r.id, confirm: true });
      refresh();
    }),
    // From the view's own button the click is the person's decision: approval only makes an editable
    // draft, and the notification offers Undo. Any other caller (the palette, another extension) gets
    // a modal: only the person at the keyboard may approve.
    reg('autosnippet.candidates.approve', async (node?: CandidateNode) => {
      const c = candidateOf(node);
      if (!c) return undefined;
      const clicked = shownInView(node);
      if (!clicked && !(await confirmApproval(host, c))) return undefined;
      const r = await invoke(host, approveCandidateTool, { id: c.id });
      refresh();
      if (r?.recipe && clicked) void offerUndo(host, c.id, plainText(c.title), r.recipe.file, refresh);
      // From the palette the Recipes view shows the new draft; a toast would only repeat it.
      else if (r?.recipe) {
        vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Approved: draft recipe {0}', r.recipe.file), 5000);
      }
      return r;
    }),
    reg('autosnippet.candidates.reject', async (node?: CandidateNode) => {
      const c = candidateOf(node);
      if (!c) return;
      const reason = await vscode.window.showInputBox({
        title: vscode.l10n.t('Reject "{0}"', plainText(c.title)),
        prompt: vscode.l10n.t('Why? Agents read the reason and do not propose it again.'),
        validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('A reason is required.')),
        ignoreFocusOut: true,
      });
      // Typing the reason and pressing Enter is the confirmation; Escape cancels.
      if (!reason) return;
      await invoke(host, rejectCandidateTool, { id: c.id, reason });
      refresh();
    }),
    reg('autosnippet.candidates.promote', async (node?: CandidateNode) => {
      const c = candidateOf(node);
      if (!c) return;
      const r = await invoke(host, promoteCandidateTool, { id: c.id });
      refresh();
      const uri = r && recipeUri(host, r.file);
      if (uri) await vscode.window.showTextDocument(uri);
    }),
    reg('autosnippet.candidates.edit', async (node?: CandidateNode) => {
      const c = candidateOf(node);
      if (c) await vscode.window.showTextDocument(CandidateFileSystem.uri(c.id), { preview: true });
    }),
    // From the editor's context menu the first argument is the document's URI: only a plain
    // `{ title, category }` object (scripted callers, tests) skips the prompts.
    reg('autosnippet.recipes.createFromSelection', (args?: unknown) => createFromSelection(host, selectionArgs(args))),
    reg('autosnippet.recipes.search', () => searchRecipes(host)),
    reg('autosnippet.recipes.insertCode', async (id: string) => {
      const editor = vscode.window.activeTextEditor;
      const recipe = await recipeCode(host, id);
      if (!editor || !recipe?.code) return;
      await editor.insertSnippet(new vscode.SnippetString().appendText(recipe.code));
      const ws = await host.getWorkspace();
      await host.catalog.call(
        ws,
        confirmUsageTool,
        { id, event: 'application' },
        { actor: 'human', channel: 'vscode' },
      );
    }),
  );
}

export async function syncWithProgress(host: ExtensionHost, refresh: Refresh, verbose: boolean): Promise<void> {
  await vscode.window.withProgress({
    location: { viewId: 'autosnippet.recipes' },
    title: vscode.l10n.t('Indexing recipes'),
  }, async () => {
    const report = await invoke(host, rebuildIndexTool, { force: verbose });
    refresh();
    if (!report) return;
    for (const p of report.problems) host.log.warn(`${p.file}${p.field ? ` (${p.field})` : ''}: ${p.message}`);
    if (report.problems.length) {
      const show = vscode.l10n.t('Show Problems');
      const picked = await vscode.window.showWarningMessage(
        vscode.l10n.t('{0} recipe files could not be read: {1}', report.problems.length, report.problems[0].message),
        show,
      );
      if (picked === show) host.output.show();
    } else if (verbose) {
      vscode.window.setStatusBarMessage(
        vscode.l10n.t(
          'Recipes indexed: {0} added, {1} updated, {2} removed.',
          report.added,
          report.updated,
          report.removed.length,
        ),
        5000,
      );
    }
  });
}

/** Arguments of "Create Recipe from Selection" that replace its prompts. */
export interface CreateFromSelectionArgs {
  title?: string;
  category?: string;
}

function selectionArgs(args: unknown): CreateFromSelectionArgs {
  if (!args || typeof args !== 'object' || Array.isArray(args) || args instanceof vscode.Uri) return {};
  const { title, category } = args as Record<string, unknown>;
  return {
    ...(typeof title === 'string' && title.trim().length >= 3 ? { title } : {}),
    ...(typeof category === 'string' && category.trim() ? { category } : {}),
  };
}

/** Writes the selection as a draft recipe; answers its id and file, or undefined when nothing was created. */
async function createFromSelection(
  host: ExtensionHost,
  args: CreateFromSelectionArgs = {},
): Promise<{ id: string; file: string } | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.selection.isEmpty) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Select the code the recipe should show first.'));
    return undefined;
  }
  const ws = await host.getWorkspace();
  const code = editor.document.getText(editor.selection);
  const title = args.title ?? await vscode.window.showInputBox({
    title: vscode.l10n.t('Create Recipe from Selection'),
    prompt: vscode.l10n.t('Title: what the practice is, e.g. "Wrap HTTP calls in withRetry"'),
    validateInput: (v) => (v.trim().length >= 3 ? undefined : vscode.l10n.t('Give it a title of a few words.')),
    ignoreFocusOut: true,
  });
  if (!title) return undefined;
  const category = args.category ?? await pickCategory(host, title);
  if (!category) return undefined;

  const rel = path.relative(ws.root, editor.document.uri.fsPath).split(path.sep).join('/');
  const source = editor.document.uri.scheme === 'file' && !rel.startsWith('..')
    ? [`${rel}:${editor.selection.start.line + 1}`]
    : [];
  // A write like any other: through the catalog and the Gateway, as the person (Delete Recipe removes it again).
  const result = await host.catalog.call(
    ws,
    createRecipeTool,
    { title: title.trim(), category: category.trim(), code, language: editor.document.languageId, sourceFiles: source },
    { actor: 'human', channel: 'vscode' },
  );
  if (!result.ok) {
    showError(host, result.error.hint ? `${result.error.message} ${result.error.hint}` : result.error.message);
    return undefined;
  }
  const draft = result.data;
  await vscode.window.showTextDocument(vscode.Uri.file(path.join(ws.root, draft.file)));
  vscode.window.setStatusBarMessage(
    vscode.l10n.t('Draft recipe {0} created: add a summary and why, then publish it from the Recipes view.', draft.id),
    8000,
  );
  return { id: draft.id, file: draft.file };
}

async function pickCategory(host: ExtensionHost, title: string): Promise<string | undefined> {
  const categories = [
    ...new Set(
      (await invokeAll(host, listRecipesTool, { status: 'any' }, 'recipes').catch(() => [])).map((r) => r.category),
    ),
  ].sort();
  const newCategory = vscode.l10n.t('New category…');
  const picked = categories.length
    ? await vscode.window.showQuickPick([...categories, newCategory], {
      title: vscode.l10n.t('Category of "{0}"', title),
      ignoreFocusOut: true,
    })
    : newCategory;
  if (picked !== newCategory) return picked;
  return vscode.window.showInputBox({
    title: vscode.l10n.t('New category'),
    prompt: vscode.l10n.t('e.g. networking, ui, errors'),
    validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('A category is required.')),
    ignoreFocusOut: true,
  });
}

interface SearchItem extends vscode.QuickPickItem {
  id: string;
  file?: string;
}

async function searchRecipes(host: ExtensionHost): Promise<void> {
  const insert: vscode.QuickInputButton = {
    iconPath: new vscode.ThemeIcon('insert'),
    tooltip: vscode.l10n.t('Insert the code at the cursor'),
  };
  const pick = vscode.window.createQuickPick<SearchItem>();
  pick.title = vscode.l10n.t('Search Recipes');
  pick.placeholder = vscode.l10n.t('Describe what you need: words or identifiers');
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  const editor = vscode.window.activeTextEditor;
  let timer: NodeJS.Timeout | undefined;
  let seq = 0;
  const run = async (query: string) => {
    const mine = ++seq;
    if (!query.trim()) {
      pick.items = [];
      return;
    }
    pick.busy = true;
    const ws = await host.getWorkspace();
    const r = await host.catalog.call(
      ws,
      searchRecipesTool,
      { query, limit: 20 },
      { actor: 'human', channel: 'vscode' },
    );
    if (mine !== seq) return;
    pick.busy = false;
    if (!r.ok) {
      pick.items = [{ id: '', label: r.error.message }];
      return;
    }
    const groups = r.data.groups;
    pick.items = groups.flatMap((g) => [
      { id: '', label: g.kind, kind: vscode.QuickPickItemKind.Separator },
      ...g.results.map((x) => ({
        id: x.id,
        label: plainText(x.title),
        description: x.status === 'published' ? x.trigger : `${x.trigger} · ${x.status}`,
        detail: plainText(x.summary),
        alwaysShow: true,
        buttons: editor ? [insert] : [],
      })),
    ]);
  };
  pick.onDidChangeValue((v) => {
    clearTimeout(timer);
    timer = setTimeout(() => void run(v), 150);
  });
  pick.onDidTriggerItemButton(async (e) => {
    pick.hide();
    const recipe = await recipeCode(host, e.item.id);
    if (editor && recipe?.code) {
      await editor.insertSnippet(new vscode.SnippetString().appendText(recipe.code));
      const ws = await host.getWorkspace();
      await host.catalog.call(
        ws,
        confirmUsageTool,
        { id: e.item.id, event: 'application' },
        { actor: 'human', channel: 'vscode' },
      );
    }
  });
  pick.onDidAccept(async () => {
    const item = pick.selectedItems[0];
    pick.hide();
    if (!item?.id) return;
    const recipe = await invoke(host, getRecipeTool, { id: item.id });
    const uri = recipe && recipeUri(host, recipe.file);
    if (uri) await vscode.window.showTextDocument(uri, { preview: true });
  });
  pick.onDidHide(() => {
    clearTimeout(timer);
    pick.dispose();
  });
  pick.show();
}
