import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rulesByLanguages } from '../../src/vscode/guard-order';

const rule = (id: string, ...languages: string[]) => ({ rule: { id, languages } });

test("Explain Guard Rule offers the workspace's languages first: a Python workspace sees Python rules before TypeScript ones", () => {
  const rules = [
    rule('ts/no-eval', 'typescript'),
    rule('ts/no-any', 'typescript', 'typescriptreact'),
    rule('py/no-bare-except', 'python'),
    rule('py/no-eval', 'python'),
    rule('sh/quote-vars', 'shellscript'),
    rule('go/errcheck', 'go'),
  ];
  const { ours, others } = rulesByLanguages(rules, ['python', 'shellscript']);
  assert.deepEqual(ours.map((r) => r.rule.id), ['py/no-bare-except', 'py/no-eval', 'sh/quote-vars']);
  assert.deepEqual(others.map((r) => r.rule.id), ['ts/no-eval', 'ts/no-any', 'go/errcheck']);
  // No language known (an empty folder): every rule is offered, in the engine's order.
  assert.deepEqual(rulesByLanguages(rules, []).others.map((r) => r.rule.id), rules.map((r) => r.rule.id));
});
