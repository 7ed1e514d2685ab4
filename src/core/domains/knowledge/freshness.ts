/**
 * Freshness tracking: which recipes still match the code they cite. One tracker per workspace keeps
 * the last verdict of every draft and published recipe and an index from cited file to recipes, so a
 * refresh re-checks only the recipes whose recipe file or cited files changed: O(changed files).
 * It runs off the request path: VS Code's file watcher feeds it the changed files (debounced); other
 * channels stat the cited files (no reads) and re-check what changed. Readers get the last verdicts.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { readRepoFile } from '../../ground/files';
import type { Workspace } from '../../ground/workspace';
import {
  checkRecipe,
  type Freshness,
  type RecipeFreshness,
  type SourceAccess,
  type TrackedRecipe,
} from './freshness-check';
import {
  parseSourceRef,
  readSource,
  type SourceRead,
  type SourceRef,
  sourceStamp,
  type SourceText,
} from './freshness-fingerprint';
import { gitRenames, untrackedFiles } from './freshness-git';
import { parseRecipeFile } from './recipe-file';
import { indexGeneration } from './recipe-index';
import type { Fingerprints, RecipeStatus } from './types';

/** A recipe as the tracker knows it, with its last verdict. */
export interface RecipeFreshnessEntry extends RecipeFreshness {
  title: string;
  status: RecipeStatus;
  file: string;
}

export interface RefreshReport {
  /** Recipes checked in this refresh. */
  checked: number;
  /** Recipes whose verdict changed. */
  changed: string[];
  durationMs: number;
}

export type FreshnessCounts = Record<Freshness, number>;

interface Known extends TrackedRecipe {
  file: string;
  hash: string;
  title: string;
  status: RecipeStatus;
}

interface RecipeRowLite {
  id: string;
  file: string;
  hash: string;
  title: string;
  status: string;
  meta: string;
}

/** The pseudo-path recipes with a vanished source also watch: git's index changes on `git mv`, commits, pulls. */
const GIT_INDEX = '.git/index';
const BACKGROUND_INTERVAL_MS = 2000;

export class FreshnessTracker {
  private readonly known = new Map<string, Known>();
  private readonly verdicts = new Map<string, RecipeFreshness>();
  /** Cited path → the recipes that cite it (their moved-to and renamed paths too). */
  private readonly citing = new Map<string, Set<string>>();
  private readonly pathsOf = new Map<string, Set<string>>();
  private readonly stamps = new Map<string, string>();
  private generation = -1;
  private queue: Promise<unknown> = Promise.resolve();
  private lastRefresh = 0;
  private refreshes = 0;
  private readonly listeners = new Set<(report: RefreshReport) => void>();
  /** Cited files read before, so a refresh reads only the files that changed. */
  private readonly texts = new SourceTextCache();

  constructor(private readonly ws: Workspace) {}

  /** Whether a refresh has finished: before it, there are no verdicts to count. */
  get everChecked(): boolean {
    return this.refreshes > 0;
  }

  /** When the last refresh finished (ms since the epoch); 0 before the first. */
  get checkedAt(): number {
    return this.lastRefresh;
  }

  /**
   * Brings the verdicts up to date. With `changedFiles` (workspace-relative, from a file watcher) only
   * those files are considered changed; without, the cited files are stat'ed to find the changed ones.
   * `all` re-checks every recipe. Serialized: concurrent calls run one after the other.
   */
  refresh(options: { changedFiles?: string[]; all?: boolean } = {}): Promise<RefreshReport> {
    const run = this.queue.then(() => this.doRefresh(options));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** A refresh in the background, at most once every 2 s: for readers that must not wait (search). */
  refreshSoon(): void {
    if (Date.now() - this.lastRefresh < BACKGROUND_INTERVAL_MS) return;
    this.lastRefresh = Date.now();
    this.refresh().catch((e) => this.ws.log.warn(`freshness check failed: ${(e as Error).message}`));
  }

  /** The last verdict of a recipe (draft or published), if it was checked. */
  get(id: string): RecipeFreshnessEntry | undefined {
    const v = this.verdicts.get(id);
    const k = this.known.get(id);
    return v && k ? { ...v, title: k.title, status: k.status, file: k.file } : undefined;
  }

  /** Every verdict, stale first. */
  entries(): RecipeFreshnessEntry[] {
    const order: Record<Freshness, number> = { stale: 0, moved: 1, untracked: 2, fresh: 3 };
    return [...this.verdicts.keys()]
      .map((id) => this.get(id)!)
      .filter(Boolean)
      .sort((a, b) => order[a.freshness] - order[b.freshness] || a.id.localeCompare(b.id));
  }

  counts(filter?: (e: RecipeFreshnessEntry) => boolean): FreshnessCounts {
    const counts: FreshnessCounts = { fresh: 0, stale: 0, moved: 0, untracked: 0 };
    for (const id of this.verdicts.keys()) {
      const e = this.get(id);
      if (e && (!filter || filter(e))) counts[e.freshness]++;
    }
    return counts;
  }

  /** Called after every refresh that changed a verdict. */
  onDidChange(listener: (report: RefreshReport) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private async doRefresh(options: { changedFiles?: string[]; all?: boolean }): Promise<RefreshReport> {
    const t0 = Date.now();
    const toCheck = await this.loadRecipes();
    const changedPaths = options.changedFiles ? options.changedFiles.map(normalizePath) : this.statChangedPaths();
    for (const p of changedPaths) for (const id of this.citing.get(p) ?? []) toCheck.add(id);
    // A created file may be where a vanished source went.
    if (options.changedFiles?.length) { for (const id of this.citing.get(GIT_INDEX) ?? []) toCheck.add(id); }
    if (options.all) { for (const id of this.known.keys()) toCheck.add(id); }

    const access = new CachedSourceAccess(this.ws.root, this.texts);
    const changed: string[] = [];
    for (const id of toCheck) {
      const recipe = this.known.get(id);
      if (!recipe) continue;
      const verdict = await checkRecipe(recipe, access);
      const before = this.verdicts.get(id);
      if (!before || before.freshness !== verdict.freshness || before.reason !== verdict.reason) changed.push(id);
      this.verdicts.set(id, verdict);
      this.index(id, verdict, recipe);
    }
    for (const [p, stamp] of access.stamps) this.stamps.set(p, stamp);
    this.stamps.set(GIT_INDEX, stampOf(path.join(this.ws.root, GIT_INDEX)));
    this.lastRefresh = Date.now();
    this.refreshes++;
    const report = { checked: toCheck.size, changed, durationMs: Date.now() - t0 };
    if (changed.length) { for (const l of this.listeners) l(report); }
    return report;
  }

  /** Reads the recipe rows when the index changed; answers the recipes that are new or edited. */
  private async loadRecipes(): Promise<Set<string>> {
    const changed = new Set<string>();
    const generation = indexGeneration(this.ws);
    if (generation === this.generation) return changed;
    this.generation = generation;
    const rows = this.ws.store.all<RecipeRowLite>(
      "SELECT id, file, hash, title, status, meta FROM recipes WHERE status <> 'deprecated'",
    );
    const seen = new Set<string>();
    for (const row of rows) {
      seen.add(row.id);
      const before = this.known.get(row.id);
      if (before && before.hash === row.hash && before.file === row.file) {
        before.status = row.status as RecipeStatus;
        before.title = row.title;
        continue;
      }
      const meta = JSON.parse(row.meta) as { sourceFiles?: string[]; fingerprints?: Fingerprints };
      const code = meta.fingerprints?.code ? await this.recipeCode(row.file) : undefined;
      this.known.set(row.id, {
        id: row.id,
        file: row.file,
        hash: row.hash,
        title: row.title,
        status: row.status as RecipeStatus,
        sources: meta.sourceFiles ?? [],
        fingerprints: meta.fingerprints,
        code,
      });
      changed.add(row.id);
    }
    for (const id of [...this.known.keys()]) {
      if (seen.has(id)) continue;
      this.known.delete(id);
      this.verdicts.delete(id);
      this.index(id);
    }
    return changed;
  }

  private async recipeCode(file: string): Promise<string | undefined> {
    try {
      const parsed = parseRecipeFile((await readRepoFile(this.ws.root, file, { kind: 'recipe' })).text, file);
      return parsed.ok ? parsed.recipe.code : undefined;
    } catch {
      return undefined;
    }
  }

  /** Cited paths whose mtime or size changed since they were last read (a stat each, no reads). */
  private statChangedPaths(): string[] {
    const out: string[] = [];
    for (const p of this.citing.keys()) {
      const stamp = stampOf(path.join(this.ws.root, p));
      if (this.stamps.get(p) !== stamp) out.push(p);
    }
    return out;
  }

  /** Records which paths a recipe depends on now (its sources, where they moved, git's index when one vanished). */
  private index(id: string, verdict?: RecipeFreshness, recipe?: TrackedRecipe): void {
    for (const p of this.pathsOf.get(id) ?? []) {
      const set = this.citing.get(p);
      set?.delete(id);
      if (set && set.size === 0) this.citing.delete(p);
    }
    this.pathsOf.delete(id);
    if (!verdict || !recipe) return;
    const paths = new Set<string>();
    for (const raw of recipe.sources) {
      const ref = parseSourceRef(raw);
      if (ref) paths.add(ref.path);
    }
    for (const s of verdict.sources) {
      const moved = s.movedTo && parseSourceRef(s.movedTo);
      if (moved) paths.add(moved.path);
      if (s.state === 'deleted' || s.movedTo) paths.add(GIT_INDEX);
    }
    this.pathsOf.set(id, paths);
    for (const p of paths) {
      let set = this.citing.get(p);
      if (!set) this.citing.set(p, set = new Set());
      set.add(id);
    }
  }
}

/** The workspace's tracker, created on first use. */
export function freshnessTracker(ws: Workspace): FreshnessTracker {
  return ws.service('knowledge.freshness', (w) => new FreshnessTracker(w));
}

/**
 * The `health` counter: recipes (draft or published) whose cited code changed. Once a first check has
 * run, a refresh re-checks only the recipes whose files or cited files changed (a stat per cited file);
 * the first check reads every recipe and every cited file, so it runs in the background, and until it
 * is done there is no count and `pending` says so.
 */
export async function freshnessHealthCounter(
  ws: Workspace,
): Promise<{ stale: number } | { counts: Record<string, number>; pending: string }> {
  const tracker = freshnessTracker(ws);
  if (!tracker.everChecked && !ws.oneShot) {
    // On a later turn: the check's first steps are synchronous (every recipe row), and the answer goes out first.
    setImmediate(() => tracker.refreshSoon());
    return {
      counts: {},
      pending:
        'stale: the code the recipes cite is being checked for the first time in this process; the count follows once it is done.',
    };
  }
  await tracker.refresh();
  return { stale: tracker.counts().stale };
}

/**
 * Reads each cited file once per refresh, and asks git where a missing file went: committed and
 * staged renames first, then files not yet tracked that hold the recorded lines (a move in the
 * working tree that git has not seen yet).
 */
export class CachedSourceAccess implements SourceAccess {
  readonly stamps = new Map<string, string>();
  private readonly reads = new Map<string, Promise<SourceRead>>();
  private renames?: Promise<Map<string, string> | undefined>;
  private untracked?: Promise<string[]>;

  constructor(private readonly root: string, private readonly texts?: SourceTextCache) {}

  read(rel: string): Promise<SourceRead> {
    let r = this.reads.get(rel);
    if (!r) {
      r = readSource(this.root, rel, this.texts?.get(rel)).then((read) => {
        this.stamps.set(rel, read.stamp);
        if (read.ok) this.texts?.set(rel, read.stamp, read.text);
        else this.texts?.delete(rel);
        return read;
      });
      this.reads.set(rel, r);
    }
    return r;
  }

  async renamedTo(rel: string, ref: SourceRef, recorded?: string): Promise<string | undefined> {
    this.renames ??= gitRenames(this.root);
    const renamed = (await this.renames)?.get(rel);
    if (renamed && (await this.read(renamed)).ok) return renamed;
    this.untracked ??= untrackedFiles(this.root);
    const files = await this.untracked;
    const base = path.posix.basename(rel);
    const sameName = files.filter((f) => path.posix.basename(f) === base);
    if (recorded && ref.start !== undefined) {
      const ext = path.posix.extname(rel);
      const length = (ref.end ?? ref.start) - ref.start + 1;
      const candidates = [
        ...sameName,
        ...files.filter((f) => path.posix.extname(f) === ext && path.posix.basename(f) !== base),
      ].slice(0, 200);
      for (const f of candidates) {
        const read = await this.read(f);
        if (read.ok && read.text.findBlock(recorded, length, ref.start)) return f;
      }
    }
    return sameName.length === 1 ? sameName[0] : undefined;
  }
}

/** Texts of cited files by path, with their stamp; the least recently used go first past a size bound. */
class SourceTextCache {
  private readonly entries = new Map<string, { stamp: string; text: SourceText; size: number }>();
  private size = 0;
  constructor(private readonly maxChars = 32 * 1024 * 1024) {}

  get(rel: string): { stamp: string; text: SourceText } | undefined {
    const e = this.entries.get(rel);
    if (e) {
      this.entries.delete(rel);
      this.entries.set(rel, e);
    }
    return e;
  }

  set(rel: string, stamp: string, text: SourceText): void {
    this.delete(rel);
    const size = text.lines.reduce((n, l) => n + l.length + 1, 0);
    this.entries.set(rel, { stamp, text, size });
    this.size += size;
    for (const [k, e] of this.entries) {
      if (this.size <= this.maxChars) break;
      this.entries.delete(k);
      this.size -= e.size;
    }
  }

  delete(rel: string): void {
    const e = this.entries.get(rel);
    if (!e) return;
    this.entries.delete(rel);
    this.size -= e.size;
  }
}

function stampOf(abs: string): string {
  const st = statSync(abs, { throwIfNoEntry: false });
  return st ? sourceStamp(st) : 'missing';
}

function normalizePath(p: string): string {
  return p.replace(/\\/g, '/').replace(/^\.\//, '');
}
