// Text no person writes (one word of a megabyte, a megabyte of Chinese without a break) costs the
// analyser time in proportion to its length: a SKILL.md cannot stall skill search.
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, test } from 'node:test';
import { ToolCatalog } from '../../src/core/catalog/catalog';
import { skillTools } from '../../src/core/catalog/skills';
import { loadTokenCounter } from '../../src/core/domains/skills/tokens';
import {
  analyze,
  englishGlosses,
  MAX_TOKEN_CHARS,
  technologiesIn,
  tokenize,
  wordVectors,
} from '../../src/core/ground/text';
import { openWorkspace, skillText, tempDir, writeSkill } from './skills-helpers';

const MB = 1_000_000;
/** Long enough that the old quadratic and cubic steps took from half a minute to hours. */
const LONG = 100_000;
/** Generous: a search over a few skills answers in milliseconds; the quadratic steps took minutes. */
const BUDGET_MS = 2000;

const lettersWord = (n: number) =>
  Array.from({ length: n }, (_, i) => String.fromCharCode(97 + ((i * 7919) % 26))).join('');
const hanLine = (n: number) =>
  Array.from({ length: n }, (_, i) => String.fromCharCode(0x4e00 + ((i * 7919) % 2000))).join('');
const mixedLine = (n: number) =>
  Array.from({ length: n }, (_, i) => (i % 3 === 0 ? String.fromCharCode(0x4e00 + (i % 500)) : i % 7 === 0 ? 'Q' : 'x'))
    .join('');

// The glossary, word vectors and technology names load once per process, on first use: not a cost of the text.
before(() => {
  analyze('warm 中文 Go');
  englishGlosses('中文');
  wordVectors()?.meaningOf('warm');
  technologiesIn('Go');
});

/** Milliseconds of this process's CPU since `start`: the machine's other work does not count, as it does in wall time. */
const cpuMs = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

function timed<T>(f: () => T): { value: T; ms: number } {
  const start = process.cpuUsage();
  const value = f();
  return { value, ms: cpuMs(start) };
}

test('a token longer than the bound gives no term; the words and identifier parts around it still do', () => {
  const long = 'x'.repeat(MAX_TOKEN_CHARS + 1);
  assert.deepEqual(tokenize(`deploy ${long} release`), ['deploy', 'release']);
  assert.deepEqual(
    tokenize(`${'a'.repeat(MAX_TOKEN_CHARS)} b`),
    ['a'.repeat(MAX_TOKEN_CHARS), 'b'],
    'a token of exactly the bound is kept',
  );
  // A long identifier: its parts are words; only the whole, past the bound, is dropped.
  const ident = Array.from({ length: 12 }, () => 'ReturnsErrorWhen').join('');
  assert.ok(ident.length > MAX_TOKEN_CHARS);
  const terms = tokenize(ident);
  assert.ok(!terms.some((t) => t.length > MAX_TOKEN_CHARS));
  assert.deepEqual([...new Set(terms)], ['returns', 'error', 'when']);
  assert.deepEqual(tokenize(`Ω${'É'.repeat(MAX_TOKEN_CHARS)}`), [], 'a non-ASCII word past the bound too');
});

for (
  const [kind, text] of [
    ['one word of a megabyte (letters)', lettersWord(MB)],
    ['one word of a megabyte (one letter)', 'a'.repeat(MB)],
    ['one word of 100k capitals beyond ASCII', 'É'.repeat(LONG)],
    ['one identifier of 100k characters', 'aB'.repeat(LONG / 2)],
  ] as const
) {
  test(`analysis is linear: ${kind}`, () => {
    const { ms } = timed(() => {
      analyze(text);
      wordVectors()?.meaningOf(text);
      technologiesIn(text);
    });
    assert.ok(ms < BUDGET_MS, `${Math.round(ms)} ms`);
  });
}

test('analysis is linear: a Chinese line without a break and a mixed one, 100k characters each', () => {
  for (const text of [hanLine(LONG), mixedLine(LONG)]) {
    const { value, ms } = timed(() => analyze(text));
    assert.ok(value.length > LONG / 3, 'every bigram is still a term');
    assert.ok(ms < BUDGET_MS, `${Math.round(ms)} ms`);
    const glosses = timed(() => englishGlosses(text));
    assert.ok(glosses.ms < BUDGET_MS, `glosses: ${Math.round(glosses.ms)} ms`);
  }
});

const catalog = new ToolCatalog(skillTools);

for (
  const [kind, description] of [
    ['a description of a megabyte of words', Array.from({ length: MB / 10 }, (_, i) => `word${i % 997} `).join('')],
    ['a description that is one word of a megabyte', lettersWord(MB)],
    ['a description that is a megabyte of Chinese on one line', hanLine(MB / 3)],
    ['a description that is a megabyte of mixed text on one line', mixedLine(MB / 2)],
  ] as const
) {
  test(`search_skills answers within its budget with ${kind}`, async () => {
    const root = tempDir('as-linear-');
    writeSkill(
      path.join(root, '.autosnippet', 'skills', 'hostile'),
      skillText(`name: hostile\ndescription: ${JSON.stringify(description)}`),
    );
    writeSkill(
      path.join(root, '.autosnippet', 'skills', 'release-notes'),
      skillText(
        'name: release-notes\ndescription: Write release notes from the merged changes. Use when preparing a release.',
      ),
    );
    const ws = await openWorkspace(root);
    const start = process.cpuUsage();
    const r = await catalog.invoke(
      ws,
      'search_skills',
      { query: `write the release notes ${lettersWord(3000)} 写发布说明` },
      { actor: 'external_agent', channel: 'test' },
    );
    const ms = cpuMs(start);
    assert.ok(r.ok, JSON.stringify(!r.ok && r.error));
    assert.equal((r.data as { matched_skills: { name: string }[] }).matched_skills[0]?.name, 'release-notes');
    assert.ok(ms < BUDGET_MS, `${Math.round(ms)} ms`);
  });
}

test('a skill whose description is a megabyte is still found, its description cut in the answer', async () => {
  const root = tempDir('as-linear-');
  writeSkill(
    path.join(root, '.autosnippet', 'skills', 'long-notes'),
    skillText(`name: long-notes\ndescription: ${JSON.stringify(`Write release notes. ${lettersWord(MB)}`)}`),
  );
  const ws = await openWorkspace(root);
  const r = await catalog.invoke(
    ws,
    'search_skills',
    { query: 'write release notes' },
    { actor: 'external_agent', channel: 'test' },
  );
  assert.ok(r.ok, JSON.stringify(!r.ok && r.error));
  const found = (r.data as { matched_skills: { name: string; description: string }[] }).matched_skills;
  assert.equal(found[0]?.name, 'long-notes');
  assert.ok(found[0].description.length <= 1024 && found[0].description.startsWith('Write release notes.'));
});

test('search_skills with mode "llm" (no model here) answers within its budget when a description is one word of a megabyte', async () => {
  const root = tempDir('as-linear-');
  writeSkill(
    path.join(root, '.autosnippet', 'skills', 'hostile'),
    skillText(`name: hostile\ndescription: ${'abcdefghij'.repeat(MB / 10)}`),
  );
  writeSkill(
    path.join(root, '.autosnippet', 'skills', 'release-notes'),
    skillText(
      'name: release-notes\ndescription: Write release notes from the merged changes. Use when preparing a release.',
    ),
  );
  const ws = await openWorkspace(root);
  await loadTokenCounter();
  const start = process.cpuUsage();
  const r = await catalog.invoke(
    ws,
    'search_skills',
    { query: 'write the release notes', mode: 'llm' },
    { actor: 'external_agent', channel: 'test' },
  );
  const ms = cpuMs(start);
  assert.ok(r.ok, JSON.stringify(!r.ok && r.error));
  assert.equal((r.data as { matched_skills: { name: string }[] }).matched_skills[0]?.name, 'release-notes');
  assert.ok(ms < BUDGET_MS, `${Math.round(ms)} ms`);
});

test('token counts stay exact for text without an overlong run of letters', async () => {
  const counter = await loadTokenCounter();
  const text = 'Write release notes from the merged changes. 写发布说明，列出每个改动。 fetchUserById(id) '.repeat(20);
  const [{ Tiktoken }, ranks] = await Promise.all([import('js-tiktoken/lite'), import('js-tiktoken/ranks/o200k_base')]);
  assert.equal(counter.count(text), new Tiktoken(ranks.default).encode(text, [], []).length);
  const { ms, value } = timed(() => counter.count(`intro ${'abcdefghij'.repeat(MB / 10)} outro`));
  assert.ok(ms < BUDGET_MS, `${Math.round(ms)} ms`);
  assert.ok(value >= MB / 10, 'an overlong run counts at least a token per ten characters');
});
