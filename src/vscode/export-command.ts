// "Export Recipes to Agent Instruction Files…": the published recipes into AGENTS.md, Copilot, Claude
// Code or Cursor files. The core plans the files (a dry run); VS Code applies them as one workspace
// edit, so the person can undo it. With `autosnippet.export.onPublish` set, a change to the published
// recipes re-exports to those targets on its own (the person opted in).
import * as vscode from 'vscode';
import type { ExtensionHost } from './host';
import { invoke, invokeAll } from './knowledge/catalog-calls';

type Target = 'agents' | 'copilot' | 'claude' | 'cursor';
interface PlannedFile { path: string; action: 'create' | 'update' | 'unchanged' | 'skipped'; text?: string; listed: number; omitted: number; note?: string }

const LAST_TARGETS = 'autosnippet.export.lastTargets';

const TARGET_ITEMS: { id: Target; label: string; detail: string }[] = [
  { id: 'agents', label: 'AGENTS.md', detail: 'Read by Codex, Copilot, Cursor and most coding agents' },
  { id: 'copilot', label: 'GitHub Copilot', detail: '.github/copilot-instructions.md and .github/instructions/autosnippet-<language>.instructions.md' },
  { id: 'claude', label: 'Claude Code', detail: 'CLAUDE.md and .claude/rules/autosnippet-<language>.md' },
  { id: 'cursor', label: 'Cursor', detail: '.cursor/rules/autosnippet.mdc and autosnippet-<language>.mdc' },
];

export function registerExport(host: ExtensionHost): vscode.Disposable {
  let published: string | undefined;
  const onDataChanged = async () => {
    const targets = vscode.workspace.getConfiguration('autosnippet').get<Target[]>('export.onPublish', []);
    if (!host.workspace) return;
    const now = await publishedSignature(host).catch(() => undefined);
    if (now === undefined) return;
    const before = published;
    published = now;
    if (before === undefined || before === now || targets.length === 0) return;
    const r = await invoke<{ written: string[] }>(host, 'export_recipes', { to: targets });
    if (r?.written.length) vscode.window.setStatusBarMessage(vscode.l10n.t('AutoSnippet: recipes exported to {0}', r.written.join(', ')), 5000);
  };
  void host.getWorkspace().then(() => onDataChanged(), () => undefined);
  return vscode.Disposable.from(
    vscode.commands.registerCommand('autosnippet.exportRecipes', (args?: { to?: Target[] }) => exportRecipes(host, args)),
    host.onDidChangeData(() => void onDataChanged()),
  );
}

/** What the published recipes say, in one string: a re-export is due when it changes. */
async function publishedSignature(host: ExtensionHost): Promise<string> {
  const recipes = await invokeAll<{ id: string; title: string; trigger: string; summary: string; kind: string; language: string; file: string }>(host, 'list_recipes', { status: 'published' }, 'recipes');
  return JSON.stringify(recipes.map((r) => [r.id, r.title, r.trigger, r.summary, r.kind, r.language, r.file]));
}

/** Asks for the targets (unless given), plans the export and applies it as one undoable edit. */
async function exportRecipes(host: ExtensionHost, args?: { to?: Target[] }): Promise<{ written: string[] } | undefined> {
  const folder = host.folder;
  if (!folder) return undefined;
  let targets = args?.to;
  if (!targets?.length) {
    const last = host.context.workspaceState.get<Target[]>(LAST_TARGETS, ['agents']);
    const picked = await vscode.window.showQuickPick(TARGET_ITEMS.map((t) => ({ ...t, picked: last.includes(t.id) })), {
      title: vscode.l10n.t('Export the published recipes to'),
      placeHolder: vscode.l10n.t('Only the AutoSnippet block of each file is written; your own text around it is kept.'),
      canPickMany: true,
      ignoreFocusOut: true,
    });
    if (!picked?.length) return undefined;
    targets = picked.map((p) => p.id);
    await host.context.workspaceState.update(LAST_TARGETS, targets);
  }
  let files: PlannedFile[];
  try {
    files = await invokeAll<PlannedFile>(host, 'export_recipes', { to: targets, dryRun: true }, 'files');
  } catch (e) {
    void vscode.window.showErrorMessage((e as Error).message);
    return undefined;
  }
  const changes = files.filter((f) => (f.action === 'create' || f.action === 'update') && f.text !== undefined);
  for (const f of files.filter((x) => x.action === 'skipped' && x.note)) host.log.warn(`export: ${f.note}`);
  if (changes.length === 0) {
    void vscode.window.showInformationMessage(files.length ? vscode.l10n.t('The instruction files are up to date.') : vscode.l10n.t('There are no published recipes to export yet.'));
    return { written: [] };
  }
  const edit = new vscode.WorkspaceEdit();
  const updated: vscode.TextDocument[] = [];
  for (const f of changes) {
    const uri = vscode.Uri.joinPath(folder.uri, f.path);
    if (f.action === 'create') edit.createFile(uri, { contents: Buffer.from(f.text!, 'utf8') });
    else {
      const doc = await vscode.workspace.openTextDocument(uri);
      edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), f.text!);
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
        ? vscode.l10n.t('Recipes exported to {0}; {1} did not fit the size budgets and are left out (each file says so).', written.join(', '), omitted)
        : vscode.l10n.t('Recipes exported to {0}.', written.join(', ')),
      open,
    )
    .then(async (picked) => {
      if (picked === open) await vscode.window.showTextDocument(vscode.Uri.joinPath(folder.uri, written[0]));
    });
  return { written };
}
