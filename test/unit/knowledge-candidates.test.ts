import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  getCandidate,
  submitCandidates,
  syncRecipes,
  updateCandidate,
  validateCandidate,
} from '../../src/core/domains/knowledge';
import { candidateFromMarkdown, candidateMarkdown } from '../../src/core/domains/knowledge/candidate-file';
import { agent, call, callRaw, recipeText, tempWorkspace, writeRecipe } from './knowledge-helpers';

const good = {
  title: 'Wrap HTTP calls in withRetry',
  summary: 'Every HTTP call goes through withRetry so transient failures are retried with backoff.',
  code: 'const res = await withRetry(() => fetch(url), { attempts: 3 });',
  language: 'typescript',
  category: 'networking',
  knowledgeType: 'code-pattern' as const,
  tags: ['http', 'retry'],
  usageGuide: 'For idempotent requests.',
  rationale: 'The gateway drops 1% of requests.',
  reasoning: {
    whyStandard: 'All 12 API clients in src/api do it this way.',
    sources: ['src/api/users.ts:42', 'src/api/orders.ts:17'],
    confidence: 0.9,
  },
};

test('proposing again the original of a candidate that was since edited is a duplicate of it, not an INTERNAL id clash', async () => {
  const ws = await tempWorkspace();
  try {
    const [id] = (await submitCandidates(ws, [good], 'external_agent')).created;
    // The edit changes the fingerprint; the candidate keeps the id the original content gave it.
    await updateCandidate(ws, id, { title: 'Wrap every HTTP call in withRetry' }, 'external_agent');
    const again = await submitCandidates(ws, [good], 'system');
    assert.deepEqual(again, { created: [], duplicates: [{ input: 0, existing: id }] });
    assert.equal(
      getCandidate(ws, id).title,
      'Wrap every HTTP call in withRetry',
      'the edited candidate is kept as it is',
    );
  } finally {
    ws.dispose();
  }
});

test('submitCandidates is idempotent: the same proposal twice is a duplicate, not a second candidate', async () => {
  const ws = await tempWorkspace();
  try {
    const first = await submitCandidates(ws, [good], 'external_agent');
    assert.equal(first.created.length, 1);
    assert.deepEqual(first.duplicates, []);

    const again = await submitCandidates(ws, [good, {
      ...good,
      title: '  wrap http calls in WITHRETRY ',
      code: good.code.replace(/ /g, '  '),
    }], 'copilot_agent');
    assert.deepEqual(again.created, []);
    assert.deepEqual(again.duplicates, [
      { input: 0, existing: first.created[0] },
      { input: 1, existing: first.created[0] },
    ]);

    // within one batch
    const other = { ...good, title: 'A different practice entirely', code: 'other()' };
    const batch = await submitCandidates(ws, [other, other], 'external_agent');
    assert.equal(batch.created.length, 1);
    assert.deepEqual(batch.duplicates, [{ input: 1, existing: batch.created[0] }]);

    // a rejected proposal stays known: proposing it again is a duplicate of the rejected one
    await call(ws, 'reject_candidate', { id: batch.created[0], reason: 'not a standard' });
    assert.deepEqual((await submitCandidates(ws, [other], 'external_agent')).duplicates, [{
      input: 0,
      existing: batch.created[0],
    }]);

    // a recipe with the same title and language is a duplicate too
    writeRecipe(ws, 'net/retry.md', recipeText({ title: 'Fetch with retry', summary: 'x', language: 'typescript' }));
    await syncRecipes(ws);
    const vsRecipe = await submitCandidates(
      ws,
      [{ ...good, title: 'Fetch with retry', code: 'different()' }],
      'external_agent',
    );
    assert.deepEqual(vsRecipe.duplicates, [{ input: 0, existing: 'net/retry' }]);

    const c = getCandidate(ws, first.created[0]);
    assert.equal(c.kind, 'pattern');
    assert.equal(c.trigger, '@wrap-http-calls-retry');
    assert.deepEqual(c.reasoning.sources, good.reasoning.sources);
  } finally {
    await ws.cleanup();
  }
});

test('validation names each missing, weak and invalid field', () => {
  assert.deepEqual(validateCandidate(good).issues, []);
  assert.equal(validateCandidate(good).score, 1);

  const v = validateCandidate({
    title: 'Util',
    code: 'TODO',
    language: 'typescript',
    knowledgeType: 'nonsense' as never,
    trigger: 'has space',
    scope: 'target',
    reasoning: { sources: ['src/a.ts'], confidence: 0.2 },
  });
  const by = (field: string) => v.issues.filter((i) => i.field === field).map((i) => i.severity);
  assert.equal(v.ok, false);
  assert.deepEqual(by('title'), ['weak', 'weak']);
  assert.deepEqual(by('summary'), ['missing']);
  assert.deepEqual(by('knowledgeType'), ['invalid']);
  assert.deepEqual(by('code'), ['weak']);
  assert.deepEqual(by('trigger'), ['invalid']);
  assert.deepEqual(by('target'), ['invalid']);
  assert.deepEqual(by('category'), ['missing']);
  assert.deepEqual(by('reasoning.whyStandard'), ['missing']);
  assert.deepEqual(by('reasoning.sources'), ['invalid', 'weak']);
  assert.deepEqual(by('reasoning.confidence'), ['weak']);
  assert.match(
    v.issues.find((i) => i.field === 'reasoning.sources')!.message,
    /`path:line`; these are not: src\/a\.ts/,
  );
  assert.ok(v.score < 0.5);

  // a fact needs no code
  assert.deepEqual(
    validateCandidate({ ...good, code: undefined, knowledgeType: 'data-flow' }).issues.filter((i) =>
      i.field === 'code'
    ),
    [],
  );
});

test('validate_candidate, enrich_candidates and update_candidate through the catalog', async () => {
  const ws = await tempWorkspace();
  try {
    const bare = await call(
      ws,
      'submit_candidate',
      { title: 'Use the logger, never console', language: 'typescript' },
      agent,
    );
    assert.equal(bare.status, 'created');
    assert.ok(bare.validation.missing.includes('summary'));

    const checked = await call(ws, 'validate_candidate', { id: bare.id }, agent);
    assert.equal(checked.ok, false);

    const enrich = await call(ws, 'enrich_candidates', {}, agent);
    assert.equal(enrich.candidates[0].id, bare.id);
    const fields = enrich.candidates[0].fill.map((f: { field: string }) => f.field);
    for (const f of ['summary', 'code', 'reasoning.whyStandard', 'reasoning.sources']) assert.ok(fields.includes(f), f);

    const updated = await call(ws, 'update_candidate', {
      id: bare.id,
      summary: 'Log through src/log.ts; console.* is stripped in production.',
      code: "log.info('saved', { id });",
      category: 'logging',
      reasoning: {
        whyStandard: 'Every module imports log from src/log.ts.',
        sources: ['src/log.ts:1', 'src/app.ts:3'],
        confidence: 0.8,
      },
    }, agent);
    assert.ok(!updated.validation.missing.includes('summary'));
    assert.equal(getCandidate(ws, bare.id).category, 'logging');
    assert.equal(getCandidate(ws, bare.id).language, 'typescript', 'fields left out keep their value');

    await call(ws, 'reject_candidate', { id: bare.id, reason: 'dup' });
    const late = await callRaw(ws, 'update_candidate', { id: bare.id, summary: 'x' }, agent);
    assert.equal(!late.ok && late.error.code, 'INVALID_TRANSITION');

    const missing = await callRaw(ws, 'get_candidate', { id: 'cand-nope' });
    assert.equal(!missing.ok && missing.error.code, 'CANDIDATE_NOT_FOUND');

    const bad = await callRaw(ws, 'submit_candidate', { summary: 'no title' }, agent);
    assert.equal(!bad.ok && bad.error.code, 'INVALID_INPUT');
    const tooMany = await callRaw(ws, 'submit_candidates', {
      candidates: Array.from({ length: 51 }, (_, i) => ({ title: `t${i}` })),
    }, agent);
    assert.equal(!tooMany.ok && tooMany.error.code, 'BATCH_TOO_LARGE');
  } finally {
    await ws.cleanup();
  }
});

test('check_duplicate returns the nearest recipes with similarity scores and a verdict', async () => {
  const ws = await tempWorkspace();
  try {
    writeRecipe(
      ws,
      'net/retry.md',
      recipeText({
        title: 'Fetch with retry',
        trigger: '@fetchRetry',
        summary: 'Wrap HTTP calls in withRetry so transient failures are retried.',
        language: 'typescript',
        code: 'await withRetry(() => fetch(url));',
      }),
    );
    writeRecipe(
      ws,
      'log/errors.md',
      recipeText({
        title: 'Log errors with context',
        summary: 'Pass the error object last to log.error.',
        language: 'typescript',
        code: "log.error('x', err);",
      }),
    );
    writeRecipe(
      ws,
      'ui/button.md',
      recipeText({
        title: 'Use the Button component',
        summary: 'Never style a raw button element.',
        language: 'typescriptreact',
        code: '<Button variant="primary" />',
      }),
    );
    await syncRecipes(ws);

    const dup = await call(ws, 'check_duplicate', {
      title: 'Fetch with retries',
      summary: 'Retry HTTP calls with withRetry when they fail transiently.',
    }, agent);
    assert.equal(dup.recipes[0].id, 'net/retry');
    assert.ok(dup.recipes[0].similarity >= 0.6, JSON.stringify(dup.recipes[0]));
    assert.ok(
      dup.recipes.every((r: { similarity: number }, i: number, a: { similarity: number }[]) =>
        i === 0 || a[i - 1].similarity >= r.similarity
      ),
      'most similar first',
    );
    assert.notEqual(dup.verdict, 'unique');

    const sameTrigger = await call(ws, 'check_duplicate', { title: 'Something else', trigger: '@fetchRetry' }, agent);
    assert.equal(sameTrigger.verdict, 'duplicate');
    assert.ok(sameTrigger.recipes[0].reasons.includes('same trigger @fetchRetry'));

    const unique = await call(ws, 'check_duplicate', {
      title: 'Database migrations run in a transaction',
      summary: 'Each migration step is atomic.',
    }, agent);
    assert.equal(unique.verdict, 'unique');
    assert.ok((unique.recipes[0]?.similarity ?? 0) < 0.6);
  } finally {
    await ws.cleanup();
  }
});

test('a candidate round-trips through its editable Markdown form', async () => {
  const ws = await tempWorkspace();
  try {
    const { created } = await submitCandidates(ws, [good], 'external_agent');
    const c = getCandidate(ws, created[0]);
    const md = candidateMarkdown(c);
    assert.match(md, /^whyStandard: All 12 API clients/m);
    const edited = md.replace(/^confidence: .*$/m, 'confidence: 0.7').replace(/## Why\n\n.*\n/, '').replace(
      /^- \[src\/api\/orders\.ts:17\]\(.*\)\n/m,
      '',
    );
    assert.match(
      md,
      /^## Sources\n\n- \[src\/api\/users\.ts:42\]\(src\/api\/users\.ts#L42\)$/m,
      'sources are links that open the file at the line',
    );
    await updateCandidate(ws, c.id, candidateFromMarkdown(edited, `${c.id}.md`), 'human');
    const after = getCandidate(ws, c.id);
    assert.equal(after.reasoning.confidence, 0.7);
    assert.equal(after.rationale, undefined, 'a deleted section is cleared');
    assert.deepEqual(after.reasoning.sources, ['src/api/users.ts:42']);
    assert.equal(after.code, good.code);
    assert.equal(after.summary, good.summary);
    assert.throws(() => candidateFromMarkdown('---\nsummary: x\n---\n', 'c.md'), /title: Missing `title`/);
  } finally {
    await ws.cleanup();
  }
});

test('a fresh submission is never reported as similar to itself', async () => {
  const ws = await tempWorkspace();
  try {
    const first = await call(
      ws,
      'submit_candidate',
      { title: 'Wrap error causes with %w in fmt.Errorf', language: 'go' },
      agent,
    );
    assert.equal(first.status, 'created');
    assert.equal(first.similarHint, undefined, 'nothing else exists, so nothing is similar');
    assert.ok(!(first.similar ?? []).length);

    // A second, different card close to the first still hears about the first, never about itself.
    const second = await call(
      ws,
      'submit_candidate',
      { title: 'Wrap error causes with %w in fmt.Errorf calls', language: 'go', summary: 'Other words.' },
      agent,
    );
    if (second.status === 'created') assert.ok(!String(second.similarHint ?? '').includes(second.id));
  } finally {
    await ws.cleanup();
  }
});

test('update_candidates fills several cards in one call and lists the ones it could not change', async () => {
  const ws = await tempWorkspace();
  try {
    const ids: string[] = [];
    for (const title of ['Log through the logger', 'Wrap errors with context', 'Never print in library code']) {
      ids.push((await call(ws, 'submit_candidate', { title, language: 'typescript' }, agent)).id);
    }
    await call(ws, 'reject_candidate', { id: ids[2], reason: 'dup' });
    const r = await call(ws, 'update_candidates', {
      updates: [
        { id: ids[0], summary: 'Log through src/log.ts; console.* is stripped in production.', category: 'logging' },
        { id: 'cand-nope', summary: 'x' },
        { id: ids[1], summary: 'Wrap errors with the cause so the log shows the chain.', category: 'errors' },
        { id: ids[2], summary: 'x' },
      ],
    }, agent);
    assert.deepEqual(r.updated.map((u: { id: string }) => u.id), [ids[0], ids[1]]);
    assert.ok(r.updated.every((u: { missing: string[] }) => !u.missing.includes('summary')));
    assert.deepEqual(r.failed.map((f: { input: number; code: string }) => [f.input, f.code]), [
      [1, 'CANDIDATE_NOT_FOUND'],
      [3, 'INVALID_TRANSITION'],
    ]);
    assert.equal(getCandidate(ws, ids[0]).category, 'logging');
    assert.equal(getCandidate(ws, ids[1]).category, 'errors');
    const tooMany = await callRaw(ws, 'update_candidates', {
      updates: Array.from({ length: 51 }, () => ({ id: ids[0], summary: 'x' })),
    }, agent);
    assert.equal(!tooMany.ok && tooMany.error.code, 'BATCH_TOO_LARGE');
  } finally {
    await ws.cleanup();
  }
});
