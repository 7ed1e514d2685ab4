import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ToolCatalog } from '../../src/core/catalog/catalog';
import { guardTools } from '../../src/core/catalog/guard';
import { guardEngine } from '../../src/core/domains/guard';
import { syncRecipes } from '../../src/core/domains/knowledge/recipe-index';
import { guardWorkspace, rulesFile, runGuardCli, writeFiles } from './guard-helpers';

/** The rules that run and the problems, after a load. */
async function loaded(files: Record<string, string>) {
  const { ws, root, cleanup } = await guardWorkspace(files);
  const engine = guardEngine(ws);
  await engine.refreshSources(true);
  const statuses = await engine.rules();
  const problems = await engine.problems();
  const active = (id: string) => statuses.find((s) => s.rule.id === id)?.active;
  return { ws, root, engine, problems, active, cleanup };
}

const RULES = '.autosnippet/guard/rules.json';

test('older field names load as aliases: `regex` is `pattern`, `suggestedFix` is `suggestion`', async () => {
  const t = await loaded({
    [RULES]: rulesFile([
      {
        id: 'project/no-raw-fetch',
        pattern: '(?<![\\w.])fetch\\s*\\(',
        suggestion: undefined,
        suggestedFix: 'await apiClient.request({ method, path, body })',
      },
      { id: 'project/old-regex', regex: '\\bdebugger\\b' },
    ]),
  });
  try {
    assert.deepEqual(t.problems, []);
    const res = await t.engine.check('const r = await fetch(url);\ndebugger;\n', 'typescript');
    const found = res.violations.filter((v) => v.ruleId.startsWith('project/'));
    assert.deepEqual(found.map((v) => [v.ruleId, v.start.line]), [
      ['project/no-raw-fetch', 1],
      ['project/old-regex', 2],
    ]);
    assert.equal(found[0].suggestion, 'await apiClient.request({ method, path, body })');
  } finally {
    await t.cleanup();
  }
});

test('an unknown field is a problem that names it and the closest field; the rule does not load, the others do', async () => {
  const t = await loaded({
    [RULES]: rulesFile([
      { id: 'project/typo', pattern: '\\bfetch\\(', ...({ exlude: ['src/api/**'] } as object) },
      { id: 'project/fine', pattern: '\\bdebugger\\b' },
    ]),
  });
  try {
    assert.equal(t.problems.length, 1, JSON.stringify(t.problems));
    const [p] = t.problems;
    assert.equal(p.ruleId, 'project/typo');
    assert.equal(p.field, 'exlude');
    assert.match(p.message, /`exlude` is not a rule field; did you mean `exclude`\?/);
    assert.equal(t.active('project/typo'), undefined);
    assert.equal(t.active('project/fine'), true);
  } finally {
    await t.cleanup();
  }
});

test('examples as { bad: [...], good: [...] } run at load: a bad example the pattern misses is a problem on that example, and the rule does not run', async () => {
  const t = await loaded({
    [RULES]: rulesFile([
      {
        id: 'project/no-print',
        pattern: '\\bconsole\\.log\\(',
        examples: { bad: ['console.log(x);', 'console.info(x);'], good: ['logger.info(x);'] },
      },
      { id: 'project/ok', pattern: '\\bdebugger\\b', examples: { bad: ['debugger;'], good: ['// debugger'] } },
    ]),
  });
  try {
    assert.equal(t.problems.length, 1, JSON.stringify(t.problems));
    const [p] = t.problems;
    assert.equal(p.code, 'INVALID_RULE');
    assert.equal(p.field, 'examples.bad[1]');
    assert.match(p.message, /does not report its bad example 2 \(`console\.info\(x\);`\)/);
    assert.equal(t.active('project/no-print'), false);
    assert.equal(t.active('project/ok'), true);
  } finally {
    await t.cleanup();
  }
});

test('guard_rules lists a rule that fails its examples as inactive, with the reason, and the problem with its field and fix', async () => {
  const t = await loaded({
    [RULES]: rulesFile([{
      id: 'project/no-fetch',
      pattern: 'fetch\\(',
      examples: { bad: ['fetch(u)'], good: ['prefetch(u)'] },
    }]),
  });
  try {
    const r = await new ToolCatalog(guardTools).invoke(
      t.ws,
      'guard_rules',
      { origin: 'project', includeInactive: true },
      { actor: 'external_agent', channel: 'test' },
    );
    assert.ok(r.ok, JSON.stringify(r));
    const out = (r as {
      data: {
        rules: { id: string; active: boolean; reason?: string }[];
        problems: { ruleId?: string; field?: string; hint?: string }[];
      };
    }).data;
    assert.deepEqual(out.rules.map((x) => [x.id, x.active]), [['project/no-fetch', false]]);
    assert.match(out.rules[0].reason!, /reports its good example 1/);
    assert.deepEqual(out.problems.map((p) => [p.ruleId, p.field]), [['project/no-fetch', 'examples.good[0]']]);
    assert.match(out.problems[0].hint!, /Narrow the pattern/);
  } finally {
    await t.cleanup();
  }
});

test('a good example the rule reports is a problem', async () => {
  const t = await loaded({
    [RULES]: rulesFile([{
      id: 'project/no-fetch',
      pattern: 'fetch\\(',
      examples: { bad: ['fetch(u)'], good: ['prefetch(u)'] },
    }]),
  });
  try {
    assert.deepEqual(t.problems.map((p) => [p.code, p.field]), [['INVALID_RULE', 'examples.good[0]']]);
    assert.match(t.problems[0].message, /reports its good example 1 \(`prefetch\(u\)`\)/);
  } finally {
    await t.cleanup();
  }
});

test('an import-path pattern with in: code (the default) can never match: a problem on `pattern` that says to use in: strings', async () => {
  const t = await loaded({
    [RULES]: rulesFile([{ id: 'project/no-cross-src', pattern: 'from\\s+[\'"]\\.\\./[^/]+/src/' }]),
  });
  try {
    assert.deepEqual(t.problems.map((p) => [p.code, p.field]), [['INVALID_RULE', 'pattern']]);
    assert.match(t.problems[0].message, /needs text inside a quoted string .* `in` is "code" \(the default\)/);
    assert.match(t.problems[0].hint!, /"in": "strings"/);
  } finally {
    await t.cleanup();
  }
});

test("a quote that is code in the rule's language is not taken for a string: a Rust lifetime, a template literal's ${…}", async () => {
  const t = await loaded({
    [RULES]: rulesFile([
      {
        id: 'project/static-str',
        languages: ['rust'],
        pattern: "&'static\\s+str",
        examples: { bad: ['fn f() -> &\'static str { "x" }'], good: ['fn f() -> String { String::new() }'] },
      },
      {
        id: 'project/template-start',
        pattern: '`\\$\\{user',
        examples: { bad: ['const s = `${user.name}`;'], good: ['const s = user.name;'] },
      },
    ]),
  });
  try {
    assert.deepEqual(t.problems, []);
    assert.equal(t.active('project/static-str'), true);
  } finally {
    await t.cleanup();
  }
});

test('in: strings with a pattern anchored by ^ (the start of the file) can never match: a problem on `pattern`', async () => {
  const t = await loaded({
    [RULES]: rulesFile([{ id: 'project/anchored', pattern: '^\\.\\./[^/]+/src/', in: 'strings' }]),
  });
  try {
    assert.deepEqual(t.problems.map((p) => [p.code, p.field]), [['INVALID_RULE', 'pattern']]);
    assert.match(t.problems[0].message, /starts with `\^`, the start of the file/);
  } finally {
    await t.cleanup();
  }
});

test('a bad example matched only inside a string points at `in` and names the scope that would match', async () => {
  const t = await loaded({
    [RULES]: rulesFile([{
      id: 'project/no-internal',
      pattern: '@app/internal',
      examples: { bad: ['import x from "@app/internal/y";'], good: ['import x from "@app/public";'] },
    }]),
  });
  try {
    assert.deepEqual(t.problems.map((p) => [p.code, p.field]), [['INVALID_RULE', 'in']]);
    assert.match(t.problems[0].message, /matches there inside a string, but `in` is "code"/);
    assert.match(t.problems[0].hint!, /"in": "strings"/);
  } finally {
    await t.cleanup();
  }
});

test('in: strings matches an import path and not the same import commented out; in: any matches both (raw text), and an example says so at load', async () => {
  const code = 'import a from "../core/src/a";\n// import b from "../core/src/b";\n';
  const t = await loaded({
    [RULES]: rulesFile([
      { id: 'project/strings', pattern: '\\.\\./[^/]+/src/', in: 'strings' },
      {
        id: 'project/raw',
        pattern: '\\.\\./[^/]+/src/',
        in: 'any',
        examples: { bad: ['import a from "../core/src/a";'], good: ['// import b from "../core/src/b";'] },
      },
    ]),
  });
  try {
    const res = await t.engine.check(code, 'typescript');
    assert.deepEqual(res.violations.filter((v) => v.ruleId === 'project/strings').map((v) => v.start.line), [1]);
    assert.deepEqual(
      t.problems.map((p) => [p.ruleId, p.field]),
      [['project/raw', 'examples.good[0]']],
      'in: any sees comments: its good example is reported, and said',
    );
  } finally {
    await t.cleanup();
  }
});

test("a tree-sitter predicate outside the pattern's parentheses is a problem, not a rule that reports every import", async () => {
  const t = await loaded({
    [RULES]: rulesFile([
      { id: 'project/misplaced', query: '(import_statement source: (string) @match) (#match? @match "src/")' },
      { id: 'project/unbound', query: '(import_statement source: (string) @match (#match? @path "src/"))' },
      {
        id: 'project/unknown-predicate',
        query: '(import_statement source: (string) @match (#matches? @match "src/"))',
      },
      {
        id: 'project/right',
        query: '((import_statement source: (string) @match) (#match? @match "/src/"))',
        examples: { bad: ['import a from "../x/src/a";'], good: ['import b from "lodash";'] },
      },
    ]),
  });
  try {
    const byRule = Object.fromEntries(t.problems.map((p) => [p.ruleId, p]));
    assert.deepEqual(Object.keys(byRule).sort(), ['project/misplaced', 'project/unbound', 'project/unknown-predicate']);
    assert.match(byRule['project/misplaced'].message, /#match\? .* outside every pattern/);
    assert.equal(byRule['project/misplaced'].field, 'query');
    assert.match(byRule['project/unbound'].message, /@path, which no node in its pattern captures/);
    assert.match(byRule['project/unknown-predicate'].message, /#matches\? is not a predicate tree-sitter applies/);
    assert.equal(t.active('project/right'), true);
    const res = await t.engine.check('import a from "../x/src/a";\nimport b from "lodash";\n', 'typescript');
    assert.deepEqual(
      res.violations.filter((v) => v.ruleId.startsWith('project/')).map((v) => [v.ruleId, v.start.line]),
      [['project/right', 1]],
    );
  } finally {
    await t.cleanup();
  }
});

function recipe(guards: string): string {
  return `---
title: Packages import each other through their public entry
trigger: "@pkg-import"
language: typescript
category: architecture
knowledgeType: boundary-constraint
status: published
summary: A package imports another package's public entry, never its src/.
constraints:
  guards:
${guards}
---

\`\`\`ts
import { thing } from '@acme/core';
\`\`\`
`;
}

test('a recipe guard takes the rule fields: in, include, exclude and examples; a cross-package src/ import is reported in the included files only', async () => {
  const guard = [
    '    - id: no-cross-src',
    '      pattern: "\\\\.\\\\./[^/]+/src/"',
    '      in: strings',
    '      include: ["packages/**"]',
    '      exclude: ["packages/**/*.test.ts"]',
    '      message: Import the package, not its src/.',
    '      examples:',
    '        bad: [\'import a from "../core/src/a";\']',
    '        good: [\'import a from "@acme/core";\', \'// import a from "../core/src/a";\']',
  ].join('\n');
  const { ws, root, cleanup } = await guardWorkspace({
    '.autosnippet/recipes/architecture/pkg-import.md': recipe(guard),
    'packages/app/src/main.ts': 'import a from "../core/src/a";\n',
    'packages/app/src/main.test.ts': 'import a from "../core/src/a";\n',
    'tools/script.ts': 'import a from "../core/src/a";\n',
  });
  try {
    await syncRecipes(ws);
    const engine = guardEngine(ws);
    assert.deepEqual(await engine.problems(), []);
    const scan = await engine.scan({ paths: [root] });
    assert.deepEqual(
      scan.violations.filter((v) => v.ruleId.startsWith('recipe/')).map((
        v,
      ) => [v.ruleId, v.path, v.start.line, v.start.column]),
      [['recipe/architecture/pkg-import/no-cross-src', 'packages/app/src/main.ts', 1, 16]],
    );
  } finally {
    await cleanup();
  }
});

test('a recipe guard whose code-only pattern needs a string is a problem naming the recipe file, not a rule that matches nothing', async () => {
  const { ws, cleanup } = await guardWorkspace({
    '.autosnippet/recipes/architecture/pkg-import.md': recipe(
      '    - pattern: "from\\\\s+[\'\\"]\\\\.\\\\./[^/]+/src/"\n      message: Import the package, not its src/.',
    ),
  });
  try {
    await syncRecipes(ws);
    const problems = await guardEngine(ws).problems();
    assert.deepEqual(problems.map((p) => [p.code, p.ruleId, p.file, p.field]), [[
      'INVALID_RULE',
      'recipe/architecture/pkg-import',
      '.autosnippet/recipes/architecture/pkg-import.md',
      'pattern',
    ]]);
  } finally {
    await cleanup();
  }
});

test('the CLI prints the findings of the rules that load when one rule is refused, and exits 2', async () => {
  const { root, cleanup } = await guardWorkspace({
    [RULES]: rulesFile([
      { id: 'project/typo', pattern: 'x', ...({ sevrity: 'error' } as object) },
      { id: 'project/no-legacy', pattern: '\\blegacyCall\\(', severity: 'error' },
    ]),
    'src/a.ts': 'legacyCall();\n',
  });
  try {
    const text = await runGuardCli(root, ['src']);
    assert.equal(text.code, 2);
    assert.match(text.stdout, /src\/a\.ts\n {2}1:1 +error +.*project\/no-legacy/);
    assert.match(text.stderr, /`sevrity` is not a rule field; did you mean `severity`\?/);
    const json = await runGuardCli(root, ['src', '--format', 'json']);
    assert.equal(json.code, 2);
    const report = JSON.parse(json.stdout);
    assert.deepEqual(report.violations.map((v: { ruleId: string }) => v.ruleId), ['project/no-legacy']);
    assert.equal(report.problems[0].field, 'sevrity');
    const sarif = JSON.parse((await runGuardCli(root, ['src', '--format', 'sarif'])).stdout);
    assert.equal(sarif.runs[0].results.length, 1);
    assert.equal(sarif.runs[0].invocations[0].executionSuccessful, false);
  } finally {
    await cleanup();
  }
});

test('JSON counts are the new findings; baselined ones are counted apart', async () => {
  const { root, cleanup } = await guardWorkspace({
    [RULES]: rulesFile([{ id: 'project/no-legacy', pattern: '\\blegacyCall\\(', severity: 'error' }]),
    'src/a.ts': 'legacyCall();\n',
  });
  try {
    assert.equal((await runGuardCli(root, ['--baseline', 'write'])).code, 0);
    writeFiles(root, { 'src/b.ts': 'legacyCall();\n' });
    const run = await runGuardCli(root, ['--format', 'json']);
    const report = JSON.parse(run.stdout);
    assert.equal(run.code, 1);
    assert.equal(report.counts.error, 1, 'only the new finding');
    assert.equal(report.baselinedCounts.error, 1);
    assert.equal(report.totalCounts.error, 2);
  } finally {
    await cleanup();
  }
});
