// The extension's table of contents: each contribution lives in its own file and returns a Disposable.
import * as vscode from 'vscode';
import { ExtensionHost } from './host';
import { registerLanguageModelTools } from './lm-tools';
import { mcpLaunches, registerMcpServerProvider, type McpLaunch } from './mcp-provider';
import { registerMcpConfigCommand } from './mcp-config-command';
import { registerOverviewView } from './overview-view';
import { registerSkillsView } from './skills-view';
import { registerGuard } from './guard';
import { registerChatParticipant } from './chat/participant';
import { registerKnowledge } from './knowledge';
import { registerBootstrapCommand } from './bootstrap-command';
import { registerFreshness } from './freshness';
import { registerExport } from './export-command';
import type { Workspace } from '../core/workspace';

/** What activate() returns: used by tests and by other extensions. */
export interface AutoSnippetApi {
  mcpServerDefinitions(): McpLaunch[];
  getWorkspace(): Promise<Workspace>;
}

let host: ExtensionHost | undefined;

export function activate(context: vscode.ExtensionContext): AutoSnippetApi {
  host = new ExtensionHost(context);
  const h = host;
  context.subscriptions.push(
    registerLanguageModelTools(h),
    registerMcpServerProvider(h),
    registerMcpConfigCommand(h),
    registerOverviewView(h),
    registerChatParticipant(h),
    registerKnowledge(h),
    registerBootstrapCommand(h),
    registerFreshness(h),
    registerExport(h),
    vscode.commands.registerCommand('autosnippet.showLog', () => h.output.show()),
  );
  // Views that need the workspace's registries open it right after activation, off the activation path.
  if (h.folder) {
    void h.getWorkspace().then(
      (ws) => context.subscriptions.push(registerSkillsView(context, ws), registerGuard(context, ws)),
      (e) => h.log.error('AutoSnippet could not open the workspace', e),
    );
  }
  h.log.info(`AutoSnippet ${String(context.extension.packageJSON.version)} activated`);
  return { mcpServerDefinitions: () => mcpLaunches(h), getWorkspace: () => h.getWorkspace() };
}

export async function deactivate(): Promise<void> {
  await host?.dispose();
  host = undefined;
}
