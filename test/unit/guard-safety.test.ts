import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { TimeBudget } from '../../src/core/domains/guard/budget';
import { GuardEngine } from '../../src/core/domains/guard/engine';
import { analyzePattern, checkPatternSyntax, unrolledSize } from '../../src/core/domains/guard/regex-safety';
import { guardWorkspace, rulesFile } from './guard-helpers';

test('the ReDoS analysis refuses exponential and cubic patterns and tolerates quadratic ones', () => {
  for (const p of ['^(a+)+$', '(a|a)*b', '^(\\w+\\s?)+$', '(x+x+)+y', 'a.*b.*c']) {
    const v = analyzePattern(p, '');
    assert.equal(v.ok, false, p);
    assert.equal(v.status, 'vulnerable');
    assert.match(v.message!, /backtrack catastrophically/);
    assert.ok(v.attack, 'an attack string is reported');
  }
  assert.equal(analyzePattern('\\beval\\s*\\(', '').status, 'safe');
  assert.equal(analyzePattern('[a-z]+\\d', '').status, 'tolerated');
  assert.equal(checkPatternSyntax('(', '')?.status, 'invalid');
  assert.match(checkPatternSyntax('x*', '')!.message!, /empty text/);
  assert.match(checkPatternSyntax('x', 'g')!.message!, /flag/);
});

test('a catastrophic project pattern is refused at load with a clear message; the other rules still run', async () => {
  const { ws, cleanup } = await guardWorkspace({
    '.autosnippet/guard/rules.json': rulesFile([
      { id: 'project/redos', regex: '^(\\w+\\s?)+$' },
      { id: 'project/ok', regex: '\\bfetch\\(' },
    ]),
  });
  const engine = new GuardEngine(ws);
  try {
    const problems = await engine.problems();
    assert.equal(problems.length, 1);
    assert.equal(problems[0].code, 'UNSAFE_PATTERN');
    assert.equal(problems[0].ruleId, 'project/redos');
    assert.match(
      problems[0].message,
      /project\/redos: The pattern can backtrack catastrophically \(exponential time\)/,
    );
    const st = await engine.rule('project/redos');
    assert.equal(st.active, false);
    const t0 = performance.now();
    const res = await engine.check(`${'word '.repeat(5000)}!\nfetch(u)`, 'typescript');
    assert.ok(performance.now() - t0 < 1000);
    assert.deepEqual(res.violations.map((v) => v.ruleId), ['project/ok']);
  } finally {
    await engine.dispose();
    await cleanup();
  }
});

test('a slow project pattern is stopped by the time budget, reported, and off everywhere until its rule changes', async () => {
  // Quadratic: allowed by the analysis, but about 7 s on a 50,000-letter word without the budget.
  const { ws, root, cleanup } = await guardWorkspace({
    '.autosnippet/guard/rules.json': rulesFile([
      { id: 'project/slow', regex: '[a-z]+\\d' },
      { id: 'project/after', regex: '\\bfetch\\(' },
    ]),
  });
  const engine = new GuardEngine(ws, { budgetMs: 100 });
  try {
    const text = `eval(x);\nfetch(u);\n${'a'.repeat(50_000)}\n`;
    await engine.check('', 'typescript'); // load and analyse the rules first
    const t0 = performance.now();
    const res = await engine.check(text, 'typescript', { documentKey: 'big.ts' });
    const elapsed = performance.now() - t0;
    // Without the budget the pattern runs about 7 s here; the margin is for a busy machine, not a speed target.
    assert.ok(elapsed < 2000, `the check took ${elapsed} ms`);
    assert.equal(res.incomplete, true);
    assert.deepEqual(res.stopped.map((s) => [s.ruleId, s.reason]), [['project/slow', 'budget']]);
    assert.deepEqual(
      res.violations.map((v) => v.ruleId).sort(),
      ['project/after', 'ts/no-eval'],
      'the other rules still ran',
    );
    const problems = await engine.problems();
    assert.deepEqual(problems.map((p) => [p.code, p.ruleId]), [['RULE_OVERRAN', 'project/slow']]);
    assert.equal((await engine.rule('project/slow')).active, false);
    const elsewhere = await engine.check(`${'b'.repeat(50_000)}\n`, 'typescript', { documentKey: 'other.ts' });
    assert.deepEqual(elsewhere.stopped, [], 'the rule is off on other documents too');
    assert.ok(elsewhere.elapsedMs < 1000, `a check without the rule took ${elsewhere.elapsedMs} ms`);
    // Fixed (a word boundary before the digit), the rule runs again.
    writeFileSync(
      path.join(root, '.autosnippet/guard/rules.json'),
      rulesFile([{ id: 'project/slow', regex: '\\b[a-z]+\\d' }, { id: 'project/after', regex: '\\bfetch\\(' }]),
    );
    engine.invalidate();
    assert.equal((await engine.rule('project/slow')).active, true);
    assert.deepEqual((await engine.check('x1 = 2;\n', 'typescript')).violations.map((v) => v.ruleId), ['project/slow']);
  } finally {
    await engine.dispose();
    await cleanup();
  }
});

test('the time budget interrupts a running regex on this thread', () => {
  const budget = new TimeBudget();
  const t0 = performance.now();
  const finished = budget.run(() => /^(a+)+$/.test('a'.repeat(40) + '!'), 50);
  assert.equal(finished, false);
  // Unbounded, this backtracking runs for minutes.
  assert.ok(performance.now() - t0 < 3000);
  assert.equal(budget.run(() => /b/.test('abc'), 50), true);
});

test('a scan on worker threads runs without per-file watchdogs; a batch that overruns its deadline is checked again under them', async () => {
  const { ws, cleanup } = await guardWorkspace({
    '.autosnippet/guard/rules.json': rulesFile([
      { id: 'project/slow', regex: '[a-z]+\\d' },
      { id: 'project/after', regex: '\\bfetch\\(' },
    ]),
    // Ordinary code first, so the file does not look minified (minified files are not checked).
    'src/big.ts': `${Array.from({ length: 300 }, (_, i) => `const x${i} = ${i};`).join('\n')}\nfetch(u);\n${
      'a'.repeat(60_000)
    }\n`,
    'src/small.ts': 'eval(x);\n',
  });
  const engine = new GuardEngine(ws);
  try {
    const t0 = performance.now();
    const scan = await engine.scan({ budgetMs: 100 });
    const elapsed = performance.now() - t0;
    assert.equal(scan.threaded, true);
    assert.ok(elapsed < 15_000, `the scan took ${elapsed} ms`);
    assert.deepEqual(scan.stopped.map((s) => [s.path, s.ruleId]), [['src/big.ts', 'project/slow']]);
    assert.deepEqual(scan.violations.map((v) => `${v.path}:${v.ruleId}`).sort(), [
      'src/big.ts:project/after',
      'src/small.ts:ts/no-eval',
    ]);
  } finally {
    await engine.dispose();
    await cleanup();
  }
});

test('a check whose budget is used up by slow rules ends: each rule is reported once, those never started as not run', async () => {
  // Two patterns that backtrack on this text and a budget of 2 ms: the first uses it up, so the
  // second has no time to start. The check runs in a child process killed at 20 s, so a hang fails.
  const { root, cleanup } = await guardWorkspace({
    '.autosnippet/guard/rules.json': rulesFile([
      { id: 'project/slow-a', regex: '[a-z]+\\d' },
      { id: 'project/slow-b', regex: '[a-y]+\\d' },
    ]),
    'input.ts': `${'a'.repeat(40_000)}\n`,
  });
  try {
    const r = spawnSync(process.execPath, [
      '--import',
      'tsx',
      path.join(__dirname, 'helpers', 'guard-check-once.ts'),
      root,
      path.join(root, 'input.ts'),
      '2',
    ], { encoding: 'utf8', timeout: 20_000 });
    assert.equal(r.signal, null, `the check did not end within 20 s (${r.stderr.slice(-500)})`);
    assert.equal(r.status, 0, `the check crashed: ${r.stderr.slice(-500)}`);
    const out = JSON.parse(r.stdout);
    const ids = out.stopped.map((s: { ruleId: string }) => s.ruleId);
    assert.equal(new Set(ids).size, ids.length, `a rule was reported more than once: ${ids.length} reports`);
    assert.ok(ids.includes('project/slow-a'));
    assert.ok(
      out.stopped.some((s: { ruleId: string; detail: string }) =>
        s.ruleId === 'project/slow-b' && /not run|past/.test(s.detail)
      ),
    );
  } finally {
    await cleanup();
  }
});

test('nested counted repetitions are refused by their unrolled size, before any analysis, the same way every time', () => {
  assert.equal(unrolledSize('a{1000}'), 1000);
  assert.equal(unrolledSize('(a{1,1000}){1,1000}b'), 1_000_001);
  assert.equal(unrolledSize('[{}]{3}\\{5\\}'), 6);
  assert.ok(unrolledSize('\\bfetch\\(') < 20);
  const verdicts = [1, 2, 3].map(() => analyzePattern('(a{1,1000}){1,1000}b', ''));
  for (const v of verdicts) {
    assert.equal(v.ok, false);
    assert.match(v.message!, /unroll to about 1,000,001 steps/);
  }
});

test('a committed rule with nested counted repetitions cannot hang guard_check: refused at load, a 50,000-character input answers at once', async () => {
  const { ws, cleanup } = await guardWorkspace({
    '.autosnippet/guard/rules.json': rulesFile([
      { id: 'project/nested', regex: '(a{1,1000}){1,1000}b' },
      { id: 'project/ok', regex: '\\bfetch\\(' },
    ]),
  });
  const engine = new GuardEngine(ws);
  try {
    assert.deepEqual((await engine.problems()).map((p) => [p.code, p.ruleId]), [['UNSAFE_PATTERN', 'project/nested']]);
    const t0 = performance.now();
    const res = await engine.check(`let ${'a'.repeat(50_000)} = b;\nfetch(u);\n`, 'typescript');
    assert.ok(performance.now() - t0 < 2000, `the check took ${performance.now() - t0} ms`);
    assert.deepEqual(res.violations.map((v) => v.ruleId), ['project/ok']);
  } finally {
    await engine.dispose();
    await cleanup();
  }
});
