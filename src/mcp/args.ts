// The MCP server's command line, apart from the server itself: the entry point reads it before
// anything heavy is loaded (see front.ts).
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { ToolSurface } from '../core/catalog/surface';
import type { Actor } from '../core/ground/kernel/actors';

export interface McpArgs {
  workspace: string;
  http?: number;
  token?: string;
  allowedOrigins: string[];
  actor: Actor;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** The person trusts the folder for this run (VS Code passes its workspace trust). */
  trust: boolean;
  /** The person lets agents run skill scripts (VS Code passes the user's own setting). */
  allowScripts: boolean;
  /** `--tools`: unset, the `autosnippet.tools` setting decides (default: the few everyday tools). */
  tools?: ToolSurface;
}

export const MCP_USAGE =
  `Usage: autosnippet mcp [--workspace DIR] [--http PORT] [--token TOKEN] [--allow-origin ORIGIN] [--log-level LEVEL] [--tools default|all] [--trust] [--allow-scripts]

Runs the AutoSnippet MCP server for the workspace DIR (default: the current folder).
  --workspace DIR        the project folder to serve
  --http PORT            serve Streamable HTTP on http://127.0.0.1:PORT/mcp instead of stdio (0 = any free port)
  --token TOKEN          with --http: require "Authorization: Bearer TOKEN" (or set AUTOSNIPPET_MCP_TOKEN)
  --allow-origin ORIGIN  with --http: also accept this Origin header (loopback origins are always accepted)
  --log-level LEVEL      debug | info | warn | error (logs go to stderr; stdout carries only the protocol)
  --tools default|all    list the everyday tools (the rest through call_tool), or every tool in full
                         (default: the autosnippet.tools setting of .autosnippet/settings.json, else default)
  --trust                trust the folder for this run, so project guard rules run (else only
                         folders recorded by \`autosnippet trust\` are trusted)
  --allow-scripts        let agents run skill scripts in a trusted folder, as the user setting
                         autosnippet.skills.allowScripts in ~/.autosnippet/settings.json does
`;

export function parseMcpArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): McpArgs {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        workspace: { type: 'string', short: 'w', multiple: true },
        http: { type: 'string' },
        token: { type: 'string' },
        'allow-origin': { type: 'string', multiple: true },
        'log-level': { type: 'string' },
        tools: { type: 'string' },
        trust: { type: 'boolean' },
        'allow-scripts': { type: 'boolean' },
      },
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
    trust: values.trust === true,
    allowScripts: values['allow-scripts'] === true,
  };
  if (values.http !== undefined) {
    const port = Number(values.http);
    if (!/^\d+$/.test(values.http as string) || port > 65535) {
      throw new UsageError('--http takes a port number (0–65535)');
    }
    args.http = port;
  }
  const level = values['log-level'] as string | undefined;
  if (level !== undefined) {
    if (!['debug', 'info', 'warn', 'error'].includes(level)) {
      throw new UsageError('--log-level is one of debug, info, warn, error');
    }
    args.logLevel = level as McpArgs['logLevel'];
  }
  const tools = values.tools as string | undefined;
  if (tools !== undefined) {
    if (tools !== 'default' && tools !== 'all') throw new UsageError('--tools is default or all');
    args.tools = tools;
  }
  return args;
}

export class UsageError extends Error {}
