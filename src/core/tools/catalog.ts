import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { Workspace } from '../workspace';
import { AutoSnippetError, ErrorCode } from '../errors';
import { fitToBound } from './bound';
import { Gateway } from '../gateway/gateway';
import type { AccessClass, JsonSchema, ToolContext, ToolDefinition, ToolErrorBody, ToolResult } from './types';

/** The prefix every tool carries outside the core (MCP, language-model tools). */
export const TOOL_PREFIX = 'autosnippet_';

const cursorProperty: JsonSchema = {
  type: 'integer',
  minimum: 0,
  description: 'Where to continue a paged result: the `nextCursor` of the previous answer.',
};

/**
 * The one list of tools. Every adapter (MCP, language-model tools, chat agent, CLI) is generated from
 * it, and every call goes through `invoke`: aliases, schema validation, the handler, the output bound.
 */
export class ToolCatalog {
  private readonly byName = new Map<string, ToolDefinition>();
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly ajv = new Ajv({ allErrors: false, strict: false, useDefaults: true, coerceTypes: false });

  constructor(tools: readonly ToolDefinition[]) {
    for (const t of tools) {
      if (this.byName.has(t.name)) throw new Error(`tool declared twice: ${t.name}`);
      if (!/^[a-z][a-z0-9_]*$/.test(t.name)) throw new Error(`tool name must be snake_case: ${t.name}`);
      this.byName.set(t.name, t);
    }
  }

  get tools(): ToolDefinition[] {
    return [...this.byName.values()];
  }

  /** Tools an agent may be offered: everything but `review` (people only). */
  get agentTools(): ToolDefinition[] {
    return this.tools.filter((t) => t.access !== 'review');
  }

  get(name: string): ToolDefinition | undefined {
    return this.byName.get(name.startsWith(TOOL_PREFIX) ? name.slice(TOOL_PREFIX.length) : name);
  }

  /** The schema adapters publish: the declared one plus `cursor` for paged tools. */
  inputSchema(tool: ToolDefinition): JsonSchema {
    const schema = { type: 'object', properties: {}, ...tool.inputSchema } as JsonSchema;
    if (tool.paginate) schema.properties = { ...schema.properties, cursor: cursorProperty };
    return schema;
  }

  async invoke(ws: Workspace, name: string, rawInput: unknown, ctx: ToolContext): Promise<ToolResult> {
    const tool = this.get(name);
    if (!tool) {
      return failure(name, {
        code: ErrorCode.UnknownTool,
        message: `There is no tool named "${name}".`,
        hint: `Call capabilities to see the tools. Closest: ${closest(name.replace(TOOL_PREFIX, ''), [...this.byName.keys()]).slice(0, 3).join(', ')}`,
      });
    }
    if (ctx.signal?.aborted) return failure(tool.name, { code: ErrorCode.Cancelled, message: 'The call was cancelled before it started.' });

    const input = this.prepareInput(tool, rawInput);
    if (!input.ok) return failure(tool.name, input.error);
    const { cursor, ...args } = input.value as Record<string, unknown> & { cursor?: number };

    const execute = async (): Promise<ToolResult> => {
      let data: unknown;
      try {
        await ws.storeReady; // the MCP server answers before its store has opened
        data = await tool.handler(ws, tool.paginate ? args : input.value, ctx);
      } catch (e) {
        return failure(tool.name, toErrorBody(e));
      }
      const fitted = fitToBound(data, tool.maxOutputChars, tool.paginate, tool.paginate ? (cursor ?? 0) : undefined);
      return fitted.truncated ? { ok: true, tool: tool.name, data: fitted.data, truncated: fitted.truncated } : { ok: true, tool: tool.name, data: fitted.data };
    };
    if (tool.access === 'read') return execute();
    // Every write, whatever the channel, passes the Gateway; if the Gateway fails, the write does not happen.
    try {
      const result = await Gateway.for(ws).run(tool, input.value as Record<string, unknown>, ctx, execute);
      const notice = ws.takeCreationNotice(); // the write that created .autosnippet/ says so
      return notice ? { ...result, notice } : result;
    } catch (e) {
      return failure(tool.name, { code: 'GATEWAY_UNAVAILABLE', message: `The write was refused: the Gateway failed (${(e as Error).message}).`, hint: 'Check the AutoSnippet log; nothing was changed.' });
    }
  }

  private prepareInput(tool: ToolDefinition, raw: unknown): { ok: true; value: unknown } | { ok: false; error: ToolErrorBody } {
    if (raw === undefined || raw === null) raw = {};
    if (typeof raw !== 'object' || Array.isArray(raw)) {
      return { ok: false, error: { code: ErrorCode.InvalidInput, message: `${tool.name} takes an object of named arguments.`, hint: describeSchema(this.inputSchema(tool)) } };
    }
    const value: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
    for (const [alias, canonical] of Object.entries(tool.aliases ?? {})) {
      if (alias in value) {
        if (!(canonical in value)) value[canonical] = value[alias];
        delete value[alias];
      }
    }
    let validate = this.validators.get(tool.name);
    if (!validate) {
      validate = this.ajv.compile(this.inputSchema(tool));
      this.validators.set(tool.name, validate);
    }
    if (!validate(value)) {
      const err = validate.errors?.[0];
      const field = err ? fieldOf(err) : undefined;
      return {
        ok: false,
        error: {
          code: ErrorCode.InvalidInput,
          message: `Invalid input for ${tool.name}: ${err ? explain(err, field) : 'does not match the schema'}.`,
          hint: describeSchema(this.inputSchema(tool)),
          field,
        },
      };
    }
    return { ok: true, value };
  }

  /**
   * A result as text for a model: a tool's text form when it has one and the call succeeded (with a
   * line saying what the output bound cut), else the JSON envelope.
   */
  resultText(result: ToolResult): string {
    const text = result.ok ? this.byName.get(result.tool)?.text : undefined;
    if (!text || !result.ok) return JSON.stringify(result);
    const notes = [result.truncated ? `[Cut to fit the output bound: ${result.truncated.returned} of ${result.truncated.total} ${result.truncated.unit} of ${result.truncated.field}.]` : '', result.notice ?? ''].filter(Boolean);
    return [text(result.data), ...notes].join('\n\n');
  }

  /** Level-1 catalog: every tool an actor may use, one line each, grouped by domain. */
  capabilities(access: AccessClass[] = ['read', 'propose', 'review']): Record<string, { name: string; summary: string; access: AccessClass }[]> {
    const out: Record<string, { name: string; summary: string; access: AccessClass }[]> = {};
    for (const t of this.tools) {
      if (!access.includes(t.access)) continue;
      (out[t.domain] ??= []).push({ name: t.name, summary: t.summary, access: t.access });
    }
    return out;
  }
}

function failure(tool: string, error: ToolErrorBody): ToolResult {
  return { ok: false, tool, error };
}

export function toErrorBody(e: unknown): ToolErrorBody {
  if (e instanceof AutoSnippetError) {
    return { code: e.code, message: e.message, ...(e.hint ? { hint: e.hint } : {}), ...(e.details ? { details: e.details } : {}) };
  }
  const message = e instanceof Error ? e.message : String(e);
  return { code: ErrorCode.Internal, message: `Internal error: ${message}`, hint: 'This is a bug in AutoSnippet; the log has details.' };
}

function fieldOf(err: ErrorObject): string | undefined {
  const base = err.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (err.keyword === 'required') return [base, (err.params as { missingProperty: string }).missingProperty].filter(Boolean).join('.');
  if (err.keyword === 'additionalProperties') return [base, (err.params as { additionalProperty: string }).additionalProperty].filter(Boolean).join('.');
  return base || undefined;
}

function explain(err: ErrorObject, field: string | undefined): string {
  switch (err.keyword) {
    case 'required':
      return `missing required field "${field}"`;
    case 'additionalProperties':
      return `unknown field "${field}"`;
    case 'enum':
      return `field "${field}" must be one of ${(err.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return `field "${field ?? '(input)'}" ${err.message ?? 'is invalid'}`;
  }
}

/** "name: string (required), limit: integer" — enough for a model to correct its call. */
export function describeSchema(schema: JsonSchema): string {
  const req = new Set(schema.required ?? []);
  const props = Object.entries(schema.properties ?? {});
  if (props.length === 0) return 'This tool takes no arguments: pass {}.';
  return 'Arguments: ' + props.map(([k, v]) => `${k}: ${Array.isArray(v.type) ? v.type.join('|') : v.type ?? 'any'}${v.enum ? ` (${v.enum.map((x) => JSON.stringify(x)).join('|')})` : ''}${req.has(k) ? ' (required)' : ''}`).join(', ') + '.';
}

/** Names ordered by closeness to `name` (edit distance), for "did you mean" hints. */
export function closest(name: string, names: string[]): string[] {
  return [...names].sort((a, b) => editDistance(name, a) - editDistance(name, b) || a.localeCompare(b));
}

export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length];
}
