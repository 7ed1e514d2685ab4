import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { builtinRules } from '../../src/core/domains/guard/packs';
import type { GuardRule } from '../../src/core/domains/guard/rule';
import { RuleRunner } from '../../src/core/domains/guard/runner';
import { grammarFor, TreeSitterHost } from '../../src/core/domains/guard/structural';

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
  // A generous budget: the machine running the tests may be busy, and an incomplete check proves nothing.
  const res = runner.checkText(code, language, { budgetMs: 10_000 });
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
      const bad = await idsFound(ex.bad!, language);
      const good = await idsFound(ex.good!, language);
      assert.ok(
        bad.includes(rule.id),
        `${rule.id} missed its bad example ${i} (${language}):\n${ex.bad}\nfound: ${bad.join(', ') || 'nothing'}`,
      );
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

test('a built-in rule finds nothing in a text without any of its needles (so such texts are not searched with it)', async () => {
  // The corpus: every example, and this repository's own sources and fixtures.
  const texts: { text: string; language: string }[] = rules.flatMap((r) =>
    (r.examples ?? []).flatMap((e) =>
      [e.bad!, e.good!].map((text) => ({ text, language: e.language ?? languageOf(r) }))
    )
  );
  const byExtension: Record<string, string> = {
    ts: 'typescript',
    js: 'javascript',
    swift: 'swift',
    m: 'objective-c',
    h: 'objective-c',
    py: 'python',
    go: 'go',
    java: 'java',
    kt: 'kotlin',
    rs: 'rust',
  };
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      const ext = e.name.split('.').pop()!;
      if (e.isDirectory()) walk(p);
      else if (byExtension[ext] && statSync(p).size < 500_000) {
        texts.push({ text: readFileSync(p, 'utf8'), language: byExtension[ext] });
      }
    }
  };
  walk(path.join(__dirname, '../../src'));
  walk(path.join(__dirname, '../fixtures'));
  for (const r of rules) {
    if (r.pattern.kind !== 'regex' || !r.needles) continue;
    // The rule without its needles (its refiner still applies): wherever it finds something, a needle is there.
    const alone = new RuleRunner([{ ...r, needles: undefined }], {
      severityOverrides: { [r.id]: r.severity },
      ruleExclusions: [],
    });
    for (const { text, language } of texts) {
      if (!r.languages.includes('*') && !r.languages.includes(language)) continue;
      const found = alone.checkText(text, language, { budgetMs: 10_000 }).violations;
      if (found.length) {
        assert.ok(
          r.needles.some((n) => text.includes(n)),
          `${r.id} found "${found[0].matchedText}" in a text without any of ${JSON.stringify(r.needles)}`,
        );
      }
    }
  }
});

test('a text holding the needles of only some rules is searched with just those, and finds exactly what each rule finds alone', async () => {
  // Every JavaScript rule's bad examples, in changing subsets: the combined search narrowed to the
  // rules whose needles are present must report what the rules report one by one.
  const js = rules.filter((r) =>
    r.pattern.kind === 'regex' && (r.languages.includes('javascript') || r.languages.includes('*'))
  );
  const bad = js.flatMap((r) =>
    (r.examples ?? []).filter((e) => !e.language || e.language === 'javascript').map((e) => e.bad!)
  );
  const alone = js.map((r) => new RuleRunner([r], { severityOverrides: { [r.id]: r.severity }, ruleExclusions: [] }));
  const together = new RuleRunner(js, {
    severityOverrides: Object.fromEntries(js.map((r) => [r.id, r.severity])),
    ruleExclusions: [],
  });
  const key = (v: { ruleId: string; startOffset: number; endOffset: number }) =>
    `${v.ruleId}@${v.startOffset}-${v.endOffset}`;
  for (let mask = 1; mask < 64; mask += 5) {
    const text = bad.filter((_, i) => (mask >> i % 6) & 1).join('\n\n');
    const expected = alone.flatMap((r) => r.checkText(text, 'javascript', { budgetMs: 10_000 }).violations).map(key)
      .sort();
    const got = together.checkText(text, 'javascript', { budgetMs: 10_000 }).violations.map(key).sort();
    assert.deepEqual(got, expected, `subset ${mask}`);
    assert.ok(expected.length > 0, 'the subset has something to find');
  }
  // A text with none of the needles: nothing, and nothing searched.
  assert.deepEqual(together.checkText('const a = 1;\nexport default a;\n', 'javascript').violations, []);
});
