/** Applies pending schema migrations, each once, in version order, each in its own transaction. */
import { AutoSnippetError, ErrorCode } from '../kernel/errors';
import type { Logger } from '../kernel/log';
import type { Migration, Tx } from './types';

interface MigratableStore {
  all<T>(sql: string): T[];
  transaction<T>(fn: (tx: Tx) => T): Promise<T>;
}

export async function applyMigrations(store: MigratableStore, migrations: Migration[], log: Logger): Promise<void> {
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  sorted.forEach((m, i) => {
    if (i > 0 && sorted[i - 1].version === m.version) throw new Error(`two migrations have version ${m.version}`);
  });
  const applied = new Set(store.all<{ version: number }>('SELECT version FROM _store_migrations').map((r) => r.version));
  for (const m of sorted) {
    if (applied.has(m.version)) continue;
    try {
      await store.transaction((tx) => {
        if (tx.get('SELECT 1 AS done FROM _store_migrations WHERE version = ?', [m.version])) return; // another process was first
        tx.run(m.up);
        tx.run('INSERT INTO _store_migrations (version, name, applied_at) VALUES (?, ?, ?)', [m.version, m.name, new Date().toISOString()]);
      });
    } catch (e) {
      if (e instanceof AutoSnippetError) throw e;
      throw new AutoSnippetError(ErrorCode.Internal, `database migration ${m.version} (${m.name}) failed: ${(e as Error).message}`, 'This is a bug in AutoSnippet; please report it.');
    }
    log.info(`applied database migration ${m.version}: ${m.name}`);
  }
}
