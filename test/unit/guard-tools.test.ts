import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ToolCatalog } from '../../src/core/catalog/catalog';
import { guardTools } from '../../src/core/catalog/guard';
import type { ToolContext, ToolResult } from '../../src/core/catalog/types';
import { guardWorkspace, writeFiles } from './guard-helpers';

const catalog = new ToolCatalog(guardTools);
const agent: ToolContext = { actor: 'external_agent', channel: 'test' };

function data<T = any>(r: ToolResult): T {
  assert.ok(r.ok, JSON.stringify(r));
  return (r as { data: T }).data;
}
function error(r: ToolResult): { code: string; message: string; field?: string } {
  assert.equal(r.ok, false, JSON.stringify(r));
  return (r as { error: { code: string; message: string } }).error;
}

test('guard tools: check, explain, list, with valid and invalid input', async () => {
  const { ws, cleanup } = await guardWorkspace(
    {},
    { guard: { severityOverrides: { 'ts/no-non-null-assertion': 'warning' } } },
  );
  try {
    const checked = data(
      await catalog.invoke(ws, 'guard_check', { code: 'const n = a!.b;\neval(x);', language: 'ts' }, agent),
    );
    assert.deepEqual(checked.violations.map((v: { ruleId: string }) => v.ruleId), [
      'ts/no-non-null-assertion',
      'ts/no-eval',
    ]);
    assert.equal(checked.fixedCode, 'const n = a?.b;\neval(x);');
    const v = checked.violations[1];
    assert.deepEqual(Object.keys(v).sort(), [
      'end',
      'matchedText',
      'message',
      'ruleId',
      'severity',
      'start',
      'suggestion',
      'why',
    ]);
    assert.equal(error(await catalog.invoke(ws, 'guard_check', { language: 'ts' }, agent)).code, 'INVALID_INPUT');
    assert.equal(
      error(await catalog.invoke(ws, 'guard_check', { code: 'x', language: 'cobol' }, agent)).code,
      'INVALID_INPUT',
    );
    assert.equal(
      error(await catalog.invoke(ws, 'guard_check', { code: 'x', language: 'ts', path: '../../etc/passwd' }, agent))
        .code,
      'PATH_OUTSIDE_WORKSPACE',
    );

    const explained = data(await catalog.invoke(ws, 'guard_explain', { id: 'swift/force-cast' }, agent));
    assert.equal(explained.fix, 'as?');
    assert.ok(explained.examples[0].bad.includes('as!'));
    const missing = error(await catalog.invoke(ws, 'guard_explain', { ruleId: 'ts/no-evil' }, agent));
    assert.equal(missing.code, 'RULE_NOT_FOUND');

    const listed = data(await catalog.invoke(ws, 'guard_rules', { language: 'swift' }, agent));
    assert.ok(
      listed.rules.every((r: { languages: string[] }) => r.languages.includes('swift') || r.languages.includes('*')),
    );
    assert.ok(listed.rules.some((r: { id: string }) => r.id === 'swift/closure-captures-self'));
    assert.equal(error(await catalog.invoke(ws, 'guard_rules', { origin: 'nowhere' }, agent)).code, 'INVALID_INPUT');
    assert.equal(error(await catalog.invoke(ws, 'guard_audit_files', { paths: [] }, agent)).code, 'INVALID_INPUT');
    assert.equal(
      error(await catalog.invoke(ws, 'guard_audit_files', { paths: ['/etc'] }, agent)).code,
      'PATH_OUTSIDE_WORKSPACE',
    );
  } finally {
    await cleanup();
  }
});

test('scan_project pages its violations, reports progress, and compliance_report shows the trend', async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 100; i++) files[`src/f${i}.ts`] = `export const v = eval(x${i});\nconsole.log(v);\n`;
  files['src/clean.ts'] = 'export const ok = 1;\n';
  const { ws, root, cleanup } = await guardWorkspace(files, {
    guard: { severityOverrides: { 'ts/no-console-log': 'hint' } },
  });
  try {
    const progress: number[] = [];
    const first = await catalog.invoke(
      ws,
      'scan_project',
      {},
      { ...agent, progress: (p) => progress.push(p.done ?? 0) },
    );
    const page1 = data(first);
    assert.equal(page1.files, 101);
    assert.deepEqual(page1.counts, { error: 100, warning: 0, info: 0, hint: 100 });
    assert.equal(page1.compliance.trend, 'first scan');
    assert.ok(progress.includes(101));
    let seen = page1.violations.length;
    let cursor = (first as { truncated?: { nextCursor?: number } }).truncated?.nextCursor;
    assert.ok(cursor, 'a large result is paged');
    while (cursor) {
      const next = await catalog.invoke(ws, 'scan_project', { cursor }, agent);
      seen += data(next).violations.length;
      cursor = (next as { truncated?: { nextCursor?: number } }).truncated?.nextCursor;
    }
    assert.equal(seen, 200);

    const errorsOnly = data(
      await catalog.invoke(ws, 'guard_audit_files', { paths: ['src/f1.ts', 'src'], minSeverity: 'error' }, agent),
    );
    assert.equal(errorsOnly.counts.error, 100);
    assert.ok(
      errorsOnly.violations.length > 0
        && errorsOnly.violations.every((x: { severity: string }) => x.severity === 'error'),
    );

    for (let i = 0; i < 10; i++) writeFiles(root, { [`src/f${i}.ts`]: `export const v = JSON.parse(x${i});\n` });
    const report = data(await catalog.invoke(ws, 'compliance_report', { rescan: true }, agent));
    assert.equal(report.trend, 'better');
    assert.ok(report.score > report.previousScore);
    const evalRule = report.perRule.find((r: { ruleId: string }) => r.ruleId === 'ts/no-eval');
    assert.deepEqual([evalRule.violations, evalRule.previous, evalRule.delta], [90, 100, -10]);
    const stored = ws.store.all<{ n: number }>('SELECT COUNT(*) AS n FROM guard_scans');
    assert.equal(stored[0].n, 2, 'the pages of one scan are recorded once');
    const again = data(await catalog.invoke(ws, 'compliance_report', {}, agent));
    assert.equal(again.scan.id, report.scan.id, 'without rescan the last recorded scan is reported');
  } finally {
    await cleanup();
  }
});

test('compliance history keeps only the last 50 scans', async () => {
  const { ws, cleanup } = await guardWorkspace({});
  try {
    const { recordScan, recentScans, KEPT_SCANS } = await import('../../src/core/domains/guard/compliance.js');
    for (let i = 0; i < KEPT_SCANS + 5; i++) {
      await recordScan(ws.store, {
        finishedAt: new Date(2026, 0, 1, 0, i).toISOString(),
        files: 1,
        filesClean: 1,
        bytes: 1,
        counts: { error: i, warning: 0, info: 0, hint: 0 },
        durationMs: 1,
        rulesActive: 1,
        rules: [{ ruleId: 'r', severity: 'error', violations: i, files: 1 }],
        topFiles: [],
      });
    }
    assert.equal(ws.store.all<{ n: number }>('SELECT COUNT(*) AS n FROM guard_scans')[0].n, KEPT_SCANS);
    assert.equal(ws.store.all<{ n: number }>('SELECT COUNT(*) AS n FROM guard_scan_rules')[0].n, KEPT_SCANS);
    assert.equal(recentScans(ws.store, 1)[0].counts.error, KEPT_SCANS + 4);
  } finally {
    await cleanup();
  }
});
