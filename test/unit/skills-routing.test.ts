import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { SkillRegistry } from '../../src/core/domains/skills/registry';
import { SkillSearchIndex } from '../../src/core/domains/skills/search';
import { REPO_SKILLS } from './skills-helpers';

// The routing evaluation's catalog: 190 real skills from seven public collections (licences in
// bench/data/skill-routing/LICENSES.md) and the 13 bundled ones.
const bundled = new SkillRegistry({ bundledDir: REPO_SKILLS }).list();
const catalog = [
  ...new SkillRegistry({ bundledDir: path.join(__dirname, '..', '..', 'bench', 'data', 'skill-routing', 'skills') })
    .list(),
  ...bundled,
];
const index = new SkillSearchIndex(catalog);

test('a Chinese request naming a product that a skill about other products never mentions is "no match"', () => {
  // 知识库/首页 translate to words of a Notion knowledge-capture skill; it is about Notion, and Confluence is not in it.
  const confluence = index.route('在 Confluence 里建一个团队知识库首页', 3);
  assert.equal(confluence.noMatch, true);
  assert.deepEqual(confluence.matches, []);
  assert.equal(confluence.nearest?.skill.name, 'notion-knowledge-capture', 'the nearest skill is still said');
});

test('a Chinese request naming a technology its skill mentions still finds it', () => {
  assert.equal(index.route('帮我用 PyMC 建一个分层模型', 3).matches[0]?.skill.name, 'pymc');
  assert.equal(
    index.route('用 Notion 整理一下这周的会议纪要', 3).matches[0]?.skill.name,
    'notion-meeting-intelligence',
  );
  assert.equal(
    index.route('帮我审一下这个 PostgreSQL 的建表语句和索引', 3).matches[0]?.skill.name,
    'postgresql-code-review',
  );
});

test('a skill for any code base is not refused for the stack a Chinese request names', () => {
  // The bundled skills name no product: a Python project, Kotlin code or GitHub Actions are the user's setting, not another subject.
  const own = new SkillSearchIndex(bundled);
  const first = (q: string) => own.route(q, 3).matches[0]?.skill.name;
  assert.equal(first('给这个 Python 项目做一次冷启动，把规范都提取出来'), 'autosnippet-coldstart');
  assert.equal(first('检查一下我改的 Kotlin 代码有没有违反团队规范'), 'autosnippet-guard');
  assert.equal(first('在 GitHub Actions 里跑 guard 检查'), 'autosnippet-guard');
  assert.equal(first('我们在飞书里约定过的接口封装写法，帮我记成一条知识'), 'autosnippet-create');
});

test('matches come in the order of the confidence they show', () => {
  const queries = [
    'write a pytest fixture for a flaky database test',
    'review my pull request for security problems',
    'make slides for the quarterly review',
    'set up guard rules for a Swift project',
    '帮我写一份周报',
    'deploy the app to Azure',
  ];
  let pairs = 0;
  for (const q of queries) {
    const matches = index.search(q, 5);
    for (let i = 1; i < matches.length; i++, pairs++) {
      assert.ok(
        matches[i].confidence <= matches[i - 1].confidence,
        `${q}: ${matches.map((m) => `${m.skill.name} ${m.confidence}`).join(', ')}`,
      );
    }
  }
  assert.ok(pairs >= 20);
});
