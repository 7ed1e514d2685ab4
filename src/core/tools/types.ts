import type { Workspace } from '../workspace';
import type { ChatModel } from '../agent/model';

/**
 * Who may call a tool. `read` changes nothing; `propose` writes proposals an agent may make
 * (candidates, usage confirmations); `review` is for people only (approve, publish, delete, install):
 * such tools are never offered to agents, and run from commands, views and the CLI.
 */
export type AccessClass = 'read' | 'propose' | 'review';

export type Actor = 'human' | 'copilot_agent' | 'external_agent';

/** A JSON Schema object (draft 2020-12 subset) describing a tool's input. */
export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  description?: string;
  additionalProperties?: boolean | JsonSchema;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  [k: string]: unknown;
};

export interface Progress {
  message?: string;
  /** Work done so far and the total, when known. */
  done?: number;
  total?: number;
}

/** What a handler gets besides its input. */
export interface ToolContext {
  actor: Actor;
  /** The channel the call came through, for the audit log and messages. */
  channel: 'vscode' | 'lm-tool' | 'chat' | 'mcp' | 'cli' | 'test';
  signal?: AbortSignal;
  progress?(p: Progress): void;
  /** The model AI-assisted tools use (VS Code chat, MCP sampling); without one they answer in diagnostic mode. */
  model?: ChatModel;
}

export interface ToolDefinition<I = any, O = any> {
  /** snake_case; MCP and language-model tools publish it as `autosnippet_<name>`. */
  name: string;
  title: string;
  /** Groups tools in `capabilities` and in docs: 'system', 'skills', 'knowledge', 'guard', 'graph', 'agent'. */
  domain: string;
  /** One line, for catalogs (level 1). */
  summary: string;
  /** The full description a model reads before calling the tool. */
  description: string;
  inputSchema: JsonSchema;
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
  /** Shown before a `propose` tool runs in VS Code. */
  confirmation?: (input: I) => { title: string; message: string };
  /**
   * The successful result as a model reads it, when plain text says it better than JSON (a skill's
   * Markdown, unescaped): MCP's text content, language-model tools and the chat agent send this, and
   * MCP also sends the envelope as structured content.
   */
  text?: (output: O) => string;
  handler(ws: Workspace, input: I, ctx: ToolContext): Promise<O> | O;
}

export interface ToolErrorBody {
  code: string;
  message: string;
  hint?: string;
  /** The offending input field, for INVALID_INPUT. */
  field?: string;
  details?: Record<string, unknown>;
}

export interface Truncation {
  /** The array or text field that was cut. */
  field: string;
  returned: number;
  total: number;
  unit: 'items' | 'chars';
  /** Pass this as `cursor` to get the next page (paged arrays only). */
  nextCursor?: number;
  hint: string;
}

/** The one envelope every tool result shares, whatever the channel. */
export type ToolResult<O = unknown> =
  | { ok: true; tool: string; data: O; truncated?: Truncation; notice?: string }
  | { ok: false; tool: string; error: ToolErrorBody; notice?: string };

export function defineTool<I, O>(def: ToolDefinition<I, O>): ToolDefinition<I, O> {
  return def;
}
