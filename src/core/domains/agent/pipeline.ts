/**
 * TaskPipeline: a DAG of tool steps. `dependsOn` orders the steps into topological layers; the steps
 * of one layer run in parallel. A step's parameters may reference earlier results, as a function of
 * the context or as a `'step:path'` string (`'input:path'` reads the pipeline's input). `when` skips a
 * step; `errorStrategy` `fail` stops the pipeline after the layer, `continue` records the failure and
 * goes on (references into a failed or skipped step read `undefined`). `retries` with `retryDelay`
 * repeat a failed call. Everything is checked before anything runs: unknown steps, tools and
 * references, and cycles, are rejected with PIPELINE_INVALID.
 */
import { AutoSnippetError, ErrorCode, isErrorCode } from '../../ground/kernel/errors';
import type { JsonSchema, ToolErrorBody, ToolResult } from '../../ground/kernel/result';
import { abortableDelay } from './model';

export type StepStatus = 'ok' | 'failed' | 'skipped' | 'cancelled' | 'not_run';

export interface PipelineContext {
  /** The pipeline's input. */
  readonly input: Readonly<Record<string, unknown>>;
  /** The `data` of every finished step, by id. */
  readonly results: Readonly<Record<string, unknown>>;
  status(stepId: string): StepStatus | undefined;
  /** Whether a tool takes an argument (so a pipeline passes optional ones only where they fit). */
  accepts(tool: string, argument: string): boolean;
}

/** A parameter computed from the context. */
export type ParamFunction = (ctx: PipelineContext) => unknown;

export interface PipelineStep {
  id: string;
  /** A catalog tool name. */
  tool: string;
  description?: string;
  dependsOn?: readonly string[];
  /** Literal values, `'step:path'` references, functions, `literal(...)`; or one function for them all. */
  params?: Record<string, unknown> | ((ctx: PipelineContext) => Record<string, unknown>);
  /** Runs the step only when true (a function, or a `'step:path'` reference read for truthiness). */
  when?: ((ctx: PipelineContext) => boolean) | string;
  errorStrategy?: 'fail' | 'continue';
  /** Further attempts after a failed one (errors that cannot change on retry are not retried). */
  retries?: number;
  /** Milliseconds between attempts. */
  retryDelay?: number;
}

export interface PipelineDefinition {
  name: string;
  /** One line, for catalogs. */
  summary: string;
  description?: string;
  /** The input `run_pipeline` accepts for it. */
  inputSchema?: JsonSchema;
  steps: readonly PipelineStep[];
}

export type StepExecutor = (tool: string, params: Record<string, unknown>, signal?: AbortSignal) => Promise<ToolResult>;

export type PipelineEvent =
  | { type: 'pipeline_started'; pipeline: string; layers: string[][] }
  | { type: 'step_started'; step: string; tool: string; layer: number; attempt: number }
  | { type: 'step_retry'; step: string; attempt: number; error: ToolErrorBody; delayMs: number }
  | {
    type: 'step_finished';
    step: string;
    status: StepStatus;
    ms: number;
    attempts: number;
    error?: ToolErrorBody;
    reason?: string;
  }
  | { type: 'pipeline_finished'; pipeline: string; status: PipelineRun['status']; ms: number };

export interface StepOutcome {
  id: string;
  tool: string;
  layer: number;
  status: StepStatus;
  attempts: number;
  ms: number;
  data?: unknown;
  error?: ToolErrorBody;
  /** Why a step was skipped or not run. */
  reason?: string;
}

export interface PipelineRun {
  pipeline: string;
  status: 'ok' | 'failed' | 'cancelled';
  layers: string[][];
  steps: StepOutcome[];
  ms: number;
  /** The step whose failure (errorStrategy fail) stopped the pipeline. */
  failedStep?: string;
}

export interface RunPipelineOptions {
  execute: StepExecutor;
  input?: Record<string, unknown>;
  signal?: AbortSignal;
  onEvent?(event: PipelineEvent): void;
  /** Rejects unknown tools before anything runs. */
  hasTool?(name: string): boolean;
  /** Answers `ctx.accepts`; default: every argument is accepted. */
  accepts?(tool: string, argument: string): boolean;
}

/** Codes a retry cannot change. */
const FINAL_CODES = new Set([
  ErrorCode.InvalidInput,
  ErrorCode.UnknownTool,
  ErrorCode.PermissionDenied,
  ErrorCode.Cancelled,
  'CONFIRMATION_REQUIRED',
  'BATCH_TOO_LARGE',
  'PARAMS_FAILED',
]);

// ------------------------------------------------------------------ references

/** A value passed as is, even a string that looks like a `'step:path'` reference. */
export class Literal {
  constructor(readonly value: unknown) {}
}
export const literal = (value: unknown) => new Literal(value);

const SEGMENT = String.raw`(?:[A-Za-z_$*][\w$*-]*|\d+)`;
const REFERENCE = new RegExp(String.raw`^([A-Za-z_][\w-]*):(${SEGMENT}(?:\.${SEGMENT}|\[\d+\])*)?$`);

export interface Reference {
  source: string;
  path: string[];
}

/** `'bootstrap:candidates.*.id'` → { source: 'bootstrap', path: ['candidates', '*', 'id'] }. */
export function parseReference(value: string): Reference | undefined {
  const m = REFERENCE.exec(value);
  if (!m) return undefined;
  const path = (m[2] ?? '').replace(/\[(\d+)\]/g, '.$1').split('.').filter(Boolean);
  return { source: m[1], path };
}

/** Reads a path; `*` maps over an array (and flattens one level). */
export function readPath(value: unknown, path: readonly string[]): unknown {
  let current: unknown = value;
  for (let i = 0; i < path.length; i++) {
    if (current === null || current === undefined) return undefined;
    const key = path[i];
    if (key === '*') {
      if (!Array.isArray(current)) return undefined;
      const rest = path.slice(i + 1);
      return current.flatMap((item) => {
        const v = readPath(item, rest);
        return v === undefined ? [] : Array.isArray(v) && rest.includes('*') ? v : [v];
      });
    }
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function referencesIn(value: unknown, out: Reference[] = []): Reference[] {
  if (typeof value === 'string') {
    const ref = parseReference(value);
    if (ref) out.push(ref);
  } else if (Array.isArray(value)) {
    for (const v of value) referencesIn(v, out);
  } else if (isPlainObject(value)) {
    for (const v of Object.values(value)) referencesIn(v, out);
  }
  return out;
}

function resolveValue(value: unknown, ctx: PipelineContext): unknown {
  if (value instanceof Literal) return value.value;
  if (typeof value === 'function') return (value as ParamFunction)(ctx);
  if (typeof value === 'string') {
    const ref = parseReference(value);
    if (!ref) return value;
    return readPath(ref.source === 'input' ? ctx.input : ctx.results[ref.source], ref.path);
  }
  if (Array.isArray(value)) return value.map((v) => resolveValue(v, ctx));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const resolved = resolveValue(v, ctx);
      if (resolved !== undefined) out[k] = resolved;
    }
    return out;
  }
  return value;
}

// ------------------------------------------------------------------ plan

export interface PipelinePlan {
  layers: string[][];
  layerOf: Map<string, number>;
}

/** Checks a definition and orders it into layers; throws PIPELINE_INVALID naming every problem. */
export function planPipeline(def: PipelineDefinition, hasTool?: (name: string) => boolean): PipelinePlan {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const step of def.steps) {
    if (!/^[A-Za-z_][\w-]*$/.test(step.id ?? '')) {
      problems.push(`step id "${step.id}" must be a word (letters, digits, _ and -)`);
    } else if (step.id === 'input') problems.push('"input" is reserved for the pipeline\'s input; rename the step');
    else if (ids.has(step.id)) problems.push(`step "${step.id}" is declared twice`);
    ids.add(step.id);
    if (hasTool && !hasTool(step.tool)) problems.push(`step "${step.id}" uses the unknown tool "${step.tool}"`);
  }
  for (const step of def.steps) {
    for (const dep of step.dependsOn ?? []) {
      if (!ids.has(dep)) problems.push(`step "${step.id}" depends on the unknown step "${dep}"`);
    }
  }

  // Kahn's algorithm, layer by layer; what remains is on a cycle.
  const layerOf = new Map<string, number>();
  const layers: string[][] = [];
  let remaining = def.steps.filter((s) => ids.has(s.id));
  while (remaining.length) {
    const ready = remaining.filter((s) => (s.dependsOn ?? []).every((d) => layerOf.has(d) || !ids.has(d)));
    if (ready.length === 0) {
      problems.push(`the steps ${remaining.map((s) => `"${s.id}"`).join(', ')} depend on each other in a cycle`);
      break;
    }
    layers.push(ready.map((s) => s.id));
    for (const s of ready) layerOf.set(s.id, layers.length - 1);
    remaining = remaining.filter((s) => !layerOf.has(s.id));
  }

  // A reference must name the input or a step that certainly finished before: an ancestor.
  const byId = new Map(def.steps.map((s) => [s.id, s]));
  const ancestors = (id: string, seen = new Set<string>()): Set<string> => {
    for (const d of byId.get(id)?.dependsOn ?? []) {
      if (seen.has(d)) continue;
      seen.add(d);
      ancestors(d, seen);
    }
    return seen;
  };
  for (const step of def.steps) {
    const refs = [
      ...(typeof step.params === 'function' ? [] : referencesIn(step.params)),
      ...(typeof step.when === 'string' ? referencesIn(step.when) : []),
    ];
    if (typeof step.when === 'string' && !parseReference(step.when)) {
      problems.push(`step "${step.id}": when "${step.when}" is not a 'step:path' reference`);
    }
    const before = refs.length && layerOf.has(step.id) ? ancestors(step.id) : new Set<string>();
    for (const ref of refs) {
      const text = `'${ref.source}:${ref.path.join('.')}'`;
      if (ref.source === 'input') continue;
      if (!ids.has(ref.source)) {
        problems.push(
          `step "${step.id}" references the unknown step "${ref.source}" in ${text} (wrap a plain string containing ":" in literal())`,
        );
      } else if (ref.source === step.id) problems.push(`step "${step.id}" references its own result in ${text}`);
      else if (layerOf.has(step.id) && !before.has(ref.source)) {
        problems.push(
          `step "${step.id}" references "${ref.source}" in ${text} but does not depend on it; add it to dependsOn`,
        );
      }
    }
  }
  if (problems.length) {
    throw new AutoSnippetError(
      'PIPELINE_INVALID',
      `Pipeline "${def.name}" is invalid: ${problems.join('; ')}.`,
      'Fix the definition; nothing was run.',
      { problems },
    );
  }
  return { layers, layerOf };
}

// ------------------------------------------------------------------ run

export async function runPipeline(def: PipelineDefinition, options: RunPipelineOptions): Promise<PipelineRun> {
  const plan = planPipeline(def, options.hasTool);
  const started = Date.now();
  const emit = (e: PipelineEvent) => options.onEvent?.(e);
  const input = options.input ?? {};
  const outcomes = new Map<string, StepOutcome>();
  const results: Record<string, unknown> = {};
  const ctx: PipelineContext = {
    input,
    results,
    status: (id) => outcomes.get(id)?.status,
    accepts: (tool, arg) => options.accepts?.(tool, arg) ?? true,
  };
  const byId = new Map(def.steps.map((s) => [s.id, s]));
  let status: PipelineRun['status'] = 'ok';
  let failedStep: string | undefined;

  emit({ type: 'pipeline_started', pipeline: def.name, layers: plan.layers });
  for (let layer = 0; layer < plan.layers.length; layer++) {
    const ids = plan.layers[layer];
    if (status !== 'ok' || options.signal?.aborted) {
      if (status === 'ok') status = 'cancelled';
      for (const id of ids) {
        outcomes.set(id, {
          id,
          tool: byId.get(id)!.tool,
          layer,
          status: 'not_run',
          attempts: 0,
          ms: 0,
          reason: status === 'cancelled' ? 'the pipeline was cancelled' : `step "${failedStep}" failed`,
        });
      }
      continue;
    }
    const finished = await Promise.all(ids.map((id) => runStep(byId.get(id)!, layer, ctx, options, emit)));
    for (const outcome of finished) {
      outcomes.set(outcome.id, outcome);
      if (outcome.status === 'ok') results[outcome.id] = outcome.data;
    }
    for (const outcome of finished) {
      if (outcome.status === 'cancelled') status = 'cancelled';
      else if (
        outcome.status === 'failed' && (byId.get(outcome.id)!.errorStrategy ?? 'fail') === 'fail' && status === 'ok'
      ) {
        status = 'failed';
        failedStep = outcome.id;
      }
    }
  }
  const ms = Date.now() - started;
  emit({ type: 'pipeline_finished', pipeline: def.name, status, ms });
  return {
    pipeline: def.name,
    status,
    layers: plan.layers,
    steps: def.steps.map((s) => outcomes.get(s.id)!),
    ms,
    ...(failedStep ? { failedStep } : {}),
  };
}

async function runStep(
  step: PipelineStep,
  layer: number,
  ctx: PipelineContext,
  options: RunPipelineOptions,
  emit: (e: PipelineEvent) => void,
): Promise<StepOutcome> {
  const started = Date.now();
  const base = { id: step.id, tool: step.tool, layer };
  const finish = (outcome: Omit<StepOutcome, 'id' | 'tool' | 'layer' | 'ms'>): StepOutcome => {
    const full = { ...base, ...outcome, ms: Date.now() - started };
    emit({
      type: 'step_finished',
      step: step.id,
      status: full.status,
      ms: full.ms,
      attempts: full.attempts,
      ...(full.error ? { error: full.error } : {}),
      ...(full.reason ? { reason: full.reason } : {}),
    });
    return full;
  };

  let params: Record<string, unknown>;
  try {
    if (step.when !== undefined) {
      const go = typeof step.when === 'function' ? step.when(ctx) : Boolean(resolveValue(step.when, ctx));
      if (!go) return finish({ status: 'skipped', attempts: 0, reason: 'its condition (when) is false' });
    }
    params = (typeof step.params === 'function'
      ? step.params(ctx)
      : (resolveValue(step.params ?? {}, ctx) as Record<string, unknown>)) ?? {};
  } catch (e) {
    return finish({
      status: 'failed',
      attempts: 0,
      error: {
        code: 'PARAMS_FAILED',
        message: `The parameters of step "${step.id}" could not be computed: ${(e as Error).message}`,
      },
    });
  }

  const attempts = 1 + Math.max(0, step.retries ?? 0);
  let error: ToolErrorBody = { code: ErrorCode.Internal, message: 'not run' };
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (options.signal?.aborted) return finish({ status: 'cancelled', attempts: attempt - 1 });
    emit({ type: 'step_started', step: step.id, tool: step.tool, layer, attempt });
    let result: ToolResult;
    try {
      result = await options.execute(step.tool, params, options.signal);
    } catch (e) {
      result = { ok: false, tool: step.tool, error: { code: codeOf(e), message: (e as Error).message ?? String(e) } };
    }
    if (result.ok) return finish({ status: 'ok', attempts: attempt, data: result.data });
    error = result.error;
    if (options.signal?.aborted || error.code === ErrorCode.Cancelled) {
      return finish({ status: 'cancelled', attempts: attempt, error });
    }
    if (FINAL_CODES.has(error.code) || attempt === attempts) {
      return finish({ status: 'failed', attempts: attempt, error });
    }
    const delayMs = step.retryDelay ?? 0;
    emit({ type: 'step_retry', step: step.id, attempt, error, delayMs });
    try {
      if (delayMs > 0) await abortableDelay(delayMs, options.signal);
    } catch {
      return finish({ status: 'cancelled', attempts: attempt, error });
    }
  }
  return finish({ status: 'failed', attempts, error });
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Literal)
    && Object.getPrototypeOf(v) === Object.prototype;
}

/** The stable code of a thrown error, INTERNAL when it has none from the registry. */
function codeOf(e: unknown): ErrorCode {
  const code = (e as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && isErrorCode(code) ? code : ErrorCode.Internal;
}
