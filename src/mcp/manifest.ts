// What the MCP server says before any tool runs — its identity, capabilities, instructions and the
// tools/list answer — is static: it follows from the catalog alone. `npm run gen:manifest` writes it
// to manifest.json, which the entry point answers `initialize` and `tools/list` from while the rest
// of the server loads (front.ts); the server itself publishes the same object, and a unit test fails
// when the file drifts from the catalog.
import {
  LATEST_PROTOCOL_VERSION,
  type ServerCapabilities,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { TOOL_PREFIX, type ToolCatalog } from '../core/catalog';
import { isDefaultTool, type ToolSurface } from '../core/catalog/surface';
import type { AnyTool } from '../core/catalog/types';
import { VERSION } from '../core/ground/version';

export interface McpManifest {
  serverInfo: { name: string; title: string; version: string };
  capabilities: ServerCapabilities;
  instructions: string;
  /** The tools/list answer by default: the few tools of DEFAULT_TOOLS, without output schemas. */
  tools: Tool[];
  /** The tools/list answer with `--tools all`: every tool an agent may call, with its output schema. */
  allTools: Tool[];
  /** The protocol versions the bundled SDK speaks, the latest first as the SDK lists them. */
  protocolVersions: string[];
  latestProtocolVersion: string;
}

/** MCP annotations follow from the access class: read tools are read-only and idempotent. */
export function annotationsFor(tool: AnyTool): Tool['annotations'] {
  // A generic call may forward to a tool that writes.
  const read = tool.access === 'read' && !tool.forwards;
  return {
    title: tool.title,
    readOnlyHint: read,
    destructiveHint: tool.access === 'review',
    idempotentHint: read,
    openWorldHint: false,
  };
}

/** What an agent reads first: where to start, in a few lines, mentioning only tools that exist. */
export function serverInstructions(catalog: ToolCatalog): string {
  const has = (n: string) => Boolean(catalog.get(n));
  const t = (n: string) => TOOL_PREFIX + n;
  const lines = [
    "AutoSnippet holds this project's own knowledge: reviewed recipes (patterns, rules, facts), candidates awaiting review, guard rules, and skills (how-to guides for agents).",
    `Start with ${t('health')} to check the workspace. ${
      t('list_tools')
    } lists every tool in one line; a tool your client does not list is called with ${
      t('call_tool')
    } {name, arguments} (${t('get_tool_info')} {name} gives its arguments).`,
  ];
  if (has('search_skills')) {
    lines.push(
      `Before a task, find the guide for it: ${t('search_skills')} {query} or ${t('list_skills')}, then ${
        t('load_skill')
      } {name} (add section to load one part; chunks are loaded with ${
        t('load_skill_chunk')
      }). If unsure, load autosnippet-intent.`,
    );
  }
  if (has('context_search')) {
    lines.push(`Before writing code, call ${t('context_search')} to get the project's patterns for it.`);
  }
  if (has('guard_check')) lines.push(`After writing code, call ${t('guard_check')} on it and fix what it reports.`);
  if (has('submit_candidate')) {
    lines.push(
      `Propose new knowledge with ${t('submit_candidate')}; people approve it. You cannot approve, publish or delete.`,
    );
  }
  lines.push(
    'Every result is JSON {ok, data} or {ok:false, error:{code, message, hint}} (also as structured content, described by each tool\'s outputSchema); when a result says "truncated", follow its hint to get the rest.',
  );
  return lines.join('\n');
}

export function mcpManifest(catalog: ToolCatalog): McpManifest {
  return {
    serverInfo: { name: 'autosnippet', title: 'AutoSnippet', version: VERSION },
    capabilities: { tools: {}, resources: { listChanged: true }, prompts: { listChanged: true }, logging: {} },
    instructions: serverInstructions(catalog),
    // Output schemas stay out of the default list: they were half its bytes, and the structured content
    // is the same envelope either way (a client validates it only against a schema it was given).
    tools: catalog.agentTools.filter((tool) => isDefaultTool(tool.name)).map((tool) => mcpTool(catalog, tool, false)),
    allTools: catalog.agentTools.map((tool) => mcpTool(catalog, tool, true)),
    protocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
    latestProtocolVersion: LATEST_PROTOCOL_VERSION,
  };
}

function mcpTool(catalog: ToolCatalog, tool: AnyTool, withOutputSchema: boolean): Tool {
  return {
    name: TOOL_PREFIX + tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: catalog.inputSchema(tool) as Tool['inputSchema'],
    ...(withOutputSchema ? { outputSchema: catalog.outputSchema(tool) as Tool['outputSchema'] } : {}),
    annotations: annotationsFor(tool),
  };
}

/** The tools/list answer of a surface. */
export function listedTools(manifest: McpManifest, surface: ToolSurface): Tool[] {
  return surface === 'all' ? manifest.allTools : manifest.tools;
}
