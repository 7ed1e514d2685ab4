// A recipe scoped to folders (`paths`): search for a file outside them leaves it out, its guard rules
// report only inside them, and the export writes it into files scoped the same way, linking only to
// files it writes.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { createCatalog } from '../../src/core/catalog';
import { guardEngine } from '../../src/core/domains/guard';
import { scopeFolder, scopeGlobProblem } from '../../src/core/domains/knowledge/folder-scope';
import { parseRecipeFile } from '../../src/core/domains/knowledge/recipe-file';
import { syncRecipes } from '../../src/core/domains/knowledge/recipe-index';
import { guardWorkspace } from './guard-helpers';
import { agent, human } from './knowledge-helpers';

const catalog = createCatalog();

test('the folder of a scope is the deepest one every glob lies under', () => {
  assert.equal(scopeFolder(['packages/api/**']), 'packages/api');
  assert.equal(scopeFolder(['packages/api/src/**/*.ts', 'packages/api/test/*.ts']), 'packages/api');
  assert.equal(scopeFolder(['packages/api/index.ts']), 'packages/api');
  assert.equal(scopeFolder(['**/*.test.ts']), '');
  assert.equal(scopeFolder(['packages/api/**', 'packages/web/**']), 'packages');
  assert.match(scopeGlobProblem('../other/**') ?? '', /leaves the workspace/);
  assert.match(scopeGlobProblem('/etc/**') ?? '', /absolute/);
  assert.equal(scopeGlobProblem('packages/api/**'), undefined);
});

test('a recipe file whose paths leave the workspace is refused, naming the field', () => {
  const parsed = parseRecipeFile(
    '---\ntitle: Scoped\nsummary: Only there.\npaths: [../elsewhere/**]\n---\n\nText.\n',
    '.autosnippet/recipes/general/scoped.md',
  );
  assert.equal(parsed.ok, false);
  assert.deepEqual(
    !parsed.ok && parsed.problems.map((p) => [p.field, /leaves the workspace/.test(p.message)]),
    [['paths', true]],
  );
});

test('an agent proposing a recipe for an absolute path gets INVALID_INPUT and nothing is recorded', async () => {
  const { ws, cleanup } = await guardWorkspace({});
  try {
    const r = await catalog.invoke(ws, 'submit_candidate', { title: 'Anywhere', paths: ['/etc/**'] }, agent);
    assert.equal(!r.ok && r.error.code, 'INVALID_INPUT', JSON.stringify(r));
    const listed = await catalog.invoke(ws, 'list_candidates', { status: 'any' }, agent);
    assert.deepEqual(listed.ok && (listed.data as any).candidates, []);
  } finally {
    await cleanup();
  }
});

const SCOPED = `---
title: The API package logs through its logger
trigger: "@apilog"
language: typescript
category: logging
knowledgeType: code-standard
status: published
summary: In the API package, log through logger from packages/api/src/log.ts, never console.log.
paths: ["packages/api/**"]
constraints:
  guards:
    - pattern: "console\\\\.log\\\\("
      message: Log through logger in the API package.
---

Text.
`;

const WHOLE = `---
title: Dates are ISO strings at the boundary
language: typescript
category: data
knowledgeType: code-standard
status: published
summary: Send and receive dates as ISO 8601 strings.
---

Text.
`;

async function scopedWorkspace() {
  return guardWorkspace({
    '.autosnippet/recipes/logging/api-logger.md': SCOPED,
    '.autosnippet/recipes/data/iso-dates.md': WHOLE,
    'packages/api/src/users.ts': 'export function users() {\n  console.log("listing users");\n}\n',
    'packages/web/src/page.ts': 'export function page() {\n  console.log("rendering");\n}\n',
  });
}

test("a scoped recipe's guard rule reports inside its folders only", async () => {
  const { ws, cleanup } = await scopedWorkspace();
  try {
    await syncRecipes(ws);
    const scan = await guardEngine(ws).scan();
    assert.deepEqual(
      scan.violations.filter((v) => v.ruleId.startsWith('recipe/')).map((v) => `${v.path}:${v.start.line}`),
      ['packages/api/src/users.ts:2'],
    );
    const checked = await catalog.invoke(ws, 'guard_check', {
      code: 'console.log("x");\n',
      language: 'typescript',
      path: 'packages/web/src/other.ts',
    }, agent);
    assert.ok(checked.ok);
    assert.deepEqual((checked.data as any).violations.filter((v: any) => v.ruleId.startsWith('recipe/')), []);
  } finally {
    await cleanup();
  }
});

test('context_search leaves a scoped recipe out for a file outside its folders, and ranks it inside', async () => {
  const { ws, root, cleanup } = await scopedWorkspace();
  try {
    await syncRecipes(ws);
    const ids = async (currentFile: string) => {
      const r = await catalog.invoke(ws, 'context_search', { query: 'log a message', currentFile }, agent);
      assert.ok(r.ok, JSON.stringify(r));
      return (r.data as any).results.map((x: any) => x.id);
    };
    assert.ok((await ids('packages/api/src/orders.ts')).includes('logging/api-logger'));
    assert.ok(!(await ids('packages/web/src/page.ts')).includes('logging/api-logger'));
    // An absolute path inside the workspace is the same file.
    assert.ok((await ids(path.join(root, 'packages/api/src/orders.ts'))).includes('logging/api-logger'));
  } finally {
    await cleanup();
  }
});

test('export writes a scoped recipe into nested and applyTo files, and every link it writes leads to a file it wrote', async () => {
  const { ws, root, cleanup } = await scopedWorkspace();
  try {
    await syncRecipes(ws);
    const r = await catalog.invoke(ws, 'export_recipes', {
      to: ['agents', 'copilot', 'claude', 'cursor'],
    }, human);
    assert.ok(r.ok, JSON.stringify(r));
    const read = (f: string) => readFileSync(path.join(root, f), 'utf8');

    const nested = read('packages/api/AGENTS.md');
    assert.match(nested, /<!-- autosnippet:begin/);
    assert.match(nested, /These apply to `packages\/api\/\*\*`\./);
    assert.match(nested, /\[logging\/api-logger\]\(\.\.\/\.\.\/\.autosnippet\/recipes\/logging\/api-logger\.md\)/);
    assert.doesNotMatch(nested, /iso-dates/);
    const rootAgents = read('AGENTS.md');
    assert.match(rootAgents, /iso-dates/);
    assert.doesNotMatch(rootAgents, /api-logger\.md/);
    assert.match(rootAgents, /Recipes for parts of the project are in packages\/api\/AGENTS\.md/);

    // Copilot's path-specific instructions: frontmatter applyTo with the globs, then the block.
    const copilot = read('.github/instructions/autosnippet-in-packages-api.instructions.md');
    assert.match(copilot, /^---\napplyTo: "packages\/api\/\*\*"\ndescription: "[^"\n]+"\n---\n/);
    assert.match(copilot, /api-logger/);
    assert.match(read('packages/api/CLAUDE.md'), /api-logger/);
    assert.match(
      read('.cursor/rules/autosnippet-in-packages-api.mdc'),
      /globs: "packages\/api\/\*\*"\nalwaysApply: false/,
    );

    // Every relative link or path a written file names exists.
    const files = ((r.data as any).files as { path: string; action: string }[])
      .filter((f) => f.action === 'create' || f.action === 'update');
    for (const f of files) {
      const text = read(f.path);
      for (const m of text.matchAll(/\]\(([^)]+)\)/g)) {
        const target = path.join(root, path.dirname(f.path), decodeURI(m[1]));
        assert.ok(existsSync(target), `${f.path} links to ${m[1]}, which does not exist`);
      }
      // And every instruction file it names in a sentence ("the rules for all code are in CLAUDE.md").
      for (const named of text.replace(/\[[^\]]*\]\([^)]*\)/g, '').matchAll(/[\w./-]+\.mdc?\b/g)) {
        assert.ok(existsSync(path.join(root, named[0])), `${f.path} names ${named[0]}, which was not written`);
      }
    }
  } finally {
    await cleanup();
  }
});
