import { mcpServers } from '../domains/servers/manager';
import { AutoSnippetError } from '../ground/kernel/errors';
import { Domain, Input, Name, Opt, Out, StringEnum, Type } from './schema';
import { type AnyTool, defineTool } from './types';

/** A remote tool's answer is cut to this many characters of text, so one call cannot flood the agent's context. */
const MAX_REMOTE_TEXT = 30_000;

export const listMcpServersTool = defineTool({
  name: 'list_mcp_servers',
  title: 'List other MCP servers',
  domain: 'mcp',
  summary:
    'Level 1 of other MCP servers: name, one line and tool count of each server in .autosnippet/mcp.json and ~/.autosnippet/mcp.json.',
  description:
    'Lists the other MCP servers this project and the person configured (the `mcpServers` format, in .autosnippet/mcp.json and ~/.autosnippet/mcp.json): each with its origin, transport, state (not-started, connected, down, disabled and why) and, once connected, its tool count. Nothing is started. '
    + "Next: get_mcp_instructions for a server's instructions and tools, then call_mcp_tool.",
  inputSchema: Input({}),
  outputSchema: Out({
    servers: Domain<unknown[]>('name, origin, transport, state, summary, tools, reason', 'array'),
    problems: Type.Array(Type.String()),
  }),
  access: 'read',
  maxOutputChars: 12_000,
  async handler(ws) {
    return mcpServers(ws).list();
  },
});

export const getMcpInstructionsTool = defineTool({
  name: 'get_mcp_instructions',
  title: "Read an MCP server's instructions and tools",
  domain: 'mcp',
  summary:
    "Level 2: start (if needed) one server and answer its instructions and its tools' definitions, each with its permission here.",
  description:
    "Connects to the server (a project server only in a trusted folder) and answers its instructions (the configured ones first, then the server's own) and every tool's name, description, input schema and permission: "
    + "`allow` runs, `ask` waits for a person (a person calling, or VS Code's confirmation), `deny` never runs. Tools the server marks read-only are `allow` unless the configuration says otherwise.",
  inputSchema: Input({ server: Name("The server's name, from list_mcp_servers.") }),
  outputSchema: Out({
    name: Type.String(),
    instructions: Opt(Type.String()),
    tools: Domain<unknown[]>('name, description, inputSchema, permission', 'array'),
  }),
  access: 'read',
  maxOutputChars: 60_000,
  paginate: 'tools',
  async handler(ws, input) {
    return mcpServers(ws).describe(input.server);
  },
});

export const callMcpToolTool = defineTool({
  name: 'call_mcp_tool',
  title: "Call another MCP server's tool",
  domain: 'mcp',
  summary: 'Level 3: call one tool of another MCP server, within its permission (writes wait for a person).',
  description:
    "Calls `tool` of `server` with `arguments` and answers the server's content (text cut at 30,000 characters). A tool whose permission is `deny` is refused; one whose permission is `ask` runs only when a person agrees "
    + "(the CLI, VS Code's confirmation, or the MCP client's question to its user where it supports elicitation): where no person can be asked the agent gets NEEDS_APPROVAL and should ask the person to allow it in ~/.autosnippet/mcp.json or run it themselves.",
  inputSchema: Input({
    server: Name("The server's name, from list_mcp_servers."),
    tool: Name("The tool's name, from get_mcp_instructions.", { maxLength: 128 }),
    arguments: Opt(Domain<Record<string, unknown>>("The tool's arguments, as its input schema says.", 'object')),
  }),
  outputSchema: Out({
    server: Type.String(),
    tool: Type.String(),
    isError: Type.Boolean(),
    content: Domain<unknown[]>("The server's content parts (text cut to fit).", 'array'),
    permission: StringEnum(['allow', 'ask'] as const),
  }),
  aliases: { args: 'arguments', name: 'tool', input: 'arguments' },
  access: 'propose',
  maxOutputChars: 40_000,
  confirmation: (input) => ({
    title: "Call another MCP server's tool?",
    message: `Call ${input.tool} on the MCP server "${input.server}"${
      input.arguments ? ` with ${JSON.stringify(input.arguments).slice(0, 300)}` : ''
    }?`,
  }),
  async handler(ws, input, ctx) {
    const servers = mcpServers(ws);
    const { permission } = await servers.tool(input.server, input.tool);
    if (permission === 'deny') {
      throw new AutoSnippetError(
        'PERMISSION_DENIED',
        `${input.tool} of "${input.server}" is denied by its configuration.`,
        'Change "permissions" in the mcp.json that names the server, if the person agrees.',
      );
    }
    // VS Code shows the catalog's confirmation before a language-model tool runs: that is the person's yes.
    let approved = ctx.actor === 'human' || ctx.channel === 'lm-tool';
    if (permission === 'ask' && !approved && ctx.confirm) {
      const question = {
        title: `Let the agent call ${input.tool} on "${input.server}"?`,
        message: `The agent asks to call ${input.tool} of the MCP server "${input.server}"${
          input.arguments ? ` with ${JSON.stringify(input.arguments).slice(0, 500)}` : ''
        }. It may change things.`,
      };
      approved = await ctx.confirm(question, ctx.signal);
      if (!approved) {
        throw new AutoSnippetError(
          'PERMISSION_DENIED',
          `The person declined the call of ${input.tool} on "${input.server}".`,
          'Do not call it again for this task unless the person asks you to.',
        );
      }
    }
    if (permission === 'ask' && !approved) {
      throw new AutoSnippetError(
        'NEEDS_APPROVAL',
        `${input.tool} of "${input.server}" may change things, so a person approves each call.`,
        `Ask the person to run it (autosnippet call call_mcp_tool '{"server": "${input.server}", "tool": "${input.tool}"}') or to allow it in ~/.autosnippet/mcp.json ("permissions": {"tools": {"${input.tool}": "allow"}}).`,
      );
    }
    const r = await servers.call(input.server, input.tool, input.arguments ?? {}, ctx.signal);
    return {
      server: input.server,
      tool: input.tool,
      isError: r.isError === true,
      content: boundedContent(r.content),
      permission: permission as 'allow' | 'ask',
    };
  },
});

function boundedContent(parts: unknown[]): unknown[] {
  let left = MAX_REMOTE_TEXT;
  const out: unknown[] = [];
  for (const p of parts) {
    const part = p as { type?: string; text?: string };
    if (part.type === 'text' && typeof part.text === 'string') {
      if (left <= 0) break;
      out.push({ type: 'text', text: part.text.length > left ? `${part.text.slice(0, left)}… (cut)` : part.text });
      left -= part.text.length;
    } else out.push({ type: part.type ?? 'unknown', note: 'not text: left out' });
  }
  return out;
}

export const serverTools: AnyTool[] = [listMcpServersTool, getMcpInstructionsTool, callMcpToolTool];
