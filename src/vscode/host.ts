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
        this.reportStore(ws);
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

  /** Says what a person must know about the database once: it cannot be used, was repaired, or lost its last commit. */
  private reportStore(ws: Workspace): void {
    let state: Workspace['store']['state'];
    try {
      state = ws.store.state;
    } catch (e) {
      // Skills and guard keep working without it; knowledge tools answer with the same message.
      void vscode.window.showErrorMessage(vscode.l10n.t('AutoSnippet cannot use its database: {0}', (e as Error).message));
      return;
    }
    this.log.info(`workspace ${ws.root} opened (database ${state.path}${state.created ? '' : ', not created yet'})`);
    if (state.recovered) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('The AutoSnippet database was damaged and was moved to {0}. A fresh one was created; recipes and rules are rebuilt from the files.', state.recovered.movedTo),
      );
    }
    if (state.lostCommit) {
      void vscode.window.showWarningMessage(vscode.l10n.t('The last change to the AutoSnippet database was only partly written when its process stopped, and is lost (change {0}). Everything before it is kept.', state.lostCommit.sequence));
    }
  }

  async dispose(): Promise<void> {
    this.subscriptions.forEach((d) => d.dispose());
    await this.opened?.dispose();
    this.output.dispose();
  }
}

export function readSettings(): DeepPartial<Settings> {
  const c = vscode.workspace.getConfiguration('autosnippet');
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
