// A drafted rule's trial over the repository checks many files under one watchdog call; a rule that
// runs past the per-file budget on one file is still stopped there, the trial says it is incomplete,
// and the other files' findings are all reported.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tryDraftRules } from '../../src/core/domains/guard/rule-draft-check';
import type { GuardPattern } from '../../src/core/domains/knowledge/types';
import { guardWorkspace } from './guard-helpers';

test('a slow drafted rule is stopped on the file it overruns; the trial is incomplete and keeps every other finding', async () => {
  const files: Record<string, string> = { 'package.json': '{ "name": "app" }\n' };
  // Enough small files for several slices, a violation in each.
  for (let i = 0; i < 150; i++) files[`src/f${String(i).padStart(3, '0')}.ts`] = `export const x = ${i};\n`;
  // Quadratic (recheck tolerates it, unproven linear): seconds on a run of 60,000 spaces without a budget.
  files['src/f075-big.ts'] = `export const k = y;${' '.repeat(60_000)}k;\n`;
  const { ws, cleanup } = await guardWorkspace(files);
  try {
    const guard: GuardPattern = {
      id: 'no-spaced-digit',
      message: 'No digit after spaces.',
      severity: 'warning',
      languages: ['typescript'],
      pattern: '[ \\t]+\\d',
      examples: { bad: ['const x = 1;'], good: ['const x = y;', '// x = 1'] },
    };
    const out = await tryDraftRules(ws, [{
      key: 'k',
      title: 't',
      language: 'typescript',
      summary: 's',
      guards: [guard],
    }], {
      budgetMs: 100,
    });
    const t = out.get('k')!;
    assert.deepEqual(t.problems, []);
    assert.equal(t.report?.incomplete, true, 'the overrun is reported');
    assert.equal(t.report?.files, 151);
    // Every small file's violation is counted; the big file, cut short, has none.
    assert.equal(t.report?.rules[0].total, 150);
  } finally {
    await cleanup();
  }
});
