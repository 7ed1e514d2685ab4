import { AutoSnippetError, ErrorCode } from '../../ground/kernel/errors';
import { closestNames } from '../../ground/kernel/names';
import type { Workspace } from '../../ground/workspace';
import { EdgeIndex } from './algorithms';
import { graphVersion, loadEdges } from './edges';
import type { GraphEdge, NodeKey } from './types';

export { EdgeIndex, MAX_IMPACT_DEPTH, MAX_PATH_DEPTH } from './algorithms';
export { addEdge, getGraphMeta, graphVersion, loadEdges, replaceEdges } from './edges';
export {
  DEVELOPMENT_DEPENDENCY,
  isDependencyRelation,
  isDevelopmentRelation,
  isMembershipRelation,
  nodeKey,
  normalizeRelation,
  parseNodeKey,
} from './relations';
export * from './types';

/** Edges computed from another index rather than stored (a recipe's relations), with a key that changes when they do. */
export interface DerivedEdges {
  key: string;
  edges(): GraphEdge[] | Promise<GraphEdge[]>;
}

class GraphCache {
  key = '';
  index: EdgeIndex | undefined;
  building: { key: string; promise: Promise<EdgeIndex> } | undefined;
}

/**
 * The workspace's graph in memory: the stored edges plus any derived ones, rebuilt only when the
 * stored edges (graph version) or the derived source (its key) changed.
 */
export async function knowledgeGraph(ws: Workspace, derived?: DerivedEdges): Promise<EdgeIndex> {
  const cache = ws.service('graph', () => new GraphCache());
  const key = `${await graphVersion(ws)}|${derived?.key ?? ''}`;
  if (cache.index && cache.key === key) return cache.index;
  if (cache.building?.key !== key) {
    const promise = (async () => {
      const edges = await loadEdges(ws);
      if (derived) edges.push(...(await derived.edges()));
      const index = new EdgeIndex(edges);
      cache.index = index;
      cache.key = key;
      return index;
    })();
    cache.building = { key, promise };
    promise.then(
      () => {
        if (cache.building?.promise === promise) cache.building = undefined;
      },
      () => {
        if (cache.building?.promise === promise) cache.building = undefined;
      },
    );
  }
  return cache.building!.promise;
}

/** The node a caller named, or an error that lists what exists (closest first) or what was ambiguous. */
export function requireNode(index: EdgeIndex, name: string, field = 'node'): NodeKey {
  const r = index.resolve(name);
  if (r.ok) return r.key;
  if ('ambiguous' in r) {
    throw new AutoSnippetError(
      ErrorCode.InvalidInput,
      `"${name}" names more than one node: ${r.ambiguous.join(', ')}.`,
      `Pass the full key, e.g. "${r.ambiguous[0]}".`,
      { field, candidates: r.ambiguous },
    );
  }
  const names = [...index.nodes()];
  const containing = names.filter((n) => n.toLowerCase().includes(name.toLowerCase()));
  const pool = containing.length >= 5 || names.length > 5000 ? containing : names;
  const near = closestNames(name, pool, 5);
  throw new AutoSnippetError(
    ErrorCode.NotFound,
    `The graph has no node "${name}".${names.length ? ` Closest: ${near.join(', ')}.` : ' The graph is empty.'}`,
    names.length
      ? 'Nodes are "target:<name>", "recipe:<id>" or "file:<path>"; a bare name is tried as each. Call get_targets or graph_stats to see what exists.'
      : 'Targets appear once the project has build manifests (get_targets); recipe and file links appear as recipes are added and after bootstrap_knowledge.',
    { field, closest: near },
  );
}
