import * as vscode from 'vscode';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'jsonc-parser';
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
  // The team shares an entry in .vscode/mcp.json: VS Code lists that one; a second would be a duplicate.
  if (sharedEntryIn(folder.uri.fsPath)) return [];
  return [
    {
      label: 'AutoSnippet',
      command: process.execPath,
      // VS Code shows everything a server writes to stderr as a warning: only warnings and errors go there.
      args: [vscode.Uri.joinPath(host.context.extensionUri, 'dist', 'mcp.js').fsPath, '--workspace', folder.uri.fsPath, '--log-level', 'warn'],
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
    // Writing or removing the shared entry changes what this provider offers.
    ...(vscode.workspace.workspaceFolders ?? []).map((f) => {
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(f, '.vscode/mcp.json'));
      w.onDidCreate(() => changed.fire());
      w.onDidChange(() => changed.fire());
      w.onDidDelete(() => changed.fire());
      return w;
    }),
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, {
      onDidChangeMcpServerDefinitions: changed.event,
      provideMcpServerDefinitions: () =>
        mcpLaunches(host).map((l) => new vscode.McpStdioServerDefinition(l.label, l.command, l.args, l.env, version)),
    }),
  );
}

/** Whether the folder's `.vscode/mcp.json` already has an `autosnippet` server (read only). */
export function sharedEntryIn(folder: string): boolean {
  try {
    const config = parse(readFileSync(path.join(folder, '.vscode', 'mcp.json'), 'utf8')) as { servers?: Record<string, unknown> } | undefined;
    return !!config?.servers && typeof config.servers === 'object' && 'autosnippet' in config.servers;
  } catch {
    return false;
  }
}
