// Entry point of dist/mcp.js: the MCP server on its own (VS Code's definition provider, Cursor,
// Claude Desktop). `autosnippet mcp` runs the same server. This file is bundled on its own, small, from
// Node built-ins only: on stdio it answers `initialize` and `tools/list` from the manifest file
// (front.ts) before the server bundle, dist/mcp-server.js (serve.ts), is even read from disk.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MCP_USAGE, type McpArgs, parseMcpArgs, UsageError } from './args';
import { startFront } from './front';
import type { McpManifest } from './manifest';
import type { McpStdio } from './run';

const bundledSkills = path.join(__dirname, '..', 'skills');
/** The generated manifest: beside the bundle as mcp-manifest.json (scripts/build.mjs), beside this file in the sources. */
const manifestFile = path.join(__dirname, process.env.AUTOSNIPPET_BUNDLED ? 'mcp-manifest.json' : 'manifest.json');

/** The server proper; the build turns this require into one of dist/mcp-server.js, loaded only now. */
const server = () => require('./serve') as typeof import('./serve');

function main(): void {
  const argv = process.argv.slice(2);
  if (argv.includes('-h') || argv.includes('--help')) {
    process.stderr.write(MCP_USAGE);
    return;
  }
  const args = parseMcpArgs(argv);
  const serve = (stdio?: McpStdio) => server().serveMcp(args, bundledSkills, stdio);
  if (args.http !== undefined) return serve();
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as McpManifest;
  startFront({ manifest, tools: frontTools(manifest, args.tools, args.workspace), load: serve });
}

/**
 * What the front answers tools/list with: the surface `--tools` names, else the default one, unless a
 * settings file may choose another: then the server, which reads settings, answers.
 */
function frontTools(
  manifest: McpManifest,
  surface: McpArgs['tools'],
  workspace: string,
): McpManifest['tools'] | undefined {
  if (surface) return surface === 'all' ? manifest.allTools : manifest.tools;
  return existsSync(path.join(workspace, '.autosnippet', 'settings.json')) ? undefined : manifest.tools;
}

try {
  main();
} catch (e) {
  if (e instanceof UsageError) {
    process.stderr.write(`autosnippet mcp: ${e.message}\n\n${MCP_USAGE}`);
    process.exit(2);
  }
  server().exitWithError(e);
}
