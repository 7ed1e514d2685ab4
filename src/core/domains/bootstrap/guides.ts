import { lookup } from '../../ground/kernel/tables';
import type { Workspace } from '../../ground/workspace';
import { skillPartText } from '../skills/parse';
import { skillRegistry } from '../skills/registry';
import type { Skill } from '../skills/types';
import { LANGUAGE_DIMENSIONS } from './dimensions/language';
import { CORE_DIMENSIONS, type Family } from './types';

/** What a dimension is about: shown with its results so an agent knows what to add by reading. */
export interface DimensionGuide {
  id: string;
  lookFor: string;
  /** Where the text came from: a skill name, or `built-in`. */
  from: string;
}

const BUILT_IN: Record<string, string> = {
  'code-standard': 'naming, file layout, headers, access control, error types',
  'code-pattern': "the project's wrappers, factories, base classes, how its API client is called",
  architecture: 'layers, modules, who may import whom, composition root',
  'best-practice': 'error handling, logging, concurrency, resource cleanup as done here',
  'event-data-flow': 'state ownership, notifications, streams, request → store → view',
  'project-profile': 'stack, versions, build and test commands, targets, key dependencies',
  'agent-guidelines': 'must/should rules an agent needs: threading, generated files, forbidden APIs',
  'jsts-async': 'how promises are awaited, returned or detached; cancellation; concurrency',
  'jsts-type-safety': 'compiler strictness, any and assertions, runtime validation at I/O boundaries',
  'swift-concurrency': 'actors and isolation, @MainActor, Task ownership and cancellation, Sendable',
  'swift-safety': 'optionals and force operations, closure capture, error types',
  'objc-memory': 'block capture, property ownership attributes, delegate and observer lifetimes',
  'objc-api-safety': 'nullability annotations, designated initializers, NSError out-parameters',
  'python-typing': 'type hints, data classes and models',
  'python-async': 'coroutines and how they are composed',
  'go-errors': 'error wrapping, comparison, panics',
  'go-concurrency': 'context propagation, goroutine lifetimes',
  'rust-safety': 'error propagation, unwrap and unsafe',
  'rust-errors': 'error types and context',
  'kotlin-coroutines': 'suspend functions and structured scopes',
  'kotlin-null-safety': 'safe calls, elvis and !!',
  'java-nullability': 'Optional and nullability annotations',
  'java-errors': 'which exceptions are caught and thrown',
};

const CORE_LABELS: Record<string, string> = {
  'code standard': 'code-standard',
  'code pattern': 'code-pattern',
  architecture: 'architecture',
  'best practice': 'best-practice',
  'event and data flow': 'event-data-flow',
  'project profile': 'project-profile',
  'agent guidelines': 'agent-guidelines',
};

const REFERENCE_SKILL: Partial<Record<Family, string>> = {
  jsts: 'autosnippet-reference-jsts',
  swift: 'autosnippet-reference-swift',
  objc: 'autosnippet-reference-objc',
};

/**
 * The guide of each dimension the scan covers: the coldstart skill's "nine dimensions" table for the
 * shared ones, the language's reference skill ("Language dimensions") for the language ones, and a
 * built-in line when a skill is not installed.
 */
export function dimensionGuides(ws: Workspace, families: Family[]): DimensionGuide[] {
  const guides = new Map<string, DimensionGuide>();
  for (const id of CORE_DIMENSIONS) guides.set(id, { id, lookFor: BUILT_IN[id], from: 'built-in' });
  const coldstart = skill(ws, 'autosnippet-coldstart');
  const table = coldstart ? skillPartText(coldstart, 'The nine dimensions') : undefined;
  if (coldstart && table) {
    for (const line of table.split('\n')) {
      const cells = line.split('|').map((c) => c.trim());
      const id = lookup(CORE_LABELS, cells[2]?.toLowerCase() ?? '');
      if (id && cells[3]) guides.set(id, { id, lookFor: cells[3], from: coldstart.name });
    }
  }
  for (const fam of families) {
    const ids = LANGUAGE_DIMENSIONS[fam];
    if (!ids) continue;
    for (const id of ids) guides.set(id, { id, lookFor: BUILT_IN[id] ?? id, from: 'built-in' });
    const name = REFERENCE_SKILL[fam];
    const ref = name ? skill(ws, name) : undefined;
    const section = ref ? skillPartText(ref, 'Language dimensions') : undefined;
    if (!ref || !section) continue;
    for (const [id, text] of languageBullets(section)) {
      if (ids.includes(id)) guides.set(id, { id, lookFor: text, from: ref.name });
    }
  }
  return [...guides.values()];
}

/** `- \`id\` — description` bullets, with continuation lines joined. */
export function languageBullets(text: string): [string, string][] {
  const out: [string, string][] = [];
  for (const block of text.split(/\n(?=\s*[-*]\s)/)) {
    const m = /^\s*[-*]\s+`([\w-]+)`\s*[—–:-]+\s*([\s\S]+)$/.exec(block);
    if (m) out.push([m[1], m[2].replace(/\s+/g, ' ').trim()]);
  }
  return out;
}

function skill(ws: Workspace, name: string): Skill | undefined {
  try {
    return skillRegistry(ws).get(name);
  } catch (e) {
    ws.log.debug(`bootstrap: skill ${name} unavailable: ${(e as Error).message}`);
    return undefined;
  }
}
