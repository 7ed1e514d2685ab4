// Slow (about 25-60 s): recheck's full analysis of every built-in regex. `npm run test:slow`; `npm test` runs it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builtinRules } from '../../src/core/domains/guard/packs';
import { analyzePattern } from '../../src/core/domains/guard/regex-safety';

const rules = builtinRules();

test(
  'built-in regexes pass the same ReDoS analysis project rules get (none is refused); those marked linear are proven so',
  { timeout: 300_000 },
  () => {
    for (const r of rules) {
      if (r.pattern.kind !== 'regex') continue;
      // A rule marked linear runs without the watchdog: recheck must prove it (a fuzzing pass is no proof).
      const v = analyzePattern(r.pattern.regex, r.pattern.flags ?? '');
      assert.ok(v.ok, `${r.id}: ${v.message}`);
      if (r.linear) {
        assert.equal(
          v.linear,
          true,
          `${r.id} is marked linear but recheck says ${v.status} ${v.complexity ?? v.message}`,
        );
      }
    }
  },
);
