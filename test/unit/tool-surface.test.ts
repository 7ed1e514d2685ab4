// The small tool surface: which tools are listed by default, the generic call that reaches the rest
// with the same checks, and the bundled skills that must still work when only the default tools are listed.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { createCatalog } from '../../src/core/catalog';
import { languageModelToolsManifest } from '../../src/core/catalog/manifest';
import { DEFAULT_TOOLS, isDefaultTool } from '../../src/core/catalog/surface';
import type { ToolContext } from '../../src/core/catalog/types';
import { parseMcpArgs, UsageError } from '../../src/mcp/args';
import { annotationsFor } from '../../src/mcp/manifest';
import { guardWorkspace } from './guard-helpers';

const catalog = createCatalog();
const agent: ToolContext = { actor: 'copilot_agent', channel: 'lm-tool' };
const human: ToolContext = { actor: 'human', channel: 'test' };
const skillsDir = path.join(__dirname, '..', '..', 'skills');

test('the default tools exist and are all tools an agent may call', () => {
  for (const name of DEFAULT_TOOLS) assert.notEqual(catalog.get(name)?.access ?? 'review', 'review', name);
  assert.ok(DEFAULT_TOOLS.length <= 15, 'the default surface stays small');
});

test('every bundled skill reaches the tools it names: listed by default, or the skill says to use call_tool', () => {
  const skills = readdirSync(skillsDir).filter((d) => !d.startsWith('.'));
  assert.ok(skills.length >= 10);
  for (const skill of skills) {
    const text = readFileSync(path.join(skillsDir, skill, 'SKILL.md'), 'utf8');
    const named = [...new Set([...text.matchAll(/\bautosnippet_([a-z0-9_]+)/g)].map((m) => m[1]))];
    for (const name of named) {
      assert.ok(catalog.get(name), `${skill} names a tool that does not exist: autosnippet_${name}`);
    }
    const unlisted = named.filter((n) => !isDefaultTool(n));
    if (unlisted.length) {
      assert.match(
        text,
        /autosnippet_call_tool/,
        `${skill} names ${unlisted.join(', ')} without saying how to call them`,
      );
    }
  }
});

test('call_tool answers what the called tool answers, and refuses a people-only tool for an agent, audited under its own name', async () => {
  const { ws, cleanup } = await guardWorkspace({ 'src/a.ts': 'export const v = 1;\n' });
  try {
    const through = await catalog.invoke(ws, 'call_tool', {
      name: 'autosnippet_guard_rules',
      arguments: { language: 'typescript' },
    }, agent);
    const direct = await catalog.invoke(ws, 'guard_rules', { language: 'typescript' }, agent);
    assert.deepEqual(through, direct);

    const refused = await catalog.invoke(ws, 'call_tool', { name: 'publish_recipe', arguments: { id: 'x' } }, agent);
    assert.equal(refused.ok, false);
    assert.equal(refused.tool, 'publish_recipe');
    assert.equal(!refused.ok && refused.error.code, 'PERMISSION_DENIED');
    // Spelled another way, it is still that tool.
    const respelled = await catalog.invoke(ws, 'call_tool', { name: 'publishRecipe', arguments: {} }, agent);
    assert.equal(!respelled.ok && respelled.error.code, 'PERMISSION_DENIED');

    const log = await catalog.invoke(ws, 'query_audit_log', {}, human);
    assert.ok(log.ok);
    const entries = (log.data as { entries: { action: string; decision: string; channel: string }[] }).entries;
    assert.deepEqual(entries.map((e) => [e.action, e.decision, e.channel]), [
      ['publish_recipe', 'denied', 'lm-tool'],
      ['publish_recipe', 'denied', 'lm-tool'],
    ]);
  } finally {
    await cleanup();
  }
});

test('call_tool with a bad name or bad arguments says what to do', async () => {
  const { ws, cleanup } = await guardWorkspace({});
  try {
    const unknown = await catalog.invoke(ws, 'call_tool', { name: 'get_targetz' }, agent);
    assert.equal(!unknown.ok && unknown.error.code, 'UNKNOWN_TOOL');
    assert.match(!unknown.ok ? unknown.error.hint ?? '' : '', /get_targets/);
    const bad = await catalog.invoke(ws, 'call_tool', { name: 'get_targets', arguments: { kind: 'galaxy' } }, agent);
    assert.equal(bad.tool, 'get_targets');
    assert.equal(!bad.ok && bad.error.field, 'kind');
    const itself = await catalog.invoke(ws, 'call_tool', { name: 'call_tool', arguments: { name: 'health' } }, agent);
    assert.equal(!itself.ok && itself.error.code, 'INVALID_INPUT');
  } finally {
    await cleanup();
  }
});

test('agent mode lists the default tools; the rest appear when the tools.offered setting is all', () => {
  const tools = languageModelToolsManifest(catalog) as { name: string; when?: string }[];
  assert.equal(tools.length, catalog.agentTools.length);
  for (const t of tools) {
    const name = t.name.replace(/^autosnippet_/, '');
    assert.equal(t.when, isDefaultTool(name) ? undefined : "config.autosnippet.tools.offered == 'all'", name);
  }
});

test('--tools takes default or all, and nothing else', () => {
  assert.equal(parseMcpArgs(['--tools', 'all'], {}).tools, 'all');
  assert.equal(parseMcpArgs([], {}).tools, undefined);
  assert.throws(
    () => parseMcpArgs(['--tools', 'some'], {}),
    (e: Error) => e instanceof UsageError && /default or all/.test(e.message),
  );
});

test('call_tool is not announced as read-only: it may forward to a tool that writes', () => {
  assert.equal(catalog.get('call_tool')?.access, 'read', 'no Gateway of its own: the called tool passes it');
  assert.deepEqual(
    [
      annotationsFor(catalog.get('call_tool')!)?.readOnlyHint,
      annotationsFor(catalog.get('call_tool')!)?.idempotentHint,
    ],
    [false, false],
  );
  assert.equal(annotationsFor(catalog.get('list_tools')!)?.readOnlyHint, true);
});
