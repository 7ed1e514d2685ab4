import { createCatalog } from '../core/catalog';
import {
  prepareRecipeSearch,
  settingDefault,
  settingsOutsideEditor,
  settingValuesOutsideEditor,
} from '../core/catalog/adapters';
import { stderrLogger } from '../core/ground/kernel/log';
import { Workspace } from '../core/ground/workspace';
import type { McpArgs } from './args';
import { createMcpServer, type McpServerOptions } from './server';
import { registerSkillsOnServer } from './skills';
import { StdioTransport } from './stdio';

export { MCP_USAGE, type McpArgs, parseMcpArgs, UsageError } from './args';

/** Extensions of the server beyond tools (skills as resources and prompts, …), in one list. */
const serverExtensions: NonNullable<McpServerOptions['extend']> = [registerSkillsOnServer];

/** The streams the stdio server reads and writes: the process's own, or the front's hand-over (front.ts). */
export interface McpStdio {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
}

/** Starts the server and resolves when it has shut down (stdin closed, SIGTERM, SIGINT). */
export async function runMcp(
  args: McpArgs,
  bundledSkillsDir: string,
  stdio: McpStdio = { stdin: process.stdin, stdout: process.stdout },
): Promise<void> {
  const log = stderrLogger(args.logLevel);
  // stdout carries only the protocol: anything a dependency prints goes to stderr instead.
  console.log = console.error;
  console.info = console.error;

  // The store opens (and migrates) in the background: `initialize` and `tools/list` need no database,
  // and tool calls wait for it (see ToolCatalog.invoke). Opening creates nothing on disk.
  // Trust and the settings that widen what agents may do come from the person (flags, the trust store,
  // ~/.autosnippet/settings.json), never from the repository served.
  const values = settingValuesOutsideEditor(args.workspace, log);
  const settings = settingsOutsideEditor(args.workspace, log, { trust: args.trust }, values);
  if (args.allowScripts) settings.skills.allowScripts = true;
  if (!settings.trusted) log.warn(settings.trustNote ?? 'the folder is not trusted');
  const ws = Workspace.start(args.workspace, { log, bundledSkillsDir, settings });
  const tools = args.tools ?? values['tools.offered'] ?? settingDefault('tools.offered');
  const catalog = createCatalog();
  // Then, in the background: the recipe search index, built in slices (the agent's first `search` finds
  // it built), and after it the tools' input validators, compiled in quiet moments (their first calls
  // find them ready). One after the other, so a request that comes at once competes with little.
  void prepareRecipeSearch(ws).then(() => catalog.precompileInputs());
  const make = () => createMcpServer(ws, catalog, { actor: args.actor, tools, extend: serverExtensions });

  let stopping: Promise<void> | undefined;
  let closeTransport: () => Promise<void> = async () => {};
  const shutdown = (why: string) => (stopping ??= (async () => {
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
      stdio.stdin.once('end', () => void shutdown('stdin closed').then(resolve));
      stdio.stdin.once('close', () => void shutdown('stdin closed').then(resolve));
    }
  });

  if (args.http !== undefined) {
    // Loaded only for --http: on stdio the HTTP stack is never evaluated.
    const { startHttpServer } = require('./http') as typeof import('./http');
    const http = await startHttpServer({
      port: args.http,
      token: args.token,
      allowedOrigins: args.allowedOrigins,
      log,
      createServer: make,
    });
    closeTransport = http.close;
    log.info(`MCP server for ${ws.root} listening on ${http.url}${args.token ? ' (bearer token required)' : ''}`);
  } else {
    const { server, dispose } = make();
    const transport = new StdioTransport(log, stdio.stdin, stdio.stdout);
    await server.connect(transport);
    closeTransport = async () => {
      dispose();
      await server.close();
    };
    log.info(`MCP server for ${ws.root} on stdio`);
  }
  await done;
}
