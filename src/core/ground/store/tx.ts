/** One write transaction on the in-memory database, recording what it executed for the journal. */
import type { Database } from 'sql.js';
import { encodeOp, type JournalOp } from './journal';
import { isPlainRead, queryRows, runStatement, setWritable } from './sqljs';
import type { Row, SqlParams, Tx } from './types';

/**
 * Runs `fn` between BEGIN and COMMIT. Every statement that may write is recorded, including ones
 * that failed (replay repeats them for their partial effects and ignores the error). On a throw the
 * transaction is rolled back and the error rethrown; `onRollbackFailed` is called when SQLite had
 * already ended the transaction itself (e.g. OR ROLLBACK), so the database must be reloaded.
 */
export function runTransaction<T>(
  db: Database,
  fn: (tx: Tx) => T,
  onRollbackFailed: () => void,
): { result: T; ops: JournalOp[] } {
  const ops: JournalOp[] = [];
  let active = true;
  const exec = <R>(sql: string, params: SqlParams | undefined, journaled: boolean, run: () => R): R => {
    if (!active) throw new Error('this transaction is over: use tx only inside the function given to transaction()');
    try {
      const r = run();
      if (journaled) ops.push(encodeOp(sql, params, false));
      return r;
    } catch (e) {
      if (journaled) ops.push(encodeOp(sql, params, true));
      throw e;
    }
  };
  const tx: Tx = {
    run: (sql, params) => exec(sql, params, true, () => runStatement(db, sql, params)),
    all: <R = Row>(sql: string, params?: SqlParams) =>
      exec(sql, params, !isPlainRead(sql), () => queryRows<R>(db, sql, params)),
    get: <R = Row>(sql: string, params?: SqlParams) =>
      exec(sql, params, !isPlainRead(sql), () => queryRows<R>(db, sql, params, 1)[0]),
  };
  setWritable(db, true);
  db.exec('BEGIN');
  let rollbackFailed = false;
  try {
    const result = fn(tx);
    if (result && typeof (result as { then?: unknown }).then === 'function') {
      Promise.resolve(result).catch(() => undefined);
      throw new Error('the function given to transaction() must be synchronous (and must not call transaction())');
    }
    db.exec('COMMIT');
    return { result, ops };
  } catch (e) {
    try {
      db.exec('ROLLBACK');
    } catch {
      rollbackFailed = true;
    }
    throw e;
  } finally {
    active = false;
    setWritable(db, false);
    if (rollbackFailed) onRollbackFailed();
  }
}
