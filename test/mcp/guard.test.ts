import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { call, connectStdio, tempWorkspace } from './client';

let client: Client;

before(async () => {
  client = (await connectStdio(tempWorkspace('sample-workspace'))).client;
});
after(async () => client?.close());

test('guard_check reports eval with rule id, severity, range, matched text, why and the fix', async () => {
  const { envelope } = await call(client, 'autosnippet_guard_check', {
    code: 'export const x = 1;\nconst f = eval("1 + 1");\n',
    language: 'typescript',
    path: 'src/x.ts',
  });
  assert.equal(envelope.ok, true, JSON.stringify(envelope.error));
  const v = (envelope.data.violations as Array<Record<string, any>>).find((x) => x.ruleId === 'ts/no-eval');
  assert.ok(v, JSON.stringify(envelope.data).slice(0, 800));
  assert.equal(v.start.line, 2);
  assert.ok(v.end.column > v.start.column);
  assert.match(v.matchedText, /eval/);
  assert.equal(v.severity, 'error');
  assert.ok(v.why.length > 20 && v.suggestion.length > 20, JSON.stringify(v));
});

test('a comment or a string that mentions eval is not a violation', async () => {
  const { envelope } = await call(client, 'autosnippet_guard_check', {
    code: '// never eval("x") here\nconst s = "eval(1)";\n',
    language: 'typescript',
  });
  assert.equal(envelope.ok, true);
  assert.ok(!(envelope.data.violations as Array<{ ruleId: string }>).some((x) => x.ruleId === 'ts/no-eval'));
});

test('guard_audit_files refuses a path outside the workspace', async () => {
  const { envelope, isError } = await call(client, 'autosnippet_guard_audit_files', { paths: ['../../etc/passwd'] });
  assert.equal(isError, true, JSON.stringify(envelope));
  assert.equal(envelope.error?.code, 'PATH_OUTSIDE_WORKSPACE');
});

test('scan_project then compliance_report: the report has per-rule and per-file counts', async () => {
  const scan = await call(client, 'autosnippet_scan_project', {});
  assert.equal(scan.envelope.ok, true, JSON.stringify(scan.envelope.error));
  const report = await call(client, 'autosnippet_compliance_report', {});
  assert.equal(report.envelope.ok, true, JSON.stringify(report.envelope.error));
  const text = JSON.stringify(report.envelope.data);
  assert.match(text, /rule/i);
  assert.match(text, /file/i);
});
