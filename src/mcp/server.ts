import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ToolCatalog } from '../core/catalog';
import type { ToolSurface } from '../core/catalog/surface';
import type { Actor } from '../core/ground/kernel/actors';
import type { Workspace } from '../core/ground/workspace';
import { elicitationConfirm } from './elicitation';
import { listedTools, mcpManifest } from './manifest';
import { samplingModel } from './sampling';

export interface McpServerOptions {
  /** Who the calling agent is, for the Gateway and the audit log. */
  actor?: Actor;
  /** Which tools tools/list shows in full (default: the few of DEFAULT_TOOLS); every tool stays callable. */
  tools?: ToolSurface;
  /** Called after the server is created, to add resources, prompts… (skills register here). */
  extend?: Array<(server: Server, ws: Workspace) => (() => void) | void>;
}

export { annotationsFor, serverInstructions } from './manifest';

/**
 * tools/call as the protocol layer parses it, loosened on purpose: the SDK parses a request with the
 * registered schema before its own tools/call check, so with the strict schema a non-object `arguments`
 * failed as an internal error (-32603). Loose here, it reaches the SDK's check and is -32602 Invalid params.
 */
const ToolsCallRequest = CallToolRequestSchema.pick({ method: true }).loose();

export function createMcpServer(
  ws: Workspace,
  catalog: ToolCatalog,
  options: McpServerOptions = {},
): { server: Server; dispose(): void } {
  // The same object manifest.json holds (the entry point answers the first requests from that file).
  const manifest = mcpManifest(catalog);
  const server = new Server(manifest.serverInfo, {
    capabilities: manifest.capabilities,
    instructions: manifest.instructions,
  });
  const actor = options.actor ?? 'external_agent';

  const tools = listedTools(manifest, options.tools ?? 'default');
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));

  server.setRequestHandler(ToolsCallRequest, async (request, extra): Promise<CallToolResult> => {
    // The SDK checked the request against the full CallToolRequestSchema before calling us.
    const { name, arguments: args, _meta } = (request as CallToolRequest).params;
    // Any catalog tool is callable by name, listed or not; review tools are refused by the Gateway (and the refusal audited).
    const progressToken = _meta?.progressToken;
    const started = Date.now();
    const result = await catalog.invoke(ws, name, args ?? {}, {
      actor,
      channel: 'mcp',
      signal: extra.signal,
      // The client's capabilities are known only after it connects, so ask per call.
      model: samplingModel(server),
      confirm: elicitationConfirm(server),
      progress: progressToken === undefined
        ? undefined
        : (p) => {
          void extra.sendNotification({
            method: 'notifications/progress',
            params: {
              progressToken,
              progress: p.done ?? 0,
              ...(p.total !== undefined ? { total: p.total } : {}),
              ...(p.message ? { message: p.message } : {}),
            },
          });
        },
    });
    ws.log.debug(`tools/call ${name} ${result.ok ? 'ok' : result.error.code} in ${Date.now() - started} ms`);
    // The envelope as structured content (matching the tool's outputSchema), and as text: a tool's text
    // form where it has one (a skill's Markdown, unescaped), else the envelope's JSON for older clients.
    return {
      content: [{ type: 'text', text: catalog.resultText(result) }],
      structuredContent: result as unknown as Record<string, unknown>,
      isError: !result.ok,
    };
  });

  const cleanups = (options.extend ?? []).map((extend) => extend(server, ws)).filter((c): c is () => void =>
    typeof c === 'function'
  );
  return { server, dispose: () => cleanups.forEach((c) => c()) };
}
