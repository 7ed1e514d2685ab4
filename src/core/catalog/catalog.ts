import type { Static, TObject, TSchema } from '@sinclair/typebox';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { performance } from 'node:perf_hooks';
import { Gateway } from '../domains/gateway/gateway';
import { isAgent } from '../ground/kernel/actors';
import { AutoSnippetError, ErrorCode } from '../ground/kernel/errors';
import { closestNames } from '../ground/kernel/names';
import type { Workspace } from '../ground/workspace';
import { fitToBound } from './bound';
import { customToolFor } from './custom';
import type { AccessClass, AnyTool, JsonSchema, ToolContext, ToolDefinition, ToolErrorBody, ToolResult } from './types';

import { TOOL_PREFIX } from '../ground/kernel/result';

export { TOOL_PREFIX };

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
  private readonly byName = new Map<string, AnyTool>();
  private readonly validators = new Map<string, ValidateFunction>();
  /** Calls running now, and when the last one started or ended (precompileInputs works in the quiet between). */
  private callsInFlight = 0;
  private lastCallAt = 0;
  // No check of our own schemas against the JSON Schema meta-schema on every start: compiling that
  // meta-schema took 250 ms of an agent's first call (the schemas are checked once, in the tests).
  private readonly ajv = new Ajv({
    allErrors: false,
    strict: false,
    useDefaults: true,
    coerceTypes: false,
    validateSchema: false,
  });

  constructor(tools: readonly AnyTool[]) {
    for (const t of tools) {
      if (this.byName.has(t.name)) throw new Error(`tool declared twice: ${t.name}`);
      if (!/^[a-z][a-z0-9_]*$/.test(t.name)) throw new Error(`tool name must be snake_case: ${t.name}`);
      this.byName.set(t.name, t);
    }
  }

  get tools(): AnyTool[] {
    return [...this.byName.values()];
  }

  /** Tools an agent may be offered: everything but `review` (people only). */
  get agentTools(): AnyTool[] {
    return this.tools.filter((t) => t.access !== 'review');
  }

  get(name: string): AnyTool | undefined {
    return this.byName.get(name.startsWith(TOOL_PREFIX) ? name.slice(TOOL_PREFIX.length) : name);
  }

  /** The input schema adapters publish (plain JSON): the declared one plus `cursor` for paged tools. */
  inputSchema(tool: AnyTool): JsonSchema {
    const schema = plainJson({ type: 'object', properties: {}, ...tool.inputSchema }) as JsonSchema;
    if (tool.paginate) schema.properties = { ...schema.properties, cursor: cursorProperty };
    return schema;
  }

  /**
   * The schema of a whole answer (MCP `outputSchema`, matched by `structuredContent`): the result
   * envelope, whose `data` is the tool's declared output when `ok` is true.
   */
  outputSchema(tool: AnyTool): JsonSchema {
    return plainJson({
      type: 'object',
      properties: {
        ok: { type: 'boolean' },
        tool: { type: 'string' },
        data: tool.paginate ? withPageFields(tool.outputSchema) : tool.outputSchema,
        truncated: truncationSchema,
        error: errorBodySchema,
      },
      required: ['ok', 'tool'],
      oneOf: [
        { properties: { ok: { const: true } }, required: ['data'] },
        { properties: { ok: { const: false } }, required: ['error'] },
      ],
    }) as JsonSchema;
  }

  /** A typed call for in-process callers: the tool's definition, not its name, gives input and output types. */
  call<I extends TObject, O extends TSchema>(
    ws: Workspace,
    tool: ToolDefinition<I, O>,
    input: Static<I> & { cursor?: number },
    ctx: ToolContext,
  ): Promise<ToolResult<Static<O>>> {
    if (this.byName.get(tool.name) !== tool) throw new Error(`${tool.name} is not a tool of this catalog`);
    return this.invoke(ws, tool.name, input, ctx) as Promise<ToolResult<Static<O>>>;
  }

  async invoke(ws: Workspace, name: string, rawInput: unknown, ctx: ToolContext): Promise<ToolResult> {
    let tool = this.get(name);
    let validate: ValidateFunction | undefined;
    if (!tool) {
      // The workspace's own tools (.autosnippet/tools) come after every catalog tool, which none can shadow.
      const bare = name.startsWith(TOOL_PREFIX) ? name.slice(TOOL_PREFIX.length) : name;
      const custom = /^[a-z][a-z0-9_]*$/.test(bare) ? await customToolFor(ws, bare, this) : undefined;
      if (!custom) return this.unknownTool(ws, name, rawInput, ctx);
      if ('error' in custom) return failure(custom.tool, custom.error);
      ({ tool, validate } = custom);
    }
    this.callsInFlight++;
    this.lastCallAt = performance.now();
    try {
      const result = await this.invokeTool(ws, tool, rawInput, ctx, validate);
      // A forwarded answer is the called tool's own, already within that tool's bound.
      return result.ok || result.tool !== tool.name ? result : errorWithinBound(result, tool.maxOutputChars);
    } finally {
      this.callsInFlight--;
      this.lastCallAt = performance.now();
    }
  }

  private async invokeTool(
    ws: Workspace,
    tool: AnyTool,
    rawInput: unknown,
    ctx: ToolContext,
    validate?: ValidateFunction,
  ): Promise<ToolResult> {
    if (ctx.signal?.aborted) {
      return failure(tool.name, { code: ErrorCode.Cancelled, message: 'The call was cancelled before it started.' });
    }
    // An agent's attempt at a people-only tool is refused and audited before anything else, malformed or not.
    if (tool.access === 'review' && isAgent(ctx.actor)) return Gateway.for(ws).refuse(tool.name, rawInput, ctx);

    const input = this.prepareInput(tool, rawInput, validate);
    if (!input.ok) return failure(tool.name, input.error);
    const { cursor, ...args } = input.value as Record<string, unknown> & { cursor?: number };

    if (tool.forwards) {
      try {
        return (await tool.handler(ws, input.value, { ...ctx, catalog: this })) as ToolResult;
      } catch (e) {
        return failure(tool.name, toErrorBody(e));
      }
    }
    const execute = async (): Promise<ToolResult> => {
      let data: unknown;
      try {
        await ws.storeReady; // the MCP server answers before its store has opened
        data = await tool.handler(ws, tool.paginate ? args : input.value, { ...ctx, catalog: this });
      } catch (e) {
        return failure(tool.name, toErrorBody(e));
      }
      const fitted = fitToBound(data, tool.maxOutputChars, tool.paginate, tool.paginate ? (cursor ?? 0) : undefined);
      if (!fitted.fits) {
        return failure(tool.name, {
          code: ErrorCode.OutputTooLarge,
          message: `The answer of ${tool.name} does not fit its bound of ${tool.maxOutputChars} characters, even cut.`,
          hint: 'Ask for less: a filter, a smaller limit, one section or chunk.',
        });
      }
      return fitted.truncated
        ? { ok: true, tool: tool.name, data: fitted.data, truncated: fitted.truncated }
        : { ok: true, tool: tool.name, data: fitted.data };
    };
    if (tool.access === 'read' || tool.writes?.(ctx) === false) return execute();
    // Every write, whatever the channel, passes the Gateway; if the Gateway fails, the write does not happen.
    try {
      const result = await Gateway.for(ws).run(tool, input.value as Record<string, unknown>, ctx, execute);
      const notice = ws.takeCreationNotice(); // the write that created .autosnippet/ says so
      return notice ? { ...result, notice } : result;
    } catch (e) {
      return failure(tool.name, {
        code: 'GATEWAY_UNAVAILABLE',
        message: `The write was refused: the Gateway failed (${(e as Error).message}).`,
        hint: 'Check the AutoSnippet log; nothing was changed.',
      });
    }
  }

  /**
   * UNKNOWN_TOOL with the closest names. A name that only spells a people-only tool differently
   * (`approveCandidate`, `approve-candidate`, `autosnippet.approve_candidate`) is that tool: an agent is
   * refused with PERMISSION_DENIED and the attempt is audited like a call by its proper name.
   */
  private unknownTool(
    ws: Workspace,
    name: string,
    rawInput: unknown,
    ctx: ToolContext,
  ): Promise<ToolResult> | ToolResult {
    const review = this.tools.filter((t) => t.access === 'review');
    const meant = review.find((t) => t.name === canonicalToolName(name));
    if (meant && isAgent(ctx.actor)) return Gateway.for(ws).refuse(meant.name, rawInput, ctx, name);
    const shown = name.length > 80 ? `${name.slice(0, 80)}…` : name;
    return failure(shown, {
      code: ErrorCode.UnknownTool,
      message: `There is no tool named "${shown}".`,
      hint: `Call list_tools to see the tools. Closest: ${
        closestNames(canonicalToolName(name), [...this.byName.keys()], 3).join(', ')
      }`,
    });
  }

  /**
   * Compiles the input validators of these tools (default: every tool an agent may call) before their
   * first call, a tool per turn of the event loop, pausing while calls run or ran in the last `quietMs`,
   * so a busy stretch of calls is not slowed by it. A server calls it after start, so an agent's first call (usually after some thinking)
   * does not wait for Ajv: 2–25 ms a tool, 140 ms for all of them.
   */
  async precompileInputs(names: string[] = this.agentTools.map((t) => t.name), quietMs = 50): Promise<void> {
    for (const name of names) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      while (this.callsInFlight > 0 || performance.now() - this.lastCallAt < quietMs) {
        await new Promise<void>((resolve) => setTimeout(resolve, quietMs));
      }
      const tool = this.get(name);
      if (tool) this.validatorOf(tool);
    }
  }

  private validatorOf(tool: AnyTool): ValidateFunction {
    let validate = this.validators.get(tool.name);
    if (!validate) {
      validate = this.ajv.compile(this.inputSchema(tool));
      this.validators.set(tool.name, validate);
    }
    return validate;
  }

  /** `validate`: a validator compiled elsewhere (a custom tool's, whose schema changes with its file). */
  private prepareInput(
    tool: AnyTool,
    raw: unknown,
    validator?: ValidateFunction,
  ): { ok: true; value: unknown } | { ok: false; error: ToolErrorBody } {
    if (raw === undefined || raw === null) raw = {};
    if (typeof raw !== 'object' || Array.isArray(raw)) {
      return {
        ok: false,
        error: {
          code: ErrorCode.InvalidInput,
          message: `${tool.name} takes an object of named arguments.`,
          hint: describeSchema(this.inputSchema(tool)),
        },
      };
    }
    const deep = deeperThan(raw, MAX_INPUT_DEPTH);
    if (deep) {
      return {
        ok: false,
        error: {
          code: ErrorCode.InvalidInput,
          message:
            `Invalid input for ${tool.name}: the arguments are nested deeper than ${MAX_INPUT_DEPTH} levels (at "${deep}").`,
          hint: describeSchema(this.inputSchema(tool)),
          field: deep.split('.')[0],
        },
      };
    }
    const value: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
    for (const [alias, canonical] of Object.entries(tool.aliases ?? {})) {
      if (alias in value) {
        if (!(canonical in value)) value[canonical] = value[alias];
        delete value[alias];
      }
    }
    const validate = validator ?? this.validatorOf(tool);
    if (!validate(value)) {
      const err = validate.errors?.[0];
      const field = err ? fieldOf(err) : undefined;
      // A batch's schema bound is the Gateway's bound; an oversize batch gets the Gateway's answer (how to split), not a schema complaint.
      if (tool.batch && err?.keyword === 'maxItems' && field === tool.batch.field && Array.isArray(value[field])) {
        const got = (value[field] as unknown[]).length;
        return {
          ok: false,
          error: {
            code: 'BATCH_TOO_LARGE',
            message: `${tool.name} takes at most ${tool.batch.max} items in ${field}; got ${got}.`,
            hint: `Split the batch into calls of ${tool.batch.max} or fewer.`,
            field,
          },
        };
      }
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
    const notes = [
      result.truncated
        ? `[Cut to fit the output bound: ${result.truncated.returned} of ${result.truncated.total} ${result.truncated.unit} of ${result.truncated.field}.]`
        : '',
      result.notice ?? '',
    ].filter(Boolean);
    return [text(result.data), ...notes].join('\n\n');
  }

  /** Level-1 catalog: every tool an actor may use, one line each, grouped by domain. */
  capabilities(
    access: AccessClass[] = ['read', 'propose', 'review'],
  ): Record<string, { name: string; summary: string; access: AccessClass }[]> {
    const out: Record<string, { name: string; summary: string; access: AccessClass }[]> = {};
    for (const t of this.tools) {
      if (!access.includes(t.access)) continue;
      (out[t.domain] ??= []).push({ name: t.name, summary: t.summary, access: t.access });
    }
    return out;
  }
}

/** A paged answer's data says whether more follows and where, beside the page itself. */
function withPageFields(schema: JsonSchema): JsonSchema {
  const pageFields = {
    hasMore: {
      type: 'boolean',
      description: 'True when more items follow: call again with the same arguments and `cursor: nextCursor`.',
    },
    nextCursor: { type: 'integer', description: 'The `cursor` of the next page; present while hasMore is true.' },
  };
  return { ...schema, properties: { ...(schema.properties as Record<string, unknown>), ...pageFields } } as JsonSchema;
}

const truncationSchema = {
  type: 'object',
  properties: {
    field: { type: 'string' },
    returned: { type: 'integer' },
    total: { type: 'integer' },
    unit: { enum: ['items', 'chars'] },
    nextCursor: { type: 'integer' },
    hint: { type: 'string' },
  },
  required: ['field', 'returned', 'total', 'unit', 'hint'],
};

const errorBodySchema = {
  type: 'object',
  properties: {
    code: { type: 'string' },
    message: { type: 'string' },
    hint: { type: 'string' },
    field: { type: 'string' },
    details: { type: 'object' },
  },
  required: ['code', 'message'],
};

/** A schema as plain JSON (TypeBox marks its schemas with symbol keys that JSON drops). */
function plainJson(schema: object): object {
  return JSON.parse(JSON.stringify(schema));
}

/** No tool's arguments nest deeper than this; deeper input is refused before anything walks it. */
export const MAX_INPUT_DEPTH = 16;

/** The path where `value` nests deeper than `max`, found without recursion (a 50,000-deep input must not overflow the stack). */
function deeperThan(value: unknown, max: number): string | undefined {
  const stack: { v: unknown; depth: number; path: string }[] = [{ v: value, depth: 0, path: '' }];
  while (stack.length) {
    const { v, depth, path } = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > max) return path || '(input)';
    for (const [k, x] of Object.entries(v)) {
      if (typeof x === 'object' && x !== null) stack.push({ v: x, depth: depth + 1, path: path ? `${path}.${k}` : k });
    }
  }
  return undefined;
}

/**
 * `approveCandidate`, `approve-candidate`, `autosnippet.approve_candidate` → `approve_candidate`; so are
 * the forms clients prefix tools with: `mcp__autosnippet__approve_candidate`, `functions.approve_candidate`,
 * `autosnippet_autosnippet_approve_candidate`, `AutoSnippet_approveCandidate`.
 */
export function canonicalToolName(name: string): string {
  return name
    .slice(0, 200)
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .replace(/^(mcp_autosnippet_|functions_)?(auto_?snippet_)*/, '');
}

function failure(tool: string, error: ToolErrorBody): ToolResult {
  return { ok: false, tool, error };
}

/**
 * An error answer fits its tool's bound as a result does. Messages quote what was asked for, and JSON
 * escaping can make a quote six times longer (a NUL is `\u0000`): details go first, then the hint and,
 * if still needed, the message are cut to the longest start that fits, marked with "…". The code and
 * the field stay whole.
 */
function errorWithinBound(result: Extract<ToolResult, { ok: false }>, maxChars: number): ToolResult {
  const size = (r: ToolResult) => JSON.stringify(r).length;
  if (size(result) <= maxChars) return result;
  const { details: _details, ...error } = result.error;
  let fitted: Extract<ToolResult, { ok: false }> = { ...result, error };
  for (const key of ['hint', 'message'] as const) {
    const text = fitted.error[key];
    if (!text || size(fitted) <= maxChars) continue;
    const cut = (n: number) => ({ ...fitted, error: { ...fitted.error, [key]: `${text.slice(0, n)}…` } });
    let lo = 0;
    let hi = text.length - 1;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (size(cut(mid)) <= maxChars) lo = mid;
      else hi = mid - 1;
    }
    fitted = cut(lo);
    if (key === 'hint' && lo === 0) delete fitted.error.hint;
  }
  return fitted;
}

export function toErrorBody(e: unknown): ToolErrorBody {
  if (e instanceof AutoSnippetError) {
    return {
      code: e.code,
      message: e.message,
      ...(e.hint ? { hint: e.hint } : {}),
      ...(e.details ? { details: e.details } : {}),
    };
  }
  const message = e instanceof Error ? e.message : String(e);
  return {
    code: ErrorCode.Internal,
    message: `Internal error: ${message}`,
    hint: 'This is a bug in AutoSnippet; the log has details.',
  };
}

/** Longest field path an error repeats: an unknown key can be megabytes long, and the error must fit its bound. */
const MAX_FIELD_CHARS = 100;

function fieldOf(err: ErrorObject): string | undefined {
  const base = err.instancePath.replace(/^\//, '').replace(/\//g, '.');
  let field = base;
  if (err.keyword === 'required') {
    field = [base, (err.params as { missingProperty: string }).missingProperty].filter(Boolean).join('.');
  }
  if (err.keyword === 'additionalProperties') {
    field = [base, (err.params as { additionalProperty: string }).additionalProperty].filter(Boolean).join('.');
  }
  return field.length > MAX_FIELD_CHARS ? `${field.slice(0, MAX_FIELD_CHARS)}…` : field || undefined;
}

function explain(err: ErrorObject, field: string | undefined): string {
  switch (err.keyword) {
    case 'required':
      return `missing required field "${field}"`;
    case 'additionalProperties':
      return `unknown field "${field}"`;
    case 'enum':
      return `field "${field}" must be one of ${
        (err.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')
      }`;
    default:
      return `field "${field ?? '(input)'}" ${err.message ?? 'is invalid'}`;
  }
}

/** "name: string (required), limit: integer" — enough for a model to correct its call. */
export function describeSchema(schema: JsonSchema): string {
  const req = new Set(schema.required ?? []);
  const props = Object.entries(schema.properties ?? {});
  if (props.length === 0) return 'This tool takes no arguments: pass {}.';
  return 'Arguments: '
    + props.map(([k, v]) =>
      `${k}: ${Array.isArray(v.type) ? v.type.join('|') : v.type ?? 'any'}${
        v.enum ? ` (${v.enum.map((x) => JSON.stringify(x)).join('|')})` : ''
      }${req.has(k) ? ' (required)' : ''}`
    ).join(', ') + '.';
}
