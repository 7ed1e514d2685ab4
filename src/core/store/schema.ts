import type { Migration } from './types';

/**
 * The database schema, one migration per step, in version order. Append; never edit a shipped step.
 * Keep the image lean: indexes and state only, never copies of file contents or unbounded logs.
 */
export const migrations: Migration[] = [
  {
    version: 1,
    name: 'workspace metadata',
    up: `CREATE TABLE IF NOT EXISTS workspace_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);`,
  },
];
