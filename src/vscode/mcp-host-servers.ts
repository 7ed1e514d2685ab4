import * as vscode from 'vscode';
import { groupEditorTools, type HostServers, useHostMcpServers } from '../core/catalog/adapters';
import type { ExtensionHost } from './host';

/**
 * The MCP servers VS Code runs, offered to list_mcp_servers, get_mcp_instructions and call_mcp_tool
 * through `vscode.lm.tools` and `vscode.lm.invokeTool`: the connection VS Code already has, not a
 * second one (which would start a stdio server twice).
 */
export const vscodeServers: HostServers = {
  origin: 'vscode',
  servers: () => groupEditorTools(vscode.lm.tools),
  async call(server, tool, args, signal) {
    const found = groupEditorTools(vscode.lm.tools).find((s) => s.name === server)?.tools.find((t) => t.name === tool);
    if (!found) throw new Error(`VS Code no longer offers ${tool} of "${server}"`);
    const cancel = new vscode.CancellationTokenSource();
    signal?.addEventListener('abort', () => cancel.cancel(), { once: true });
    try {
      const result = await vscode.lm.invokeTool(
        found.fullName,
        { input: args, toolInvocationToken: undefined },
        cancel.token,
      );
      return {
        content: result.content.map((p) =>
          p instanceof vscode.LanguageModelTextPart ? { type: 'text', text: p.value } : { type: 'unknown' }
        ),
      };
    } finally {
      cancel.dispose();
    }
  },
};

export function registerHostMcpServers(host: ExtensionHost): vscode.Disposable {
  return host.onDidOpenWorkspace((ws) => useHostMcpServers(ws, vscodeServers));
}
