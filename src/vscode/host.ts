import * as vscode from 'vscode';
import { Workspace } from '../core/workspace';
import { createCatalog, type ToolCatalog } from '../core/tools';
import type { Logger } from '../core/log';
import type { DeepPartial, Settings } from '../core/settings';

/**
 * Owns the extension's lifetime: the log, the catalog and the core Workspace of the first folder,
 * opened on first use so activation stays cheap. Every contribution receives this one object.
 */
export class ExtensionHost implements vscode.Disposable {
  readonly output: vscode.LogOutputChannel;
  /** Modal questions to the person. Integration tests replace it (only in ExtensionMode.Test): no argument skips one. */
  dialogs: Dialogs = modalDialogs;
  readonly log: Logger;
  readonly catalog: ToolCatalog;
  private opening: Promise<Workspace> | undefined;
  private opened: Workspace | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly dataChanged = new vscode.EventEmitter<void>();
  /**
   * Fires (debounced) after any process committed to the workspace's database: this extension host,
   * an MCP server started for Cursor or Claude, or the CLI. Views refresh on it.
   */
  readonly onDidChangeData = this.dataChanged.event;

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
    this.subscriptions.push(
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.opened?.updateSettings({ trusted: true })),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('autosnippet')) this.opened?.updateSettings(readSettings());
      }),
      this.dataChanged,
    );
    if (this.folder) {
      // Every commit appends to the journal and every checkpoint replaces the image.
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(this.folder, '.autosnippet/autosnippet.db{,.journal}'));
      let timer: NodeJS.Timeout | undefined;
      const changed = () => {
        clearTimeout(timer);
        timer = setTimeout(() => this.dataChanged.fire(), 250);
      };
      this.subscriptions.push(watcher, watcher.onDidChange(changed), watcher.onDidCreate(changed), new vscode.Disposable(() => clearTimeout(timer)));
    }
  }

  /** The first workspace folder, or undefined when no folder is open. */
  get folder(): vscode.WorkspaceFolder | undefined {
    return vscode.workspace.workspaceFolders?.[0];
  }

  get workspace(): Workspace | undefined {
    return this.opened;
  }

  /** Opens the core workspace once; fails with a clear message when no folder is open. */
  async getWorkspace(): Promise<Workspace> {
    if (this.opened) return this.opened;
    const folder = this.folder;
    if (!folder || folder.uri.scheme !== 'file') {
      throw new Error(vscode.l10n.t('AutoSnippet needs a folder on disk: open a folder first.'));
    }
    this.opening ??= Workspace.open(folder.uri.fsPath, {
      log: this.log,
      settings: readSettings(),
      bundledSkillsDir: vscode.Uri.joinPath(this.context.extensionUri, 'skills').fsPath,
    }).then(
      (ws) => {
        this.opened = ws;
        this.log.info(`workspace ${ws.root} opened (database ${ws.store.state.path})`);
        if (ws.store.state.recovered) {
          void vscode.window.showWarningMessage(
            vscode.l10n.t('The AutoSnippet database was damaged and was moved to {0}. A fresh one was created; recipes and rules are rebuilt from the files.', ws.store.state.recovered.movedTo),
          );
        }
        return ws;
      },
      (e) => {
        this.opening = undefined;
        this.log.error('could not open the workspace', e);
        throw e;
      },
    );
    return this.opening;
  }

  async dispose(): Promise<void> {
    this.subscriptions.forEach((d) => d.dispose());
    await this.opened?.dispose();
    this.output.dispose();
  }
}

/** The settings of a folder (resource-scoped ones such as skills.allowScripts differ per folder). */
export function readSettings(folder = vscode.workspace.workspaceFolders?.[0]): DeepPartial<Settings> {
  const c = vscode.workspace.getConfiguration('autosnippet', folder?.uri);
  return {
    skills: { allowScripts: c.get<boolean>('skills.allowScripts', false) },
    guard: {
      enabled: c.get<boolean>('guard.enabled', true),
      exclude: c.get<string[]>('guard.exclude', []),
      severityOverrides: c.get<Record<string, string>>('guard.severityOverrides', {}),
    },
    trusted: vscode.workspace.isTrusted,
  };
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
