/**
 * The one envelope every tool result shares, whatever the channel, and the JSON Schema shape the
 * catalog and the agent exchange. Kernel types: the agent layer reads results without importing tools.
 */
import type { ErrorCode } from './errors';

/** The prefix every tool carries outside the core (MCP, language-model tools, the agent's tool names). */
export const TOOL_PREFIX = 'autosnippet_';

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

export interface ToolErrorBody {
  code: ErrorCode;
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

/**
 * The one envelope every tool result shares, whatever the channel. `notice` says something the caller
 * did not ask about but should know (the write that created `.autosnippet/`).
 */
export type ToolResult<O = unknown> =
  | { ok: true; tool: string; data: O; truncated?: Truncation; notice?: string }
  | { ok: false; tool: string; error: ToolErrorBody; notice?: string };
