import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ScanResult } from '../../src/core/domains/guard/engine';
import { applyFixes } from '../../src/core/domains/guard/fix';
import { builtinRules } from '../../src/core/domains/guard/packs';
import { sarifReport } from '../../src/core/domains/guard/report';
import { RuleRunner } from '../../src/core/domains/guard/runner';

const runner = new RuleRunner(builtinRules(), { severityOverrides: {}, ruleExclusions: [] });

function fixed(code: string): { text: string; ids: string[]; after: string[] } {
  const res = runner.checkText(code, 'python');
  const out = applyFixes(code, res.violations).text;
  return {
    text: out,
    ids: res.violations.filter((v) => v.fix !== undefined).map((v) => v.ruleId),
    after: runner.checkText(out, 'python').violations.map((v) => v.ruleId),
  };
}

test('py/mutable-default: the fix defaults to None and creates the value at the start of the body, after the docstring', () => {
  const r = fixed(
    'def add(item, items=[]):\n    """Add one.\n\n    More.\n    """\n    items.append(item)\n    return items\n',
  );
  assert.deepEqual(r.ids, ['py/mutable-default']);
  assert.equal(
    r.text,
    'def add(item, items=None):\n    """Add one.\n\n    More.\n    """\n    if items is None:\n        items = []\n    items.append(item)\n    return items\n',
  );
  assert.deepEqual(r.after, [], 'the fixed code has no finding left');
});

test('py/mutable-default: a parameter list over several lines, a return annotation, a comment after the colon, tabs', () => {
  const r = fixed(
    'class A:\n\tdef m(\n\t\tself,\n\t\topts={},  # options\n\t) -> dict:  # returns opts\n\t\topts["k"] = 1\n\t\treturn opts\n',
  );
  assert.equal(
    r.text,
    'class A:\n\tdef m(\n\t\tself,\n\t\topts=None,  # options\n\t) -> dict:  # returns opts\n\t\tif opts is None:\n\t\t\topts = {}\n\t\topts["k"] = 1\n\t\treturn opts\n',
  );
  assert.deepEqual(r.after, []);
});

test('py/mutable-default: no fix where it would decide more than the default (an annotation, a one-line body, a cache)', () => {
  for (const code of [
    'def f(items: list = []):\n    return items\n',
    'def f(items=[]): return items\n',
    'def fib(n, cache={}):\n    cache[n] = n\n    return cache[n]\n',
  ]) {
    const res = runner.checkText(code, 'python').violations.filter((v) => v.ruleId === 'py/mutable-default');
    assert.equal(res.length, 1, code);
    assert.equal(res[0].fix, undefined, code);
  }
});

test('py/bare-except: the fix is `except Exception:`, keeping the indentation', () => {
  const r = fixed('def f():\n    try:\n        run()\n    except:\n        log()\n');
  assert.deepEqual(r.ids, ['py/bare-except']);
  assert.equal(r.text, 'def f():\n    try:\n        run()\n    except Exception:\n        log()\n');
  assert.deepEqual(r.after, []);
});

test('SARIF gives a fix that reaches past the match as a character span', () => {
  const code = 'def add(item, items=[]):\n    items.append(item)\n';
  const v = runner.checkText(code, 'python', { path: 'a.py' }).violations[0];
  const scan = { root: '/r', files: 1, violations: [v], problems: [], stopped: [] } as unknown as ScanResult;
  const region =
    JSON.parse(sarifReport(scan, [], '0')).runs[0].results[0].fixes[0].artifactChanges[0].replacements[0].deletedRegion;
  assert.deepEqual(region, {
    charOffset: code.indexOf('items=[]'),
    charLength: code.indexOf('\n    items.append') - code.indexOf('items=[]'),
  });
});
