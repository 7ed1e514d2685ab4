import * as vscode from 'vscode';
import type { ExtensionHost } from '../host';
import { syncRecipes } from '../../core/knowledge/recipe-index';
import { CANDIDATE_SCHEME, CandidateFileSystem } from './candidate-editor';
import { registerKnowledgeCommands } from './commands';
import { TriggerCompletion } from './trigger-completion';
import { RecipeDiagnostics } from './recipe-diagnostics';
import { CandidatesView, RecipesView } from './views';

const SYNC_DEBOUNCE_MS = 300;

/**
 * The knowledge base in VS Code: the Recipes and Candidates views with their actions, the candidate
 * editor, "Create Recipe from Selection", "Search Recipes", trigger completion, and a watcher that
 * keeps the index in line with the recipe files (edits, renames, deletions, a `git pull`).
 */
export function registerKnowledge(host: ExtensionHost): vscode.Disposable {
  const recipes = new RecipesView(host);
  const candidates = new CandidatesView(host);
  const completion = new TriggerCompletion(host);
  const diagnostics = new RecipeDiagnostics(host);
  const refresh = () => {
    recipes.refresh();
    candidates.refresh();
    completion.invalidate();
  };

  let timer: NodeJS.Timeout | undefined;
  const scheduleSync = () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      try {
        // The watcher runs in the background: sync directly (reads and index only; no knowledge changes hands).
        const ws = await host.getWorkspace();
        const report = await syncRecipes(ws);
        for (const p of report.problems) host.log.warn(`${p.file}${p.field ? ` (${p.field})` : ''}: ${p.message}`);
        // Problems are the full list every time (the index keeps them); warnings come only for re-read files.
        await diagnostics.show(ws.root, report.problems, []);
        if (report.added.length + report.updated.length + report.removed.length + report.renamed.length) refresh();
      } catch (e) {
        host.log.error('recipe sync failed', e);
      }
    }, SYNC_DEBOUNCE_MS);
  };

  const disposables: vscode.Disposable[] = [
    vscode.window.createTreeView('autosnippet.recipes', { treeDataProvider: recipes, showCollapseAll: true }),
    vscode.window.createTreeView('autosnippet.candidates', { treeDataProvider: candidates }),
    vscode.workspace.registerFileSystemProvider(CANDIDATE_SCHEME, new CandidateFileSystem(host, refresh), { isCaseSensitive: true }),
    registerKnowledgeCommands(host, refresh),
    diagnostics,
    vscode.languages.registerCodeActionsProvider({ language: 'markdown' }, diagnostics, { providedCodeActionKinds: RecipeDiagnostics.kinds }),
    vscode.workspace.onDidOpenTextDocument((d) => void diagnostics.showCandidate(d).catch(() => undefined)),
    vscode.workspace.onDidSaveTextDocument((d) => void diagnostics.showCandidate(d).catch(() => undefined)),
    vscode.languages.registerCompletionItemProvider([{ scheme: 'file' }, { scheme: 'untitled' }], completion, '@'),
    new vscode.Disposable(() => clearTimeout(timer)),
    // Candidates proposed by agents (here or in an MCP server process) show up without a manual refresh.
    host.onDidChangeData(refresh),
  ];
  const folder = host.folder;
  if (folder) {
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '.autosnippet/recipes/**/*.md'));
    watcher.onDidCreate(scheduleSync);
    watcher.onDidChange(scheduleSync);
    watcher.onDidDelete(scheduleSync);
    disposables.push(watcher);
    // Problems of recipe files already there show up without waiting for an edit (only where recipes exist).
    void vscode.workspace.findFiles(new vscode.RelativePattern(folder, '.autosnippet/recipes/**/*.md'), undefined, 1).then((found) => {
      if (found.length) scheduleSync();
    });
  }
  return vscode.Disposable.from(...disposables);
}
