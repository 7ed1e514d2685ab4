// A writer process for the reliability tests. Args: dbPath tag count|forever checkpointBytes bodyBytes.
// Prints "ready" once open, then each id after its transaction is durable, then "done {stats}".
import fs from 'node:fs';
import { Store } from '../../../src/core/ground/store/store';
import { body, itemMigrations } from './store-fixtures';

async function main(): Promise<void> {
  const [dbPath, tag, countArg, checkpointBytes, bodyBytes] = process.argv.slice(2);
  const count = countArg === 'forever' ? Infinity : Number(countArg);
  const store = await Store.open({
    dbPath,
    migrations: itemMigrations,
    checkpointBytes: Number(checkpointBytes),
    lockTimeoutMs: 30_000,
  });
  process.stdout.write('ready\n');
  let image = '';
  let imagesSeen = 0;
  for (let i = 0; i < count; i++) {
    const id = `${tag}-${i}`;
    await store.transaction((tx) => {
      tx.run('INSERT INTO items (id, writer, body) VALUES (?, ?, ?)', [id, tag, body(id, Number(bodyBytes))]);
      tx.run('UPDATE counter SET n = n + 1');
    });
    process.stdout.write(`${id}\n`);
    const st = fs.statSync(dbPath, { bigint: true, throwIfNoEntry: false });
    const key = st ? `${st.ino}:${st.mtimeNs}` : '';
    if (key !== image) imagesSeen++;
    image = key;
  }
  await store.close();
  process.stdout.write(`done ${JSON.stringify({ imagesSeen })}\n`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
