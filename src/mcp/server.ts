import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolRequest, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Workspace } from '../core/workspace';
import { TOOL_PREFIX, type ToolCatalog } from '../core/tools';
import type { Actor } from '../core/kernel/actors';
import type { AnyTool } from '../core/tools/types';
import { samplingModel } from './sampling';

export interface McpServerOptions {
  /** Who the calling agent is, for the Gateway and the audit log. */
  actor?: Actor;
  /** Called after the server is created, to add resources, prompts… (skills register here). */
  extend?: Array<(server: Server, ws: Workspace) => (() => void) | void>;
}

/** MCP annotations follow from the access class: read tools are read-only and idempotent. */
export function annotationsFor(tool: AnyTool): Tool['annotations'] {
  const read = tool.access === 'read';
  return { title: tool.title, readOnlyHint: read, destructiveHint: tool.access === 'review', idempotentHint: read, openWorldHint: false };
}

/** What an agent reads first: where to start, in a few lines, mentioning only tools that exist. */
export function serverInstructions(catalog: ToolCatalog): string {
  const has = (n: string) => Boolean(catalog.get(n));
  const t = (n: string) => TOOL_PREFIX + n;
  const lines = [
    'AutoSnippet holds this project\'s own knowledge: reviewed recipes (patterns, rules, facts), candidates awaiting review, guard rules, and skills (how-to guides for agents).',
    `Start with ${t('health')} to check the workspace, then ${t('capabilities')} for the tool list (${t('get_tool_info')} gives one tool's schema).`,
  ];
  if (has('search_skills')) lines.push(`Before a task, find the guide for it: ${t('search_skills')} {query} or ${t('list_skills')}, then ${t('load_skill')} {name} (add section to load one part; chunks are loaded with ${t('load_skill_chunk')}). If unsure, load autosnippet-intent.`);
  if (has('context_search')) lines.push(`Before writing code, call ${t('context_search')} to get the project's patterns for it.`);
  if (has('guard_check')) lines.push(`After writing code, call ${t('guard_check')} on it and fix what it reports.`);
  if (has('submit_candidate')) lines.push(`Propose new knowledge with ${t('submit_candidate')}; people approve it. You cannot approve, publish or delete.`);
  lines.push('Every result is JSON {ok, data} or {ok:false, error:{code, message, hint}} (also as structured content, described by each tool\'s outputSchema); when a result says "truncated", follow its hint to get the rest.');
  return lines.join('\n');
}

/**
 * tools/call as the protocol layer parses it, loosened on purpose: the SDK parses a request with the
 * registered schema before its own tools/call check, so with the strict schema a non-object `arguments`
 * failed as an internal error (-32603). Loose here, it reaches the SDK's check and is -32602 Invalid params.
 */
const ToolsCallRequest = CallToolRequestSchema.pick({ method: true }).loose();

export function createMcpServer(ws: Workspace, catalog: ToolCatalog, options: McpServerOptions = {}): { server: Server; dispose(): void } {
  const server = new Server(
    { name: 'autosnippet', title: 'AutoSnippet', version: ws.version },
    {
      capabilities: { tools: {}, resources: { listChanged: true }, prompts: { listChanged: true }, logging: {} },
      instructions: serverInstructions(catalog),
    },
  );
  const actor = options.actor ?? 'external_agent';

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: catalog.agentTools.map((tool) => ({
      name: TOOL_PREFIX + tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: catalog.inputSchema(tool) as Tool['inputSchema'],
      outputSchema: catalog.outputSchema(tool) as Tool['outputSchema'],
      annotations: annotationsFor(tool),
    })),
  }));

  server.setRequestHandler(ToolsCallRequest, async (request, extra): Promise<CallToolResult> => {
    // The SDK checked the request against the full CallToolRequestSchema before calling us.
    const { name, arguments: args, _meta } = (request as CallToolRequest).params;
    // Review tools are not listed; if called anyway, the Gateway refuses them (and audits the refusal).
    const progressToken = _meta?.progressToken;
    const started = Date.now();
    const result = await catalog.invoke(ws, name, args ?? {}, {
      actor,
      channel: 'mcp',
      signal: extra.signal,
      // The client's capabilities are known only after it connects, so ask per call.
      model: samplingModel(server),
      progress: progressToken === undefined
        ? undefined
        : (p) => {
            void extra.sendNotification({
              method: 'notifications/progress',
              params: { progressToken, progress: p.done ?? 0, ...(p.total !== undefined ? { total: p.total } : {}), ...(p.message ? { message: p.message } : {}) },
            });
          },
    });
    ws.log.debug(`tools/call ${name} ${result.ok ? 'ok' : result.error.code} in ${Date.now() - started} ms`);
    // The envelope as structured content (matching the tool's outputSchema), and as text: a tool's text
    // form where it has one (a skill's Markdown, unescaped), else the envelope's JSON for older clients.
    return { content: [{ type: 'text', text: catalog.resultText(result) }], structuredContent: result as unknown as Record<string, unknown>, isError: !result.ok };
  });

  const cleanups = (options.extend ?? []).map((extend) => extend(server, ws)).filter((c): c is () => void => typeof c === 'function');
  return { server, dispose: () => cleanups.forEach((c) => c()) };
}
