// Entry point of dist/mcp-server.js, the MCP server proper (the SDK, the catalog, every domain). The
// small front, dist/mcp.js (main.ts), answers the client's first requests from the manifest and then
// loads this file, so its megabytes are read and compiled only after the first answer.
import { isAutoSnippetError } from '../core/ground/kernel/errors';
import type { McpArgs } from './args';
import { type McpStdio, runMcp } from './run';

/** Runs the server until it shuts down, then exits the process (1 on a failure, with its reason on stderr). */
export function serveMcp(args: McpArgs, bundledSkillsDir: string, stdio?: McpStdio): void {
  runMcp(args, bundledSkillsDir, stdio).then(() => process.exit(0), exitWithError);
}

/** A failure of the server (usage errors are the front's): its message, or the stack of a bug, and exit 1. */
export function exitWithError(e: unknown): never {
  const text = isAutoSnippetError(e) ? `${e.message}${e.hint ? `\n${e.hint}` : ''}\n` : `${(e as Error).stack ?? e}\n`; // a bug: the stack helps whoever reports it
  process.stderr.write(`autosnippet mcp: ${text}`);
  process.exit(1);
}
