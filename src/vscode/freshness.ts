// Freshness in VS Code: a file watcher feeds changed files to the core's tracker (debounced, off the
// request path) and refreshes the Recipes view when a verdict changed; "Review Changes" opens a diff of
// the cited lines as recorded and as they are now (read-only virtual documents); "Accept" records the
// code as it is now after the person reviewed it.
import * as vscode from 'vscode';
import path from 'node:path';
import type { ExtensionHost } from './host';
import { freshnessTracker } from '../core/knowledge/freshness';
import { invoke } from './knowledge/catalog-calls';
import type { RecipeNode } from './knowledge/views';

export const FRESHNESS_SCHEME = 'autosnippet-freshness';
const DEBOUNCE_MS = 300;
/** Folders whose changes never concern a cited source. */
const IGNORED = /^(\.autosnippet|\.git|node_modules)(\/|$)/;

interface ChangeSide { origin: string; startLine: number; text: string }
interface SourceChange { source: string; state: string; message: string; then?: ChangeSide; now?: ChangeSide }
interface CheckAnswer { recipes: { id: string; title: string; freshness: string; reason: string }[]; changes?: SourceChange[] }

/** What "Review Changes" opened, for callers such as tests. */
export interface ReviewOpened { left: string; right: string; source: string; title: string }

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

export function registerFreshness(host: ExtensionHost): vscode.Disposable {
  const documents = new ChangeDocuments();
  const disposables: vscode.Disposable[] = [documents, vscode.workspace.registerTextDocumentContentProvider(FRESHNESS_SCHEME, documents)];
  const refreshView = () => void vscode.commands.executeCommand('autosnippet.recipes.refresh');

  const folder = host.folder;
  if (folder) {
    const pending = new Set<string>();
    let timer: NodeJS.Timeout | undefined;
    const flush = async () => {
      const ws = host.workspace;
      if (!ws) return;
      const changedFiles = [...pending];
      pending.clear();
      try {
        await freshnessTracker(ws).refresh({ changedFiles });
      } catch (e) {
        host.log.error('freshness check failed', e);
      }
    };
    const schedule = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void flush(), DEBOUNCE_MS);
    };
    const changed = (uri: vscode.Uri) => {
      const rel = path.relative(folder.uri.fsPath, uri.fsPath).split(path.sep).join('/');
      if (!rel || rel.startsWith('..') || IGNORED.test(rel)) return;
      pending.add(rel);
      schedule();
    };
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '**/*'));
    disposables.push(
      watcher, watcher.onDidChange(changed), watcher.onDidCreate(changed), watcher.onDidDelete(changed), new vscode.Disposable(() => clearTimeout(timer)),
      // A recipe indexed, edited or published (here or in another process) is checked too.
      host.onDidChangeData(schedule),
    );
    // The first check runs in the background once the workspace is open; later ones follow the watcher.
    void host.getWorkspace().then((ws) => {
      const tracker = freshnessTracker(ws);
      disposables.push(tracker.onDidChange(refreshView));
      return tracker.refresh();
    }).catch((e) => host.log.error('freshness check failed', e));
  }

  disposables.push(
    vscode.commands.registerCommand('autosnippet.recipes.reviewChanges', (node?: RecipeNode | string) => reviewChanges(host, documents, recipeIdOf(node))),
    vscode.commands.registerCommand('autosnippet.recipes.acceptFreshness', (arg?: RecipeNode | vscode.Uri | string) => acceptFreshness(host, recipeIdOf(arg), refreshView)),
    vscode.commands.registerCommand('autosnippet.recipes.checkFreshness', () => checkAll(host, refreshView)),
  );
  return vscode.Disposable.from(...disposables);
}

function recipeIdOf(arg: RecipeNode | vscode.Uri | string | undefined): string | undefined {
  if (typeof arg === 'string') return arg;
  if (arg instanceof vscode.Uri) return arg.scheme === FRESHNESS_SCHEME ? new URLSearchParams(arg.query).get('id') ?? undefined : undefined;
  if (arg?.type === 'recipe') return arg.recipe.id;
  // From the diff editor's title bar without an argument: the active diff's documents say which recipe.
  const active = vscode.window.activeTextEditor?.document.uri;
  return active?.scheme === FRESHNESS_SCHEME ? new URLSearchParams(active.query).get('id') ?? undefined : undefined;
}

async function reviewChanges(host: ExtensionHost, documents: ChangeDocuments, id: string | undefined): Promise<ReviewOpened | undefined> {
  if (!id) return undefined;
  const answer = await invoke<CheckAnswer>(host, 'check_recipe_freshness', { id, details: true });
  const recipe = answer?.recipes[0];
  if (!answer || !recipe) return undefined;
  const changes = answer.changes ?? [];
  if (changes.length === 0) {
    void vscode.window.showInformationMessage(recipe.freshness === 'fresh' ? vscode.l10n.t('"{0}" matches the code it cites.', recipe.title) : recipe.reason);
    return undefined;
  }
  let change = changes[0];
  if (changes.length > 1) {
    const picked = await vscode.window.showQuickPick(changes.map((c) => ({ label: c.source, description: c.state, detail: c.message, change: c })), { title: vscode.l10n.t('Review the changes of "{0}"', recipe.title) });
    if (!picked) return undefined;
    change = picked.change;
  }
  const nonce = Date.now().toString(36);
  const name = path.posix.basename(change.now?.origin ?? change.source.replace(/[:#].*$/, ''));
  const query = (side: string) => new URLSearchParams({ id, source: change.source, side, n: nonce }).toString();
  const left = vscode.Uri.from({ scheme: FRESHNESS_SCHEME, path: `/recorded/${name}`, query: query('recorded') });
  const right = vscode.Uri.from({ scheme: FRESHNESS_SCHEME, path: `/now/${name}`, query: query('now') });
  documents.put(left, change.then?.text ?? vscode.l10n.t('(The lines as recorded cannot be shown: the recipe holds no excerpt of them and git has no earlier version. {0})', change.message));
  documents.put(right, change.now?.text ?? vscode.l10n.t('(Nothing there now: {0})', change.message));
  const title = vscode.l10n.t('{0}: {1} (recorded ↔ now)', recipe.title, change.source);
  await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true });
  void vscode.window.showInformationMessage(change.message);
  return { left: left.toString(), right: right.toString(), source: change.source, title };
}

async function acceptFreshness(host: ExtensionHost, id: string | undefined, refreshView: () => void): Promise<unknown> {
  if (!id) return undefined;
  const r = await invoke<{ id: string; moved: { from: string; to: string }[]; recorded: string[]; freshness: string }>(host, 'accept_recipe_freshness', { id });
  if (!r) return undefined;
  refreshView();
  void vscode.window.showInformationMessage(
    r.moved.length
      ? vscode.l10n.t('{0} now points at {1}; its code is recorded as it is now.', r.id, r.moved.map((m) => m.to).join(', '))
      : vscode.l10n.t('{0}: the code it cites is recorded as it is now.', r.id),
  );
  return r;
}

async function checkAll(host: ExtensionHost, refreshView: () => void): Promise<void> {
  const r = await invoke<{ counts: Record<string, number> }>(host, 'check_recipe_freshness', {});
  if (!r) return;
  refreshView();
  const { stale = 0, moved = 0, fresh = 0, untracked = 0 } = r.counts;
  void vscode.window.showInformationMessage(vscode.l10n.t('Recipes checked against their code: {0} stale, {1} moved, {2} fresh, {3} not tracked.', stale, moved, fresh, untracked));
}
