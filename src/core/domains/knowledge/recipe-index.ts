/**
 * Recipe files ↔ the index. The Markdown files under `.autosnippet/recipes/` are the truth; the
 * database holds a row per file (metadata, content hash, quality), its keyword row and its vector.
 * `syncRecipes` brings the index in line with the disk: cheap when nothing changed (a stat per file),
 * in slices when much did, so the extension host is never blocked for long.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { readRepoFile } from '../../ground/files';
import { ErrorCode, isAutoSnippetError } from '../../ground/kernel/errors';
import { slicer } from '../../ground/kernel/slices';
import { insertRows, type JsonRow } from '../../ground/store/json-rows';
import type { SqlValue, Tx } from '../../ground/store/types';
import type { Workspace } from '../../ground/workspace';
import { packFolderOf, packRecipesDir } from '../packs/layout';
import { loadPacks } from '../packs/load';
import { deleteSearchRows, embedderOf, type IndexedRecipe, indexRecipes } from '../search/documents';
import { currentGeneration, noteWrittenRows, type WrittenRow } from '../search/index-cache';
import { isPersonalRecipeFile, PERSONAL_RECIPES_STATE, syncPersonalRecipes } from './personal';
import { contentQuality, contentScore } from './quality';
import { contentHash, lifecycleOf, parseRecipeFile, RECIPES_DIR } from './recipe-file';
import { recipeFolderWatch } from './recipe-watch';
import type { Recipe, RecipeFileProblem } from './types';

export interface SyncReport {
  scanned: number;
  added: string[];
  updated: string[];
  renamed: { from: string; to: string; id: string }[];
  removed: string[];
  unchanged: number;
  /** Files that could not be indexed, each naming the file and the field. */
  problems: RecipeFileProblem[];
  /** Files indexed with remarks (unknown fields, missing code…). */
  warnings: RecipeFileProblem[];
  durationMs: number;
}

export interface SyncOptions {
  /** Re-read and re-index every file even when unchanged (`rebuild_index`). */
  force?: boolean;
  signal?: AbortSignal;
  progress?(done: number, total: number): void;
  /** Files per transaction; the event loop gets a turn between slices. */
  sliceSize?: number;
  /**
   * Only these recipe files (workspace-relative), as a file watcher named them: each is stat'ed, and
   * indexed, updated or removed as it is on disk; nothing else is walked. A rename is found when both
   * of its paths are given.
   */
  files?: string[];
}

interface DiskFile {
  file: string;
  abs: string;
  mtime: number;
  size: number;
}
interface IndexRow {
  rid: number;
  id: string;
  file: string;
  hash: string;
  mtime: number;
  size: number;
}
interface ProblemRow {
  file: string;
  hash: string;
  mtime: number;
  size: number;
}

interface Parsed {
  disk: DiskFile;
  /** The pack a recipe comes from, when its file is in a pack's copy. */
  pack?: { name: string; version: string };
  /** Whether it is one of the person's own recipes (its file is in their copy); set from the location, never the file. */
  personal?: boolean;
  hash: string;
  recipe?: Recipe;
  problems: RecipeFileProblem[];
  warnings: RecipeFileProblem[];
}

/** Files per transaction while writing: the first slice, the bounds, and the synchronous work one slice aims at. */
const FIRST_SLICE = 25;
const MIN_SLICE = 10;
const MAX_SLICE = 500;
const SLICE_TARGET_MS = 20;
/** Index rows read per query (about 5 ms of sql.js work). */
const ROW_PAGE = 1000;
/** Recipe files stat'ed at once while listing. */
const STAT_BATCH = 64;

/** Brings the index in line with the recipe files. Serialized per workspace; safe to call often. */
export function syncRecipes(ws: Workspace, options: SyncOptions = {}): Promise<SyncReport> {
  const state = syncState(ws);
  const run = state.queue.then(async () => {
    if (options.files) return doSync(ws, options);
    // The walk starts once every folder is watched: a change made during it is seen by the next call.
    const watch = recipeFolderWatch(ws);
    await watch.watching();
    watch.walking();
    state.walks++;
    state.lastWalk = Date.now();
    return doSync(ws, options);
  });
  state.queue = run.catch(() => undefined);
  return run.finally(() => {
    state.lastSync = Date.now();
  });
}

export interface SyncState {
  queue: Promise<unknown>;
  /** When the last sync (of some files or of all) finished; 0 before the first. */
  lastSync: number;
  /** When the last walk of the whole folder started. */
  lastWalk: number;
  walks: number;
  /** A walk running in the background, which no answer waits for. */
  background?: Promise<unknown>;
}

export function syncState(ws: Workspace): SyncState {
  return ws.service('knowledge.sync', (): SyncState => ({
    queue: Promise.resolve(),
    lastSync: 0,
    lastWalk: 0,
    walks: 0,
  }));
}

/** How many times this process walked the workspace's recipe folder (each sync walks it once). */
export const recipeFolderWalks = (ws: Workspace) => syncState(ws).walks;

/** The index generation: bumped by every change to the recipe index, so caches know to reload or catch up. */
export function indexGeneration(ws: Workspace): number {
  return currentGeneration(ws);
}

/** Starts a new generation and records the recipes (row ids) it changed, added or removed, for the search index to catch up on. */
export function bumpGeneration(tx: Tx, rids: number[]): number {
  tx.run("UPDATE knowledge_meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'");
  const generation = Number(
    tx.get<{ value: string }>("SELECT value FROM knowledge_meta WHERE key = 'generation'")!.value,
  );
  insertRows(tx, 'INSERT OR REPLACE INTO recipe_changes (rid, generation)', 2, rids.map((rid) => [rid, generation]));
  return generation;
}

function emptyReport(scanned: number): SyncReport {
  return {
    scanned,
    added: [],
    updated: [],
    renamed: [],
    removed: [],
    unchanged: 0,
    problems: [],
    warnings: [],
    durationMs: 0,
  };
}

async function doSync(ws: Workspace, options: SyncOptions): Promise<SyncReport> {
  const t0 = Date.now();
  const report = emptyReport(0);
  const only = options.files && [...new Set(options.files)];
  const disk = only
    ? await statRecipeFiles(ws, only)
    : [...await listRecipeFiles(ws), ...await listPersonalRecipeFiles(ws), ...await listPackRecipeFiles(ws)];
  report.scanned = disk.length;

  const rows = new Map(
    (only
      ? selectIn<IndexRow>(ws.store, 'SELECT rid, id, file, hash, mtime, size FROM recipes WHERE file IN', only)
      : await indexRows(ws)).map((r) => [r.file, r]),
  );
  const problemRows = only
    ? selectIn<ProblemRow>(ws.store, 'SELECT file, hash, mtime, size FROM recipe_file_problems WHERE file IN', only)
    : ws.store.all<ProblemRow>('SELECT file, hash, mtime, size FROM recipe_file_problems');
  const broken = new Map(problemRows.map((r) => [r.file, r]));
  const model = embedderOf(ws).id;
  const staleModel = new Set(
    ws.store.all<{ rid: number }>('SELECT rid FROM recipe_vectors WHERE model <> ?', [model]).map((r) => r.rid),
  );

  const onDisk = new Set(disk.map((d) => d.file));
  const toRead: DiskFile[] = [];
  for (const d of disk) {
    const row = rows.get(d.file);
    const bad = broken.get(d.file);
    const same = (r: { mtime: number; size: number } | undefined) => r && r.mtime === d.mtime && r.size === d.size;
    if (!options.force && (same(row) || same(bad)) && !(row && staleModel.has(row.rid))) report.unchanged++;
    else toRead.push(d);
  }
  const gone = [...rows.values()].filter((r) => !onDisk.has(r.file));
  const goneProblems = [...broken.keys()].filter((f) => !onDisk.has(f));

  const parsed: Parsed[] = [];
  for (const d of toRead) {
    let text: string;
    try {
      text = (await readRepoFile(ws.root, d.file, { kind: 'recipe', signal: options.signal })).text;
    } catch (e) {
      if (isAutoSnippetError(e) && e.code === ErrorCode.NotFound) continue; // deleted between listing and reading: the next sync sees it gone
      if (isAutoSnippetError(e) && e.code === ErrorCode.Cancelled) throw e;
      // Too large, a FIFO, a link out of the workspace: a problem on that file, remembered until it changes.
      parsed.push({
        disk: d,
        hash: `unreadable:${d.size}:${d.mtime}`,
        problems: [{ file: d.file, message: (e as Error).message }],
        warnings: [],
      });
      continue;
    }
    const hash = contentHash(text);
    const result = parseRecipeFile(text, d.file);
    parsed.push(
      result.ok
        ? { disk: d, hash, recipe: result.recipe, problems: [], warnings: result.warnings }
        : { disk: d, hash, problems: result.problems, warnings: [] },
    );
  }

  if (parsed.some((p) => packFolderOf(p.disk.file))) {
    const packs = new Map(loadPacks(ws).loaded.map((l) => [l.folder, l]));
    for (const p of parsed) {
      const l = packs.get(packFolderOf(p.disk.file) ?? '');
      if (l) p.pack = { name: l.name, version: l.version };
    }
  }
  for (const p of parsed) if (isPersonalRecipeFile(p.disk.file)) p.personal = true;

  // A file that vanished and one that appeared with the same content is a rename: keep its row (and usage).
  const renames = new Map<string, IndexRow>();
  for (const p of parsed) {
    if (rows.has(p.disk.file) || !p.recipe) continue;
    const from = gone.find((g) => g.hash === p.hash && !renames.has(p.disk.file) && ![...renames.values()].includes(g));
    if (from) renames.set(p.disk.file, from);
  }
  const renamedRows = new Set(renames.values());
  const removals = gone.filter((g) => !renamedRows.has(g));

  if (removals.length || goneProblems.length) {
    await ws.store.transaction((tx) => {
      for (const r of removals) {
        deleteSearchRows(tx, r.rid);
        tx.run('DELETE FROM recipes WHERE rid = ?', [r.rid]);
      }
      for (const f of goneProblems) tx.run('DELETE FROM recipe_file_problems WHERE file = ?', [f]);
      if (removals.length) bumpGeneration(tx, removals.map((r) => r.rid));
    });
    report.removed.push(...removals.map((r) => r.id));
  }

  await writeParsed(ws, parsed, renames, options, report);

  report.problems = ws.store
    .all<{ problems: string }>('SELECT problems FROM recipe_file_problems ORDER BY file')
    .flatMap((r) => JSON.parse(r.problems) as RecipeFileProblem[]);
  report.durationMs = Date.now() - t0;
  if (report.added.length + report.updated.length + report.removed.length + report.renamed.length) {
    ws.log.info(
      `recipes synced: ${report.added.length} added, ${report.updated.length} updated, ${report.renamed.length} renamed, ${report.removed.length} removed, ${report.problems.length} with problems (${report.durationMs} ms)`,
    );
  }
  return report;
}

/** Every index row, a page at a time with a turn of the event loop between pages (10k rows at once held the thread for 40–130 ms). */
async function indexRows(ws: Workspace): Promise<IndexRow[]> {
  const turn = slicer();
  const out: IndexRow[] = [];
  for (let after = -1;;) {
    const page = ws.store.all<IndexRow>(
      'SELECT rid, id, file, hash, mtime, size FROM recipes WHERE rid > ? ORDER BY rid LIMIT ?',
      [after, ROW_PAGE],
    );
    for (const row of page) out.push(row);
    if (page.length < ROW_PAGE) return out;
    after = page[page.length - 1].rid;
    await turn();
  }
}

/**
 * Writes the parsed files a slice per transaction, with a turn of the event loop between slices. Unless
 * the caller fixes the slice size, it follows the time a slice's synchronous work (embedding and the
 * statements) took, aiming at SLICE_TARGET_MS: a fixed 100 files held the extension host for 60–100 ms
 * when every row was rewritten, and small recipes fit many more in the same time.
 */
async function writeParsed(
  ws: Workspace,
  parsed: Parsed[],
  renames: Map<string, IndexRow>,
  options: SyncOptions,
  report: SyncReport,
): Promise<void> {
  let size = options.sliceSize ?? FIRST_SLICE;
  const now = new Date().toISOString();
  for (let i = 0; i < parsed.length;) {
    if (options.signal?.aborted) break;
    const batch = parsed.slice(i, i + size);
    const good = batch.filter((p) => p.recipe);
    let busy = performance.now();
    // Each recipe's text is split once, for its keyword fields and its vector alike.
    const indexed = await indexRecipes(ws, good.map((p) => p.recipe!), options.signal);
    busy = performance.now() - busy;
    const indexOf = new Map(good.map((p, k) => [p, indexed[k]]));
    const written = await ws.store.transaction((tx) => {
      const t0 = performance.now();
      const w = applySlice(tx, batch, renames, indexOf, now, report);
      busy += performance.now() - t0;
      return w;
    });
    if (written) noteWrittenRows(ws, written.generation, written.rows);
    for (const p of batch) report.warnings.push(...p.warnings);
    i += batch.length;
    options.progress?.(i, parsed.length);
    if (options.sliceSize === undefined) {
      size = Math.max(
        MIN_SLICE,
        Math.min(MAX_SLICE, 2 * size, Math.round((size * SLICE_TARGET_MS) / Math.max(1, busy))),
      );
    }
    if (i < parsed.length) await new Promise((r) => setImmediate(r));
  }
}

/**
 * Indexes recipe texts as if they were files at the given paths, without touching the disk. For
 * benchmarks and tools that generate recipes; the next `syncRecipes` removes what has no file.
 */
export async function indexRecipeTexts(
  ws: Workspace,
  docs: { file: string; text: string }[],
  options: SyncOptions = {},
): Promise<SyncReport> {
  const report = emptyReport(docs.length);
  const t0 = Date.now();
  const parsed: Parsed[] = docs.map((d) => {
    const result = parseRecipeFile(d.text, d.file);
    const disk = { file: d.file, abs: '', mtime: 0, size: d.text.length };
    return result.ok
      ? { disk, hash: contentHash(d.text), recipe: result.recipe, problems: [], warnings: result.warnings }
      : { disk, hash: contentHash(d.text), problems: result.problems, warnings: [] };
  });
  await writeParsed(ws, parsed, new Map(), options, report);
  report.problems = parsed.flatMap((p) => p.problems);
  report.durationMs = Date.now() - t0;
  return report;
}

function writeProblem(tx: Tx, p: Parsed): void {
  tx.run('INSERT OR REPLACE INTO recipe_file_problems (file, hash, mtime, size, problems) VALUES (?, ?, ?, ?, ?)', [
    p.disk.file,
    p.hash,
    p.disk.mtime,
    p.disk.size,
    JSON.stringify(p.problems),
  ]);
  const row = tx.get<{ rid: number }>('SELECT rid FROM recipes WHERE file = ?', [p.disk.file]);
  if (row) {
    // A recipe that became unreadable leaves the index until it is fixed; its usage stays.
    deleteSearchRows(tx, row.rid);
    tx.run('DELETE FROM recipes WHERE rid = ?', [row.rid]);
    bumpGeneration(tx, [row.rid]);
  }
}

/**
 * Writes one slice of parsed files in a handful of statements (sql.js prepares every statement anew,
 * so row-at-a-time costs more than the work): looks up existing rows and id holders in one query each,
 * updates changed rows one by one, and inserts new rows, keyword rows and vectors many per statement.
 * Row ids of new recipes are assigned here and passed as values, so replaying the journal elsewhere
 * gives the same ids.
 */
function applySlice(
  tx: Tx,
  batch: Parsed[],
  renames: Map<string, IndexRow>,
  indexOf: Map<Parsed, IndexedRecipe>,
  now: string,
  report: SyncReport,
): { generation: number; rows: WrittenRow[] } | undefined {
  for (const p of batch) if (!p.recipe) writeProblem(tx, p);
  const good = batch.filter((p) => p.recipe);
  if (good.length === 0) return undefined;
  const lookup = [
    ...good.map((p) => p.disk.file),
    ...good.flatMap((p) => (renames.has(p.disk.file) ? [renames.get(p.disk.file)!.file] : [])),
  ];
  const byFile = new Map(
    selectIn<{ rid: number; id: string; file: string; hash: string }>(
      tx,
      'SELECT rid, id, file, hash FROM recipes WHERE file IN',
      lookup,
    ).map((r) => [r.file, r]),
  );
  const byId = new Map(
    selectIn<{ rid: number; id: string; file: string }>(
      tx,
      'SELECT rid, id, file FROM recipes WHERE id IN',
      good.map((p) => p.recipe!.id),
    ).map((r) => [r.id, r]),
  );
  let nextRid = (tx.get<{ m: number }>('SELECT COALESCE(MAX(rid), 0) AS m FROM recipes')?.m ?? 0) + 1;
  const claimed = new Map<string, string>();
  const inserts: JsonRow[] = [];
  const termRows: JsonRow[] = [];
  const vectorRows: SqlValue[][] = [];
  const written: WrittenRow[] = [];
  const indexed: string[] = [];
  const evicted: number[] = [];

  for (const p of good) {
    const r = p.recipe!;
    const renamedFrom = renames.get(p.disk.file);
    const existing = byFile.get(p.disk.file) ?? (renamedFrom ? byFile.get(renamedFrom.file) : undefined);
    let holder = byId.get(r.id);
    if (holder && holder.rid !== existing?.rid && overrides(p.disk.file, holder.file)) {
      // The project's recipe wins over a pack's of the same id: the pack's leaves the index (its file stays).
      deleteSearchRows(tx, holder.rid);
      tx.run('DELETE FROM recipes WHERE rid = ?', [holder.rid]);
      evicted.push(holder.rid);
      byId.delete(r.id);
      holder = undefined;
    }
    const clash = holder && holder.rid !== existing?.rid ? holder.file : claimed.get(r.id);
    if (clash && overrides(clash, p.disk.file)) {
      // A pack's recipe whose id the project uses is left out, not reported: that is how a project overrides it.
      if (existing) {
        deleteSearchRows(tx, existing.rid);
        tx.run('DELETE FROM recipes WHERE rid = ?', [existing.rid]);
        evicted.push(existing.rid);
      }
      continue;
    }
    if (clash) {
      const problem = {
        file: p.disk.file,
        field: 'id',
        message:
          `The id "${r.id}" is already used by ${clash}. Give this recipe its own \`id\` in the frontmatter, or remove the other file.`,
      };
      p.problems = [problem];
      p.recipe = undefined;
      writeProblem(tx, p);
      continue;
    }
    claimed.set(r.id, p.disk.file);
    const values = rowValues(p, now);
    let rid: number;
    if (existing) {
      rid = existing.rid;
      tx.run(
        `UPDATE recipes SET id = ?, file = ?, hash = ?, mtime = ?, size = ?, title = ?, trigger = ?, language = ?, category = ?, knowledge_type = ?, kind = ?,
         status = ?, scope = ?, complexity = ?, summary = ?, tags = ?, meta = ?, quality = ?, updated_at = ? WHERE rid = ?`,
        [...values, rid],
      );
      if (existing.id !== r.id) moveUsage(tx, existing.id, r.id);
      if (existing.file !== p.disk.file) report.renamed.push({ from: existing.file, to: p.disk.file, id: r.id });
      else if (existing.hash !== p.hash) report.updated.push(r.id);
      else report.unchanged++;
    } else {
      rid = nextRid++;
      inserts.push([rid, ...values]);
      report.added.push(r.id);
    }
    const v = indexOf.get(p)!;
    const fields = v.fields;
    termRows.push([rid, ...fields.map((terms) => terms.join(' '))]);
    vectorRows.push([rid, v.model, v.bytes]);
    written.push({ rid, kind: r.kind, language: r.language, status: r.status, model: v.model, vec: v.bytes, fields });
    indexed.push(p.disk.file);
  }
  insertRows(
    tx,
    'INSERT INTO recipes (rid, id, file, hash, mtime, size, title, trigger, language, category, knowledge_type, kind, status, scope, complexity, summary, tags, meta, quality, updated_at)',
    20,
    inserts,
  );
  insertRows(tx, 'INSERT OR REPLACE INTO recipe_terms (rid, trigger, title, summary, body)', 5, termRows);
  insertMany(tx, 'INSERT OR REPLACE INTO recipe_vectors (rid, model, vec)', vectorRows);
  // Most syncs find no file with a problem: then there is nothing to clear.
  if (tx.get('SELECT 1 AS x FROM recipe_file_problems LIMIT 1')) {
    runIn(tx, 'DELETE FROM recipe_file_problems WHERE file IN', indexed);
  }
  if (written.length === 0) {
    if (evicted.length) bumpGeneration(tx, evicted);
    return undefined;
  }
  return { generation: bumpGeneration(tx, [...evicted, ...termRows.map((row) => row[0] as number)]), rows: written };
}

function rowValues(p: Parsed, now: string): JsonRow {
  const r = p.recipe!;
  const quality = contentQuality(r);
  const meta = {
    relations: r.relations,
    constraints: r.constraints,
    sourceFiles: r.sourceFiles,
    fingerprints: r.fingerprints,
    candidateId: r.candidateId,
    target: r.target,
    paths: r.paths,
    pack: p.pack,
    personal: p.personal,
    hasCode: !!r.code,
    ...lifecycleOf(r),
    quality,
  };
  const updatedAt =
    [r.deprecatedAt, r.publishedAt, r.approvedAt, r.createdAt, new Date(p.disk.mtime).toISOString()].filter((
      x,
    ): x is string => !!x && !Number.isNaN(Date.parse(x))).sort().pop() ?? now;
  return [
    r.id,
    p.disk.file,
    p.hash,
    p.disk.mtime,
    p.disk.size,
    r.title,
    r.trigger,
    r.language,
    r.category,
    r.knowledgeType,
    r.kind,
    r.status,
    r.scope,
    r.complexity,
    r.summary,
    JSON.stringify(r.tags),
    JSON.stringify(meta),
    contentScore(quality),
    updatedAt,
  ];
}

const MAX_PARAMS = 9000;

function insertMany(tx: Tx, head: string, rows: SqlValue[][]): void {
  if (rows.length === 0) return;
  const width = rows[0].length;
  const per = Math.max(1, Math.floor(MAX_PARAMS / width));
  const tuple = `(${new Array(width).fill('?').join(', ')})`;
  for (let i = 0; i < rows.length; i += per) {
    const chunk = rows.slice(i, i + per);
    tx.run(`${head} VALUES ${chunk.map(() => tuple).join(', ')}`, chunk.flat());
  }
}

/** Rows whose column is one of `values`: the values go as one JSON parameter (`head` ends with `col IN`). */
function selectIn<T>(tx: Pick<Tx, 'all'>, head: string, values: SqlValue[]): T[] {
  if (values.length === 0) return [];
  return tx.all<T>(`${head} (SELECT value FROM json_each(?))`, [JSON.stringify(values)]);
}

function runIn(tx: Tx, head: string, values: SqlValue[]): void {
  if (values.length) tx.run(`${head} (SELECT value FROM json_each(?))`, [JSON.stringify(values)]);
}

function moveUsage(tx: Tx, from: string, to: string): void {
  if (tx.get('SELECT 1 AS x FROM recipe_usage WHERE recipe_id = ?', [to])) return;
  tx.run('UPDATE recipe_usage SET recipe_id = ? WHERE recipe_id = ?', [to, from]);
}

/**
 * Every `*.md` under `.autosnippet/recipes/`, with its stat. README files are documentation, not recipes.
 * Links and special files (FIFOs, sockets) are listed too: the safe reader refuses them with a problem
 * that names them, where leaving them out would be silence.
 */
export async function listRecipeFiles(ws: Workspace, under = RECIPES_DIR): Promise<DiskFile[]> {
  const root = path.join(ws.root, under);
  const out: DiskFile[] = [];
  const statOne = async (abs: string) => {
    try {
      const st = await fsp.stat(abs).catch(() => fsp.lstat(abs)); // a dangling link is listed too
      out.push({ file: path.relative(ws.root, abs).split(path.sep).join('/'), abs, mtime: st.mtimeMs, size: st.size });
    } catch {
      // vanished while listing
    }
  };
  const walk = async (dir: string): Promise<void> => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    const files: string[] = [];
    for (const e of entries) {
      const abs = path.join(dir, e.name);
      if (e.isDirectory() && !e.name.startsWith('.')) await walk(abs);
      else if (isRecipeFileName(e.name)) files.push(abs);
    }
    // Stats in parallel batches: one at a time, 10,000 recipes took half a second.
    for (let i = 0; i < files.length; i += STAT_BATCH) await Promise.all(files.slice(i, i + STAT_BATCH).map(statOne));
  };
  await walk(root);
  return out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/**
 * Whether the recipe file `winner` takes an id from `loser`: the project's own recipes override the
 * person's, and both override the packs' (docs/personal.md says why).
 */
function overrides(winner: string, loser: string): boolean {
  return originRank(winner) < originRank(loser);
}

/** 0 for the project's own recipe files, 1 for the person's, 2 for a pack's. */
function originRank(file: string): number {
  return isPersonalRecipeFile(file) ? 1 : packFolderOf(file) !== undefined ? 2 : 0;
}

/** The person's recipe files, copied into the workspace first (`.autosnippet/state/personal/recipes/`). */
async function listPersonalRecipeFiles(ws: Workspace): Promise<DiskFile[]> {
  return syncPersonalRecipes(ws) ? listRecipeFiles(ws, PERSONAL_RECIPES_STATE) : [];
}

/** The recipe files of the packs loaded into the workspace (verified copies under `.autosnippet/state/packs/`). */
async function listPackRecipeFiles(ws: Workspace): Promise<DiskFile[]> {
  const out: DiskFile[] = [];
  for (const p of loadPacks(ws).loaded) out.push(...await listRecipeFiles(ws, packRecipesDir(p.folder)));
  return out;
}

/** A recipe file's name: Markdown, neither hidden nor a README (which documents the folder). */
export function isRecipeFileName(name: string): boolean {
  const lower = name.toLowerCase();
  return !name.startsWith('.') && lower.endsWith('.md') && lower !== 'readme.md';
}

/** The given recipe files (workspace-relative) that are on disk, with their stat; a folder or a non-recipe name is left out. */
async function statRecipeFiles(ws: Workspace, files: string[]): Promise<DiskFile[]> {
  const out: DiskFile[] = [];
  for (const file of files) {
    if (!isRecipeFileName(path.posix.basename(file))) continue;
    const abs = path.join(ws.root, file);
    const st = await fsp.stat(abs).catch(() => fsp.lstat(abs)).catch(() => undefined);
    if (st && !st.isDirectory()) out.push({ file, abs, mtime: st.mtimeMs, size: st.size });
  }
  return out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}
