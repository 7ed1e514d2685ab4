// Slow (about 15-30 s): recheck's full analysis of every drafting template's pattern, against the
// verdict kept for it (template-verdicts.ts). `npm run test:slow`; `npm test` runs it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzePattern } from '../../src/core/domains/guard/regex-safety';
import { fixedDraftPatterns } from '../../src/core/domains/guard/rule-draft';
import { TEMPLATE_VERDICTS } from '../../src/core/domains/guard/template-verdicts';

test('every kept template verdict is the one the analysis gives today', { timeout: 300_000 }, () => {
  const fresh: Record<string, unknown> = {};
  for (const t of fixedDraftPatterns()) fresh[t.template] = analyzePattern(t.pattern, t.flags);
  // On a difference, the message is the table to paste into template-verdicts.ts (and a new analyser revision).
  assert.deepEqual(TEMPLATE_VERDICTS, fresh, JSON.stringify(fresh, null, 2));
});
