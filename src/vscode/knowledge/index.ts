import * as vscode from 'vscode';
import type { ExtensionHost } from '../host';
import { rebuildIndexTool } from '../../core/tools/knowledge';
import { CANDIDATE_SCHEME, CandidateFileSystem } from './candidate-editor';
import { registerKnowledgeCommands } from './commands';
import { TriggerCompletion } from './trigger-completion';
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
        // The files changed on disk (an edit, a git pull): bring the index in line, through the catalog like every write.
        const result = await host.catalog.call(await host.getWorkspace(), rebuildIndexTool, { force: false }, { actor: 'human', channel: 'vscode' });
        if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
        const report = result.data;
        for (const p of report.problems) host.log.warn(`${p.file}${p.field ? ` (${p.field})` : ''}: ${p.message}`);
        if (report.added + report.updated + report.removed.length + report.renamed.length) refresh();
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
  }
  return vscode.Disposable.from(...disposables);
}
