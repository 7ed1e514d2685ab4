import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinRules } from '../../src/core/guard/packs';
import { RuleRunner } from '../../src/core/guard/runner';
import { TreeSitterHost, grammarFor } from '../../src/core/guard/structural';
import type { GuardRule } from '../../src/core/guard/rule';

const rules = builtinRules();
// Rules that are off by default are turned on here, so each is still tested.
const optIn = Object.fromEntries(rules.filter((r) => r.disabledByDefault).map((r) => [r.id, r.severity]));
const runner = new RuleRunner(rules, { severityOverrides: optIn, ruleExclusions: [] });

/** The language an example is checked as, unless it says: the rule's first (TypeScript for '*'). */
function languageOf(rule: GuardRule): string {
  return rule.languages.find((l) => l !== '*') ?? 'typescript';
}

async function idsFound(code: string, language: string): Promise<string[]> {
  await runner.prepare(language);
  const res = runner.checkText(code, language);
  assert.equal(res.incomplete, false, `check of ${language} was incomplete: ${JSON.stringify(res.stopped)}`);
  return res.violations.map((v) => v.ruleId);
}

test('every built-in pack is present and rule ids are unique', () => {
  const ids = rules.map((r) => r.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const prefix of ['ts/', 'swift/', 'objc/', 'py/', 'go/', 'java/', 'kotlin/', 'rust/', 'common/']) {
    assert.ok(ids.some((id) => id.startsWith(prefix)), `no rule in pack ${prefix}`);
  }
  for (const r of rules) {
    assert.ok(r.why.length > 20 && r.suggestion.length > 10, `${r.id} needs a why and a suggestion`);
    assert.ok(r.examples && r.examples.length > 0, `${r.id} needs an example`);
  }
});

for (const rule of rules) {
  test(`${rule.id} reports its bad examples and not its good ones`, async () => {
    for (const [i, ex] of (rule.examples ?? []).entries()) {
      const language = ex.language ?? languageOf(rule);
      const bad = await idsFound(ex.bad, language);
      const good = await idsFound(ex.good, language);
      assert.ok(bad.includes(rule.id), `${rule.id} missed its bad example ${i} (${language}):\n${ex.bad}\nfound: ${bad.join(', ') || 'nothing'}`);
      assert.ok(!good.includes(rule.id), `${rule.id} reported its good example ${i} (${language}):\n${ex.good}`);
    }
  });
}

test('built-in structural queries compile for every language they name', async () => {
  const host = new TreeSitterHost();
  for (const r of rules) {
    if (r.pattern.kind !== 'structural') continue;
    for (const l of r.languages) {
      const g = grammarFor(l);
      assert.ok(g, `${r.id}: no grammar for ${l}`);
      await assert.doesNotReject(host.compileQuery(g, r.pattern.query), `${r.id} does not compile for ${l}`);
    }
  }
});
