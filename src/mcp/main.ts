// Entry point of dist/mcp.js: the MCP server on its own (VS Code's definition provider, Cursor,
// Claude Desktop). `autosnippet mcp` runs the same code.
import path from 'node:path';
import { isAutoSnippetError } from '../core/kernel/errors';
import { parseMcpArgs, runMcp, UsageError, MCP_USAGE } from './run';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('-h') || argv.includes('--help')) {
    process.stderr.write(MCP_USAGE);
    return;
  }
  await runMcp(parseMcpArgs(argv), path.join(__dirname, '..', 'skills'));
  process.exit(0);
}

main().catch((e) => {
  let text: string;
  if (e instanceof UsageError) text = `${e.message}\n\n${MCP_USAGE}`;
  else if (isAutoSnippetError(e)) text = `${e.message}${e.hint ? `\n${e.hint}` : ''}\n`;
  else text = `${(e as Error).stack ?? e}\n`; // a bug: the stack helps whoever reports it
  process.stderr.write(`autosnippet mcp: ${text}`);
  process.exit(e instanceof UsageError ? 2 : 1);
});
