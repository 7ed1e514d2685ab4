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
  {
    version: 2,
    name: 'knowledge: recipe index, candidates, transitions, usage',
    up: `
      CREATE TABLE recipes (
        rid INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        file TEXT NOT NULL UNIQUE,
        hash TEXT NOT NULL,
        mtime REAL NOT NULL,
        size INTEGER NOT NULL,
        title TEXT NOT NULL,
        trigger TEXT NOT NULL,
        language TEXT NOT NULL,
        category TEXT NOT NULL,
        knowledge_type TEXT NOT NULL,
        kind TEXT NOT NULL,
        status TEXT NOT NULL,
        scope TEXT NOT NULL,
        complexity TEXT NOT NULL,
        summary TEXT NOT NULL,
        tags TEXT NOT NULL,
        meta TEXT NOT NULL,
        quality REAL NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX recipes_kind_status ON recipes (kind, status);
      CREATE INDEX recipes_category ON recipes (category);
      CREATE INDEX recipes_trigger ON recipes (trigger);
      CREATE TABLE recipe_file_problems (file TEXT PRIMARY KEY, hash TEXT NOT NULL, mtime REAL NOT NULL, size INTEGER NOT NULL, problems TEXT NOT NULL);
      CREATE TABLE recipe_usage (
        recipe_id TEXT PRIMARY KEY,
        views INTEGER NOT NULL DEFAULT 0,
        adoptions INTEGER NOT NULL DEFAULT 0,
        applications INTEGER NOT NULL DEFAULT 0,
        guard_hits INTEGER NOT NULL DEFAULT 0,
        helpful INTEGER NOT NULL DEFAULT 0,
        unhelpful INTEGER NOT NULL DEFAULT 0,
        last_used_at TEXT
      );
      CREATE TABLE candidates (
        id TEXT PRIMARY KEY,
        fingerprint TEXT NOT NULL UNIQUE,
        status TEXT NOT NULL,
        title TEXT NOT NULL,
        kind TEXT NOT NULL,
        language TEXT NOT NULL,
        category TEXT NOT NULL,
        origin TEXT NOT NULL,
        confidence REAL NOT NULL,
        created_by TEXT NOT NULL,
        created_at TEXT NOT NULL,
        decided_by TEXT,
        decided_at TEXT,
        recipe_id TEXT,
        data TEXT NOT NULL
      );
      CREATE INDEX candidates_status ON candidates (status, created_at);
      CREATE TABLE knowledge_transitions (
        seq INTEGER PRIMARY KEY,
        entity TEXT NOT NULL,
        entity_id TEXT NOT NULL,
        from_status TEXT,
        to_status TEXT NOT NULL,
        actor TEXT NOT NULL,
        at TEXT NOT NULL,
        reason TEXT
      );
      CREATE INDEX knowledge_transitions_entity ON knowledge_transitions (entity, entity_id);
      CREATE TABLE knowledge_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      INSERT INTO knowledge_meta (key, value) VALUES ('generation', '0');
    `,
  },
  {
    version: 3,
    name: 'search: keyword (FTS4) and vector index of recipes',
    up: `
      CREATE VIRTUAL TABLE recipe_fts USING fts4(trigger, title, summary, body, tokenize=porter);
      CREATE TABLE recipe_vectors (rid INTEGER PRIMARY KEY, model TEXT NOT NULL, vec BLOB NOT NULL);
    `,
  },
  {
    version: 4,
    name: 'graph: edges between recipes, targets and files',
    up: `
      CREATE TABLE graph_edges (
        from_node TEXT NOT NULL,
        to_node TEXT NOT NULL,
        relation TEXT NOT NULL,
        weight REAL NOT NULL DEFAULT 1,
        origin TEXT NOT NULL,
        evidence TEXT,
        PRIMARY KEY (from_node, to_node, relation, origin)
      ) WITHOUT ROWID;
      CREATE INDEX graph_edges_to ON graph_edges (to_node);
      CREATE INDEX graph_edges_origin ON graph_edges (origin);
      CREATE TABLE graph_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    `,
  },
  {
    version: 5,
    name: 'guard: scan summaries for compliance trends (last 50 scans, top files per scan)',
    up: `
      CREATE TABLE guard_scans (
        id INTEGER PRIMARY KEY,
        finished_at TEXT NOT NULL,
        files INTEGER NOT NULL,
        files_clean INTEGER NOT NULL,
        bytes INTEGER NOT NULL,
        errors INTEGER NOT NULL,
        warnings INTEGER NOT NULL,
        infos INTEGER NOT NULL,
        hints INTEGER NOT NULL,
        duration_ms INTEGER NOT NULL,
        rules_active INTEGER NOT NULL
      );
      CREATE TABLE guard_scan_rules (
        scan_id INTEGER NOT NULL,
        rule_id TEXT NOT NULL,
        severity TEXT NOT NULL,
        violations INTEGER NOT NULL,
        files INTEGER NOT NULL,
        PRIMARY KEY (scan_id, rule_id)
      ) WITHOUT ROWID;
      CREATE TABLE guard_scan_files (
        scan_id INTEGER NOT NULL,
        path TEXT NOT NULL,
        violations INTEGER NOT NULL,
        errors INTEGER NOT NULL,
        PRIMARY KEY (scan_id, path)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 6,
    name: 'search: token counts of each recipe field, for BM25 without reading FTS4 doc sizes per row',
    up: `CREATE TABLE recipe_field_lengths (rid INTEGER PRIMARY KEY, lengths TEXT NOT NULL);`,
  },
  {
    version: 7,
    name:
      'search: recipe terms in a plain table for the in-memory index (FTS4 dropped), and the recipes each index generation changed',
    up: `
      CREATE TABLE recipe_terms (rid INTEGER PRIMARY KEY, trigger TEXT NOT NULL, title TEXT NOT NULL, summary TEXT NOT NULL, body TEXT NOT NULL);
      INSERT INTO recipe_terms (rid, trigger, title, summary, body) SELECT docid, trigger, title, summary, body FROM recipe_fts;
      DROP TABLE recipe_fts;
      DROP TABLE recipe_field_lengths;
      CREATE TABLE recipe_changes (rid INTEGER PRIMARY KEY, generation INTEGER NOT NULL);
      CREATE INDEX recipe_changes_generation ON recipe_changes (generation);
    `,
  },
  {
    version: 8,
    name: 'search: a random id for the store, so that a search index saved beside it is never read into another',
    up: `INSERT OR IGNORE INTO knowledge_meta (key, value) VALUES ('store_id', lower(hex(randomblob(8))));`,
  },
];
