import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseSkill } from '../../src/core/domains/skills/parse';
import { SkillRegistry } from '../../src/core/domains/skills/registry';
import { fitToBudget, renderCatalog, renderLevel2 } from '../../src/core/domains/skills/render';
import { SkillSearchIndex } from '../../src/core/domains/skills/search';
import { loadTokenCounter } from '../../src/core/domains/skills/tokens';
import type { Skill } from '../../src/core/domains/skills/types';
import { AutoSnippetError } from '../../src/core/ground/kernel/errors';
import { analyze } from '../../src/core/ground/text';
import { BUNDLED_FIXTURE, skillText } from './skills-helpers';

const bundled = () => new SkillRegistry({ bundledDir: BUNDLED_FIXTURE }).list();

function synthetic(name: string, description: string, body: string): Skill {
  const r = parseSkill({
    text: skillText(`name: ${name}\ndescription: ${description}`, body),
    file: `/x/${name}/SKILL.md`,
    dir: `/x/${name}`,
    folderName: name,
    source: { id: 'bundled', label: 'b', dir: '/x', rank: 4 },
  });
  if (!r.ok) throw new Error(r.reason);
  return r.skill;
}

test('the tokenizer is the real one (o200k_base), not an estimate', async () => {
  const counter = await loadTokenCounter();
  assert.equal(counter.exact, true);
  assert.equal(counter.encoding, 'o200k_base');
  assert.equal(counter.count('hello world'), 2);
});

test('without a budget the catalog lists every skill with its full description', async () => {
  const counter = await loadTokenCounter();
  const skills = bundled();
  const c = renderCatalog(skills, counter);
  assert.deepEqual(c.included, skills.map((s) => s.name));
  assert.deepEqual([c.omitted, c.shortened], [[], []]);
  assert.match(
    c.text,
    /^<available-skills>\n<skill><name>guard-rules<\/name><description>Use when writing or checking guard rules/,
  );
  assert.equal(c.tokens, counter.count(c.text));
});

test('over budget, descriptions are cut to their first sentence before any skill is left out', async () => {
  const counter = await loadTokenCounter();
  const skills = ['alpha', 'beta', 'gamma', 'delta'].map((n) =>
    synthetic(
      n,
      `Use when working on ${n}. Then it explains at length how ${n} is set up, tested, reviewed and shipped by the team.`,
      'Body.',
    )
  );
  const full = renderCatalog(skills, counter);
  const c = renderCatalog(skills, counter, { maxTokens: full.tokens - 5 });
  assert.ok(c.tokens <= full.tokens - 5);
  assert.deepEqual(c.omitted, []);
  assert.ok(c.shortened.length > 0);
  assert.match(c.text, /cut to the first sentence/);
});

test('a tight budget leaves skills out from the end and says which, within the budget', async () => {
  const counter = await loadTokenCounter();
  const skills = bundled();
  const c = renderCatalog(skills, counter, { maxTokens: 90 });
  assert.ok(c.tokens <= 90, `tokens ${c.tokens}`);
  assert.ok(c.omitted.length > 0);
  assert.deepEqual([...c.included, ...c.omitted].sort(), skills.map((s) => s.name).sort());
  assert.match(c.text, new RegExp(`${c.omitted.length} more skills? (is|are) not listed`));
  assert.match(c.text, /list_skills/);
  for (const name of c.included) assert.match(c.text, new RegExp(`<name>${name}</name>`));
  for (const name of c.omitted) assert.doesNotMatch(c.text, new RegExp(`<name>${name}</name>`));
});

test('the markdown catalog has one line per skill', async () => {
  const counter = await loadTokenCounter();
  const c = renderCatalog(bundled(), counter, { format: 'markdown' });
  assert.equal(c.text.split('\n').length, 4);
  assert.match(c.text, /^- \*\*guard-rules\*\*: Use when/);
});

test('level 2 lists the chunks under the body and marks those already loaded', () => {
  const skill = bundled().find((s) => s.name === 'project-coldstart')!;
  const text = renderLevel2(skill, { loadedChunks: ['troubleshooting'] });
  assert.match(text, /- examples: Worked examples for large monorepos\n/);
  assert.match(text, /- troubleshooting: What to do when the scan finds nothing \(already loaded\)/);
  assert.doesNotMatch(text, /Scan each package on its own/);
  assert.match(text, /Related: guard-rules, recipe-writing/);
  const section = renderLevel2(skill, { section: 'Steps' });
  assert.match(section, /Other sections: Pitfalls \| Example of the chunk syntax/);
  assert.doesNotMatch(section, /troubleshooting/);
});

test('fitToBudget refuses with the size, or cuts at a line and names the left-out headings', async () => {
  const counter = await loadTokenCounter();
  const text = ['# Title', 'intro '.repeat(20), '## Alpha', 'alpha '.repeat(40), '## Beta', 'beta '.repeat(40)].join(
    '\n',
  );
  assert.throws(
    () => fitToBudget(text, counter, { maxTokens: 50, what: 'The text' }),
    (e: unknown) =>
      e instanceof AutoSnippetError && e.code === 'BUDGET_EXCEEDED'
      && (e.details?.tokens as number) === counter.count(text),
  );
  const cut = fitToBudget(text, counter, { maxTokens: 80, truncate: true, what: 'The text' });
  assert.ok(cut.tokens <= 80);
  assert.match(cut.text, /^# Title\n/);
  assert.match(cut.note!, /"Beta"/);
  assert.equal(fitToBudget(text, counter, { maxTokens: 10_000, what: 'The text' }).text, text);
});

test('BM25: a term in the name or description outranks the same term deep in a body', () => {
  const index = new SkillSearchIndex(
    [
      synthetic(
        'deploy-helper',
        'Use when shipping a release.',
        'Mentions migrations once among many other words about servers and releases.',
      ),
      synthetic('database-migrations', 'Use when writing database migrations.', 'Steps for schema changes.'),
      synthetic('unrelated', 'Use when formatting.', 'Nothing relevant here.'),
    ],
    undefined,
    { semantic: false },
  );
  const r = index.search('how do I write a migration', 5);
  assert.deepEqual(r.map((m) => m.skill.name), ['database-migrations', 'deploy-helper']);
  assert.ok(r[0].score > r[1].score);
  assert.deepEqual(r[0].matchedTerms.sort(), ['migration', 'write']);
});

test('a request that shares no word with any skill (typos) is still ranked by how close its letters are, not by catalog order', () => {
  const index = new SkillSearchIndex([
    synthetic('kubernetes-costs', 'Use when estimating kubernetes cluster costs.', 'Body.'),
    synthetic('kubernetes-deploy', 'Use when deploying services to kubernetes clusters.', 'Body.'),
  ]);
  const r = index.search('kuberntes deploiing servces clustrs', 5);
  assert.equal(r.length, 2);
  assert.equal(r[0]?.skill.name, 'kubernetes-deploy', r.map((m) => m.skill.name).join(', '));
});

test('skill search analyses text with the shared analyser; joined pairs match compound names', () => {
  assert.deepEqual(analyze('The Rules for Starting projects, writes and writing'), [
    'rule',
    'start',
    'project',
    'write',
    'write',
  ]);
  const index = new SkillSearchIndex([
    synthetic('coldstart', 'Use when the index is empty.', 'Body.'),
    synthetic('other', 'Use when the weather changes.', 'Body.'),
  ]);
  const r = index.search('cold start', 2);
  assert.deepEqual(r.map((m) => [m.skill.name, m.matchedTerms]), [['coldstart', ['cold start']]]);
});
