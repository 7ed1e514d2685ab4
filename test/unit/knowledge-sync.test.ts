import assert from 'node:assert/strict';
import { renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { listRecipes, readRecipe, recordUsage, syncRecipes, usageOf } from '../../src/core/domains/knowledge';
import { keywordSearch } from '../../src/core/domains/search';
import { call, recipeText, tempWorkspace, writeRecipe } from './knowledge-helpers';

test('recipe files are indexed, and edits, renames and deletions on disk follow', async () => {
  const ws = await tempWorkspace();
  try {
    const a = writeRecipe(
      ws,
      'net/retry.md',
      recipeText({
        title: 'Fetch with retry',
        trigger: '@fetchRetry',
        summary: 'Wrap HTTP calls in withRetry.',
        language: 'typescript',
      }),
    );
    writeRecipe(
      ws,
      'log/errors.md',
      recipeText({ title: 'Log errors with context', summary: 'Pass the error object last.', language: 'typescript' }),
    );
    let report = await syncRecipes(ws);
    assert.deepEqual(report.added.sort(), ['log/errors', 'net/retry']);
    assert.equal(listRecipes(ws).length, 2);

    // nothing changed: nothing re-read
    report = await syncRecipes(ws);
    assert.equal(report.unchanged, 2);
    assert.deepEqual([report.added, report.updated, report.removed], [[], [], []]);

    // edit: the index and the search follow the new text
    writeFileSync(
      a,
      recipeText({
        title: 'Fetch with retry',
        trigger: '@fetchRetry',
        summary: 'Wrap HTTP calls in withRetry; uses exponential backoff.',
        language: 'typescript',
      }),
    );
    utimesSync(a, new Date(), new Date(Date.now() + 5000));
    report = await syncRecipes(ws);
    assert.deepEqual(report.updated, ['net/retry']);
    assert.equal((await keywordSearch(ws, 'exponential'))[0]?.rid !== undefined, true, 'the new word is searchable');
    assert.match((await readRecipe(ws, 'net/retry')).summary, /exponential/);

    // rename with an id in the frontmatter keeps the usage counts
    await recordUsage(ws, 'log/errors', 'adoption', 3);
    const errorsPath = path.join(ws.root, '.autosnippet/recipes/log/errors.md');
    writeFileSync(
      errorsPath,
      `---\nid: log/errors\n${
        recipeText({ title: 'Log errors with context', summary: 'Pass the error object last.', language: 'typescript' })
          .slice(4)
      }`,
    );
    await syncRecipes(ws);
    renameSync(errorsPath, path.join(ws.root, '.autosnippet/recipes/log/errors-with-context.md'));
    report = await syncRecipes(ws);
    assert.deepEqual(report.renamed, [{
      from: '.autosnippet/recipes/log/errors.md',
      to: '.autosnippet/recipes/log/errors-with-context.md',
      id: 'log/errors',
    }]);
    assert.deepEqual(report.removed, []);
    assert.equal(usageOf(ws, ['log/errors']).get('log/errors')!.adoptions, 3);
    assert.equal((await readRecipe(ws, 'log/errors')).file, '.autosnippet/recipes/log/errors-with-context.md');

    // delete
    rmSync(a);
    report = await syncRecipes(ws);
    assert.deepEqual(report.removed, ['net/retry']);
    assert.deepEqual(await keywordSearch(ws, 'withRetry'), []);
    assert.deepEqual(listRecipes(ws).map((r) => r.id), ['log/errors']);
  } finally {
    await ws.cleanup();
  }
});

test('a hand-written minimal file indexes; a malformed one is reported and does not break the others', async () => {
  const ws = await tempWorkspace();
  try {
    writeRecipe(
      ws,
      'ui/button.md',
      '# Use the Button component\n\nNever style a raw <button>; use <Button variant>.\n\n```tsx\n<Button variant="primary">Save</Button>\n```\n',
    );
    writeRecipe(ws, 'ui/broken.md', '---\ntitle: Broken\nknowledgeType: nonsense\n---\nbody');
    writeRecipe(ws, 'ui/README.md', '# Not a recipe');
    const report = await syncRecipes(ws);
    assert.deepEqual(report.added, ['ui/button']);
    assert.equal(report.problems.length, 1);
    assert.equal(report.problems[0].file, '.autosnippet/recipes/ui/broken.md');
    assert.equal(report.problems[0].field, 'knowledgeType');
    const r = await readRecipe(ws, '@use-button-component');
    assert.equal(r.language, 'typescriptreact');
    assert.equal(r.category, 'ui');

    // the problem stays reported while the file is unchanged, and goes once it is fixed
    assert.equal((await syncRecipes(ws)).problems.length, 1);
    writeRecipe(
      ws,
      'ui/broken.md',
      '---\ntitle: Broken no more\nknowledgeType: code-standard\nsummary: Fixed now.\n---\n',
    );
    const fixed = await syncRecipes(ws);
    assert.deepEqual(fixed.problems, []);
    assert.deepEqual(fixed.added, ['ui/broken']);
  } finally {
    await ws.cleanup();
  }
});

test('two files claiming the same id: the second is reported, the first keeps it', async () => {
  const ws = await tempWorkspace();
  try {
    writeRecipe(
      ws,
      'a/one.md',
      `---\nid: shared\n${recipeText({ title: 'First recipe here', summary: 'one' }).slice(4)}`,
    );
    writeRecipe(
      ws,
      'b/two.md',
      `---\nid: shared\n${recipeText({ title: 'Second recipe here', summary: 'two' }).slice(4)}`,
    );
    const report = await syncRecipes(ws);
    assert.deepEqual(report.added, ['shared']);
    assert.equal(report.problems[0].file, '.autosnippet/recipes/b/two.md');
    assert.equal(report.problems[0].field, 'id');
    assert.match(report.problems[0].message, /already used by \.autosnippet\/recipes\/a\/one\.md/);
  } finally {
    await ws.cleanup();
  }
});

test('a large rebuild runs in slices and reports progress; deleting the database loses nothing', async () => {
  const ws = await tempWorkspace();
  try {
    for (let i = 0; i < 120; i++) {
      writeRecipe(ws, `gen/r${i}.md`, recipeText({ title: `Generated recipe number ${i}`, summary: `Summary ${i}.` }));
    }
    const progress: number[] = [];
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const report = await syncRecipes(ws, { sliceSize: 25, progress: (done) => progress.push(done) });
    clearInterval(timer);
    assert.equal(report.added.length, 120);
    assert.deepEqual(progress, [25, 50, 75, 100, 120]);
    assert.ok(ticks > 0, 'the event loop ran between slices');

    const forced = await call(ws, 'rebuild_index', { force: true });
    assert.equal(forced.scanned, 120);
    assert.equal(forced.added, 0);
  } finally {
    await ws.cleanup();
  }
});
