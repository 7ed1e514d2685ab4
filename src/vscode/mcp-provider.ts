import * as vscode from 'vscode';
import type { ExtensionHost } from './host';

export const MCP_PROVIDER_ID = 'autosnippet.mcp';

/** How VS Code starts the bundled MCP server: its own runtime in Node mode, on the first folder. */
export interface McpLaunch {
  label: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}

export function mcpLaunches(host: ExtensionHost): McpLaunch[] {
  const folder = host.folder;
  if (!folder || folder.uri.scheme !== 'file') return [];
  return [
    {
      label: 'AutoSnippet',
      command: process.execPath,
      args: [vscode.Uri.joinPath(host.context.extensionUri, 'dist', 'mcp.js').fsPath, '--workspace', folder.uri.fsPath],
      env: { ELECTRON_RUN_AS_NODE: '1', AUTOSNIPPET_ACTOR: 'copilot_agent' },
    },
  ];
}

/** Puts "AutoSnippet" in VS Code's MCP server list, following the open folder. */
export function registerMcpServerProvider(host: ExtensionHost): vscode.Disposable {
  const changed = new vscode.EventEmitter<void>();
  const version = String(host.context.extension.packageJSON.version ?? '0');
  return vscode.Disposable.from(
    changed,
    vscode.workspace.onDidChangeWorkspaceFolders(() => changed.fire()),
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, {
      onDidChangeMcpServerDefinitions: changed.event,
      provideMcpServerDefinitions: () =>
        mcpLaunches(host).map((l) => new vscode.McpStdioServerDefinition(l.label, l.command, l.args, l.env, version)),
    }),
  );
}
