// The foundation inside VS Code: activation, language-model tools, and the MCP server definition.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import assert from 'node:assert/strict';
import { lstatSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { test } from './collector';
import { activateExtension, assertSamePath, eventually, mergedEnv, toolResultJson, workspaceRoot } from './expect';

test('the extension activates', async () => {
  const api = await activateExtension();
  assert.equal(
    typeof api?.mcpServerDefinitions,
    'function',
    'activate() must return an API with mcpServerDefinitions()',
  );
});

test('its default tools appear in vscode.lm.tools; the others are reached through call_tool', async () => {
  await activateExtension();
  const names = await eventually('autosnippet_health and autosnippet_call_tool in vscode.lm.tools', () => {
    const ours = vscode.lm.tools.map((t) => t.name).filter((n) => n.startsWith('autosnippet_'));
    return ours.includes('autosnippet_health') && ours.includes('autosnippet_call_tool') ? ours : undefined;
  });
  assert.ok(
    !names.includes('autosnippet_get_targets'),
    'a tool outside the default set is hidden while autosnippet.tools.offered is "default"',
  );
  const through = toolResultJson(
    await vscode.lm.invokeTool('autosnippet_call_tool', {
      input: { name: 'get_targets', arguments: {} },
      toolInvocationToken: undefined,
    }),
  );
  assert.equal(through.tool, 'get_targets', JSON.stringify(through).slice(0, 300));
  for (const tool of vscode.lm.tools.filter((t) => names.includes(t.name))) {
    assert.ok(tool.description.trim().length > 0, `${tool.name} has no description`);
  }
});

test('vscode.lm.invokeTool autosnippet_health returns the workspace', async () => {
  await activateExtension();
  const result = await vscode.lm.invokeTool('autosnippet_health', { input: {}, toolInvocationToken: undefined });
  const json = toolResultJson(result);
  assert.equal(json.ok, true, `health answered ${JSON.stringify(json).slice(0, 500)}`);
  assertSamePath(json.data?.workspace?.root, workspaceRoot(), 'health data.workspace.root');
});

test('the MCP server definition starts a server that answers tools/list and a tool call', async () => {
  const api = await activateExtension();
  const defs = api.mcpServerDefinitions();
  assert.ok(Array.isArray(defs) && defs.length > 0, 'mcpServerDefinitions() returned no definitions');
  const def = defs[0];
  assert.equal(typeof def.command, 'string');
  assert.ok(Array.isArray(def.args), 'definition args must be an array');
  const transport = new StdioClientTransport({
    command: def.command,
    args: def.args,
    env: mergedEnv(def.env ?? {}),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'autosnippet-vscode-suite', version: '0.0.0' });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    assert.ok(names.includes('autosnippet_health'), `tools/list has no autosnippet_health: ${names.join(', ')}`);
    // tools/list comes from the small front (dist/mcp.js); a tool call needs the server bundle beside it.
    const health = (await client.callTool({ name: 'autosnippet_health', arguments: {} })) as {
      structuredContent?: { ok?: boolean; data?: { workspace?: { root?: string } } };
    };
    assert.equal(health.structuredContent?.ok, true, `health failed: ${JSON.stringify(health)}`);
    assertSamePath(
      health.structuredContent?.data?.workspace?.root,
      workspaceRoot(),
      "the MCP server's health data.workspace.root",
    );
  } catch (e) {
    throw new Error(
      `MCP server "${def.label}" (${def.command} ${def.args.join(' ')}) failed: ${String(e)}\nits stderr:\n${
        stderr.slice(-2000)
      }`,
    );
  } finally {
    await client.close().catch(() => {});
  }
}, { timeoutMs: 30_000 });

test('"Connect an MCP Client" refuses a .cursor folder that is a link and writes nothing where it leads', async () => {
  await activateExtension();
  const root = workspaceRoot();
  const outside = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-outside-'));
  const cursor = path.join(root, '.cursor');
  try {
    symlinkSync(outside, cursor);
    // Refused, the command returns at once; a write would go on to wait for its "added" message.
    await vscode.commands.executeCommand('autosnippet.writeMcpConfig', 'cursor');
    assert.deepEqual(readdirSync(outside), [], 'nothing written through the link');
    assert.ok(lstatSync(cursor).isSymbolicLink(), 'the link is left as it is');
  } finally {
    rmSync(cursor, { force: true });
    rmSync(outside, { recursive: true, force: true });
  }
});
