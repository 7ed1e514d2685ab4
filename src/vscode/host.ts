import * as vscode from 'vscode';
import { createCatalog, type ToolCatalog } from '../core/catalog';
import {
  prepareRecipeSearch,
  settingDefault,
  type SettingKey,
  SETTINGS,
  type Settings,
  settingsFrom,
  type SettingValue,
  type SettingValues,
  widens,
} from '../core/catalog/adapters';
import type { Logger } from '../core/ground/kernel/log';
import { Workspace } from '../core/ground/workspace';

/**
 * Owns the extension's lifetime: the log, the catalog, and one core Workspace per workspace folder,
 * each opened on first use so activation stays cheap. The folder AutoSnippet works on is the folder of
 * the active editor (else the last one used, else the first): tools, views and the review panel
 * follow it. Folders removed at run time have their Workspace disposed. Every contribution receives
 * this one object and asks it for the workspace when it needs one.
 */
export class ExtensionHost implements vscode.Disposable {
  readonly output: vscode.LogOutputChannel;
  /** Modal questions to the person. Integration tests replace it (only in ExtensionMode.Test): no argument skips one. */
  dialogs: Dialogs = modalDialogs;
  /** The Candidates view's tree, as a person sees it (labels, and the children of a group): for integration tests. */
  candidatesTree?: () => Promise<{ label: string; children?: string[] }[]>;
  /** The Recipes view's tree, each recipe as "label — description": for integration tests. */
  recipesTree?: () => Promise<{ label: string; children?: string[] }[]>;
  readonly log: Logger;
  readonly catalog: ToolCatalog;
  private readonly workspaces = new Map<string, { opening: Promise<Workspace>; opened?: Workspace }>();
  private readonly watchers = new Map<string, vscode.Disposable>();
  private lastFolder: vscode.WorkspaceFolder | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly dataChanged = new vscode.EventEmitter<void>();
  private readonly folderChanged = new vscode.EventEmitter<void>();
  private readonly workspaceOpened = new vscode.EventEmitter<Workspace>();
  /**
   * Fires (debounced) after any process committed to a folder's database: this extension host, an MCP
   * server started for Cursor or Claude, or the CLI. Views refresh on it.
   */
  readonly onDidChangeData = this.dataChanged.event;
  /** Fires when the folder AutoSnippet works on changes (another folder's file became active, folders changed). */
  readonly onDidChangeFolder = this.folderChanged.event;
  /** Fires once per folder, when its Workspace has opened (contributions that keep per-folder state start there). */
  readonly onDidOpenWorkspace = this.workspaceOpened.event;

  constructor(readonly context: vscode.ExtensionContext) {
    this.output = vscode.window.createOutputChannel('AutoSnippet', { log: true });
    const out = this.output;
    this.log = {
      debug: (m, ...a) => out.debug(m, ...a),
      info: (m, ...a) => out.info(m, ...a),
      warn: (m, ...a) => out.warn(m, ...a),
      error: (m, ...a) => out.error(m, ...a),
    };
    this.catalog = createCatalog();
    this.lastFolder = this.folderOfActiveEditor();
    this.subscriptions.push(
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.eachOpened((ws) => ws.updateSettings({ trusted: true }))),
      vscode.workspace.onDidChangeConfiguration((e) => {
        for (const f of vscode.workspace.workspaceFolders ?? []) {
          if (e.affectsConfiguration('autosnippet', f.uri)) {
            this.workspaces.get(f.uri.toString())?.opened?.updateSettings(readSettings(f));
          }
        }
      }),
      vscode.window.onDidChangeActiveTextEditor(() => {
        const folder = this.folderOfActiveEditor();
        if (folder && folder.uri.toString() !== this.lastFolder?.uri.toString()) {
          this.lastFolder = folder;
          this.folderChanged.fire();
        }
      }),
      vscode.workspace.onDidChangeWorkspaceFolders((e) => void this.foldersChanged(e)),
      this.dataChanged,
      this.folderChanged,
      this.workspaceOpened,
    );
    for (const f of vscode.workspace.workspaceFolders ?? []) this.watchJournal(f);
  }

  /** The folder AutoSnippet works on now: the active editor's, else the last one used, else the first. */
  get folder(): vscode.WorkspaceFolder | undefined {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const last = this.lastFolder && folders.find((f) => f.uri.toString() === this.lastFolder!.uri.toString());
    return this.folderOfActiveEditor() ?? last ?? folders[0];
  }

  /** Every workspace folder on disk (a Workspace each, opened on first use). */
  get folders(): readonly vscode.WorkspaceFolder[] {
    return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  }

  private folderOfActiveEditor(): vscode.WorkspaceFolder | undefined {
    const uri = vscode.window.activeTextEditor?.document.uri;
    return uri ? vscode.workspace.getWorkspaceFolder(uri) : undefined;
  }

  /** The already opened Workspace of the current folder, if any (never opens one). */
  get workspace(): Workspace | undefined {
    const f = this.folder;
    return f ? this.workspaces.get(f.uri.toString())?.opened : undefined;
  }

  /**
   * The core workspace of a folder (by default the current one; or the folder holding `target`),
   * opened once; fails with a clear message when no folder is open.
   */
  async getWorkspace(target?: vscode.Uri | vscode.WorkspaceFolder): Promise<Workspace> {
    const folder = target instanceof vscode.Uri ? vscode.workspace.getWorkspaceFolder(target) : target ?? this.folder;
    if (!folder || folder.uri.scheme !== 'file') {
      throw new Error(vscode.l10n.t('AutoSnippet needs a folder on disk: open a folder first.'));
    }
    const key = folder.uri.toString();
    const known = this.workspaces.get(key);
    if (known) return known.opening;
    const entry: { opening: Promise<Workspace>; opened?: Workspace } = {
      opening: Workspace.open(folder.uri.fsPath, {
        log: this.log,
        settings: readSettings(folder),
        bundledSkillsDir: vscode.Uri.joinPath(this.context.extensionUri, 'skills').fsPath,
      }).then(
        (ws) => {
          entry.opened = ws;
          this.reportStore(ws);
          this.workspaceOpened.fire(ws);
          // In slices in the background: the first recipe search (chat, agent tools) finds the index built.
          void prepareRecipeSearch(ws);
          return ws;
        },
        (e) => {
          this.workspaces.delete(key);
          this.log.error(`could not open the workspace ${folder.uri.fsPath}`, e);
          throw e;
        },
      ),
    };
    this.workspaces.set(key, entry);
    return entry.opening;
  }

  /** The workspace folder of an opened Workspace. */
  folderOf(ws: Workspace): vscode.WorkspaceFolder | undefined {
    return this.folders.find((f) => f.uri.fsPath === ws.root);
  }

  private eachOpened(fn: (ws: Workspace) => void): void {
    for (const e of this.workspaces.values()) if (e.opened) fn(e.opened);
  }

  /** Every commit appends to the journal and every checkpoint replaces the image. */
  private watchJournal(folder: vscode.WorkspaceFolder): void {
    if (folder.uri.scheme !== 'file' || this.watchers.has(folder.uri.toString())) return;
    const watcher = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(folder, '.autosnippet/autosnippet.db{,.journal}'),
    );
    let timer: NodeJS.Timeout | undefined;
    const changed = () => {
      clearTimeout(timer);
      timer = setTimeout(() => this.dataChanged.fire(), 250);
    };
    this.watchers.set(
      folder.uri.toString(),
      vscode.Disposable.from(
        watcher,
        watcher.onDidChange(changed),
        watcher.onDidCreate(changed),
        new vscode.Disposable(() => clearTimeout(timer)),
      ),
    );
  }

  /** Added folders are served (lazily); removed folders have their Workspace and watcher disposed. */
  private async foldersChanged(e: vscode.WorkspaceFoldersChangeEvent): Promise<void> {
    for (const f of e.added) this.watchJournal(f);
    for (const f of e.removed) {
      const key = f.uri.toString();
      this.watchers.get(key)?.dispose();
      this.watchers.delete(key);
      const entry = this.workspaces.get(key);
      this.workspaces.delete(key);
      if (entry) {
        try {
          await (await entry.opening).dispose();
          this.log.info(`workspace ${f.uri.fsPath} closed (folder removed)`);
        } catch (err) {
          this.log.warn(`closing ${f.uri.fsPath}: ${(err as Error).message}`);
        }
      }
    }
    if (this.lastFolder && e.removed.some((f) => f.uri.toString() === this.lastFolder!.uri.toString())) {
      this.lastFolder = undefined;
    }
    this.folderChanged.fire();
  }

  /** Says what a person must know about the database once: it cannot be used, was repaired, or lost its last commit. */
  private reportStore(ws: Workspace): void {
    let state: Workspace['store']['state'];
    try {
      state = ws.store.state;
    } catch (e) {
      // Skills and guard keep working without it; knowledge tools answer with the same message.
      void vscode.window.showErrorMessage(
        vscode.l10n.t('AutoSnippet cannot use its database: {0}', (e as Error).message),
      );
      return;
    }
    this.log.info(`workspace ${ws.root} opened (database ${state.path}${state.created ? '' : ', not created yet'})`);
    if (state.recovered) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'The AutoSnippet database was damaged and was moved to {0}. A fresh one was created; recipes and rules are rebuilt from the files.',
          state.recovered.movedTo,
        ),
      );
    }
    if (state.lostCommit) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'The last change to the AutoSnippet database was only partly written when its process stopped, and is lost (change {0}). Everything before it is kept.',
          state.lostCommit.sequence,
        ),
      );
    }
  }

  async dispose(): Promise<void> {
    this.subscriptions.forEach((d) => d.dispose());
    this.watchers.forEach((d) => d.dispose());
    for (const e of this.workspaces.values()) await e.opening.then((ws) => ws.dispose(), () => undefined);
    this.workspaces.clear();
    this.output.dispose();
  }
}

/** A folder's settings (resource-scoped ones such as skills.allowScripts differ per folder), through the one settings table. */
export function readSettings(
  folder: { uri: vscode.Uri } | undefined = vscode.workspace.workspaceFolders?.[0],
): Settings {
  const values: Partial<SettingValues> = {};
  for (const key of Object.keys(SETTINGS) as SettingKey[]) {
    (values as Record<string, unknown>)[key] = setting(key, folder?.uri);
  }
  const note = vscode.workspace.isTrusted
    ? undefined
    : vscode.l10n.t('the workspace is not trusted: trust it (Manage Workspace Trust) to let its own guard rules run');
  return settingsFrom(values, vscode.workspace.isTrusted, note);
}

/**
 * One setting, typed by the table (the folder's value when `scope` is given). A value that widens what
 * agents may do counts only from the person's user settings: a repository's `.vscode/settings.json`
 * may narrow, never widen (the manifest gives such settings application scope; this holds it here too).
 */
export function setting<K extends SettingKey>(key: K, scope?: vscode.ConfigurationScope): SettingValue<K> {
  const config = vscode.workspace.getConfiguration('autosnippet', scope);
  const value = config.get<SettingValue<K>>(key, settingDefault(key));
  if (!widens(key, value)) return value;
  const own = config.inspect<SettingValue<K>>(key)?.globalValue;
  return own !== undefined && widens(key, own) ? own : settingDefault(key);
}

/** What commands ask the person before a change only people may make. */
export interface Dialogs {
  /** A modal yes/no; true only when the person pressed the action button. */
  confirm(message: string, detail: string, action: string): Promise<boolean>;
}

export const modalDialogs: Dialogs = {
  async confirm(message, detail, action) {
    return (await vscode.window.showWarningMessage(message, { modal: true, detail }, action)) === action;
  },
};
