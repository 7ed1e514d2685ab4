/**
 * Other MCP servers the agent may reach, in the `mcpServers` format other clients use: the person's
 * own `~/.autosnippet/mcp.json` and the project's `.autosnippet/mcp.json`. Starting a stdio server
 * runs a command and an HTTP server is reached over the network, so a project's servers are used
 * only in a trusted folder, and a project's permissions may narrow what the person allowed, never
 * widen it (a project `allow` counts as `ask`).
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseJson, readRepoFileSync } from '../../ground/files';
import { isAutoSnippetError } from '../../ground/kernel/errors';
import type { Settings } from '../../ground/settings';
import { userDataDir } from '../../ground/trust';

export type ToolPermission = 'allow' | 'ask' | 'deny';
const PERMISSIONS: readonly ToolPermission[] = ['allow', 'ask', 'deny'];

export interface ServerConfig {
  name: string;
  origin: 'personal' | 'project';
  transport: 'stdio' | 'http' | 'sse';
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  /** Our own addition: what the agent should know before using the server (level 2). */
  instructions?: string;
  permissions: { default?: ToolPermission; tools: Record<string, ToolPermission> };
  timeoutMs: number;
  /** Why the server cannot be used here (an untrusted folder, a malformed entry). */
  disabled?: string;
}

export const PROJECT_MCP_FILE = '.autosnippet/mcp.json';
const MAX_CONFIG_BYTES = 256 * 1024;
const DEFAULT_TIMEOUT_MS = 30_000;

export interface ServersConfig {
  servers: ServerConfig[];
  problems: string[];
}

/** Both files, the person's entries winning a name both define. */
export function readServersConfig(
  root: string,
  settings: Pick<Settings, 'trusted' | 'trustNote'>,
  env?: NodeJS.ProcessEnv,
): ServersConfig {
  const problems: string[] = [];
  const personalFile = path.join(userDataDir(env), 'mcp.json');
  const personal = entriesOf(readPersonal(personalFile, problems), personalFile, 'personal', problems);
  const project = entriesOf(readProject(root, problems), PROJECT_MCP_FILE, 'project', problems);
  const names = new Set(personal.map((s) => s.name));
  const servers = [...personal, ...project.filter((s) => !names.has(s.name))];
  for (const s of servers) {
    if (s.origin === 'project' && !settings.trusted && !s.disabled) {
      s.disabled = `a project server runs a command or reaches the network, and ${
        settings.trustNote ?? 'the folder is not trusted'
      }`;
    }
  }
  return { servers, problems };
}

function readPersonal(file: string, problems: string[]): unknown {
  try {
    const st = statSync(file);
    if (!st.isFile() || st.size > MAX_CONFIG_BYTES) {
      problems.push(`${file} is ignored: not a regular file under ${MAX_CONFIG_BYTES} bytes.`);
      return undefined;
    }
    return parsed(readFileSync(file, 'utf8'), file, problems);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') problems.push(`${file} is ignored: ${(e as Error).message}`);
    return undefined;
  }
}

function readProject(root: string, problems: string[]): unknown {
  try {
    return parsed(
      readRepoFileSync(root, PROJECT_MCP_FILE, { kind: 'config', maxBytes: MAX_CONFIG_BYTES }).text,
      PROJECT_MCP_FILE,
      problems,
    );
  } catch (e) {
    if (!(isAutoSnippetError(e) && e.code === 'NOT_FOUND')) {
      problems.push(`${PROJECT_MCP_FILE} is ignored: ${(e as Error).message}`);
    }
    return undefined;
  }
}

function parsed(text: string, subject: string, problems: string[]): unknown {
  const r = parseJson(text, { subject });
  if (r.ok) return r.value;
  problems.push(`${subject} is ignored: ${r.problem.message}`);
  return undefined;
}

function entriesOf(json: unknown, file: string, origin: ServerConfig['origin'], problems: string[]): ServerConfig[] {
  if (json === undefined) return [];
  const servers = (json as { mcpServers?: unknown })?.mcpServers;
  if (!isObject(servers)) {
    problems.push(`${file}: expected {"mcpServers": {"name": {...}}}.`);
    return [];
  }
  return Object.entries(servers).map(([name, raw]) => entryOf(name, raw, file, origin));
}

function entryOf(name: string, raw: unknown, file: string, origin: ServerConfig['origin']): ServerConfig {
  const base: ServerConfig = {
    name,
    origin,
    transport: 'stdio',
    permissions: { tools: {} },
    timeoutMs: DEFAULT_TIMEOUT_MS,
  };
  const bad = (why: string): ServerConfig => ({ ...base, disabled: `${file}: server "${name}": ${why}` });
  if (!/^[\w.-]{1,64}$/.test(name)) return bad('a name is letters, digits, ".", "_" or "-" (at most 64)');
  if (!isObject(raw)) return bad('an entry is an object with "command" or "url"');
  const e = raw as Record<string, unknown>;
  const strings = (
    v: unknown,
  ) => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined);
  const record = (
    v: unknown,
  ) => (isObject(v) && Object.values(v).every((x) => typeof x === 'string')
    ? (v as Record<string, string>)
    : undefined);
  const cfg: ServerConfig = {
    ...base,
    instructions: typeof e.instructions === 'string' ? e.instructions.slice(0, 4000) : undefined,
  };
  if (typeof e.timeoutMs === 'number' && e.timeoutMs >= 1000 && e.timeoutMs <= 600_000) cfg.timeoutMs = e.timeoutMs;
  if (typeof e.command === 'string' && e.command) {
    Object.assign(cfg, {
      transport: 'stdio',
      command: e.command,
      args: strings(e.args) ?? [],
      env: record(e.env),
      cwd: typeof e.cwd === 'string' ? e.cwd : undefined,
    });
    if (e.args !== undefined && !strings(e.args)) return bad('"args" is a list of strings');
  } else if (typeof e.url === 'string') {
    let url: URL;
    try {
      url = new URL(e.url);
    } catch {
      return bad(`"url" is not a URL: ${e.url.slice(0, 200)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return bad('"url" must be http or https');
    Object.assign(cfg, { transport: e.type === 'sse' ? 'sse' : 'http', url: url.href, headers: record(e.headers) });
  } else return bad('an entry needs "command" (a local server) or "url" (a remote one)');
  const perms = e.permissions;
  if (perms !== undefined) {
    if (!isObject(perms)) {
      return bad('"permissions" is {"default": "ask", "tools": {"name": "allow" | "ask" | "deny"}}');
    }
    const p = perms as { default?: unknown; tools?: unknown };
    const cap = (v: ToolPermission): ToolPermission => (origin === 'project' && v === 'allow' ? 'ask' : v);
    if (p.default !== undefined) {
      if (!PERMISSIONS.includes(p.default as ToolPermission)) return bad('"permissions.default" is allow, ask or deny');
      cfg.permissions.default = cap(p.default as ToolPermission);
    }
    if (p.tools !== undefined) {
      if (!isObject(p.tools) || !Object.values(p.tools).every((v) => PERMISSIONS.includes(v as ToolPermission))) {
        return bad('"permissions.tools" maps tool names to allow, ask or deny');
      }
      for (const [tool, v] of Object.entries(p.tools as Record<string, ToolPermission>)) {
        cfg.permissions.tools[tool] = cap(v);
      }
    }
  }
  return cfg;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
