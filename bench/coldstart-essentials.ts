// Coverage of the essentials: for each test repository, a reviewer who had seen neither our code nor
// our output wrote the eight things an agent most needs to know (essentials.json); another judged,
// for each essential, whether the cards cover it fully, partly or not (coverage-*.json, one file per
// judged run, naming the path: the deterministic scan or the model writing from evidence packs).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchTable } from './lib';

const DIR = path.join(__dirname, 'data', 'coldstart-eval');

export type Coverage = 'fully' | 'partly' | 'not';

interface CoverageFile {
  path: string;
  /** The file of essentials the coverage was judged against. */
  essentials?: string;
  judged: string;
  repositories: Record<string, { rank: number; coverage: Coverage; cards?: string[] }[]>;
}

export function loadCoverage(dir = DIR): CoverageFile[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /^coverage-.*\.json$/.test(f))
    .sort()
    .map((f) => ({
      ...(JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as CoverageFile),
      // The second test set's judgements are named coverage-test2-*.json and read its own essentials.
      essentials: /^coverage-test2-/.test(f) ? 'essentials-2.json' : 'essentials.json',
    }));
}

const pct = (n: number, d: number) => (d ? `${Math.round((n / d) * 100)} %` : '-');

/** One table per judged run: essentials covered fully, partly, not, per repository and in all. */
export function coverageTables(files = loadCoverage()): BenchTable[] {
  return files.map((file) => {
    const rows: (string | number)[][] = [];
    const total = { n: 0, fully: 0, partly: 0 };
    for (const [repo, items] of Object.entries(file.repositories)) {
      const fully = items.filter((i) => i.coverage === 'fully').length;
      const partly = items.filter((i) => i.coverage === 'partly').length;
      total.n += items.length;
      total.fully += fully;
      total.partly += partly;
      rows.push([repo, items.length, fully, partly, pct(fully + partly, items.length), pct(fully, items.length)]);
    }
    rows.push([
      'all',
      total.n,
      total.fully,
      total.partly,
      pct(total.fully + total.partly, total.n),
      pct(total.fully, total.n),
    ]);
    return {
      title: `Essentials covered by the cards (${file.path}, ${file.judged})`,
      columns: ['repository', 'essentials', 'fully', 'partly', 'touched', 'fully %'],
      rows,
      notes: [
        `Essentials written first by a reviewer who had seen neither our code nor our output (${file.essentials}).`,
      ],
    };
  });
}
