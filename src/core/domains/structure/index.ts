import { workspaceFiles, type WorkspaceListing } from '../../ground/files';
import { AutoSnippetError, ErrorCode } from '../../ground/kernel/errors';
import { closestNames } from '../../ground/kernel/names';
import type { Workspace } from '../../ground/workspace';
import { DEVELOPMENT_DEPENDENCY, type GraphEdge, nodeKey, replaceEdges } from '../graph';
import { discoverStructure } from './discover';
import type { Ecosystem, ProjectStructure, Target } from './types';

export { discoverStructure } from './discover';
export * from './types';

/** How long a discovery is reused before the disk is read again. */
const FRESH_MS = 3000;

interface Discovered {
  at: number;
  listing: WorkspaceListing;
  structure: ProjectStructure;
  files?: Map<string, string[]>;
}

class StructureCache {
  current: Discovered | undefined;
  pending: Promise<Discovered> | undefined;
}

/** The project's targets, read from its manifests (cached for a few seconds). */
export async function projectStructure(
  ws: Workspace,
  options: { refresh?: boolean; signal?: AbortSignal } = {},
): Promise<ProjectStructure> {
  return (await discovered(ws, options)).structure;
}

/** The workspace listing and the structure read from it, together (cached like `projectStructure`). */
export async function projectSnapshot(
  ws: Workspace,
  options: { refresh?: boolean; signal?: AbortSignal } = {},
): Promise<{ listing: WorkspaceListing; structure: ProjectStructure }> {
  return discovered(ws, options);
}

async function discovered(
  ws: Workspace,
  options: { refresh?: boolean; signal?: AbortSignal } = {},
): Promise<Discovered> {
  const cache = ws.service('structure', () => new StructureCache());
  if (!options.refresh && cache.current && Date.now() - cache.current.at < FRESH_MS) return cache.current;
  cache.pending ??= (async () => {
    const listing = await workspaceFiles(ws).list({ signal: options.signal, refresh: options.refresh });
    const structure = await discoverStructure(ws.root, listing.files, listing.truncated);
    // An ignore file that could not be read changes what is listed: say so beside the manifests.
    structure.problems.push(...listing.problems.map((p) => ({ manifest: p.path, message: p.message })));
    for (const p of structure.problems) ws.log.warn(`structure: ${p.manifest}: ${p.message}`);
    return { at: Date.now(), listing, structure };
  })().finally(() => {
    cache.pending = undefined;
  });
  cache.current = await cache.pending;
  return cache.current;
}

/**
 * Writes the dependency edges between targets into the knowledge graph (origin `structure`) and
 * returns the structure. Writes nothing when the edges are unchanged.
 */
export async function syncStructureGraph(
  ws: Workspace,
  options: { refresh?: boolean; signal?: AbortSignal } = {},
): Promise<ProjectStructure> {
  const structure = await projectStructure(ws, options);
  await replaceEdges(ws, 'structure', structureEdges(structure.targets));
  return structure;
}

export function structureEdges(targets: Target[]): GraphEdge[] {
  const edges: GraphEdge[] = [];
  for (const t of targets) {
    for (const d of t.dependencies) {
      if (!d.target || d.target === t.name) continue;
      // A dev or test dependency is needed to work on the source, not by the product: drawn as a product
      // edge, a test helper that depends on the package it tests makes a cycle the product does not have.
      const development = d.scope === 'dev' || d.scope === 'test';
      edges.push({
        from: nodeKey('target', t.name),
        to: nodeKey('target', d.target),
        relation: development ? DEVELOPMENT_DEPENDENCY : 'depends_on',
        weight: d.scope === 'prod' || d.scope === 'build' ? 1 : 0.5,
        evidence: d.evidence,
      });
    }
  }
  return edges;
}

/** The target of that name, or NOT_FOUND listing the closest names. */
export function requireTarget(structure: ProjectStructure, name: string): Target {
  const t = structure.targets.find((x) => x.name === name)
    ?? structure.targets.find((x) => x.name.toLowerCase() === name.toLowerCase())
    ?? structure.targets.filter((x) => x.name.endsWith(`:${name}`) || x.dir === name).at(0);
  if (t) return t;
  const names = structure.targets.map((x) => x.name);
  throw new AutoSnippetError(
    ErrorCode.NotFound,
    names.length
      ? `No target named "${name}". Closest: ${closestNames(name, names, 5).join(', ')}.`
      : `No target named "${name}": no build manifest was found in the workspace.`,
    'Call get_targets for the names.',
    { field: 'target', available: closestNames(name, names, 20) },
  );
}

/**
 * A target's files: everything under its folders that `.gitignore` leaves, minus the folders of
 * other targets of the same ecosystem nested inside it (a workspace root does not own its packages).
 */
export async function targetFiles(ws: Workspace, target: Target): Promise<string[]> {
  const d = await discovered(ws);
  d.files ??= new Map();
  let files = d.files.get(target.name);
  if (!files) {
    files = filesOf(target, d.structure.targets, d.listing.files);
    d.files.set(target.name, files);
  }
  return files;
}

/** The folders whose files are the target's: an Xcode target's `dir` is where its project file is, not a folder it owns (an app's targets may all sit at the root). */
export function ownedDirs(t: Target): string[] {
  return t.ecosystem === 'xcode' ? (t.extraDirs ?? []) : [t.dir, ...(t.extraDirs ?? [])];
}

export function filesOf(target: Target, all: Target[], listing: readonly string[]): string[] {
  const family = (e: Ecosystem) => (e === 'npm' || e === 'pnpm' || e === 'yarn' || e === 'typescript' ? 'js' : e);
  const dirs = ownedDirs(target);
  const others = all.filter((o) => o !== target && family(o.ecosystem) === family(target.ecosystem)).flatMap(ownedDirs);
  const inside = (f: string, d: string) => d === '' || f.startsWith(d + '/');
  return listing.filter((f) => {
    const own = dirs.filter((d) => inside(f, d)).reduce((m, d) => Math.max(m, d.length), -1);
    if (own < 0) return false;
    return !others.some((o) => o.length > own && inside(f, o));
  });
}

/** Ecosystem of each target and the counts, for summaries. */
export function summarizeTargets(
  structure: ProjectStructure,
): { targets: number; ecosystems: Partial<Record<Ecosystem, number>> } {
  return { targets: structure.targets.length, ecosystems: structure.ecosystems };
}
