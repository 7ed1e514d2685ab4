// The smallest MCP server a user could write with the SDK: one tool, stdio. The MCP start benchmark
// measures AutoSnippet's start against it (run unbundled, as such a server usually is).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'one-tool', version: '0.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: 'health', description: 'Says the server is up.', inputSchema: { type: 'object', properties: {} } }],
}));
server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: 'text', text: '{"ok":true}' }] }));
await server.connect(new StdioServerTransport());
