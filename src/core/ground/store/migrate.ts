/** Schema migrations: which are pending, and the statements of one step. */
import type { Database } from 'sql.js';
import { queryRows, setWritable } from './sqljs';
import type { Migration, Tx } from './types';

/** The migrations not yet applied to `db`, in version order. Two with one version are a bug. */
export function pendingMigrations(db: Database, migrations: Migration[]): Migration[] {
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  sorted.forEach((m, i) => {
    if (i > 0 && sorted[i - 1].version === m.version) throw new Error(`two migrations have version ${m.version}`);
  });
  const applied = new Set(
    queryRows<{ version: number }>(db, 'SELECT version FROM _store_migrations', undefined).map((r) => r.version),
  );
  return sorted.filter((m) => !applied.has(m.version));
}

/** One migration as a transaction function; a no-op when another process applied it first. */
export function migrationStep(m: Migration, at: string): (tx: Tx) => void {
  return (tx) => {
    if (tx.get('SELECT 1 AS done FROM _store_migrations WHERE version = ?', [m.version])) return;
    tx.run(m.up);
    tx.run('INSERT INTO _store_migrations (version, name, applied_at) VALUES (?, ?, ?)', [m.version, m.name, at]);
  };
}

/**
 * Applies every pending migration to a database that exists only in memory (nothing on disk yet),
 * so reads see the full schema. The first write stores it as part of the first image.
 */
export function migrateInMemory(db: Database, migrations: Migration[]): void {
  const pending = pendingMigrations(db, migrations);
  if (pending.length === 0) return;
  const at = new Date().toISOString();
  setWritable(db, true);
  try {
    db.exec('BEGIN');
    for (const m of pending) {
      db.exec(m.up);
      db.run('INSERT INTO _store_migrations (version, name, applied_at) VALUES (?, ?, ?)', [m.version, m.name, at]);
    }
    db.exec('COMMIT');
  } catch (e) {
    try {
      db.exec('ROLLBACK');
    } catch {
      /* SQLite already ended it */
    }
    throw e;
  } finally {
    setWritable(db, false);
  }
}
