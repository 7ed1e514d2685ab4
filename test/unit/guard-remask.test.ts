// Re-masking only around an edit (remaskText) must give exactly what masking the whole text gives:
// thousands of random edits, chained as a person types, on real code of every lexer family, with
// the characters that open and close comments, strings, templates and regex literals; and the
// re-check the editor runs after each edit must report what a full check reports.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { rng } from '../../bench/recipe-corpus';
import { builtinRules } from '../../src/core/domains/guard/packs';
import { RuleRunner } from '../../src/core/domains/guard/runner';
import { languageForPath } from '../../src/core/ground/kernel/languages';
import { type MaskedText, maskText, remaskText } from '../../src/core/ground/text/mask';
import { allBuiltinsOn } from './guard-helpers';

const FIXTURES = path.join(__dirname, '../fixtures/guard-real');

/** Real excerpts per language (test/fixtures/guard-real), joined into one text of each. */
function corpus(): Map<string, string> {
  const byLanguage = new Map<string, string[]>();
  for (const repo of readdirSync(FIXTURES).sort()) {
    for (const file of readdirSync(path.join(FIXTURES, repo)).sort()) {
      const language = languageForPath(file);
      if (!language) continue;
      const list = byLanguage.get(language) ?? [];
      if (list.length < 6) list.push(readFileSync(path.join(FIXTURES, repo, file), 'utf8'));
      byLanguage.set(language, list);
    }
  }
  return new Map([...byLanguage].map(([l, texts]) => [l, texts.join('\n')]));
}

// What a person types that changes how everything after it lexes, and ordinary text.
const PIECES = [
  '"',
  "'",
  '`',
  '${',
  '}',
  '{',
  '/*',
  '*/',
  '//',
  '/',
  '#',
  '"""',
  "'''",
  'r#"',
  '"#',
  '#"',
  '\n',
  '\\',
  'x',
  ' ',
  'return /a+/g;',
  '@"',
  "b'",
  'f"',
  '\n\n',
  'let s = "a";\n',
  '// note\n',
  '/* c */',
  '`t ${v} u`',
];

function same(got: MaskedText, want: MaskedText, what: string): void {
  if (got.code !== want.code) {
    let i = 0;
    while (got.code[i] === want.code[i]) i++;
    assert.fail(
      `${what}: the code differs at ${i}: ${JSON.stringify(got.code.slice(Math.max(0, i - 40), i + 40))} vs ${
        JSON.stringify(want.code.slice(Math.max(0, i - 40), i + 40))
      }`,
    );
  }
  assert.ok(Buffer.compare(Buffer.from(got.kinds), Buffer.from(want.kinds)) === 0, `${what}: the kinds differ`);
}

test('re-masking around an edit equals masking the whole text, over 6,000 chained random edits in every language', () => {
  const texts = corpus();
  assert.ok(texts.size >= 7, `languages: ${[...texts.keys()].join(', ')}`);
  let edits = 0;
  for (const [language, original] of texts) {
    const rand = rng(language.length * 7919);
    let text = original;
    let masked = maskText(text, language, { forRemask: true });
    for (let step = 0; step < 800; step++) {
      const at = Math.floor(rand() * (text.length + 1));
      const roll = rand();
      const remove = roll < 0.35 ? Math.floor(rand() * 6) : roll < 0.45 ? Math.floor(rand() * 200) : 0;
      const insert = roll < 0.2 ? '' : PIECES[Math.floor(rand() * PIECES.length)];
      const next = text.slice(0, at) + insert + text.slice(Math.min(text.length, at + remove));
      const again = remaskText({ text, masked }, next, language);
      const what = `${language}, edit ${step} (at ${at}, -${remove}, +${JSON.stringify(insert)})`;
      same(again, maskText(next, language), what);
      // Every so often, start over from a full mask (a file reopened), so both paths seed later edits.
      masked = step % 97 === 0 ? maskText(next, language, { forRemask: true }) : again;
      text = next;
      edits++;
    }
  }
  assert.ok(edits >= 6000, `${edits} edits`);
});

test('an edit that opens a block comment re-masks to the end; closing it again brings the rest back', () => {
  const text = 'const a = 1;\nconst b = "x";\n// c\nconst d = `t ${e} f`;\nconst g = 2 / 3;\n';
  const m = maskText(text, 'typescript', { forRemask: true });
  const opened = text.replace('const b', '/* const b');
  const om = remaskText({ text, masked: m }, opened, 'typescript');
  assert.equal(om.code, maskText(opened, 'typescript').code);
  assert.match(om.code, /\/\*\s+$/, 'everything after the opener is comment');
  const closed = opened.replace('const b', 'x */ const b');
  assert.equal(
    remaskText({ text: opened, masked: om }, closed, 'typescript').code,
    maskText(closed, 'typescript').code,
  );
});

test('a line that starts with a slash is lexed by the token before it: deleting that token turns a division into a regex literal', () => {
  const text = 'const a = b\n/x/g.test(s);\nconst c = 1;\n';
  const m = maskText(text, 'javascript', { forRemask: true });
  assert.ok(!/\/ \//.test(m.code), 'b / x / g: a division');
  const next = text.replace('= b\n', '=\n');
  const again = remaskText({ text, masked: m }, next, 'javascript');
  same(again, maskText(next, 'javascript'), 'division to regex');
  assert.match(again.code, /\n\/ \/g\.test/, 'now a regex literal, its body blanked');
});

test('a re-check after each random edit, as the editor runs it while typing, reports what a full check of the text reports', async () => {
  const rules = builtinRules();
  const everyRule = allBuiltinsOn(rules);
  const typing = new RuleRunner(rules, { severityOverrides: everyRule, ruleExclusions: [] });
  const fresh = new RuleRunner(rules, { severityOverrides: everyRule, ruleExclusions: [] });
  let checks = 0;
  for (const [language, original] of corpus()) {
    await typing.prepare(language);
    await fresh.prepare(language);
    const rand = rng(language.length * 104729);
    let text = original;
    const at = { documentKey: `doc-${language}`, incremental: true, budgetMs: 10_000, path: `src/file.${language}` };
    typing.checkText(text, language, at);
    for (let step = 0; step < 120; step++) {
      const pos = Math.floor(rand() * (text.length + 1));
      const remove = rand() < 0.3 ? Math.floor(rand() * 12) : 0;
      const insert = rand() < 0.5
        ? PIECES[Math.floor(rand() * PIECES.length)]
        : [
          'eval(x)',
          'catch (e) {}',
          'x!.y',
          'try! f()',
          'as! T',
          '.unwrap()',
          'panic!("x")',
          'println!("a")',
          'console.log(1)',
          'except:\n    pass\n',
        ][Math.floor(rand() * 10)];
      text = text.slice(0, pos) + insert + text.slice(Math.min(text.length, pos + remove));
      const inc = typing.checkText(text, language, at).violations.map((v) => `${v.ruleId}@${v.startOffset}`);
      const full = fresh.checkText(text, language, { budgetMs: 10_000, path: at.path }).violations.map((v) =>
        `${v.ruleId}@${v.startOffset}`
      );
      assert.deepEqual(inc, full, `${language}, edit ${step} at ${pos} (+${JSON.stringify(insert)})`);
      checks++;
    }
  }
  assert.ok(checks >= 800, `${checks} checks`);
});
