import os from 'node:os';
import path from 'node:path';
import { applyEdits, modify, parse, type ParseError } from 'jsonc-parser';

/** MCP clients whose configuration AutoSnippet can write, each in its own format. */
export type McpClient = 'vscode' | 'cursor' | 'claude-desktop';

export interface ServerLaunch {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** Where each client keeps its configuration: workspace files for VS Code and Cursor, a per-user file for Claude Desktop. */
export function configPath(client: McpClient, workspaceRoot: string, platform = process.platform, home = os.homedir(), env = process.env): string {
  switch (client) {
    case 'vscode':
      return path.join(workspaceRoot, '.vscode', 'mcp.json');
    case 'cursor':
      return path.join(workspaceRoot, '.cursor', 'mcp.json');
    case 'claude-desktop':
      if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
      if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json');
      return path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'Claude', 'claude_desktop_config.json');
  }
}

/**
 * Adds or replaces the `autosnippet` server in a client's configuration text, keeping every other
 * entry and the comments. VS Code uses `servers` with a `type`; Cursor and Claude Desktop use `mcpServers`.
 */
export function upsertServerConfig(client: McpClient, existing: string | undefined, launch: ServerLaunch, name = 'autosnippet'): string {
  const text = existing && existing.trim() ? existing : '{}';
  const errors: ParseError[] = [];
  const parsed = parse(text, errors, { allowTrailingComma: true });
  if (errors.length || typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error('the existing configuration is not a JSON object; fix or remove it first (nothing was changed)');
  }
  const key = client === 'vscode' ? 'servers' : 'mcpServers';
  const entry = client === 'vscode' ? { type: 'stdio', ...launch } : launch;
  const edits = modify(text, [key, name], entry, { formattingOptions: { insertSpaces: true, tabSize: 2 } });
  return applyEdits(text, edits);
}
