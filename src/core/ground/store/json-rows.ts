/**
 * Many rows of text and numbers written with one statement: the rows go as one JSON document bound
 * as bytes, which SQLite unpacks (`jsonb_each`). sql.js converts each bound string to UTF-8 a
 * character at a time in JavaScript, which was most of the time an index write took; a blob it
 * copies at once. SQLite reads JSON numbers back to the same doubles and JSON strings to the same
 * bytes as bound values give (a test compares the two on awkward values); JSONB rows are read by
 * position without parsing each row again per column.
 */
import type { Tx } from './types';

/** A row of text and numbers (no blobs). */
export type JsonRow = (string | number | null)[];

/**
 * Runs `head SELECT …` over the rows: `head` is `INSERT [OR …] INTO table (columns)`, naming
 * `columns` columns in the rows' order.
 */
export function insertRows(tx: Pick<Tx, 'run'>, head: string, columns: number, rows: readonly JsonRow[]): void {
  if (rows.length === 0) return;
  tx.run(`${head} SELECT ${valuesOf(columns)} FROM jsonb_each(CAST(? AS TEXT))`, [utf8.encode(JSON.stringify(rows))]);
}

const utf8 = new TextEncoder();
const selects = new Map<number, string>();

function valuesOf(columns: number): string {
  let s = selects.get(columns);
  if (!s) {
    s = Array.from({ length: columns }, (_, k) => `value ->> ${k}`).join(', ');
    selects.set(columns, s);
  }
  return s;
}
