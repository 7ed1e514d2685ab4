// Cold start on real source trees installed by npm (the `typescript` package, and it with the
// `eslint` and `ajv` sources beside it), with the longest event-loop stall measured during the scan; and graph
// impact / path latency on a generated 10,000-edge graph: the catalog tools, the in-memory index,
// and a recursive CTE in sql.js (the alternative a user would write first) side by side.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { ToolCatalog } from '../src/core/catalog/catalog';
import { graphTools } from '../src/core/catalog/graph';
import { bootstrapKnowledge } from '../src/core/domains/bootstrap';
import { EdgeIndex, type GraphEdge, knowledgeGraph, replaceEdges } from '../src/core/domains/graph';
import { classifyFile } from '../src/core/ground/files/classify';
import { Workspace } from '../src/core/ground/workspace';
import { type BenchTable, ms, percentile, sample } from './lib';

const modules = path.join(__dirname, '..', 'node_modules');
const skills = path.join(__dirname, '..', 'skills');

interface Tree {
  label: string;
  packages: string[];
}

const TREES: Tree[] = [
  { label: 'typescript package', packages: ['typescript'] },
  { label: 'typescript + eslint + ajv', packages: ['typescript', 'eslint', 'ajv'] },
  // The goal's size: 5,000 source files, from the packages installed for development.
  {
    label: '5,000 files (installed packages)',
    packages: readdirSync(modules).filter((p) => !p.startsWith('.')).sort(),
  },
];

const SOURCE = /\.(ts|tsx|js|mjs|cjs|jsx)$/;

/**
 * Copies the source files of whole packages until the tree holds `max` of them. Build-output folder
 * names (`dist`, `build`, `out`) become `lib`, so that the scan reads them as the code they are.
 */
export function copyPackages(packages: string[], into: string, max: number): number {
  let count = 0;
  const walk = (from: string, to: string) => {
    for (const e of readdirSync(from, { withFileTypes: true })) {
      if (count >= max) return;
      if (e.isDirectory()) {
        if (e.name === 'node_modules') continue;
        walk(path.join(from, e.name), path.join(to, ['dist', 'build', 'out'].includes(e.name) ? 'lib' : e.name));
      } else if (
        e.isFile() && SOURCE.test(e.name)
        && classifyFile(path.relative(into, path.join(to, e.name))).kind === 'production'
      ) {
        mkdirSync(to, { recursive: true });
        copyFileSync(path.join(from, e.name), path.join(to, e.name));
        count++;
      }
    }
  };
  for (const p of packages) {
    if (existsSync(path.join(modules, p)) && count < max) {
      walk(path.join(modules, p), path.join(into, 'vendor-src', p.replace('/', '__')));
    }
  }
  return count;
}

async function bootstrapRow(tree: Tree): Promise<(string | number)[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'as-bench-boot-'));
  try {
    copyPackages(tree.packages, dir, 5000);
    const ws = await Workspace.open(dir, { bundledSkillsDir: skills });
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const r = await bootstrapKnowledge(ws, { maxFiles: 5000 }, { actor: 'human' });
    const elapsed = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    delay.disable();
    const t1 = performance.now();
    const again = await bootstrapKnowledge(ws, { maxFiles: 5000 }, { actor: 'human' });
    const second = performance.now() - t1;
    await ws.dispose();
    const mb = r.scanned.bytes / 1024 / 1024;
    return [
      tree.label,
      `${r.scanned.files} (${r.scanned.skipped.tooLarge} over 256 KiB skipped)`,
      mb.toFixed(1),
      ms(elapsed),
      ms((cpu.user + cpu.system) / 1000),
      Math.round(r.scanned.files / (elapsed / 1000)),
      (mb / (elapsed / 1000)).toFixed(2),
      `${r.candidates.created} / ${again.candidates.created}`,
      ms(second),
      ms(delay.max / 1e6),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A layered module graph: 2,000 targets, 10,000 depends_on edges pointing to lower layers. */
function generatedGraph(): GraphEdge[] {
  let seed = 7;
  // mulberry32: deterministic, so every run measures the same graph.
  const rand = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const edges: GraphEdge[] = [];
  const keys = new Set<string>();
  while (edges.length < 10_000) {
    const from = 1 + Math.floor(rand() * 1999);
    const to = Math.floor(rand() * from);
    const k = `${from}>${to}`;
    if (keys.has(k)) continue;
    keys.add(k);
    edges.push({ from: `target:m${from}`, to: `target:m${to}`, relation: 'depends_on', weight: 1 });
  }
  return edges;
}

async function graphRows(): Promise<(string | number)[][]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'as-bench-graph-'));
  try {
    const ws = await Workspace.open(dir);
    const edges = generatedGraph();
    const write = performance.now();
    await replaceEdges(ws, 'manual', edges);
    const writeMs = performance.now() - write;
    const build = await sample(5, () => new EdgeIndex(edges), 1);
    const catalog = new ToolCatalog(graphTools);
    const ctx = { actor: 'external_agent' as const, channel: 'test' as const };
    const nodes = Array.from({ length: 200 }, (_, i) => `m${(i * 37) % 2000}`);
    const toolImpact = await sample(
      200,
      (i) => catalog.invoke(ws, 'graph_impact', { node: nodes[Math.max(0, i) % nodes.length], depth: 3 }, ctx),
      3,
    );
    const toolPath = await sample(
      200,
      (i) =>
        catalog.invoke(
          ws,
          'graph_path',
          { from: `m${1999 - (Math.max(0, i) % 500)}`, to: `m${Math.max(0, i) % 50}` },
          ctx,
        ),
      3,
    );
    const index = await knowledgeGraph(ws);
    const rawImpact = await sample(500, (i) => index.impact(`target:${nodes[Math.max(0, i) % nodes.length]}`, 3), 5);
    const rawPath = await sample(
      500,
      (i) => index.path(`target:m${1999 - (Math.max(0, i) % 500)}`, `target:m${Math.max(0, i) % 50}`, 5),
      5,
    );
    // What a user would write first: a recursive CTE over the edge table in sql.js.
    const cte =
      `WITH RECURSIVE up(node, depth) AS (SELECT ?, 0 UNION SELECT e.from_node, up.depth + 1 FROM graph_edges e JOIN up ON e.to_node = up.node WHERE up.depth < 3) SELECT node, min(depth) AS depth FROM up WHERE depth > 0 GROUP BY node`;
    const sqlImpact = await sample(
      100,
      (i) => ws.store.all(cte, [`target:${nodes[Math.max(0, i) % nodes.length]}`]),
      3,
    );
    const sizes = nodes.slice(0, 20).map((n) => index.impact(`target:${n}`, 3).length);
    await ws.dispose();
    const row = (label: string, v: number[]) => [label, ms(percentile(v, 50)), ms(percentile(v, 95)), v.length];
    return [
      row('graph_impact tool (depth 3, via catalog)', toolImpact),
      row('graph_path tool (≤ 5, via catalog)', toolPath),
      row('EdgeIndex.impact (depth 3, in memory)', rawImpact),
      row('EdgeIndex.path (≤ 5, in memory)', rawPath),
      row('recursive CTE impact in sql.js (depth 3)', sqlImpact),
      row('EdgeIndex build from 10,000 edges', build),
      ['replaceEdges: store 10,000 edges (slices of 1,000 rows)', ms(writeMs), '-', 1],
      [
        `(impact sizes for the sampled nodes: median ${percentile(sizes, 50)}, max ${Math.max(...sizes)} dependents)`,
        '',
        '',
        '',
      ],
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<BenchTable[]> {
  const trees = TREES.filter((t) => existsSync(path.join(modules, t.packages[0])));
  const bootRows: (string | number)[][] = [];
  for (const t of trees) bootRows.push(await bootstrapRow(t));
  return [
    {
      title: 'Cold start (bootstrap_knowledge) on source trees installed by npm',
      columns: [
        'tree',
        'files scanned',
        'MB',
        'time',
        'CPU time',
        'files/s',
        'MB/s',
        'candidates 1st / 2nd run',
        '2nd run time',
        'longest event-loop stall',
      ],
      rows: bootRows,
      notes: [
        "CPU time is the process's user + system time during the first run: on a shared machine it is the figure that does not depend on the other processes. Defaults except maxFiles 5000: files over 256 KiB are skipped (typescript.js and friends), .gitignore respected. The second run creates nothing (idempotent). The stall column is the event-loop delay maximum (monitorEventLoopDelay) during the first run, store writes included.",
      ],
    },
    {
      title: 'Knowledge graph: 2,000 targets, 10,000 depends_on edges',
      columns: ['operation', 'p50', 'p95', 'runs'],
      rows: await graphRows(),
      notes: [
        'The tool rows include the per-call structure and recipe-index freshness checks and the result envelope.',
      ],
    },
  ];
}
