/**
 * A pipeline run over the tool catalog: every step is a `catalog.invoke` with the caller's context
 * (actor, channel, model, cancellation), so writes pass the Gateway one by one. Progress is reported
 * per step; the answer is compact (each step's data shortened), never the steps' full output.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import { type PipelineDefinition, type PipelineEvent, type PipelineRun, runPipeline } from '../domains/agent/pipeline';
import { createdCandidateIds } from '../domains/agent/pipelines';
import { AutoSnippetError, ErrorCode } from '../ground/kernel/errors';
import type { Workspace } from '../ground/workspace';
import type { CatalogView, ToolContext } from './types';

export interface CatalogPipelineOptions {
  onEvent?(event: PipelineEvent): void;
  /** Characters kept of each step's data in the answer. */
  stepDataChars?: number;
}

const ajv = new Ajv({ strict: false, allErrors: false });
const validators = new WeakMap<PipelineDefinition, ValidateFunction>();

export async function runCatalogPipeline(
  catalog: CatalogView,
  ws: Workspace,
  def: PipelineDefinition,
  input: Record<string, unknown>,
  ctx: ToolContext,
  options: CatalogPipelineOptions = {},
) {
  checkInput(def, input);
  const total = def.steps.length;
  let done = 0;
  const run = await runPipeline(def, {
    input,
    signal: ctx.signal,
    hasTool: (name) => Boolean(catalog.get(name)),
    accepts: (tool, argument) => {
      const t = catalog.get(tool);
      if (!t) return false;
      const schema = catalog.inputSchema(t);
      return schema.properties && Object.keys(schema.properties).length
        ? Boolean(schema.properties[argument])
        : schema.additionalProperties !== false;
    },
    // A step's own progress (files scanned…) is passed on under the pipeline's step count.
    execute: (tool, params, signal) =>
      catalog.invoke(ws, tool, params, {
        ...ctx,
        signal: signal ?? ctx.signal,
        progress: ctx.progress
          && ((p) => p.message && ctx.progress!({ message: `${def.name}: ${tool}: ${p.message}`, done, total })),
      }),
    onEvent: (e) => {
      if (e.type === 'step_started') {
        ctx.progress?.({
          message: `${def.name}: ${e.step} (${e.tool})${e.attempt > 1 ? `, attempt ${e.attempt}` : ''}`,
          done,
          total,
        });
      }
      if (e.type === 'step_finished') {
        ctx.progress?.({ message: `${def.name}: ${e.step} ${e.status}`, done: ++done, total });
      }
      options.onEvent?.(e);
    },
  });
  return summarizeRun(run, options.stepDataChars ?? 1500);
}

function checkInput(def: PipelineDefinition, input: Record<string, unknown>): void {
  if (!def.inputSchema) return;
  let validate = validators.get(def);
  if (!validate) validators.set(def, validate = ajv.compile(def.inputSchema));
  if (!validate(input)) {
    const err = validate.errors?.[0];
    throw new AutoSnippetError(
      ErrorCode.InvalidInput,
      `Invalid input for pipeline ${def.name}: ${
        err ? `${err.instancePath || '(input)'} ${err.message}` : 'does not match its schema'
      }.`,
      `Its input: ${JSON.stringify(def.inputSchema.properties ?? {})}`,
    );
  }
}

/** The run as a tool answers it: statuses, errors and shortened data per step. */
export function summarizeRun(run: PipelineRun, stepDataChars: number) {
  const bootstrap = run.steps.find((s) => s.tool === 'bootstrap_knowledge' && s.status === 'ok');
  return {
    pipeline: run.pipeline,
    status: run.status,
    ms: run.ms,
    layers: run.layers,
    ...(run.failedStep ? { failedStep: run.failedStep } : {}),
    ...(bootstrap ? { candidateIds: createdCandidateIds(bootstrap.data) } : {}),
    steps: run.steps.map((s) => ({
      id: s.id,
      tool: s.tool,
      status: s.status,
      attempts: s.attempts,
      ms: s.ms,
      ...(s.reason ? { reason: s.reason } : {}),
      ...(s.error ? { error: s.error } : {}),
      ...(s.data !== undefined ? { data: compactData(s.data, stepDataChars) } : {}),
    })),
  };
}

/**
 * A value shortened to about `maxChars` of JSON: long strings clipped, long arrays cut with a count,
 * deep objects flattened to their keys. Short fields (ids, names, files, counts) survive intact.
 */
export function compactData(value: unknown, maxChars: number, depth = 0): unknown {
  if (JSON.stringify(value ?? null).length <= maxChars) return value;
  if (typeof value === 'string') return `${value.slice(0, Math.max(40, maxChars - 30))}… (${value.length} characters)`;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    let used = 2;
    for (const item of value) {
      const c = compactData(item, Math.max(80, Math.floor(maxChars / 4)), depth + 1);
      const size = JSON.stringify(c ?? null).length + 1;
      if (used + size > maxChars - 40) break;
      out.push(c);
      used += size;
    }
    if (out.length < value.length) out.push(`… ${value.length - out.length} more`);
    return out;
  }
  if (value && typeof value === 'object') {
    if (depth >= 3) return `{${Object.keys(value).join(', ')}}`;
    const entries = Object.entries(value as Record<string, unknown>);
    const share = Math.max(60, Math.floor(maxChars / Math.max(1, entries.length)));
    return Object.fromEntries(entries.map(([k, v]) => [k, compactData(v, share, depth + 1)]));
  }
  return value;
}
