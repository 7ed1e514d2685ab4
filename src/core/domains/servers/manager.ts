/**
 * Our own MCP client for the servers of `.autosnippet/mcp.json` and `~/.autosnippet/mcp.json`: each
 * connects on first use through the SDK's transports (stdio, Streamable HTTP with SSE as fallback),
 * answers within its timeout, is retried with a growing pause after a failure and reconnected when it
 * goes away, and is shut down with the workspace. Which tool may run without a person is decided per
 * server and per tool (see `permissionOf`); the catalog's tools put every call through the Gateway.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { AutoSnippetError } from '../../ground/kernel/errors';
import type { Workspace } from '../../ground/workspace';
import { readServersConfig, type ServerConfig, type ToolPermission } from './config';
import type { HostServer, HostServers, RemoteTool } from './host';

export type { RemoteTool } from './host';

interface Connection {
  client: Client;
  tools: RemoteTool[];
  instructions?: string;
}

interface ServerState {
  config: ServerConfig;
  key: string;
  connection?: Promise<Connection>;
  failures: number;
  retryAt?: number;
  lastError?: string;
}

export interface ServerSummary {
  name: string;
  origin: ServerConfig['origin'] | HostServers['origin'];
  transport: ServerConfig['transport'] | HostServers['origin'];
  state: 'not-started' | 'connected' | 'down' | 'disabled';
  /** One line: the configured instructions' first line, or the server's own. */
  summary?: string;
  tools?: number;
  reason?: string;
}

const MAX_BACKOFF_MS = 60_000;

export class McpServers {
  private readonly states = new Map<string, ServerState>();
  private host?: HostServers;

  constructor(private readonly ws: Workspace) {}

  /** The servers the editor runs (set by its adapter); a configured server of the same name wins. */
  useHost(host: HostServers | undefined): void {
    this.host = host;
  }

  private hostServer(name: string): HostServer | undefined {
    if (this.states.has(name)) return undefined;
    return this.host?.servers().find((s) => s.name === name);
  }

  private hostServers(): HostServer[] {
    return (this.host?.servers() ?? []).filter((s) => !this.states.has(s.name));
  }

  /** The configuration as it is now; a server whose entry changed is disconnected and starts afresh. */
  private current(): { states: ServerState[]; problems: string[] } {
    const { servers, problems } = readServersConfig(this.ws.root, this.ws.settings);
    const seen = new Set<string>();
    for (const config of servers) {
      seen.add(config.name);
      const key = JSON.stringify(config);
      const old = this.states.get(config.name);
      if (old && old.key === key) continue;
      if (old) void this.close(old);
      this.states.set(config.name, { config, key, failures: 0 });
    }
    for (const [name, st] of this.states) {
      if (seen.has(name)) continue;
      void this.close(st);
      this.states.delete(name);
    }
    return { states: [...this.states.values()], problems };
  }

  async list(): Promise<{ servers: ServerSummary[]; problems: string[] }> {
    const { states, problems } = this.current();
    const servers = await Promise.all(states.map(async (st): Promise<ServerSummary> => {
      const c = st.config;
      const base = {
        name: c.name,
        origin: c.origin,
        transport: c.transport,
        ...(c.instructions ? { summary: firstLine(c.instructions) } : {}),
      };
      if (c.disabled) return { ...base, state: 'disabled', reason: c.disabled };
      const conn = st.connection ? await st.connection.catch(() => undefined) : undefined;
      if (conn) {
        return {
          ...base,
          state: 'connected',
          tools: conn.tools.length,
          summary: base.summary ?? (conn.instructions ? firstLine(conn.instructions) : undefined),
        };
      }
      if (st.lastError) return { ...base, state: 'down', reason: st.lastError };
      return { ...base, state: 'not-started' };
    }));
    const origin = this.host?.origin ?? 'vscode';
    const hosted = this.hostServers().map((h): ServerSummary => ({
      name: h.name,
      origin,
      transport: origin,
      state: 'connected',
      summary: `Run by ${origin === 'vscode' ? 'VS Code' : origin}: ${h.tools.length} tools.`,
      tools: h.tools.length,
    }));
    return { servers: [...servers, ...hosted], problems };
  }

  /** Level 2: the server's instructions and its tools' definitions, each with the permission it has here. */
  async describe(
    name: string,
  ): Promise<{ name: string; instructions?: string; tools: (RemoteTool & { permission: ToolPermission })[] }> {
    this.current();
    const hosted = this.hostServer(name);
    if (hosted) return { name, tools: hosted.tools.map((t) => ({ ...t, permission: hostPermission })) };
    const st = this.require(name);
    const conn = await this.connect(st);
    const instructions = [st.config.instructions, conn.instructions].filter(Boolean).join('\n\n') || undefined;
    return { name, instructions, tools: conn.tools.map((t) => ({ ...t, permission: permissionOf(st.config, t) })) };
  }

  /** The tool's definition and its permission here (the caller decides whether a person must approve). */
  async tool(name: string, tool: string): Promise<{ tool: RemoteTool; permission: ToolPermission }> {
    this.current();
    const hosted = this.hostServer(name);
    const tools = hosted ? hosted.tools : (await this.connect(this.require(name))).tools;
    const found = tools.find((t) => t.name === tool);
    if (!found) {
      throw new AutoSnippetError(
        'NOT_FOUND',
        `Server "${name}" has no tool "${tool}".`,
        `Its tools: ${tools.map((t) => t.name).slice(0, 30).join(', ')}.`,
      );
    }
    return { tool: found, permission: hosted ? hostPermission : permissionOf(this.require(name).config, found) };
  }

  /** Level 3: calls the tool, reconnecting once when the server went away since the last call. */
  async call(
    name: string,
    tool: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<{ content: unknown[]; isError?: boolean; structuredContent?: unknown }> {
    this.current();
    if (this.hostServer(name)) {
      try {
        return await this.host!.call(name, tool, args, signal);
      } catch (e) {
        throw unavailable(name, (e as Error).message);
      }
    }
    const st = this.require(name);
    for (let attempt = 0;; attempt++) {
      const conn = await this.connect(st);
      try {
        return (await conn.client.callTool({ name: tool, arguments: args }, undefined, {
          timeout: st.config.timeoutMs,
          signal,
        })) as { content: unknown[]; isError?: boolean };
      } catch (e) {
        const closed = /closed|not connected|EPIPE|ECONNRESET|ECONNREFUSED/i.test((e as Error).message);
        if (!closed || attempt > 0 || signal?.aborted) throw unavailable(name, (e as Error).message);
        st.connection = undefined;
      }
    }
  }

  private require(name: string): ServerState {
    this.current();
    const st = this.states.get(name);
    if (!st) {
      throw new AutoSnippetError(
        'NOT_FOUND',
        `There is no MCP server "${name}".`,
        `Servers: ${
          [...this.states.keys(), ...this.hostServers().map((h) => h.name)].join(', ')
          || 'none (add them to .autosnippet/mcp.json or ~/.autosnippet/mcp.json)'
        }.`,
      );
    }
    if (st.config.disabled) {
      throw new AutoSnippetError(
        'PERMISSION_DENIED',
        `MCP server "${name}" cannot be used here: ${st.config.disabled}.`,
      );
    }
    return st;
  }

  private connect(st: ServerState): Promise<Connection> {
    if (st.connection) return st.connection;
    if (st.retryAt && Date.now() < st.retryAt) {
      return Promise.reject(
        unavailable(
          st.config.name,
          `${st.lastError ?? 'it failed'}; trying again in ${Math.ceil((st.retryAt - Date.now()) / 1000)} s`,
        ),
      );
    }
    const attempt = this.open(st.config).then(
      (conn) => {
        st.failures = 0;
        st.retryAt = undefined;
        st.lastError = undefined;
        conn.client.onclose = () => {
          if (st.connection === attempt) st.connection = undefined;
        };
        return conn;
      },
      (e: Error) => {
        st.failures++;
        st.lastError = e.message.slice(0, 500);
        st.retryAt = Date.now() + Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (st.failures - 1));
        if (st.connection === attempt) st.connection = undefined;
        throw unavailable(st.config.name, st.lastError);
      },
    );
    st.connection = attempt;
    return attempt;
  }

  private async open(c: ServerConfig): Promise<Connection> {
    // Loaded on first use: a workspace that names no other server never evaluates the SDK's client.
    const { Client } = require('./sdk-client') as typeof import('./sdk-client');
    const transports = await this.transportsFor(c);
    let last: Error | undefined;
    for (const make of transports) {
      const client = new Client({ name: 'autosnippet', version: this.ws.version });
      try {
        await withTimeout(client.connect(make()), c.timeoutMs, `did not answer initialize within ${c.timeoutMs} ms`);
        const tools: RemoteTool[] = [];
        let cursor: string | undefined;
        do {
          const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: c.timeoutMs });
          tools.push(...(page.tools as RemoteTool[]));
          cursor = page.nextCursor;
        } while (cursor && tools.length < 1000);
        return { client, tools, instructions: client.getInstructions() };
      } catch (e) {
        last = e as Error;
        await client.close().catch(() => undefined);
      }
    }
    throw last ?? new Error('no transport');
  }

  private async transportsFor(c: ServerConfig): Promise<(() => Transport)[]> {
    if (c.transport === 'stdio') {
      const { StdioClientTransport, getDefaultEnvironment } = require('./sdk-client') as typeof import('./sdk-client');
      return [
        () =>
          new StdioClientTransport({
            command: c.command!,
            args: c.args,
            env: { ...getDefaultEnvironment(), ...c.env },
            cwd: c.cwd ? this.ws.path(c.cwd) : this.ws.root,
            stderr: 'ignore',
          }),
      ];
    }
    const url = new URL(c.url!);
    const init = { requestInit: { headers: c.headers ?? {} } };
    const { SSEClientTransport } = require('./sdk-client') as typeof import('./sdk-client');
    const sse = () => new SSEClientTransport(url, init);
    if (c.transport === 'sse') return [sse];
    const { StreamableHTTPClientTransport } = require('./sdk-client') as typeof import('./sdk-client');
    // Servers from before Streamable HTTP speak only SSE: the SDK's documented fallback.
    return [() => new StreamableHTTPClientTransport(url, init), sse];
  }

  private async close(st: ServerState): Promise<void> {
    const conn = st.connection;
    st.connection = undefined;
    const c = await conn?.catch(() => undefined);
    await c?.client.close().catch(() => undefined);
  }

  async dispose(): Promise<void> {
    await Promise.all([...this.states.values()].map((st) => this.close(st)));
    this.states.clear();
  }
}

/**
 * A tool's permission: the entry's own word for it, else the entry's default, else `allow` for a tool
 * its server marks read-only and `ask` for the rest (writes wait for a person).
 */
export function permissionOf(c: ServerConfig, tool: RemoteTool): ToolPermission {
  return c.permissions.tools[tool.name] ?? c.permissions.default
    ?? (tool.annotations?.readOnlyHint === true ? 'allow' : 'ask');
}

/**
 * The editor's servers give no read-only marks through its tool API, so each call waits for a person
 * (VS Code's confirmation of call_mcp_tool, or the chat's modal).
 */
const hostPermission: ToolPermission = 'ask';

export function mcpServers(ws: Workspace): McpServers {
  return ws.service('servers.mcp', (w) => new McpServers(w));
}

function unavailable(name: string, why: string): AutoSnippetError {
  return new AutoSnippetError(
    'MCP_SERVER_UNAVAILABLE',
    `MCP server "${name}" is unavailable: ${why}.`,
    'Check its entry in .autosnippet/mcp.json or ~/.autosnippet/mcp.json (command, url) and that it starts on its own; list_mcp_servers shows its state.',
  );
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0];
  return line.length > 160 ? `${line.slice(0, 157)}…` : line;
}

function withTimeout<T>(p: Promise<T>, ms: number, why: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(why)), ms)))])
    .finally(() => clearTimeout(timer));
}

/** Hands the editor's own servers to a workspace's manager (undefined takes them back). */
export function useHostMcpServers(ws: Workspace, host: HostServers | undefined): void {
  mcpServers(ws).useHost(host);
}
