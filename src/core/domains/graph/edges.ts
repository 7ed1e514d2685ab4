import { createHash } from 'node:crypto';
import type { SqlValue } from '../../ground/store/types';
import type { Workspace } from '../../ground/workspace';
import { normalizeRelation } from './relations';
import type { EdgeOrigin, GraphEdge } from './types';

/** Rows per INSERT statement: few statements to journal, well under SQLite's bound-parameter limit. */
const ROWS_PER_INSERT = 150;

interface EdgeRow {
  from_node: string;
  to_node: string;
  relation: string;
  weight: number;
  evidence: string | null;
}

/** Every stored edge, relations already normalised. */
export async function loadEdges(ws: Workspace): Promise<GraphEdge[]> {
  const rows = await ws.store.all<EdgeRow>('SELECT from_node, to_node, relation, weight, evidence FROM graph_edges');
  return rows.map((r) => ({
    from: r.from_node,
    to: r.to_node,
    relation: r.relation,
    weight: r.weight,
    ...(r.evidence ? { evidence: r.evidence } : {}),
  }));
}

/** Increases on every change to the edges; the in-memory index is rebuilt when it moves. */
export async function graphVersion(ws: Workspace): Promise<number> {
  const row = await ws.store.get<{ value: string }>(`SELECT value FROM graph_meta WHERE key = 'version'`);
  return row ? Number(row.value) : 0;
}

export async function getGraphMeta(ws: Workspace, key: string): Promise<string | undefined> {
  const row = await ws.store.get<{ value: string }>('SELECT value FROM graph_meta WHERE key = ?', [key]);
  return row?.value;
}

/** Rows per transaction when a large set is written: each slice is short, and the event loop gets a turn between slices. */
const ROWS_PER_TRANSACTION = 1000;

/**
 * Replaces every edge written by `origin` with `edges` (relations normalised, duplicates merged).
 * Writes nothing when the set is unchanged (a digest per origin is kept in graph_meta), so refreshing
 * an unchanged project costs one hash. A large set is written in slices of a thousand rows, and
 * the digest and version move only once the last slice is in, so an interrupted write is redone.
 */
export async function replaceEdges(
  ws: Workspace,
  origin: EdgeOrigin,
  edges: GraphEdge[],
): Promise<{ edges: number; changed: boolean }> {
  const wanted = canonical(edges);
  const digest = digestOf(wanted);
  const digestKey = `digest:${origin}`;
  if ((await getGraphMeta(ws, digestKey)) === digest) return { edges: wanted.length, changed: false };

  for (let i = 0; i === 0 || i < wanted.length; i += ROWS_PER_TRANSACTION) {
    const slice = wanted.slice(i, i + ROWS_PER_TRANSACTION);
    const last = i + ROWS_PER_TRANSACTION >= wanted.length;
    // Computed from the project (and recomputed when missing): no reason on its own to create the database.
    await ws.store.transaction((tx) => {
      if (i === 0) {
        tx.run('DELETE FROM graph_edges WHERE origin = ?', [origin]);
        tx.run('DELETE FROM graph_meta WHERE key = ?', [digestKey]);
      }
      for (let k = 0; k < slice.length; k += ROWS_PER_INSERT) {
        const rows = slice.slice(k, k + ROWS_PER_INSERT);
        const params: SqlValue[] = [];
        for (const e of rows) params.push(e.from, e.to, e.relation, e.weight, origin, e.evidence ?? null);
        tx.run(
          `INSERT INTO graph_edges (from_node, to_node, relation, weight, origin, evidence) VALUES ${
            rows.map(() => '(?,?,?,?,?,?)').join(',')
          }`,
          params,
        );
      }
      if (last) {
        tx.run(
          'INSERT INTO graph_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
          [digestKey, digest],
        );
        tx.run(
          `INSERT INTO graph_meta (key, value) VALUES ('version', '1') ON CONFLICT(key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)`,
        );
      }
    }, { derived: true });
    if (!last) await new Promise((resolve) => setImmediate(resolve));
  }
  return { edges: wanted.length, changed: true };
}

/**
 * Adds one edge of `origin`, or updates its weight and evidence when it is there already (evidence
 * given before is kept when none is given now). The relation is normalised; the caller has checked
 * that both nodes exist and differ. Moves the graph version, so the next query sees the edge.
 */
export async function addEdge(
  ws: Workspace,
  origin: EdgeOrigin,
  edge: Omit<GraphEdge, 'weight'> & { weight?: number },
): Promise<{ edge: GraphEdge; created: boolean }> {
  const relation = normalizeRelation(edge.relation);
  return ws.store.transaction((tx) => {
    const key = [edge.from, edge.to, relation, origin];
    const prev = tx.get<EdgeRow>(
      'SELECT from_node, to_node, relation, weight, evidence FROM graph_edges WHERE from_node = ? AND to_node = ? AND relation = ? AND origin = ?',
      key,
    );
    const weight = edge.weight ?? prev?.weight ?? 1;
    const evidence = edge.evidence ?? prev?.evidence ?? undefined;
    if (prev) {
      tx.run(
        'UPDATE graph_edges SET weight = ?, evidence = ? WHERE from_node = ? AND to_node = ? AND relation = ? AND origin = ?',
        [weight, evidence ?? null, ...key],
      );
    } else {
      tx.run(
        'INSERT INTO graph_edges (from_node, to_node, relation, weight, origin, evidence) VALUES (?, ?, ?, ?, ?, ?)',
        [edge.from, edge.to, relation, weight, origin, evidence ?? null],
      );
    }
    tx.run(
      `INSERT INTO graph_meta (key, value) VALUES ('version', '1') ON CONFLICT(key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)`,
    );
    return {
      edge: { from: edge.from, to: edge.to, relation, weight, ...(evidence ? { evidence } : {}) },
      created: !prev,
    };
  });
}

function digestOf(edges: GraphEdge[]): string {
  const h = createHash('sha1');
  for (const e of edges) {
    h.update(`${e.from}\u0000${e.to}\u0000${e.relation}\u0000${e.weight}\u0000${e.evidence ?? ''}\n`);
  }
  return h.digest('hex');
}

/** Relations normalised, self-loops dropped, one edge per (from, to, relation), sorted. */
function canonical(edges: GraphEdge[]): GraphEdge[] {
  const byKey = new Map<string, GraphEdge>();
  for (const e of edges) {
    if (!e.from || !e.to || e.from === e.to) continue;
    const relation = normalizeRelation(e.relation);
    if (!relation) continue;
    const k = `${e.from}\u0000${e.to}\u0000${relation}`;
    const prev = byKey.get(k);
    const weight = Number.isFinite(e.weight) ? e.weight : 1;
    if (!prev) {
      byKey.set(k, { from: e.from, to: e.to, relation, weight, ...(e.evidence ? { evidence: e.evidence } : {}) });
    } else {
      prev.weight = Math.max(prev.weight, weight);
      if (!prev.evidence && e.evidence) prev.evidence = e.evidence;
    }
  }
  return [...byKey.values()].sort((a, b) => cmp(a.from, b.from) || cmp(a.to, b.to) || cmp(a.relation, b.relation));
}

/** Code-unit order, the same as SQLite's default BINARY collation used by ORDER BY above. */
function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
