import { defineTool, type ToolDefinition } from './types';
import type { ToolCatalog } from './catalog';
import { describeSchema, closest, TOOL_PREFIX } from './catalog';
import { AutoSnippetError } from '../errors';
import type { Workspace } from '../workspace';

/** Something health can count in a workspace (skills, recipes, rules…), contributed by each domain. */
export type HealthCounter = (ws: Workspace) => Record<string, number> | Promise<Record<string, number>>;

const DOMAIN_ORDER = ['system', 'skills', 'knowledge', 'search', 'graph', 'structure', 'guard', 'agent'];

/** The tools that describe AutoSnippet itself. They need the catalog they belong to, hence the getter. */
export function systemTools(catalog: () => ToolCatalog, counters: HealthCounter[]): ToolDefinition[] {
  return [
    defineTool({
      name: 'health',
      title: 'AutoSnippet health',
      domain: 'system',
      summary: 'Version, workspace, database state and counts: call first to check AutoSnippet is ready.',
      description:
        'Reports the AutoSnippet version, the workspace root it serves, the state of its database (path, schema version, size, journal, whether a damaged file was recovered) and counts of what it knows (tools, skills, recipes, rules, and `stale`: recipes whose cited code changed since they were recorded). Takes no arguments. Call it first in a session, or when another tool behaves unexpectedly.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      access: 'read',
      maxOutputChars: 4000,
      async handler(ws) {
        const counts: Record<string, number> = { tools: catalog().agentTools.length };
        for (const count of counters) {
          try {
            Object.assign(counts, await count(ws));
          } catch (e) {
            ws.log.warn(`health: a counter failed: ${(e as Error).message}`);
          }
        }
        const s = ws.store.state;
        return {
          version: ws.version,
          workspace: { root: ws.root, dataDir: ws.dataDir, trusted: ws.settings.trusted },
          database: {
            path: s.path,
            // Nothing is written before the first write a person or an agent asks for.
            status: !s.created ? 'not-created' : s.recovered ? 'recovered' : s.lostCommit ? 'lost-commit' : 'ok',
            schemaVersion: s.schemaVersion,
            imageBytes: s.imageBytes,
            journalBytes: s.journalBytes,
            sequence: s.sequence,
            ...(s.recovered ? { recovered: s.recovered } : {}),
            ...(s.lostCommit ? { lostCommit: s.lostCommit } : {}),
          },
          counts,
        };
      },
    }),
    defineTool({
      name: 'capabilities',
      title: 'AutoSnippet capabilities',
      domain: 'system',
      summary: 'Every tool with its one-line description, grouped by domain.',
      description:
        'Lists every tool you can call, grouped by domain (system, skills, knowledge, guard, …), with a one-line summary and its access class: read (changes nothing) or propose (records a proposal a person reviews). Tools reserved for people are listed separately with includeReview. For a tool\'s full description and input schema call get_tool_info.',
      inputSchema: {
        type: 'object',
        properties: {
          domain: { type: 'string', description: 'Only this domain, e.g. "skills" or "guard".' },
          includeReview: { type: 'boolean', description: 'Also list the tools only people may run (approve, publish, delete…).', default: false },
        },
        additionalProperties: false,
      },
      access: 'read',
      maxOutputChars: 12000,
      handler(_ws, input: { domain?: string; includeReview?: boolean }) {
        const all = catalog().capabilities(input.includeReview ? ['read', 'propose', 'review'] : ['read', 'propose']);
        const domains = Object.keys(all).sort((a, b) => rank(a) - rank(b));
        if (input.domain && !all[input.domain]) {
          throw new AutoSnippetError('DOMAIN_NOT_FOUND', `There is no domain "${input.domain}".`, `Domains: ${domains.join(', ')}.`);
        }
        return {
          prefix: 'Outside VS Code (MCP) every tool name carries the prefix "' + TOOL_PREFIX + '".',
          domains: domains.filter((d) => !input.domain || d === input.domain).map((d) => ({ domain: d, tools: all[d] })),
        };
      },
    }),
    defineTool({
      name: 'get_tool_info',
      title: 'Tool description and schema',
      domain: 'system',
      summary: "A tool's full description and input schema, on demand.",
      description:
        'Returns one tool\'s full description, its input schema, access class and output bound. Use it when the one-line summary from capabilities is not enough to call the tool correctly.',
      inputSchema: {
        type: 'object',
        properties: { name: { type: 'string', description: 'The tool name, with or without the autosnippet_ prefix.' } },
        required: ['name'],
        additionalProperties: false,
      },
      aliases: { tool: 'name', toolName: 'name', tool_name: 'name' },
      access: 'read',
      maxOutputChars: 12000,
      handler(_ws, input: { name: string }) {
        const cat = catalog();
        const tool = cat.get(input.name);
        if (!tool) {
          const names = cat.tools.map((t) => t.name);
          throw new AutoSnippetError('UNKNOWN_TOOL', `There is no tool named "${input.name}".`, `Closest: ${closest(input.name, names).slice(0, 5).join(', ')}.`, { available: closest(input.name, names) });
        }
        const schema = cat.inputSchema(tool);
        return { name: tool.name, title: tool.title, domain: tool.domain, access: tool.access, description: tool.description, inputSchema: schema, arguments: describeSchema(schema), maxOutputChars: tool.maxOutputChars };
      },
    }),
  ];
}

function rank(domain: string): number {
  const i = DOMAIN_ORDER.indexOf(domain);
  return i === -1 ? DOMAIN_ORDER.length : i;
}
