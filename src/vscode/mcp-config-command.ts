import * as vscode from 'vscode';
import { configPath, upsertServerConfig, type McpClient } from '../mcp/client-config';
import { mcpLaunches } from './mcp-provider';
import type { ExtensionHost } from './host';

/**
 * "AutoSnippet: Write MCP configuration…": adds the bundled server to Cursor's, Claude Desktop's or
 * VS Code's own `mcp.json`, keeping everything else in the file. Workspace files are changed through
 * a WorkspaceEdit so the change can be undone; the per-user Claude file is backed up first.
 */
export function registerMcpConfigCommand(host: ExtensionHost): vscode.Disposable {
  return vscode.commands.registerCommand('autosnippet.writeMcpConfig', async (preset?: McpClient) => {
    const launch = mcpLaunches(host)[0];
    if (!launch) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Open a folder first: the MCP server serves one workspace folder.'));
      return;
    }
    const client = preset ?? (await pickClient());
    if (!client) return;
    const file = vscode.Uri.file(configPath(client, host.folder!.uri.fsPath));
    let existing: string | undefined;
    try {
      existing = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
    } catch {
      existing = undefined;
    }
    let text: string;
    try {
      text = upsertServerConfig(client, existing, { command: launch.command, args: launch.args, env: launch.env });
    } catch (e) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Could not update {0}: {1}', file.fsPath, (e as Error).message));
      return;
    }
    if (client === 'claude-desktop') {
      if (existing !== undefined) await vscode.workspace.fs.writeFile(file.with({ path: file.path + '.bak' }), new TextEncoder().encode(existing));
      await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(text));
    } else {
      const edit = new vscode.WorkspaceEdit();
      if (existing === undefined) edit.createFile(file, { ignoreIfExists: true, contents: new TextEncoder().encode(text) });
      else edit.replace(file, new vscode.Range(0, 0, Number.MAX_SAFE_INTEGER, 0), text);
      if (!(await vscode.workspace.applyEdit(edit))) {
        void vscode.window.showErrorMessage(vscode.l10n.t('Could not write {0}.', file.fsPath));
        return;
      }
      const doc = await vscode.workspace.openTextDocument(file);
      await doc.save();
    }
    host.log.info(`wrote the MCP configuration for ${client} to ${file.fsPath}`);
    const open = vscode.l10n.t('Open file');
    const choice = await vscode.window.showInformationMessage(vscode.l10n.t('AutoSnippet MCP server added to {0}.', file.fsPath), open);
    if (choice === open) await vscode.window.showTextDocument(file);
  });
}

async function pickClient(): Promise<McpClient | undefined> {
  const items: (vscode.QuickPickItem & { client: McpClient })[] = [
    { label: 'Cursor', description: '.cursor/mcp.json', client: 'cursor' },
    { label: 'Claude Desktop', description: 'claude_desktop_config.json', client: 'claude-desktop' },
    { label: 'VS Code', description: '.vscode/mcp.json', detail: vscode.l10n.t('Only needed to share the server with others: AutoSnippet already registers it in this VS Code.'), client: 'vscode' },
  ];
  return (await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Write the AutoSnippet MCP configuration for…') }))?.client;
}
