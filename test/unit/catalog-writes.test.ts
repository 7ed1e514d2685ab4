// What writes passes the Gateway, whatever the tool's domain: scan_project and compliance_report record
// compliance scans, so an agent's call is audited, and refused when the audit line cannot be written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createCatalog } from '../../src/core/tools';
import type { ToolContext } from '../../src/core/tools/types';
import { guardWorkspace } from './guard-helpers';

const agent: ToolContext = { actor: 'external_agent', channel: 'test' };
const human: ToolContext = { actor: 'human', channel: 'test' };
const catalog = createCatalog();

test('scan_project and compliance_report are writing tools: audited, and refused when the audit log cannot be written', async () => {
  const { ws, cleanup } = await guardWorkspace({ 'src/a.ts': 'export const v = eval(x);\n' });
  try {
    for (const name of ['scan_project', 'compliance_report']) assert.notEqual(catalog.get(name)?.access, 'read', `${name} records a scan`);
    const scans = () => ws.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM guard_scans')!.n;

    const ok = await catalog.invoke(ws, 'scan_project', {}, agent);
    assert.ok(ok.ok, JSON.stringify(ok).slice(0, 300));
    assert.equal(scans(), 1);
    const log = await catalog.invoke(ws, 'query_audit_log', { action: 'scan_project' }, human);
    assert.ok(log.ok);
    const [entry] = (log.data as { entries: { actor: string; result: string }[] }).entries;
    assert.deepEqual([entry.actor, entry.result], ['external_agent', 'ok']);

    rmSync(path.join(ws.dataDir, 'audit'), { recursive: true, force: true });
    writeFileSync(path.join(ws.dataDir, 'audit'), 'not a folder');
    for (const [name, input] of [['scan_project', {}], ['compliance_report', { rescan: true }]] as const) {
      const refused = await catalog.invoke(ws, name, input, agent);
      assert.ok(!refused.ok && refused.error.code === 'GATEWAY_UNAVAILABLE', `${name}: ${JSON.stringify(refused).slice(0, 300)}`);
    }
    assert.equal(scans(), 1, 'no scan was recorded without its audit line');
  } finally {
    await cleanup();
  }
});
