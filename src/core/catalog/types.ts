import type { ChatModel } from '../domains/agent/model';
import type { AccessClass, Actor, Channel } from '../ground/kernel/actors';
import type { JsonSchema, ToolResult } from '../ground/kernel/result';
import type { Workspace } from '../ground/workspace';
export type { JsonSchema, ToolErrorBody, ToolResult, Truncation } from '../ground/kernel/result';
import type { Static, TObject, TSchema } from '@sinclair/typebox';

export type { AccessClass } from '../ground/kernel/actors';

export interface Progress {
  message?: string;
  /** Work done so far and the total, when known. */
  done?: number;
  total?: number;
}

/**
 * Something health can count in a workspace (skills, recipes, rules…), contributed by each domain:
 * the counts, or the counts with `pending` when they came from the index as stored while the files
 * are being checked (what is being checked, for the reader).
 */
export type HealthCount = Record<string, number> | { counts: Record<string, number>; pending: string };
export type HealthCounter = (ws: Workspace) => HealthCount | Promise<HealthCount>;

/** What a handler gets besides its input. */
export interface ToolContext {
  actor: Actor;
  /** The channel the call came through, for the audit log and messages. */
  channel: Channel;
  signal?: AbortSignal;
  progress?(p: Progress): void;
  /** The model AI-assisted tools use (VS Code chat, MCP sampling); without one they answer in diagnostic mode. */
  model?: ChatModel;
  /**
   * Asks the person at the other end whether to go on (a modal in VS Code, MCP elicitation where the
   * client offers it) and answers their yes; absent where no person can be asked.
   */
  confirm?(question: { title: string; message: string }, signal?: AbortSignal): Promise<boolean>;
}

/** What a handler gets: the caller's context and the catalog it runs in (for tools that call tools). */
export interface HandlerContext extends ToolContext {
  catalog: CatalogView;
}

/**
 * The catalog as a handler sees it (ToolCatalog is one): declared here, beside the tools it holds, so
 * the tool types and the catalog class do not import each other.
 */
export interface CatalogView {
  readonly tools: AnyTool[];
  readonly agentTools: AnyTool[];
  get(name: string): AnyTool | undefined;
  inputSchema(tool: AnyTool): JsonSchema;
  capabilities(access?: AccessClass[]): Record<string, { name: string; summary: string; access: AccessClass }[]>;
  invoke(ws: Workspace, name: string, rawInput: unknown, ctx: ToolContext): Promise<ToolResult>;
}

/**
 * One tool, declared once: its input and output schemas are TypeBox schemas, so they are at once the
 * JSON Schema that Ajv validates and MCP publishes, and the TypeScript types of the handler.
 */
export interface ToolDefinition<I extends TObject = TObject, O extends TSchema = TSchema> {
  /** snake_case; MCP and language-model tools publish it as `autosnippet_<name>`. */
  name: string;
  title: string;
  /** Groups tools in `capabilities` and in docs: 'system', 'skills', 'knowledge', 'guard', 'graph', 'agent'. */
  domain: string;
  /** One line, for catalogs (level 1). */
  summary: string;
  /** The full description a model reads before calling the tool. */
  description: string;
  inputSchema: I;
  /** The shape of `data` in a successful result (MCP `outputSchema`, inside the result envelope). */
  outputSchema: O;
  access: AccessClass;
  /** Bound on the serialized result in characters; a larger result is cut at a clean boundary. */
  maxOutputChars: number;
  /**
   * Name of the top-level array in the result that the catalog pages. When set, the catalog adds an
   * optional `cursor` input, slices the array from it, and says how to get the rest when the page
   * does not fit the bound.
   */
  paginate?: string;
  /** Input names some agents already use, mapped to ours: `{ skillName: 'name' }`. */
  aliases?: Record<string, string>;
  /**
   * Removes or overwrites reviewed knowledge: the Gateway then requires `confirm: true` in the input
   * (declare it in the schema), whoever the actor is.
   */
  destructive?: boolean;
  /** A batch write: the Gateway refuses more than `max` items in `input[field]`. */
  batch?: { field: string; max: number };
  /**
   * Its only write is a derived record (a guard scan summary). While `.autosnippet/` does not exist the
   * store keeps such a record in memory, and the Gateway keeps its audit lines with it: both reach disk
   * with the first real write, so a read-mostly session leaves the repository untouched.
   */
  derivedWrite?: boolean;
  /**
   * False when a `propose` tool's call cannot write on this channel (it answers in diagnostic mode):
   * the call then runs as a read, so no audit line is written and `.autosnippet/` is not created. The
   * handler must branch on the same predicate.
   */
  writes?: (ctx: ToolContext) => boolean;
  /**
   * A generic call (`call_tool`): the handler calls another tool through the catalog, and its answer is
   * that tool's own result, neither wrapped nor bounded again, so the envelope, the Gateway's checks and
   * the audit line carry the real tool's name.
   */
  forwards?: boolean;
  /** Shown before a `propose` tool runs in VS Code. */
  confirmation?: (input: Static<I>) => { title: string; message: string };
  /**
   * The successful result as a model reads it, when plain text says it better than JSON (a skill's
   * Markdown, unescaped): MCP's text content, language-model tools and the chat agent send this; MCP
   * sends the envelope as structured content either way.
   */
  text?: (output: Static<O>) => string;
  handler(ws: Workspace, input: Static<I>, ctx: HandlerContext): Promise<Static<O>> | Static<O>;
}

/** Any tool, for lists of tools of different types. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = ToolDefinition<any, any>;

/** The TypeScript type of a tool's input and of its result's `data`. */
export type InputOf<T> = T extends { inputSchema: infer I extends TSchema } ? Static<I> : never;
export type OutputOf<T> = T extends { outputSchema: infer O extends TSchema } ? Static<O> : never;

export function defineTool<I extends TObject, O extends TSchema>(def: ToolDefinition<I, O>): ToolDefinition<I, O> {
  return def;
}
