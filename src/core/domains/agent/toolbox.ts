/**
 * What the agent may call: a toolbox of tool specs and an invoke (tools/toolbox.ts makes one of the
 * catalog, VS Code of other extensions' tools), joined into one. Each result also says which skills and
 * recipes it touched.
 */
import path from 'node:path';
import { TOOL_PREFIX, type ToolResult } from '../../ground/kernel/result';
import type { Workspace } from '../../ground/workspace';
import type { ToolCall, ToolSpec } from './model';

/** A skill or recipe the agent used, for the chat's references. */
export interface AgentReference {
  kind: 'skill' | 'recipe';
  name: string;
  /** Absolute path of the SKILL.md or recipe file, when known. */
  path?: string;
}

export interface ToolOutcome {
  ok: boolean;
  /** What the model reads: the result envelope as JSON. */
  text: string;
  /** The envelope, for tools of the catalog. */
  result?: ToolResult;
  references: AgentReference[];
}

export interface AgentToolbox {
  readonly specs: readonly ToolSpec[];
  invoke(call: ToolCall, signal?: AbortSignal): Promise<ToolOutcome>;
}

/** Several toolboxes as one; a name is served by the first box that offers it. */
export function combineToolboxes(...boxes: AgentToolbox[]): AgentToolbox {
  const owner = new Map<string, AgentToolbox>();
  const specs: ToolSpec[] = [];
  for (const box of boxes) {
    for (const spec of box.specs) {
      if (owner.has(spec.name)) continue;
      owner.set(spec.name, box);
      specs.push(spec);
    }
  }
  return {
    specs,
    invoke(call, signal) {
      // Our own tools also answer to their bare names, which models sometimes use.
      const box = owner.get(call.name) ?? owner.get(TOOL_PREFIX + call.name) ?? boxes[0];
      return box.invoke(call, signal);
    },
  };
}

/** Skills a result loaded and recipe files it returned, found by shape so every tool (and pipeline) is covered. */
export function referencesOf(ws: Pick<Workspace, 'root'>, result: ToolResult): AgentReference[] {
  if (!result.ok) return [];
  const found = new Map<string, AgentReference>();
  const add = (ref: AgentReference) => {
    const key = `${ref.kind}:${ref.path ?? ref.name}`;
    if (!found.has(key) && found.size < 50) found.set(key, ref);
  };
  walk(result.data, 0, (node) => {
    // A skill: its name beside the path of its SKILL.md (load_skill, and pipeline steps that ran it).
    const skillName = typeof node.name === 'string'
      ? node.name
      : typeof node.skill === 'string'
      ? node.skill
      : undefined;
    for (const key of ['file', 'path', 'location']) {
      const value = node[key];
      if (typeof value !== 'string') continue;
      if (skillName && /SKILL\.md$/i.test(value)) {
        add({ kind: 'skill', name: skillName, path: path.resolve(ws.root, value) });
      } else if (isRecipeFile(value)) {
        const name = typeof node.title === 'string'
          ? node.title
          : typeof node.id === 'string'
          ? node.id
          : path.basename(value, '.md');
        add({ kind: 'recipe', name, path: path.resolve(ws.root, value) });
      }
    }
  });
  return [...found.values()];
}

function isRecipeFile(p: string): boolean {
  return /(^|[\\/])\.autosnippet[\\/]recipes[\\/].+\.md$/.test(p);
}

function walk(value: unknown, depth: number, visit: (node: Record<string, unknown>) => void): void {
  if (depth > 5 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const v of value.slice(0, 200)) walk(v, depth + 1, visit);
    return;
  }
  visit(value as Record<string, unknown>);
  for (const v of Object.values(value as Record<string, unknown>)) walk(v, depth + 1, visit);
}
