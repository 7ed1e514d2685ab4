import assert from 'node:assert/strict';
import path from 'node:path';
import { after, test } from 'node:test';
import { rng } from '../../bench/recipe-corpus';
import { insertRows, type JsonRow } from '../../src/core/ground/store/json-rows';
import { Store } from '../../src/core/ground/store/store';
import type { Migration } from '../../src/core/ground/store/types';
import { removeTempDirs, tempDir } from './helpers/store-fixtures';

after(removeTempDirs);

const migrations: Migration[] = [{
  version: 1,
  name: 'two tables alike',
  up: `CREATE TABLE bound (k INTEGER PRIMARY KEY, t TEXT, r REAL, i INTEGER, a);
       CREATE TABLE json (k INTEGER PRIMARY KEY, t TEXT, r REAL, i INTEGER, a);`,
}];

const STRINGS = [
  '',
  'plain',
  'quote " backslash \\ slash / tab \t newline \n return \r',
  'NUL \u0000 inside',
  'control \u0001\u001f\u007f',
  'é ü ß 汉字 かな',
  'emoji 😀 and astral 𝔘',
  'lone high \ud800 and low \udc00 halves',
  '\u2028\u2029 line separators',
  '{"looks": ["like", "json"]}',
  '  spaces around  ',
  '1e5',
  'null',
];
const NUMBERS = [
  0,
  -1,
  1,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53 - 1,
  0.1,
  1 / 3,
  -2.5e-300,
  1.7976931348623157e308,
  5e-324,
  1733600000123.4567,
];

test('rows written as one JSON document read back as the same values, types and bytes as bound rows', async () => {
  const store = await Store.open({ dbPath: path.join(tempDir(), 'j.db'), migrations });
  try {
    const r = rng(3);
    const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
    const rows: JsonRow[] = [];
    for (let k = 1; k <= 400; k++) {
      const mtime = 1.6e12 + r() * 2e11;
      rows.push([
        k,
        pick(STRINGS) + pick(STRINGS),
        k % 7 ? pick(NUMBERS) : mtime,
        Math.floor(r() * 1e9) - 5e8,
        pick<string | number | null>([null, 'x', 3, 4.5]),
      ]);
    }
    await store.transaction((tx) => {
      for (const row of rows) tx.run('INSERT INTO bound (k, t, r, i, a) VALUES (?, ?, ?, ?, ?)', row);
      insertRows(tx, 'INSERT INTO json (k, t, r, i, a)', 5, rows);
    });
    const read = (table: string) =>
      store.all(
        `SELECT k, t, r, i, a, typeof(t) AS tt, typeof(r) AS tr, typeof(i) AS ti, typeof(a) AS ta, hex(t) AS ht FROM ${table} ORDER BY k`,
      );
    const bound = read('bound');
    assert.equal(bound.length, rows.length);
    assert.deepEqual(read('json'), bound);
    // Not vacuous: the awkward values are there, as bound.
    assert.ok(bound.some((b) => String(b.t).includes('\u0000')));
    assert.ok(bound.some((b) => b.tr === 'real' && !Number.isInteger(b.r)));
  } finally {
    await store.close();
  }
});

test('the JSON rows are journaled: another process opening the database sees them', async () => {
  const dbPath = path.join(tempDir(), 'k.db');
  const a = await Store.open({ dbPath, migrations });
  const rows: JsonRow[] = STRINGS.map((s, k) => [k + 1, s, NUMBERS[k % NUMBERS.length], k, null]);
  await a.transaction((tx) => {
    for (const row of rows) tx.run('INSERT INTO bound (k, t, r, i, a) VALUES (?, ?, ?, ?, ?)', row);
    insertRows(tx, 'INSERT INTO json (k, t, r, i, a)', 5, rows);
  });
  // a stays open (no checkpoint): the second store replays the journal.
  const b = await Store.open({ dbPath, migrations });
  try {
    const read = (table: string) => b.all(`SELECT k, t, r, i, hex(t) AS ht FROM ${table} ORDER BY k`);
    assert.equal(read('json').length, rows.length);
    assert.deepEqual(read('json'), read('bound'));
    assert.deepEqual(read('json').map((g) => g.r), rows.map((x) => x[2]));
  } finally {
    await b.close();
    await a.close();
  }
});
