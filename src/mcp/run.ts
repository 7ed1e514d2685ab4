import path from 'node:path';
import { parseArgs } from 'node:util';
import { Workspace } from '../core/workspace';
import { createCatalog } from '../core/tools';
import { stderrLogger } from '../core/kernel/log';
import { readSettingsFile, settingsFrom } from '../core/settings';
import type { Actor } from '../core/kernel/actors';
import { createMcpServer, type McpServerOptions } from './server';
import { startHttpServer } from './http';
import { registerSkillsOnServer } from './skills';
import { StdioTransport } from './stdio';

export interface McpArgs {
  workspace: string;
  http?: number;
  token?: string;
  allowedOrigins: string[];
  actor: Actor;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
}

export const MCP_USAGE = `Usage: autosnippet mcp [--workspace DIR] [--http PORT] [--token TOKEN] [--allow-origin ORIGIN] [--log-level LEVEL]

Runs the AutoSnippet MCP server for the workspace DIR (default: the current folder).
  --workspace DIR        the project folder to serve
  --http PORT            serve Streamable HTTP on http://127.0.0.1:PORT/mcp instead of stdio (0 = any free port)
  --token TOKEN          with --http: require "Authorization: Bearer TOKEN" (or set AUTOSNIPPET_MCP_TOKEN)
  --allow-origin ORIGIN  with --http: also accept this Origin header (loopback origins are always accepted)
  --log-level LEVEL      debug | info | warn | error (logs go to stderr; stdout carries only the protocol)
`;

export function parseMcpArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): McpArgs {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { workspace: { type: 'string', short: 'w', multiple: true }, http: { type: 'string' }, token: { type: 'string' }, 'allow-origin': { type: 'string', multiple: true }, 'log-level': { type: 'string' } },
      allowPositionals: false,
      strict: true,
    }));
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/\. To specify a positional argument.*$/s, '.'));
  }
  const args: McpArgs = {
    // The last --workspace wins: `autosnippet -w A mcp -w B` serves B.
    workspace: path.resolve((values.workspace as string[] | undefined)?.at(-1) ?? process.cwd()),
    token: (values.token as string | undefined) ?? (env.AUTOSNIPPET_MCP_TOKEN || undefined),
    allowedOrigins: (values['allow-origin'] as string[] | undefined) ?? [],
    actor: env.AUTOSNIPPET_ACTOR === 'copilot_agent' ? 'copilot_agent' : 'external_agent',
    logLevel: 'info',
  };
  if (values.http !== undefined) {
    const port = Number(values.http);
    if (!/^\d+$/.test(values.http as string) || port > 65535) throw new UsageError('--http takes a port number (0–65535)');
    args.http = port;
  }
  const level = values['log-level'] as string | undefined;
  if (level !== undefined) {
    if (!['debug', 'info', 'warn', 'error'].includes(level)) throw new UsageError('--log-level is one of debug, info, warn, error');
    args.logLevel = level as McpArgs['logLevel'];
  }
  return args;
}

export class UsageError extends Error {}

/** Extensions of the server beyond tools (skills as resources and prompts, …), in one list. */
const serverExtensions: NonNullable<McpServerOptions['extend']> = [registerSkillsOnServer];

/** Starts the server and resolves when it has shut down (stdin closed, SIGTERM, SIGINT). */
export async function runMcp(args: McpArgs, bundledSkillsDir: string): Promise<void> {
  const log = stderrLogger(args.logLevel);
  // stdout carries only the protocol: anything a dependency prints goes to stderr instead.
  console.log = console.error;
  console.info = console.error;

  // The store opens (and migrates) in the background: `initialize` and `tools/list` need no database,
  // and tool calls wait for it (see ToolCatalog.invoke). Opening creates nothing on disk.
  const ws = Workspace.start(args.workspace, { log, bundledSkillsDir, settings: settingsFrom(readSettingsFile(args.workspace, log)) });
  const catalog = createCatalog();
  const make = () => createMcpServer(ws, catalog, { actor: args.actor, extend: serverExtensions });

  let stopping: Promise<void> | undefined;
  let closeTransport: () => Promise<void> = async () => {};
  const shutdown = (why: string) =>
    (stopping ??= (async () => {
      log.info(`shutting down (${why})`);
      try {
        await closeTransport();
      } finally {
        await ws.dispose();
      }
    })());

  const done = new Promise<void>((resolve) => {
    for (const sig of ['SIGTERM', 'SIGINT'] as const) process.once(sig, () => void shutdown(sig).then(resolve));
    if (args.http === undefined) {
      process.stdin.once('end', () => void shutdown('stdin closed').then(resolve));
      process.stdin.once('close', () => void shutdown('stdin closed').then(resolve));
    }
  });

  if (args.http !== undefined) {
    const http = await startHttpServer({ port: args.http, token: args.token, allowedOrigins: args.allowedOrigins, log, createServer: make });
    closeTransport = http.close;
    log.info(`MCP server for ${ws.root} listening on ${http.url}${args.token ? ' (bearer token required)' : ''}`);
  } else {
    const { server, dispose } = make();
    const transport = new StdioTransport(log);
    await server.connect(transport);
    closeTransport = async () => {
      dispose();
      await server.close();
    };
    log.info(`MCP server for ${ws.root} on stdio`);
  }
  await done;
}
