/** sql.js loading and the thin statement layer the store uses on top of it. */
import fs from 'node:fs';
import path from 'node:path';
import type { BindParams, Database, SqlJsStatic } from 'sql.js';
import initSqlJs from 'sql.js';
import type { Row, SqlParams } from './types';

let sqlJs: Promise<SqlJsStatic> | undefined;

/** The wasm ships beside the bundles in dist/; from sources it comes from node_modules. */
function locateWasm(file: string): string {
  const beside = path.join(__dirname, file);
  return fs.existsSync(beside) ? beside : require.resolve(`sql.js/dist/${file}`);
}

/** Initialises sql.js once per process. */
export function loadSqlJs(): Promise<SqlJsStatic> {
  sqlJs ??= initSqlJs({ locateFile: locateWasm }).catch((e: unknown) => {
    sqlJs = undefined;
    throw e;
  });
  return sqlJs;
}

export class DamagedImageError extends Error {}

/** The store's own bookkeeping tables, created in every database it opens. */
const STORE_TABLES = `
  CREATE TABLE IF NOT EXISTS _store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS _store_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL);
`;

/**
 * Per-connection settings. Durability comes from the store's journal, so SQLite's own rollback
 * journal stays in memory. The connection is the only one the in-memory file ever has, so it keeps
 * its lock (`locking_mode = EXCLUSIVE`): SQLite then stops looking for a hot journal on the file
 * system before every read, which was most of a point query's cost (12 µs → 1 µs). query_only is
 * lifted only while a transaction or a replay runs, so a write slipped through a plain read fails
 * instead of changing the database unjournaled. `db.export()` reopens the connection and resets all
 * of these: call again after it.
 */
export function configure(db: Database): void {
  db.exec(
    'PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF; PRAGMA foreign_keys = ON; PRAGMA query_only = 1;',
  );
}

export function setWritable(db: Database, writable: boolean): void {
  db.exec(writable ? 'PRAGMA query_only = 0' : 'PRAGMA query_only = 1');
}

/**
 * Opens a database from an image (or an empty one). Throws DamagedImageError when the bytes are not
 * a SQLite database at all; `quickCheck` is the deeper (and slower) structural check.
 */
export function openDatabase(SQL: SqlJsStatic, bytes: Uint8Array | undefined): Database {
  if (bytes && bytes.length === 0) throw new DamagedImageError('the database file is empty');
  let db: Database | undefined;
  try {
    db = new SQL.Database(bytes ?? null);
    db.exec('SELECT count(*) FROM sqlite_master');
    db.exec(STORE_TABLES);
    configure(db);
    return db;
  } catch (e) {
    db?.close();
    throw new DamagedImageError(`not a readable SQLite database: ${(e as Error).message ?? String(e)}`);
  }
}

/** SQLite's own page walk (`PRAGMA quick_check`): linear in the image, so only when no checksum vouches for it. */
export function quickCheck(db: Database): void {
  let problems: string[];
  try {
    problems = db.exec('PRAGMA quick_check')[0]?.values.map((r) => String(r[0])) ?? ['no result'];
  } catch (e) {
    problems = [(e as Error).message ?? String(e)];
  }
  if (problems.length !== 1 || problems[0] !== 'ok') {
    throw new DamagedImageError(`integrity check failed: ${problems.slice(0, 3).join('; ')}`);
  }
}

/** Named parameters may be given without their prefix; sql.js needs it (`:id`, `@id` or `$id`). */
export function toBindParams(params: SqlParams | undefined): BindParams | undefined {
  if (!params || Array.isArray(params)) return params;
  const out: Record<string, Row[string]> = {};
  for (const [k, v] of Object.entries(params)) {
    if (/^[:@$]/.test(k)) out[k] = v;
    else out[':' + k] = out['@' + k] = out['$' + k] = v;
  }
  return out;
}

/** Runs one statement (with params: the first statement only; without: all of them). */
export function runStatement(
  db: Database,
  sql: string,
  params?: SqlParams,
): { changes: number; lastInsertRowid: number } {
  db.run(sql, toBindParams(params));
  const changes = db.getRowsModified();
  const rowid = db.exec('SELECT last_insert_rowid()')[0]?.values[0]?.[0];
  return { changes, lastInsertRowid: Number(rowid ?? 0) };
}

export function queryRows<T>(db: Database, sql: string, params: SqlParams | undefined, limit = Infinity): T[] {
  const stmt = db.prepare(sql);
  try {
    const bind = toBindParams(params);
    if (bind) stmt.bind(bind);
    const rows: T[] = [];
    while (rows.length < limit && stmt.step()) rows.push(stmt.getAsObject() as T);
    return rows;
  } finally {
    stmt.free();
  }
}

/** Reads a value from the store's meta table. */
export function readMeta(db: Database, key: string): string | undefined {
  const row = queryRows<{ value: string }>(db, 'SELECT value FROM _store_meta WHERE key = ?', [key], 1)[0];
  return row?.value;
}

/** True when the statement can only read (so it needs no journal record). Unsure means false. */
export function isPlainRead(sql: string): boolean {
  const s = sql.replace(/^(\s+|--[^\n]*\n?|\/\*[\s\S]*?\*\/)+/, '');
  return /^(select|values|explain)\b/i.test(s);
}
