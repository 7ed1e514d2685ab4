// Marking one guard finding reviewed (intended code, with the reason a person gave): the CLI, the
// catalog tool (people only), SARIF, the baseline written again, moved lines, and two processes at once.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { createCatalog } from '../../src/core/catalog';
import { BASELINE_FILE, type BaselineFile, markReviewed, readBaseline } from '../../src/core/domains/guard/baseline';
import { guardWorkspace, runGuardCli, writeFiles } from './guard-helpers';

/** From the workspace folder, as a person in a terminal there. */
const run = (root: string, args: string[]) => runGuardCli(root, args, root);

const baselineOf = (root: string) => JSON.parse(readFileSync(path.join(root, BASELINE_FILE), 'utf8')) as BaselineFile;

// flask's config loader (src/flask/config.py, BSD-3-Clause): exec of a file the user names is the feature.
const CONFIG = [
  'def from_pyfile(filename):',
  '    d = {}',
  '    with open(filename, mode="rb") as config_file:',
  '        exec(compile(config_file.read(), filename, "exec"), d)',
  '    return d',
  '',
  'def evaluate(text):',
  '    return eval(text)',
  '',
].join('\n');

test('a finding marked reviewed with a reason no longer fails the run, stays recognised when lines move, and SARIF says why', async () => {
  const { root, cleanup } = await guardWorkspace({ 'src/config.py': CONFIG });
  try {
    const before = await run(root, []);
    assert.equal(before.code, 1, 'two py/no-eval errors fail the run');
    assert.match(before.stdout, /2 problems \(2 errors/);

    // The line must carry a finding of that rule; the error names what the line has.
    const wrongRule = await run(root, ['--review', 'src/config.py:4', '--rule', 'py/bare-except', '--reason', 'x']);
    assert.equal(wrongRule.code, 2);
    assert.match(
      wrongRule.stderr,
      /no py\/bare-except finding on line 4 of src\/config\.py[\s\S]*That line has: py\/no-eval/,
    );
    const noReason = await run(root, ['--review', 'src/config.py:4', '--rule', 'py/no-eval', '--reason', '  ']);
    assert.equal(noReason.code, 2);
    assert.match(noReason.stderr, /--review needs --reason/);

    const marked = await run(root, [
      '--review',
      'src/config.py:4',
      '--rule',
      'py/no-eval',
      '--reason',
      'Loading the config file the user names is the feature, as runpy does.',
    ]);
    assert.equal(marked.code, 0, marked.stderr);
    assert.match(
      marked.stdout,
      /Marked py\/no-eval at src\/config\.py:4 reviewed in \.autosnippet\/guard\/baseline\.json/,
    );
    const b = baselineOf(root);
    assert.deepEqual(Object.keys(b.files), [], 'nothing is baselined');
    assert.equal(
      b.reviewed?.['src/config.py']?.[0].reason,
      'Loading the config file the user names is the feature, as runpy does.',
    );

    const after = await run(root, []);
    assert.equal(after.code, 1, 'the other eval still fails');
    assert.match(after.stdout, /1 new problem \(1 error/);
    assert.match(after.stdout, /1 finding marked reviewed not shown/);
    assert.doesNotMatch(after.stdout, /config\.py\n\s+4:/, 'the reviewed line is not listed');

    // Lines added above: the mark follows the code, not the line number.
    writeFiles(root, { 'src/config.py': `import os\n\n${CONFIG}` });
    const sarif = await run(root, ['-f', 'sarif']);
    const results = (JSON.parse(sarif.stdout) as {
      runs: {
        results: {
          ruleId: string;
          baselineState?: string;
          suppressions?: { kind: string; justification: string }[];
          locations: { physicalLocation: { region: { startLine: number } } }[];
        }[];
      }[];
    }).runs[0].results;
    const reviewed = results.find((r) => r.locations[0].physicalLocation.region.startLine === 6);
    assert.equal(reviewed?.baselineState, 'unchanged');
    assert.deepEqual(reviewed?.suppressions?.map((s) => [s.kind, s.justification]), [[
      'external',
      'Loading the config file the user names is the feature, as runpy does.',
    ]]);
    const fresh = results.find((r) => r.locations[0].physicalLocation.region.startLine === 10);
    assert.equal(fresh?.baselineState, 'new');
    assert.equal(fresh?.suppressions, undefined);

    // Writing the baseline records the other finding and keeps the reviewed one as reviewed.
    const written = await run(root, ['--baseline', 'write']);
    assert.equal(written.code, 0, written.stderr);
    assert.match(written.stdout, /Recorded 1 finding/);
    const rewritten = baselineOf(root);
    assert.equal(rewritten.files['src/config.py']?.length, 1);
    assert.match(rewritten.files['src/config.py'][0].text, /eval\(text\)/);
    assert.equal(rewritten.reviewed?.['src/config.py']?.length, 1);
    assert.equal((await run(root, [])).code, 0);

    // Marking the baselined one moves it out of the baseline (it is not reported gone), and marking
    // a reviewed one again replaces its reason.
    assert.equal(
      (await run(root, ['--review', 'src/config.py:10', '--rule', 'py/no-eval', '--reason', 'Test helper.'])).code,
      0,
    );
    const again = await run(root, [
      '--review',
      'src/config.py:10',
      '--rule',
      'py/no-eval',
      '--reason',
      'Only called by the REPL command, on what the user typed.',
    ]);
    assert.match(again.stdout, /Replaced the reason of py\/no-eval at src\/config\.py:10/);
    const last = baselineOf(root);
    assert.deepEqual(last.files, {});
    assert.deepEqual(last.reviewed?.['src/config.py'].map((e) => [e.count, e.reason]), [
      [1, 'Loading the config file the user names is the feature, as runpy does.'],
      [1, 'Only called by the REPL command, on what the user typed.'],
    ]);
    const clean = await run(root, []);
    assert.equal(clean.code, 0);
    assert.doesNotMatch(clean.stdout, /gone/);

    // The code is fixed: the next baseline drops the mark that no longer matches anything.
    writeFiles(root, { 'src/config.py': `import os\n\n${CONFIG.replace('return eval(text)', 'return int(text)')}` });
    assert.equal((await run(root, ['--baseline', 'write'])).code, 0);
    assert.deepEqual(baselineOf(root).reviewed?.['src/config.py'].map((e) => e.reason), [
      'Loading the config file the user names is the feature, as runpy does.',
    ]);
  } finally {
    await cleanup();
  }
});

test('marking reviewed is for people: an agent is refused and audited; a reason over 500 characters or a broken baseline file is a clear error that loses nothing', async () => {
  const { ws, root, cleanup } = await guardWorkspace({ 'src/config.py': CONFIG });
  try {
    const catalog = createCatalog();
    const input = { path: 'src/config.py', line: 8, ruleId: 'py/no-eval', reason: 'The agent thinks it is fine.' };
    const refused = await catalog.invoke(ws, 'mark_guard_finding_reviewed', input, {
      actor: 'external_agent',
      channel: 'test',
    });
    assert.ok(!refused.ok && refused.error.code === 'PERMISSION_DENIED', JSON.stringify(refused).slice(0, 300));
    assert.equal((await run(root, [])).code, 1, 'the finding still fails the run');
    const log = await catalog.invoke(
      ws,
      'query_audit_log',
      { action: 'mark_guard_finding_reviewed' },
      { actor: 'human', channel: 'test' },
    );
    assert.ok(log.ok);
    assert.deepEqual(
      (log.data as { entries: { actor: string; result: string }[] }).entries.map((e) => `${e.actor}:${e.result}`),
      ['external_agent:denied'],
    );

    const tooLong = await catalog.invoke(
      ws,
      'mark_guard_finding_reviewed',
      { ...input, reason: 'x'.repeat(501) },
      { actor: 'human', channel: 'test' },
    );
    assert.ok(!tooLong.ok && tooLong.error.code === 'INVALID_INPUT', JSON.stringify(tooLong).slice(0, 300));

    // Unsaved text: the finding is looked for in the code given, not on disk.
    const unsaved = await catalog.invoke(
      ws,
      'mark_guard_finding_reviewed',
      { ...input, line: 9, code: `\n${CONFIG}` },
      { actor: 'human', channel: 'test' },
    );
    assert.ok(unsaved.ok, JSON.stringify(unsaved).slice(0, 300));
    // The same line on disk (one line up) is that finding: an agent auditing the file sees the person's reason.
    const audit = await catalog.invoke(
      ws,
      'guard_audit_files',
      { paths: ['src/config.py'] },
      { actor: 'external_agent', channel: 'test' },
    );
    assert.ok(audit.ok, JSON.stringify(audit).slice(0, 300));
    const data = audit.data as {
      baseline: { new: number; unchanged: number; reviewed: number };
      violations: { start: { line: number }; baselineState: string; reviewed?: string }[];
    };
    assert.deepEqual([data.baseline.new, data.baseline.unchanged, data.baseline.reviewed], [1, 1, 1]);
    assert.deepEqual(data.violations.map((v) => [v.start.line, v.baselineState, v.reviewed]), [
      [4, 'new', undefined],
      [8, 'unchanged', 'The agent thinks it is fine.'],
    ]);

    const broken = '{"version": 1, "files": {"a.py": [{"rule": "x"}]}}';
    writeFiles(root, { [BASELINE_FILE]: broken });
    const refusedBroken = await catalog.invoke(
      ws,
      'mark_guard_finding_reviewed',
      { ...input, reason: 'ok' },
      { actor: 'human', channel: 'test' },
    );
    assert.ok(
      !refusedBroken.ok && refusedBroken.error.code === 'INVALID_BASELINE',
      'a broken baseline is not overwritten',
    );
    assert.match(refusedBroken.error.message, /entries of "a\.py" need rule, fingerprint/);
    assert.equal(readFileSync(path.join(root, BASELINE_FILE), 'utf8'), broken);
  } finally {
    await cleanup();
  }
});

test('two processes marking findings at once both land (the baseline file is written under a lock)', async () => {
  const { root, cleanup } = await guardWorkspace({});
  try {
    const script = path.join(root, 'mark.ts');
    const lib = path.resolve(__dirname, '../../src/core/domains/guard/baseline.ts');
    writeFileSync(
      script,
      [
        `import { markReviewed } from ${JSON.stringify(lib)};`,
        'const [root, tag] = process.argv.slice(2);',
        'for (let i = 0; i < 40; i++) markReviewed(root, { path: `src/${tag}.py`, rule: "py/no-eval", fingerprint: `${tag}-${i}`, line: i + 1, lineText: "eval(x)" }, `reason ${tag} ${i}`);',
      ].join('\n'),
    );
    const child = (tag: string) => new Promise<number>((resolve, reject) => {
      const p = spawn(process.execPath, ['--import', 'tsx', script, root, tag], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      p.stderr.on('data', (d) => (err += d));
      p.on('error', reject);
      p.on('exit', (code) => (code === 0 ? resolve(code) : reject(new Error(`marker ${tag} exited ${code}: ${err}`))));
    });
    await Promise.all([child('a'), child('b'), child('c')]);
    const read = readBaseline(root);
    assert.ok(read.ok);
    for (const tag of ['a', 'b', 'c']) {
      assert.equal(read.baseline.reviewed?.[`src/${tag}.py`]?.length, 40, `every mark of ${tag} is there`);
    }
    // A lock left by a process that died is taken over once stale; a live one makes a clear error.
    const lock = path.join(root, `${BASELINE_FILE}.lock`);
    const target = { path: 'src/d.py', rule: 'py/no-eval', fingerprint: 'd', line: 1, lineText: 'eval(x)' };
    writeFileSync(lock, '');
    assert.throws(() => markReviewed(root, target, 'r'), /being written by another process/);
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    markReviewed(root, target, 'r');
    const after = readBaseline(root);
    assert.ok(after.ok && after.baseline.reviewed?.['src/d.py']?.length === 1);
    assert.ok(!existsSync(lock), 'the lock is released');
  } finally {
    await cleanup();
  }
});
