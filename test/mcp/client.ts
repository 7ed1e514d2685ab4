// Helpers for the MCP layer: the SDK's own Client talking to the built dist/mcp.js.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cpSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const repo = path.join(__dirname, '..', '..');
export const serverJs = path.join(repo, 'dist', 'mcp.js');

/** A fresh copy of a fixture workspace (or an empty folder) in the temp dir. */
export function tempWorkspace(fixture?: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-mcp-'));
  if (fixture) cpSync(path.join(repo, 'test', 'fixtures', fixture), dir, { recursive: true });
  return dir;
}

/**
 * The person's home the spawned servers see (AUTOSNIPPET_HOME): empty, so no test reads or writes the
 * machine's own trust store and settings, and a folder is trusted only when a test passes --trust.
 */
let home: string | undefined;
export function testHome(): string {
  return (home ??= mkdtempSync(path.join(os.tmpdir(), 'autosnippet-mcp-home-')));
}

export async function connectStdio(
  workspace: string,
  extraArgs: string[] = [],
  env: Record<string, string> = {},
  client = new Client({ name: 'autosnippet-test', version: '0.0.0' }),
): Promise<{ client: Client; transport: StdioClientTransport; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [serverJs, '--workspace', workspace, ...extraArgs],
    stderr: 'pipe',
    env: { ...getDefaultEnvironment(), AUTOSNIPPET_HOME: testHome(), ...env },
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  await client.connect(transport);
  return { client, transport, stderr: () => err };
}

export interface Envelope {
  ok: boolean;
  tool: string;
  data?: any;
  error?: { code: string; message: string; hint?: string; field?: string };
  truncated?: { nextCursor?: number; hint: string };
}

/**
 * Calls a tool and returns its envelope: the one JSON text every tool answers with, or, for a tool
 * whose text is Markdown (load_skill, load_skill_chunk), the structured content beside that text.
 */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ envelope: Envelope; isError: boolean; text: string }> {
  const r = (await client.callTool({ name, arguments: args })) as {
    content: { type: string; text: string }[];
    structuredContent?: Envelope;
    isError?: boolean;
  };
  assertOneText(r.content);
  return {
    envelope: r.structuredContent ?? (JSON.parse(r.content[0].text) as Envelope),
    isError: Boolean(r.isError),
    text: r.content[0].text,
  };
}

function assertOneText(content: { type: string; text: string }[]): void {
  if (content.length !== 1 || content[0].type !== 'text') {
    throw new Error(`expected one text part, got ${JSON.stringify(content).slice(0, 200)}`);
  }
}
