import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GuardEngine } from '../../src/core/guard/engine';
import { analyzePattern, checkPatternSyntax } from '../../src/core/guard/regex-safety';
import { TimeBudget } from '../../src/core/guard/budget';
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
    assert.match(problems[0].message, /project\/redos: The pattern can backtrack catastrophically \(exponential time\)/);
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

test('a slow pattern is stopped by the time budget, reported, and benched for that document', async () => {
  // Quadratic: allowed by the analysis, but about 7 s on a 50,000-letter word without the budget.
  const { ws, cleanup } = await guardWorkspace({
    '.autosnippet/guard/rules.json': rulesFile([{ id: 'project/slow', regex: '[a-z]+\\d' }, { id: 'project/after', regex: '\\bfetch\\(' }]),
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
    assert.deepEqual(res.violations.map((v) => v.ruleId).sort(), ['project/after', 'ts/no-eval'], 'the other rules still ran');
    const again = await engine.check(text + '\n', 'typescript', { documentKey: 'big.ts', incremental: true });
    assert.match(again.stopped[0].detail, /skipped on this document/);
    assert.ok(again.elapsedMs < 1000, `benched re-check took ${again.elapsedMs} ms (it would run about 7 s, or the 100 ms budget, if not benched)`);
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
    '.autosnippet/guard/rules.json': rulesFile([{ id: 'project/slow', regex: '[a-z]+\\d' }, { id: 'project/after', regex: '\\bfetch\\(' }]),
    // Ordinary code first, so the file does not look minified (minified files are not checked).
    'src/big.ts': `${Array.from({ length: 300 }, (_, i) => `const x${i} = ${i};`).join('\n')}\nfetch(u);\n${'a'.repeat(60_000)}\n`,
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
    assert.deepEqual(scan.violations.map((v) => `${v.path}:${v.ruleId}`).sort(), ['src/big.ts:project/after', 'src/small.ts:ts/no-eval']);
  } finally {
    await engine.dispose();
    await cleanup();
  }
});
