import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ToolResult } from '../../src/core/catalog/types';
import {
  literal,
  parseReference,
  type PipelineContext,
  type PipelineDefinition,
  type PipelineEvent,
  planPipeline,
  readPath,
  runPipeline,
  type StepExecutor,
} from '../../src/core/domains/agent/pipeline';
import type { ErrorCode } from '../../src/core/ground/kernel/errors';

const ok = (tool: string, data: unknown): ToolResult => ({ ok: true, tool, data });
const fail = (tool: string, code: ErrorCode = 'TOOL_FAILED', message = 'it broke'): ToolResult => ({
  ok: false,
  tool,
  error: { code, message },
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An executor that records calls and answers from a table of tool → handler. */
function executor(
  handlers: Record<string, (params: Record<string, unknown>, signal?: AbortSignal) => Promise<ToolResult> | ToolResult>,
) {
  const calls: { tool: string; params: Record<string, unknown>; at: number }[] = [];
  const execute: StepExecutor = async (tool, params, signal) => {
    calls.push({ tool, params, at: Date.now() });
    const h = handlers[tool];
    return h ? h(params, signal) : ok(tool, { echo: params });
  };
  return { execute, calls };
}

const def = (steps: PipelineDefinition['steps'], name = 'test'): PipelineDefinition => ({
  name,
  summary: 'test',
  steps,
});

test('dependsOn orders the steps into topological layers', () => {
  const plan = planPipeline(def([
    { id: 'd', tool: 't', dependsOn: ['b', 'c'] },
    { id: 'a', tool: 't' },
    { id: 'b', tool: 't', dependsOn: ['a'] },
    { id: 'c', tool: 't', dependsOn: ['a'] },
    { id: 'e', tool: 't' },
    { id: 'f', tool: 't', dependsOn: ['d', 'e'] },
  ]));
  assert.deepEqual(plan.layers, [['a', 'e'], ['b', 'c'], ['d'], ['f']]);
});

test('the steps of one layer run in parallel, the next layer after them', async () => {
  let running = 0;
  let peak = 0;
  const slow = async () => {
    running++;
    peak = Math.max(peak, running);
    await sleep(60);
    running--;
    return ok('slow', {});
  };
  const { execute, calls } = executor({ slow, last: () => ok('last', { running }) });
  const run = await runPipeline(
    def([
      { id: 'a', tool: 'slow' },
      { id: 'b', tool: 'slow' },
      { id: 'c', tool: 'slow' },
      { id: 'z', tool: 'last', dependsOn: ['a', 'b', 'c'] },
    ]),
    { execute },
  );
  assert.equal(run.status, 'ok');
  assert.equal(peak, 3, 'the three independent steps were running at the same time');
  assert.deepEqual(
    run.steps.find((s) => s.id === 'z')?.data,
    { running: 0 },
    'the dependent step started after all three finished',
  );
  assert.equal(calls.length, 4);
});

test("parameters reference earlier results: 'step:path', 'input:path', '*' over arrays, functions, literal()", async () => {
  const { execute, calls } = executor({
    scan: () => ok('scan', { created: [{ id: 'c1' }, { id: 'c2' }], summary: { language: 'swift' } }),
  });
  const run = await runPipeline(
    def([
      { id: 'scan', tool: 'scan', params: { maxFiles: 'input:maxFiles' } },
      {
        id: 'use',
        tool: 'use',
        dependsOn: ['scan'],
        params: {
          ids: 'scan:created.*.id',
          first: 'scan:created[0].id',
          lang: 'scan:summary.language',
          nested: { again: ['scan:summary.language'] },
          count: (ctx: PipelineContext) => (ctx.results.scan as { created: unknown[] }).created.length,
          plain: 'src/app.ts:12',
          escaped: literal('scan:summary.language'),
          missing: 'scan:nothing.here',
        },
      },
      {
        id: 'whole',
        tool: 'whole',
        dependsOn: ['use'],
        params: (ctx) => ({ from: ctx.results.use, input: ctx.input }),
      },
    ]),
    { execute, input: { maxFiles: 50 } },
  );
  assert.equal(run.status, 'ok');
  assert.deepEqual(calls[0].params, { maxFiles: 50 });
  assert.deepEqual(calls[1].params, {
    ids: ['c1', 'c2'],
    first: 'c1',
    lang: 'swift',
    nested: { again: ['swift'] },
    count: 2,
    plain: 'src/app.ts:12',
    escaped: 'scan:summary.language',
  });
  assert.deepEqual(calls[2].params, { from: { echo: calls[1].params }, input: { maxFiles: 50 } });
});

test('when: a false condition skips the step; a reference condition reads truthiness', async () => {
  const { execute, calls } = executor({ scan: () => ok('scan', { created: [] }) });
  const run = await runPipeline(
    def([
      { id: 'scan', tool: 'scan' },
      {
        id: 'never',
        tool: 'x',
        dependsOn: ['scan'],
        when: (ctx) => (ctx.results.scan as { created: unknown[] }).created.length > 0,
      },
      { id: 'flag', tool: 'y', dependsOn: ['scan'], when: 'input:go' },
      { id: 'after', tool: 'z', dependsOn: ['never', 'flag'], when: (ctx) => ctx.status('never') === 'skipped' },
    ]),
    { execute, input: { go: true } },
  );
  assert.equal(run.status, 'ok');
  assert.deepEqual(run.steps.map((s) => [s.id, s.status]), [
    ['scan', 'ok'],
    ['never', 'skipped'],
    ['flag', 'ok'],
    ['after', 'ok'],
  ]);
  assert.deepEqual(calls.map((c) => c.tool), ['scan', 'y', 'z']);
  assert.match(run.steps[1].reason ?? '', /condition/);
});

test("errorStrategy 'fail' stops the pipeline after the failing layer", async () => {
  const { execute, calls } = executor({ bad: () => fail('bad'), good: () => ok('good', 1) });
  const events: PipelineEvent[] = [];
  const run = await runPipeline(
    def([
      { id: 'a', tool: 'bad' },
      { id: 'b', tool: 'good' },
      { id: 'c', tool: 'good', dependsOn: ['a'] },
      { id: 'd', tool: 'good', dependsOn: ['b'] },
    ]),
    { execute, onEvent: (e) => events.push(e) },
  );
  assert.equal(run.status, 'failed');
  assert.equal(run.failedStep, 'a');
  assert.deepEqual(run.steps.map((s) => s.status), ['failed', 'ok', 'not_run', 'not_run']);
  assert.deepEqual(calls.map((c) => c.tool), ['bad', 'good'], 'its sibling finished, nothing after ran');
  assert.deepEqual(run.steps[0].error, { code: 'TOOL_FAILED', message: 'it broke' });
  assert.equal(events.at(-1)?.type, 'pipeline_finished');
});

test("errorStrategy 'continue' records the failure and goes on; references into the failed step read undefined", async () => {
  const { execute, calls } = executor({ bad: () => fail('bad') });
  const run = await runPipeline(
    def([
      { id: 'a', tool: 'bad', errorStrategy: 'continue' },
      { id: 'b', tool: 'next', dependsOn: ['a'], params: { from: 'a:value', fixed: 1 } },
    ]),
    { execute },
  );
  assert.equal(run.status, 'ok');
  assert.deepEqual(run.steps.map((s) => s.status), ['failed', 'ok']);
  assert.deepEqual(calls[1].params, { fixed: 1 });
});

test('retries with retryDelay repeat a failed call; errors a retry cannot fix are not retried', async () => {
  let attempts = 0;
  const { execute, calls } = executor({
    flaky: () => (++attempts < 3 ? fail('flaky') : ok('flaky', { attempts })),
    invalid: () => fail('invalid', 'INVALID_INPUT', 'bad field'),
    thrown: () => {
      throw new Error('boom');
    },
  });
  const events: PipelineEvent[] = [];
  const started = Date.now();
  const run = await runPipeline(
    def([
      { id: 'f', tool: 'flaky', retries: 3, retryDelay: 40 },
      { id: 'i', tool: 'invalid', retries: 3, errorStrategy: 'continue' },
      { id: 't', tool: 'thrown', retries: 1, errorStrategy: 'continue' },
    ]),
    { execute, onEvent: (e) => events.push(e) },
  );
  assert.equal(run.status, 'ok');
  const [f, i, t] = run.steps;
  assert.deepEqual([f.status, f.attempts, f.data], ['ok', 3, { attempts: 3 }]);
  assert.ok(Date.now() - started >= 80, 'two delays of 40 ms were waited');
  assert.deepEqual([i.status, i.attempts, i.error?.code], ['failed', 1, 'INVALID_INPUT']);
  assert.deepEqual([t.status, t.attempts, t.error?.message], ['failed', 2, 'boom']);
  assert.equal(events.filter((e) => e.type === 'step_retry').length, 3);
  assert.equal(calls.filter((c) => c.tool === 'flaky').length, 3);
});

test('progress events: started, retried and finished for each step, framed by the pipeline', async () => {
  const { execute } = executor({});
  const events: PipelineEvent[] = [];
  await runPipeline(def([{ id: 'a', tool: 't' }, { id: 'b', tool: 't', dependsOn: ['a'] }], 'p'), {
    execute,
    onEvent: (e) => events.push(e),
  });
  assert.deepEqual(events.map((e) => e.type), [
    'pipeline_started',
    'step_started',
    'step_finished',
    'step_started',
    'step_finished',
    'pipeline_finished',
  ]);
  assert.deepEqual((events[0] as { layers: string[][] }).layers, [['a'], ['b']]);
});

test('cancellation stops the running step and everything after it', async () => {
  const controller = new AbortController();
  const { execute, calls } = executor({
    slow: (_p, signal) =>
      new Promise((resolve) =>
        signal?.addEventListener('abort', () => resolve(fail('slow', 'CANCELLED', 'cancelled')), { once: true })
      ),
  });
  setTimeout(() => controller.abort(), 30);
  const run = await runPipeline(def([{ id: 'a', tool: 'slow' }, { id: 'b', tool: 'next', dependsOn: ['a'] }]), {
    execute,
    signal: controller.signal,
  });
  assert.equal(run.status, 'cancelled');
  assert.deepEqual(run.steps.map((s) => s.status), ['cancelled', 'not_run']);
  assert.equal(calls.length, 1);

  const retrying = new AbortController();
  const r = executor({ flaky: () => fail('flaky') });
  setTimeout(() => retrying.abort(), 30);
  const run2 = await runPipeline(def([{ id: 'f', tool: 'flaky', retries: 5, retryDelay: 10_000 }]), {
    execute: r.execute,
    signal: retrying.signal,
  });
  assert.equal(run2.status, 'cancelled', 'a retry delay is cut short');
});

test('cycles are rejected before anything runs', async () => {
  const { execute, calls } = executor({});
  await assert.rejects(
    runPipeline(
      def([
        { id: 'a', tool: 't', dependsOn: ['c'] },
        { id: 'b', tool: 't', dependsOn: ['a'] },
        { id: 'c', tool: 't', dependsOn: ['b'] },
        { id: 'free', tool: 't' },
      ]),
      { execute },
    ),
    (e: any) => e.code === 'PIPELINE_INVALID' && /"a", "b", "c" depend on each other in a cycle/.test(e.message),
  );
  assert.throws(() => planPipeline(def([{ id: 'self', tool: 't', dependsOn: ['self'] }])), /cycle/);
  assert.equal(calls.length, 0);
});

test('unknown references, steps and tools are rejected before anything runs, all named at once', async () => {
  const { execute, calls } = executor({});
  await assert.rejects(
    runPipeline(
      def([
        { id: 'a', tool: 'known', dependsOn: ['ghost'] },
        { id: 'b', tool: 'unknown_tool', params: { x: 'nosuch:path', y: 'a:value' } },
        { id: 'c', tool: 'known', when: 'zzz:flag', dependsOn: ['a'] },
        { id: 'c', tool: 'known' },
        { id: 'input', tool: 'known' },
      ]),
      { execute, hasTool: (n) => n === 'known' },
    ),
    (e: any) => {
      const problems: string[] = e.details.problems;
      const expected = [
        /declared twice/,
        /"input" is reserved/,
        /unknown tool "unknown_tool"/,
        /depends on the unknown step "ghost"/,
        /unknown step "nosuch"/,
        /references "a" in 'a:value' but does not depend on it/,
        /unknown step "zzz"/,
      ];
      for (const re of expected) {
        assert.ok(problems.some((p) => re.test(p)), `no problem matches ${re}: ${problems.join(' | ')}`);
      }
      return e.code === 'PIPELINE_INVALID';
    },
  );
  assert.equal(calls.length, 0);
});

test('reference syntax and path reading', () => {
  assert.deepEqual(parseReference('bootstrap:created[0].id'), { source: 'bootstrap', path: ['created', '0', 'id'] });
  assert.deepEqual(parseReference('scan:'), { source: 'scan', path: [] });
  assert.equal(parseReference('src/app.ts:12'), undefined);
  assert.equal(parseReference('https://example.com'), undefined);
  assert.equal(parseReference('a b:c'), undefined);
  assert.deepEqual(readPath({ a: [{ b: [1, 2] }, { b: [3] }] }, ['a', '*', 'b', '*']), [1, 2, 3]);
  assert.equal(readPath({ a: 1 }, ['a', 'b', 'c']), undefined);
});
