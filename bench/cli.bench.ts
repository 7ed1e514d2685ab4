// The CLI's start: `autosnippet --version` and `autosnippet health` (new workspace, and one with 1,000
// indexed recipes), process spawn to exit, against `node -e 0` (the floor: starting Node itself).
// BENCH_CLI_ROUNDS (default 15) sets the runs; BENCH_BASELINE=/path/to/another/checkout adds its
// dist/cli.js in the same rounds (before/after).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { syncRecipes } from '../src/core/domains/knowledge';
import { Workspace } from '../src/core/ground/workspace';
import { type BenchTable, ms, percentile } from './lib';
import { benchCorpus, writeRecipeFiles } from './recipe-corpus';

interface Target {
  label: string;
  args: string[];
  cwd?: string;
}

function runOnce(t: Target): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, t.args, { cwd: t.cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  const took = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${t.label} exited with ${r.status}: ${r.stderr}`);
  return took;
}

export async function run(): Promise<BenchTable[]> {
  const rounds = Number(process.env.BENCH_CLI_ROUNDS ?? 15);
  const temp = mkdtempSync(path.join(os.tmpdir(), 'as-bench-cli-'));
  try {
    const fresh = mkdtempSync(path.join(temp, 'new-'));
    const indexed = path.join(temp, 'recipes-1000');
    writeRecipeFiles(indexed, benchCorpus(1000));
    const ws = await Workspace.open(indexed);
    await syncRecipes(ws);
    await ws.dispose();

    const builds: [string, string][] = [['AutoSnippet', path.join(__dirname, '..', 'dist', 'cli.js')]];
    if (process.env.BENCH_BASELINE) {
      builds.push(['baseline', path.join(path.resolve(process.env.BENCH_BASELINE), 'dist', 'cli.js')]);
    }
    const targets: Target[] = [{ label: '`node -e 0` (the floor)', args: ['-e', '0'] }];
    for (const [name, cli] of builds) {
      targets.push({ label: `${name}: --version`, args: [cli, '--version'] });
      targets.push({ label: `${name}: health, new workspace`, args: [cli, '-w', fresh, 'health'] });
      targets.push({ label: `${name}: health, 1,000 recipes indexed`, args: [cli, '-w', indexed, 'health'] });
    }
    // Interleaved: each round runs every target once, so the shared machine's load falls on all alike.
    const times = targets.map(() => [] as number[]);
    for (const t of targets) runOnce(t); // warm the file cache
    for (let r = 0; r < rounds; r++) for (const [i, t] of targets.entries()) times[i].push(runOnce(t));
    const floor = percentile(times[0], 50);
    return [
      {
        title: 'CLI: process spawn → exit',
        columns: ['command', 'p50', 'p95', 'over `node -e 0` (p50)', 'runs'],
        rows: targets.map((
          t,
          i,
        ) => [
          t.label,
          ms(percentile(times[i], 50)),
          ms(percentile(times[i], 95)),
          i === 0 ? '' : ms(percentile(times[i], 50) - floor),
          times[i].length,
        ]),
        notes: [
          'Runs interleaved round by round; medians of a shared 2-core machine. The workspaces are read, never written.',
        ],
      },
    ];
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}
