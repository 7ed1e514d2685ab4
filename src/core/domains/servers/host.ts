/**
 * Servers the editor already runs, reached through the editor's own tool API instead of a second
 * connection (inside VS Code: `vscode.lm.tools` and `vscode.lm.invokeTool`). The adapter supplies them;
 * the manager lists them beside the configured ones, and every call still goes through the catalog's
 * call_mcp_tool (the Gateway, the audit, the person's yes).
 */
/** A tool another MCP server offers, as its tools/list describes it. */
export interface RemoteTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean };
}

export interface HostServer {
  name: string;
  tools: RemoteTool[];
}

export interface HostServers {
  /** Where they come from, for list_mcp_servers (`vscode`). */
  origin: 'vscode';
  servers(): HostServer[];
  call(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<{ content: unknown[]; isError?: boolean }>;
}

/** A tool of the editor's list, as the editor names it (`mcp_<server>_<tool>`). */
export interface EditorTool {
  name: string;
  description?: string;
  inputSchema?: object;
}

/**
 * The editor's MCP tools grouped by server. VS Code names an MCP server's tool `mcp_<server>_<tool>`;
 * the server is read as the text up to the first `_` after the prefix (server names with `_` in them
 * are split there, and their tools keep the rest of the name). Tools not named that way are an
 * extension's own, not a server's, and are left out.
 */
export function groupEditorTools(
  tools: readonly EditorTool[],
): { name: string; tools: (RemoteTool & { fullName: string })[] }[] {
  const servers = new Map<string, (RemoteTool & { fullName: string })[]>();
  for (const t of tools) {
    const m = /^mcp_([^_]+)_(.+)$/.exec(t.name);
    if (!m) continue;
    const list = servers.get(m[1]) ?? [];
    list.push({
      name: m[2],
      fullName: t.name,
      ...(t.description ? { description: t.description } : {}),
      inputSchema: (t.inputSchema ?? { type: 'object', properties: {} }) as Record<string, unknown>,
    });
    servers.set(m[1], list);
  }
  return [...servers].map(([name, list]) => ({ name, tools: list }));
}
