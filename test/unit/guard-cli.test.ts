import Ajv04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { createCatalog } from '../../src/core/catalog';
import { guardWorkspace, rulesFile, runGuardCli, writeFiles } from './guard-helpers';

const run = (root: string, args: string[], cwd?: string) => runGuardCli(root, args, cwd);

const files = {
  // The team opts in to the non-null rule, off by default (as in typescript-eslint's recommended config).
  '.autosnippet/guard/team.json': JSON.stringify({ severity: { 'ts/no-non-null-assertion': 'warning' } }),
  'src/clean.ts': 'export const a = 1;\n',
  'src/warn.ts': 'export const n = m.get(k)!.length;\ntry { f(); } catch (e) {}\n',
  'src/error.py': 'value = eval(text)\n',
};

test('exit codes follow ESLint: 0 clean, 1 errors or too many warnings, 2 usage or configuration error', async () => {
  const { root, cleanup } = await guardWorkspace(files);
  try {
    const clean = await run(root, [path.join(root, 'src/clean.ts')]);
    assert.equal(clean.code, 0, clean.stderr);
    assert.match(clean.stdout, /✔ 0 problems/);

    const warnings = await run(root, [path.join(root, 'src/warn.ts')]);
    assert.equal(warnings.code, 0, 'warnings alone do not fail without --max-warnings');
    assert.equal((await run(root, [path.join(root, 'src/warn.ts'), '--max-warnings', '2'])).code, 0);
    const over = await run(root, [path.join(root, 'src/warn.ts'), '--max-warnings', '1']);
    assert.equal(over.code, 1);
    assert.match(over.stderr, /2 warnings, more than --max-warnings 1/);

    const errors = await run(root, []);
    assert.equal(errors.code, 1);
    assert.match(errors.stdout, /src\/error\.py\n {2}1:9 +error +eval\/exec runs a string as code\. +py\/no-eval/);
    assert.match(errors.stdout, /✖ 3 problems \(1 error, 2 warnings, 0 info, 0 hints\) in 3 files/);

    assert.equal((await run(root, ['--format', 'xml'])).code, 2);
    assert.equal((await run(root, ['--max-warnings'])).code, 2);
    assert.equal((await run(root, ['--bogus'])).code, 2);
    assert.equal((await run(root, ['/'])).code, 2, 'a path outside the workspace is a usage error');
    const help = await run(root, ['-h']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage: autosnippet guard/);

    writeFiles(root, { '.autosnippet/guard/bad.json': rulesFile([{ id: 'project/redos', regex: '(a|a)+b' }]) });
    const config = await run(root, []);
    assert.equal(config.code, 2);
    assert.match(config.stderr, /configuration error: project\/redos: The pattern can backtrack catastrophically/);
  } finally {
    await cleanup();
  }
});

test('--format json lists every violation with its range, why and suggestion', async () => {
  const { root, cleanup } = await guardWorkspace(files);
  try {
    const r = await run(root, ['--format', 'json']);
    assert.equal(r.code, 1);
    const report = JSON.parse(r.stdout);
    assert.deepEqual(report.counts, { error: 1, warning: 2, info: 0, hint: 0 });
    const v = report.violations.find((x: { ruleId: string }) => x.ruleId === 'ts/no-non-null-assertion');
    assert.deepEqual(
      [v.path, v.start, v.end, v.matchedText, v.fix],
      ['src/warn.ts', { line: 1, column: 26 }, { line: 1, column: 27 }, '!', '?'],
    );
    assert.ok(v.why && v.suggestion);
  } finally {
    await cleanup();
  }
});

test('--format sarif is valid SARIF 2.1.0 (checked against the published schema)', async () => {
  const { root, cleanup } = await guardWorkspace(files);
  try {
    const out = path.join(root, 'guard.sarif');
    const r = await run(root, ['--format=sarif', '-o', out]);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '', 'the report went to the file');
    const sarif = JSON.parse(readFileSync(out, 'utf8')) as any;
    const schema = JSON.parse(readFileSync(path.join(__dirname, '../fixtures/sarif/sarif-2.1.0-rtm.5.json'), 'utf8'));
    // The schema's language pattern is not valid with the u flag, so patterns compile without it.
    const ajv = new Ajv04({ allErrors: true, strict: false, unicodeRegExp: false });
    addFormats(ajv);
    const validate: ((d: unknown) => boolean) & { errors?: unknown[] | null } = ajv.compile(schema);
    assert.ok(validate(sarif), JSON.stringify(validate.errors?.slice(0, 5), null, 2));
    const run0 = sarif.runs[0];
    assert.equal(sarif.version, '2.1.0');
    assert.equal(run0.results.length, 3);
    const result = run0.results.find((x: { ruleId: string }) => x.ruleId === 'py/no-eval');
    assert.equal(result.level, 'error');
    assert.equal(run0.tool.driver.rules[result.ruleIndex].id, 'py/no-eval');
    assert.deepEqual(result.locations[0].physicalLocation.artifactLocation, {
      uri: 'src/error.py',
      uriBaseId: 'SRCROOT',
    });
    assert.equal(result.locations[0].physicalLocation.region.startLine, 1);
    const withFix = run0.results.find((x: { ruleId: string }) => x.ruleId === 'ts/no-non-null-assertion');
    assert.equal(withFix.fixes[0].artifactChanges[0].replacements[0].insertedContent.text, '?');
    // The schema must actually reject a broken log, or the check above proves nothing.
    assert.equal(validate({ ...sarif, runs: [{ ...run0, results: [{ ...result, level: 'fatal' }] }] }), false);
  } finally {
    await cleanup();
  }
});

test('relative paths are read like ESLint reads them: from the current folder inside the workspace, else from the workspace', async () => {
  const { root, cleanup } = await guardWorkspace({ ...files, 'src/lib/error.py': 'value = eval(text)\n' });
  try {
    // `autosnippet -w repo guard src` run from a folder outside the workspace checks repo/src.
    const outside = await run(root, ['src', '--format', 'json'], os.tmpdir());
    assert.equal(outside.code, 1, outside.stderr);
    assert.deepEqual(JSON.parse(outside.stdout).violations.map((v: { path: string }) => v.path).sort(), [
      'src/error.py',
      'src/lib/error.py',
      'src/warn.ts',
      'src/warn.ts',
    ]);
    // From inside the workspace, `lib` means the folder under the current one.
    const inside = await run(root, ['lib', '--format', 'json'], path.join(root, 'src'));
    assert.equal(inside.code, 1, inside.stderr);
    assert.deepEqual(JSON.parse(inside.stdout).violations.map((v: { path: string }) => v.path), ['src/lib/error.py']);
    // A path that does not exist is a usage error (ESLint exits 2), named in the message.
    const missing = await run(root, ['nope/x.ts'], root);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /no file or folder "nope\/x\.ts"/);
    assert.equal(missing.stdout, '');
  } finally {
    await cleanup();
  }
});

test("--baseline write records today's findings; later runs pass until something new appears, and survive moved lines", async () => {
  const { root, cleanup } = await guardWorkspace(files);
  try {
    assert.equal((await run(root, [])).code, 1, 'the eval in src/error.py fails the build without a baseline');
    const written = await run(root, ['--baseline', 'write']);
    assert.equal(written.code, 0, written.stderr);
    assert.match(written.stdout, /Recorded 3 findings in \.autosnippet\/guard\/baseline\.json/);
    const baseline = JSON.parse(readFileSync(path.join(root, '.autosnippet/guard/baseline.json'), 'utf8'));
    assert.deepEqual(Object.keys(baseline.files), ['src/error.py', 'src/warn.ts']);

    const first = await run(root, []);
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.match(first.stdout, /✔ 0 new problems/);
    assert.match(first.stdout, /3 findings recorded in \.autosnippet\/guard\/baseline\.json not shown/);

    // Lines added above a baselined finding do not make it new.
    writeFiles(root, { 'src/error.py': '# a comment\n\nimport os\nvalue = eval(text)\n' });
    assert.equal((await run(root, [])).code, 0);

    // A new violation fails the run, and only it is reported.
    writeFiles(root, { 'src/error.py': '# a comment\n\nimport os\nvalue = eval(text)\nother = eval(more)\n' });
    const added = await run(root, ['--format', 'json']);
    assert.equal(added.code, 1);
    const report = JSON.parse(added.stdout);
    assert.deepEqual(
      report.violations.filter((v: { baselineState: string }) => v.baselineState === 'new').map((
        v: { start: { line: number } },
      ) => v.start.line),
      [5],
    );
    assert.deepEqual(report.newCounts, { error: 1, warning: 0, info: 0, hint: 0 });
    assert.equal((await run(root, ['--baseline', 'ignore'])).code, 1);

    // SARIF: new, unchanged, and the fixed finding as absent.
    writeFiles(root, { 'src/warn.ts': 'export const n = m.get(k)!.length;\n' });
    const out = path.join(root, 'guard.sarif');
    await run(root, ['--format', 'sarif', '-o', out]);
    const sarif = JSON.parse(readFileSync(out, 'utf8'));
    const schema = JSON.parse(readFileSync(path.join(__dirname, '../fixtures/sarif/sarif-2.1.0-rtm.5.json'), 'utf8'));
    const ajv = new Ajv04({ allErrors: true, strict: false, unicodeRegExp: false });
    addFormats(ajv);
    const validate: ((d: unknown) => boolean) & { errors?: unknown[] | null } = ajv.compile(schema);
    assert.ok(validate(sarif), JSON.stringify(validate.errors?.slice(0, 5), null, 2));
    const results = sarif.runs[0].results as { ruleId: string; baselineState: string }[];
    assert.deepEqual(results.map((r) => `${r.ruleId}:${r.baselineState}`).sort(), [
      'py/no-eval:new',
      'py/no-eval:unchanged',
      'ts/no-empty-catch:absent',
      'ts/no-non-null-assertion:unchanged',
    ]);

    // The baseline is not a rule file, and a broken one is a configuration error.
    writeFiles(root, { '.autosnippet/guard/baseline.json': '{"version": 1, "files": {"a.ts": [{"rule": "x"}]}}' });
    const broken = await run(root, []);
    assert.equal(broken.code, 2);
    assert.match(broken.stderr, /baseline\.json: the entries of "a\.ts" need rule, fingerprint/);
  } finally {
    await cleanup();
  }
});

test('the baseline is written by people only, through the Gateway: the CLI creates .autosnippet/ and says so; an agent is refused and audited', async () => {
  const { ws, root, cleanup } = await guardWorkspace({ 'src/error.py': 'value = eval(text)\n' });
  try {
    assert.equal((await run(root, [])).code, 1, 'the eval fails the run');
    assert.ok(!existsSync(path.join(root, '.autosnippet')), 'a scan writes nothing');
    const written = await run(root, ['--baseline', 'write']);
    assert.equal(written.code, 0, written.stderr);
    assert.match(written.stdout, /Recorded 1 finding in \.autosnippet\/guard\/baseline\.json/);
    assert.match(written.stderr, /Created \.autosnippet\/ in .* for this first write/);
    assert.match(readFileSync(path.join(root, '.autosnippet/.gitignore'), 'utf8'), /autosnippet\.db/);
    assert.equal((await run(root, [])).code, 0, 'the recorded eval no longer fails the run');

    // An agent cannot hide a new finding in the baseline.
    writeFiles(root, { 'src/error.py': 'value = eval(text)\nother = eval(more)\n' });
    const catalog = createCatalog();
    const refused = await catalog.invoke(ws, 'write_guard_baseline', {}, { actor: 'external_agent', channel: 'test' });
    assert.ok(!refused.ok && refused.error.code === 'PERMISSION_DENIED', JSON.stringify(refused).slice(0, 300));
    assert.equal((await run(root, [])).code, 1, 'the new eval still fails the run');

    const log = await catalog.invoke(
      ws,
      'query_audit_log',
      { action: 'write_guard_baseline' },
      { actor: 'human', channel: 'test' },
    );
    assert.ok(log.ok, JSON.stringify(log).slice(0, 300));
    const entries = (log.data as { entries: { actor: string; result: string }[] }).entries.map((e) =>
      `${e.actor}:${e.result}`
    ).sort();
    assert.deepEqual(entries, ['external_agent:denied', 'human:ok']);
  } finally {
    await cleanup();
  }
});
