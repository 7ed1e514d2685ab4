// Slow (about 25 s): recheck's full analysis of every built-in regex. `npm run test:slow`; `npm test` runs it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinRules } from '../../src/core/guard/packs';
import { analyzePattern } from '../../src/core/guard/regex-safety';

const rules = builtinRules();

test('built-in regexes pass the same ReDoS analysis project rules get (none is refused)', { timeout: 180_000 }, () => {
  for (const r of rules) {
    if (r.pattern.kind !== 'regex') continue;
    const v = analyzePattern(r.pattern.regex, r.pattern.flags ?? '', 1000);
    assert.ok(v.ok, `${r.id}: ${v.message}`);
  }
});
