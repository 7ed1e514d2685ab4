/**
 * What runs inside a custom tool's worker thread: the approved bytes of one tool file, evaluated as a
 * module of their own (never read again from disk, so what runs is exactly what a person confirmed),
 * and its handler called with the arguments. Nothing of AutoSnippet is reachable from here: the
 * handler gets its input and `{ root }`, and answers plain data.
 */
import { isBuiltin } from 'node:module';
import type { WorkerHandler } from '../../ground/workers/pool';

export interface ToolSource {
  /** The file, relative to the workspace: for messages and the module's own `import.meta.url`-less world. */
  file: string;
  sha256: string;
  text: string;
}

/** What `describe` answers: the definition's data, its handler reduced to whether there is one. */
export interface DescribedTool {
  name?: unknown;
  description?: unknown;
  inputSchema?: unknown;
  timeoutMs?: unknown;
  hasHandler: boolean;
}

export type RunAnswer =
  | { ok: true; value: unknown }
  | { ok: false; stage: 'load' | 'handler'; message: string };

/** The most a result may weigh when it crosses back to the caller; the catalog cuts it to its bound after. */
const MAX_RESULT_CHARS = 4 * 1024 * 1024;
const MAX_CACHED = 64;
const modules = new Map<string, Promise<Record<string, unknown>>>();

/**
 * A `.mjs` file is an ES module; a `.js` file is one when it has a top-level `import` or `export`
 * statement, and CommonJS (`module.exports = …`) otherwise. An ES module is imported from a data URL:
 * it may import Node's built-in modules and nothing relative, so the confirmed file is all that runs.
 */
async function evaluate(src: ToolSource): Promise<Record<string, unknown>> {
  const esm = src.file.endsWith('.mjs') || /^\s*(import|export)\b/m.test(src.text);
  if (esm) {
    const url = `data:text/javascript;base64,${Buffer.from(src.text).toString('base64')}`;
    const ns = (await import(url)) as Record<string, unknown>;
    return isObject(ns.default) ? ns.default : ns;
  }
  const mod = { exports: {} as unknown };
  const requireBuiltin = (id: string): unknown => {
    if (!isBuiltin(id)) {
      throw new Error(`a custom tool may require only Node's built-in modules, and "${id}" is not one`);
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a built-in the tool asked for
    return require(id);
  };
  // The person confirmed these bytes; they run on this bounded thread only.
  new Function('module', 'exports', 'require', src.text)(mod, mod.exports, requireBuiltin);
  if (!isObject(mod.exports)) throw new Error('module.exports is not an object with the tool definition');
  return mod.exports;
}

function load(src: ToolSource): Promise<Record<string, unknown>> {
  let m = modules.get(src.sha256);
  if (!m) {
    if (modules.size >= MAX_CACHED) modules.delete(modules.keys().next().value!);
    m = evaluate(src);
    modules.set(src.sha256, m);
    m.catch(() => modules.delete(src.sha256));
  }
  return m;
}

async function describe(src: ToolSource): Promise<DescribedTool | { error: string }> {
  let def: Record<string, unknown>;
  try {
    def = await load(src);
  } catch (e) {
    return { error: messageOf(e) };
  }
  return {
    name: plain(def.name),
    description: plain(def.description),
    inputSchema: plain(def.inputSchema),
    timeoutMs: plain(def.timeoutMs),
    hasHandler: typeof def.handler === 'function',
  };
}

async function run(p: { source: ToolSource; input: unknown; root: string }): Promise<RunAnswer> {
  let def: Record<string, unknown>;
  try {
    def = await load(p.source);
  } catch (e) {
    return { ok: false, stage: 'load', message: messageOf(e) };
  }
  if (typeof def.handler !== 'function') return { ok: false, stage: 'load', message: 'it exports no handler function' };
  let value: unknown;
  try {
    value = await (def.handler as (input: unknown, context: { root: string }) => unknown)(p.input, { root: p.root });
  } catch (e) {
    return { ok: false, stage: 'handler', message: messageOf(e) };
  }
  if (value === undefined) return { ok: true, value: null };
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (e) {
    return { ok: false, stage: 'handler', message: `its answer is not JSON data: ${messageOf(e)}` };
  }
  if (json === undefined) return { ok: false, stage: 'handler', message: 'its answer is not JSON data' };
  if (json.length > MAX_RESULT_CHARS) {
    return {
      ok: false,
      stage: 'handler',
      message: `its answer is ${json.length} characters, over ${MAX_RESULT_CHARS}`,
    };
  }
  return { ok: true, value: JSON.parse(json) };
}

/** Data only: functions and symbols dropped, so the answer can cross to the caller's thread. */
function plain(v: unknown): unknown {
  if (v === undefined || typeof v === 'function') return undefined;
  try {
    return JSON.parse(JSON.stringify(v)) as unknown;
  } catch {
    return undefined;
  }
}

function messageOf(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).slice(0, 2000);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export const customToolHandlers: Record<string, WorkerHandler> = {
  describe: (p: ToolSource) => describe(p),
  run: (p: { source: ToolSource; input: unknown; root: string }) => run(p),
};
