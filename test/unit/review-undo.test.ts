import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { getCandidate, submitCandidates } from '../../src/core/domains/knowledge';
import { transitionsOf } from '../../src/core/domains/knowledge/transitions';
import { call, callRaw, retryProposal, tempWorkspace } from './knowledge-helpers';

const proposal = retryProposal;

test('undoing an approval removes its draft recipe and puts the candidate back to pending, recorded', async () => {
  const ws = await tempWorkspace();
  try {
    const { created: [id] } = await submitCandidates(ws, [proposal('Fetch with retry')], 'external_agent');
    const { recipe } = await call(ws, 'approve_candidate', { id });
    assert.ok(existsSync(path.join(ws.root, recipe.file)));
    const undone = await call(ws, 'reopen_candidate', { id });
    assert.equal(undone.status, 'pending');
    assert.deepEqual(undone.removedRecipe, { id: recipe.id, file: recipe.file });
    assert.equal(existsSync(path.join(ws.root, recipe.file)), false, 'the draft is gone');
    const c = getCandidate(ws, id);
    assert.equal(c.status, 'pending');
    assert.equal(c.recipeId, undefined);
    assert.equal(c.decidedBy, undefined);
    const last = transitionsOf(ws, 'candidate', id).slice(-2);
    assert.deepEqual(last.map((t) => [t.from, t.to, t.actor]), [
      ['pending', 'approved', 'human'],
      ['approved', 'pending', 'human'],
    ]);
    // Approved again, it makes a draft again (the same file name is free).
    const again = await call(ws, 'approve_candidate', { id });
    assert.equal(again.recipe.file, recipe.file);
  } finally {
    await ws.cleanup();
  }
});

test('undoing a rejection keeps the candidate and drops the reason; a published recipe is not undone', async () => {
  const ws = await tempWorkspace();
  try {
    const { created: [a, b] } = await submitCandidates(ws, [
      proposal('Candidate to reject'),
      proposal('Candidate to publish'),
    ], 'external_agent');
    await call(ws, 'reject_candidate', { id: a, reason: 'not a standard' });
    const undone = await call(ws, 'reopen_candidate', { id: a });
    assert.equal(undone.status, 'pending');
    const c = getCandidate(ws, a);
    assert.equal(c.status, 'pending');
    assert.equal(c.rejectionReason, undefined);
    assert.equal(c.title, 'Candidate to reject');

    const { recipe } = await call(ws, 'approve_candidate', { id: b });
    await call(ws, 'publish_recipe', { id: recipe.id });
    const r = await callRaw(ws, 'reopen_candidate', { id: b });
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.equal(r.error.code, 'INVALID_TRANSITION');
      assert.match(r.error.message, /published/);
    }
    assert.ok(existsSync(path.join(ws.root, recipe.file)), 'a published recipe stays');

    const pending = await callRaw(ws, 'reopen_candidate', { id: a });
    assert.equal(pending.ok, false, 'a pending candidate has nothing to undo');
  } finally {
    await ws.cleanup();
  }
});

test('an approval whose draft a person has since edited is not undone (the edit would be lost)', async () => {
  const ws = await tempWorkspace();
  try {
    const { created: [id] } = await submitCandidates(ws, [proposal('Fetch with retry')], 'external_agent');
    const { recipe } = await call(ws, 'approve_candidate', { id });
    writeFileSync(
      path.join(ws.root, recipe.file),
      '---\ntitle: Fetch with retry\nstatus: draft\n---\n\nEdited by hand.\n',
    );
    const r = await callRaw(ws, 'reopen_candidate', { id });
    assert.equal(r.ok, false);
    if (!r.ok) assert.match(r.error.message, /edited after the approval/);
    assert.ok(existsSync(path.join(ws.root, recipe.file)));
    assert.equal(getCandidate(ws, id).status, 'approved');
  } finally {
    await ws.cleanup();
  }
});
