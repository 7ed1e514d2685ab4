// What writes passes the Gateway, whatever the tool's domain: scan_project and compliance_report record
// compliance scans, so an agent's call is audited, and refused when the audit line cannot be written.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { createCatalog } from '../../src/core/catalog';
import type { ToolContext } from '../../src/core/catalog/types';
import { guardWorkspace } from './guard-helpers';

const agent: ToolContext = { actor: 'external_agent', channel: 'test' };
const human: ToolContext = { actor: 'human', channel: 'test' };
const catalog = createCatalog();

test('scan_project and compliance_report are writing tools: audited, and refused when the audit log cannot be written', async () => {
  const { ws, cleanup } = await guardWorkspace({ 'src/a.ts': 'export const v = eval(x);\n' });
  try {
    for (const name of ['scan_project', 'compliance_report']) {
      assert.notEqual(catalog.get(name)?.access, 'read', `${name} records a scan`);
    }
    const scans = () => ws.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM guard_scans')!.n;

    const ok = await catalog.invoke(ws, 'scan_project', {}, agent);
    assert.ok(ok.ok, JSON.stringify(ok).slice(0, 300));
    assert.equal(scans(), 1);
    const audited = async () => {
      const log = await catalog.invoke(ws, 'query_audit_log', { action: 'scan_project' }, human);
      assert.ok(log.ok);
      return (log.data as { entries: { actor: string; result: string }[] }).entries;
    };
    assert.deepEqual((await audited()).map((e) => [e.actor, e.result]), [['external_agent', 'ok']]);
    // The scan record is derived: with no .autosnippet/ yet, it and its audit line wait in memory
    // (a scan leaves the repository untouched) and reach disk with the first real write.
    assert.equal(existsSync(ws.dataDir), false);
    const write = await catalog.invoke(ws, 'submit_candidate', {
      title: 'Never eval input',
      summary: 'Parse it instead.',
      language: 'typescript',
      category: 'security',
    }, agent);
    assert.ok(write.ok, JSON.stringify(write).slice(0, 300));
    const onDisk = readFileSync(path.join(ws.dataDir, 'audit', 'audit.jsonl'), 'utf8');
    assert.match(onDisk, /"action":"scan_project"[^\n]*"decision":"allowed"/);
    assert.ok(onDisk.indexOf('"scan_project"') < onDisk.indexOf('"submit_candidate"'), 'the waiting lines come first');
    assert.deepEqual((await audited()).map((e) => [e.actor, e.result]), [['external_agent', 'ok']], 'written once');

    rmSync(path.join(ws.dataDir, 'audit'), { recursive: true, force: true });
    writeFileSync(path.join(ws.dataDir, 'audit'), 'not a folder');
    for (const [name, input] of [['scan_project', {}], ['compliance_report', { rescan: true }]] as const) {
      const refused = await catalog.invoke(ws, name, input, agent);
      assert.ok(
        !refused.ok && refused.error.code === 'GATEWAY_UNAVAILABLE',
        `${name}: ${JSON.stringify(refused).slice(0, 300)}`,
      );
    }
    assert.equal(scans(), 1, 'no scan was recorded without its audit line');
  } finally {
    await cleanup();
  }
});

test('"New Skill" and "Create Recipe from Selection" are catalog tools for people: audited, refused to agents', async () => {
  const { ws, root, cleanup } = await guardWorkspace({});
  try {
    const skill = { name: 'release-checklist', description: 'Use when cutting a release.' };
    const refused = await catalog.invoke(ws, 'create_skill', skill, agent);
    assert.ok(!refused.ok && refused.error.code === 'PERMISSION_DENIED');
    assert.ok(!existsSync(path.join(root, '.autosnippet', 'skills', 'release-checklist')));
    const made = await catalog.invoke(ws, 'create_skill', skill, human);
    assert.ok(made.ok, JSON.stringify(made));
    assert.match(
      readFileSync((made.data as { file: string }).file, 'utf8'),
      /^---\nname: release-checklist\ndescription: "Use when cutting a release\."\n---/,
    );
    const again = await catalog.invoke(ws, 'create_skill', skill, human);
    assert.ok(!again.ok && again.error.code === 'SKILL_EXISTS');
    const badName = await catalog.invoke(ws, 'create_skill', { ...skill, name: 'Bad Name' }, human);
    assert.ok(!badName.ok && badName.error.code === 'INVALID_INPUT');

    const recipe = {
      title: 'Greet through greet()',
      category: 'style',
      code: 'greet("x");',
      language: 'typescript',
      sourceFiles: ['src/a.ts:1'],
    };
    assert.ok(!(await catalog.invoke(ws, 'create_recipe', recipe, agent)).ok);
    const created = await catalog.invoke(ws, 'create_recipe', recipe, human);
    assert.ok(created.ok, JSON.stringify(created));
    const { id, file } = created.data as { id: string; file: string };
    assert.match(readFileSync(path.join(root, file), 'utf8'), /^status: ["']?draft["']?$/m);
    const listed = await catalog.invoke(ws, 'get_recipe', { id }, human);
    assert.ok(listed.ok && (listed.data as { code: string }).code === 'greet("x");', 'indexed at once');

    const log = await catalog.invoke(ws, 'query_audit_log', {}, human);
    assert.ok(log.ok);
    const entries = (log.data as { entries: { action: string; actor: string; result: string }[] }).entries;
    for (const action of ['create_skill', 'create_recipe']) {
      assert.ok(
        entries.some((e) => e.action === action && e.actor === 'external_agent' && e.result === 'denied'),
        `${action} refusal audited`,
      );
      assert.ok(
        entries.some((e) => e.action === action && e.actor === 'human' && e.result === 'ok'),
        `${action} audited`,
      );
    }
  } finally {
    await cleanup();
  }
});

test('a 60,000-character origin filter is INVALID_INPUT, not a SQLite "pattern too complex"', async () => {
  const { ws, cleanup } = await guardWorkspace({});
  try {
    const r = await catalog.invoke(ws, 'list_candidates', { origin: 'x'.repeat(60_000) }, agent);
    assert.ok(!r.ok && r.error.code === 'INVALID_INPUT' && r.error.field === 'origin', JSON.stringify(r).slice(0, 300));
  } finally {
    await cleanup();
  }
});
