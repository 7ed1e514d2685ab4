// Guard on excerpts of real code (test/fixtures/guard-real/<repository>/cases.json, each with its
// repository's licence and commit): every case lists what a reviewer who had not seen the rules
// labelled as problems there (`expect`) — so each is a true-positive and a true-negative test at once
// — checked as the file it came from (or, with asProduction, as production code). Every rule is on,
// the ones that are off by default too. Where guard knowingly differs from the label, `disagree`
// says how and why (a suppression the team wrote, a gap that needs types); the test pins that
// behaviour too, so any change shows. bench/guard-eval.ts reports recall against the labels alone.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { headerLanguage } from '../../src/core/domains/guard/header-language';
import { builtinRules } from '../../src/core/domains/guard/packs';
import { RuleRunner } from '../../src/core/domains/guard/runner';
import { languageForPath } from '../../src/core/ground/kernel/languages';
import { allBuiltinsOn } from './guard-helpers';

const FIXTURES = path.join(__dirname, '../fixtures/guard-real');

interface Case {
  file: string;
  path: string;
  lines: string;
  asProduction?: boolean;
  expect: string[];
  note: string;
  /**
   * Labelled problems guard does not report (`missed`) or reports beyond the labels (`extra`), and why.
   * `byDesign`: the silence issue 13 asks for (the team's own suppression, an accepted justification,
   * code outside a hygiene rule's scope), as opposed to a limit of the rule; or `outvoted`, a label two
   * other blind reviewers judged intended (bench/data/guard-eval/adjudication-*.json).
   */
  disagree?: {
    missed?: string[];
    byDesign?: 'suppression' | 'justification' | 'scope' | 'outvoted';
    extra?: string[];
    why: string;
  };
}

const rules = builtinRules();
const runner = new RuleRunner(rules, { severityOverrides: allBuiltinsOn(rules), ruleExclusions: [] });

for (const repo of readdirSync(FIXTURES).sort()) {
  const file = path.join(FIXTURES, repo, 'cases.json');
  if (!existsSync(file)) continue;
  const { repository, commit, cases } = JSON.parse(readFileSync(file, 'utf8')) as {
    repository: string;
    commit: string;
    cases: Case[];
  };
  test(`${repository}@${commit.slice(0, 7)}: guard reports exactly the labelled problems in ${cases.length} excerpts`, async () => {
    assert.ok(
      existsSync(path.join(FIXTURES, repo, 'cases.json'))
        && readdirSync(path.join(FIXTURES, repo)).some((n) => /^(LICEN[CS]E|COPYING|UNLICENSE)/i.test(n)),
      `${repo} needs its licence beside the excerpts`,
    );
    for (const c of cases) {
      const abs = path.join(FIXTURES, repo, c.file);
      const text = readFileSync(abs, 'utf8');
      const pathLanguage = languageForPath(c.path);
      let found: string[] = [];
      // A file of no language (a `.pem`) is read by no rule.
      if (pathLanguage) {
        const language = headerLanguage(abs, text, pathLanguage);
        await runner.prepare(language);
        const res = runner.checkText(text, language, {
          path: c.path,
          budgetMs: 10_000,
          ...(c.asProduction ? { kind: 'production' as const } : {}),
        });
        assert.equal(res.incomplete, false, `${repo}/${c.file}: the check was incomplete`);
        found = [...new Set(res.violations.map((v) => `${v.ruleId}@${v.start.line}`))].sort();
      }
      const missed = new Set(c.disagree?.missed ?? []);
      assert.ok(
        [...missed].every((m) => c.expect.includes(m)),
        `${repo}/${c.file}: disagree.missed lists only labelled problems`,
      );
      if (c.disagree?.byDesign) {
        assert.ok(
          missed.size > 0 && ['suppression', 'justification', 'scope', 'outvoted'].includes(c.disagree.byDesign),
          `${repo}/${c.file}: byDesign names why guard is asked to stay silent on what it missed`,
        );
      }
      const expected = [...c.expect.filter((e) => !missed.has(e)), ...(c.disagree?.extra ?? [])].sort();
      assert.deepEqual(
        found,
        expected,
        `${repo}/${c.file} (${c.path}:${c.lines}${c.asProduction ? ', as production code' : ''}): ${c.note}${
          c.disagree ? ` (known difference: ${c.disagree.why})` : ''
        }`,
      );
    }
  });
}

test('an Objective-C header is checked with the Objective-C rules', async () => {
  const header = readFileSync(path.join(FIXTURES, 'sdwebimage/SDWebImageManager.h'), 'utf8');
  assert.equal(headerLanguage('/nowhere/SDWebImageManager.h', header, 'c'), 'objective-c');
  assert.equal(
    headerLanguage('/nowhere/zlib.h', '#ifndef ZLIB_H\n#define ZLIB_H\nint deflate(void);\n#endif\n', 'c'),
    'c',
  );
  const strong = header.replace(
    '@property (weak, nonatomic, nullable) id <SDWebImageManagerDelegate> delegate;',
    '@property (strong, nonatomic, nullable) id <SDWebImageManagerDelegate> delegate;',
  );
  await runner.prepare('objective-c');
  const res = runner.checkText(strong, headerLanguage('/nowhere/SDWebImageManager.h', strong, 'c'), {
    path: 'SDWebImage/Core/SDWebImageManager.h',
  });
  assert.deepEqual(res.violations.map((v) => v.ruleId), ['objc/strong-delegate']);
});
