import type { CustomTool } from '../domains/custom-tools';
import { ensureIndexFresh, knowledgeHealthCounter } from '../domains/knowledge';
import { freshnessHealthCounter } from '../domains/knowledge/freshness';
import { AutoSnippetError, ErrorCode, type ErrorCode as ErrorCodeName } from '../ground/kernel/errors';
import { closestNames } from '../ground/kernel/names';
import { describeSchema, TOOL_PREFIX } from './catalog';
import { customSummary, customToolFor, listCustomTools } from './custom';
import { graphHealthCounter } from './graph';
import { Domain, Input, Name, Opt, Out, StringEnum, Type } from './schema';
import { skillsHealthCounter } from './skills-health';
import { DEFAULT_TOOLS } from './surface';
import type { JsonSchema } from './types';
import { type AccessClass, type AnyTool, defineTool, type HealthCounter } from './types';

const DOMAIN_ORDER = [
  'system',
  'skills',
  'knowledge',
  'search',
  'graph',
  'structure',
  'guard',
  'mcp',
  'agent',
  'custom',
];

/** Recipes and candidates from the index as stored, saying so while the recipe files are checked in the background. */
const recipeCounter: HealthCounter = async (ws) => {
  // No database yet: health reads, and reading creates nothing (the first search or sync indexes).
  if (!ws.store.state.created) return knowledgeHealthCounter(ws);
  const freshness = await ensureIndexFresh(ws);
  const counts = knowledgeHealthCounter(ws);
  return freshness.mayBeStale
    ? {
      counts,
      pending:
        'recipes: the recipe files are being checked for changes made since the index was last brought in line with them.',
    }
    : counts;
};

/** What health counts, contributed by each domain. */
const counters: HealthCounter[] = [skillsHealthCounter, recipeCounter, freshnessHealthCounter, graphHealthCounter];

const ACCESS = ['read', 'propose', 'review'] as const;

export const health = defineTool({
  name: 'health',
  title: 'AutoSnippet health',
  domain: 'system',
  summary: 'Version, workspace, database state and counts: call first to check AutoSnippet is ready.',
  description:
    'Reports the AutoSnippet version, the workspace root it serves, the state of its database (path, schema version, size, journal, whether a damaged file was recovered) and counts of what it knows (tools, skills, recipes, rules, and `stale`: recipes whose cited code changed since they were recorded). Call it first in a session, or when another tool behaves unexpectedly.',
  inputSchema: Input({}),
  outputSchema: Out({
    version: Type.String(),
    workspace: Out({
      root: Type.String(),
      dataDir: Type.String(),
      trusted: Type.Boolean({
        description:
          "Whether the folder's own guard rules and skill scripts may run: VS Code's workspace trust, or outside it `autosnippet trust` / --trust.",
      }),
      trust: Opt(Type.String({ description: 'What trusted the folder, or how to trust it.' })),
    }),
    database: Out({
      path: Type.String(),
      schemaVersion: Type.Integer(),
      imageBytes: Type.Integer(),
      journalBytes: Type.Integer(),
      sequence: Type.Integer(),
      status: StringEnum(['not-created', 'ok', 'recovered', 'lost-commit'], {
        description:
          'not-created until the first write (nothing is on disk before it); recovered when a damaged file was moved aside; lost-commit when an incomplete last commit was cut from the journal.',
      }),
      recovered: Opt(Domain<{ movedTo: string; reason: string }>('The damaged file that was moved aside, and why.')),
      lostCommit: Opt(
        Domain<{ sequence: number; savedTo: string; reason: string }>(
          'The incomplete last commit cut from the journal: its number, where its bytes were saved, and why.',
        ),
      ),
    }),
    counts: Type.Record(Type.String(), Type.Number()),
    model: Type.Boolean({
      description:
        "Whether this channel lends a language model to tools that write with one (VS Code's chat model, MCP sampling): without one, write_coldstart_cards answers in diagnostic mode and the agent writes the cards itself.",
    }),
    pending: Opt(
      Type.Array(Type.String(), {
        description:
          'Counts given from the index as stored while the files behind them are checked in the background (one line each); ask again in a moment for counts that include every change on disk.',
      }),
    ),
  }),
  access: 'read',
  maxOutputChars: 4000,
  async handler(ws, _input, ctx) {
    const counts: Record<string, number> = { tools: ctx.catalog.agentTools.length };
    const pending: string[] = [];
    for (const count of counters) {
      try {
        const c = await count(ws);
        if (typeof c.counts === 'object') {
          Object.assign(counts, c.counts);
          pending.push((c as { pending: string }).pending);
        } else Object.assign(counts, c);
      } catch (e) {
        ws.log.warn(`health: a counter failed: ${(e as Error).message}`);
      }
    }
    const s = ws.store.state;
    return {
      version: ws.version,
      model: ctx.model !== undefined,
      workspace: {
        root: ws.root,
        dataDir: ws.dataDir,
        trusted: ws.settings.trusted,
        ...(ws.settings.trustNote ? { trust: ws.settings.trustNote } : {}),
      },
      database: {
        path: s.path,
        // Nothing is written before the first write a person or an agent asks for.
        status: !s.created
          ? ('not-created' as const)
          : s.recovered
          ? ('recovered' as const)
          : s.lostCommit
          ? ('lost-commit' as const)
          : ('ok' as const),
        schemaVersion: s.schemaVersion,
        imageBytes: s.imageBytes,
        journalBytes: s.journalBytes,
        sequence: s.sequence,
        ...(s.recovered ? { recovered: s.recovered } : {}),
        ...(s.lostCommit ? { lostCommit: s.lostCommit } : {}),
      },
      counts,
      ...(pending.length ? { pending } : {}),
    };
  },
});

export const capabilities = defineTool({
  name: 'capabilities',
  title: 'AutoSnippet capabilities',
  domain: 'system',
  summary: 'Every tool with its one-line description, grouped by domain.',
  description:
    "Lists every tool you can call, grouped by domain (system, skills, knowledge, guard, …), with a one-line summary and its access class: read (changes nothing) or propose (records a proposal a person reviews). Tools reserved for people are listed separately with includeReview. For a tool's full description and input schema call get_tool_info.",
  inputSchema: Input({
    domain: Opt(Name('Only this domain, e.g. "skills" or "guard".')),
    includeReview: Opt(
      Type.Boolean({
        description: 'Also list the tools only people may run (approve, publish, delete…).',
        default: false,
      }),
    ),
  }),
  outputSchema: Out({
    prefix: Type.String(),
    domains: Type.Array(
      Out({
        domain: Type.String(),
        tools: Type.Array(Out({ name: Type.String(), summary: Type.String(), access: StringEnum(ACCESS) })),
      }),
    ),
  }),
  access: 'read',
  maxOutputChars: 12000,
  handler(_ws, input, ctx) {
    const all = ctx.catalog.capabilities(input.includeReview ? ['read', 'propose', 'review'] : ['read', 'propose']);
    const domains = Object.keys(all).sort((a, b) => rank(a) - rank(b));
    if (input.domain && !all[input.domain]) {
      throw new AutoSnippetError(
        'DOMAIN_NOT_FOUND',
        `There is no domain "${input.domain}".`,
        `Domains: ${domains.join(', ')}.`,
      );
    }
    return {
      prefix: 'Outside VS Code (MCP) every tool name carries the prefix "' + TOOL_PREFIX + '".',
      domains: domains.filter((d) => !input.domain || d === input.domain).map((d) => ({ domain: d, tools: all[d] })),
    };
  },
});

export const getToolInfo = defineTool({
  name: 'get_tool_info',
  title: 'Tool description and schema',
  domain: 'system',
  summary: "A tool's full description and input schema, on demand.",
  description:
    "Returns one tool's full description, its input schema, access class and output bound: what you need to call a tool from list_tools (directly, or through call_tool when your client does not list it).",
  inputSchema: Input({ name: Name('The tool name, with or without the autosnippet_ prefix.', { minLength: 1 }) }),
  outputSchema: Out({
    name: Type.String(),
    title: Type.String(),
    domain: Type.String(),
    access: StringEnum(ACCESS),
    description: Type.String(),
    inputSchema: Domain<JsonSchema>('The JSON Schema of the arguments.'),
    arguments: Type.String(),
    maxOutputChars: Type.Integer(),
    origin: Opt(StringEnum(['custom'], { description: "Set for the workspace's own tools (.autosnippet/tools)." })),
    file: Opt(Type.String()),
    sha256: Opt(Type.String()),
  }),
  aliases: { tool: 'name', toolName: 'name', tool_name: 'name' },
  access: 'read',
  maxOutputChars: 12000,
  async handler(ws, input, ctx) {
    const tool = ctx.catalog.get(input.name);
    const custom = tool ? undefined : await customToolFor(ws, input.name, ctx.catalog);
    if (custom) {
      if ('error' in custom) {
        throw new AutoSnippetError(custom.error.code as ErrorCodeName, custom.error.message, custom.error.hint);
      }
      const t = (await listCustomTools(ws, ctx.catalog)).find((c) => c.name === custom.tool.name)!;
      const schema = ctx.catalog.inputSchema(custom.tool);
      return {
        name: t.name,
        title: t.name,
        domain: 'custom',
        access: 'propose' as const,
        description: t.description ?? '',
        inputSchema: schema,
        arguments: describeSchema(schema),
        maxOutputChars: custom.tool.maxOutputChars,
        origin: 'custom' as const,
        file: t.file,
        ...(t.sha256 ? { sha256: t.sha256 } : {}),
      };
    }
    if (!tool) {
      const available = closestNames(input.name, ctx.catalog.tools.map((t) => t.name));
      throw new AutoSnippetError(
        'UNKNOWN_TOOL',
        `There is no tool named "${input.name.slice(0, 200)}".`,
        `Closest: ${available.slice(0, 5).join(', ')}.`,
        { available },
      );
    }
    const schema = ctx.catalog.inputSchema(tool);
    return {
      name: tool.name,
      title: tool.title,
      domain: tool.domain,
      access: tool.access as AccessClass,
      description: tool.description,
      inputSchema: schema,
      arguments: describeSchema(schema),
      maxOutputChars: tool.maxOutputChars,
    };
  },
});

export const listTools = defineTool({
  name: 'list_tools',
  title: 'AutoSnippet tool list',
  domain: 'system',
  summary: 'Every tool in one line, grouped by domain, and how to call the ones your client does not list.',
  description:
    'The level-1 tool catalog: every tool you may call, one line each, grouped by domain. `listed` names the tools clients show by default; call any other with call_tool {name, arguments}, after get_tool_info {name} for its arguments.',
  inputSchema: Input({ domain: Opt(Name('Only this domain, e.g. "skills" or "guard".')) }),
  outputSchema: Out({
    howToCall: Type.String(),
    listed: Type.Array(Type.String()),
    domains: Type.Array(
      Out({
        domain: Type.String(),
        tools: Type.Array(
          Out({
            name: Type.String(),
            summary: Type.String(),
            origin: Opt(StringEnum(['custom'], { description: "The workspace's own tools (.autosnippet/tools)." })),
            state: Opt(StringEnum(['untrusted', 'needs-approval', 'changed', 'ready', 'invalid'] as const)),
            file: Opt(Type.String()),
          }),
        ),
      }),
    ),
  }),
  access: 'read',
  maxOutputChars: 12000,
  async handler(ws, input, ctx) {
    const all: Record<
      string,
      { name: string; summary: string; origin?: 'custom'; state?: CustomTool['state']; file?: string }[]
    > = ctx.catalog.capabilities(['read', 'propose']);
    const custom = await listCustomTools(ws, ctx.catalog);
    if (custom.length) {
      all.custom = custom.map((t) => ({
        name: t.name,
        summary: customSummary(t),
        origin: 'custom' as const,
        state: t.state,
        file: t.file,
      }));
    }
    const domains = Object.keys(all).sort((a, b) => rank(a) - rank(b));
    if (input.domain && !all[input.domain]) {
      throw new AutoSnippetError(
        'DOMAIN_NOT_FOUND',
        `There is no domain "${input.domain}".`,
        `Domains: ${domains.join(', ')}.`,
      );
    }
    return {
      howToCall:
        `A tool your client lists: call it by name (prefix "${TOOL_PREFIX}" over MCP). Any other: get_tool_info {name} for its arguments, then call_tool {name, arguments}.`,
      listed: [...DEFAULT_TOOLS],
      domains: domains.filter((d) => !input.domain || d === input.domain).map((d) => ({
        domain: d,
        tools: all[d].map(({ name, summary, origin, state, file }) => ({
          name,
          summary,
          ...(origin ? { origin, state, file } : {}),
        })),
      })),
    };
  },
});

export const callTool = defineTool({
  name: 'call_tool',
  title: 'Call any AutoSnippet tool',
  domain: 'system',
  summary: 'Calls any tool by name with its arguments, for the tools your client does not list.',
  description:
    "Calls the tool `name` with `arguments` and answers exactly what that tool answers. The same checks apply as to a direct call: the tool's input schema, its output bound, and for writes the Gateway (tools for people only are refused). get_tool_info {name} gives the arguments; list_tools gives the names.",
  inputSchema: Input({
    name: Name('The tool to call, with or without the autosnippet_ prefix.', { minLength: 1 }),
    arguments: Opt(
      Type.Record(Type.String(), Type.Unknown(), {
        description: "The tool's arguments, as get_tool_info describes them.",
      }),
    ),
  }),
  outputSchema: Type.Unknown(),
  aliases: {
    tool: 'name',
    toolName: 'name',
    tool_name: 'name',
    args: 'arguments',
    input: 'arguments',
    params: 'arguments',
  },
  access: 'read',
  forwards: true,
  maxOutputChars: 4000,
  handler(ws, input, ctx) {
    if (ctx.catalog.get(input.name)?.forwards) {
      throw new AutoSnippetError(
        ErrorCode.InvalidInput,
        'call_tool calls another tool, not itself.',
        'Pass the tool to call as `name`, e.g. {"name": "get_targets", "arguments": {}}.',
        { field: 'name' },
      );
    }
    const { catalog, ...context } = ctx;
    return catalog.invoke(ws, input.name, input.arguments ?? {}, context);
  },
});

export const systemTools: AnyTool[] = [health, capabilities, getToolInfo, listTools, callTool];

function rank(domain: string): number {
  const i = DOMAIN_ORDER.indexOf(domain);
  return i === -1 ? DOMAIN_ORDER.length : i;
}
