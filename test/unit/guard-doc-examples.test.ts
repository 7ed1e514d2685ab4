import yaml from 'js-yaml';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { guardEngine } from '../../src/core/domains/guard';
import { recipeGuardRules } from '../../src/core/domains/guard/recipe-rules';
import { readRecipeGuard } from '../../src/core/domains/knowledge/guard-format';
import type { GuardPattern } from '../../src/core/domains/knowledge/types';
import { guardWorkspace } from './guard-helpers';

/**
 * Every guard-rule example the documentation shows (README.md, docs/, the bundled skills with their
 * chunks and references) is loaded through the real loader: it must load without a problem, which
 * includes passing its own examples.
 */

const REPO = path.join(__dirname, '..', '..');

function markdownFiles(): string[] {
  const out = ['README.md'];
  const walk = (rel: string) => {
    const abs = path.join(REPO, rel);
    if (!existsSync(abs)) return;
    for (const name of readdirSync(abs).sort()) {
      const child = `${rel}/${name}`;
      if (statSync(path.join(REPO, child)).isDirectory()) walk(child);
      else if (name.endsWith('.md')) out.push(child);
    }
  };
  walk('docs');
  walk('skills');
  return out;
}

interface Found {
  where: string;
  kind: 'rule-file' | 'guards';
  value: unknown;
}

/** Fenced JSON and YAML blocks that hold a rule file (`rules`) or guards (`constraints.guards`). */
function ruleExamples(): Found[] {
  const found: Found[] = [];
  for (const file of markdownFiles()) {
    const text = readFileSync(path.join(REPO, file), 'utf8');
    for (const m of text.matchAll(/^```(json|yaml|yml)\n([\s\S]*?)^```/gm)) {
      const line = text.slice(0, m.index).split('\n').length;
      const where = `${file}:${line}`;
      let value: unknown;
      try {
        value = m[1] === 'json' ? JSON.parse(m[2]) : yaml.load(m[2]);
      } catch (e) {
        if (/"(rules|guards?|regex|pattern|query)"\s*:/.test(m[2])) {
          assert.fail(`${where}: a rule example that does not parse: ${(e as Error).message}`);
        }
        continue;
      }
      const o = value as Record<string, unknown> | null;
      if (!o || typeof o !== 'object') continue;
      if (Array.isArray(o.rules)) found.push({ where, kind: 'rule-file', value: o });
      const constraints = o.constraints as Record<string, unknown> | undefined;
      if (constraints && typeof constraints === 'object') {
        assert.equal(
          constraints.guard,
          undefined,
          `${where}: \`constraints.guard\` is not read; the field is \`constraints.guards\``,
        );
        if (constraints.guards !== undefined) found.push({ where, kind: 'guards', value: constraints.guards });
      }
    }
  }
  return found;
}

test('the documentation has rule examples to check (the guard skill, the candidates skill, docs/guard-rules.md)', () => {
  const files = new Set(ruleExamples().map((f) => f.where.split(':')[0]));
  for (
    const f of ['skills/autosnippet-guard/SKILL.md', 'skills/autosnippet-candidates/SKILL.md', 'docs/guard-rules.md']
  ) assert.ok(files.has(f), `no rule example found in ${f}`);
});

test('every documented rule file loads through the real loader with no problem, its own examples passing', async () => {
  for (const f of ruleExamples().filter((x) => x.kind === 'rule-file')) {
    const { ws, cleanup } = await guardWorkspace({ '.autosnippet/guard/example.json': JSON.stringify(f.value) });
    try {
      const engine = guardEngine(ws);
      assert.deepEqual((await engine.problems()).map((p) => `${p.message} ${p.hint ?? ''}`), [], f.where);
      const ids = (f.value as { rules: { id: string }[] }).rules.map((r) => r.id);
      const statuses = await engine.rules();
      for (const id of ids) {
        assert.equal(statuses.find((s) => s.rule.id === id)?.active, true, `${f.where}: ${id} does not run`);
      }
    } finally {
      await cleanup();
    }
  }
});

test('every documented recipe guard reads without a problem and loads as a rule whose examples pass', async () => {
  for (const f of ruleExamples().filter((x) => x.kind === 'guards')) {
    assert.ok(Array.isArray(f.value), `${f.where}: constraints.guards is a list`);
    const guards: GuardPattern[] = [];
    for (const g of f.value as unknown[]) {
      const read = readRecipeGuard(g);
      assert.deepEqual(read.problems.map((p) => `${p.field}: ${p.message}`), [], f.where);
      guards.push(read.guard!);
    }
    const rules = recipeGuardRules([{
      recipeId: 'doc/example',
      title: 'Documented example',
      trigger: '',
      language: 'typescript',
      summary: 'An example.',
      file: 'doc.md',
      guards,
    }]);
    const { ws, cleanup } = await guardWorkspace({});
    try {
      const engine = guardEngine(ws);
      engine.setRuleSource('doc', rules);
      assert.deepEqual((await engine.problems()).map((p) => `${p.message} ${p.hint ?? ''}`), [], f.where);
      assert.ok(rules.every((r) => r.examples?.length), `${f.where}: every documented guard shows its examples`);
    } finally {
      await cleanup();
    }
  }
});
