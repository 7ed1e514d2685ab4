import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { McpClient, ServerLaunch } from '../mcp/client-config';

/**
 * A small launcher at a path that does not change (~/.autosnippet/mcp-server.js), for MCP
 * configurations that must outlive extension updates: it starts the server of the newest installed
 * AutoSnippet extension (VS Code, VS Code Insiders, Cursor, code-server, remote servers), or the one
 * it was written from. Written only when the person asks for a configuration, refreshed on activation.
 */
export const LAUNCHER_DIR = '.autosnippet';
export const LAUNCHER_FILE = 'mcp-server.js';

export function launcherPath(home = os.homedir()): string {
  return path.join(home, LAUNCHER_DIR, LAUNCHER_FILE);
}

export function launcherSource(extensionPath: string): string {
  return `#!/usr/bin/env node
// Written by the AutoSnippet extension: starts its MCP server. Safe to delete; "Connect an MCP Client"
// writes it again. Looks for the newest installed extension first, so an update needs no new config.
const fs = require('node:fs');
const path = require('node:path');
const os = require('node:os');
const known = ${JSON.stringify(path.join(extensionPath, 'dist', 'mcp.js'))};
const roots = ['.vscode', '.vscode-insiders', '.cursor', '.vscode-server', '.vscode-oss', '.local/share/code-server']
  .map((d) => path.join(os.homedir(), d, 'extensions'));
const version = (dir) => (/-(\\d+)\\.(\\d+)\\.(\\d+)/.exec(dir) || [0, 0, 0, 0]).slice(1).map(Number);
const newer = (a, b) => { const x = version(a), y = version(b); for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i]; return false; };
let best;
for (const root of roots) {
  let names = [];
  try { names = fs.readdirSync(root); } catch { continue; }
  for (const name of names) {
    if (!/^autosnippet\\.autosnippet-\\d/.test(name)) continue;
    const entry = path.join(root, name, 'dist', 'mcp.js');
    if (fs.existsSync(entry) && (!best || newer(name, path.basename(path.dirname(path.dirname(best)))))) best = entry;
  }
}
const entry = best || known;
if (!fs.existsSync(entry)) {
  process.stderr.write('AutoSnippet: no installed extension found; install it in VS Code, then run "AutoSnippet: Connect an MCP Client" again.\\n');
  process.exit(1);
}
require(entry);
`;
}

/** Writes (or refreshes) the launcher; answers its path. */
export function writeLauncher(extensionPath: string, home = os.homedir()): string {
  const file = launcherPath(home);
  const text = launcherSource(extensionPath);
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return file;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text, { mode: 0o755 });
  return file;
}

/** Keeps an existing launcher pointing at this extension; never creates one. */
export function refreshLauncher(extensionPath: string, home = os.homedir()): void {
  if (existsSync(launcherPath(home))) writeLauncher(extensionPath, home);
}

/** The server entry for a client: portable where the client expands variables, absolute where it does not. */
export function serverLaunch(client: McpClient, folder: string, launcher: string): ServerLaunch {
  if (client === 'claude-desktop') return { command: 'node', args: [launcher, '--workspace', folder] };
  return { command: 'node', args: ['${userHome}/.autosnippet/mcp-server.js', '--workspace', '${workspaceFolder}'] };
}
