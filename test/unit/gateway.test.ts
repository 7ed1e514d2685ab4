import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { auditTools } from '../../src/core/catalog/audit';
import { ToolCatalog } from '../../src/core/catalog/catalog';
import { Input, Opt, Type } from '../../src/core/catalog/schema';
import { defineTool, type ToolContext } from '../../src/core/catalog/types';
import { Workspace } from '../../src/core/ground/workspace';

let ws: Workspace;
let dir: string;
let writes: string[];

const human: ToolContext = { actor: 'human', channel: 'test' };
const agent: ToolContext = { actor: 'copilot_agent', channel: 'test' };

const propose = defineTool({
  name: 'propose_thing',
  title: 'Propose',
  domain: 'test',
  summary: 'p',
  description: 'p',
  access: 'propose',
  maxOutputChars: 1000,
  inputSchema: Input({
    id: Opt(Type.String({ maxLength: 100 })),
    items: Opt(Type.Array(Type.Unknown(), { maxItems: 100 })),
    deep: Opt(Type.Unknown()),
  }),
  outputSchema: Type.Any(),
  batch: { field: 'items', max: 3 },
  handler: (_ws, input) => (writes.push(`propose:${input.id}`), { done: true }),
});
const approve = defineTool({
  name: 'approve_thing',
  title: 'Approve',
  domain: 'test',
  summary: 'a',
  description: 'a',
  access: 'review',
  maxOutputChars: 1000,
  inputSchema: Input({ id: Opt(Type.String({ maxLength: 100 })) }),
  outputSchema: Type.Any(),
  handler: (_ws, input) => (writes.push(`approve:${input.id}`), { approved: input.id }),
});
const remove = defineTool({
  name: 'delete_thing',
  title: 'Delete',
  domain: 'test',
  summary: 'd',
  description: 'd',
  access: 'review',
  destructive: true,
  maxOutputChars: 1000,
  inputSchema: Input({ id: Opt(Type.String({ maxLength: 100 })), confirm: Opt(Type.Boolean()) }),
  outputSchema: Type.Any(),
  handler: (_ws, input) => (writes.push(`delete:${input.id}`), { deleted: input.id }),
});
const read = defineTool({
  name: 'read_thing',
  title: 'Read',
  domain: 'test',
  summary: 'r',
  description: 'r',
  access: 'read',
  maxOutputChars: 1000,
  inputSchema: Input({ id: Opt(Type.String({ maxLength: 100 })), deep: Opt(Type.Unknown()) }),
  outputSchema: Type.Any(),
  handler: () => ({ value: 1 }),
});
const catalog = new ToolCatalog([propose, approve, remove, read, ...auditTools]);

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'as-gateway-'));
  ws = await Workspace.open(dir);
  writes = [];
});
afterEach(async () => {
  await ws.dispose();
  rmSync(dir, { recursive: true, force: true });
});

async function audit(filter: Record<string, unknown> = {}) {
  const r = await catalog.invoke(ws, 'query_audit_log', filter, human);
  assert.ok(r.ok);
  return (r.data as { entries: Record<string, unknown>[] }).entries;
}

test('agents cannot run review tools; the refusal is audited and nothing is written', async () => {
  const r = await catalog.invoke(ws, 'approve_thing', { id: 'c1' }, agent);
  assert.ok(!r.ok && r.error.code === 'PERMISSION_DENIED');
  assert.deepEqual(writes, []);
  const [e] = await audit();
  assert.equal(e.actor, 'copilot_agent');
  assert.equal(e.action, 'approve_thing');
  assert.equal(e.decision, 'denied');
  assert.equal(e.result, 'denied');
  assert.equal(e.error, 'PERMISSION_DENIED');
  assert.equal(e.resource, 'id:c1');
});

test('a person can approve; the audit entry has actor, action, resource, args digest, result and duration', async () => {
  const r = await catalog.invoke(ws, 'approve_thing', { id: 'c2' }, human);
  assert.ok(r.ok);
  assert.deepEqual(writes, ['approve:c2']);
  const [e] = await audit({ action: 'approve_thing' });
  assert.equal(e.actor, 'human');
  assert.equal(e.decision, 'allowed');
  assert.equal(e.result, 'ok');
  assert.match(String(e.argsDigest), /^[0-9a-f]{16}$/);
  assert.equal(typeof e.durationMs, 'number');
  assert.ok(
    !JSON.stringify(e).includes('"c2"') || e.resource === 'id:c2',
    'arguments are stored as a digest, not in full',
  );
});

test('the same arguments give the same digest whatever their key order', async () => {
  await catalog.invoke(ws, 'propose_thing', { id: 'x', items: [1] }, agent);
  await catalog.invoke(ws, 'propose_thing', { items: [1], id: 'x' }, agent);
  const [a, b] = await audit({ action: 'propose_thing' });
  assert.equal(a.argsDigest, b.argsDigest);
});

test('a destructive tool needs confirm: true, from people too', async () => {
  const refused = await catalog.invoke(ws, 'delete_thing', { id: 'r1' }, human);
  assert.ok(!refused.ok && refused.error.code === 'CONFIRMATION_REQUIRED' && refused.error.field === 'confirm');
  assert.deepEqual(writes, []);
  const done = await catalog.invoke(ws, 'delete_thing', { id: 'r1', confirm: true }, human);
  assert.ok(done.ok);
  assert.deepEqual(writes, ['delete:r1']);
});

test('batch writes are bounded', async () => {
  const r = await catalog.invoke(ws, 'propose_thing', { items: [1, 2, 3, 4] }, agent);
  assert.ok(!r.ok && r.error.code === 'BATCH_TOO_LARGE' && r.error.field === 'items');
  assert.deepEqual(writes, []);
  assert.ok((await catalog.invoke(ws, 'propose_thing', { items: [1, 2, 3] }, agent)).ok);
});

test('reads do not pass the Gateway and leave no audit entries', async () => {
  await catalog.invoke(ws, 'read_thing', {}, agent);
  assert.deepEqual(await audit(), []);
});

test('when the Gateway cannot record its decision, the write is refused and does not happen', async () => {
  mkdirSync(ws.dataDir, { recursive: true });
  writeFileSync(path.join(ws.dataDir, 'audit'), 'not a folder');
  const r = await catalog.invoke(ws, 'propose_thing', { id: 'p1' }, agent);
  assert.ok(!r.ok && r.error.code === 'GATEWAY_UNAVAILABLE', JSON.stringify(r));
  assert.deepEqual(writes, []);
});

test('query_audit_log filters by actor and result, newest first', async () => {
  await catalog.invoke(ws, 'propose_thing', { id: 'a' }, agent);
  await catalog.invoke(ws, 'approve_thing', { id: 'b' }, agent);
  await catalog.invoke(ws, 'approve_thing', { id: 'c' }, human);
  const denied = await audit({ result: 'denied' });
  assert.deepEqual(denied.map((e) => e.resource), ['id:b']);
  const byHuman = await audit({ actor: 'human' });
  assert.deepEqual(byHuman.map((e) => e.resource), ['id:c']);
  const all = await audit();
  assert.deepEqual(all.map((e) => e.resource), ['id:c', 'id:b', 'id:a']);
});

test('the audit log lives outside the database and is git-ignored', async () => {
  assert.equal(existsSync(ws.dataDir), false, 'opening the workspace created nothing');
  const r = await catalog.invoke(ws, 'propose_thing', { id: 'p1' }, agent);
  assert.ok(r.ok);
  assert.match(r.notice ?? '', /Created \.autosnippet\/ in .* for this first write/);
  assert.match(readFileSync(path.join(ws.dataDir, '.gitignore'), 'utf8'), /^audit\/$/m);
  assert.equal((await catalog.invoke(ws, 'propose_thing', { id: 'p2' }, agent)).notice, undefined, 'said once');
});

test("an agent's malformed call to a people-only tool is refused as such and audited (not merely INVALID_INPUT)", async () => {
  for (const input of [{ id: 'c3', actor: 'human' }, { id: 42 }, 'not an object', { id: nest(50_000) }]) {
    const r = await catalog.invoke(ws, 'approve_thing', input, agent);
    assert.ok(!r.ok && r.error.code === 'PERMISSION_DENIED', JSON.stringify(r).slice(0, 300));
  }
  assert.deepEqual(writes, []);
  const denied = await audit({ action: 'approve_thing', result: 'denied' });
  assert.equal(denied.length, 4);
});

test('other spellings of a people-only tool are that tool: refused and audited with the name the agent used', async () => {
  const spellings = [
    'approveThing',
    'approve-thing',
    'autosnippet_approve_thing',
    'autosnippet.approve-thing',
    'APPROVE_THING',
    ' approve thing ',
  ];
  for (const name of spellings) {
    const r = await catalog.invoke(ws, name, { id: 'c4' }, agent);
    assert.ok(!r.ok && r.error.code === 'PERMISSION_DENIED', `${name}: ${JSON.stringify(r)}`);
  }
  assert.deepEqual(writes, []);
  const denied = await audit({ action: 'approve_thing' });
  assert.equal(denied.length, spellings.length);
  assert.deepEqual(
    new Set(denied.map((e) => e.requested ?? 'approve_thing')),
    new Set(spellings.map((s) => (s === 'autosnippet_approve_thing' ? 'approve_thing' : s))),
  );
  // A person using another spelling gets UNKNOWN_TOOL with the right name, not an approval.
  const byPerson = await catalog.invoke(ws, 'approveThing', { id: 'c4' }, human);
  assert.ok(!byPerson.ok && byPerson.error.code === 'UNKNOWN_TOOL' && /approve_thing/.test(byPerson.error.hint ?? ''));
});

test('a people-only tool named the way MCP clients prefix tools (mcp__server__tool, functions.tool, the server name twice) is refused and audited too', async () => {
  const spellings = [
    'mcp__autosnippet__approve_thing',
    'mcp__autosnippet__autosnippet_approve_thing',
    'functions.approve_thing',
    'functions.autosnippet_approve_thing',
    'autosnippet_autosnippet_approve_thing',
    'AutoSnippet_approveThing',
  ];
  for (const name of spellings) {
    const r = await catalog.invoke(ws, name, { id: 'c5' }, agent);
    assert.ok(!r.ok && r.error.code === 'PERMISSION_DENIED', `${name}: ${JSON.stringify(r)}`);
  }
  assert.deepEqual(writes, []);
  const denied = await audit({ action: 'approve_thing', result: 'denied' });
  assert.deepEqual(new Set(denied.map((e) => e.requested)), new Set(spellings));
});

test('a 50,000-deep argument is INVALID_INPUT, for reads and writes alike, with nothing written', async () => {
  for (const tool of ['read_thing', 'propose_thing']) {
    const r = await catalog.invoke(ws, tool, { id: 'x', deep: nest(50_000) }, agent);
    assert.ok(
      !r.ok && r.error.code === 'INVALID_INPUT' && /nested deeper/.test(r.error.message),
      `${tool}: ${JSON.stringify(r).slice(0, 300)}`,
    );
  }
  assert.deepEqual(writes, []);
});

function nest(depth: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = { v };
  return v;
}
