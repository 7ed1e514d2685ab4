import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { SkillRegistry } from '../../src/core/skills/registry';
import { SkillSearchIndex } from '../../src/core/skills/search';
import { REPO_SKILLS } from './skills-helpers';

// The routing evaluation's catalog: 190 real skills from seven public collections (licences in
// bench/data/skill-routing/LICENSES.md) and the 13 bundled ones.
const catalog = [...new SkillRegistry({ bundledDir: path.join(__dirname, '..', '..', 'bench', 'data', 'skill-routing', 'skills') }).list(), ...new SkillRegistry({ bundledDir: REPO_SKILLS }).list()];
const index = new SkillSearchIndex(catalog);

test('a Chinese request about a technology no skill mentions is "no match", even when its translated words meet a skill', () => {
  // The glosses of 机器人/消息/markdown meet a Markdown-writing skill; none of the skills mentions 钉钉 (DingTalk).
  const dingtalk = index.route('钉钉群机器人的 webhook 怎么发一条 markdown 消息', 3);
  assert.equal(dingtalk.noMatch, true);
  assert.deepEqual(dingtalk.matches, []);
  assert.ok(dingtalk.nearest, 'the nearest skill is still said');
  assert.equal(index.route('把 Jenkins 的流水线改成并行跑测试', 3).noMatch, true, '"parallel" and "tests" meet a parallel-agents skill; Jenkins is not in it');
});

test('a Chinese request naming a technology its skill mentions still finds it', () => {
  assert.equal(index.route('帮我用 PyMC 建一个分层模型', 3).matches[0]?.skill.name, 'pymc');
  assert.equal(index.route('用 Notion 整理一下这周的会议纪要', 3).matches[0]?.skill.name, 'notion-meeting-intelligence');
  assert.equal(index.route('帮我审一下这个 PostgreSQL 的建表语句和索引', 3).matches[0]?.skill.name, 'postgresql-code-review');
});
