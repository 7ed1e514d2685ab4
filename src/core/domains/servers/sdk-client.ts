// The MCP SDK's client side in one module: the bundles ship it (and the schema library it brings) as a
// file of its own that is read only when another server is reached (see scripts/build.mjs, `vendored`).
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
export { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
