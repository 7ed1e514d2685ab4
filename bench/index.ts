// `npm run bench`: runs every bench/*.bench.ts module and prints one table each.
// A module exports `run(): Promise<BenchTable[]>`; pass names to run only some (`npm run bench -- store`).
import { readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BenchTable, printTable } from './lib';

async function main() {
  const only = process.argv.slice(2);
  const files = readdirSync(__dirname).filter((f) => f.endsWith('.bench.ts')).sort()
    .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)));
  console.log(
    `# AutoSnippet benchmarks\n\nNode ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${
      (os.totalmem() / 2 ** 30).toFixed(0)
    } GiB`,
  );
  for (const f of files) {
    const mod = (await import(path.join(__dirname, f))) as { run: () => Promise<BenchTable[]> };
    for (const t of await mod.run()) printTable(t);
  }
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
