import type { Logger } from '../kernel/log';

/** A value that may be bound to a statement. Blobs are journaled as base64. */
export type SqlValue = string | number | null | Uint8Array;
export type SqlParams = SqlValue[] | Record<string, SqlValue>;
export type Row = Record<string, SqlValue>;

/** One schema step. `up` runs inside a transaction; versions are applied in ascending order, once. */
export interface Migration {
  version: number;
  name: string;
  up: string;
}

export interface StoreOptions {
  /** Path of the database image, e.g. `<root>/.autosnippet/autosnippet.db`. */
  dbPath: string;
  migrations: Migration[];
  log?: Logger;
  /**
   * Checkpoint (fold the journal into the image) when the journal grows past this many bytes. Default:
   * 4 MiB or half the image's size, whichever is larger.
   */
  checkpointBytes?: number;
  /** How long a writer waits for the lock before failing with STORE_LOCKED. */
  lockTimeoutMs?: number;
  /**
   * Called once before the store writes its first file, when nothing was on disk (the workspace
   * creates `.autosnippet/` and its `.gitignore` here). Until then the database lives in memory.
   */
  beforeCreate?: () => void | Promise<void>;
}

export interface TransactionOptions {
  /**
   * The rows can be computed again (a cache of the project's structure, a scan summary): while
   * nothing is on disk and the database's folder does not exist, keep them in memory rather than
   * create the database for them. Other writes create it.
   */
  derived?: boolean;
}

/** A commit that was only partly written when the store found it: cut from the journal, its bytes kept. */
export interface LostCommit {
  sequence: number;
  /** Where the partial record's bytes were saved. */
  savedTo: string;
  reason: string;
}

/** What the store can say about itself, for `health` and for the UI. */
export interface StoreState {
  path: string;
  /** False until the first write: nothing is on disk before it. */
  created: boolean;
  schemaVersion: number;
  imageBytes: number;
  journalBytes: number;
  /** Highest committed transaction sequence number this process has applied. */
  sequence: number;
  /** Set when a damaged database was moved aside at open. */
  recovered?: { movedTo: string; reason: string };
  /** Set when this process found (and cut) an incomplete last commit in the journal. */
  lostCommit?: LostCommit;
}

/**
 * Statements inside a transaction. The function given to `transaction` must be synchronous and
 * deterministic: its statements are journaled and replayed by other processes and after a crash,
 * so pass times and random ids as parameters, never `datetime('now')` or `random()` in SQL.
 */
export interface Tx {
  run(sql: string, params?: SqlParams): { changes: number; lastInsertRowid: number };
  all<T = Row>(sql: string, params?: SqlParams): T[];
  get<T = Row>(sql: string, params?: SqlParams): T | undefined;
}
