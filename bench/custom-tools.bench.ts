// Custom tools (.autosnippet/tools): loading ten approved tool files on a fresh workspace (a worker
// thread starts and evaluates each file once), listing them again, and one call through the worker
// beside a catalog tool that runs on the caller's thread.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCatalog } from '../src/core/catalog';
import { Workspace } from '../src/core/ground/workspace';
import { type BenchTable, median, ms, percentile, sample, timeIt } from './lib';

const TOOLS = 10;

function tool(i: number): string {
  return `import path from 'node:path';
export default {
  description: 'Tool ${i}: counts the words of a text and names the folder.',
  inputSchema: { type: 'object', properties: { text: { type: 'string', maxLength: 1000 } }, required: ['text'] },
  handler: ({ text }, { root }) => ({ words: text.split(/\\s+/).filter(Boolean).length, folder: path.basename(root) }),
};
`;
}

export async function run(): Promise<BenchTable[]> {
  const prevHome = process.env.AUTOSNIPPET_HOME;
  process.env.AUTOSNIPPET_HOME = mkdtempSync(path.join(os.tmpdir(), 'as-bench-home-'));
  const root = mkdtempSync(path.join(os.tmpdir(), 'as-bench-custom-'));
  mkdirSync(path.join(root, '.autosnippet', 'tools'), { recursive: true });
  for (let i = 0; i < TOOLS; i++) writeFileSync(path.join(root, '.autosnippet', 'tools', `tool_${i}.mjs`), tool(i));
  const catalog = createCatalog();
  const person = { actor: 'human', channel: 'cli' } as const;
  const agent = { actor: 'external_agent', channel: 'mcp' } as const;
  const setup = await Workspace.open(root, { settings: { trusted: true } });
  for (let i = 0; i < TOOLS; i++) await catalog.invoke(setup, 'approve_custom_tool', { file: `tool_${i}` }, person);
  await setup.dispose();

  const rows: (string | number)[][] = [];
  const ws = await Workspace.open(root, { settings: { trusted: true } });
  try {
    const list = () => catalog.invoke(ws, 'list_tools', { domain: 'custom' }, agent);
    const cold = await timeIt(list);
    const warm = await sample(20, list);
    rows.push([`list ${TOOLS} custom tools, fresh workspace (thread start + each file evaluated)`, ms(cold), '-']);
    rows.push([
      `list them again (read + hash each file; definitions cached)`,
      ms(median(warm)),
      ms(percentile(warm, 90)),
    ]);
    const custom = await sample(50, () => catalog.invoke(ws, 'tool_3', { text: 'one two three' }, agent), 3);
    const builtin = await sample(50, () => catalog.invoke(ws, 'capabilities', {}, agent), 3);
    rows.push([
      'one custom tool call (worker round trip, Gateway audit)',
      ms(median(custom)),
      ms(percentile(custom, 90)),
    ]);
    rows.push([
      'one catalog read tool call (capabilities, caller thread)',
      ms(median(builtin)),
      ms(percentile(builtin, 90)),
    ]);
  } finally {
    await ws.dispose();
    process.env.AUTOSNIPPET_HOME = prevHome;
  }
  return [{
    title: 'Custom tools',
    columns: ['case', 'median', 'p90'],
    rows,
    notes: [
      'Source mode (the worker starts through tsx); the bundled worker (dist/custom-tool-worker.js) starts faster.',
    ],
  }];
}
