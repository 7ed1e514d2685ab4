// Custom tools from .autosnippet/tools: trusted folders only, a person approves each file (its hash
// kept in the person's data folder), run on a real worker thread with time and memory limits, and
// reached through list_tools / get_tool_info / call_tool with origin `custom`.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { customToolsCommand } from '../../src/cli/tools';
import { createCatalog } from '../../src/core/catalog';
import type { ToolContext, ToolResult } from '../../src/core/catalog/types';
import { Workspace } from '../../src/core/ground/workspace';

const home = mkdtempSync(path.join(os.tmpdir(), 'as-home-'));
process.env.AUTOSNIPPET_HOME = home;
const agent: ToolContext = { actor: 'external_agent', channel: 'mcp' };
const person: ToolContext = { actor: 'human', channel: 'cli' };
const catalog = createCatalog();
const open: Workspace[] = [];
after(async () => {
  for (const ws of open) await ws.dispose();
});

/** A tool that counts its own evaluations in a file beside it, so a test can see whether it ever ran. */
const WORDS = `import fs from 'node:fs';
import path from 'node:path';
export default {
  description: 'Counts the words of a text.\\nSecond line.',
  inputSchema: { type: 'object', properties: { text: { type: 'string', maxLength: 1000 } }, required: ['text'], additionalProperties: false },
  handler(input, context) {
    fs.appendFileSync(path.join(context.root, 'ran.log'), 'x');
    return { words: input.text.split(/\\s+/).filter(Boolean).length, context: Object.keys(context) };
  },
};
`;

async function workspace(tools: Record<string, string>, trusted = true): Promise<Workspace> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'as-custom-'));
  mkdirSync(path.join(root, '.autosnippet', 'tools'), { recursive: true });
  for (const [file, text] of Object.entries(tools)) writeFileSync(path.join(root, '.autosnippet', 'tools', file), text);
  const ws = await Workspace.open(root, {
    settings: { trusted, trustNote: trusted ? undefined : 'the folder is not trusted: run autosnippet trust' },
  });
  open.push(ws);
  return ws;
}

const call = (ws: Workspace, name: string, input: object, ctx: ToolContext = agent) =>
  catalog.invoke(ws, name, input, ctx);
const code = (r: ToolResult) => (r.ok ? 'ok' : r.error.code);
const approve = (ws: Workspace, file: string, extra: object = {}) =>
  call(ws, 'approve_custom_tool', { file, ...extra }, person);

async function customListed(ws: Workspace) {
  const r = await call(ws, 'list_tools', {});
  assert.ok(r.ok, JSON.stringify(r));
  const domains = (r.data as { domains: { domain: string; tools: Record<string, string>[] }[] }).domains;
  return domains.find((d) => d.domain === 'custom')?.tools ?? [];
}

test('an untrusted folder lists its tools as untrusted and never evaluates them', async () => {
  const ws = await workspace({ 'words.mjs': WORDS }, false);
  assert.deepEqual(
    (await customListed(ws)).map((t) => [t.name, t.origin, t.state]),
    [['words', 'custom', 'untrusted']],
  );
  const r = await call(ws, 'call_tool', { name: 'words', arguments: { text: 'a b' } });
  assert.equal(code(r), 'CUSTOM_TOOLS_UNTRUSTED');
  assert.match(JSON.stringify(r), /not trusted/);
  const approval = await approve(ws, 'words');
  assert.equal(code(approval), 'CUSTOM_TOOLS_UNTRUSTED');
  assert.equal(existsSync(path.join(ws.root, 'ran.log')), false);
});

test('a trusted file runs only after a person approves it; an agent can neither run nor approve it before', async () => {
  const ws = await workspace({ 'words.mjs': WORDS });
  const [listed] = await customListed(ws);
  assert.equal(listed.state, 'needs-approval');
  assert.equal(listed.file, '.autosnippet/tools/words.mjs');
  assert.match(listed.summary, /autosnippet tools approve \.autosnippet\/tools\/words\.mjs/);

  const before = await call(ws, 'call_tool', { name: 'words', arguments: { text: 'a b' } });
  assert.equal(code(before), 'CUSTOM_TOOL_NOT_APPROVED');
  assert.equal(code(await call(ws, 'get_tool_info', { name: 'words' })), 'CUSTOM_TOOL_NOT_APPROVED');
  assert.equal(code(await call(ws, 'approve_custom_tool', { file: 'words' })), 'PERMISSION_DENIED');
  assert.equal(existsSync(path.join(ws.root, 'ran.log')), false, 'nothing of the file ran before approval');

  const approved = await approve(ws, 'words.mjs');
  assert.ok(approved.ok, JSON.stringify(approved));
  const sha = (approved.data as { sha256: string; state: string }).sha256;
  assert.equal((approved.data as { state: string }).state, 'ready');
  // Remembered in the person's data folder, never in the repository.
  assert.match(readFileSync(path.join(home, 'tool-approvals.json'), 'utf8'), new RegExp(sha));
  assert.deepEqual(readdirSync(path.join(ws.root, '.autosnippet')).sort().filter((f) => /approv/.test(f)), []);

  const r = await call(ws, 'call_tool', { name: 'autosnippet_words', arguments: { text: 'one two  three' } });
  assert.ok(r.ok, JSON.stringify(r));
  assert.equal(r.tool, 'words');
  assert.deepEqual(r.data, { words: 3, context: ['root'] });
  assert.equal(readFileSync(path.join(ws.root, 'ran.log'), 'utf8'), 'x');

  const info = await call(ws, 'get_tool_info', { name: 'words' });
  assert.ok(info.ok, JSON.stringify(info));
  const d = info.data as Record<string, unknown>;
  assert.equal(d.origin, 'custom');
  assert.equal(d.sha256, sha);
  assert.match(String(d.arguments), /text: string \(required\)/);
  assert.deepEqual((await customListed(ws)).map((t) => [t.state, t.summary]), [[
    'ready',
    'Counts the words of a text.',
  ]]);

  // Its arguments are checked against its own schema, and the call is audited under its name.
  const bad = await call(ws, 'words', { text: 5 });
  assert.equal(code(bad), 'INVALID_INPUT');
  const audit = await call(ws, 'query_audit_log', { limit: 20 }, person);
  assert.match(JSON.stringify(audit), /"action":"words"/);
});

test('a changed file needs a new approval, and then its new bytes run', async () => {
  const ws = await workspace({
    'echo.mjs': `export default { description: 'Echo.', inputSchema: { type: 'object' }, handler: () => 'v1' };`,
  });
  assert.ok((await approve(ws, 'echo')).ok);
  const v1 = await call(ws, 'echo', {});
  assert.ok(v1.ok && v1.data === 'v1', JSON.stringify(v1));
  const file = path.join(ws.root, '.autosnippet', 'tools', 'echo.mjs');
  writeFileSync(file, readFileSync(file, 'utf8').replace("'v1'", "'v2'"));
  const changed = await call(ws, 'call_tool', { name: 'echo' });
  assert.equal(code(changed), 'CUSTOM_TOOL_CHANGED');
  assert.equal((await customListed(ws))[0].state, 'changed');
  // Approving with the hash the person was shown refuses a file that changed after it was shown.
  const stale = await approve(ws, 'echo', { sha256: 'a'.repeat(64) });
  assert.equal(code(stale), 'CUSTOM_TOOL_CHANGED');
  assert.equal(code(await call(ws, 'echo', {})), 'CUSTOM_TOOL_CHANGED');
  assert.ok((await approve(ws, 'echo')).ok);
  const r = await call(ws, 'echo', {});
  assert.ok(r.ok && r.data === 'v2', JSON.stringify(r));
  // Revoking takes it back.
  assert.ok((await approve(ws, 'echo', { revoke: true })).ok);
  assert.equal(code(await call(ws, 'echo', {})), 'CUSTOM_TOOL_NOT_APPROVED');
});

test('a tool that runs past its time is stopped with TIMEOUT, one that outgrows its heap with RESOURCE_LIMIT; others keep working', async () => {
  const ws = await workspace({
    'spin.mjs':
      `export default { description: 'Spins.', timeoutMs: 300, inputSchema: { type: 'object' }, handler() { for (;;) {} } };`,
    'hog.mjs':
      `export default { description: 'Hogs memory.', timeoutMs: 60000, inputSchema: { type: 'object' }, handler() { const a = []; for (;;) a.push(new Array(1e5).fill(a.length)); } };`,
    'ok.mjs':
      `export default { description: 'Fine.', inputSchema: { type: 'object' }, handler: () => ({ fine: true }) };`,
  });
  for (const f of ['spin', 'hog', 'ok']) assert.ok((await approve(ws, f)).ok);
  const started = Date.now();
  const spin = await call(ws, 'spin', {});
  assert.equal(code(spin), 'TIMEOUT');
  assert.ok(Date.now() - started < 5000, 'stopped near its 300 ms');
  const hog = await call(ws, 'call_tool', { name: 'hog' });
  assert.equal(code(hog), 'RESOURCE_LIMIT');
  assert.match(JSON.stringify(hog), /128 MB/);
  const fine = await call(ws, 'ok', {});
  assert.ok(fine.ok, JSON.stringify(fine));
  assert.deepEqual(fine.data, { fine: true });
});

test('bad definitions are INVALID_CUSTOM_TOOL with the reason; a throwing handler is TOOL_FAILED', async () => {
  const ws = await workspace({
    'bad_schema.mjs':
      `export default { description: 'x', inputSchema: { type: 'object', properties: { a: { type: 'strin' } } }, handler: () => 1 };`,
    'no_handler.mjs': `export default { description: 'x', inputSchema: { type: 'object' } };`,
    'throws_on_load.mjs': `throw new Error('boom at load');`,
    'wrong_name.mjs':
      `export default { name: 'other', description: 'x', inputSchema: { type: 'object' }, handler: () => 1 };`,
    'search.mjs': `export default { description: 'x', inputSchema: { type: 'object' }, handler: () => 1 };`,
    'fails.mjs':
      `export default { description: 'x', inputSchema: { type: 'object' }, handler() { throw new Error('no such ticket'); } };`,
  });
  for (const f of readdirSync(path.join(ws.root, '.autosnippet', 'tools'))) assert.ok((await approve(ws, f)).ok, f);
  const listed = Object.fromEntries((await customListed(ws)).map((t) => [t.name, t]));
  for (const name of ['bad_schema', 'no_handler', 'throws_on_load', 'wrong_name', 'search']) {
    assert.equal(listed[name].state, 'invalid', name);
  }
  const expect = {
    bad_schema: /not a valid JSON Schema/,
    no_handler: /"handler" is not a function/,
    throws_on_load: /boom at load/,
    wrong_name: /named by its file/,
  };
  for (const [name, why] of Object.entries(expect)) {
    const r = await call(ws, 'call_tool', { name });
    assert.equal(code(r), 'INVALID_CUSTOM_TOOL', name);
    assert.match(r.ok ? '' : r.error.message, why);
  }
  assert.match(listed.search.summary, /AutoSnippet has a tool named search/);
  assert.equal((await call(ws, 'search', { query: 'x' })).tool, 'search', 'the catalog tool still answers');
  const fails = await call(ws, 'fails', {});
  assert.equal(code(fails), 'TOOL_FAILED');
  assert.match(JSON.stringify(fails), /no such ticket/);
});

test('CommonJS tools run, may require only built-in modules, and answers are cut to the bound', async () => {
  const ws = await workspace({
    'join.js':
      `const p = require('node:path');\nmodule.exports = { description: 'Joins.', inputSchema: { type: 'object' }, handler: () => p.posix.join('a', 'b') };`,
    'reach.js':
      `module.exports = { description: 'Reaches out.', inputSchema: { type: 'object' }, handler: () => require('../../package.json') };`,
    'big.mjs':
      `export default { description: 'Big.', inputSchema: { type: 'object' }, handler: () => ({ items: Array.from({ length: 5000 }, (_, i) => 'item ' + i) }) };`,
  });
  for (const f of ['join', 'reach', 'big']) assert.ok((await approve(ws, f)).ok);
  const joined = await call(ws, 'join', {});
  assert.ok(joined.ok && joined.data === 'a/b', JSON.stringify(joined));
  const reach = await call(ws, 'reach', {});
  assert.equal(code(reach), 'TOOL_FAILED');
  assert.match(JSON.stringify(reach), /only Node's built-in modules/);
  const big = await call(ws, 'big', {});
  assert.ok(big.ok, JSON.stringify(big).slice(0, 300));
  assert.ok(JSON.stringify(big.data).length <= 20_000);
  assert.ok(big.truncated, 'says it was cut');
});

test('the CLI shows the file and its hash, asks once, and approves only on yes; revoke takes it back', async () => {
  const ws = await workspace({ 'words.mjs': WORDS });
  const run = async (args: string[], answer: boolean) => {
    const o = { stdout: '', stderr: '', asked: '' };
    const out = { stdout: (s: string) => void (o.stdout += s), stderr: (s: string) => void (o.stderr += s) };
    const rc = await customToolsCommand(args, async () => ws, out, async (q) => {
      o.asked = q;
      return answer;
    });
    return { rc, ...o };
  };
  const no = await run(['approve', 'words'], false);
  assert.equal(no.rc, 1);
  assert.match(no.stderr, /sha256 [0-9a-f]{64}/);
  assert.match(no.stderr, /│ {3}description: 'Counts the words of a text/, 'the whole file is shown');
  assert.match(no.asked, /Let \.autosnippet\/tools\/words\.mjs run/);
  assert.equal(code(await call(ws, 'words', { text: 'a' })), 'CUSTOM_TOOL_NOT_APPROVED');

  const yes = await run(['approve', '.autosnippet/tools/words.mjs'], true);
  assert.equal(yes.rc, 0, yes.stderr);
  assert.match(yes.stdout, /the tool words is ready/);
  assert.ok((await call(ws, 'words', { text: 'a' })).ok);
  const listed = await run(['custom'], true);
  assert.match(listed.stdout, /words\s+ready\s+Counts the words/);

  assert.equal((await run(['revoke', 'words'], true)).rc, 0);
  assert.equal(code(await call(ws, 'words', { text: 'a' })), 'CUSTOM_TOOL_NOT_APPROVED');
  assert.equal(await customToolsCommand(['guard'], async () => ws, { stdout() {}, stderr() {} }), undefined);
});
