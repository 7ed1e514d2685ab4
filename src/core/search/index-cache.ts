import type { Workspace } from '../workspace';
import { embedderOf } from './documents';
import type { SearchFilter } from './keyword';

/**
 * What search keeps in memory per workspace, reloaded when the index generation changes (another
 * process's sync included): per recipe its kind, language and status for filtering, its field
 * lengths for BM25, and its vector in one int8 matrix with its sign bits for the semantic shortlist.
 */
export interface SearchIndexCache {
  generation: number;
  model: string;
  size: number;
  rids: Int32Array;
  /** rid → row in the arrays below. */
  row: Map<number, number>;
  kind: string[];
  language: string[];
  deprecated: Uint8Array;
  /** Token counts of trigger, title, summary, body: 4 per row. */
  lengths: Uint32Array;
  dims: number;
  /** int8 vectors, `dims` per row; rows without a vector of the current model are zero. */
  vectors: Int8Array;
  hasVector: Uint8Array;
  /** Sign bits of each vector, `words` 32-bit words per row. */
  bits: Int32Array;
  words: number;
}

export const FIELD_COUNT = 4;

const PAGE = 2000;

/**
 * The cache, reloaded when the index generation changed. The reload reads pages of rows with a turn
 * of the event loop between them, so a large index does not block the extension host; callers that
 * arrive during a reload share it.
 */
export async function searchIndexCache(ws: Workspace): Promise<SearchIndexCache> {
  const holder = ws.service('search.cache', () => ({ current: undefined as SearchIndexCache | undefined, loading: undefined as Promise<SearchIndexCache> | undefined }));
  const generation = currentGeneration(ws);
  const model = embedderOf(ws).id;
  if (holder.current && holder.current.generation === generation && holder.current.model === model) return holder.current;
  holder.loading ??= load(ws).finally(() => (holder.loading = undefined));
  holder.current = await holder.loading;
  return holder.current;
}

function currentGeneration(ws: Workspace): number {
  return Number(ws.store.get<{ value: string }>("SELECT value FROM knowledge_meta WHERE key = 'generation'")?.value ?? 0);
}

interface Row { rid: number; kind: string; language: string; status: string; vec: Uint8Array | null; lengths: string | null }

async function load(ws: Workspace): Promise<SearchIndexCache> {
  for (let attempt = 0; ; attempt++) {
    const generation = currentGeneration(ws);
    const embedder = embedderOf(ws);
    const pages: Row[][] = [];
    for (let after = -1; ; ) {
      const page = ws.store.all<Row>(
        `SELECT r.rid AS rid, r.kind AS kind, r.language AS language, r.status AS status, v.vec AS vec, l.lengths AS lengths
         FROM recipes r LEFT JOIN recipe_vectors v ON v.rid = r.rid AND v.model = ? LEFT JOIN recipe_field_lengths l ON l.rid = r.rid
         WHERE r.rid > ? ORDER BY r.rid LIMIT ?`,
        [embedder.id, after, PAGE],
      );
      if (page.length === 0) break;
      pages.push(page);
      after = page[page.length - 1].rid;
      if (page.length < PAGE) break;
      await new Promise((r) => setImmediate(r));
    }
    // Another process changed the index while we read: read again (a few times at most).
    if (currentGeneration(ws) !== generation && attempt < 3) continue;
    return build(pages, generation, embedder.id, embedder.dimensions);
  }
}

function build(pages: Row[][], generation: number, model: string, dims: number): SearchIndexCache {
  const n = pages.reduce((a, p) => a + p.length, 0);
  const words = Math.ceil(dims / 32);
  const c: SearchIndexCache = {
    generation,
    model,
    size: n,
    rids: new Int32Array(n),
    row: new Map(),
    kind: new Array<string>(n),
    language: new Array<string>(n),
    deprecated: new Uint8Array(n),
    lengths: new Uint32Array(n * FIELD_COUNT),
    dims,
    vectors: new Int8Array(n * dims),
    hasVector: new Uint8Array(n),
    bits: new Int32Array(n * words),
    words,
  };
  let i = 0;
  for (const page of pages) {
    for (const r of page) {
      c.rids[i] = r.rid;
      c.row.set(r.rid, i);
      c.kind[i] = r.kind;
      c.language[i] = r.language.toLowerCase();
      c.deprecated[i] = r.status === 'deprecated' ? 1 : 0;
      if (r.lengths) r.lengths.split(',').forEach((x, j) => (c.lengths[i * FIELD_COUNT + j] = Number(x)));
      if (r.vec) {
        c.vectors.set(new Int8Array(r.vec.buffer, r.vec.byteOffset, Math.min(dims, r.vec.byteLength)), i * dims);
        c.hasVector[i] = 1;
        for (let d = 0; d < dims; d++) if (c.vectors[i * dims + d] > 0) c.bits[i * words + (d >>> 5)] |= 1 << (d & 31);
      }
      i++;
    }
  }
  return c;
}

/** Whether row `i` passes a filter. */
export function passes(c: SearchIndexCache, i: number, filter: SearchFilter): boolean {
  if (!filter.includeDeprecated && c.deprecated[i]) return false;
  if (filter.kind && c.kind[i] !== filter.kind) return false;
  if (filter.language && c.language[i] !== filter.language.toLowerCase()) return false;
  return true;
}
