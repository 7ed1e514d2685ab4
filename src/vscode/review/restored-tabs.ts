// Review tabs VS Code restored from an earlier window: which folder each belongs to, and the editor
// a reopened one covered.
import * as vscode from 'vscode';
import type { ExtensionHost } from '../host';

/**
 * The folder a saved review tab belongs to: its title ends with the folder's name when several were
 * open (whatever the language), and there is one folder otherwise.
 */
export function folderOfLabel(host: ExtensionHost, label: string): vscode.WorkspaceFolder | undefined {
  const named = host.folders.filter((f) => label.endsWith(f.name)).sort((a, b) => b.name.length - a.name.length);
  return named[0] ?? host.folder;
}

/** Brings a tab that a reopened panel covered back to the front of its group, without taking the focus. */
export async function showAgain(tab: vscode.Tab, viewColumn: vscode.ViewColumn): Promise<void> {
  const input = tab.input;
  const uri = input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom
      || input instanceof vscode.TabInputNotebook
    ? input.uri
    : undefined;
  if (!uri) return;
  await vscode.commands.executeCommand('vscode.open', uri, { viewColumn, preserveFocus: true, preview: tab.isPreview })
    .then(undefined, () => undefined);
}
