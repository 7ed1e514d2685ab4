import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { createCatalog, ToolCatalog } from '../../src/core/catalog';
import { languageModelToolsManifest } from '../../src/core/catalog/manifest';
import { Input, Opt, Out, StringEnum, Type } from '../../src/core/catalog/schema';
import { defineTool, type ToolContext } from '../../src/core/catalog/types';
import { AutoSnippetError } from '../../src/core/ground/kernel/errors';
import { Workspace } from '../../src/core/ground/workspace';

// The handlers below ignore the workspace; an unknown name is looked up in its tools folder (it has none).
let ws: Workspace;
before(async () => {
  ws = await Workspace.open(mkdtempSync(path.join(os.tmpdir(), 'as-catalog-')));
});
after(() => ws.dispose());
const agent: ToolContext = { actor: 'external_agent', channel: 'test' };

const echo = defineTool({
  name: 'echo',
  title: 'Echo',
  domain: 'test',
  summary: 'Echo',
  description: 'Echoes its input.',
  inputSchema: Input({
    text: Type.String({ maxLength: 100 }),
    count: Opt(Type.Integer({ minimum: 1 })),
    mode: Opt(StringEnum(['a', 'b'])),
  }),
  outputSchema: Out({ text: Type.String() }),
  aliases: { message: 'text' },
  access: 'read',
  maxOutputChars: 1000,
  handler: (_ws, input) => ({ text: input.text }),
});
const items = defineTool({
  name: 'items',
  title: 'Items',
  domain: 'test',
  summary: 'Items',
  description: 'Many items.',
  inputSchema: Input({ n: Opt(Type.Integer()) }),
  outputSchema: Out({ total: Type.Integer(), items: Type.Array(Out({ id: Type.Integer(), label: Type.String() })) }),
  access: 'read',
  maxOutputChars: 1000,
  paginate: 'items',
  handler: (_ws, input) => ({
    total: input.n ?? 100,
    items: Array.from({ length: input.n ?? 100 }, (_, i) => ({ id: i, label: `item number ${i}` })),
  }),
});
const longText = defineTool({
  name: 'long_text',
  title: 'Long',
  domain: 'test',
  summary: 'Long',
  description: 'A long text.',
  inputSchema: Input({}),
  outputSchema: Type.Any(),
  access: 'read',
  maxOutputChars: 1500,
  handler: () => ({
    title: 'doc',
    body: Array.from({ length: 40 }, (_, i) => `Paragraph ${i}: ${'word '.repeat(10)}`).join('\n\n'),
  }),
});
const failing = defineTool({
  name: 'failing',
  title: 'Failing',
  domain: 'test',
  summary: 'Fails',
  description: 'Fails.',
  inputSchema: Input({}),
  outputSchema: Type.Any(),
  access: 'read',
  maxOutputChars: 1000,
  handler: () => {
    throw new AutoSnippetError('NOT_FOUND', 'No thing.', 'Try another thing.');
  },
});
const approve = defineTool({
  name: 'approve_thing',
  title: 'Approve',
  domain: 'test',
  summary: 'Approve',
  description: 'People only.',
  inputSchema: Input({}),
  outputSchema: Type.Any(),
  access: 'review',
  maxOutputChars: 1000,
  handler: () => ({ approved: true }),
});
const echoingError = defineTool({
  name: 'echoing_error',
  title: 'Echoing error',
  domain: 'test',
  summary: 'Fails quoting its input',
  description: 'Fails with a message that quotes its input, as "no recipe named …" does.',
  inputSchema: Input({ id: Type.String({ maxLength: 300 }) }),
  outputSchema: Type.Any(),
  access: 'read',
  maxOutputChars: 1000,
  handler: (_ws, input) => {
    throw new AutoSnippetError('NOT_FOUND', `Nothing is named "${input.id}".`, `Names close to "${input.id}": none.`, {
      wanted: input.id,
    });
  },
});
const catalog = new ToolCatalog([echo, items, longText, failing, approve, echoingError]);

test('valid input reaches the handler and comes back in the envelope', async () => {
  const r = await catalog.invoke(ws, 'echo', { text: 'hi' }, agent);
  assert.deepEqual(r, { ok: true, tool: 'echo', data: { text: 'hi' } });
});

test("precompileInputs compiles every agent tool's validator ahead of its first call, and validation is unchanged", async () => {
  const fresh = new ToolCatalog([echo, items, approve]);
  const compiled = () => (fresh as unknown as { validators: Map<string, unknown> }).validators;
  assert.equal(compiled().size, 0);
  const pending = fresh.precompileInputs();
  assert.equal(compiled().size, 0, 'nothing is compiled before the event loop turns');
  await pending;
  assert.deepEqual([...compiled().keys()].sort(), fresh.agentTools.map((t) => t.name).sort());
  assert.ok(!compiled().has('approve_thing'), 'a people-only tool is left to its first call');
  assert.deepEqual(await fresh.invoke(ws, 'echo', { text: 'hi' }, agent), {
    ok: true,
    tool: 'echo',
    data: { text: 'hi' },
  });
  const bad = await fresh.invoke(ws, 'echo', { text: 3 }, agent);
  assert.equal(!bad.ok && bad.error.code, 'INVALID_INPUT');

  // While a call is running it waits, whatever the clock says, and compiles in the quiet after it.
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const hold = defineTool({
    name: 'hold',
    title: 'Hold',
    domain: 'test',
    summary: 'Hold',
    description: 'Answers when the test lets it.',
    inputSchema: Input({}),
    outputSchema: Out({ done: Type.Boolean() }),
    access: 'read',
    maxOutputChars: 100,
    handler: async () => (await gate, { done: true }),
  });
  const busy = new ToolCatalog([echo, items, hold]);
  const busyCompiled = () => (busy as unknown as { validators: Map<string, unknown> }).validators;
  const running = busy.invoke(ws, 'hold', {}, agent);
  const waiting = busy.precompileInputs(['items'], 20);
  await new Promise((r) => setTimeout(r, 120));
  assert.ok(!busyCompiled().has('items'), 'not compiled while a call is in flight');
  release();
  await running;
  await waiting;
  assert.ok(busyCompiled().has('items'), 'compiled once the calls are over');
});

test('the prefixed MCP name resolves to the same tool', async () => {
  const r = await catalog.invoke(ws, 'autosnippet_echo', { text: 'x' }, agent);
  assert.equal(r.ok, true);
});

test('a missing required field is named in the error', async () => {
  const r = await catalog.invoke(ws, 'echo', {}, agent);
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.equal(r.error.code, 'INVALID_INPUT');
  assert.equal(r.error.field, 'text');
  assert.match(r.error.message, /missing required field "text"/);
  assert.match(r.error.hint ?? '', /text: string \(required\)/);
});

test('a field of the wrong type, an unknown field and a bad enum value are each named', async () => {
  const wrongType = await catalog.invoke(ws, 'echo', { text: 'x', count: 'three' }, agent);
  assert.ok(!wrongType.ok && wrongType.error.field === 'count');
  const unknown = await catalog.invoke(ws, 'echo', { text: 'x', colour: 'red' }, agent);
  assert.ok(!unknown.ok && unknown.error.field === 'colour' && /unknown field "colour"/.test(unknown.error.message));
  const badEnum = await catalog.invoke(ws, 'echo', { text: 'x', mode: 'c' }, agent);
  assert.ok(!badEnum.ok && badEnum.error.field === 'mode' && /"a", "b"/.test(badEnum.error.message));
});

test('an unknown field with a 5,000-character name is named by its start, and the error fits the bound', async () => {
  const key = 'k'.repeat(5000);
  const r = await catalog.invoke(ws, 'echo', { text: 'x', [key]: 1 }, agent);
  assert.ok(!r.ok && r.error.code === 'INVALID_INPUT', JSON.stringify(r).slice(0, 300));
  assert.ok(JSON.stringify(r).length <= echo.maxOutputChars, `${JSON.stringify(r).length} characters`);
  assert.match(r.error.message, /unknown field "k{20,}…"/);
  assert.ok(r.error.field!.startsWith('kkkk') && r.error.field!.length <= 101);
});

test('an error that quotes its input fits the bound even when JSON escaping makes the quote six times longer (300 NULs)', async () => {
  const r = await catalog.invoke(ws, 'echoing_error', { id: '\u0000'.repeat(300) }, agent);
  assert.ok(!r.ok && r.error.code === 'NOT_FOUND', JSON.stringify(r).slice(0, 200));
  assert.ok(JSON.stringify(r).length <= echoingError.maxOutputChars, `${JSON.stringify(r).length} characters`);
  assert.match(r.error.message, /^Nothing is named "\u0000+…$/);
  // A short one is left whole.
  const short = await catalog.invoke(ws, 'echoing_error', { id: 'x' }, agent);
  assert.deepEqual(short, {
    ok: false,
    tool: 'echoing_error',
    error: {
      code: 'NOT_FOUND',
      message: 'Nothing is named "x".',
      hint: 'Names close to "x": none.',
      details: { wanted: 'x' },
    },
  });
});

test('non-object input is refused with INVALID_INPUT', async () => {
  const r = await catalog.invoke(ws, 'echo', ['text'], agent);
  assert.ok(!r.ok && r.error.code === 'INVALID_INPUT');
});

test('aliases map argument names other agents use to ours', async () => {
  const r = await catalog.invoke(ws, 'echo', { message: 'via alias' }, agent);
  assert.deepEqual(r.ok && r.data, { text: 'via alias' });
});

test('an unknown tool gives UNKNOWN_TOOL with the closest names', async () => {
  const r = await catalog.invoke(ws, 'ecko', {}, agent);
  assert.ok(!r.ok && r.error.code === 'UNKNOWN_TOOL');
  assert.match(!r.ok ? r.error.hint ?? '' : '', /^Call list_tools.*Closest: echo/);
});

test('a handler error keeps its stable code, message and hint', async () => {
  const r = await catalog.invoke(ws, 'failing', {}, agent);
  assert.deepEqual(!r.ok && r.error, { code: 'NOT_FOUND', message: 'No thing.', hint: 'Try another thing.' });
});

test('review tools are not offered to agents (the Gateway refuses them: see gateway.test.ts)', () => {
  assert.ok(catalog.tools.some((t) => t.name === 'approve_thing'));
  assert.ok(!catalog.agentTools.some((t) => t.name === 'approve_thing'));
});

test('a paged result is cut between items, stays within the bound, and the cursor walks every item once', async () => {
  const seen: number[] = [];
  let cursor: number | undefined = 0;
  let pages = 0;
  while (cursor !== undefined) {
    const r = await catalog.invoke(ws, 'items', { cursor }, agent);
    assert.ok(r.ok);
    if (!r.ok) return;
    assert.ok(JSON.stringify(r).length <= 1000, `page ${pages} is ${JSON.stringify(r).length} chars`);
    seen.push(...(r.data as { items: { id: number }[] }).items.map((i) => i.id));
    cursor = r.truncated?.nextCursor;
    if (r.truncated) assert.match(r.truncated.hint, /cursor: \d+/);
    pages++;
  }
  assert.ok(pages > 1);
  assert.deepEqual(seen, Array.from({ length: 100 }, (_, i) => i));
});

test('paged tools publish a cursor argument; a small result is not marked truncated', async () => {
  assert.ok(catalog.inputSchema(items).properties?.cursor);
  const r = await catalog.invoke(ws, 'items', { n: 3 }, agent);
  assert.ok(r.ok && r.truncated === undefined);
});

test('a long text is cut at a paragraph boundary and says how much was left out', async () => {
  const r = await catalog.invoke(ws, 'long_text', {}, agent);
  assert.ok(r.ok && r.truncated);
  if (!r.ok || !r.truncated) return;
  const body = (r.data as { body: string }).body;
  assert.ok(JSON.stringify(r).length <= 1500);
  assert.match(body, /word $/, 'ends at the end of a paragraph');
  assert.equal(r.truncated.field, 'body');
  assert.equal(r.truncated.unit, 'chars');
  assert.ok(r.truncated.returned < r.truncated.total);
});

test('nested content is cut too: a huge string or list deep in the result, NUL characters included', async () => {
  const nested = defineTool({
    name: 'nested',
    title: 'Nested',
    domain: 'test',
    summary: 'Nested',
    description: 'Nested.',
    access: 'read',
    maxOutputChars: 2000,
    inputSchema: Input({ what: Opt(Type.String({ maxLength: 10 })) }),
    outputSchema: Type.Any(),
    handler: (_ws, input) =>
      input.what === 'list'
        ? {
          query: 'q',
          result: { matches: Array.from({ length: 500 }, (_, i) => ({ name: `m${i}`, text: 'x'.repeat(50) })) },
        }
        : { query: '\u0000'.repeat(5000), outline: { lines: 3, detail: { text: 'long '.repeat(100_000) } } },
  });
  const cat = new ToolCatalog([nested]);
  for (const what of ['text', 'list']) {
    const r = await cat.invoke(ws, 'nested', { what }, agent);
    assert.ok(r.ok && r.truncated, `${what}: ${JSON.stringify(r).slice(0, 200)}`);
    assert.ok(JSON.stringify(r).length <= 2000, `${what}: ${JSON.stringify(r).length} chars`);
  }
  const text = await cat.invoke(ws, 'nested', { what: 'text' }, agent);
  assert.ok(text.ok && (text.data as { outline: { lines: number } }).outline.lines === 3, 'the small fields are kept');
  const list = await cat.invoke(ws, 'nested', { what: 'list' }, agent);
  assert.ok(list.ok && list.truncated?.field === 'result.matches' && list.truncated.unit === 'items');
});

test('a page whose first item alone is over the bound still advances (the item is cut, not skipped forever)', async () => {
  const huge = defineTool({
    name: 'huge_items',
    title: 'Huge',
    domain: 'test',
    summary: 'Huge',
    description: 'Huge.',
    access: 'read',
    maxOutputChars: 1000,
    paginate: 'items',
    inputSchema: Input({}),
    outputSchema: Type.Any(),
    handler: () => ({ items: [{ id: 0, text: 'y'.repeat(5000) }, { id: 1, text: 'small' }] }),
  });
  const cat = new ToolCatalog([huge]);
  const first = await cat.invoke(ws, 'huge_items', {}, agent);
  assert.ok(
    first.ok && first.truncated?.nextCursor === 1 && JSON.stringify(first).length <= 1000,
    JSON.stringify(first).slice(0, 300),
  );
  const second = await cat.invoke(ws, 'huge_items', { cursor: 1 }, agent);
  assert.deepEqual(second.ok && second.data, { items: [{ id: 1, text: 'small' }], hasMore: false });
});

test('get_tool_info with a 100,000-character name answers at once, and the error fits the bound', async () => {
  const cat = createCatalog();
  const t0 = Date.now();
  const r = await cat.invoke(ws, 'get_tool_info', { name: 'x'.repeat(100_000) }, agent);
  assert.ok(!r.ok && ['UNKNOWN_TOOL', 'INVALID_INPUT'].includes(r.error.code), JSON.stringify(r).slice(0, 300));
  assert.ok(JSON.stringify(r).length < 12_000, 'the error fits the bound');
  assert.ok(
    Date.now() - t0 < 2000,
    `took ${Date.now() - t0} ms (it took 9 s when the edit distance ran uncapped inside a sort)`,
  );
});

test('the real catalog: every tool is well formed and names are unique', () => {
  const cat = createCatalog();
  const names = new Set<string>();
  for (const t of cat.tools) {
    assert.ok(!names.has(t.name), `duplicate ${t.name}`);
    names.add(t.name);
    assert.ok(
      t.summary.length > 10 && t.summary.length <= 140 && !t.summary.includes('\n'),
      `${t.name}: summary must be one line`,
    );
    assert.ok(t.description.length >= t.summary.length, `${t.name}: description`);
    assert.equal(cat.inputSchema(t).type, 'object');
    assert.ok(t.maxOutputChars > 0);
  }
  assert.ok(names.has('health') && names.has('capabilities'));
});

test('every string of every tool input has a maxLength and every list a maxItems (ids and names short)', () => {
  const cat = createCatalog();
  const unbounded: string[] = [];
  const walk = (schema: Record<string, any>, at: string) => {
    if (schema.type === 'string' && !schema.enum && typeof schema.maxLength !== 'number') {
      unbounded.push(`${at}: string without maxLength`);
    }
    if (schema.type === 'array' && typeof schema.maxItems !== 'number') unbounded.push(`${at}: array without maxItems`);
    if (
      /(^|\.)(id|ids|name|skill|chunk|ruleId|target)(\[\])?$/.test(at) && schema.type === 'string'
      && schema.maxLength > 300
    ) unbounded.push(`${at}: an id or name longer than 300`);
    for (const [k, v] of Object.entries(schema.properties ?? {})) walk(v as Record<string, any>, `${at}.${k}`);
    if (schema.items) walk(schema.items, `${at}[]`);
    for (const v of Object.values(schema.patternProperties ?? {})) walk(v as Record<string, any>, `${at}{}`);
  };
  for (const t of cat.tools) walk(cat.inputSchema(t), t.name);
  assert.deepEqual(unbounded, []);
});

test('package.json languageModelTools is generated from the catalog (run `npm run gen:manifest` when this fails)', () => {
  const pkg = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));
  assert.deepEqual(
    pkg.contributes.languageModelTools,
    JSON.parse(JSON.stringify(languageModelToolsManifest(createCatalog()))),
  );
});
