/**
 * The sql.js store shared by several processes (the README's "Data in a workspace" says how).
 * The database lives in memory; on disk it is an image (`<db>`) plus a write-ahead journal
 * (`<db>.journal`) of committed transactions, each one appended and flushed before `transaction()` resolves. Checkpoints fold the journal into a new image off the commit path.
 * Writers serialise on a lock file (`<db>.lock`); readers catch up from the journal without it.
 */
import fs from 'node:fs';
import type { SqlJsStatic } from 'sql.js';
import { AutoSnippetError, ErrorCode } from '../kernel/errors';
import { type Logger, silentLogger } from '../kernel/log';
import { moveAside, removeLeftovers, statKey, writeFileAtomic } from './files';
import { appendRecord, createJournal, encodeRecord, JOURNAL_HEADER_BYTES, newJournalId, readJournal, truncateJournal, type JournalOp, type JournalRead } from './journal';
import { FileLock } from './lock';
import { applyJournalRead, emptyCursor, loadSnapshot, readImage, type Snapshot } from './snapshot';
import { configure, DamagedImageError, loadSqlJs, openDatabase, queryRows, setWritable } from './sqljs';
import { runTransaction } from './tx';
import { applyMigrations } from './migrate';
import type { Row, SqlParams, StoreOptions, StoreState, Tx } from './types';

const DEFAULT_CHECKPOINT_BYTES = 4 * 1024 * 1024;
const DEFAULT_LOCK_TIMEOUT_MS = 10_000;
/** close() runs when an editor shuts down; it must not wait the full lock timeout. */
const CLOSE_LOCK_TIMEOUT_MS = 2_000;
const UNSTABLE_LOAD_ATTEMPTS = 5;

type Problem = { kind: 'image-damaged' | 'journal'; reason: string };

export class Store {
  readonly journalPath: string;
  readonly lockPath: string;
  private snap!: Snapshot;
  private problem: Problem | undefined;
  private recovered: StoreState['recovered'];
  private readonly lock: FileLock;
  private readonly log: Logger;
  private readonly checkpointBytes: number;
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
    this.lock = new FileLock(this.lockPath, opts.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS, this.log);
  }

  /** Opens or creates the database, recovering from damage, and applies pending migrations. */
  static async open(opts: StoreOptions): Promise<Store> {
    const store = new Store(await loadSqlJs(), opts.dbPath, opts);
    try {
      await store.load();
      await applyMigrations(store, opts.migrations, store.log);
    } catch (e) {
      store.snap?.db.close();
      store.closed = true;
      throw e;
    }
    return store;
  }

  get state(): StoreState {
    const s = this.snap;
    return {
      path: this.dbPath,
      schemaVersion: this.closed ? this.schemaVersionAtClose : this.schemaVersion(),
      imageBytes: s.imageBytes,
      journalBytes: s.journal.size,
      sequence: s.seq,
      ...(this.recovered ? { recovered: this.recovered } : {}),
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
   * Runs `fn` (synchronous, deterministic) in a transaction under the cross-process lock, after
   * catching up with other processes. Resolves once the transaction is durable in the journal.
   */
  async transaction<T>(fn: (tx: Tx) => T): Promise<T> {
    this.assertOpen();
    if (this.inTransactionFn) throw new Error('transaction() called inside a transaction function: use the tx it was given');
    try {
      return await this.enqueue(() =>
        this.withLock(async () => {
          await this.syncLocked();
          await this.ensureJournal();
          this.inTransactionFn = true;
          let outcome: { result: T; ops: JournalOp[] };
          try {
            outcome = runTransaction(this.snap.db, fn, () => this.reload());
          } finally {
            this.inTransactionFn = false;
          }
          const { result, ops } = outcome;
          if (ops.length > 0) await this.appendCommitted(ops);
          return result;
        }),
      );
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
        if (this.snap.seq !== this.snap.imageSeq || this.snap.journal.size > JOURNAL_HEADER_BYTES) {
          await this.withLock(() => this.checkpointLocked(true), CLOSE_LOCK_TIMEOUT_MS);
        }
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
      if (!loaded.stable) {
        loaded.snapshot.db.close();
        continue;
      }
      this.adopt(loaded.snapshot);
      if (!loaded.problem) return;
      break;
    }
    // Damage, or another process kept replacing the image: look again under the lock, where nothing moves.
    await this.withLock(() => this.recoverLocked());
  }

  private async recoverLocked(): Promise<void> {
    let loaded: ReturnType<typeof loadSnapshot>;
    try {
      loaded = loadSnapshot(this.SQL, this.dbPath, this.journalPath, true, await readImage(this.dbPath));
    } catch (e) {
      if (!(e instanceof DamagedImageError)) throw e;
      const movedTo = moveAside(this.dbPath);
      const journalMovedTo = fs.existsSync(this.journalPath) ? moveAside(this.journalPath) : undefined;
      this.adopt({ db: openDatabase(this.SQL, undefined, false), seq: 0, imageSeq: 0, lineage: newJournalId(), imageKey: '', imageBytes: 0, journal: emptyCursor() });
      await this.writeImage();
      await this.startJournal();
      const reason = `${e.message}${journalMovedTo ? ` (its journal was moved to ${journalMovedTo})` : ''}`;
      this.recovered = { movedTo, reason };
      this.log.warn(`the database ${this.dbPath} was damaged (${reason}); it was moved to ${movedTo} and a fresh one created`);
      return;
    }
    this.adopt(loaded.snapshot);
    if (loaded.problem) await this.repairJournalLocked(loaded.problem);
  }

  /** Keeps what the journal held before the damage (in a new image) and moves the journal aside. */
  private async repairJournalLocked(reason: string): Promise<void> {
    await this.writeImage();
    const movedTo = fs.existsSync(this.journalPath) ? moveAside(this.journalPath) : this.journalPath;
    await this.startJournal();
    this.problem = undefined;
    this.recovered = { movedTo, reason: `journal damaged: ${reason}; the commits before the damage were kept` };
    this.log.warn(`the store journal was damaged (${reason}); it was moved to ${movedTo} and the commits before the damage kept`);
  }

  private adopt(next: Snapshot): void {
    const previous = this.snap;
    this.snap = next;
    this.problem = undefined;
    if (previous && previous.db !== next.db) previous.db.close();
  }

  /** Loads image and journal again; flags (rather than throws) a damaged image so reads keep working. */
  private reload(): void {
    for (let attempt = 1; ; attempt++) {
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
      if (/readonly database/.test((e as Error).message)) throw new Error('store.all() and store.get() only read; write inside store.transaction()');
      throw e;
    }
  }

  /** Before a read: applies other processes' commits. Two stats when nothing changed. */
  private refresh(): void {
    if (this.holdingLock || this.inTransactionFn) return;
    try {
      this.catchUp();
    } catch (e) {
      this.log.warn("could not read other processes' commits", e);
    }
  }

  private catchUp(): void {
    const s = this.snap;
    const imageKey = statKey(this.dbPath);
    let read: JournalRead;
    if (imageKey !== s.imageKey) {
      // Another process checkpointed. When its journal starts at or before our sequence, the new image
      // holds nothing we lack: keep our copy rather than reload it (which blocks for the image's size).
      read = readJournal(this.journalPath);
      if (read.kind !== 'ok' || !imageKey || read.header.lineage !== s.lineage || read.header.baseSeq > s.seq) return this.reload();
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
      throw new AutoSnippetError(ErrorCode.StoreCorrupt, `the database image is damaged: ${this.problem.reason}`, 'Reopen the workspace: the damaged file is then moved aside and a fresh database created.');
    }
    if (this.problem) return this.repairJournalLocked(this.problem.reason);
    const j = this.snap.journal;
    if (j.tail?.kind === 'torn') {
      this.log.info(`cutting a torn record at the end of the store journal (${j.tail.reason})`);
      j.key = await truncateJournal(this.journalPath, j.offset);
      j.size = j.offset;
      j.tail = undefined;
    }
  }

  // ---- writing ----

  private async appendCommitted(ops: JournalOp[]): Promise<void> {
    const s = this.snap;
    const record = encodeRecord(s.seq + 1, ops);
    const before = s.journal.offset;
    s.seq += 1;
    try {
      s.journal.key = await appendRecord(this.journalPath, record);
      s.journal.offset = s.journal.size = before + record.length;
    } catch (e) {
      // Committed in memory but not durable: take it back out of both.
      await truncateJournal(this.journalPath, before).catch(() => undefined);
      this.reload();
      throw e;
    }
  }

  /** Makes sure a journal of this database exists; it must start where the image ends. */
  private async ensureJournal(): Promise<void> {
    if (this.snap.journal.id) return;
    if (this.snap.seq !== this.snap.imageSeq) await this.writeImage();
    await this.startJournal();
  }

  private async startJournal(): Promise<void> {
    const s = this.snap;
    s.lineage ??= newJournalId();
    const header = { id: newJournalId(), lineage: s.lineage, baseSeq: s.seq };
    const key = await createJournal(this.journalPath, header);
    s.journal = { id: header.id, offset: JOURNAL_HEADER_BYTES, size: JOURNAL_HEADER_BYTES, key };
  }

  private async writeImage(): Promise<void> {
    removeLeftovers(this.dbPath);
    const s = this.snap;
    s.lineage ??= newJournalId();
    setWritable(s.db, true);
    s.db.run('INSERT OR REPLACE INTO _store_meta (key, value) VALUES (?, ?), (?, ?)', ['sequence', String(s.seq), 'lineage', s.lineage]);
    const bytes = s.db.export();
    configure(s.db);
    await writeFileAtomic(this.dbPath, bytes);
    s.imageKey = statKey(this.dbPath);
    s.imageSeq = s.seq;
    s.imageBytes = bytes.length;
  }

  private async checkpointLocked(force: boolean): Promise<void> {
    await this.syncLocked();
    const s = this.snap;
    if (!force && s.journal.size < this.checkpointBytes) return; // another process folded it meanwhile
    if (s.seq !== s.imageSeq || !s.imageKey) await this.writeImage();
    else if (s.journal.size <= JOURNAL_HEADER_BYTES) return;
    // A crash here leaves the new image with the old journal: replay skips what the image holds.
    await this.startJournal();
  }

  private scheduleCheckpointIfDue(): void {
    if (this.checkpointTimer || this.closing || this.closed || this.snap.journal.size < this.checkpointBytes) return;
    this.checkpointTimer = setImmediate(() => {
      this.checkpointTimer = undefined;
      if (this.closing) return;
      this.enqueue(() => this.withLock(() => this.checkpointLocked(false))).catch((e) => this.log.warn('background checkpoint failed; will retry after the next commit', e));
    });
  }

  // ---- plumbing ----

  private schemaVersion(): number {
    return Number(queryRows<{ v: number | null }>(this.snap.db, 'SELECT max(version) AS v FROM _store_migrations', undefined, 1)[0]?.v ?? 0);
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
