// Freshness in VS Code: a file watcher feeds changed files to the core's tracker (debounced, off the
// request path) and refreshes the Recipes view when a verdict changed; "Review Changes" opens a diff of
// the cited lines as recorded and as they are now (read-only virtual documents); "Accept" records the
// code as it is now after the person reviewed it.
import path from 'node:path';
import * as vscode from 'vscode';
import { freshnessTracker } from '../core/catalog/adapters';
import { acceptRecipeFreshnessTool, checkRecipeFreshnessTool } from '../core/catalog/freshness';
import type { Workspace } from '../core/ground/workspace';
import type { ExtensionHost } from './host';
import { invoke } from './knowledge/catalog-calls';
import type { RecipeNode } from './knowledge/views';
import { sourceChangeLabel } from './labels';

export const FRESHNESS_SCHEME = 'autosnippet-freshness';
const DEBOUNCE_MS = 300;
/** Folders whose changes never concern a cited source. */
const IGNORED = /^(\.autosnippet|\.git|node_modules)(\/|$)/;

/** What "Review Changes" opened, for callers such as tests. */
export interface ReviewOpened {
  left: string;
  right: string;
  source: string;
  title: string;
}

/** The texts the diff editor shows, by URI; read-only by nature of a content provider. */
class ChangeDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  put(uri: vscode.Uri, text: string): void {
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? vscode.l10n.t('(No longer available: run "Review Changes" again.)');
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/**
 * Freshness in every workspace folder: each folder's files feed that folder's tracker (a folder is
 * served once its Workspace opens, and let go when it is removed); the commands act on the folder of
 * the active editor, or on the folder a diff's documents name.
 */
export function registerFreshness(host: ExtensionHost): vscode.Disposable {
  const documents = new ChangeDocuments();
  const refreshView = () => void vscode.commands.executeCommand('autosnippet.recipes.refresh');
  const folders = new Map<string, FolderFreshness>();
  const start = (ws: Workspace) => {
    const folder = host.folderOf(ws);
    if (!folder || folders.has(ws.root)) return;
    // The Recipes view shows the current folder: only that folder's verdicts refresh it.
    folders.set(ws.root, watchFolder(host, ws, folder, () => host.workspace === ws && refreshView()));
  };
  const foldersChanged = () => {
    const roots = new Set(host.folders.map((f) => f.uri.fsPath));
    for (const [root, f] of folders) {
      if (!roots.has(root)) {
        f.dispose();
        folders.delete(root);
      }
    }
  };
  if (host.workspace) start(host.workspace);
  return vscode.Disposable.from(
    documents,
    vscode.workspace.registerTextDocumentContentProvider(FRESHNESS_SCHEME, documents),
    host.onDidOpenWorkspace(start),
    host.onDidChangeFolder(foldersChanged),
    // A recipe indexed, edited or published (here or in another process) is checked too.
    host.onDidChangeData(() => folders.forEach((f) => f.schedule())),
    new vscode.Disposable(() => folders.forEach((f) => f.dispose())),
    vscode.commands.registerCommand(
      'autosnippet.recipes.reviewChanges',
      (arg?: RecipeNode | vscode.Uri | string) => reviewChanges(host, documents, targetOf(arg)),
    ),
    vscode.commands.registerCommand(
      'autosnippet.recipes.acceptFreshness',
      (arg?: RecipeNode | vscode.Uri | string) => acceptFreshness(host, targetOf(arg), refreshView),
    ),
    vscode.commands.registerCommand('autosnippet.recipes.checkFreshness', () => checkAll(host, refreshView)),
  );
}

interface FolderFreshness extends vscode.Disposable {
  /** A check soon (debounced), for the files changed so far. */
  schedule(): void;
}

/** One folder: a watcher feeds its changed files to the folder's tracker; the first check runs at once, in the background. */
function watchFolder(
  host: ExtensionHost,
  ws: Workspace,
  folder: vscode.WorkspaceFolder,
  verdictsChanged: () => void,
): FolderFreshness {
  const tracker = freshnessTracker(ws);
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const flush = async () => {
    const changedFiles = [...pending];
    pending.clear();
    try {
      await tracker.refresh({ changedFiles });
    } catch (e) {
      host.log.error(`freshness check of ${ws.root} failed`, e);
    }
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void flush(), DEBOUNCE_MS);
  };
  const changed = (uri: vscode.Uri) => {
    const rel = path.relative(ws.root, uri.fsPath).split(path.sep).join('/');
    if (!rel || rel.startsWith('..') || IGNORED.test(rel)) return;
    pending.add(rel);
    schedule();
  };
  const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '**/*'));
  const subscriptions = vscode.Disposable.from(
    watcher,
    watcher.onDidChange(changed),
    watcher.onDidCreate(changed),
    watcher.onDidDelete(changed),
    tracker.onDidChange(verdictsChanged),
    new vscode.Disposable(() => clearTimeout(timer)),
  );
  void tracker.refresh().catch((e) => host.log.error(`freshness check of ${ws.root} failed`, e));
  return { schedule, dispose: () => subscriptions.dispose() };
}

/** A recipe and the folder it belongs to (undefined: the current folder). */
interface RecipeTarget {
  id: string;
  folder?: vscode.Uri;
}

function targetOf(arg: RecipeNode | vscode.Uri | string | undefined): RecipeTarget | undefined {
  if (typeof arg === 'string') return { id: arg };
  if (arg instanceof vscode.Uri) return arg.scheme === FRESHNESS_SCHEME ? fromChangeDocument(arg) : undefined;
  if (arg?.type === 'recipe') return { id: arg.recipe.id };
  // From the diff editor's title bar without an argument: the active diff's documents say which recipe.
  const active = vscode.window.activeTextEditor?.document.uri;
  return active?.scheme === FRESHNESS_SCHEME ? fromChangeDocument(active) : undefined;
}

function fromChangeDocument(uri: vscode.Uri): RecipeTarget | undefined {
  const query = new URLSearchParams(uri.query);
  const id = query.get('id');
  const folder = query.get('folder');
  return id ? { id, ...(folder ? { folder: vscode.Uri.parse(folder) } : {}) } : undefined;
}

async function reviewChanges(
  host: ExtensionHost,
  documents: ChangeDocuments,
  target: RecipeTarget | undefined,
): Promise<ReviewOpened | undefined> {
  if (!target) return undefined;
  const folder = folderOf(host, target);
  if (!folder) return undefined;
  const { id } = target;
  const answer = await invoke(host, checkRecipeFreshnessTool, { id, details: true }, folder);
  const recipe = answer?.recipes[0];
  if (!answer || !recipe) return undefined;
  const changes = answer.changes ?? [];
  if (changes.length === 0) {
    void vscode.window.showInformationMessage(
      recipe.freshness === 'fresh' ? vscode.l10n.t('"{0}" matches the code it cites.', recipe.title) : recipe.reason,
    );
    return undefined;
  }
  let change = changes[0];
  if (changes.length > 1) {
    const picked = await vscode.window.showQuickPick(
      changes.map((c) => ({ label: c.source, description: sourceChangeLabel(c.state), detail: c.message, change: c })),
      { title: vscode.l10n.t('Review the changes of "{0}"', recipe.title) },
    );
    if (!picked) return undefined;
    change = picked.change;
  }
  const nonce = Date.now().toString(36);
  const name = path.posix.basename(change.now?.origin ?? change.source.replace(/[:#].*$/, ''));
  const query = (side: string) =>
    new URLSearchParams({ id, folder: folder.uri.toString(), source: change.source, side, n: nonce }).toString();
  const left = vscode.Uri.from({ scheme: FRESHNESS_SCHEME, path: `/recorded/${name}`, query: query('recorded') });
  const right = vscode.Uri.from({ scheme: FRESHNESS_SCHEME, path: `/now/${name}`, query: query('now') });
  documents.put(
    left,
    change.then?.text
      ?? vscode.l10n.t(
        '(The lines as recorded cannot be shown: the recipe holds no excerpt of them and git has no earlier version. {0})',
        change.message,
      ),
  );
  documents.put(right, change.now?.text ?? vscode.l10n.t('(Nothing there now: {0})', change.message));
  const title = vscode.l10n.t('{0}: {1} (recorded ↔ now)', recipe.title, change.source);
  await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true });
  void vscode.window.showInformationMessage(change.message);
  return { left: left.toString(), right: right.toString(), source: change.source, title };
}

async function acceptFreshness(
  host: ExtensionHost,
  target: RecipeTarget | undefined,
  refreshView: () => void,
): Promise<unknown> {
  const folder = target && folderOf(host, target);
  if (!target || !folder) return undefined;
  const r = await invoke(host, acceptRecipeFreshnessTool, { id: target.id }, folder);
  if (!r) return undefined;
  refreshView();
  vscode.window.setStatusBarMessage(
    r.moved.length
      ? vscode.l10n.t(
        '$(check) {0} now points at {1}; its code is recorded as it is now.',
        r.id,
        r.moved.map((m) => m.to).join(', '),
      )
      : vscode.l10n.t('$(check) {0}: the code it cites is recorded as it is now.', r.id),
    5000,
  );
  return r;
}

/** The folder of a recipe: the one a diff's documents name, else the folder of the active editor. */
function folderOf(host: ExtensionHost, target: RecipeTarget): vscode.WorkspaceFolder | undefined {
  return target.folder ? vscode.workspace.getWorkspaceFolder(target.folder) : host.folder;
}

async function checkAll(host: ExtensionHost, refreshView: () => void): Promise<void> {
  const r = await invoke(host, checkRecipeFreshnessTool, {});
  if (!r?.counts) return;
  refreshView();
  const { stale = 0, moved = 0, fresh = 0, untracked = 0 } = r.counts;
  void vscode.window.showInformationMessage(
    vscode.l10n.t(
      'Recipes checked against their code: {0} stale, {1} moved, {2} up to date, {3} not tracked.',
      stale,
      moved,
      fresh,
      untracked,
    ),
  );
}
