import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { agentTools } from '../../src/core/catalog/agent';
import { ToolCatalog } from '../../src/core/catalog/catalog';
import { knowledgeTools } from '../../src/core/catalog/knowledge';
import { bootstrapKnowledge } from '../../src/core/domains/bootstrap';
import type { Workspace } from '../../src/core/ground/workspace';
import { agent, tempWorkspace } from './knowledge-helpers';
import { closeWorkspaces, fixtureWorkspace } from './structure-helpers';

const catalog = new ToolCatalog([...knowledgeTools, ...agentTools]);

async function run(ws: Workspace, tool: string, input: unknown) {
  return catalog.invoke(ws, tool, input, agent);
}
async function data(ws: Workspace, tool: string, input: unknown) {
  const r = await run(ws, tool, input);
  assert.ok(r.ok, `${tool}: ${JSON.stringify(r)}`);
  return r.data as any;
}

const CLIENT = [
  'import { log } from "./log";',
  '',
  'export async function send(request: Request): Promise<Response> {',
  '  log.debug("send", request.url);',
  '  return withRetry(() => fetch(request));',
  '}',
].join('\n');

function writeSources(ws: Workspace): void {
  mkdirSync(path.join(ws.root, 'src/api'), { recursive: true });
  writeFileSync(path.join(ws.root, 'src/api/client.ts'), CLIENT + '\n');
  writeFileSync(
    path.join(ws.root, 'src/api/users.ts'),
    'import { send } from "./client";\nexport const getUser = (id: string) => send(new Request(`/users/${id}`));\n',
  );
}

/** Every field a reviewer reads, so that only the sources decide. */
function card(
  sources: string[],
  code = 'export async function send(request: Request): Promise<Response> {\n  return withRetry(() => fetch(request));',
) {
  return {
    title: 'HTTP requests go through send() with retry',
    summary: 'Every HTTP request is sent with send(), which retries and logs; nothing calls fetch directly.',
    code,
    language: 'typescript',
    category: 'networking',
    knowledgeType: 'code-pattern',
    tags: ['http', 'retry', 'fetch'],
    usageGuide: 'Build a Request and pass it to send().',
    rationale: 'One place for retries and logging.',
    reasoning: {
      whyStandard: 'Both API modules send through it and no module calls fetch directly.',
      sources,
      confidence: 0.8,
    },
  };
}

test('validate_candidate refuses a cited file that does not exist and a line past the end of a real file', async () => {
  const ws = await tempWorkspace();
  try {
    writeSources(ws);
    const good = await data(ws, 'validate_candidate', {
      candidate: card(['src/api/client.ts:3', 'src/api/users.ts:2']),
    });
    assert.equal(good.ok, true, JSON.stringify(good.issues));
    assert.equal(good.score, 1);

    const bad = await data(ws, 'validate_candidate', {
      candidate: card(['src/api/missing.ts:3', 'src/api/client.ts:120']),
    });
    assert.equal(bad.ok, false);
    assert.ok(bad.score < 1);
    assert.deepEqual(bad.missing, ['reasoning.sources']);
    const messages = bad.issues.map((i: { message: string }) => i.message).join('\n');
    assert.match(messages, /src\/api\/missing\.ts does not exist/);
    assert.match(messages, /src\/api\/client\.ts has 7 lines; line 120/);
  } finally {
    await ws.cleanup();
  }
});

test('quoted code must be in a cited file (whitespace aside); when it is not, the answer shows the cited line', async () => {
  const ws = await tempWorkspace();
  try {
    writeSources(ws);
    const reflowed =
      'export async function send(request: Request):   Promise<Response> {\n\t...\n    return withRetry(() =>\n fetch(request));';
    const spaced = await data(ws, 'validate_candidate', {
      candidate: card(['src/api/client.ts:3', 'src/api/users.ts:2'], reflowed),
    });
    assert.equal(spaced.ok, true, JSON.stringify(spaced.issues));

    const invented = await data(ws, 'validate_candidate', {
      candidate: card(
        ['src/api/client.ts:3', 'src/api/users.ts:2'],
        'export async function send(request: Request): Promise<Response> {\n  return retryForever(() => fetch(request));',
      ),
    });
    assert.equal(invented.ok, false);
    assert.deepEqual(invented.missing, ['code']);
    const issue = invented.issues.find((i: { field: string }) => i.field === 'code');
    assert.match(issue.message, /retryForever/);
    assert.match(
      issue.message,
      /src\/api\/client\.ts:3 shows: `export async function send\(request: Request\): Promise<Response> \{`/,
    );
  } finally {
    await ws.cleanup();
  }
});

test('submit_candidate refuses a card whose sources do not hold and records nothing; a batch refuses only those inputs', async () => {
  const ws = await tempWorkspace();
  try {
    writeSources(ws);
    const refused = await run(ws, 'submit_candidate', card(['src/api/client.ts:120']));
    assert.equal(!refused.ok && refused.error.code, 'INVALID_INPUT');
    assert.match(!refused.ok ? refused.error.message : '', /src\/api\/client\.ts has 7 lines; line 120/);
    assert.equal((await data(ws, 'list_candidates', {})).total, 0, 'nothing was recorded');

    const batch = await data(ws, 'submit_candidates', {
      candidates: [card(['src/api/gone.ts:1']), {
        ...card(['src/api/client.ts:3', 'src/api/users.ts:2']),
        title: 'A second, sound card about send()',
      }],
    });
    assert.equal(batch.created.length, 1);
    assert.deepEqual(batch.refused.map((r: { input: number }) => r.input), [0]);
    assert.match(batch.refused[0].issues[0].message, /src\/api\/gone\.ts does not exist/);
  } finally {
    await ws.cleanup();
  }
});

test('validate_candidate, enrich_candidates and enrich_candidate agree on what a card is missing', async () => {
  const ws = await tempWorkspace();
  try {
    writeSources(ws);
    const { tags: _t, usageGuide: _u, rationale: _r, ...thin } = card(['src/api/client.ts:3']);
    const sparse = await data(ws, 'submit_candidate', { ...thin, summary: undefined, category: undefined });
    const id = sparse.id;
    const validated = await data(ws, 'validate_candidate', { id });
    const listed = (await data(ws, 'enrich_candidates', { ids: [id] })).candidates[0];
    const enriched = await data(ws, 'enrich_candidate', { id });
    for (const other of [sparse.validation, listed, enriched.validation]) {
      assert.deepEqual(other.missing, validated.missing);
      assert.deepEqual(other.weak, validated.weak);
    }
    assert.deepEqual(validated.missing, ['summary']);
    assert.equal(validated.ok, false);

    // Weak fields alone: ok, and every tool says nothing is missing.
    await data(ws, 'update_candidate', {
      id,
      summary: 'Every HTTP request is sent with send(), which retries and logs.',
    });
    const weakOnly = await data(ws, 'validate_candidate', { id });
    assert.equal(weakOnly.ok, true);
    assert.deepEqual(weakOnly.missing, []);
    assert.ok(weakOnly.weak.includes('tags'));
    assert.deepEqual((await data(ws, 'enrich_candidates', { ids: [id] })).candidates[0].missing, []);
    assert.deepEqual((await data(ws, 'enrich_candidate', { id })).validation.missing, []);
  } finally {
    await ws.cleanup();
  }
});

test('write tools answer with the id, the status and what is missing, not the record the agent sent', async () => {
  const ws = await tempWorkspace();
  try {
    writeSources(ws);
    const bulky = {
      ...card(['src/api/client.ts:3']),
      summary: undefined,
      usageGuide: 'Build a Request and pass it to send(). '.repeat(120),
      rationale: 'One place for retries. '.repeat(100),
    };
    const sent = JSON.stringify(bulky).length;
    const replies: Record<string, number> = {};
    const submitted = await run(ws, 'submit_candidate', bulky);
    replies.submit_candidate = JSON.stringify(submitted).length;
    const id = (submitted as any).data.id;
    for (
      const [tool, input] of [
        ['enrich_candidate', { id }],
        ['update_candidate', { id, tags: ['http'] }],
        ['validate_candidate', { id }],
      ] as const
    ) {
      const r = await run(ws, tool, input);
      assert.ok(r.ok, JSON.stringify(r));
      const text = JSON.stringify(r);
      replies[tool] = text.length;
      assert.ok(!text.includes('One place for retries. One place'), `${tool} repeats the rationale`);
      assert.ok((r.data as any).id === id, tool);
    }
    for (const [tool, n] of Object.entries(replies)) {
      assert.ok(n < 4000, `${tool}: ${n} characters for a ${sent}-character card`);
    }
    const full = await data(ws, 'get_candidate', { id });
    assert.match(full.rationale, /One place for retries/, 'get_candidate still gives the record');
  } finally {
    await ws.cleanup();
  }
});

test("the cold start's own cards pass the source check (annotation comments in a quote are not quotes)", async () => {
  const ws = await fixtureWorkspace('bootstrap-ts');
  try {
    await bootstrapKnowledge(ws, {}, { actor: 'human' });
    const listed = await data(ws, 'enrich_candidates', { limit: 100 });
    const invalid = listed.candidates.flatMap((
      c: { title: string; fill: { field: string; severity: string; what: string }[] },
    ) =>
      c.fill.filter((f) => f.severity === 'invalid' && (f.field === 'code' || f.field === 'reasoning.sources')).map((
        f,
      ) => `${c.title}: ${f.what}`)
    );
    assert.deepEqual(invalid, []);
    assert.ok(listed.total > 5, 'the scan proposed cards');
  } finally {
    await closeWorkspaces();
  }
});
