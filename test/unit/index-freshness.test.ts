// The first answer of a process comes from the recipe index as stored, says that it may be stale while
// the recipe files are checked in the background, and a recipe edited on disk is seen by a later call.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { createCatalog } from '../../src/core/catalog';
import { syncRecipes } from '../../src/core/domains/knowledge';
import { recipeWalkSettled } from '../../src/core/domains/knowledge/index-freshness';
import { Workspace } from '../../src/core/ground/workspace';
import { agent, recipeText, writeRecipe } from './knowledge-helpers';

const catalog = createCatalog();

async function search(
  ws: Workspace,
  query: string,
): Promise<{ ids: string[]; index?: { mayBeStale: boolean; note: string } }> {
  const r = await catalog.invoke(ws, 'keyword_search', { query, limit: 10 }, agent);
  if (!r.ok) throw new Error(`keyword_search: ${r.error.code}: ${r.error.message}`);
  const data = r.data as { groups: { results: { id: string }[] }[]; index?: { mayBeStale: boolean; note: string } };
  return { ids: data.groups.flatMap((g) => g.results.map((x) => x.id)), index: data.index };
}

test('a new process answers its first search from the stored index, says it may be stale, and sees an edit made before it started on a later call', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-first-call-'));
  try {
    const first = await Workspace.open(root);
    for (let i = 0; i < 30; i++) {
      writeRecipe(
        first,
        `g/r${i}.md`,
        recipeText({ title: `Generic helper number ${i}`, summary: `Use helper ${i} for the usual work.` }),
      );
    }
    writeRecipe(
      first,
      'net/retry.md',
      recipeText({ title: 'Fetch with retry', trigger: '@fetchRetry', summary: 'Wrap HTTP calls in withRetry.' }),
    );
    await syncRecipes(first);
    await first.dispose();

    // Edited while no process ran: no watcher saw it.
    writeFileSync(
      path.join(root, '.autosnippet/recipes/net/retry.md'),
      recipeText({ title: 'Fetch with backoff', trigger: '@fetchBackoff', summary: 'Wrap HTTP calls in withBackoff.' }),
    );
    const ws = await Workspace.open(root);
    try {
      const answer = await search(ws, 'withRetry');
      assert.deepEqual(answer.ids, ['net/retry'], 'the stored index answers');
      assert.equal(answer.index?.mayBeStale, true, 'and the answer says it may be stale');
      assert.match(answer.index!.note, /background/);

      await recipeWalkSettled(ws);
      const later = await search(ws, 'withBackoff');
      assert.deepEqual(later.ids, ['net/retry'], 'a later call sees the edit');
      assert.equal(later.index, undefined, 'and no longer says it may be stale');
      assert.deepEqual((await search(ws, 'withRetry')).ids, [], 'the old words are gone');

      // Edited while the process runs: the watcher names the file and the next call syncs it before answering.
      writeFileSync(
        path.join(root, '.autosnippet/recipes/net/retry.md'),
        recipeText({ title: 'Fetch with jitter', trigger: '@fetchJitter', summary: 'Wrap HTTP calls in withJitter.' }),
      );
      await new Promise((resolve) => setTimeout(resolve, 2100)); // past the 2 s a call trusts the last sync
      const edited = await search(ws, 'withJitter');
      assert.deepEqual(edited.ids, ['net/retry']);
      assert.equal(edited.index, undefined);
    } finally {
      await ws.dispose();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

function writeSkill(root: string, name: string): void {
  const dir = path.join(root, '.agents', 'skills', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'SKILL.md'),
    `---\nname: ${name}\ndescription: Use when the task is about ${
      name.replace(/-/g, ' ')
    }.\n---\n\n# ${name}\n\n## Steps\n\n1. Do it.\n`,
  );
}

type Health = { counts: Record<string, number>; pending?: string[] };

async function health(ws: Workspace): Promise<Health> {
  const r = await catalog.invoke(ws, 'health', {}, agent);
  if (!r.ok) throw new Error(`health: ${r.error.code}: ${r.error.message}`);
  return r.data as Health;
}

test('health in a new process counts skills and recipes from the index as stored, says what is being checked, and the next answer counts what is on disk', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-first-health-'));
  try {
    for (let i = 0; i < 5; i++) writeSkill(root, `task-${i}`);
    const first = await Workspace.open(root);
    writeRecipe(
      first,
      'net/retry.md',
      recipeText({ title: 'Fetch with retry', summary: 'Wrap HTTP calls in withRetry.' }),
    );
    await syncRecipes(first);
    const counted = await health(first);
    assert.equal(counted.counts.recipes, 1);
    assert.ok(
      !counted.pending?.some((p) => p.startsWith('skills:') || p.startsWith('recipes:')),
      'a process that indexed and read the skills itself has no skill or recipe count pending',
    );
    const parsed = counted.counts.skills;
    await first.dispose();

    writeSkill(root, 'task-new');
    writeRecipe(
      first,
      'net/timeout.md',
      recipeText({ title: 'Abort after a timeout', summary: 'Use AbortController.' }),
    );
    const ws = await Workspace.open(root);
    try {
      const stored = await health(ws);
      assert.equal(stored.counts.skills, parsed, 'the skill count the last process stored');
      assert.equal(stored.counts.recipes, 1, 'the recipe count of the stored index');
      assert.ok(stored.pending?.some((p) => p.startsWith('skills:')), JSON.stringify(stored.pending));
      assert.ok(stored.pending?.some((p) => p.startsWith('recipes:')), JSON.stringify(stored.pending));

      await recipeWalkSettled(ws);
      await new Promise((resolve) => setTimeout(resolve, 50)); // the skills are read after the answer
      const now = await health(ws);
      assert.equal(now.counts.skills, parsed + 1, 'the new skill is counted');
      assert.equal(now.counts.recipes, 2, 'the new recipe is counted');
      assert.ok(
        !now.pending?.some((p) => p.startsWith('skills:') || p.startsWith('recipes:')),
        JSON.stringify(now.pending),
      );
    } finally {
      await ws.dispose();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a one-shot process (the CLI) checks the recipe files before its answer: an edit made before it started is in it', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-one-shot-'));
  try {
    const first = await Workspace.open(root);
    writeRecipe(
      first,
      'net/retry.md',
      recipeText({ title: 'Fetch with retry', trigger: '@fetchRetry', summary: 'Wrap HTTP calls in withRetry.' }),
    );
    await syncRecipes(first);
    await first.dispose();
    writeFileSync(
      path.join(root, '.autosnippet/recipes/net/retry.md'),
      recipeText({ title: 'Fetch with backoff', trigger: '@fetchBackoff', summary: 'Wrap HTTP calls in withBackoff.' }),
    );
    const cli = await Workspace.open(root, { oneShot: true });
    try {
      const answer = await search(cli, 'withBackoff');
      assert.deepEqual(answer.ids, ['net/retry']);
      assert.equal(answer.index, undefined);
    } finally {
      await cli.dispose();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a workspace whose recipe folder is gone says its answers may be stale only until the walk that removes its recipes', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-no-recipes-'));
  try {
    const first = await Workspace.open(root);
    writeRecipe(
      first,
      'net/retry.md',
      recipeText({ title: 'Fetch with retry', trigger: '@fetchRetry', summary: 'Wrap HTTP calls in withRetry.' }),
    );
    await syncRecipes(first);
    await first.dispose();
    rmSync(path.join(root, '.autosnippet', 'recipes'), { recursive: true });
    const ws = await Workspace.open(root);
    try {
      assert.equal((await search(ws, 'withRetry')).index?.mayBeStale, true, 'the stored index still holds the recipe');
      await recipeWalkSettled(ws);
      await new Promise((resolve) => setTimeout(resolve, 2100)); // past the 2 s a call trusts the last sync
      const after = await search(ws, 'withRetry');
      assert.deepEqual(after.ids, []);
      assert.equal(after.index, undefined, 'nothing left to check: no note');
    } finally {
      await ws.dispose();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
