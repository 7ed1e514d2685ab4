// Entry point of dist/mcp.js: the MCP server on its own (VS Code's definition provider, Cursor,
// Claude Desktop). `autosnippet mcp` runs the same code.
import path from 'node:path';
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
  process.stderr.write(e instanceof UsageError ? `autosnippet mcp: ${e.message}\n\n${MCP_USAGE}` : `autosnippet mcp: ${(e as Error).stack ?? e}\n`);
  process.exit(e instanceof UsageError ? 2 : 1);
});
