import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { publishRecipe, readRecipe, submitCandidates } from '../../src/core/domains/knowledge';
import { freshnessTracker } from '../../src/core/domains/knowledge/freshness';
import {
  acceptFreshnessUpdate,
  checkRecipeNow,
  describeChanges,
  rewriteSources,
} from '../../src/core/domains/knowledge/freshness-review';
import { syncRecipes } from '../../src/core/domains/knowledge/recipe-index';
import { fifo, link } from './files-helpers';
import { citingRecipe, edit, frontMatterOf, git, gitInit, HTTP_TS, readText, writeSource } from './freshness-helpers';
import { call, tempWorkspace } from './knowledge-helpers';

const FETCH_LINE = 7; // `const res = await fetch(url, { signal: controller.signal });`
const EXCERPT = HTTP_TS.split('\n').slice(3, 11).join('\n');

async function published(
  ws: Awaited<ReturnType<typeof tempWorkspace>>,
  slug: string,
  sources: string[],
  code?: string,
): Promise<string> {
  const id = await citingRecipe(ws, slug, { title: `Recipe ${slug}`, sources, code, status: 'draft' });
  await publishRecipe(ws, id, 'human');
  return id;
}

test('approving a candidate and publishing a draft record the hash of each cited line and of the excerpt in the recipe file', async () => {
  const ws = await tempWorkspace();
  try {
    writeSource(ws, 'src/http.ts', HTTP_TS);
    const { created } = await submitCandidates(ws, [{
      title: 'Requests go through getJson',
      summary: 'Call getJson, which aborts after a timeout.',
      code: EXCERPT,
      language: 'typescript',
      category: 'networking',
      reasoning: { whyStandard: 'One wrapper.', sources: [`src/http.ts:${FETCH_LINE}`], confidence: 0.9 },
    }], 'copilot_agent');
    const approved = await call(ws, 'approve_candidate', { id: created[0] });
    const front = frontMatterOf(readText(ws, approved.recipe.file)).data;
    assert.match(front.fingerprints.code, /^[0-9a-f]{12}$/, 'the excerpt was found in src/http.ts');
    assert.deepEqual(Object.keys(front.fingerprints.sources), ['src/http.ts:7']);
    assert.match(front.fingerprints.sources['src/http.ts:7'], /^[0-9a-f]{12}$/);
    const recipe = await readRecipe(ws, approved.recipe.id);
    assert.deepEqual(recipe.fingerprints, front.fingerprints);

    // Publishing keeps what was recorded: the code changed meanwhile, and the recipe must say so.
    edit(ws, 'src/http.ts', 'await fetch(url', 'await fetchWithRetry(url');
    await call(ws, 'publish_recipe', { id: approved.recipe.id });
    assert.deepEqual(
      (await readRecipe(ws, approved.recipe.id)).fingerprints,
      recipe.fingerprints,
      'publish did not overwrite the recorded fingerprints',
    );
    await freshnessTracker(ws).refresh();
    assert.equal(freshnessTracker(ws).get(approved.recipe.id)?.freshness, 'stale');

    // A hand-written published recipe has no fingerprints: untracked, not stale.
    const hand = await citingRecipe(ws, 'hand-written', { title: 'Hand written', sources: ['src/http.ts:3'] });
    await freshnessTracker(ws).refresh();
    assert.equal(freshnessTracker(ws).get(hand)?.freshness, 'untracked');
  } finally {
    await ws.cleanup();
  }
});

test('an edit of a cited line makes the recipe stale with what changed; a refresh re-checks only the recipes that cite the changed file', async () => {
  const ws = await tempWorkspace();
  try {
    writeSource(ws, 'src/http.ts', HTTP_TS);
    writeSource(ws, 'src/log.ts', 'export function log(m: string) {\n  console.log(m);\n}\n');
    const a = await published(ws, 'timeout', [`src/http.ts:${FETCH_LINE}`]);
    const b = await published(ws, 'logging', ['src/log.ts:2']);
    const tracker = freshnessTracker(ws);
    const first = await tracker.refresh();
    assert.equal(first.checked, 2);
    assert.equal(tracker.get(a)?.freshness, 'fresh');
    assert.equal(tracker.get(b)?.freshness, 'fresh');

    const idle = await tracker.refresh();
    assert.equal(idle.checked, 0, 'nothing changed: nothing is re-checked');

    edit(ws, 'src/http.ts', 'await fetch(url, { signal: controller.signal })', 'await fetch(url)');
    const after = await tracker.refresh({ changedFiles: ['src/http.ts'] });
    assert.equal(after.checked, 1, 'only the recipe citing src/http.ts');
    assert.deepEqual(after.changed, [a]);
    const v = tracker.get(a)!;
    assert.equal(v.freshness, 'stale');
    assert.equal(v.reason, 'src/http.ts:7: The cited line 7 changed since the recipe recorded it.');
    assert.equal(tracker.get(b)?.freshness, 'fresh');
    assert.deepEqual(tracker.counts(), { fresh: 1, stale: 1, moved: 0, untracked: 0 });

    // Without a watcher, a refresh finds the changed file by its stat.
    edit(ws, 'src/log.ts', 'console.log(m)', 'console.error(m)');
    const stat = await tracker.refresh();
    assert.equal(stat.checked, 1);
    assert.equal(tracker.get(b)?.freshness, 'stale');
  } finally {
    await ws.cleanup();
  }
});

test('the same lines elsewhere in the file are a move, proposed as an update; accepting it rewrites the reference and the recipe is fresh', async () => {
  const ws = await tempWorkspace();
  try {
    writeSource(ws, 'src/http.ts', HTTP_TS);
    const id = await published(ws, 'timeout', [`src/http.ts:${FETCH_LINE}`]);
    writeSource(
      ws,
      'src/http.ts',
      '// Requests.\n// Every call has a timeout.\n\n' + HTTP_TS.replace('  try {', '  // abort on timeout\n  try {'),
    );
    const tracker = freshnessTracker(ws);
    await tracker.refresh();
    const v = tracker.get(id)!;
    assert.equal(v.freshness, 'moved');
    assert.equal(v.sources[0].movedTo, 'src/http.ts:11');
    assert.match(v.sources[0].message, /moved to line 11/);
    assert.match(
      readText(ws, '.autosnippet/recipes/networking/timeout.md'),
      /src\/http\.ts:7/,
      'nothing is rewritten before a person accepts',
    );

    const accepted = await acceptFreshnessUpdate(ws, id);
    assert.deepEqual(accepted.moved, [{ from: 'src/http.ts:7', to: 'src/http.ts:11' }]);
    assert.equal(accepted.freshness, 'fresh');
    const recipe = await readRecipe(ws, id);
    assert.deepEqual(recipe.sourceFiles, ['src/http.ts:11']);
    assert.deepEqual(Object.keys(recipe.fingerprints?.sources ?? {}), ['src/http.ts:11']);
    assert.equal(tracker.get(id)?.freshness, 'fresh');
  } finally {
    await ws.cleanup();
  }
});

test('a recipe approved from a candidate lists its sources as links in its Sources section; accepting a move rewrites the link and its #L anchor', async () => {
  const ws = await tempWorkspace();
  try {
    writeSource(ws, 'src/http.ts', HTTP_TS);
    const { created } = await submitCandidates(ws, [{
      title: 'Requests abort after a timeout',
      summary: 'getJson aborts after timeoutMs.',
      code: EXCERPT,
      language: 'typescript',
      category: 'networking',
      reasoning: { whyStandard: 'One wrapper.', sources: [`src/http.ts:${FETCH_LINE}`], confidence: 0.9 },
    }], 'copilot_agent');
    const approved = await call(ws, 'approve_candidate', { id: created[0] });
    const file = approved.recipe.file as string;
    assert.match(readText(ws, file), /^## Sources\n\n- \[src\/http\.ts:7\]\(\.\.\/\.\.\/\.\.\/src\/http\.ts#L7\)$/m);
    writeSource(ws, 'src/http.ts', '// Requests.\n\n' + HTTP_TS);
    const tracker = freshnessTracker(ws);
    await tracker.refresh();
    assert.equal(tracker.get(approved.recipe.id)?.freshness, 'moved');

    const accepted = await acceptFreshnessUpdate(ws, approved.recipe.id);
    assert.deepEqual(accepted.moved, [{ from: 'src/http.ts:7', to: 'src/http.ts:9' }]);
    assert.equal(accepted.freshness, 'fresh');
    const text = readText(ws, file);
    assert.match(text, /^- \[src\/http\.ts:9\]\(\.\.\/\.\.\/\.\.\/src\/http\.ts#L9\)$/m);
    assert.doesNotMatch(text, /http\.ts(:7|#L7)/);
    assert.deepEqual((await readRecipe(ws, approved.recipe.id)).sourceFiles, ['src/http.ts:9']);
  } finally {
    await ws.cleanup();
  }
});

test('a deleted file makes its recipes stale; lines past the new end of a file too', async () => {
  const ws = await tempWorkspace();
  try {
    writeSource(ws, 'src/http.ts', HTTP_TS);
    writeSource(ws, 'src/old.ts', 'export const a = 1;\nexport const b = 2;\n');
    const gone = await published(ws, 'gone', ['src/old.ts:2']);
    const short = await published(ws, 'short', ['src/http.ts:10']);
    rmSync(path.join(ws.root, 'src/old.ts'));
    writeSource(ws, 'src/http.ts', HTTP_TS.split('\n').slice(0, 5).join('\n'));
    const tracker = freshnessTracker(ws);
    await tracker.refresh();
    assert.equal(tracker.get(gone)?.freshness, 'stale');
    assert.equal(tracker.get(gone)?.sources[0].state, 'deleted');
    assert.match(tracker.get(gone)!.reason, /src\/old\.ts no longer exists/);
    assert.equal(tracker.get(short)?.freshness, 'stale');
    assert.match(tracker.get(short)!.reason, /src\/http\.ts now has 5 lines/);
  } finally {
    await ws.cleanup();
  }
});

test("a cited file swapped for a FIFO or for a link out of the workspace is not read: the safe reader's reason, promptly, and the other recipes are still checked", async () => {
  const ws = await tempWorkspace();
  const outside = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-outside-'));
  try {
    writeSource(ws, 'src/http.ts', HTTP_TS);
    writeSource(ws, 'src/pipe.ts', 'export const a = 1;\n');
    writeSource(ws, 'src/linked.ts', 'export const b = 2;\n');
    const ok = await published(ws, 'ok', [`src/http.ts:${FETCH_LINE}`]);
    const piped = await published(ws, 'piped', ['src/pipe.ts:1']);
    const linked = await published(ws, 'linked', ['src/linked.ts:1']);
    rmSync(path.join(ws.root, 'src/pipe.ts'));
    fifo(ws.root, 'src/pipe.ts');
    rmSync(path.join(ws.root, 'src/linked.ts'));
    writeFileSync(path.join(outside, 'secret.ts'), 'export const b = 2;\n');
    link(ws.root, 'src/linked.ts', path.join(outside, 'secret.ts'));
    edit(ws, 'src/http.ts', 'await fetch(url, { signal: controller.signal })', 'await fetch(url)');

    const tracker = freshnessTracker(ws);
    const started = Date.now();
    await tracker.refresh();
    assert.ok(Date.now() - started < 5000, 'the FIFO was never opened for reading');
    assert.equal(tracker.get(ok)?.freshness, 'stale', 'the other recipes are still checked');
    assert.equal(tracker.get(piped)?.sources[0].state, 'unreadable');
    assert.equal(tracker.get(piped)?.freshness, 'untracked');
    assert.match(
      tracker.get(piped)!.reason,
      /^src\/pipe\.ts:1: src\/pipe\.ts is a FIFO \(named pipe\), not a regular file; it was not opened\. It is not checked\.$/,
    );
    assert.equal(tracker.get(linked)?.sources[0].state, 'unreadable');
    assert.match(tracker.get(linked)!.reason, /src\/linked\.ts is outside the workspace/);
    // A link out of the workspace is not followed by the review either.
    const changes = await describeChanges(ws, await readRecipe(ws, linked), tracker.get(linked)!);
    assert.deepEqual(changes, []);
  } finally {
    await ws.cleanup();
    rmSync(outside, { recursive: true, force: true });
  }
});

test('a file renamed in git (committed, staged, or moved in the working tree) is followed and proposed as the new reference', async () => {
  const ws = await tempWorkspace();
  try {
    writeSource(ws, 'src/http.ts', HTTP_TS);
    writeSource(ws, 'src/util/strings.ts', 'export function upper(s: string) {\n  return s.toUpperCase();\n}\n');
    writeSource(ws, 'src/log.ts', 'export function log(m: string) {\n  console.log(`[app] ${m}`);\n}\n');
    const committed = await published(ws, 'committed', [`src/http.ts:${FETCH_LINE}`]);
    const staged = await published(ws, 'staged', ['src/util/strings.ts:2']);
    const worktree = await published(ws, 'worktree', ['src/log.ts:2']);
    gitInit(ws);

    mkdirSync(path.join(ws.root, 'src/net'));
    git(ws, 'mv', 'src/http.ts', 'src/net/http-client.ts');
    git(ws, 'commit', '-q', '-m', 'move http');
    git(ws, 'mv', 'src/util/strings.ts', 'src/text.ts');
    renameSync(path.join(ws.root, 'src/log.ts'), path.join(ws.root, 'src/logging.ts'));

    const tracker = freshnessTracker(ws);
    await tracker.refresh();
    const c = tracker.get(committed)!;
    assert.equal(c.freshness, 'moved', JSON.stringify(c));
    assert.equal(c.sources[0].movedTo, `src/net/http-client.ts:${FETCH_LINE}`);
    assert.match(
      c.sources[0].message,
      /src\/http\.ts was renamed to src\/net\/http-client\.ts; the cited lines are unchanged/,
    );
    assert.equal(tracker.get(staged)?.sources[0].movedTo, 'src/text.ts:2');
    assert.equal(
      tracker.get(worktree)?.sources[0].movedTo,
      'src/logging.ts:2',
      'found among the files git does not track yet',
    );

    await acceptFreshnessUpdate(ws, committed);
    assert.deepEqual((await readRecipe(ws, committed)).sourceFiles, [`src/net/http-client.ts:${FETCH_LINE}`]);
    assert.equal(tracker.get(committed)?.freshness, 'fresh');
  } finally {
    await ws.cleanup();
  }
});

test('the excerpt: a change inside the code the recipe shows (not on the cited line) makes it stale; a hand-edited excerpt is not compared', async () => {
  const ws = await tempWorkspace();
  try {
    writeSource(ws, 'src/http.ts', HTTP_TS);
    const id = await published(ws, 'excerpt', [`src/http.ts:${FETCH_LINE}`], EXCERPT);
    assert.ok((await readRecipe(ws, id)).fingerprints?.code, 'the excerpt was found in src/http.ts and recorded');
    const tracker = freshnessTracker(ws);
    await tracker.refresh();
    assert.equal(tracker.get(id)?.excerpt?.state, 'fresh');

    edit(ws, 'src/http.ts', 'clearTimeout(timer);', 'clearTimeout(timer); log("done");');
    await tracker.refresh({ changedFiles: ['src/http.ts'] });
    const v = tracker.get(id)!;
    assert.equal(v.sources[0].state, 'fresh', 'the cited line itself is unchanged');
    assert.equal(v.freshness, 'stale');
    assert.match(v.reason, /The code the recipe shows no longer appears in src\/http\.ts/);

    const changes = await describeChanges(ws, await readRecipe(ws, id), v);
    const excerpt = changes.find((c) => c.state === 'excerpt')!;
    assert.equal(excerpt.then?.text, EXCERPT);
    assert.match(excerpt.now!.text, /log\("done"\)/);

    // A person rewrote the recipe's code: it is theirs now, not an excerpt to compare.
    const file = '.autosnippet/recipes/networking/excerpt.md';
    writeSource(ws, file, readText(ws, file).replace('clearTimeout(timer);', 'clearTimeout(timer); // always'));
    await syncRecipes(ws);
    await tracker.refresh();
    assert.equal(tracker.get(id)?.excerpt?.state, 'untracked');
    assert.equal(
      tracker.get(id)?.freshness,
      'fresh',
      'the cited line is unchanged and the excerpt is no longer compared',
    );
  } finally {
    await ws.cleanup();
  }
});

test('a changed cited line inside the excerpt is one change: the excerpt then, the same span of the file now', async () => {
  const ws = await tempWorkspace();
  try {
    writeSource(ws, 'src/http.ts', HTTP_TS);
    const id = await published(ws, 'aligned', [`src/http.ts:${FETCH_LINE}`], EXCERPT);
    edit(ws, 'src/http.ts', 'await fetch(url, { signal: controller.signal })', 'await fetch(url)');
    const recipe = await readRecipe(ws, id);
    const changes = await describeChanges(ws, recipe, await checkRecipeNow(ws, recipe));
    assert.equal(changes.length, 1, JSON.stringify(changes.map((c) => c.state)));
    assert.equal(changes[0].then?.origin, 'recipe excerpt');
    assert.equal(changes[0].then?.text, EXCERPT);
    assert.equal(changes[0].now?.startLine, 4, 'the excerpt starts at line 4 of src/http.ts');
    assert.equal(changes[0].now?.text.split('\n').length, EXCERPT.split('\n').length);
    assert.match(changes[0].now!.text, /await fetch\(url\);/);
  } finally {
    await ws.cleanup();
  }
});

test('"then" of a changed line comes from git history when the recipe has no excerpt of it', async () => {
  const ws = await tempWorkspace();
  try {
    writeSource(ws, 'src/http.ts', HTTP_TS);
    const id = await published(ws, 'history', [`src/http.ts:${FETCH_LINE}`]);
    gitInit(ws);
    edit(ws, 'src/http.ts', 'await fetch(url, { signal: controller.signal })', 'await fetch(url)');
    const recipe = await readRecipe(ws, id);
    const verdict = await checkRecipeNow(ws, recipe);
    assert.equal(verdict.freshness, 'stale');
    const [change] = await describeChanges(ws, recipe, verdict);
    assert.match(change.then!.origin, /^git [0-9a-f]{7}$/);
    assert.match(change.then!.text, /fetch\(url, \{ signal: controller\.signal \}\)/);
    assert.match(change.now!.text, /fetch\(url\);/);
    assert.equal(change.now!.startLine, FETCH_LINE - 3);
  } finally {
    await ws.cleanup();
  }
});

test("rewriting sources touches whole references only, in the frontmatter and in the body's source links", () => {
  const text =
    '---\ntitle: T\nsources: [src/a.ts:1, src/a.ts:12]\n---\n\n# T\n\n## Sources\n\n- [src/a.ts:1](../../../src/a.ts#L1)\n- [src/a.ts:12](../../../src/a.ts#L12)\n\nSee src/a.ts:1 in prose.\n';
  const out = rewriteSources(text, [{ from: 'src/a.ts:1', to: 'src/b.ts:3' }]);
  assert.deepEqual(frontMatterOf(out).data.sources, ['src/b.ts:3', 'src/a.ts:12']);
  assert.match(out, /^- \[src\/b\.ts:3\]\(\.\.\/\.\.\/\.\.\/src\/b\.ts#L3\)$/m, out);
  assert.match(out, /^- \[src\/a\.ts:12\]\(\.\.\/\.\.\/\.\.\/src\/a\.ts#L12\)$/m, out);
  assert.match(out, /See src\/a\.ts:1 in prose\./, "prose is the person's: only list items are rewritten");
});
