import { applyEdits, modify, parse, type ParseError, visit } from 'jsonc-parser';
import os from 'node:os';
import path from 'node:path';
import { destinationProblem } from '../core/catalog/adapters';
import { AutoSnippetError, ErrorCode } from '../core/ground/kernel/errors';

/** MCP clients whose configuration AutoSnippet can write, each in its own format. */
export type McpClient = 'vscode' | 'cursor' | 'claude-desktop';

export interface ServerLaunch {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** Where each client keeps its configuration: workspace files for VS Code and Cursor, a per-user file for Claude Desktop. */
export function configPath(
  client: McpClient,
  workspaceRoot: string,
  platform = process.platform,
  home = os.homedir(),
  env = process.env,
): string {
  switch (client) {
    case 'vscode':
      return path.join(workspaceRoot, '.vscode', 'mcp.json');
    case 'cursor':
      return path.join(workspaceRoot, '.cursor', 'mcp.json');
    case 'claude-desktop':
      if (platform === 'darwin') {
        return path.join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
      }
      if (platform === 'win32') {
        return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json');
      }
      return path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'Claude', 'claude_desktop_config.json');
  }
}

/**
 * Why a client's configuration in the workspace must not be written: it is a link, or under a folder
 * that is one, so a repository could point the write at any file. The per-user Claude Desktop file
 * is not the repository's to redirect.
 */
export function configFileProblem(client: McpClient, workspaceRoot: string): string | undefined {
  if (client === 'claude-desktop') return undefined;
  const rel = path.relative(workspaceRoot, configPath(client, workspaceRoot)).split(path.sep).join('/');
  return destinationProblem(workspaceRoot, rel, { name: 'AutoSnippet', goal: 'connect the client' })?.refusal;
}

/**
 * Adds the `autosnippet` server to a client's configuration text, or brings an existing entry up to
 * date: only the fields AutoSnippet owns (`type` for VS Code, `command`, `args`, and the `env`
 * variables the launch names) are written, so a person's `env` token, `cwd` or any other field stays,
 * and so do every other entry and the comments. VS Code uses `servers`; Cursor and Claude Desktop use
 * `mcpServers`.
 */
export function upsertServerConfig(
  client: McpClient,
  existing: string | undefined,
  launch: ServerLaunch,
  name = 'autosnippet',
): string {
  const text = existing && existing.trim() ? existing : '{}';
  const errors: ParseError[] = [];
  const parsed: unknown = parse(text, errors, { allowTrailingComma: true });
  if (errors.length || !isObject(parsed)) {
    throw new AutoSnippetError(
      ErrorCode.InvalidJson,
      'the existing configuration is not a JSON object; fix or remove it first (nothing was changed)',
      'Fix the file, or remove it to start afresh.',
    );
  }
  const key = client === 'vscode' ? 'servers' : 'mcpServers';
  refuseDuplicateKeys(text, [key, name, 'env']);
  if (parsed[key] !== undefined && !isObject(parsed[key])) {
    throw new AutoSnippetError(
      ErrorCode.InvalidJson,
      `"${key}" is not an object; fix it first (nothing was changed)`,
      `Make "${key}" an object of servers.`,
    );
  }
  let out = text;
  const set = (at: string[], value: unknown) => {
    out = applyEdits(out, modify(out, at, value, { formattingOptions: { insertSpaces: true, tabSize: 2 } }));
  };
  const current = isObject(parsed[key]) ? parsed[key][name] : undefined;
  const { env, ...owned } = client === 'vscode' ? { type: 'stdio', ...launch } : launch;
  if (!isObject(current)) {
    set([key, name], client === 'vscode' ? { type: 'stdio', ...launch } : launch);
    return out;
  }
  for (const [field, value] of Object.entries(owned)) set([key, name, field], value);
  if (env && !isObject(current.env)) set([key, name, 'env'], env);
  else for (const [variable, value] of Object.entries(env ?? {})) set([key, name, 'env', variable], value);
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Throws when an object on the way to the entry (the top level, the servers, the entry, its env) has
 * a key twice: JSON readers disagree on which copy counts, so an edit to either could be the one a
 * client ignores. Duplicates elsewhere are not on the way and are left to their owners.
 */
function refuseDuplicateKeys(text: string, along: string[]): void {
  const open: (Map<string, number> | undefined)[] = [];
  let found: { property: string; where: string[]; lines: [number, number] } | undefined;
  const onTheWay = (at: (string | number)[]) => at.length <= along.length && at.every((part, i) => part === along[i]);
  visit(
    text,
    {
      onObjectBegin: (_offset, _length, _line, _column, pathSupplier) =>
        void open.push(onTheWay(pathSupplier()) ? new Map() : undefined),
      onObjectEnd: () => void open.pop(),
      onObjectProperty: (property, _offset, _length, line, _column, pathSupplier) => {
        const keys = open[open.length - 1];
        if (!keys || found) return;
        const first = keys.get(property);
        if (first !== undefined) found = { property, where: pathSupplier() as string[], lines: [first + 1, line + 1] };
        else keys.set(property, line);
      },
    },
    { allowTrailingComma: true },
  );
  if (!found) return;
  const where = found.where.length ? `in "${found.where.join('.')}"` : 'at the top level';
  throw new AutoSnippetError(
    ErrorCode.InvalidJson,
    `"${found.property}" appears twice ${where} (lines ${found.lines[0]} and ${
      found.lines[1]
    }); JSON readers disagree on which one counts, so AutoSnippet writes into neither. Merge them into one, then run the command again (nothing was changed).`,
    `Merge the two "${found.property}" entries into one.`,
    { key: found.property, path: found.where, lines: found.lines },
  );
}
