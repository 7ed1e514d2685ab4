import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { guardEngine } from '../../src/core/domains/guard';
import { applyFixes } from '../../src/core/domains/guard/fix';
import { builtinRules } from '../../src/core/domains/guard/packs';
import type { GuardRule } from '../../src/core/domains/guard/rule';
import { RuleRunner } from '../../src/core/domains/guard/runner';
import { maskText } from '../../src/core/ground/text/mask';
import { allBuiltinsOn, guardWorkspace, rulesFile } from './guard-helpers';

const builtins = builtinRules();
// The rules that are off by default are on here (ts/await-in-loop aside, which a test below turns on).
const { 'ts/await-in-loop': _loop, ...everyRule } = allBuiltinsOn(builtins);
const runner = new RuleRunner(builtins, { severityOverrides: everyRule, ruleExclusions: [] });
const ids = (code: string, language = 'typescript') => runner.checkText(code, language).violations.map((v) => v.ruleId);

test('masking blanks comments and strings but keeps offsets and delimiters', () => {
  const src = 'a = "eval(x)"; // eval(y)\nb = `t ${eval(z)} u`; /* eval(w) */ c = /"/.test(s) ? "x" : eval(v);';
  const m = maskText(src, 'typescript');
  assert.equal(m.code.length, src.length);
  assert.equal(m.code.split('\n').length, 2);
  assert.equal((m.code.match(/eval\(/g) ?? []).length, 2, m.code); // the template expression and the last call
  assert.ok(m.code.includes('//'), 'comment delimiter kept');
  const py = maskText('x = """eval(1)\n"""  # eval(2)\ny = eval(3)', 'python');
  assert.equal((py.code.match(/eval\(/g) ?? []).length, 1);
  const go = maskText("s := `eval(1)\n`\nr := '\"'\nq := eval(2)", 'go');
  assert.equal((go.code.match(/eval\(/g) ?? []).length, 1, go.code);
  const rs = maskText('fn f<\'a>(x: &\'a str) { let s = r#"unwrap()"#; x.unwrap() }', 'rust');
  assert.equal((rs.code.match(/unwrap\(\)/g) ?? []).length, 1, rs.code);
  const sw = maskText('/* outer /* nested */ still comment try! x */ let y = try! f()', 'swift');
  assert.equal((sw.code.match(/try!/g) ?? []).length, 1, sw.code);
});

test('rules do not match inside comments or strings by default', () => {
  assert.deepEqual(ids('const s = "eval(x)";\n// eval(y)\n/* eval(z) */\n'), []);
  assert.deepEqual(ids('const r = eval(x);'), ['ts/no-eval']);
  assert.deepEqual(ids('s = "time.sleep(1)"\n# eval(1)\n', 'python'), []);
  assert.deepEqual(ids('let s = "x as! Y"\n// try! f()\n', 'swift'), []);
  // A comment inside an otherwise empty catch means "ignored on purpose".
  assert.deepEqual(ids('try { f(); } catch (e) { /* optional */ }'), []);
});

test('scope any/comments/strings see what code scope does not', () => {
  const rules: GuardRule[] = [
    {
      id: 'p/todo',
      message: 'todo',
      severity: 'info',
      languages: ['*'],
      pattern: { kind: 'regex', regex: 'TODO', scope: 'comments' },
      why: 'w',
      suggestion: 's',
      origin: 'project',
      source: 't',
    },
    {
      id: 'p/http',
      message: 'http',
      severity: 'info',
      languages: ['*'],
      pattern: { kind: 'regex', regex: 'http://', scope: 'strings' },
      why: 'w',
      suggestion: 's',
      origin: 'project',
      source: 't',
    },
  ];
  const r = new RuleRunner(rules, { severityOverrides: {}, ruleExclusions: [] });
  const v = r.checkText('const TODO = "http://x"; // TODO http://y\n', 'typescript').violations;
  assert.deepEqual(v.map((x) => `${x.ruleId}@${x.start.column}`), ['p/http@15', 'p/todo@29']);
});

test('violations carry 1-based ranges, matched text, why and suggestion', () => {
  const [v] = runner.checkText('const a = 1;\n  const b = eval(x);\n', 'typescript').violations;
  assert.equal(v.ruleId, 'ts/no-eval');
  assert.deepEqual([v.start, v.end], [{ line: 2, column: 13 }, { line: 2, column: 18 }]);
  assert.equal(v.matchedText, 'eval(');
  assert.ok(v.why.includes('injection') && v.suggestion.includes('JSON.parse'));
});

test('fixes are applied to the text, with groups taken from the raw text', async () => {
  const ts = 'const n = map.get(key)!.length + list[0]![1];';
  await runner.prepare('typescript');
  const res = runner.checkText(ts, 'typescript');
  assert.equal(applyFixes(ts, res.violations).text, 'const n = map.get(key)?.length + list[0]?.[1];');
  const objc = '@property (nonatomic, strong) id<LoaderDelegate> delegate;';
  assert.equal(
    applyFixes(objc, runner.checkText(objc, 'objective-c').violations).text,
    '@property (nonatomic, weak) id<LoaderDelegate> delegate;',
  );
  const py = 'try:\n    run()\n  except:\n    log()\n';
  const fixed = applyFixes(py, runner.checkText(py, 'python').violations);
  assert.equal(fixed.text, 'try:\n    run()\n  except Exception:\n    log()\n');
  assert.equal(fixed.applied, 1);
});

test('inline disables silence the named rule on the next line only, and only from comments', () => {
  const code = [
    '// autosnippet-guard-disable-next-line ts/no-eval -- trusted input',
    'eval(a);',
    'eval(b);',
    '// autosnippet-guard-disable-next-line ts/no-debugger',
    'eval(c);',
    '/* autosnippet-guard-disable-next-line */',
    'eval(d); debugger;',
    'const s = "autosnippet-guard-disable-next-line ts/no-eval";',
    'eval(e); // autosnippet-guard-disable-line ts/no-eval',
    'eval(f);',
  ].join('\n');
  const lines = runner.checkText(code, 'typescript').violations.map((v) => v.start.line);
  assert.deepEqual(lines, [3, 5, 10]);
  const py = '# autosnippet-guard-disable-next-line py/no-eval\nx = eval(t)\ny = eval(t)\n';
  assert.deepEqual(runner.checkText(py, 'python').violations.map((v) => v.start.line), [3]);
});

test('combined rules find exactly what each rule finds alone', () => {
  const regexRules = new Set(builtins.filter((r) => r.pattern.kind === 'regex').map((r) => r.id));
  const corpus = [
    'const x = eval(a) + new Function("b")(); items.forEach(async (i) => { await f(i); });',
    'try { a!.b; c![0]; } catch (e) {} debugger; el.innerHTML = s; fs.readFileSync(p); y as any; console.log(1)',
    'setTimeout("x()", 1); eval(eval(1)); a!.b!.c!.d',
  ].join('\n').repeat(20);
  const combined = runner.checkText(corpus, 'typescript').violations.filter((v) => regexRules.has(v.ruleId)).map((v) =>
    `${v.ruleId}@${v.startOffset}-${v.endOffset}`
  ).sort();
  const alone = builtins
    .filter((r) => r.pattern.kind === 'regex' && (r.languages.includes('typescript') || r.languages.includes('*')))
    .flatMap((r) =>
      new RuleRunner([{ ...r, origin: 'project' }], { severityOverrides: everyRule, ruleExclusions: [] }).checkText(
        corpus,
        'typescript',
      ).violations
    )
    .map((v) => `${v.ruleId}@${v.startOffset}-${v.endOffset}`).sort();
  assert.ok(combined.length > 100);
  assert.deepEqual(combined, alone);
});

test('an incremental re-check after edits gives the same result as a full check', async () => {
  const lines: string[] = [];
  for (let i = 0; i < 600; i++) {
    lines.push(
      i % 17 === 0
        ? `const v${i} = eval(x${i});`
        : i % 23 === 0
        ? `try { f(); } catch (e) {}`
        : `const v${i} = x${i} + 1; // note ${i}`,
    );
  }
  let text = lines.join('\n');
  const doc = new RuleRunner(builtins, { severityOverrides: everyRule, ruleExclusions: [] });
  await doc.prepare('typescript');
  await runner.prepare('typescript');
  doc.checkText(text, 'typescript', { documentKey: 'doc', incremental: true, budgetMs: 10_000 });
  const edits: ((t: string) => string)[] = [
    (t) => t.replace('x300 + 1', 'eval(x300) + 1'),
    (t) => t.replace('const v100 = x100', 'const v100 = m.get(k)!.x'),
    (t) => t.replace('// note 200', '/* open comment'), // changes masking to the end of the file
    (t) => t.replace('/* open comment', '// closed again'),
    (t) => t.slice(0, 50) + '\n\n\n' + t.slice(50),
    (t) => t.replace(/eval\(x51\);/, ''),
  ];
  for (const edit of edits) {
    text = edit(text);
    // A generous budget: a busy machine must not make either check incomplete.
    const inc =
      doc.checkText(text, 'typescript', { documentKey: 'doc', incremental: true, budgetMs: 10_000 }).violations;
    const full = runner.checkText(text, 'typescript', { budgetMs: 10_000 }).violations;
    assert.deepEqual(inc.map((v) => [v.ruleId, v.start, v.end]), full.map((v) => [v.ruleId, v.start, v.end]));
  }
});

test('rules that are off by default run only when a severity override turns them on', async () => {
  const loop = 'async function f(ids) {\n  for (const id of ids) {\n    await load(id);\n  }\n}\n';
  assert.deepEqual(runner.checkText(loop, 'javascript').violations, []);
  const on = new RuleRunner(builtins, { severityOverrides: { 'ts/await-in-loop': 'warning' }, ruleExclusions: [] });
  await on.prepare('javascript');
  assert.deepEqual(on.checkText(loop, 'javascript').violations.map((v) => [v.ruleId, v.severity, v.start.line]), [[
    'ts/await-in-loop',
    'warning',
    3,
  ]]);
});

test('a Go error assigned to _ is reported only when the team opts in, as errcheck reports it only with check-blank', async () => {
  const go = 'package p\n\nfunc f(s string) int64 {\n\tn, _ := strconv.ParseInt(s, 10, 64)\n\treturn n\n}\n';
  const defaults = new RuleRunner(builtins, { severityOverrides: {}, ruleExclusions: [] });
  await defaults.prepare('go');
  assert.deepEqual(defaults.checkText(go, 'go').violations, []);
  const on = new RuleRunner(builtins, { severityOverrides: { 'go/discarded-error': 'warning' }, ruleExclusions: [] });
  await on.prepare('go');
  assert.deepEqual(on.checkText(go, 'go').violations.map((v) => [v.ruleId, v.start.line]), [['go/discarded-error', 4]]);
});

test('severity overrides change severity and "off" removes the rule', () => {
  const r = new RuleRunner(builtins, {
    severityOverrides: { 'ts/no-eval': 'info', 'ts/no-debugger': 'off' },
    ruleExclusions: [],
  });
  const v = r.checkText('eval(x); debugger;', 'typescript').violations;
  assert.deepEqual(v.map((x) => [x.ruleId, x.severity]), [['ts/no-eval', 'info']]);
});

test('exclusions: settings and project globs skip files; rule exclusions and include/exclude scope rules', async () => {
  const { ws, cleanup } = await guardWorkspace(
    {
      'src/a.ts': 'eval(x); console.log(1);',
      'scripts/b.ts': 'eval(x); console.log(1);',
      'vendor/c.ts': 'eval(x);',
      'gen/d.ts': 'eval(x);',
      'src/api/e.ts': 'fetch(url);',
      'src/f.ts': 'fetch(url);',
      '.autosnippet/guard/rules.json': rulesFile(
        [{ id: 'project/no-fetch', regex: '\\bfetch\\(', exclude: ['src/api/**'] }],
        { exclude: ['vendor/**'], ruleExclusions: [{ rule: 'ts/no-console-log', paths: ['scripts/**'] }] },
      ),
    },
    { guard: { exclude: ['gen'], severityOverrides: { 'ts/no-console-log': 'hint' } } },
  );
  try {
    const engine = guardEngine(ws);
    const scan = await engine.scan();
    const got = scan.violations.map((v) => `${v.path}:${v.ruleId}`).sort();
    assert.deepEqual(got, [
      'scripts/b.ts:ts/no-eval',
      'src/a.ts:ts/no-console-log',
      'src/a.ts:ts/no-eval',
      'src/f.ts:project/no-fetch',
    ]);
    const excluded = await engine.check('eval(x)', 'typescript', { path: 'vendor/z.ts' });
    assert.equal(excluded.violations.length, 0);
  } finally {
    await cleanup();
  }
});

test('workspace scans honour .gitignore (nested too), run on worker threads, report progress and can be cancelled', async () => {
  const files: Record<string, string> = {
    '.gitignore': 'build/\n*.gen.ts\n',
    'pkg/.gitignore': 'local.ts\n',
    'pkg/local.ts': 'eval(1);',
    'pkg/kept.ts': 'eval(1);',
    'build/out.ts': 'eval(1);',
    'x.gen.ts': 'eval(1);',
    'node_modules/dep/index.js': 'eval(1);',
    'README.md': 'eval(1)',
  };
  for (let i = 0; i < 60; i++) files[`many/f${i}.py`] = 'x = eval(t)\n';
  const { ws, cleanup } = await guardWorkspace(files);
  try {
    const engine = guardEngine(ws);
    const progress: number[] = [];
    const scan = await engine.scan({ progress: (p) => progress.push(p.done) });
    assert.equal(scan.threaded, true, 'the scan ran on worker threads');
    assert.deepEqual([...new Set(scan.violations.map((v) => v.path))].filter((p) => !p!.startsWith('many/')), [
      'pkg/kept.ts',
    ]);
    assert.equal(scan.files, 61);
    assert.equal(progress.at(-1), 61);
    const explicit = await engine.scan({ paths: ['pkg/local.ts'] });
    assert.equal(explicit.violations.length, 1, 'a file named explicitly is checked even if ignored');

    engine.invalidate(); // drop the per-file cache so the scan has work to cancel
    const ac = new AbortController();
    const pending = engine.scan({ signal: ac.signal });
    ac.abort();
    await assert.rejects(pending, { code: 'CANCELLED' });
  } finally {
    await cleanup();
  }
});

test('in an untrusted workspace project rules do not run; built-in rules do', async () => {
  const { ws, cleanup } = await guardWorkspace(
    { '.autosnippet/guard/rules.json': rulesFile([{ id: 'project/no-fetch', regex: '\\bfetch\\(' }]) },
    { trusted: false },
  );
  try {
    const engine = guardEngine(ws);
    const res = await engine.check('fetch(u); eval(x);', 'typescript');
    assert.deepEqual(res.violations.map((v) => v.ruleId), ['ts/no-eval']);
    const st = await engine.rule('project/no-fetch');
    assert.equal(st.active, false);
    assert.match(st.reason!, /not trusted/);
    ws.updateSettings({ trusted: true });
    const trusted = await engine.check('fetch(u); eval(x);', 'typescript');
    assert.deepEqual(trusted.violations.map((v) => v.ruleId).sort(), ['project/no-fetch', 'ts/no-eval']);
  } finally {
    await cleanup();
  }
});

test('structural project rules (tree-sitter queries) run and bad queries are refused', async () => {
  const { ws, cleanup } = await guardWorkspace({
    '.autosnippet/guard/rules.json': rulesFile([
      {
        id: 'project/no-class-in-test',
        languages: ['typescript'],
        query: '(class_declaration name: (type_identifier) @match)',
      },
      { id: 'project/bad-query', languages: ['typescript'], query: '(no_such_node) @match' },
      { id: 'project/swift-query', languages: ['swift'], query: '(class_declaration) @match' },
    ]),
  });
  try {
    const engine = guardEngine(ws);
    const res = await engine.check('class Foo {}\nconst x = 1;\n', 'typescript');
    assert.deepEqual(res.violations.map((v) => [v.ruleId, v.matchedText, v.start.line]), [[
      'project/no-class-in-test',
      'Foo',
      1,
    ]]);
    const problems = await engine.problems();
    assert.deepEqual(problems.map((p) => [p.ruleId, p.code]).sort(), [
      ['project/bad-query', 'INVALID_RULE'],
      ['project/swift-query', 'INVALID_RULE'],
    ]);
  } finally {
    await cleanup();
  }
});

test('rules from another source (recipes) are added and validated like project rules', async () => {
  const { ws, cleanup } = await guardWorkspace({});
  try {
    const { setGuardRuleSource } = await import('../../src/core/domains/guard/index.js');
    setGuardRuleSource(ws, 'recipe:networking', [{
      id: 'recipe/no-fetch',
      message: 'Use apiClient',
      languages: ['typescript'],
      regex: '\\bfetch\\(',
      why: 'w',
      suggestion: 's',
    }]);
    const res = await guardEngine(ws).check('fetch(u)', 'typescript');
    assert.deepEqual(res.violations.map((v) => [v.ruleId, v.message]), [['recipe/no-fetch', 'Use apiClient']]);
    assert.equal((await guardEngine(ws).rule('recipe/no-fetch')).rule.origin, 'recipe');
  } finally {
    await cleanup();
  }
});

test('structural rules see the whole text, not just its first half (query windows are in UTF-16 bytes)', async () => {
  const filler = Array.from({ length: 200 }, (_, i) => `\tx${i} := ${i}`).join('\n');
  const go =
    `package p\n\nfunc f(paths []string) {\n${filler}\n\tfor _, p := range paths {\n\t\tfh, _ := os.Open(p)\n\t\tdefer fh.Close()\n\t}\n}\n`;
  await runner.prepare('go');
  const found = runner.checkText(go, 'go').violations.filter((v) => v.ruleId === 'go/defer-in-loop');
  assert.deepEqual(found.map((v) => v.start.line), [206]);
});

test('a FIFO named explicitly is reported once among the skipped files, and the scan answers', async () => {
  const { ws, root, cleanup } = await guardWorkspace({ 'src/a.ts': 'export const a = 1;\n' });
  try {
    assert.equal(spawnSync('mkfifo', [path.join(root, 'src/pipe.ts')]).status, 0);
    for (const paths of [['src/pipe.ts'], ['src'], ['src/pipe.ts', 'src']]) {
      const scan = await guardEngine(ws).scan({ paths });
      assert.deepEqual(scan.skipped.map((s) => s.path), ['src/pipe.ts'], JSON.stringify(paths));
      assert.match(scan.skipped[0].reason, /FIFO/);
    }
  } finally {
    await cleanup();
  }
});
