// MCP server: process start to the first tools/list answer, and the tools/call round trip for health.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ms, percentile, sample, type BenchTable } from './lib';

const serverJs = path.join(__dirname, '..', 'dist', 'mcp.js');

async function startAndList(workspace: string): Promise<{ client: Client; startMs: number }> {
  const t0 = performance.now();
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [serverJs, '--workspace', workspace], stderr: 'ignore' }));
  await client.listTools();
  return { client, startMs: performance.now() - t0 };
}

export async function run(): Promise<BenchTable[]> {
  const starts: number[] = [];
  for (let i = 0; i < 5; i++) {
    const ws = mkdtempSync(path.join(os.tmpdir(), 'as-bench-mcp-'));
    const { client, startMs } = await startAndList(ws);
    starts.push(startMs);
    await client.close();
  }
  const { client } = await startAndList(mkdtempSync(path.join(os.tmpdir(), 'as-bench-mcp-')));
  const calls = await sample(200, () => client.callTool({ name: 'autosnippet_health', arguments: {} }), 10);
  await client.close();
  return [
    {
      title: 'MCP server (stdio, SDK client)',
      columns: ['measure', 'p50', 'p95', 'runs'],
      rows: [
        ['start → first tools/list answer (cold process, new workspace)', ms(percentile(starts, 50)), ms(percentile(starts, 95)), starts.length],
        ['tools/call round trip: health', ms(percentile(calls, 50)), ms(percentile(calls, 95)), calls.length],
      ],
    },
  ];
}
