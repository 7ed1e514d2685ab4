// MCP server: process start to the first tools/list answer, against the smallest MCP SDK server with
// one tool, on a new workspace, on existing ones with 1,000 / 10,000 indexed recipes and with 1,000
// skills; and the tools/call round trip for health against the one-tool server's tool.
// BENCH_MCP_RECIPES (default 1000,10000) sets the recipe counts; BENCH_MCP_ROUNDS (default 7) the runs;
// BENCH_MCP_BASELINE=/path/to/another/dist/mcp.js adds that build's start on the same workspaces (before/after).
// Also the first `search` in a fresh server process, right after tools/list and 1 s later (an agent's
// first call after a model turn), against the next search on the same connection.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { syncRecipes } from '../src/core/domains/knowledge';
import { Workspace } from '../src/core/ground/workspace';
import { type BenchTable, ms, percentile } from './lib';
import { benchCorpus, writeRecipeFiles } from './recipe-corpus';
import { generateSkills } from './skills.bench';

const serverJs = path.join(__dirname, '..', 'dist', 'mcp.js');
const oneToolJs = path.join(__dirname, 'servers', 'one-tool.mjs');

interface Target {
  label: string;
  args: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Longer than the 2 s after which a call checks the recipe files again. */
const IDLE_MS = 2500;
const QUERIES = [
  'retry failed request in the network layer',
  'validate expired token before the auth module',
  'cache large image in storage',
];

/** A fresh server: tools/list, then `search` after `waitMs`, two more (warm), and with `idleMs`, one more after that long without a call. */
async function firstSearch(
  args: string[],
  waitMs: number,
  idleMs = 0,
): Promise<{ first: number; warm: number; idle?: number }> {
  const { client } = await startAndList({ label: '', args });
  try {
    await sleep(waitMs);
    const search = async (query: string) => {
      const t0 = performance.now();
      const r = (await client.callTool({ name: 'autosnippet_search', arguments: { query, limit: 10 } })) as {
        isError?: boolean;
      };
      if (r.isError) throw new Error(`search failed: ${JSON.stringify(r)}`);
      return performance.now() - t0;
    };
    const first = await search(QUERIES[0]);
    await search(QUERIES[1]);
    const warm = await search(QUERIES[2]);
    if (!idleMs) return { first, warm };
    await sleep(idleMs);
    return { first, warm, idle: await search(QUERIES[1]) };
  } finally {
    await client.close();
  }
}

/**
 * A connected client, and when the last message from the server arrived: the SDK client compiles a
 * validator for every tool's outputSchema when tools/list answers, and checks structuredContent on
 * every call, so its own figures include that work; the arrival time is the server's answer alone.
 */
async function startAndList(
  target: Target,
): Promise<{ client: Client; startMs: number; clientMs: number; arrived: () => number }> {
  const t0 = performance.now();
  const client = new Client({ name: 'bench', version: '0' });
  const transport = new StdioClientTransport({ command: process.execPath, args: target.args, stderr: 'ignore' });
  await client.connect(transport);
  let arrivedAt = 0;
  const deliver = transport.onmessage!;
  transport.onmessage = (message) => {
    arrivedAt = performance.now();
    deliver(message);
  };
  await client.listTools();
  return { client, startMs: arrivedAt - t0, clientMs: performance.now() - t0, arrived: () => arrivedAt };
}

/** A tool call's round trip on the wire (to the answer's arrival) and as the SDK client returns it. */
async function timedCall(
  c: Awaited<ReturnType<typeof startAndList>>,
  name: string,
): Promise<{ wire: number; client: number }> {
  const t0 = performance.now();
  await c.client.callTool({ name, arguments: {} });
  return { wire: c.arrived() - t0, client: performance.now() - t0 };
}

/** Spawn → the answer to the first call of `tool` arriving (initialize, then the call, no tools/list): what an agent waits for at the start of a session. */
async function startAndCall(args: string[], tool: string): Promise<number> {
  const t0 = performance.now();
  const client = new Client({ name: 'bench', version: '0' });
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' });
  await client.connect(transport);
  let arrivedAt = 0;
  const deliver = transport.onmessage!;
  transport.onmessage = (message) => {
    arrivedAt = performance.now();
    deliver(message);
  };
  try {
    const r = (await client.callTool({ name: tool, arguments: {} })) as { isError?: boolean };
    if (r.isError) throw new Error(`${tool} failed: ${JSON.stringify(r)}`);
    return arrivedAt - t0;
  } finally {
    await client.close();
  }
}

/** A workspace whose recipes are on disk and already indexed (the database exists), as after a first run. */
async function indexedWorkspace(temp: string, recipes: number): Promise<string> {
  const root = path.join(temp, `recipes-${recipes}`);
  writeRecipeFiles(root, benchCorpus(recipes));
  const ws = await Workspace.open(root);
  await syncRecipes(ws);
  await ws.dispose();
  return root;
}

/** How long the servers run before the health round trips are timed: the start's background work (bundle load, validator compiles) is done by then. */
const SETTLE_MS = 3000;

export async function run(): Promise<BenchTable[]> {
  const sizes = (process.env.BENCH_MCP_RECIPES ?? '1000,10000').split(',').map((s) => Number(s.trim())).filter((n) =>
    n > 0
  );
  const rounds = Number(process.env.BENCH_MCP_ROUNDS ?? 7);
  const temp = mkdtempSync(path.join(os.tmpdir(), 'as-bench-mcp-'));
  try {
    const baseline = process.env.BENCH_MCP_BASELINE;
    const targets: Target[] = [{ label: 'MCP SDK server with one tool (unbundled, the floor)', args: [oneToolJs] }];
    const ours = (label: string, root: string) => {
      targets.push({ label: `AutoSnippet, ${label}`, args: [serverJs, '--workspace', root] });
      if (baseline) targets.push({ label: `baseline build, ${label}`, args: [baseline, '--workspace', root] });
    };
    ours('new workspace (13 bundled skills)', mkdtempSync(path.join(temp, 'new-')));
    const indexed: [number, string][] = [];
    for (const n of sizes) {
      indexed.push([n, await indexedWorkspace(temp, n)]);
      ours(`existing workspace, ${n.toLocaleString('en')} recipes indexed`, indexed.at(-1)![1]);
    }
    const skillsRoot = mkdtempSync(path.join(temp, 'skills-'));
    generateSkills(path.join(skillsRoot, '.agents', 'skills'), 1000);
    ours('1,000 workspace skills', skillsRoot);
    // Both at once, as a real project: 1,000 recipes indexed by an earlier process and 1,000 skills.
    const bothRoot = path.join(temp, 'recipes-and-skills');
    writeRecipeFiles(bothRoot, benchCorpus(1000));
    generateSkills(path.join(bothRoot, '.agents', 'skills'), 1000);
    {
      const ws = await Workspace.open(bothRoot);
      await syncRecipes(ws);
      await ws.dispose();
    }
    // The earlier process's first health call reads the skills and stores their counts, as any session would.
    await startAndCall([serverJs, '--workspace', bothRoot], 'autosnippet_health');

    // Interleaved: each round starts every target once, so the shared machine's load falls on all alike.
    const starts = targets.map(() => [] as number[]);
    const withClient = targets.map(() => [] as number[]);
    for (let r = 0; r < rounds; r++) {
      for (const [i, t] of targets.entries()) {
        const { client, startMs, clientMs } = await startAndList(t);
        starts[i].push(startMs);
        withClient[i].push(clientMs);
        await client.close();
      }
    }
    const floor = percentile(starts[0], 50);
    const clientFloor = percentile(withClient[0], 50);
    const startRows = targets.map((t, i) => [
      t.label,
      ms(percentile(starts[i], 50)),
      ms(percentile(starts[i], 95)),
      i === 0 ? '1×' : `${(percentile(starts[i], 50) / floor).toFixed(2)}×`,
      ms(percentile(withClient[i], 50)),
      i === 0 ? '1×' : `${(percentile(withClient[i], 50) / clientFloor).toFixed(2)}×`,
      starts[i].length,
    ]);

    // Spawn → the first health answer: a fresh process per run, interleaved with the one-tool server's first call.
    const firstCallers: [string, string[], string][] = [
      ['MCP SDK server with one tool (constant answer)', [oneToolJs], 'health'],
      [
        'AutoSnippet autosnippet_health, 1,000 recipes + 1,000 skills',
        [serverJs, '--workspace', bothRoot],
        'autosnippet_health',
      ],
      ...(baseline
        ? [
          [
            'baseline build, health, 1,000 recipes + 1,000 skills',
            [baseline, '--workspace', bothRoot],
            'autosnippet_health',
          ] as [string, string[], string],
        ]
        : []),
    ];
    const firstCalls = firstCallers.map(() => [] as number[]);
    for (let r = 0; r < rounds; r++) {
      for (const [i, [, args, tool]] of firstCallers.entries()) firstCalls[i].push(await startAndCall(args, tool));
    }
    const firstFloor = percentile(firstCalls[0], 50);
    const firstCallRows = firstCallers.map((
      [label],
      i,
    ) => [
      label,
      ms(percentile(firstCalls[i], 50)),
      ms(percentile(firstCalls[i], 95)),
      i === 0 ? '1×' : `${(percentile(firstCalls[i], 50) / firstFloor).toFixed(2)}×`,
      firstCalls[i].length,
    ]);

    // health round trips in the steady state (the first call after start is the first-search table's
    // subject): every server settles for SETTLE_MS, then alternating blocks of 50 calls.
    const callers = [{
      label: 'AutoSnippet autosnippet_health (new workspace)',
      target: targets[1],
      tool: 'autosnippet_health',
    }];
    if (baseline) {
      callers.push({ label: 'baseline build, health (new workspace)', target: targets[2], tool: 'autosnippet_health' });
    }
    callers.push({ label: 'MCP SDK server with one tool (constant answer)', target: targets[0], tool: 'health' });
    const connected = [];
    for (const c of callers) {
      connected.push({ ...c, conn: await startAndList(c.target), wire: [] as number[], client: [] as number[] });
    }
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    for (let k = 0; k < 11; k++) {
      for (const c of connected) {
        for (let i = 0; i < 50; i++) {
          const t = await timedCall(c.conn, c.tool);
          if (k === 0) continue; // warm-up block
          c.wire.push(t.wire);
          c.client.push(t.client);
        }
      }
    }
    for (const c of connected) await c.conn.client.close();

    // The first search of a fresh process, interleaved build by build, round by round.
    const builds: [string, string][] = [
      ['AutoSnippet', serverJs],
      ...(baseline ? [['baseline build', baseline] as [string, string]] : []),
    ];
    const searchRows: (string | number)[][] = [];
    const searchRounds = Math.max(3, Math.ceil(rounds / 2));
    for (const [n, root] of indexed) {
      const cells = builds.map(() => ({
        now: [] as number[],
        later: [] as number[],
        warm: [] as number[],
        idle: [] as number[],
      }));
      for (let r = 0; r < searchRounds; r++) {
        for (const [i, [, js]] of builds.entries()) {
          const now = await firstSearch([js, '--workspace', root], 0);
          const later = await firstSearch([js, '--workspace', root], 1000, IDLE_MS);
          cells[i].now.push(now.first);
          cells[i].later.push(later.first);
          cells[i].warm.push(now.warm, later.warm);
          cells[i].idle.push(later.idle!);
        }
      }
      for (const [i, [name]] of builds.entries()) {
        const c = cells[i];
        searchRows.push([
          n.toLocaleString('en'),
          name,
          ms(percentile(c.now, 50)),
          ms(percentile(c.later, 50)),
          ms(percentile(c.warm, 50)),
          ms(percentile(c.idle, 50)),
          c.now.length,
        ]);
      }
    }
    return [
      {
        title: 'MCP server start: process spawn → first tools/list answer (stdio, SDK client)',
        columns: [
          'server',
          'answer arrives, p50',
          'p95',
          'p50 vs one-tool server',
          'SDK client returns the list, p50',
          'vs one-tool server',
          'runs',
        ],
        rows: startRows,
        notes: [
          'Runs interleaved round by round (every server once per round); medians of a shared 2-core machine.',
          "\"Answer arrives\" is when the tools/list answer reaches the client's transport: the server's own time. The SDK client then compiles a validator for every tool's outputSchema (AutoSnippet publishes 52), which is in the second figure.",
          'AutoSnippet V2 (the seed system) is not on the npm registry, so it is not in this table.',
          ...(baseline ? [`baseline build: ${baseline}`] : []),
        ],
      },
      {
        title: 'MCP server start → the first tool answer (a fresh process per run: initialize, then the call)',
        columns: ['server', 'answer arrives, p50', 'p95', 'p50 vs one-tool server', 'runs'],
        rows: firstCallRows,
        notes: [
          'Runs interleaved round by round; the workspace was indexed, and its skills counted, by an earlier process (as after a first session). Medians of a shared 2-core machine.',
        ],
      },
      {
        title: 'MCP tools/call round trip: health',
        columns: ['server', 'answer arrives, p50', 'p95', 'SDK client returns, p50', 'p95', 'calls'],
        rows: connected.map((
          c,
        ) => [
          c.label,
          ms(percentile(c.wire, 50)),
          ms(percentile(c.wire, 95)),
          ms(percentile(c.client, 50)),
          ms(percentile(c.client, 95)),
          c.wire.length,
        ]),
        notes: [
          `Each server settles ${
            SETTLE_MS / 1000
          } s after start, then alternating blocks of 50 calls on one connection each (a warm-up block not counted). The SDK client also checks AutoSnippet's structuredContent against the tool's outputSchema (the one-tool server has none).`,
        ],
      },
      {
        title: 'The first `search` in a fresh MCP server process (stdio, SDK client; hybrid search, limit 10)',
        columns: [
          'recipes',
          'server',
          'first search right after tools/list (p50)',
          'first search 1 s after tools/list (p50)',
          'a later search (p50)',
          `a search after ${IDLE_MS / 1000} s without a call (p50)`,
          'runs',
        ],
        rows: searchRows,
        notes: [
          `Each run starts a new server on the already indexed workspace. A later search = the third search on the same connection. After ${
            IDLE_MS / 1000
          } s without a call the server checks the recipe files again before answering (more than 2 s since the last check). Builds and rounds interleaved; medians of a shared 2-core machine.`,
        ],
      },
    ];
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}
