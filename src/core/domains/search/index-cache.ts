import { existsSync } from 'node:fs';
import path from 'node:path';
import { slicer } from '../../ground/kernel/slices';
import type { Workspace } from '../../ground/workspace';
import { embedderOf, FIELD_WEIGHTS } from './documents';
import { indexFileChunks, readIndexFile, writeIndexFile } from './index-file';
import type { SearchFilter, SearchIndex } from './index-types';
import { MAX_SLOTS, TermIndex } from './term-index';
import { VectorIndex } from './vector-index';

export type { SearchIndex } from './index-types';

export const FIELD_COUNT = 4;
/** BM25F's field weights (trigger, title, summary, rest) and length normalisation. */
const FIELDS = FIELD_WEIGHTS.map((weight) => ({ weight, b: 0.75 }));
/** Rows read from the store per query while building: with their terms, 1,000 took 20–45 ms of sql.js work on the 2-core machine, longer than a slice should be. */
const PAGE = 250;
/** Above this many changed recipes since the index's generation, reading them one by one costs more than a rebuild. */
const CATCH_UP_MAX = 5000;
/** Below this many recipes a rebuild takes a few milliseconds, so it is done before answering. */
const SMALL = 5000;

/** Changes applied one by one since the index was last saved before it is saved again. */
const SAVE_AFTER = 1000;

interface Holder {
  current?: SearchIndex;
  building?: Promise<SearchIndex>;
  /** The saved index has been tried (once per process: after that, a rebuild builds). */
  triedSaved?: boolean;
  /** Changes applied since the index was last saved. */
  unsaved: number;
  saving?: Promise<void>;
  /** Rows this process just wrote, by rid, with the generation that wrote them and their terms split. */
  written: Map<number, { generation: number; model: string; row: Row; fields: string[][] }>;
  dispose(): Promise<void>;
}

/** A recipe's search row as the recipe index writes it: its terms per field, already analysed. */
export interface WrittenRow {
  rid: number;
  kind: string;
  language: string;
  status: string;
  model: string;
  vec: Uint8Array;
  fields: string[][];
}

/** More rows than this waiting to be read by a search and they are dropped: the database has them too. */
const MAX_WRITTEN = 150_000;

/**
 * Called after a commit of the recipe index with the rows it wrote at `generation`: the next catch-up
 * or build takes them from here instead of reading them back from the database and splitting their
 * terms again, so each document is analysed once. A row changed since (by another process) has a
 * newer generation in `recipe_changes` and is read from the database as before.
 */
export function noteWrittenRows(ws: Workspace, generation: number, rows: WrittenRow[]): void {
  const written = holderOf(ws).written;
  if (written.size + rows.length > MAX_WRITTEN) {
    written.clear();
    return;
  }
  for (const r of rows) {
    const row: Row = {
      rid: r.rid,
      kind: r.kind,
      language: r.language,
      status: r.status,
      vec: r.vec,
      trigger: null,
      title: null,
      summary: null,
      body: null,
    };
    written.set(r.rid, { generation, model: r.model, row, fields: r.fields });
  }
}

const holderOf = (ws: Workspace) =>
  ws.service('search.index', (): Holder => {
    const holder: Holder = { unsaved: 0, written: new Map(), dispose: async () => void (await holder.saving) };
    return holder;
  });

/**
 * The index, at the store's current generation. The first call builds it (pages of rows with a turn
 * of the event loop between them, so a large index does not block the extension host; callers that
 * arrive meanwhile share the build); later calls apply what changed since.
 */
export async function searchIndex(ws: Workspace): Promise<SearchIndex> {
  const holder = holderOf(ws);
  const model = embedderOf(ws).id;
  for (let attempt = 0;; attempt++) {
    const ix = holder.current;
    const generation = currentGeneration(ws);
    const usable = ix && ix.model === model && (ix.generation === generation || catchUp(ws, holder, ix, generation));
    if (usable && holder.unsaved >= SAVE_AFTER) save(ws, holder, ix);
    if (!ix || !usable) {
      // A build reads the store as it is when it starts: catch up with what landed meanwhile on the next turn.
      const built = await rebuild(ws, holder);
      if (attempt < 2) continue;
      return built;
    }
    if (needsRebuild(ix)) {
      if (ix.terms.live < SMALL && attempt < 2) {
        await rebuild(ws, holder);
        continue;
      }
      void rebuild(ws, holder).catch((e) =>
        ws.log.warn('rebuilding the search index failed; the current one keeps serving', e)
      );
    }
    return ix;
  }
}

/** Drops the workspace's index, so the next search builds it again from the store. */
export function resetSearchIndex(ws: Workspace): void {
  holderOf(ws).current = undefined;
}

/** Settles once the index being saved (if any) is on disk or has failed to be. */
export async function searchIndexSaved(ws: Workspace): Promise<void> {
  await holderOf(ws).saving;
}

function rebuild(ws: Workspace, holder: Holder): Promise<SearchIndex> {
  holder.building ??= (holder.triedSaved ? buildAndSave(ws, holder) : loadOrBuild(ws, holder))
    .then((ix) => (holder.current = ix))
    .finally(() => (holder.building = undefined));
  return holder.building;
}

/** Where the index is saved: beside the database image, under its name (so its .gitignore covers it). */
export const searchIndexFile = (ws: Workspace) => `${ws.store.dbPath}.search`;

/**
 * The index saved by an earlier process, caught up to the store, when it was saved from this store
 * with this embedder and still counts what the store holds; otherwise a fresh build.
 */
async function loadOrBuild(ws: Workspace, holder: Holder): Promise<SearchIndex> {
  holder.triedSaved = true;
  const loaded = await readIndexFile(searchIndexFile(ws));
  let reason = 'reason' in loaded ? loaded.reason : '';
  if ('ix' in loaded) {
    const generation = currentGeneration(ws);
    const recipes = () => ws.store.get<{ n: number }>('SELECT count(*) AS n FROM recipes')?.n ?? 0;
    if (loaded.key.storeId !== storeId(ws)) reason = 'saved from another database';
    else if (loaded.key.model !== embedderOf(ws).id) reason = `saved with the embedder ${loaded.key.model}`;
    else if (loaded.key.generation > generation) {
      reason = `saved at generation ${loaded.key.generation}, ahead of the database's ${generation}`;
    } else if (!catchUp(ws, holder, loaded.ix, generation)) reason = 'too many changes since it was saved';
    else if (loaded.ix.terms.live !== recipes()) {
      reason = `it holds ${loaded.ix.terms.live} recipes where the database has ${recipes()}`;
    } else return loaded.ix;
  }
  if (reason !== 'none saved') {
    ws.log.info(`the saved search index was not used (${reason}); building it from the database`);
  }
  return buildAndSave(ws, holder);
}

async function buildAndSave(ws: Workspace, holder: Holder): Promise<SearchIndex> {
  const ix = await build(ws, holder);
  holder.unsaved = 0;
  save(ws, holder, ix);
  return ix;
}

/**
 * Saves the index in the background: its bytes are copied in slices first (abandoned when changes
 * are applied meanwhile, and tried again on a later search), then written. Skipped while another
 * save runs, and where the database has no folder on disk.
 */
function save(ws: Workspace, holder: Holder, ix: SearchIndex): void {
  if (holder.saving) return;
  const file = searchIndexFile(ws);
  if (!existsSync(path.dirname(file))) return;
  holder.unsaved = 0;
  const key = { storeId: storeId(ws), generation: ix.generation, model: ix.model };
  const changes = ix.changes;
  const turn = savePacing.turn();
  const pause = () => {
    const yielded = turn();
    return yielded?.then(() => {
      if (ix.changes !== changes) throw CHANGED;
    });
  };
  holder.saving = indexFileChunks(ix, key, pause)
    .then((chunks) => chunks && writeIndexFile(file, chunks))
    .catch((e) => {
      if (e === CHANGED) holder.unsaved = Math.max(holder.unsaved, SAVE_AFTER);
      else ws.log.warn(`saving the search index to ${file} failed; the next process builds it again`, e);
    })
    .finally(() => (holder.saving = undefined));
}

const CHANGED = new Error('the search index changed while it was being copied');

/** How a save yields between its steps: a slicer; tests put a gate here to hold a save half-way. */
export const savePacing = { turn: (): () => Promise<void> | undefined => slicer() };

const storeId = (ws: Workspace) =>
  ws.store.get<{ value: string }>("SELECT value FROM knowledge_meta WHERE key = 'store_id'")?.value ?? '';

/** The averages BM25F normalises by have moved, or removed documents fill half the index. */
function needsRebuild(ix: SearchIndex): boolean {
  const t = ix.terms;
  return (t.drift > 0.25 && Math.abs(t.live - t.builtWith) > 8) || (t.garbage > 0.5 && t.slotCount > 64)
    || t.slotCount > MAX_SLOTS - 4 * PAGE;
}

/** The recipe index's generation: bumped by every change to it (see `bumpGeneration`), read again only after a commit. */
export function currentGeneration(ws: Workspace): number {
  return ws.store.memo(
    'knowledge.generation',
    () =>
      Number(ws.store.get<{ value: string }>("SELECT value FROM knowledge_meta WHERE key = 'generation'")?.value ?? 0),
  );
}

interface Row {
  rid: number;
  kind: string;
  language: string;
  status: string;
  vec: Uint8Array | null;
  trigger: string | null;
  title: string | null;
  summary: string | null;
  body: string | null;
}

const SELECT_ROWS =
  `SELECT r.rid AS rid, r.kind AS kind, r.language AS language, r.status AS status, v.vec AS vec, t.trigger AS trigger, t.title AS title, t.summary AS summary, t.body AS body
  FROM recipes r LEFT JOIN recipe_vectors v ON v.rid = r.rid AND v.model = ? LEFT JOIN recipe_terms t ON t.rid = r.rid`;

const fieldsOf = (r: Row): string[][] => [r.trigger, r.title, r.summary, r.body].map((v) => (v ? v.split(' ') : []));

/**
 * Builds the index from the store in slices of at most SLICE_MS of work, so a large corpus never
 * holds the event loop (the extension host's, or the MCP server's while a request waits) for long.
 */
async function build(ws: Workspace, holder: Holder): Promise<SearchIndex> {
  const turn = slicer();
  // Read before the rows: a commit landing meanwhile is read again by the next catch-up (applying a change twice is harmless).
  const generation = currentGeneration(ws);
  const embedder = embedderOf(ws);
  const written = writtenRows(
    ws,
    holder,
    ws.store.all<{ rid: number; generation: number }>('SELECT rid, generation FROM recipe_changes'),
  );
  const rows: Row[] = [];
  const fields: string[][][] = [];
  const rids = ws.store.all<{ rid: number }>('SELECT rid FROM recipes ORDER BY rid').map((r) => r.rid);
  const missing = rids.filter((rid) => !written.has(rid));
  const read = new Map<number, Row>();
  for (let i = 0; i < missing.length; i += PAGE) {
    const chunk = missing.slice(i, i + PAGE);
    for (const row of ws.store.all<Row>(`${SELECT_ROWS} WHERE r.rid IN (${chunk.map(() => '?').join(',')})`, [
      embedder.id,
      ...chunk,
    ])) read.set(row.rid, row);
    await turn();
  }
  for (const rid of rids) {
    const w = written.get(rid);
    const row = w?.row ?? read.get(rid);
    if (!row) continue; // removed meanwhile
    rows.push(row);
    fields.push(w?.fields ?? fieldsOf(row));
  }
  const ix: SearchIndex = {
    generation,
    origin: 'built',
    changes: 0,
    model: embedder.id,
    terms: new TermIndex(FIELDS, fields.map((f) => f.map((words) => words.length))),
    vectors: new VectorIndex(embedder.dimensions, Math.max(1024, rows.length)),
    rid: [],
    kind: [],
    language: [],
    deprecated: new Uint8Array(Math.max(1024, rows.length)),
    slotOf: new Map(),
  };
  for (let i = 0; i < rows.length; i++) {
    addRow(ix, rows[i], fields[i]);
    if ((i & 63) === 63) await turn();
  }
  await ix.terms.sortAll(turn);
  holder.written.clear();
  return ix;
}

/**
 * The rows noted by `noteWrittenRows` that are still current (written at their latest change's
 * generation, with this embedder's vector), by rid. The caller forgets them once applied.
 */
function writtenRows(
  ws: Workspace,
  holder: Holder,
  changes: { rid: number; generation: number }[],
): Map<number, { row: Row; fields: string[][] }> {
  const out = new Map<number, { row: Row; fields: string[][] }>();
  if (holder.written.size === 0) return out;
  const model = embedderOf(ws).id;
  for (const c of changes) {
    const w = holder.written.get(c.rid);
    if (w && w.generation === c.generation && w.model === model) out.set(c.rid, w);
  }
  return out;
}

/** Applies the changes since the index's generation; false when there are too many to apply one by one. */
function catchUp(ws: Workspace, holder: Holder, ix: SearchIndex, generation: number): boolean {
  const changes = ws.store.all<{ rid: number; generation: number }>(
    'SELECT rid, generation FROM recipe_changes WHERE generation > ?',
    [ix.generation],
  );
  const written = writtenRows(ws, holder, changes);
  const changed = changes.map((r) => r.rid);
  if (changed.length - written.size > CATCH_UP_MAX) return false;
  for (const rid of changed) holder.written.delete(rid);
  holder.unsaved += changed.length;
  if (changed.length > 0) ix.changes++;
  const rows = new Map<number, Row>();
  const toRead = changed.filter((rid) => !written.has(rid));
  for (let i = 0; i < toRead.length; i += 500) {
    const chunk = toRead.slice(i, i + 500);
    for (const r of ws.store.all<Row>(`${SELECT_ROWS} WHERE r.rid IN (${chunk.map(() => '?').join(',')})`, [
      ix.model,
      ...chunk,
    ])) rows.set(r.rid, r);
  }
  for (const rid of changed) {
    const slot = ix.slotOf.get(rid);
    if (slot !== undefined) {
      ix.terms.remove(slot);
      ix.vectors.clear(slot);
      ix.slotOf.delete(rid);
    }
    const w = written.get(rid);
    const row = w?.row ?? rows.get(rid);
    if (row) addRow(ix, row, w?.fields ?? fieldsOf(row));
  }
  ix.generation = generation;
  return true;
}

function addRow(ix: SearchIndex, r: Row, fields: string[][]): void {
  const slot = ix.terms.add(fields);
  ix.slotOf.set(r.rid, slot);
  ix.rid[slot] = r.rid;
  ix.kind[slot] = r.kind;
  ix.language[slot] = r.language.toLowerCase();
  if (slot >= ix.deprecated.length) {
    const next = new Uint8Array(Math.max(slot + 1, ix.deprecated.length * 2));
    next.set(ix.deprecated);
    ix.deprecated = next;
  }
  ix.deprecated[slot] = r.status === 'deprecated' ? 1 : 0;
  if (r.vec) ix.vectors.set(slot, r.vec);
}

/** Whether the document in `slot` passes a filter. */
export function passes(ix: SearchIndex, slot: number, filter: SearchFilter): boolean {
  if (!filter.includeDeprecated && ix.deprecated[slot]) return false;
  if (filter.kind && ix.kind[slot] !== filter.kind) return false;
  if (filter.language && ix.language[slot] !== filter.language.toLowerCase()) return false;
  return true;
}
