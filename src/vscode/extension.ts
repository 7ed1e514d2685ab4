// The extension's table of contents: each contribution lives in its own file and returns a Disposable.
import * as vscode from 'vscode';
import type { Workspace } from '../core/ground/workspace';
import { registerBootstrapCommand } from './bootstrap-command';
import { registerChatParticipant } from './chat/participant';
import { registerCustomToolsCommand } from './custom-tools-command';
import { registerExport } from './export-command';
import { registerFreshness } from './freshness';
import { registerGuard } from './guard';
import { type Dialogs, ExtensionHost, modalDialogs } from './host';
import { registerKnowledge } from './knowledge';
import { registerLanguageModelTools } from './lm-tools';
import { registerMcpConfigCommand } from './mcp-config-command';
import { registerHostMcpServers } from './mcp-host-servers';
import { refreshLauncher } from './mcp-launcher';
import { type McpLaunch, mcpLaunches, registerMcpServerProvider } from './mcp-provider';
import { registerOverviewView } from './overview-view';
import { registerReviewPanel } from './review/panel';
import { registerSkillsView } from './skills-view';

/** What activate() returns: used by tests and by other extensions. */
export interface AutoSnippetApi {
  mcpServerDefinitions(): McpLaunch[];
  getWorkspace(): Promise<Workspace>;
  /** Only when VS Code runs the extension's own integration tests (ExtensionMode.Test): answer its dialogs. */
  testing?: {
    stubDialogs(dialogs: Dialogs | undefined): void;
    candidatesTree(): Promise<{ label: string; children?: string[] }[]>;
    recipesTree(): Promise<{ label: string; children?: string[] }[]>;
  };
}

let host: ExtensionHost | undefined;

export function activate(context: vscode.ExtensionContext): AutoSnippetApi {
  host = new ExtensionHost(context);
  const h = host;
  context.subscriptions.push(
    registerLanguageModelTools(h),
    registerMcpServerProvider(h),
    registerMcpConfigCommand(h),
    registerHostMcpServers(h),
    registerCustomToolsCommand(h),
    registerOverviewView(h),
    registerChatParticipant(h),
    registerKnowledge(h),
    registerBootstrapCommand(h),
    registerReviewPanel(h),
    registerSkillsView(h),
    registerGuard(h),
    registerFreshness(h),
    registerExport(h),
    vscode.commands.registerCommand('autosnippet.showLog', () => h.output.show()),
    vscode.commands.registerCommand(
      'autosnippet.gettingStarted',
      () =>
        vscode.commands.executeCommand('workbench.action.openWalkthrough', `${context.extension.id}#gettingStarted`),
    ),
  );
  // Every folder is opened off the activation path (opening reads and writes nothing): guard checks
  // each folder's files against its own rules, and each folder's skills are validated.
  const openFolders = () => {
    for (const f of h.folders) void h.getWorkspace(f).catch(() => undefined);
  };
  context.subscriptions.push(vscode.workspace.onDidChangeWorkspaceFolders(openFolders));
  openFolders();
  try {
    refreshLauncher(context.extensionPath);
  } catch (e) {
    h.log.warn(`could not refresh the MCP launcher: ${(e as Error).message}`);
  }
  h.log.info(`AutoSnippet ${String(context.extension.packageJSON.version)} activated`);
  const testing = context.extensionMode === vscode.ExtensionMode.Test
    ? {
      stubDialogs: (d: Dialogs | undefined) => void (h.dialogs = d ?? modalDialogs),
      candidatesTree: async () => (await h.candidatesTree?.()) ?? [],
      recipesTree: async () => (await h.recipesTree?.()) ?? [],
    }
    : undefined;
  return {
    mcpServerDefinitions: () => mcpLaunches(h),
    getWorkspace: () => h.getWorkspace(),
    ...(testing ? { testing } : {}),
  };
}

export async function deactivate(): Promise<void> {
  await host?.dispose();
  host = undefined;
}
