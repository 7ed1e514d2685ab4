import * as vscode from 'vscode';
import { configFileProblem, configPath, type McpClient, upsertServerConfig } from '../mcp/client-config';
import type { ExtensionHost } from './host';
import { serverLaunch, writeLauncher } from './mcp-launcher';

/**
 * "AutoSnippet: Connect an MCP Client…": adds the server to Cursor's or Claude Desktop's configuration
 * (or VS Code's `.vscode/mcp.json`, to share it), keeping everything else in the file. The entry
 * travels: the workspace is `${workspaceFolder}` where the client expands it, and the command is a
 * launcher at a fixed place that finds the installed extension, so updates need no new entry.
 * Workspace files change through a WorkspaceEdit (undoable); the per-user Claude file is backed up.
 */
export function registerMcpConfigCommand(host: ExtensionHost): vscode.Disposable {
  return vscode.commands.registerCommand('autosnippet.writeMcpConfig', async (preset?: McpClient) => {
    const folder = host.folder;
    if (!folder || folder.uri.scheme !== 'file') {
      void vscode.window.showErrorMessage(
        vscode.l10n.t('Open a folder first: the MCP server serves one workspace folder.'),
      );
      return;
    }
    const client = preset ?? (await pickClient());
    if (!client) return;
    const file = vscode.Uri.file(configPath(client, folder.uri.fsPath));
    const refused = configFileProblem(client, folder.uri.fsPath);
    if (refused) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Could not update {0}: {1}', file.fsPath, refused));
      return;
    }
    const launcher = writeLauncher(host.context.extensionPath);
    const launch = serverLaunch(client, folder.uri.fsPath, launcher);
    let existing: string | undefined;
    try {
      existing = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
    } catch {
      existing = undefined;
    }
    let text: string;
    try {
      text = upsertServerConfig(client, existing, launch);
    } catch (e) {
      void vscode.window.showErrorMessage(
        vscode.l10n.t('Could not update {0}: {1}', file.fsPath, (e as Error).message),
      );
      return;
    }
    if (client === 'claude-desktop') {
      if (existing !== undefined) {
        await vscode.workspace.fs.writeFile(
          file.with({ path: file.path + '.bak' }),
          new TextEncoder().encode(existing),
        );
      }
      await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(text));
    } else {
      const edit = new vscode.WorkspaceEdit();
      if (existing === undefined) {
        edit.createFile(file, { ignoreIfExists: true, contents: new TextEncoder().encode(text) });
      } else edit.replace(file, new vscode.Range(0, 0, Number.MAX_SAFE_INTEGER, 0), text);
      if (!(await vscode.workspace.applyEdit(edit))) {
        void vscode.window.showErrorMessage(vscode.l10n.t('Could not write {0}.', file.fsPath));
        return;
      }
      const doc = await vscode.workspace.openTextDocument(file);
      await doc.save();
    }
    host.log.info(`wrote the MCP configuration for ${client} to ${file.fsPath} (launcher ${launcher})`);
    const open = vscode.l10n.t('Open file');
    const machine = client === 'claude-desktop'
      ? vscode.l10n.t(
        'Claude Desktop takes no variables: the entry names this folder and {0} on this machine.',
        launcher,
      )
      : vscode.l10n.t(
        'The entry uses ${workspaceFolder} and ${userHome}/.autosnippet/mcp-server.js, so it works on any machine where AutoSnippet is installed and Node.js is on the PATH.',
      );
    const choice = await vscode.window.showInformationMessage(
      vscode.l10n.t('AutoSnippet MCP server added to {0}. {1}', file.fsPath, machine),
      open,
    );
    if (choice === open) await vscode.window.showTextDocument(file);
  });
}

async function pickClient(): Promise<McpClient | undefined> {
  const items: (vscode.QuickPickItem & { client: McpClient })[] = [
    {
      label: 'Cursor',
      description: '.cursor/mcp.json',
      detail: vscode.l10n.t('In this folder, with ${workspaceFolder}: commit it to share it.'),
      client: 'cursor',
    },
    {
      label: 'Claude Desktop',
      description: 'claude_desktop_config.json',
      detail: vscode.l10n.t("Your per-user file (backed up first), with this folder's path."),
      client: 'claude-desktop',
    },
    {
      label: vscode.l10n.t('VS Code, shared with the team'),
      description: '.vscode/mcp.json',
      detail: vscode.l10n.t(
        'Not needed for you: AutoSnippet already serves VS Code. Once the file has the entry, AutoSnippet stops offering its own, so the server is listed once.',
      ),
      client: 'vscode',
    },
  ];
  return (await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Connect an MCP client to AutoSnippet') }))
    ?.client;
}
