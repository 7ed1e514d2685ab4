/**
 * Custom tools in the catalog (origin `custom`): listed by list_tools, described by get_tool_info,
 * called by call_tool (or by name) with the same checks as a catalog tool (its input schema, its
 * output bound, the Gateway and the audit, as a `propose` tool) and run on their own worker thread.
 * A person approves each file with approve_custom_tool, a people-only tool: no agent can.
 */
import type { ValidateFunction } from 'ajv';
import { approve, type CustomTool, customTools, revoke, toolNameOf, TOOLS_DIR } from '../domains/custom-tools';
import { AutoSnippetError } from '../ground/kernel/errors';
import type { Workspace } from '../ground/workspace';
import { FilePath, Input, Opt, Out, StringEnum, Type } from './schema';
import { type AnyTool, type CatalogView, defineTool, type ToolErrorBody } from './types';

/** A custom tool's answer is cut to this bound, as a catalog tool's is to its own. */
export const CUSTOM_MAX_OUTPUT_CHARS = 20_000;
const STATES = ['untrusted', 'needs-approval', 'changed', 'ready', 'invalid'] as const;

/** A custom tool whose name a catalog tool already has never runs (the catalog's wins); it is listed as invalid. */
function withCatalogNames(tool: CustomTool, catalog: CatalogView): CustomTool {
  if (!catalog.get(tool.name)) return tool;
  return {
    ...tool,
    state: 'invalid',
    problem: `${tool.file}: AutoSnippet has a tool named ${tool.name}; rename the file`,
  };
}

export async function listCustomTools(ws: Workspace, catalog: CatalogView): Promise<CustomTool[]> {
  return (await customTools(ws).list()).map((t) => withCatalogNames(t, catalog));
}

/** One line for list_tools: the description's first line when it runs, else what stops it. */
export function customSummary(t: CustomTool): string {
  switch (t.state) {
    case 'ready': {
      const line = (t.description ?? '').trim().split('\n')[0];
      return line.length > 160 ? `${line.slice(0, 157)}…` : line;
    }
    case 'untrusted':
      return 'Not loaded: the folder is not trusted.';
    case 'needs-approval':
      return `Needs a person's approval before it runs (autosnippet tools approve ${t.file}).`;
    case 'changed':
      return `Changed since a person approved it: needs approval again (autosnippet tools approve ${t.file}).`;
    default:
      return `Invalid: ${t.problem ?? 'see get_tool_info'}`;
  }
}

/** Why a custom tool cannot run here, as the error a caller gets; nothing when it is ready. */
export function customToolRefusal(t: CustomTool, ws: Workspace): ToolErrorBody | undefined {
  const approveHint =
    `Ask the person to read the file and approve it: autosnippet tools approve ${t.file} (or AutoSnippet: Approve Custom Tools in VS Code). An agent cannot approve it.`;
  switch (t.state) {
    case 'ready':
      return undefined;
    case 'untrusted':
      return {
        code: 'CUSTOM_TOOLS_UNTRUSTED',
        message: `The custom tool ${t.name} (${t.file}) is not loaded: ${
          ws.settings.trustNote ?? 'the folder is not trusted'
        }.`,
        hint: 'If the person trusts the repository, they trust the folder, then approve the tool file.',
      };
    case 'needs-approval':
      return {
        code: 'CUSTOM_TOOL_NOT_APPROVED',
        message: `No person has approved the custom tool ${t.name} (${t.file}, sha256 ${t.sha256}).`,
        hint: approveHint,
      };
    case 'changed':
      return {
        code: 'CUSTOM_TOOL_CHANGED',
        message: `${t.file} changed since a person approved it (sha256 is now ${t.sha256}), so ${t.name} does not run.`,
        hint: approveHint,
      };
    default:
      return {
        code: 'INVALID_CUSTOM_TOOL',
        message: t.problem ?? `${t.file} is not a valid custom tool.`,
        hint:
          'A tool file exports { description, inputSchema (JSON Schema, type "object"), handler(input, { root }) }; docs/custom-tools.md shows one.',
      };
  }
}

/**
 * The custom tool of that name as a catalog tool (the catalog then runs it as it runs its own), its
 * refusal when it cannot run here, or nothing when there is no such file.
 */
export async function customToolFor(
  ws: Workspace,
  name: string,
  catalog: CatalogView,
): Promise<{ tool: AnyTool; validate: ValidateFunction } | { error: ToolErrorBody; tool: string } | undefined> {
  const registry = customTools(ws);
  const loaded = await registry.find(name);
  if (!loaded) return undefined;
  const t = withCatalogNames(loaded.tool, catalog);
  const refusal = customToolRefusal(t, ws);
  if (refusal || !loaded.validate) {
    return { tool: t.name, error: refusal ?? { code: 'INVALID_CUSTOM_TOOL', message: `${t.file} is not valid.` } };
  }
  const tool: AnyTool = {
    name: t.name,
    title: t.name,
    domain: 'custom',
    summary: customSummary(t),
    description: t.description ?? '',
    inputSchema: t.inputSchema as never,
    outputSchema: Type.Unknown(),
    access: 'propose',
    maxOutputChars: CUSTOM_MAX_OUTPUT_CHARS,
    handler: (_ws, input, ctx) => registry.run(loaded, input, ctx.signal),
  };
  return { tool, validate: loaded.validate };
}

/** `find_owner`, `find-owner.mjs` or `.autosnippet/tools/find-owner.mjs` → the file in the tools folder. */
function fileOf(ws: Workspace, given: string): string {
  const files = customTools(ws).files();
  const base = given.replace(/\\/g, '/').split('/').pop()!;
  const found = files.find((f) => f === given.replace(/\\/g, '/') || f.endsWith(`/${base}`))
    ?? files.find((f) => toolNameOf(f) === given);
  if (!found) {
    throw new AutoSnippetError(
      'NOT_FOUND',
      `There is no custom tool file "${given}" in ${TOOLS_DIR}/.`,
      files.length ? `Files: ${files.join(', ')}.` : `Put tools in ${TOOLS_DIR}/NAME.mjs.`,
    );
  }
  return found;
}

export const approveCustomToolTool = defineTool({
  name: 'approve_custom_tool',
  title: 'Approve a custom tool file',
  domain: 'custom',
  summary: "A person's confirmation that a custom tool file may run (its SHA-256 is remembered), or its withdrawal.",
  description:
    "Records that a person read a custom tool file of .autosnippet/tools/ and lets it run: its SHA-256 is kept in the person's ~/.autosnippet/tool-approvals.json (never in the repository), so a changed file needs approving again. "
    + 'Pass the sha256 the person was shown: a file that changed since is refused. `revoke: true` takes the approval back. People only; a trusted folder only.',
  inputSchema: Input({
    file: FilePath('The tool file (.autosnippet/tools/NAME.mjs), its file name, or the tool name.', { minLength: 1 }),
    sha256: Opt(
      Type.String({ pattern: '^[0-9a-f]{64}$', maxLength: 64, description: 'The hash the person was shown.' }),
    ),
    revoke: Opt(Type.Boolean({ description: 'Take the approval back instead.', default: false })),
    dryRun: Opt(
      Type.Boolean({ description: "Approve nothing: answer the file's text and hash, to show the person." }),
    ),
  }),
  outputSchema: Out({
    name: Type.String(),
    file: Type.String(),
    sha256: Opt(Type.String()),
    state: StringEnum(STATES),
    problem: Opt(Type.String()),
    revoked: Opt(Type.Boolean()),
    text: Opt(Type.String({ description: 'With dryRun: the whole file, as it will run.' })),
  }),
  access: 'review',
  // A dry run answers the whole file (at most 512 KB) for the person to read.
  maxOutputChars: 600_000,
  async handler(ws, input, ctx) {
    const file = fileOf(ws, input.file);
    const registry = customTools(ws);
    if (input.revoke) {
      const revoked = revoke(ws.root, file);
      const t = (await registry.find(toolNameOf(file)))!.tool;
      return { name: t.name, file, ...(t.sha256 ? { sha256: t.sha256 } : {}), state: t.state, revoked };
    }
    if (!ws.settings.trusted) {
      throw new AutoSnippetError(
        'CUSTOM_TOOLS_UNTRUSTED',
        `Custom tools run only in a trusted folder: ${ws.settings.trustNote ?? 'this folder is not trusted'}.`,
        "Trust the folder first (autosnippet trust, or VS Code's workspace trust), then approve the file.",
      );
    }
    const { sha256, text } = registry.read(file);
    if (input.dryRun) return { name: toolNameOf(file), file, sha256, state: 'needs-approval' as const, text };
    if (input.sha256 && input.sha256 !== sha256) {
      throw new AutoSnippetError(
        'CUSTOM_TOOL_CHANGED',
        `${file} changed since it was shown (sha256 ${input.sha256}; now ${sha256}); nothing was approved.`,
        'Read the file again and approve what it is now.',
      );
    }
    approve(ws.root, file, sha256);
    const t = withCatalogNames((await registry.find(toolNameOf(file)))!.tool, ctx.catalog);
    return { name: t.name, file, sha256, state: t.state, ...(t.problem ? { problem: t.problem } : {}) };
  },
});

export const customToolTools: AnyTool[] = [approveCustomToolTool];
