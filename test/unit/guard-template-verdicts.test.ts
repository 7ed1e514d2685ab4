// The safety verdicts kept for drafting templates: a drafted rule on a template's pattern is loaded
// without a trip to the analysis worker, while any other pattern, or the same one under another
// analyser version, is analysed as before (and a catastrophic one is still refused).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { guardEngine } from '../../src/core/domains/guard';
import { recipeGuardRules } from '../../src/core/domains/guard/recipe-rules';
import { ANALYSER_VERSION } from '../../src/core/domains/guard/regex-safety';
import type { GuardRule, RuleProblem } from '../../src/core/domains/guard/rule';
import { fixedDraftPatterns } from '../../src/core/domains/guard/rule-draft';
import { draftFromSeed, tryDraftRules } from '../../src/core/domains/guard/rule-draft-check';
import { TreeSitterHost } from '../../src/core/domains/guard/structural';
import {
  TEMPLATE_VERDICTS,
  TEMPLATE_VERDICTS_VERSION,
  templateVerdict,
} from '../../src/core/domains/guard/template-verdicts';
import { PatternVetting } from '../../src/core/domains/guard/vetting';
import type { GuardPattern } from '../../src/core/domains/knowledge/types';
import type { Workspace } from '../../src/core/ground/workspace';
import { guardWorkspace } from './guard-helpers';

const FILES: Record<string, string> = {
  'package.json': '{ "name": "app" }\n',
  'src/a.ts': 'export function a(): number {\n  return 1;\n}\n',
  'src/b.ts': 'export const b = 2;\n',
  'src/c.ts': 'const c = 3;\nexport default c;\n',
};

/** The analysis jobs the workspace's guard sends to its worker pool while `fn` runs. */
async function analysed(ws: Workspace, fn: () => Promise<void>): Promise<string[][]> {
  const pool = guardEngine(ws).pool;
  const jobs: string[][] = [];
  const run = pool.run.bind(pool);
  pool.run = ((kind: string, payload: unknown, opts?: object) => {
    if (kind === 'guard.analyzePatterns') {
      jobs.push((payload as { patterns: { source: string }[] }).patterns.map((p) => p.source));
    }
    return run(kind, payload, opts);
  }) as typeof pool.run;
  try {
    await fn();
  } finally {
    pool.run = run;
  }
  return jobs;
}

function defaultExportGuard(ws: Workspace): GuardPattern {
  const d = draftFromSeed(ws, { kind: 'forbid-construct', language: 'typescript', construct: 'default-export' });
  assert.ok(d.guard, d.problem);
  return d.guard;
}

function trial(guards: GuardPattern[]) {
  return [{ key: 'k', title: 'Named exports', language: 'typescript', summary: 'Named exports only.', guards }];
}

test('a drafted rule on a template pattern is vetted with the kept verdict: no analysis job, same findings', async () => {
  const { ws, cleanup } = await guardWorkspace(FILES);
  try {
    let out: Awaited<ReturnType<typeof tryDraftRules>> | undefined;
    const jobs = await analysed(ws, async () => {
      out = await tryDraftRules(ws, trial([defaultExportGuard(ws)]));
    });
    assert.deepEqual(jobs, [], 'the template pattern was not sent to the worker');
    const t = out!.get('k')!;
    assert.deepEqual(t.problems, []);
    assert.equal(t.guards.length, 1);
    assert.deepEqual(
      t.report!.rules[0].findings.map((f) => [f.path, f.line, f.text]),
      [['src/c.ts', 2, 'export default']],
    );
  } finally {
    await cleanup();
  }
});

test('a pattern no template writes is analysed in the worker, and a catastrophic one is refused', async () => {
  const { ws, cleanup } = await guardWorkspace(FILES);
  try {
    const hostile: GuardPattern = {
      ...defaultExportGuard(ws),
      id: 'words',
      // A drafted rule's shape around a pattern no template writes: exponential on a long line of words.
      pattern: '^(\\w+\\s?)+$',
      examples: { bad: ['export default function handler'], good: ['// export default function handler'] },
    };
    let out: Awaited<ReturnType<typeof tryDraftRules>> | undefined;
    const jobs = await analysed(ws, async () => {
      out = await tryDraftRules(ws, trial([hostile]));
    });
    assert.deepEqual(jobs, [[hostile.pattern]]);
    const t = out!.get('k')!;
    assert.deepEqual(t.guards, [], 'the rule is not offered');
    assert.deepEqual(t.problems.map((p) => p.code), ['UNSAFE_PATTERN']);
    assert.match(t.problems[0].message, /backtrack catastrophically/);
  } finally {
    await cleanup();
  }
});

test('under another analyser version the kept verdict is not used: the pattern is analysed again', async () => {
  const { ws, cleanup } = await guardWorkspace(FILES);
  const engine = guardEngine(ws);
  const guard = defaultExportGuard(ws);
  const rules: GuardRule[] = recipeGuardRules([{
    recipeId: 'draft-1',
    title: 'Named exports',
    trigger: '',
    language: 'typescript',
    summary: '',
    file: '',
    guards: [guard],
  }]);
  const log = { info() {}, warn() {}, error() {}, debug() {} } as never;
  try {
    const current = new PatternVetting(new TreeSitterHost(), engine.pool, log);
    const other = new PatternVetting(
      new TreeSitterHost(),
      engine.pool,
      log,
      (source, flags) => templateVerdict(source, flags, 'recheck 9.9.9; analysis 1'),
    );
    const problems: RuleProblem[] = [];
    const jobs = await analysed(ws, async () => {
      await current.vet(rules, problems);
      await other.vet(rules, problems);
      await other.vet(rules, problems); // kept in memory from here on
    });
    assert.deepEqual(jobs, [[guard.pattern]], 'analysed once, by the vetting under the other version');
    assert.deepEqual(problems, []);
    assert.deepEqual(current.verdictOf(rules[0]), TEMPLATE_VERDICTS['forbid-construct/default-export']);
    assert.deepEqual(other.verdictOf(rules[0]), TEMPLATE_VERDICTS['forbid-construct/default-export']);
  } finally {
    await cleanup();
  }
});

test('a kept verdict answers only for its template pattern, flags and analyser version', () => {
  const templates = fixedDraftPatterns();
  assert.deepEqual(
    templates.map((t) => t.template).sort(),
    Object.keys(TEMPLATE_VERDICTS).sort(),
    'every template has a verdict, and every verdict a template',
  );
  for (const t of templates) {
    assert.deepEqual(templateVerdict(t.pattern, t.flags), TEMPLATE_VERDICTS[t.template], t.template);
    assert.equal(templateVerdict(t.pattern, `${t.flags}i`), undefined, `${t.template} with other flags`);
    assert.equal(templateVerdict(`${t.pattern}x`, t.flags), undefined, `${t.template} with a character added`);
    assert.equal(
      templateVerdict(t.pattern, t.flags, `${ANALYSER_VERSION}+1`),
      undefined,
      `${t.template}, other analyser`,
    );
  }
  assert.equal(TEMPLATE_VERDICTS_VERSION, ANALYSER_VERSION, 'the kept verdicts are those of the running analyser');
});

test("the analyser version names the installed recheck's version", () => {
  const pkg = path.join(__dirname, '..', '..', 'node_modules', 'recheck', 'package.json');
  const { version } = JSON.parse(readFileSync(pkg, 'utf8')) as { version: string };
  assert.ok(ANALYSER_VERSION.includes(`recheck ${version};`), `${ANALYSER_VERSION} vs recheck ${version}`);
});
