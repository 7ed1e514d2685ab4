import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { getCandidate, listRecipes, readRecipe, submitCandidates } from '../../src/core/domains/knowledge';
import { transitionsOf } from '../../src/core/domains/knowledge/transitions';
import {
  agent,
  call,
  callRaw,
  human,
  recipeText,
  retryProposal,
  tempWorkspace,
  writeRecipe,
} from './knowledge-helpers';

const proposal = retryProposal;

async function refused(ws: any, tool: string, input: unknown, allowed: RegExp) {
  const r = await callRaw(ws, tool, input);
  assert.equal(r.ok, false, `${tool} should be refused`);
  if (r.ok) return;
  assert.equal(r.error.code, 'INVALID_TRANSITION', r.error.message);
  assert.match(r.error.message, allowed);
}

test('candidate pending → approved → draft recipe → published → deprecated, each recorded with actor and time', async () => {
  const ws = await tempWorkspace();
  try {
    const { created } = await submitCandidates(ws, [proposal('Fetch with retry')], 'external_agent');
    const id = created[0];
    assert.equal(getCandidate(ws, id).status, 'pending');

    const approved = await call(ws, 'approve_candidate', { id });
    assert.equal(approved.status, 'approved');
    const file = path.join(ws.root, approved.recipe.file);
    assert.ok(existsSync(file), 'the draft recipe file appears');
    assert.match(readFileSync(file, 'utf8'), /^status: draft$/m);
    assert.equal((await readRecipe(ws, approved.recipe.id)).status, 'draft');
    assert.equal(getCandidate(ws, id).recipeId, approved.recipe.id);

    const published = await call(ws, 'publish_recipe', { id: approved.recipe.id });
    assert.equal(published.status, 'published');
    const r = await readRecipe(ws, approved.recipe.id);
    assert.equal(r.publishedBy, 'human');
    assert.equal(r.approvedBy, 'human');
    assert.equal(r.createdBy, 'external_agent');
    assert.equal(r.candidateId, id);

    await call(ws, 'deprecate_recipe', { id: approved.recipe.id, reason: 'Superseded by the HTTP client retries.' });
    const d = await readRecipe(ws, approved.recipe.id);
    assert.equal(d.status, 'deprecated');
    assert.match(d.deprecationReason!, /Superseded/);
    assert.deepEqual(listRecipes(ws).map((x) => x.id), [], 'deprecated recipes leave the default list');

    const candidateHistory = transitionsOf(ws, 'candidate', id).map((t) => [t.from, t.to, t.actor]);
    assert.deepEqual(candidateHistory, [[null, 'pending', 'external_agent'], ['pending', 'approved', 'human']]);
    const recipeHistory = transitionsOf(ws, 'recipe', approved.recipe.id);
    assert.deepEqual(recipeHistory.map((t) => [t.from, t.to]), [
      [null, 'draft'],
      ['draft', 'published'],
      ['published', 'deprecated'],
    ]);
    for (const t of recipeHistory) assert.ok(!Number.isNaN(Date.parse(t.at)), 'each transition has a time');

    const full = await call(ws, 'get_recipe', { id: approved.recipe.id, history: true });
    assert.deepEqual(full.history.map((t: { to: string }) => t.to), [
      'pending',
      'approved',
      'draft',
      'published',
      'deprecated',
    ]);
  } finally {
    await ws.cleanup();
  }
});

test('reject records the reason; approve with promote: false, then promote', async () => {
  const ws = await tempWorkspace();
  try {
    const { created } = await submitCandidates(ws, [
      proposal('First proposal title'),
      proposal('Second proposal title'),
    ], 'copilot_agent');
    const rejected = await call(ws, 'reject_candidate', { id: created[0], reason: 'Only one module does this.' });
    assert.equal(rejected.status, 'rejected');
    assert.equal(getCandidate(ws, created[0]).rejectionReason, 'Only one module does this.');
    assert.equal(transitionsOf(ws, 'candidate', created[0]).at(-1)!.reason, 'Only one module does this.');

    const approved = await call(ws, 'approve_candidate', { id: created[1], promote: false });
    assert.equal(approved.recipe, undefined);
    const promoted = await call(ws, 'promote_candidate', { id: created[1], category: 'http' });
    assert.equal(promoted.id, 'http/second-proposal-title');
    assert.ok(existsSync(path.join(ws.root, promoted.file)));
  } finally {
    await ws.cleanup();
  }
});

test('refused transitions say INVALID_TRANSITION and name what is allowed', async () => {
  const ws = await tempWorkspace();
  try {
    const { created } = await submitCandidates(ws, [
      proposal('Candidate to approve'),
      proposal('Candidate to reject'),
      proposal('Candidate left pending'),
    ], 'external_agent');
    const [a, b, c] = created;
    const { recipe } = await call(ws, 'approve_candidate', { id: a });
    await call(ws, 'reject_candidate', { id: b, reason: 'no' });

    await refused(
      ws,
      'approve_candidate',
      { id: a },
      /is approved; it cannot become approved\. From approved it can become: promoted/,
    );
    await refused(ws, 'reject_candidate', { id: a, reason: 'late' }, /is approved; it cannot become rejected/);
    await refused(
      ws,
      'approve_candidate',
      { id: b },
      /is rejected; it cannot become approved\. From rejected it can become: pending \(reopen_candidate\)/,
    );
    await refused(
      ws,
      'promote_candidate',
      { id: c },
      /is pending; it cannot become promoted\. From pending it can become: approved/,
    );
    await refused(ws, 'promote_candidate', { id: a }, /already promoted/);

    // recipe: draft → deprecated is not a step; published → published neither
    await refused(
      ws,
      'deprecate_recipe',
      { id: recipe.id, reason: 'x' },
      /is draft; it cannot become deprecated\. From draft it can become: published \(publish_recipe\)/,
    );
    await call(ws, 'publish_recipe', { id: recipe.id });
    await refused(
      ws,
      'publish_recipe',
      { id: recipe.id },
      /is published; it cannot become published\. From published it can become: deprecated/,
    );
    await call(ws, 'deprecate_recipe', { id: recipe.id, reason: 'old' });
    await refused(
      ws,
      'publish_recipe',
      { id: recipe.id },
      /is deprecated; it cannot become published\. Deprecated is final/,
    );

    // a hand-written file without status is published
    writeRecipe(ws, 'misc/by-hand.md', recipeText({ title: 'Written by hand', summary: 'A person wrote this.' }));
    await refused(ws, 'publish_recipe', { id: 'misc/by-hand' }, /is published/);
  } finally {
    await ws.cleanup();
  }
});

test('agents may propose but not review; delete needs confirm: true', async () => {
  const ws = await tempWorkspace();
  try {
    // submit_candidate opens the cited line: the proposal's source must be there.
    mkdirSync(path.join(ws.root, 'src/api'), { recursive: true });
    writeFileSync(path.join(ws.root, 'src/api/users.ts'), '\n'.repeat(9) + 'await withRetry(() => fetch(url));\n');
    const submitted = await call(ws, 'submit_candidate', proposal('Proposed by an agent'), agent);
    assert.equal(submitted.status, 'created');
    for (
      const [tool, input] of [
        ['approve_candidate', { id: submitted.id }],
        ['reject_candidate', { id: submitted.id, reason: 'x' }],
        ['publish_recipe', { id: 'x' }],
        ['deprecate_recipe', { id: 'x', reason: 'x' }],
        ['delete_recipe', { id: 'x', confirm: true }],
      ] as const
    ) {
      const r = await callRaw(ws, tool, input, agent);
      assert.equal(r.ok, false);
      if (!r.ok) assert.equal(r.error.code, 'PERMISSION_DENIED', tool);
    }
    assert.equal(getCandidate(ws, submitted.id).status, 'pending');

    const { recipe } = await call(ws, 'approve_candidate', { id: submitted.id });
    const unconfirmed = await callRaw(ws, 'delete_recipe', { id: recipe.id, confirm: false }, human);
    assert.equal(unconfirmed.ok, false);
    if (!unconfirmed.ok) assert.equal(unconfirmed.error.code, 'CONFIRMATION_REQUIRED');
    assert.ok(existsSync(path.join(ws.root, recipe.file)));

    await call(ws, 'delete_recipe', { id: recipe.id, confirm: true });
    assert.ok(!existsSync(path.join(ws.root, recipe.file)));
    const gone = await callRaw(ws, 'get_recipe', { id: recipe.id });
    assert.equal(!gone.ok && gone.error.code, 'RECIPE_NOT_FOUND');
    assert.equal(transitionsOf(ws, 'recipe', recipe.id).at(-1)!.to, 'deleted');
  } finally {
    await ws.cleanup();
  }
});

test('approving a scan candidate writes code only when it is code, and keeps its reasoning, confidence and sources as links', async () => {
  const ws = await tempWorkspace();
  try {
    // What the cold start used to propose: a "code" block that is a listing of places.
    const listing = {
      title: 'Escaping closures capture weak self',
      summary: '12 weak captures in 5 files.',
      code:
        'Source/Core/DataRequest.swift:145  task = Task { [weak self] in\nSource/Core/Session.swift:88  queue.async { [weak self] in',
      language: 'swift',
      category: 'memory',
      knowledgeType: 'best-practice' as const,
      reasoning: {
        whyStandard: 'The capture list recurs in escaping closures.',
        sources: ['Source/Core/DataRequest.swift:145'],
        confidence: 0.82,
      },
      origin: 'bootstrap:swift-safety',
    };
    const { created } = await submitCandidates(ws, [listing, proposal('Fetch with retry')], 'system');
    assert.equal(getCandidate(ws, created[0]).createdBy, 'system');
    const approved = await call(ws, 'approve_candidate', { id: created[0] });
    const text = readFileSync(path.join(ws.root, approved.recipe.file), 'utf8');
    assert.doesNotMatch(text, /```/, 'no code block: a listing of places is not code');
    assert.match(
      text,
      /## Why\n\nThe capture list recurs in escaping closures\.\n\nConfidence when proposed: 0\.82 \(the cold-start scan\)\./,
    );
    assert.match(
      text,
      /## Sources\n\n- \[Source\/Core\/DataRequest\.swift:145\]\(\.\.\/\.\.\/\.\.\/Source\/Core\/DataRequest\.swift#L145\)\n- \[Source\/Core\/Session\.swift:88\]/,
    );
    const front = text.slice(0, text.indexOf('\n---', 3));
    assert.doesNotMatch(front, /sources:|DataRequest/, 'the front matter stays short: sources live in the body');
    const recipe = await readRecipe(ws, approved.recipe.id);
    assert.equal(recipe.code, undefined);
    assert.deepEqual(recipe.sourceFiles, ['Source/Core/DataRequest.swift:145', 'Source/Core/Session.swift:88']);

    const withCode = await call(ws, 'approve_candidate', { id: created[1] });
    const r2 = await readRecipe(ws, withCode.recipe.id);
    assert.equal(r2.code, 'await withRetry(() => fetch(url));', 'real code is kept');
    assert.deepEqual(r2.sourceFiles, ['src/api/users.ts:10']);
  } finally {
    await ws.cleanup();
  }
});

test('a recipe file whose code block is a listing of places reads back with no code to insert', async () => {
  const ws = await tempWorkspace();
  try {
    writeRecipe(
      ws,
      'memory/weak.md',
      '---\ntitle: Weak captures\nlanguage: swift\nsummary: Closures capture weak self.\n---\n\n```swift\nSource/Core/DataRequest.swift:145  task = Task { [weak self] in\n```\n',
    );
    const r = await readRecipe(ws, 'memory/weak');
    assert.equal(r.code, undefined);
    assert.deepEqual(r.sourceFiles, ['Source/Core/DataRequest.swift:145']);
  } finally {
    await ws.cleanup();
  }
});
