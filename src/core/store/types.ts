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
  /** Checkpoint (fold the journal into the image) when the journal grows past this many bytes. */
  checkpointBytes?: number;
  /** How long a writer waits for the lock before failing with STORE_LOCKED. */
  lockTimeoutMs?: number;
}

/** What the store can say about itself, for `health` and for the UI. */
export interface StoreState {
  path: string;
  schemaVersion: number;
  imageBytes: number;
  journalBytes: number;
  /** Highest committed transaction sequence number this process has applied. */
  sequence: number;
  /** Set when a damaged database was moved aside at open. */
  recovered?: { movedTo: string; reason: string };
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
