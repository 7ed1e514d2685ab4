/**
 * A workspace's custom tools: one file each in `.autosnippet/tools/` (`*.mjs`, or `*.js`), named by
 * its file (`find-owner.mjs` is `find_owner`). A file is read, hashed and evaluated only where the
 * folder is trusted and a person confirmed those exact bytes (approvals.ts); it is evaluated and run
 * on a worker thread with time and memory limits, never on the caller's thread, from the bytes that
 * were hashed (so a file changed on disk after the check cannot slip in).
 */
import Ajv, { type ValidateFunction } from 'ajv';
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { readRepoBytesSync } from '../../ground/files';
import { AutoSnippetError, isAutoSnippetError } from '../../ground/kernel/errors';
import { WorkerPool } from '../../ground/workers/pool';
import type { Workspace } from '../../ground/workspace';
import { approvedHash } from './approvals';
import { customToolHandlers, type DescribedTool, type RunAnswer, type ToolSource } from './worker-tasks';

export const TOOLS_DIR = '.autosnippet/tools';
const MAX_FILES = 100;
const MAX_FILE_BYTES = 512 * 1024;
const MAX_DESCRIPTION = 4000;
const MAX_SCHEMA_CHARS = 20_000;
export const DEFAULT_TIMEOUT_MS = 10_000;
const MIN_TIMEOUT_MS = 100;
const MAX_TIMEOUT_MS = 60_000;
/** Evaluating a file to read its definition: a module that does real work at load time is not a definition. */
const DESCRIBE_TIMEOUT_MS = 5_000;
/** The heap of a custom tool's thread: ample for a tool that reads a few files and answers JSON. */
export const CUSTOM_TOOL_LIMITS = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16 };
const WORKER = { bundled: 'custom-tool-worker.js', source: path.join(__dirname, 'worker-main.ts') };

export type CustomToolState = 'untrusted' | 'needs-approval' | 'changed' | 'ready' | 'invalid';

export interface CustomTool {
  name: string;
  /** Relative to the workspace, `/`-separated. */
  file: string;
  sha256?: string;
  state: CustomToolState;
  /** Why it cannot run (invalid), in one sentence. */
  problem?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  timeoutMs: number;
}

interface Loaded {
  tool: CustomTool;
  source?: ToolSource;
  validate?: ValidateFunction;
}

interface Definition {
  description: string;
  inputSchema: Record<string, unknown>;
  timeoutMs: number;
  validate: ValidateFunction;
}

/** The tool name of a file: its name without the extension, `-` read as `_`. */
export function toolNameOf(file: string): string {
  return path.basename(file).replace(/\.m?js$/, '').replace(/-/g, '_');
}

export class CustomTools {
  private readonly definitions = new Map<string, Promise<Definition | { problem: string; transient?: true }>>();
  private readonly ajv = new Ajv({ strict: false, allErrors: false, useDefaults: true, validateSchema: true });
  private poolInstance?: WorkerPool;

  constructor(private readonly ws: Workspace) {}

  private get pool(): WorkerPool {
    return (this.poolInstance ??= new WorkerPool({
      entry: WORKER,
      handlers: customToolHandlers,
      size: Math.min(2, WorkerPool.spareCores()),
      log: this.ws.log,
      resourceLimits: CUSTOM_TOOL_LIMITS,
      callerThreadFallback: false,
    }));
  }

  /** The tool files of the folder, sorted; none when it has no tools folder. */
  files(): string[] {
    let names: string[];
    try {
      names = readdirSync(this.ws.path(TOOLS_DIR));
    } catch {
      return [];
    }
    return names.filter((n) => /\.m?js$/.test(n)).sort().slice(0, MAX_FILES).map((n) => `${TOOLS_DIR}/${n}`);
  }

  /** Every tool file with its state; approved ones are evaluated (once per content) to read their definitions. */
  async list(): Promise<CustomTool[]> {
    return Promise.all(this.files().map(async (f) => (await this.load(f)).tool));
  }

  /** The tool of that name, read afresh (its state, and for a ready tool the bytes that will run). */
  async find(name: string): Promise<Loaded | undefined> {
    const file = this.files().find((f) => toolNameOf(f) === name);
    return file ? this.load(file) : undefined;
  }

  /** A file's bytes and hash, as `approve` confirms them. */
  read(file: string): { text: string; sha256: string } {
    const bytes = readRepoBytesSync(this.ws.root, file, { kind: 'source', maxBytes: MAX_FILE_BYTES }).bytes;
    return { text: Buffer.from(bytes).toString('utf8'), sha256: createHash('sha256').update(bytes).digest('hex') };
  }

  private async load(file: string): Promise<Loaded> {
    const name = toolNameOf(file);
    const base = { name, file, timeoutMs: DEFAULT_TIMEOUT_MS };
    if (!this.ws.settings.trusted) return { tool: { ...base, state: 'untrusted' } };
    if (!/^[a-z][a-z0-9_]{0,63}$/.test(name)) {
      return {
        tool: {
          ...base,
          state: 'invalid',
          problem:
            `${file}: a tool's file name is its name: lowercase letters, digits, "_" or "-", starting with a letter`,
        },
      };
    }
    let read: { text: string; sha256: string };
    try {
      read = this.read(file);
    } catch (e) {
      return { tool: { ...base, state: 'invalid', problem: `${file} cannot be read: ${(e as Error).message}` } };
    }
    const approved = approvedHash(this.ws.root, file);
    const withHash = { ...base, sha256: read.sha256 };
    if (!approved) return { tool: { ...withHash, state: 'needs-approval' } };
    if (approved !== read.sha256) return { tool: { ...withHash, state: 'changed' } };
    const source: ToolSource = { file, sha256: read.sha256, text: read.text };
    const def = await this.definition(source, name);
    if ('problem' in def) return { tool: { ...withHash, state: 'invalid', problem: def.problem } };
    return {
      tool: {
        ...withHash,
        state: 'ready',
        description: def.description,
        inputSchema: def.inputSchema,
        timeoutMs: def.timeoutMs,
      },
      source,
      validate: def.validate,
    };
  }

  private definition(source: ToolSource, name: string): Promise<Definition | { problem: string; transient?: true }> {
    let d = this.definitions.get(source.sha256);
    if (!d) {
      d = this.describe(source, name);
      this.definitions.set(source.sha256, d);
      // A load that ran out of time may succeed on a quieter machine: only a definition's own faults are kept.
      void d.then((r) => 'transient' in r && this.definitions.delete(source.sha256));
    }
    return d;
  }

  private async describe(
    source: ToolSource,
    name: string,
  ): Promise<Definition | { problem: string; transient?: true }> {
    const bad = (why: string) => ({ problem: `${source.file}: ${why}` });
    let described: DescribedTool | { error: string };
    try {
      described = await this.pool.run('describe', source, { timeoutMs: DESCRIBE_TIMEOUT_MS });
    } catch (e) {
      return { ...bad(`loading it failed: ${(e as Error).message}`), transient: true };
    }
    if ('error' in described) return bad(`it does not load: ${described.error}`);
    const d = described;
    if (d.name !== undefined && d.name !== name) {
      return bad(`"name" is ${JSON.stringify(d.name)}, but a tool is named by its file: "${name}"`);
    }
    if (typeof d.description !== 'string' || !d.description.trim()) return bad('"description" is missing');
    if (!d.hasHandler) return bad('"handler" is not a function');
    const schema = d.inputSchema;
    if (typeof schema !== 'object' || schema === null || (schema as { type?: unknown }).type !== 'object') {
      return bad('"inputSchema" is a JSON Schema of type "object"');
    }
    if (JSON.stringify(schema).length > MAX_SCHEMA_CHARS) {
      return bad(`"inputSchema" is over ${MAX_SCHEMA_CHARS} characters`);
    }
    let validate: ValidateFunction;
    try {
      validate = this.ajv.compile(schema);
    } catch (e) {
      return bad(`"inputSchema" is not a valid JSON Schema: ${(e as Error).message}`);
    }
    const t = d.timeoutMs;
    if (
      t !== undefined && !(Number.isInteger(t) && (t as number) >= MIN_TIMEOUT_MS && (t as number) <= MAX_TIMEOUT_MS)
    ) {
      return bad(`"timeoutMs" is a whole number of milliseconds from ${MIN_TIMEOUT_MS} to ${MAX_TIMEOUT_MS}`);
    }
    return {
      description: d.description.slice(0, MAX_DESCRIPTION),
      inputSchema: schema as Record<string, unknown>,
      timeoutMs: (t as number | undefined) ?? DEFAULT_TIMEOUT_MS,
      validate,
    };
  }

  /**
   * Runs a ready tool with arguments its schema accepts. A handler that throws is TOOL_FAILED, one that
   * runs past its time TIMEOUT, one that outgrows its heap RESOURCE_LIMIT; the thread is ended in both
   * last cases and the next call gets a fresh one.
   */
  async run(loaded: Loaded, input: unknown, signal?: AbortSignal): Promise<unknown> {
    const { tool, source } = loaded;
    let answer: RunAnswer;
    try {
      answer = await this.pool.run<RunAnswer>(
        'run',
        { source, input, root: this.ws.root },
        { timeoutMs: tool.timeoutMs, signal },
      );
    } catch (e) {
      if (isAutoSnippetError(e)) {
        if (e.code === 'TIMEOUT') {
          throw new AutoSnippetError(
            'TIMEOUT',
            `The custom tool ${tool.name} ran past its ${tool.timeoutMs} ms and was stopped.`,
            `Its file (${tool.file}) may set "timeoutMs" up to ${MAX_TIMEOUT_MS}; or narrow the arguments.`,
          );
        }
        if (e.code === 'RESOURCE_LIMIT') {
          throw new AutoSnippetError(
            'RESOURCE_LIMIT',
            `The custom tool ${tool.name} needed more than the ${CUSTOM_TOOL_LIMITS.maxOldGenerationSizeMb} MB its thread may use and was stopped.`,
            'Narrow the arguments, or change the tool to hold less in memory.',
          );
        }
        throw e;
      }
      throw new AutoSnippetError('TOOL_FAILED', `The custom tool ${tool.name} stopped: ${(e as Error).message}.`);
    }
    if (answer.ok) return answer.value;
    if (answer.stage === 'load') {
      throw new AutoSnippetError('INVALID_CUSTOM_TOOL', `${tool.file} does not load: ${answer.message}`);
    }
    throw new AutoSnippetError(
      'TOOL_FAILED',
      `The custom tool ${tool.name} failed: ${answer.message}`,
      `The error is the tool's own (${tool.file}); check the arguments against get_tool_info.`,
    );
  }

  async dispose(): Promise<void> {
    await this.poolInstance?.dispose();
  }
}

export function customTools(ws: Workspace): CustomTools {
  return ws.service('custom-tools', (w) => new CustomTools(w));
}
