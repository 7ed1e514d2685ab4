// The servers the editor runs (VS Code's MCP tools in vscode.lm.tools) reached through the manager's
// three levels, without a second connection: grouped by server, each call waits for a person's yes.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { createCatalog } from '../../src/core/catalog';
import type { ToolContext } from '../../src/core/catalog/types';
import { groupEditorTools, type HostServers } from '../../src/core/domains/servers/host';
import { useHostMcpServers } from '../../src/core/domains/servers/manager';
import { Workspace } from '../../src/core/ground/workspace';

process.env.AUTOSNIPPET_HOME = mkdtempSync(path.join(os.tmpdir(), 'as-home-'));
const catalog = createCatalog();
const open: Workspace[] = [];
after(async () => {
  for (const ws of open) await ws.dispose();
});

/** What vscode.lm.tools lists with two MCP servers running and one extension's own tool. */
const editorTools = [
  { name: 'mcp_github_search_issues', description: 'Search issues.', inputSchema: { type: 'object' } },
  { name: 'mcp_github_create_issue', description: 'Create an issue.', inputSchema: { type: 'object' } },
  { name: 'mcp_notes_read', description: 'Read a note.' },
  { name: 'copilot_readFile', description: 'An extension tool, not a server.' },
];

test("the editor's MCP tools are grouped by server from their names; an extension's own tools are not servers", () => {
  const groups = groupEditorTools(editorTools);
  assert.deepEqual(groups.map((g) => [g.name, g.tools.map((t) => t.name)]), [
    ['github', ['search_issues', 'create_issue']],
    ['notes', ['read']],
  ]);
  assert.equal(groups[0].tools[1].fullName, 'mcp_github_create_issue');
  assert.deepEqual(groups[1].tools[0].inputSchema, { type: 'object', properties: {} });
});

test("the editor's servers are listed, described and called through the catalog; each call waits for a person's yes", async () => {
  const calls: string[] = [];
  const host: HostServers = {
    origin: 'vscode',
    servers: () => groupEditorTools(editorTools),
    async call(server, tool, args) {
      calls.push(`${server}/${tool} ${JSON.stringify(args)}`);
      return { content: [{ type: 'text', text: `done ${tool}` }] };
    },
  };
  const ws = await Workspace.open(mkdtempSync(path.join(os.tmpdir(), 'as-host-')), { settings: { trusted: true } });
  open.push(ws);
  useHostMcpServers(ws, host);

  const agent: ToolContext = { actor: 'copilot_agent', channel: 'chat' };
  const list = await catalog.invoke(ws, 'list_mcp_servers', {}, agent);
  assert.ok(list.ok, JSON.stringify(list));
  assert.deepEqual(
    (list.data as { servers: { name: string; origin: string; state: string; tools: number }[] }).servers.map((
      s,
    ) => [s.name, s.origin, s.state, s.tools]),
    [['github', 'vscode', 'connected', 2], ['notes', 'vscode', 'connected', 1]],
  );
  const info = await catalog.invoke(ws, 'get_mcp_instructions', { server: 'github' }, agent);
  assert.ok(info.ok);
  assert.deepEqual(
    (info.data as { tools: { name: string; permission: string }[] }).tools.map((t) => [t.name, t.permission]),
    [['search_issues', 'ask'], ['create_issue', 'ask']],
  );

  const args = { server: 'github', tool: 'create_issue', arguments: { title: 'x' } };
  const unasked = await catalog.invoke(ws, 'call_mcp_tool', args, agent);
  assert.equal(!unasked.ok && unasked.error.code, 'NEEDS_APPROVAL');
  const questions: string[] = [];
  const declined = await catalog.invoke(ws, 'call_mcp_tool', args, {
    ...agent,
    confirm: async (q) => (questions.push(q.message), false),
  });
  assert.equal(!declined.ok && declined.error.code, 'PERMISSION_DENIED');
  assert.deepEqual(calls, [], 'nothing ran without a yes');
  assert.match(questions[0], /create_issue.*"github".*"title":"x"/);
  const ran = await catalog.invoke(ws, 'call_mcp_tool', args, { ...agent, confirm: async () => true });
  assert.ok(ran.ok, JSON.stringify(ran));
  assert.deepEqual((ran.data as { content: unknown[] }).content, [{ type: 'text', text: 'done create_issue' }]);
  assert.deepEqual(calls, ['github/create_issue {"title":"x"}']);
  const unknown = await catalog.invoke(ws, 'get_mcp_instructions', { server: 'slack' }, agent);
  assert.equal(!unknown.ok && unknown.error.code, 'NOT_FOUND');
  assert.match(JSON.stringify(unknown), /github, notes/);
});
