// "Export Recipes to Agent Instruction Files…": the published recipes into AGENTS.md, Copilot, Claude
// Code or Cursor files. The core plans the files (a dry run); VS Code applies them as one workspace
// edit, so the person can undo it. With `autosnippet.export.onPublish` set, a change to the published
// recipes re-exports to those targets on its own (the person opted in).
import { existsSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { exportRecipesTool, type ExportTarget as Target } from '../core/catalog/export';
import { listRecipesTool } from '../core/catalog/knowledge';
import { DATA_DIR, type Workspace } from '../core/ground/workspace';
import type { ExtensionHost } from './host';
import { setting } from './host';
import { invoke, invokeAll } from './knowledge/catalog-calls';

const LAST_TARGETS = 'autosnippet.export.lastTargets';

function targetItems(): { id: Target; label: string; detail: string }[] {
  return [
    {
      id: 'agents',
      label: 'AGENTS.md',
      detail: vscode.l10n.t('Read by Codex, Copilot, Cursor and most coding agents'),
    },
    {
      id: 'copilot',
      label: 'GitHub Copilot',
      detail: vscode.l10n.t(
        '{0} and {1}',
        '.github/copilot-instructions.md',
        '.github/instructions/autosnippet-<language>.instructions.md',
      ),
    },
    {
      id: 'claude',
      label: 'Claude Code',
      detail: vscode.l10n.t('{0} and {1}', 'CLAUDE.md', '.claude/rules/autosnippet-<language>.md'),
    },
    {
      id: 'cursor',
      label: 'Cursor',
      detail: vscode.l10n.t('{0} and {1}', '.cursor/rules/autosnippet.mdc', 'autosnippet-<language>.mdc'),
    },
  ];
}

/**
 * The export command, and the opt-in re-export: each folder whose `autosnippet.export.onPublish`
 * names targets re-exports when its published recipes change (a folder is followed once its
 * Workspace opens, and let go when it is removed).
 */
export function registerExport(host: ExtensionHost): vscode.Disposable {
  /** What each folder's published recipes said last time, by folder root. */
  const published = new Map<string, string>();
  const reexport = async (ws: Workspace) => {
    const folder = host.folderOf(ws);
    if (!folder) return;
    const now = await publishedSignature(host, folder).catch(() => undefined);
    if (now === undefined) return;
    const before = published.get(ws.root);
    published.set(ws.root, now);
    const targets = setting('export.onPublish', folder.uri);
    if (before === undefined || before === now || targets.length === 0) return;
    const r = await invoke(host, exportRecipesTool, { to: targets }, folder);
    if (r?.written.length) {
      vscode.window.setStatusBarMessage(
        vscode.l10n.t('AutoSnippet: recipes exported to {0}', r.written.join(', ')),
        5000,
      );
    }
  };
  const opened = new Map<string, Workspace>();
  const start = (ws: Workspace) => {
    opened.set(ws.root, ws);
    void reexport(ws);
  };
  const foldersChanged = () => {
    const roots = new Set(host.folders.map((f) => f.uri.fsPath));
    for (const root of opened.keys()) {
      if (!roots.has(root)) {
        opened.delete(root);
        published.delete(root);
      }
    }
  };
  if (host.workspace) start(host.workspace);
  return vscode.Disposable.from(
    vscode.commands.registerCommand(
      'autosnippet.exportRecipes',
      (args?: { to?: Target[] }) => exportRecipes(host, args),
    ),
    host.onDidOpenWorkspace(start),
    host.onDidChangeFolder(foldersChanged),
    host.onDidChangeData(() => opened.forEach((ws) => void reexport(ws))),
  );
}

/** What the published recipes say, in one string: a re-export is due when it changes. */
async function publishedSignature(host: ExtensionHost, folder: vscode.WorkspaceFolder): Promise<string> {
  const recipes = await invokeAll(host, listRecipesTool, { status: 'published' }, 'recipes', folder);
  return JSON.stringify(recipes.map((r) => [r.id, r.title, r.trigger, r.summary, r.kind, r.language, r.file]));
}

/** Asks for the targets (unless given), plans the export and applies it as one undoable edit. */
async function exportRecipes(
  host: ExtensionHost,
  args?: { to?: Target[] },
): Promise<{ written: string[] } | undefined> {
  const folder = host.folder;
  if (!folder) return undefined;
  // Recipes live in .autosnippet/: without it there is nothing to export, and even a dry run (a write
  // tool, audited) would create the folder.
  if (!existsSync(path.join(folder.uri.fsPath, DATA_DIR))) {
    void vscode.window.showInformationMessage(vscode.l10n.t('There are no published recipes to export yet.'));
    return { written: [] };
  }
  let targets = args?.to;
  if (!targets?.length) {
    const last = host.context.workspaceState.get<Target[]>(LAST_TARGETS, ['agents']);
    const picked = await vscode.window.showQuickPick(
      targetItems().map((t) => ({ ...t, picked: last.includes(t.id) })),
      {
        title: vscode.l10n.t('Export the published recipes to'),
        placeHolder: vscode.l10n.t(
          'Only the AutoSnippet block of each file is written; your own text around it is kept.',
        ),
        canPickMany: true,
        ignoreFocusOut: true,
      },
    );
    if (!picked?.length) return undefined;
    targets = picked.map((p) => p.id);
    await host.context.workspaceState.update(LAST_TARGETS, targets);
  }
  let files: Awaited<ReturnType<typeof planFiles>>;
  try {
    files = await planFiles(host, targets, folder);
  } catch (e) {
    void vscode.window.showErrorMessage((e as Error).message);
    return undefined;
  }
  const changes = files.filter((f) => (f.action === 'create' || f.action === 'update') && f.text !== undefined);
  for (const f of files.filter((x) => (x.action === 'skipped' || x.action === 'refused') && x.note)) {
    host.log.warn(`export: ${f.note}`);
  }
  const refused = files.filter((f) => f.action === 'refused');
  if (refused.length) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t(
        'Not exported to {0}: {1}',
        refused.map((f) => f.path).join(', '),
        refused.map((f) => f.note).join(' '),
      ),
    );
  }
  if (changes.length === 0) {
    if (refused.length) return { written: [] };
    void vscode.window.showInformationMessage(
      files.length
        ? vscode.l10n.t('The instruction files are up to date.')
        : vscode.l10n.t('There are no published recipes to export yet.'),
    );
    return { written: [] };
  }
  const edit = new vscode.WorkspaceEdit();
  const updated: vscode.TextDocument[] = [];
  for (const f of changes) {
    const uri = vscode.Uri.joinPath(folder.uri, f.path);
    if (f.action === 'create') edit.createFile(uri, { contents: Buffer.from(f.text!, 'utf8') });
    else {
      const doc = await vscode.workspace.openTextDocument(uri);
      // A document's text leaves out the file's BOM, which VS Code writes back on save.
      edit.replace(
        uri,
        new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)),
        f.text!.replace(/^\uFEFF/, ''),
      );
      updated.push(doc);
    }
  }
  if (!(await vscode.workspace.applyEdit(edit, { isRefactoring: false }))) {
    void vscode.window.showErrorMessage(vscode.l10n.t('The instruction files could not be written.'));
    return undefined;
  }
  await Promise.all(updated.map((d) => d.save()));
  const omitted = files.reduce((n, f) => n + f.omitted, 0);
  const written = changes.map((f) => f.path);
  const open = vscode.l10n.t('Open {0}', written[0]);
  void vscode.window
    .showInformationMessage(
      omitted
        ? vscode.l10n.t(
          'Recipes exported to {0}; {1} did not fit the size budgets and are left out (each file says so).',
          written.join(', '),
          omitted,
        )
        : vscode.l10n.t('Recipes exported to {0}.', written.join(', ')),
      open,
    )
    .then(async (picked) => {
      if (picked === open) await vscode.window.showTextDocument(vscode.Uri.joinPath(folder.uri, written[0]));
    });
  return { written };
}

/** Every file the export would write, with its new text (a dry run: nothing is written). */
function planFiles(host: ExtensionHost, targets: Target[], folder: vscode.WorkspaceFolder) {
  return invokeAll(host, exportRecipesTool, { to: targets, dryRun: true }, 'files', folder);
}
