import {
  isDependencyRelation,
  isDevelopmentRelation,
  isMembershipRelation,
  nodeKey,
  normalizeFilePath,
  parseNodeKey,
} from './relations';
import {
  type GraphEdge,
  type GraphStats,
  type ImpactEntry,
  type Neighbour,
  NODE_KINDS,
  type NodeKey,
  type PathStep,
} from './types';

export const MAX_IMPACT_DEPTH = 3;
export const MAX_PATH_DEPTH = 5;

interface Half {
  node: NodeKey;
  relation: string;
  weight: number;
  evidence?: string;
}

export type Resolution = { ok: true; key: NodeKey } | { ok: false; ambiguous: NodeKey[] } | {
  ok: false;
  missing: true;
};

/**
 * The graph in memory, with adjacency both ways. Built from the stored edges once per graph version;
 * every query below is a plain traversal over it, so a 10,000-edge graph answers in well under a
 * millisecond after the build.
 */
export class EdgeIndex {
  private readonly out = new Map<NodeKey, Half[]>();
  private readonly in = new Map<NodeKey, Half[]>();
  private readonly lowerCase = new Map<string, NodeKey[]>();
  readonly edgeCount: number;

  constructor(edges: Iterable<GraphEdge>) {
    const merged = new Map<string, GraphEdge>();
    for (const e of edges) {
      if (e.from === e.to) continue;
      const k = `${e.from}\u0000${e.to}\u0000${e.relation}`;
      const prev = merged.get(k);
      if (!prev) merged.set(k, { ...e });
      else {
        prev.weight = Math.max(prev.weight, e.weight);
        prev.evidence ??= e.evidence;
      }
    }
    for (const e of merged.values()) {
      push(this.out, e.from, { node: e.to, relation: e.relation, weight: e.weight, evidence: e.evidence });
      push(this.in, e.to, { node: e.from, relation: e.relation, weight: e.weight, evidence: e.evidence });
    }
    this.edgeCount = merged.size;
    for (const n of this.nodes()) push(this.lowerCase, n.toLowerCase(), n);
  }

  *nodes(): IterableIterator<NodeKey> {
    const seen = new Set<NodeKey>();
    for (const m of [this.out, this.in]) {
      for (const k of m.keys()) {
        if (!seen.has(k)) {
          seen.add(k);
          yield k;
        }
      }
    }
  }

  has(node: NodeKey): boolean {
    return this.out.has(node) || this.in.has(node);
  }

  /**
   * A node key from what a caller typed: a full key (`target:CoreKit`), or a bare name tried as a
   * target, a recipe and a file, case-insensitively when nothing matches exactly.
   */
  resolve(name: string): Resolution {
    const trimmed = name.trim();
    if (this.has(trimmed)) return { ok: true, key: trimmed };
    const parsed = parseNodeKey(trimmed);
    const tries = parsed.kind
      ? [nodeKey(parsed.kind, parsed.id)]
      : NODE_KINDS.map((k) => nodeKey(k, k === 'file' ? normalizeFilePath(trimmed) : trimmed));
    let found = tries.filter((k) => this.has(k));
    if (found.length === 0) found = [...new Set(tries.flatMap((k) => this.lowerCase.get(k.toLowerCase()) ?? []))];
    if (found.length === 1) return { ok: true, key: found[0] };
    if (found.length > 1) return { ok: false, ambiguous: found.sort() };
    return { ok: false, missing: true };
  }

  neighbours(node: NodeKey, direction: 'out' | 'in' | 'both' = 'both', relation?: string): Neighbour[] {
    const result: Neighbour[] = [];
    if (direction !== 'in') {
      for (const h of this.out.get(node) ?? []) {
        if (!relation || h.relation === relation) result.push(neighbour(h, 'out'));
      }
    }
    if (direction !== 'out') {
      for (const h of this.in.get(node) ?? []) {
        if (!relation || h.relation === relation) result.push(neighbour(h, 'in'));
      }
    }
    return result.sort((a, b) =>
      b.weight - a.weight || a.node.localeCompare(b.node) || a.relation.localeCompare(b.relation)
    );
  }

  /**
   * What depends on `node`, transitively: walks incoming edges of dependency relations breadth-first,
   * at most `depth` (≤ 3) hops, each dependent once at its shortest distance.
   */
  impact(node: NodeKey, depth = MAX_IMPACT_DEPTH, relations?: string[]): ImpactEntry[] {
    const maxDepth = Math.max(1, Math.min(MAX_IMPACT_DEPTH, Math.floor(depth)));
    const accept = (r: string) => (relations?.length ? relations.includes(r) : isDependencyRelation(r));
    const via = new Map<NodeKey, NodeKey[]>([[node, [node]]]);
    const result: ImpactEntry[] = [];
    let frontier = [node];
    for (let d = 1; d <= maxDepth && frontier.length; d++) {
      const next: NodeKey[] = [];
      for (const n of frontier) {
        for (const h of [...(this.in.get(n) ?? [])].sort(byNode)) {
          if (!accept(h.relation) || via.has(h.node)) continue;
          const chain = [h.node, ...via.get(n)!];
          via.set(h.node, chain);
          result.push({ node: h.node, depth: d, via: chain, relation: h.relation });
          next.push(h.node);
        }
      }
      frontier = next;
    }
    return result;
  }

  /**
   * The shortest chain of edges from `from` to `to`, at most `maxDepth` (≤ 5) edges; undefined when
   * there is none that short. `directed: false` also walks edges against their direction.
   */
  path(from: NodeKey, to: NodeKey, maxDepth = MAX_PATH_DEPTH, directed = true): PathStep[] | undefined {
    if (from === to) return [];
    const limit = Math.max(1, Math.min(MAX_PATH_DEPTH, Math.floor(maxDepth)));
    const prev = new Map<NodeKey, PathStep>();
    const seen = new Set<NodeKey>([from]);
    let frontier = [from];
    for (let d = 1; d <= limit && frontier.length; d++) {
      const next: NodeKey[] = [];
      for (const n of frontier) {
        const steps: PathStep[] = [...(this.out.get(n) ?? [])].sort(byNode).map((h) => ({
          from: n,
          to: h.node,
          relation: h.relation,
          direction: 'forward' as const,
          evidence: h.evidence,
        }));
        if (!directed) {
          steps.push(
            ...[...(this.in.get(n) ?? [])].sort(byNode).map((h) => ({
              from: n,
              to: h.node,
              relation: h.relation,
              direction: 'backward' as const,
              evidence: h.evidence,
            })),
          );
        }
        for (const step of steps) {
          if (seen.has(step.to)) continue;
          seen.add(step.to);
          prev.set(step.to, step);
          if (step.to === to) return unwind(prev, from, to);
          next.push(step.to);
        }
      }
      frontier = next;
    }
    return undefined;
  }

  stats(top = 10): GraphStats {
    const byRelation: Record<string, number> = {};
    const byKind: Record<string, number> = {};
    const inDegree: { node: NodeKey; dependents: number }[] = [];
    const outDegree: { node: NodeKey; dependencies: number }[] = [];
    let nodes = 0;
    for (const n of this.nodes()) {
      nodes++;
      const kind = parseNodeKey(n).kind ?? 'other';
      byKind[kind] = (byKind[kind] ?? 0) + 1;
      const ins = (this.in.get(n) ?? []).filter((h) => ranked(h.relation)).length;
      const outs = (this.out.get(n) ?? []).filter((h) => ranked(h.relation)).length;
      if (ins) inDegree.push({ node: n, dependents: ins });
      if (outs) outDegree.push({ node: n, dependencies: outs });
    }
    for (const halves of this.out.values()) {
      for (const h of halves) byRelation[h.relation] = (byRelation[h.relation] ?? 0) + 1;
    }
    return {
      nodes,
      edges: this.edgeCount,
      byRelation: sortRecord(byRelation),
      byKind: sortRecord(byKind),
      mostDependedOn: inDegree.sort((a, b) => b.dependents - a.dependents || a.node.localeCompare(b.node)).slice(
        0,
        top,
      ),
      mostDependencies: outDegree.sort((a, b) => b.dependencies - a.dependencies || a.node.localeCompare(b.node)).slice(
        0,
        top,
      ),
      components: this.components(),
      cycles: this.cycles(5),
    };
  }

  private components(): number {
    const parent = new Map<NodeKey, NodeKey>();
    const find = (x: NodeKey): NodeKey => {
      let r = x;
      while (parent.get(r) !== r) r = parent.get(r)!;
      while (parent.get(x) !== r) {
        const nx = parent.get(x)!;
        parent.set(x, r);
        x = nx;
      }
      return r;
    };
    for (const n of this.nodes()) parent.set(n, n);
    let count = parent.size;
    for (const [from, halves] of this.out) {
      for (const h of halves) {
        const a = find(from);
        const b = find(h.node);
        if (a !== b) {
          parent.set(a, b);
          count--;
        }
      }
    }
    return count;
  }

  /** Up to `limit` dependency cycles, found as back edges of an iterative depth-first search. */
  private cycles(limit: number): NodeKey[][] {
    const state = new Map<NodeKey, 1 | 2>();
    const found: NodeKey[][] = [];
    const starts = [...this.out.keys()].sort();
    for (const start of starts) {
      if (state.has(start) || found.length >= limit) continue;
      const stack: { node: NodeKey; next: number; halves: Half[] }[] = [];
      const enter = (n: NodeKey) => {
        state.set(n, 1);
        stack.push({ node: n, next: 0, halves: (this.out.get(n) ?? []).filter((h) => ranked(h.relation)) });
      };
      enter(start);
      while (stack.length && found.length < limit) {
        const top = stack[stack.length - 1];
        if (top.next >= top.halves.length) {
          state.set(top.node, 2);
          stack.pop();
          continue;
        }
        const h = top.halves[top.next++];
        const s = state.get(h.node);
        if (s === undefined) enter(h.node);
        else if (s === 1) {
          const at = stack.findIndex((f) => f.node === h.node);
          found.push([...stack.slice(at).map((f) => f.node), h.node]);
        }
      }
    }
    return found;
  }
}

/** Relations that count in the dependency rankings and cycles: dependencies, not membership. */
function ranked(relation: string): boolean {
  return isDependencyRelation(relation) && !isMembershipRelation(relation) && !isDevelopmentRelation(relation);
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

function neighbour(h: Half, direction: 'out' | 'in'): Neighbour {
  return {
    node: h.node,
    relation: h.relation,
    direction,
    weight: h.weight,
    ...(h.evidence ? { evidence: h.evidence } : {}),
  };
}

function byNode(a: Half, b: Half): number {
  return a.node.localeCompare(b.node) || a.relation.localeCompare(b.relation);
}

function unwind(prev: Map<NodeKey, PathStep>, from: NodeKey, to: NodeKey): PathStep[] {
  const steps: PathStep[] = [];
  for (let n = to; n !== from;) {
    const step = prev.get(n)!;
    steps.push(
      step.evidence ? step : { from: step.from, to: step.to, relation: step.relation, direction: step.direction },
    );
    n = step.from;
  }
  return steps.reverse();
}

function sortRecord(r: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(r).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
}
