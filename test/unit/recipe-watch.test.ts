// Freshness without walking: with the recipe folder watched, a knowledge or search call does not
// stat every recipe file to learn that nothing changed, and still sees every kind of change at once.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ensureIndexFresh, recipeWalkSettled } from '../../src/core/domains/knowledge/index-freshness';
import { recipeFolderWalks } from '../../src/core/domains/knowledge/recipe-index';
import { recipeRowsByRid } from '../../src/core/domains/knowledge/recipes';
import { keywordSearch } from '../../src/core/domains/search';
import type { Workspace } from '../../src/core/ground/workspace';
import { recipeText, tempWorkspace, writeRecipe } from './knowledge-helpers';

/** The kernel watches this process holds (Linux). */
function inotifyWatches(): number {
  let n = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`).includes('inotify')) {
        n += (readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8').match(/inotify wd/g) ?? []).length;
      }
    } catch {
      // closed meanwhile
    }
  }
  return n;
}

const found = async (ws: Workspace, query: string) => {
  const hits = await keywordSearch(ws, query);
  const rows = recipeRowsByRid(ws, hits.map((h) => h.rid));
  return hits.map((h) => rows.get(h.rid)!.id);
};

test('a watched recipe folder is never walked for a change an event named (added, edited in place, removed, a new folder); the folder replaced is walked in the background', async () => {
  const ws = await tempWorkspace();
  try {
    for (let i = 0; i < 20; i++) {
      writeRecipe(
        ws,
        `g/r${i}.md`,
        recipeText({ title: `Generic helper number ${i}`, summary: `Use helper ${i} for the usual work.` }),
      );
    }
    // maxAgeMs 0: without a watcher every one of these calls would walk the folder.
    await ensureIndexFresh(ws, 0);
    const walked = recipeFolderWalks(ws);
    for (let i = 0; i < 5; i++) await ensureIndexFresh(ws, 0);
    assert.equal(recipeFolderWalks(ws), walked, 'nothing changed: no walk');

    // Each change is written just before the call, as an agent's edit followed by its search.
    writeRecipe(
      ws,
      'net/retry.md',
      recipeText({ title: 'Fetch with retry', trigger: '@fetchRetry', summary: 'Wrap HTTP calls in withRetry.' }),
    );
    await ensureIndexFresh(ws, 0);
    assert.deepEqual(await found(ws, 'withRetry '), ['net/retry'], 'an added file');

    writeFileSync(
      path.join(ws.root, '.autosnippet/recipes/net/retry.md'),
      recipeText({ title: 'Fetch with backoff', trigger: '@fetchBackoff', summary: 'Wrap HTTP calls in withBackoff.' }),
    );
    await ensureIndexFresh(ws, 0);
    assert.deepEqual(await found(ws, 'withBackoff '), ['net/retry'], 'a file edited in place');

    rmSync(path.join(ws.root, '.autosnippet/recipes/g/r3.md'));
    await ensureIndexFresh(ws, 0);
    assert.ok(!(await found(ws, 'helper number 3 ')).includes('g/r3'), 'a removed file');

    // A folder created after watching started, and a file in it written at once.
    writeRecipe(
      ws,
      'ui/deep/list.md',
      recipeText({
        title: 'Virtualized lists',
        trigger: '@virtualList',
        summary: 'Render long lists with VirtualList.',
      }),
    );
    await ensureIndexFresh(ws, 0);
    assert.deepEqual(await found(ws, 'VirtualList '), ['ui/deep/list'], 'a file in a new folder');
    writeFileSync(
      path.join(ws.root, '.autosnippet/recipes/ui/deep/list.md'),
      recipeText({
        title: 'Windowed lists',
        trigger: '@windowedList',
        summary: 'Render long lists with WindowedList.',
      }),
    );
    await ensureIndexFresh(ws, 0);
    assert.deepEqual(await found(ws, 'WindowedList '), ['ui/deep/list'], 'the new folder is watched');

    assert.equal(
      recipeFolderWalks(ws),
      walked,
      'every change was named by an event: the named files were synced, nothing walked',
    );
    const after = recipeFolderWalks(ws);
    await ensureIndexFresh(ws, 0);
    assert.equal(recipeFolderWalks(ws), after, 'quiet again');
    if (process.platform === 'linux') {
      // A kernel watch per folder (recipes, g, net, ui, ui/deep), not one per file.
      assert.ok(inotifyWatches() <= 6, `${inotifyWatches()} inotify watches`);
    }

    // The whole folder replaced (a checkout of another branch): the old watcher sees nothing of the new one.
    const recipes = path.join(ws.root, '.autosnippet/recipes');
    renameSync(recipes, path.join(ws.root, 'old-recipes'));
    mkdirSync(path.join(recipes, 'db'), { recursive: true });
    writeFileSync(
      path.join(recipes, 'db/tx.md'),
      recipeText({
        title: 'Transactions wrap every write',
        trigger: '@inTransaction',
        summary: 'Call inTransaction around writes.',
      }),
    );
    // No event names what the new folder holds: the answer comes from the index as stored, says so, and a walk runs meanwhile.
    assert.equal((await ensureIndexFresh(ws, 0)).mayBeStale, true);
    await recipeWalkSettled(ws);
    assert.deepEqual(await found(ws, 'inTransaction '), ['db/tx']);
    assert.deepEqual(await found(ws, 'withBackoff '), [], "the replaced folder's recipes are gone");
    writeFileSync(
      path.join(recipes, 'db/tx.md'),
      recipeText({
        title: 'Transactions wrap every write',
        trigger: '@withTransaction',
        summary: 'Call withTransaction around writes.',
      }),
    );
    await ensureIndexFresh(ws, 0);
    assert.deepEqual(await found(ws, 'withTransaction '), ['db/tx'], 'the new folder is watched too');
  } finally {
    await ws.cleanup();
  }
});
