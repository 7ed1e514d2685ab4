// Freshness: 1,000 published recipes citing 2 lines each (half with a code excerpt) in 200 source
// files of 300 lines. A full check (a new tracker: every recipe, every cited file), then re-checks
// after 10 source files changed — with the changed files given (VS Code's watcher) and found by stat
// (the MCP server and the CLI) — and an idle refresh. Side by side: the full re-check a tool without
// the file → recipes index must run after every change, and `git status`, which only says what
// changed. Goals (issue 16): after a 10-file change ≤ 50 ms, full check ≤ 1 s.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { FreshnessTracker } from '../src/core/domains/knowledge/freshness';
import { hashLines } from '../src/core/domains/knowledge/freshness-fingerprint';
import { syncRecipes } from '../src/core/domains/knowledge/recipe-index';
import { Workspace } from '../src/core/ground/workspace';
import { type BenchTable, median, ms, ratio } from './lib';

const FILES = 200;
const LINES = 300;
const RECIPES = 1000;
const ROUNDS = 9;

function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sourceText(f: number): string[] {
  return Array.from(
    { length: LINES },
    (
      _,
      i,
    ) => (i % 10 === 0
      ? `export function f${f}_${i}(x: number) {`
      : i % 10 === 9
      ? '}'
      : `  const v${i} = compute${f}(x, ${i}); // step ${i}`),
  );
}

async function setUp(root: string): Promise<{ ws: Workspace; files: string[][] }> {
  const files: string[][] = [];
  for (let f = 0; f < FILES; f++) {
    const lines = sourceText(f);
    files.push(lines);
    mkdirSync(path.join(root, 'src', `m${f % 20}`), { recursive: true });
    writeFileSync(path.join(root, 'src', `m${f % 20}`, `file${f}.ts`), lines.join('\n') + '\n');
  }
  const r = rng(16);
  const dir = path.join(root, '.autosnippet', 'recipes', 'bench');
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < RECIPES; i++) {
    const cites = [0, 1].map(() => {
      const f = Math.floor(r() * FILES);
      const line = 2 + Math.floor(r() * (LINES - 4));
      return { f, line, raw: `src/m${f % 20}/file${f}.ts:${line}` };
    });
    const withCode = i % 2 === 0;
    const code = withCode ? files[cites[0].f].slice(cites[0].line - 2, cites[0].line + 1).join('\n') : undefined;
    const fingerprints = [
      'fingerprints:',
      ...(code ? [`  code: ${hashLines(code.split('\n'))}`] : []),
      '  sources:',
      ...cites.map((c) => `    "${c.raw}": ${hashLines([files[c.f][c.line - 1]])}`),
    ].join('\n');
    writeFileSync(
      path.join(dir, `r${i}.md`),
      `---\ntitle: Recipe ${i}\nsummary: Do step ${i} the project way.\nlanguage: typescript\nstatus: published\nsources: [${
        cites.map((c) => `"${c.raw}"`).join(', ')
      }]\n${fingerprints}\n---\n\n${code ? '```ts\n' + code + '\n```\n' : 'Text.\n'}`,
    );
  }
  const ws = await Workspace.open(root);
  await syncRecipes(ws);
  return { ws, files };
}

/** Changes one line in each of 10 files (a different set each round) and answers their paths. */
function changeTenFiles(root: string, round: number): string[] {
  const changed: string[] = [];
  for (let k = 0; k < 10; k++) {
    const f = (round * 10 + k) % FILES;
    const rel = `src/m${f % 20}/file${f}.ts`;
    const abs = path.join(root, rel);
    const lines = readFileSync(abs, 'utf8').split('\n');
    const at = 1 + ((round * 37 + k * 11) % (LINES - 2));
    lines[at] = `  const changed${round} = ${lines[at].trim()}`;
    writeFileSync(abs, lines.join('\n'));
    changed.push(rel);
  }
  return changed;
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

export async function run(): Promise<BenchTable[]> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-bench-freshness-'));
  try {
    const { ws } = await setUp(root);
    execFileSync('git', ['init', '-q'], { cwd: root });
    execFileSync('git', ['add', '-A'], { cwd: root });
    execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@example.invalid', 'commit', '-q', '-m', 'bench'], {
      cwd: root,
    });

    const full: number[] = [];
    let checked = 0;
    for (let i = 0; i < 5; i++) {
      full.push(await time(async () => (checked = (await new FreshnessTracker(ws).refresh()).checked)));
    }

    const tracker = new FreshnessTracker(ws);
    await tracker.refresh();
    const given: number[] = [];
    const byStat: number[] = [];
    const idle: number[] = [];
    const gitStatus: number[] = [];
    let recheckedGiven = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const files = changeTenFiles(root, round * 2);
      given.push(await time(async () => (recheckedGiven = (await tracker.refresh({ changedFiles: files })).checked)));
      changeTenFiles(root, round * 2 + 1);
      byStat.push(await time(() => tracker.refresh()));
      idle.push(await time(() => tracker.refresh()));
      gitStatus.push(await time(async () => execFileSync('git', ['status', '--porcelain'], { cwd: root })));
    }
    const stale = tracker.counts().stale;
    await ws.dispose();
    return [{
      title: `Freshness: ${
        RECIPES.toLocaleString('en')
      } recipes citing 2 lines each (half with an excerpt) in ${FILES} files of ${LINES} lines; median of ${ROUNDS} rounds (full check: 5)`,
      columns: ['what', 'AutoSnippet', 'the alternative', 'goal'],
      rows: [
        [
          'full check (new tracker: every recipe and cited file)',
          `${ms(median(full))} (${checked} recipes)`,
          '',
          '≤ 1 s',
        ],
        [
          'after a 10-file change, files given (VS Code watcher)',
          `${ms(median(given))} (${recheckedGiven} recipes re-checked)`,
          `full re-check ${ms(median(full))}: ${ratio(median(given), median(full))}`,
          '≤ 50 ms',
        ],
        [
          'after a 10-file change, found by stat (MCP, CLI)',
          ms(median(byStat)),
          `git status alone ${ms(median(gitStatus))}`,
          '≤ 50 ms',
        ],
        ['nothing changed (stat of every cited file)', ms(median(idle)), '', ''],
      ],
      notes: [
        `${stale} recipes stale at the end (the changed lines they cite). Timings on a machine shared with other work; medians.`,
      ],
    }];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
