/** Kinds of node the knowledge graph links: recipes, modules (build targets) and files. */
export type NodeKind = 'recipe' | 'target' | 'file';

export const NODE_KINDS: readonly NodeKind[] = ['recipe', 'target', 'file'];

/** A node key is `<kind>:<id>`, e.g. `target:CoreKit`, `file:src/app.ts`, `recipe:money-format`. */
export type NodeKey = string;

/** One directed edge. `relation` is always normalised (snake_case, see `normalizeRelation`). */
export interface GraphEdge {
  from: NodeKey;
  to: NodeKey;
  relation: string;
  weight: number;
  /** Where the edge is stated, as `path:line` (a manifest entry, an import), when known. */
  evidence?: string;
}

/** Who wrote a set of edges; a writer replaces only its own: `structure`, `bootstrap`, `recipe:<id>`, `manual`. */
export type EdgeOrigin = string;

export interface Neighbour {
  node: NodeKey;
  relation: string;
  /** `out`: this node → neighbour; `in`: neighbour → this node. */
  direction: 'out' | 'in';
  weight: number;
  evidence?: string;
}

export interface ImpactEntry {
  node: NodeKey;
  depth: number;
  /** The chain from the dependent down to the changed node, e.g. [App, FeatureCart, CoreKit]. */
  via: NodeKey[];
  relation: string;
}

export interface PathStep {
  from: NodeKey;
  to: NodeKey;
  relation: string;
  /** `forward` when the edge points along the path, `backward` when it was walked against its direction. */
  direction: 'forward' | 'backward';
  evidence?: string;
}

export interface GraphStats {
  nodes: number;
  edges: number;
  byRelation: Record<string, number>;
  byKind: Record<string, number>;
  /** Nodes with the most incoming edges: what most things depend on. */
  mostDependedOn: { node: NodeKey; dependents: number }[];
  /** Nodes with the most outgoing edges. */
  mostDependencies: { node: NodeKey; dependencies: number }[];
  /** Weakly connected components. */
  components: number;
  /** Dependency cycles found (each as its nodes), at most a few. */
  cycles: NodeKey[][];
}
