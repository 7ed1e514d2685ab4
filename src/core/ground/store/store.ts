/**
 * The sql.js store shared by several processes (see ARCHITECTURE.md, "One database file, several
 * processes"). The database lives in memory; on disk it is an image (`<db>`) plus a write-ahead
 * journal (`<db>.journal`) of committed transactions, each one appended and flushed before
 * `transaction()` resolves. Checkpoints fold the journal into a new image off the commit path.
 * Writers serialise on a lock file (`<db>.lock`); readers catch up from the journal without it.
 * Nothing is written before the first write: until then the schema lives in memory only.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SqlJsStatic } from 'sql.js';
import { AutoSnippetError, ErrorCode } from '../kernel/errors';
import { type Logger, silentLogger } from '../kernel/log';
import { TurnGate } from '../kernel/slices';
import { assertFileOrMissing, moveAside, statKey } from './files';
import { crc32Missing, type JournalOp, type JournalRead, readJournal } from './journal';
import { FileLock, UNREADABLE_LOCK_STALE_MS } from './lock';
import { migrationStep, pendingMigrations } from './migrate';
import { appendCommit, cutTornTail, foldable, lostCommitOf, writeImageAndJournal } from './persist';
import { applyJournalRead, loadSnapshot, readImage, type Snapshot, unsavedSnapshot } from './snapshot';
import { DamagedImageError, loadSqlJs, queryRows } from './sqljs';
import { runTransaction } from './tx';
import type { LostCommit, Migration, Row, SqlParams, StoreOptions, StoreState, TransactionOptions, Tx } from './types';

const DEFAULT_CHECKPOINT_BYTES = 4 * 1024 * 1024;
/**
 * Unless a fixed threshold is given, the journal is folded once it also holds half the image's size:
 * a checkpoint rewrites the whole image, so folding every 4 MiB made a large index build rewrite a
 * growing image after every slice (quadratic in the build); in proportion, the checkpoints of a build
 * sum to a few times the final image, and replaying the journal stays cheaper than reading the image.
 */
const CHECKPOINT_SHARE_OF_IMAGE = 0.5;
const DEFAULT_LOCK_TIMEOUT_MS = 10_000;
/** close() runs when an editor shuts down; it must not wait the full lock timeout. */
const CLOSE_LOCK_TIMEOUT_MS = 2_000;
/** How long opening waits for the lock to judge a torn journal end: past the age at which a crashed writer's empty lock file is broken. */
const SETTLE_LOCK_TIMEOUT_MS = UNREADABLE_LOCK_STALE_MS + 1_000;
const UNSTABLE_LOAD_ATTEMPTS = 5;

type Problem = { kind: 'image-damaged' | 'journal'; reason: string };

export class Store {
  readonly journalPath: string;
  readonly lockPath: string;
  private snap!: Snapshot;
  private problem: Problem | undefined;
  private recovered: StoreState['recovered'];
  private lostCommit: LostCommit | undefined;
  /** Reads look for other processes' commits once per event-loop turn. */
  private readonly lookTurn = new TurnGate();
  private readonly memos = new Map<string, { snap: Snapshot; seq: number; value: unknown }>();
  private readonly lock: FileLock;
  private readonly log: Logger;
  private readonly checkpointBytes: number;
  private readonly checkpointShare: number;
  private readonly migrations: Migration[];
  private readonly beforeCreate: StoreOptions['beforeCreate'];
  private queue: Promise<unknown> = Promise.resolve();
  private holdingLock = false;
  private inTransactionFn = false;
  private checkpointTimer: NodeJS.Immediate | undefined;
  private closing: Promise<void> | undefined;
  private closed = false;
  private schemaVersionAtClose = 0;

  private constructor(
    private readonly SQL: SqlJsStatic,
    readonly dbPath: string,
    opts: StoreOptions,
  ) {
    this.journalPath = `${dbPath}.journal`;
    this.lockPath = `${dbPath}.lock`;
    this.log = opts.log ?? silentLogger;
    this.checkpointBytes = opts.checkpointBytes ?? DEFAULT_CHECKPOINT_BYTES;
    this.checkpointShare = opts.checkpointBytes === undefined ? CHECKPOINT_SHARE_OF_IMAGE : 0;
    this.migrations = opts.migrations;
    this.beforeCreate = opts.beforeCreate;
    this.lock = new FileLock(this.lockPath, opts.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS, this.log);
  }

  /**
   * Opens the database, recovering from damage, and applies pending migrations. When there is no
   * database yet, creates nothing: the schema lives in memory until the first write.
   */
  static async open(opts: StoreOptions): Promise<Store> {
    const missing = crc32Missing();
    if (missing) {
      throw new AutoSnippetError(
        ErrorCode.StoreUnavailable,
        missing,
        'Install Node.js 20.15 or newer (VS Code 1.104 and later run a newer one already).',
      );
    }
    assertFileOrMissing(opts.dbPath, 'database');
    assertFileOrMissing(`${opts.dbPath}.journal`, 'database journal');
    const store = new Store(await loadSqlJs(), opts.dbPath, opts);
    try {
      await store.load();
      if (store.snap.onDisk && pendingMigrations(store.snap.db, store.migrations).length > 0) {
        await store.enqueue(() =>
          store.withLock(async () => {
            await store.syncLocked();
            await store.migrateLocked();
          })
        );
      }
    } catch (e) {
      store.snap?.db.close();
      store.closed = true;
      throw e;
    }
    return store;
  }

  get state(): StoreState {
    // Kept until a commit: `health` reads the state on every call, and the query was most of its time.
    const schemaVersion = this.closed
      ? this.schemaVersionAtClose
      : this.memo('store.schemaVersion', () => this.schemaVersion());
    const s = this.snap;
    return {
      path: this.dbPath,
      created: s.onDisk,
      schemaVersion,
      imageBytes: s.imageBytes,
      journalBytes: s.journal.size,
      sequence: s.seq,
      ...(this.recovered ? { recovered: this.recovered } : {}),
      ...(this.lostCommit ? { lostCommit: this.lostCommit } : {}),
    };
  }

  /** Reads rows. Writes belong in transaction(); here they fail. */
  all<T = Row>(sql: string, params?: SqlParams): T[] {
    return this.read(() => queryRows<T>(this.snap.db, sql, params));
  }

  get<T = Row>(sql: string, params?: SqlParams): T | undefined {
    return this.read(() => queryRows<T>(this.snap.db, sql, params, 1)[0]);
  }
  /**
   * A value computed from the database (counts, summaries), reused until a commit of this process or
   * of another one changes the database. `key` names the computation; `compute` reads through `get`
   * and `all`. Inside a transaction it is computed afresh and not kept.
   */
  memo<T>(key: string, compute: () => T): T {
    return this.read(() => {
      const s = this.snap;
      if (this.holdingLock || this.inTransactionFn) return compute();
      const hit = this.memos.get(key);
      if (hit && hit.snap === s && hit.seq === s.seq) return hit.value as T;
      const value = compute();
      this.memos.set(key, { snap: s, seq: s.seq, value });
      return value;
    });
  }

  /**
   * Runs `fn` (synchronous, deterministic) in a transaction under the cross-process lock, after
   * catching up with other processes. Resolves once the transaction is durable in the journal.
   * The first such write creates the database on disk (see TransactionOptions for derived rows).
   */
  async transaction<T>(fn: (tx: Tx) => T, options: TransactionOptions = {}): Promise<T> {
    this.assertOpen();
    if (this.inTransactionFn) {
      throw new Error('transaction() called inside a transaction function: use the tx it was given');
    }
    try {
      return await this.enqueue(async () => {
        if (!this.snap.onDisk) {
          this.refresh();
          if (!this.snap.onDisk) {
            if (options.derived && !fs.existsSync(path.dirname(this.dbPath))) return this.runInMemory(fn);
            await this.create();
          }
        }
        return this.withLock(async () => {
          await this.syncLocked();
          return this.commitLocked(fn);
        });
      });
    } finally {
      this.scheduleCheckpointIfDue();
    }
  }

  /** Folds the journal into a new image (written atomically) and starts an empty journal. */
  checkpoint(): Promise<void> {
    this.assertOpen();
    return this.enqueue(() => this.withLock(() => this.checkpointLocked(true)));
  }

  /** Waits for pending work, checkpoints when the journal holds records, and closes the database. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.closed) return;
      if (this.checkpointTimer) clearImmediate(this.checkpointTimer);
      await this.queue;
      try {
        if (foldable(this.snap)) await this.withLock(() => this.checkpointLocked(true), CLOSE_LOCK_TIMEOUT_MS);
      } catch (e) {
        this.log.warn('could not checkpoint the store at close; its journal keeps every commit', e);
      }
      this.schemaVersionAtClose = this.schemaVersion();
      this.snap.db.close();
      this.closed = true;
    })();
    return this.closing;
  }

  // ---- loading and recovery ----

  private async load(): Promise<void> {
    for (let attempt = 0; attempt < UNSTABLE_LOAD_ATTEMPTS; attempt++) {
      let loaded: ReturnType<typeof loadSnapshot>;
      try {
        loaded = loadSnapshot(this.SQL, this.dbPath, this.journalPath, true, await readImage(this.dbPath));
      } catch (e) {
        if (!(e instanceof DamagedImageError)) throw e;
        break;
      }
      if (!loaded) return this.adopt(unsavedSnapshot(this.SQL, this.migrations));
      if (!loaded.stable) {
        loaded.snapshot.db.close();
        continue;
      }
      this.adopt(loaded.snapshot);
      if (loaded.problem) break;
      if (this.snap.journal.tail?.kind === 'torn') await this.settleTornTail();
      return;
    }
    // Damage, or another process kept replacing the image: look again under the lock, where nothing moves.
    await this.enqueue(() => this.withLock(() => this.recoverLocked()));
  }

  /**
   * A torn last record is a live writer's append in progress, or a crashed writer's: only under the
   * lock (no append in progress) can it be told apart, so it is reported at open, not at the next write.
   */
  private async settleTornTail(): Promise<void> {
    try {
      await this.enqueue(() => this.withLock(() => this.syncLocked(), SETTLE_LOCK_TIMEOUT_MS));
    } catch (e) {
      this.log.warn('could not take the lock to cut the torn end of the store journal; the next write will', e);
      this.refresh();
      const tail = this.snap.journal.tail;
      // Seconds later a live writer's append would long be complete: report it now rather than stay silent.
      if (tail?.kind === 'torn' && !(tail.seq !== undefined && tail.seq <= this.snap.seq)) {
        this.lostCommit = lostCommitOf(
          tail,
          this.snap.seq,
          this.journalPath,
          'are still at the end of the journal; the next write cuts them and saves them aside',
        );
      }
    }
  }

  private async recoverLocked(): Promise<void> {
    let loaded: ReturnType<typeof loadSnapshot>;
    try {
      loaded = loadSnapshot(this.SQL, this.dbPath, this.journalPath, true, await readImage(this.dbPath));
    } catch (e) {
      if (!(e instanceof DamagedImageError)) throw e;
      const movedTo = moveAside(this.dbPath);
      const journalMovedTo = fs.existsSync(this.journalPath) ? moveAside(this.journalPath) : undefined;
      this.adopt(unsavedSnapshot(this.SQL, this.migrations));
      await writeImageAndJournal(this.snap, this.dbPath, this.journalPath);
      const reason = `${e.message}${journalMovedTo ? ` (its journal was moved to ${journalMovedTo})` : ''}`;
      this.recovered = { movedTo, reason };
      this.log.warn(
        `the database ${this.dbPath} was damaged (${reason}); it was moved to ${movedTo} and a fresh one created, to be rebuilt from the files`,
      );
      return;
    }
    if (!loaded) return this.adopt(unsavedSnapshot(this.SQL, this.migrations));
    this.adopt(loaded.snapshot);
    if (loaded.problem) await this.repairJournalLocked(loaded.problem);
    else if (this.snap.journal.tail?.kind === 'torn') await this.cutTornTailLocked();
  }

  /** Keeps what the journal held before the damage (in a new image) and moves the journal aside. */
  private async repairJournalLocked(reason: string): Promise<void> {
    const kept = this.snap.seq;
    const movedTo = fs.existsSync(this.journalPath) ? moveAside(this.journalPath) : this.journalPath;
    await writeImageAndJournal(this.snap, this.dbPath, this.journalPath);
    this.problem = undefined;
    this.recovered = {
      movedTo,
      reason:
        `journal damaged: ${reason}; the commits up to ${kept} were kept, those after it were not applied (they are in the journal moved aside)`,
    };
    this.log.warn(
      `the store journal was damaged (${reason}); it was moved to ${movedTo} and the commits up to ${kept} kept`,
    );
  }

  /** Under the lock: cuts a crashed writer's incomplete last record, keeping its bytes and saying which commit it was. */
  private async cutTornTailLocked(): Promise<void> {
    const { savedTo, lost } = await cutTornTail(this.snap, this.journalPath);
    if (!lost) return this.log.info(`cut a torn copy of a commit the image already holds (bytes saved to ${savedTo})`);
    this.lostCommit = lost;
    this.log.warn(`the store journal ended in an incomplete commit: ${lost.reason}`);
  }

  private adopt(next: Snapshot): void {
    const previous = this.snap;
    this.snap = next;
    this.problem = undefined;
    if (previous && previous.db !== next.db) previous.db.close();
  }

  /** Loads image and journal again; flags (rather than throws) a damaged image so reads keep working. */
  private reload(): void {
    for (let attempt = 1;; attempt++) {
      let loaded: ReturnType<typeof loadSnapshot>;
      try {
        loaded = loadSnapshot(this.SQL, this.dbPath, this.journalPath, false);
      } catch (e) {
        if (!(e instanceof DamagedImageError)) throw e;
        this.snap.imageKey = statKey(this.dbPath);
        this.problem = { kind: 'image-damaged', reason: e.message };
        this.log.error(`the database image ${this.dbPath} cannot be read: ${e.message}`);
        return;
      }
      if (!loaded) return this.adopt(unsavedSnapshot(this.SQL, this.migrations));
      if (!loaded.stable && attempt < UNSTABLE_LOAD_ATTEMPTS) {
        loaded.snapshot.db.close();
        continue;
      }
      this.adopt(loaded.snapshot);
      if (loaded.problem) this.problem = { kind: 'journal', reason: loaded.problem };
      return;
    }
  }

  // ---- catching up with other processes ----

  private read<R>(query: () => R): R {
    this.assertOpen();
    this.refresh();
    try {
      return query();
    } catch (e) {
      if (/readonly database/.test((e as Error).message)) {
        throw new Error('store.all() and store.get() only read; write inside store.transaction()');
      }
      throw e;
    }
  }

  /** Before a read: applies other processes' commits. Two stats when nothing changed, once per event-loop turn. */
  private refresh(): void {
    if (this.holdingLock || this.inTransactionFn || !this.lookTurn.first()) return;
    try {
      this.catchUp();
    } catch (e) {
      this.log.warn("could not read other processes' commits", e);
    }
  }

  private catchUp(): void {
    const s = this.snap;
    if (!s.onDisk) {
      if (statKey(this.dbPath) || statKey(this.journalPath)) this.reload(); // another process created it
      return;
    }
    const imageKey = statKey(this.dbPath);
    let read: JournalRead;
    if (imageKey !== s.imageKey) {
      // Another process checkpointed. When its journal starts at or before our sequence, the new image
      // holds nothing we lack: keep our copy rather than reload it (which blocks for the image's size).
      read = readJournal(this.journalPath);
      if (read.kind !== 'ok' || !imageKey || read.header.lineage !== s.lineage || read.header.baseSeq > s.seq) {
        return this.reload();
      }
      s.imageBytes = fs.statSync(this.dbPath).size;
      s.imageKey = imageKey;
      s.imageSeq = read.header.baseSeq;
    } else {
      if (statKey(this.journalPath) === s.journal.key) return;
      read = readJournal(this.journalPath, s.journal);
    }
    const outcome = applyJournalRead(s, read, false);
    if (outcome === 'reload') return this.reload();
    if (!outcome && this.problem?.kind === 'journal') this.problem = undefined; // a writer repaired it
    if (outcome && this.problem?.reason !== outcome) {
      this.problem = { kind: 'journal', reason: outcome };
      this.log.warn(`the store journal cannot be applied past sequence ${s.seq}: ${outcome}`);
    }
  }

  /** Under the lock: catch up, repair what can be repaired, cut a crashed writer's torn tail. */
  private async syncLocked(): Promise<void> {
    this.catchUp();
    if (this.problem) this.reload();
    if (this.problem?.kind === 'image-damaged') {
      throw new AutoSnippetError(
        ErrorCode.StoreCorrupt,
        `the database image is damaged: ${this.problem.reason}`,
        'Reopen the workspace: the damaged file is then moved aside and a fresh database created.',
      );
    }
    if (this.problem) return this.repairJournalLocked(this.problem.reason);
    if (this.snap.journal.tail?.kind === 'torn') await this.cutTornTailLocked();
  }

  // ---- writing ----

  /** The first write: the folder (through beforeCreate), then an image of what is in memory and an empty journal. */
  private async create(): Promise<void> {
    await this.beforeCreate?.();
    fs.mkdirSync(path.dirname(this.dbPath), { recursive: true });
    await this.withLock(async () => {
      this.catchUp();
      if (this.snap.onDisk) {
        // Another process created it meanwhile (perhaps an older version): bring its schema up to date.
        await this.syncLocked();
        return this.migrateLocked();
      }
      await writeImageAndJournal(this.snap, this.dbPath, this.journalPath);
      this.log.info(`created the database ${this.dbPath}`);
    });
  }

  /** Under the lock, caught up: runs `fn` and makes its statements durable. */
  private async commitLocked<T>(fn: (tx: Tx) => T): Promise<T> {
    if (!this.snap.journal.id) await writeImageAndJournal(this.snap, this.dbPath, this.journalPath);
    this.inTransactionFn = true;
    let outcome: { result: T; ops: JournalOp[] };
    try {
      outcome = runTransaction(this.snap.db, fn, () => this.reload());
    } finally {
      this.inTransactionFn = false;
      this.memos.clear();
    }
    if (outcome.ops.length > 0) await this.appendCommitted(outcome.ops);
    return outcome.result;
  }

  /** A derived write while nothing is on disk: applied in memory, written with the first real write. */
  private runInMemory<T>(fn: (tx: Tx) => T): T {
    this.inTransactionFn = true;
    try {
      return runTransaction(this.snap.db, fn, () => this.reload()).result;
    } finally {
      this.inTransactionFn = false;
      this.memos.clear();
    }
  }

  private async migrateLocked(): Promise<void> {
    const at = new Date().toISOString();
    for (const m of pendingMigrations(this.snap.db, this.migrations)) {
      try {
        await this.commitLocked(migrationStep(m, at));
      } catch (e) {
        if (e instanceof AutoSnippetError) throw e;
        throw new AutoSnippetError(
          ErrorCode.Internal,
          `database migration ${m.version} (${m.name}) failed: ${(e as Error).message}`,
          'This is a bug in AutoSnippet; please report it.',
        );
      }
      this.log.info(`applied database migration ${m.version}: ${m.name}`);
    }
  }

  private async appendCommitted(ops: JournalOp[]): Promise<void> {
    const appended = await appendCommit(this.snap, this.journalPath, ops);
    if (appended.ok) return;
    this.reload(); // committed in memory but not durable: take it back out
    throw appended.error;
  }

  private async checkpointLocked(force: boolean): Promise<void> {
    await this.syncLocked();
    if (!force && !this.checkpointDue()) return; // another process folded it meanwhile
    if (foldable(this.snap)) await writeImageAndJournal(this.snap, this.dbPath, this.journalPath);
  }

  private scheduleCheckpointIfDue(): void {
    if (this.checkpointTimer || this.closing || this.closed || !this.checkpointDue()) return;
    this.checkpointTimer = setImmediate(() => {
      this.checkpointTimer = undefined;
      if (this.closing) return;
      this.enqueue(() => this.withLock(() => this.checkpointLocked(false))).catch((e) =>
        this.log.warn('background checkpoint failed; will retry after the next commit', e)
      );
    });
  }

  private checkpointDue(): boolean {
    return this.snap.journal.size >= Math.max(this.checkpointBytes, this.snap.imageBytes * this.checkpointShare);
  }

  // ---- plumbing ----

  private schemaVersion(): number {
    return Number(
      queryRows<{ v: number | null }>(this.snap.db, 'SELECT max(version) AS v FROM _store_migrations', undefined, 1)[0]
        ?.v ?? 0,
    );
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async withLock<T>(task: () => Promise<T>, timeoutMs?: number): Promise<T> {
    await this.lock.acquire(timeoutMs);
    this.holdingLock = true;
    try {
      return await task();
    } finally {
      this.holdingLock = false;
      try {
        this.lock.release();
      } catch (e) {
        this.log.warn('could not remove the store lock file', e);
      }
    }
  }

  private assertOpen(): void {
    if (this.closed || this.closing) throw new Error(`the store ${this.dbPath} is closed`);
  }
}
