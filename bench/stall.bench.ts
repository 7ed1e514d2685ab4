// The extension host's thread while recipes are indexed: the longest event-loop stall
// (perf_hooks.monitorEventLoopDelay) while 10,000 recipe files are indexed the way the extension does
// it — the catalog's rebuild_index as a person on the vscode channel, then the first `search`, which
// builds the search index — each in a fresh process that opens the workspace as the extension host
// does. Goal: no stall of 50 ms or more (a keystroke then waits visibly).
// BENCH_STALL_RECIPES (default 10000) sets the size, BENCH_STALL_ROUNDS (default 3) the runs;
// BENCH_BASELINE=/path/to/another/checkout runs the same probe on that checkout's sources, interleaved.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { type BenchTable, median, ms } from './lib';
import { benchCorpus, writeRecipeFiles } from './recipe-corpus';

interface Phase {
  phase: string;
  took: number;
  stall: number;
}

const PHASES = [
  'first index (no database): rebuild_index',
  'first search (builds the search index)',
  'rebuild_index force (every file re-read)',
  'search after the rebuild (index rebuilt)',
  'a second search (warm)',
  'first search after reopening (a window reload)',
];

/** Runs in the child: the phases on `root`, with the modules of the checkout `checkout`. */
async function probe(checkout: string, root: string): Promise<Phase[]> {
  const src = path.join(checkout, 'src');
  const { Workspace } =
    (await import(path.join(src, 'core/ground/workspace'))) as typeof import('../src/core/ground/workspace');
  const tools = (await import(path.join(src, 'core/catalog'))) as typeof import('../src/core/catalog');
  const catalog = tools.createCatalog();
  const ctx = { actor: 'human', channel: 'vscode' } as const;
  const ws = await Workspace.open(root, { bundledSkillsDir: path.join(checkout, 'skills') });
  const out: Phase[] = [];
  const measure = async (phase: string, fn: () => Promise<{ ok: boolean }>) => {
    const delay = monitorEventLoopDelay({ resolution: 1 });
    // A timer that keeps the loop turning, as the editor's own work does: a stall is a late turn.
    const tick = setInterval(() => undefined, 1);
    delay.enable();
    const t0 = performance.now();
    const result = await fn();
    const took = performance.now() - t0;
    delay.disable();
    clearInterval(tick);
    if (!result.ok) throw new Error(`${phase}: ${JSON.stringify(result)}`);
    out.push({ phase, took, stall: delay.max / 1e6 });
  };
  const search = () =>
    catalog.invoke(ws, 'search', { query: 'retry failed request in the network layer', limit: 10 }, ctx);
  await measure(PHASES[0], () => catalog.invoke(ws, 'rebuild_index', { force: false }, ctx));
  await measure(PHASES[1], search);
  await measure(PHASES[2], () => catalog.invoke(ws, 'rebuild_index', { force: true }, ctx));
  await measure(PHASES[3], search);
  await measure(PHASES[4], search);
  await ws.dispose();
  const again = await Workspace.open(root, { bundledSkillsDir: path.join(checkout, 'skills') });
  await measure(
    PHASES[5],
    () => catalog.invoke(again, 'search', { query: 'retry failed request in the network layer', limit: 10 }, ctx),
  );
  await again.dispose();
  return out;
}

export async function run(): Promise<BenchTable[]> {
  const size = Number(process.env.BENCH_STALL_RECIPES ?? 10000);
  const rounds = Number(process.env.BENCH_STALL_ROUNDS ?? 3);
  const temp = mkdtempSync(path.join(os.tmpdir(), 'as-bench-stall-'));
  try {
    const docs = benchCorpus(size);
    const checkouts: [string, string][] = [['AutoSnippet', path.join(__dirname, '..')]];
    if (process.env.BENCH_BASELINE) checkouts.push(['baseline', path.resolve(process.env.BENCH_BASELINE)]);
    const results = checkouts.map(() => [] as Phase[][]);
    for (let r = 0; r < rounds; r++) {
      for (const [i, [, checkout]] of checkouts.entries()) {
        const root = mkdtempSync(path.join(temp, 'ws-'));
        writeRecipeFiles(root, docs);
        const json = execFileSync(process.execPath, ['--import', 'tsx', __filename, '--probe', checkout, root], {
          encoding: 'utf8',
          maxBuffer: 1 << 24,
        });
        results[i].push(JSON.parse(json) as Phase[]);
        rmSync(root, { recursive: true, force: true });
      }
    }
    const rows: (string | number)[][] = [];
    for (const [i, [name]] of checkouts.entries()) {
      for (const [p, phase] of PHASES.entries()) {
        const stalls = results[i].map((run) => run[p].stall);
        rows.push([
          name,
          phase,
          ms(median(results[i].map((run) => run[p].took))),
          ms(median(stalls)),
          ms(Math.max(...stalls)),
          Math.max(...stalls) < 50 ? 'yes' : 'no',
        ]);
      }
    }
    return [
      {
        title: `Extension host: longest event-loop stall while ${size.toLocaleString('en')} recipes are indexed`,
        columns: ['build', 'phase', 'time (p50)', 'longest stall (p50)', 'longest stall (worst run)', '< 50 ms'],
        rows,
        notes: [
          `Each run is a fresh process opening a new workspace of ${
            size.toLocaleString('en')
          } generated recipe files plus the 52 real ones, calling the catalog as the extension does (actor human, channel vscode); ${rounds} runs, checkouts interleaved. Stall = the maximum of perf_hooks.monitorEventLoopDelay (1 ms resolution) during the phase, GC pauses included. Shared 2-core machine.`,
        ],
      },
    ];
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--probe') {
  probe(process.argv[3], process.argv[4]).then(
    (phases) => process.stdout.write(JSON.stringify(phases)),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
