import * as vscode from 'vscode';

/** A file's text as the editor has it (unsaved edits included), else as stored; '' when it cannot be read. */
export async function documentText(uri: vscode.Uri): Promise<string> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText();
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return '';
  }
}
