import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ToolCatalog } from '../../src/core/catalog/catalog';
import { guardTools } from '../../src/core/catalog/guard';
import type { ToolContext, ToolResult } from '../../src/core/catalog/types';
import { guardEngine } from '../../src/core/domains/guard';
import { syncRecipes } from '../../src/core/domains/knowledge/recipe-index';
import { guardWorkspace, writeFiles } from './guard-helpers';

const catalog = new ToolCatalog(guardTools);
const agent: ToolContext = { actor: 'external_agent', channel: 'test' };

function data<T = any>(r: ToolResult): T {
  assert.ok(r.ok, JSON.stringify(r));
  return (r as { data: T }).data;
}

function recipe(status: string, guards: string): string {
  return `---
title: Network calls go through getJson
trigger: "@getjson"
language: typescript
category: networking
knowledgeType: code-standard
status: ${status}
summary: Call the network through getJson in src/http.ts, never fetch directly.
constraints:
  guards:
${guards}
---

\`\`\`ts
const users = await getJson<User[]>('/users');
\`\`\`
`;
}

const FORBID_FETCH =
  '    - pattern: "\\\\bfetch\\\\("\n      message: Use getJson instead of fetch.\n      severity: error';
const FILE = '.autosnippet/recipes/networking/use-getjson.md';

test("a published recipe's guard constraint is a rule: listed by guard_rules, reported by guard_check and scans, following edits of the recipe", async () => {
  const { ws, root, cleanup } = await guardWorkspace({
    [FILE]: recipe('published', FORBID_FETCH),
    '.autosnippet/recipes/style/draft.md': recipe('draft', '    - pattern: "console"\n      message: no console'),
    'src/users.ts': 'export const users = await fetch("/users");\n',
    'src/users.test.ts': 'const res = await fetch("/users");\n',
  });
  try {
    await syncRecipes(ws);
    const listed = data(await catalog.invoke(ws, 'guard_rules', { origin: 'recipe' }, agent));
    assert.deepEqual(
      listed.rules.map((r: { id: string; source: string; severity: string }) => [r.id, r.source, r.severity]),
      [['recipe/networking/use-getjson', 'recipe:networking/use-getjson', 'error']],
      'drafts do not count',
    );

    const checked = data(
      await catalog.invoke(ws, 'guard_check', {
        code: 'const r = await fetch(url);\nconst s = getJson(url);\n',
        language: 'typescript',
        path: 'src/api.ts',
      }, agent),
    );
    assert.deepEqual(
      checked.violations.map((
        v: { ruleId: string; start: { line: number }; severity: string },
      ) => [v.ruleId, v.start.line, v.severity]),
      [['recipe/networking/use-getjson', 1, 'error']],
    );
    assert.match(
      checked.violations[0].suggestion,
      /Follow the recipe "Network calls go through getJson" \(type @getjson for its code\)/,
    );

    // Scans report it in production code only, like the recipe means it.
    const scan = await guardEngine(ws).scan();
    assert.deepEqual(scan.violations.map((v) => `${v.path}:${v.ruleId}`), [
      'src/users.ts:recipe/networking/use-getjson',
    ]);

    // The recipe changes its mind: the next check follows the file (as the editor's watcher refreshes it).
    writeFiles(root, {
      [FILE]: recipe('published', '    - pattern: "\\\\baxios\\\\."\n      message: Use getJson instead of axios.'),
    });
    await guardEngine(ws).refreshSources(true);
    const again = await guardEngine(ws).check('fetch(a); axios.get(b);\n', 'typescript', { path: 'src/api.ts' });
    assert.deepEqual(again.violations.map((v) => [v.ruleId, v.matchedText, v.severity]), [[
      'recipe/networking/use-getjson',
      'axios.',
      'warning',
    ]]);

    // Deprecating the recipe retires its rule.
    writeFiles(root, {
      [FILE]: readFileSync(path.join(root, FILE), 'utf8').replace('status: published', 'status: deprecated'),
    });
    await guardEngine(ws).refreshSources(true);
    assert.equal(
      (await guardEngine(ws).check('axios.get(b);\n', 'typescript', { path: 'src/api.ts' })).violations.length,
      0,
    );
  } finally {
    await cleanup();
  }
});

test('a require guard reports a file of the language that lacks the pattern; an unsafe recipe pattern is refused with a problem', async () => {
  const { ws, cleanup } = await guardWorkspace({
    [FILE]: recipe(
      'published',
      '    - pattern: "^// SPDX-License-Identifier:"\n      message: Start every file with its licence.\n      mode: require',
    ),
    '.autosnippet/recipes/perf/bad.md': recipe('published', '    - pattern: "(a|a)+b"\n      message: catastrophic')
      .replace('title: Network calls go through getJson', 'title: Bad pattern'),
  });
  try {
    await syncRecipes(ws);
    const engine = guardEngine(ws);
    const missing = await engine.check('export const a = 1;\n', 'typescript', { path: 'src/a.ts' });
    assert.deepEqual(missing.violations.map((v) => [v.ruleId, v.start.line]), [['recipe/networking/use-getjson', 1]]);
    const present = await engine.check('// SPDX-License-Identifier: MIT\nexport const a = 1;\n', 'typescript', {
      path: 'src/a.ts',
    });
    assert.equal(present.violations.length, 0);
    const problems = await engine.problems();
    assert.ok(
      problems.some((p) => p.ruleId === 'recipe/perf/bad' && p.code === 'UNSAFE_PATTERN'),
      JSON.stringify(problems),
    );
  } finally {
    await cleanup();
  }
});
