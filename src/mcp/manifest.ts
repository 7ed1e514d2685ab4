// What the MCP server says before any tool runs — its identity, capabilities, instructions and the
// tools/list answer — is static: it follows from the catalog alone. `npm run gen:manifest` writes it
// to manifest.json, which the entry point answers `initialize` and `tools/list` from while the rest
// of the server loads (front.ts); the server itself publishes the same object, and a unit test fails
// when the file drifts from the catalog.
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type ServerCapabilities, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { TOOL_PREFIX, type ToolCatalog } from '../core/tools';
import type { AnyTool } from '../core/tools/types';
import { VERSION } from '../core/version';

export interface McpManifest {
  serverInfo: { name: string; title: string; version: string };
  capabilities: ServerCapabilities;
  instructions: string;
  tools: Tool[];
  /** The protocol versions the bundled SDK speaks, the latest first as the SDK lists them. */
  protocolVersions: string[];
  latestProtocolVersion: string;
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

export function mcpManifest(catalog: ToolCatalog): McpManifest {
  return {
    serverInfo: { name: 'autosnippet', title: 'AutoSnippet', version: VERSION },
    capabilities: { tools: {}, resources: { listChanged: true }, prompts: { listChanged: true }, logging: {} },
    instructions: serverInstructions(catalog),
    tools: catalog.agentTools.map((tool) => ({
      name: TOOL_PREFIX + tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: catalog.inputSchema(tool) as Tool['inputSchema'],
      outputSchema: catalog.outputSchema(tool) as Tool['outputSchema'],
      annotations: annotationsFor(tool),
    })),
    protocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
    latestProtocolVersion: LATEST_PROTOCOL_VERSION,
  };
}
