import { parse } from 'jsonc-parser';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { type ExtensionHost, setting } from './host';

export const MCP_PROVIDER_ID = 'autosnippet.mcp';

/** How VS Code starts the bundled MCP server: its own runtime in Node mode, on the first folder. */
export interface McpLaunch {
  label: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}

export function mcpLaunches(host: ExtensionHost): McpLaunch[] {
  // One server per folder: each serves its own recipes, rules and skills.
  const folders = host.folders;
  return folders.flatMap((folder) => {
    // The team shares an entry in .vscode/mcp.json: VS Code lists that one; a second would be a duplicate.
    if (sharedEntryIn(folder.uri.fsPath)) return [];
    return [{
      label: folders.length > 1 ? `AutoSnippet (${folder.name})` : 'AutoSnippet',
      command: process.execPath,
      // VS Code shows everything a server writes to stderr as a warning: only warnings and errors go there.
      // The server runs outside VS Code's trust model: it is handed the person's decisions (workspace
      // trust, their own allowScripts setting), never the repository's.
      args: [
        vscode.Uri.joinPath(host.context.extensionUri, 'dist', 'mcp.js').fsPath,
        '--workspace',
        folder.uri.fsPath,
        '--log-level',
        'warn',
        '--tools',
        setting('tools.offered', folder.uri),
        ...(vscode.workspace.isTrusted ? ['--trust'] : []),
        ...(vscode.workspace.isTrusted && setting('skills.allowScripts', folder.uri) ? ['--allow-scripts'] : []),
      ],
      env: { ELECTRON_RUN_AS_NODE: '1', AUTOSNIPPET_ACTOR: 'copilot_agent' },
    }];
  });
}

/** Puts "AutoSnippet" in VS Code's MCP server list, one per workspace folder, following folder changes. */
export function registerMcpServerProvider(host: ExtensionHost): vscode.Disposable {
  const changed = new vscode.EventEmitter<void>();
  const version = String(host.context.extension.packageJSON.version ?? '0');
  return vscode.Disposable.from(
    changed,
    vscode.workspace.onDidChangeWorkspaceFolders(() => changed.fire()),
    // Trust and settings change the server's flags: VS Code restarts a server whose definition changed.
    vscode.workspace.onDidGrantWorkspaceTrust(() => changed.fire()),
    vscode.workspace.onDidChangeConfiguration((e) =>
      (e.affectsConfiguration('autosnippet.skills.allowScripts') || e.affectsConfiguration('autosnippet.tools.offered'))
      && changed.fire()
    ),
    // Writing or removing the shared entry changes what this provider offers.
    ...(() => {
      const w = vscode.workspace.createFileSystemWatcher('**/.vscode/mcp.json');
      return [
        w,
        w.onDidCreate(() => changed.fire()),
        w.onDidChange(() => changed.fire()),
        w.onDidDelete(() => changed.fire()),
      ];
    })(),
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
    const config = parse(readFileSync(path.join(folder, '.vscode', 'mcp.json'), 'utf8')) as {
      servers?: Record<string, unknown>;
    } | undefined;
    return !!config?.servers && typeof config.servers === 'object' && 'autosnippet' in config.servers;
  } catch {
    return false;
  }
}
