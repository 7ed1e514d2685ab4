/**
 * Candidates live only in the database (they are per-machine state until a person approves them), so
 * deleting `autosnippet.db` would lose every pending one. After each candidate write their rows are
 * copied to `.autosnippet/state/candidates.jsonl` (git-ignored), and when the first candidate write
 * finds the table empty while the copy holds rows, those rows come back before anything else is
 * written. What is lost is at most the writes of the last moment before the file was removed.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Tx } from '../../ground/store/types';
import { DATA_DIR, type Workspace } from '../../ground/workspace';
import { writeFileAtomic } from './recipes';

/** A row of the candidates table, as the table has it (the copy follows the schema, whatever its version). */
type Row = Record<string, unknown> & { id: string };

export const CANDIDATE_BACKUP = `${DATA_DIR}/state/candidates.jsonl`;
/** A copy larger than this is not read back (the database caps candidates far below it). */
const MAX_BACKUP_BYTES = 256 * 1024 * 1024;

class CandidateBackup {
  private writing: Promise<void> = Promise.resolve();
  private queued = false;

  constructor(private readonly ws: Workspace) {}

  /** Copies the rows soon; writes that come meanwhile share one copy. */
  schedule(): Promise<void> {
    if (this.queued) return this.writing;
    this.queued = true;
    this.writing = this.writing.then(() => {
      this.queued = false;
      return this.write();
    }).catch((e) => this.ws.log.warn(`could not copy the candidates to ${CANDIDATE_BACKUP}: ${(e as Error).message}`));
    return this.writing;
  }

  private async write(): Promise<void> {
    const rows = this.ws.store.all<Row>('SELECT * FROM candidates ORDER BY created_at, id');
    await writeFileAtomic(
      this.ws.path(CANDIDATE_BACKUP),
      rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : ''),
    );
  }

  dispose(): Promise<void> {
    return this.writing;
  }
}

/** After a transaction that changed candidates: keep the copy in step (resolves when it is written). */
export function backUpCandidates(ws: Workspace): Promise<void> {
  return ws.service('knowledge.candidateBackup', (w) => new CandidateBackup(w)).schedule();
}

/**
 * Inside the first candidate write of a database whose candidates table is empty: the rows of the
 * copy, put back as they were (ids, statuses, decisions). Returns how many came back.
 */
export function restoreLostCandidates(ws: Workspace, tx: Tx): number {
  if (tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM candidates')!.n > 0) return 0;
  const columns = new Set(tx.all<{ name: string }>('PRAGMA table_info(candidates)').map((c) => c.name));
  let restored = 0;
  for (const row of readBackup(ws)) {
    // Only the table's own columns, by name: a copy from an older schema fills what it has.
    const names = Object.keys(row).filter((k) => columns.has(k));
    const sql = `INSERT OR IGNORE INTO candidates (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`;
    try {
      restored += tx.run(sql, names.map((k) => row[k] as string | number | null)).changes;
    } catch (e) {
      ws.log.warn(`${CANDIDATE_BACKUP}: candidate ${row.id} could not come back: ${(e as Error).message}`);
    }
  }
  if (restored) ws.log.warn(`the database had no candidates: ${restored} came back from ${CANDIDATE_BACKUP}`);
  return restored;
}

function readBackup(ws: Workspace): Row[] {
  const file = ws.path(CANDIDATE_BACKUP);
  let text: string;
  try {
    const st = statSync(file);
    if (!st.isFile() || st.size > MAX_BACKUP_BYTES) return [];
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const rows: Row[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      const r = JSON.parse(line) as Row;
      if (
        r && typeof r === 'object' && typeof r.id === 'string'
        && Object.values(r).every((v) => v === null || typeof v !== 'object')
      ) rows.push(r);
    } catch {
      ws.log.warn(`${path.basename(file)}: a line that is not JSON was skipped`);
    }
  }
  return rows;
}
