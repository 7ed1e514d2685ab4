// Entry point of dist/mcp.js: the MCP server on its own (VS Code's definition provider, Cursor,
// Claude Desktop). `autosnippet mcp` runs the same server. On stdio, `initialize` and `tools/list` are
// answered from the generated manifest before the server is even evaluated (front.ts): everything
// heavy is `require`d when needed, which the bundler turns into code evaluated only then.
import path from 'node:path';
import { parseMcpArgs, UsageError, MCP_USAGE, type McpArgs } from './args';
import { startFront } from './front';
import type { McpManifest } from './manifest';
import type { McpStdio } from './run';

const bundledSkills = path.join(__dirname, '..', 'skills');

function serve(args: McpArgs, stdio?: McpStdio): void {
  const { runMcp } = require('./run') as typeof import('./run');
  runMcp(args, bundledSkills, stdio).then(() => process.exit(0), fail);
}

function main(): void {
  const argv = process.argv.slice(2);
  if (argv.includes('-h') || argv.includes('--help')) {
    process.stderr.write(MCP_USAGE);
    return;
  }
  const args = parseMcpArgs(argv);
  if (args.http !== undefined) return serve(args);
  const manifest = require('./manifest.json') as McpManifest;
  startFront({ manifest, load: (stdio) => serve(args, stdio) });
}

function fail(e: unknown): void {
  let text: string;
  if (e instanceof UsageError) text = `${e.message}\n\n${MCP_USAGE}`;
  else if (isAutoSnippetError(e)) text = `${e.message}${e.hint ? `\n${e.hint}` : ''}\n`;
  else text = `${(e as Error).stack ?? e}\n`; // a bug: the stack helps whoever reports it
  process.stderr.write(`autosnippet mcp: ${text}`);
  process.exit(e instanceof UsageError ? 2 : 1);
}

/** The kernel's check, without loading the kernel for a usage error. */
function isAutoSnippetError(e: unknown): e is { message: string; hint?: string } {
  return (require('../core/kernel/errors') as typeof import('../core/kernel/errors')).isAutoSnippetError(e);
}

try {
  main();
} catch (e) {
  fail(e);
}
