import * as vscode from 'vscode';
import { rebuildIndexTool } from '../../core/catalog/knowledge';
import type { ExtensionHost } from '../host';
import { CANDIDATE_SCHEME, CandidateFileSystem } from './candidate-editor';
import { registerKnowledgeCommands } from './commands';
import { registerPackCommands } from './packs';
import { RecipeDiagnostics } from './recipe-diagnostics';
import { registerRemember } from './remember';
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
  host.candidatesTree = () => candidates.labels();
  host.recipesTree = () => recipes.labels();
  const completion = new TriggerCompletion(host);
  const diagnostics = new RecipeDiagnostics(host);
  const refresh = () => {
    recipes.refresh();
    candidates.refresh();
    completion.invalidate();
  };

  const timers = new Map<string, NodeJS.Timeout>();
  const scheduleSync = (folder: vscode.WorkspaceFolder) => {
    const key = folder.uri.toString();
    clearTimeout(timers.get(key));
    timers.set(
      key,
      setTimeout(async () => {
        timers.delete(key);
        try {
          // The files changed on disk (an edit, a git pull): bring the index in line, through the catalog like every write.
          const ws = await host.getWorkspace(folder);
          const result = await host.catalog.call(
            ws,
            rebuildIndexTool,
            { force: false },
            { actor: 'human', channel: 'vscode' },
          );
          if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
          const report = result.data;
          for (const p of report.problems) host.log.warn(`${p.file}${p.field ? ` (${p.field})` : ''}: ${p.message}`);
          // Problems are the full list every time (the index keeps them); warnings come only for re-read files.
          await diagnostics.show(ws.root, report.problems, []);
          if (report.added + report.updated + report.removed.length + report.renamed.length) refresh();
        } catch (e) {
          host.log.error('recipe sync failed', e);
        }
      }, SYNC_DEBOUNCE_MS),
    );
  };

  const disposables: vscode.Disposable[] = [
    vscode.window.createTreeView('autosnippet.recipes', { treeDataProvider: recipes, showCollapseAll: true }),
    vscode.window.createTreeView('autosnippet.candidates', { treeDataProvider: candidates }),
    vscode.workspace.registerFileSystemProvider(CANDIDATE_SCHEME, new CandidateFileSystem(host, refresh), {
      isCaseSensitive: true,
    }),
    registerKnowledgeCommands(host, refresh),
    registerRemember(host),
    registerPackCommands(host, refresh),
    diagnostics,
    vscode.languages.registerCodeActionsProvider({ language: 'markdown' }, diagnostics, {
      providedCodeActionKinds: RecipeDiagnostics.kinds,
    }),
    vscode.workspace.onDidOpenTextDocument((d) => void diagnostics.showCandidate(d).catch(() => undefined)),
    vscode.workspace.onDidSaveTextDocument((d) => void diagnostics.showCandidate(d).catch(() => undefined)),
    vscode.languages.registerCompletionItemProvider([{ scheme: 'file' }, { scheme: 'untitled' }], completion, '@'),
    new vscode.Disposable(() => timers.forEach((t) => clearTimeout(t))),
    // Candidates proposed by agents (here or in an MCP server process) show up without a manual refresh.
    host.onDidChangeData(refresh),
    // The views show the folder of the active editor.
    host.onDidChangeFolder(refresh),
  ];
  // Each folder's recipe files are watched; a removed folder's watcher and problems go with it.
  const watchers = new Map<string, vscode.Disposable>();
  const watchFolders = () => {
    const current = new Set(host.folders.map((f) => f.uri.toString()));
    for (const [key, w] of watchers) {
      if (current.has(key)) continue;
      w.dispose();
      watchers.delete(key);
      void diagnostics.show(vscode.Uri.parse(key).fsPath, [], []);
    }
    for (const folder of host.folders) {
      if (watchers.has(folder.uri.toString())) continue;
      const watcher = vscode.workspace.createFileSystemWatcher(
        new vscode.RelativePattern(folder, '.autosnippet/recipes/**/*.md'),
      );
      const sync = () => scheduleSync(folder);
      watchers.set(
        folder.uri.toString(),
        vscode.Disposable.from(
          watcher,
          watcher.onDidCreate(sync),
          watcher.onDidChange(sync),
          watcher.onDidDelete(sync),
        ),
      );
      // Problems of recipe files already there show up without waiting for an edit (only where recipes exist).
      void vscode.workspace.findFiles(new vscode.RelativePattern(folder, '.autosnippet/recipes/**/*.md'), undefined, 1)
        .then((found) => {
          if (found.length) scheduleSync(folder);
        });
    }
  };
  watchFolders();
  disposables.push(
    vscode.workspace.onDidChangeWorkspaceFolders(watchFolders),
    new vscode.Disposable(() => watchers.forEach((w) => w.dispose())),
  );
  return vscode.Disposable.from(...disposables);
}
