import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { findSection, type ParsedSkill, parseSkill, sectionText } from '../../src/core/domains/skills/parse';
import { listSkillResources } from '../../src/core/domains/skills/resources';
import type { Skill, SkillSource } from '../../src/core/domains/skills/types';
import { BUNDLED_FIXTURE, skillText, tempDir } from './skills-helpers';

const source: SkillSource = { id: 'project', label: 'Project', dir: '/tmp/skills', rank: 0 };
const parse = (text: string, folderName = 'demo'): ParsedSkill =>
  parseSkill({
    text,
    file: `/tmp/skills/${folderName}/SKILL.md`,
    dir: `/tmp/skills/${folderName}`,
    folderName,
    source,
  });
const ok = (r: ParsedSkill): Skill => {
  if (!r.ok) assert.fail(`expected the skill to load, got: ${r.reason}`);
  return r.skill;
};
const rules = (s: Skill) => s.problems.map((p) => p.rule);

// Frontmatter

test('a SKILL.md without frontmatter is skipped with a reason', () => {
  const r = parse('# Just a heading\n\nText.\n');
  assert.equal(r.ok, false);
  assert.match(!r.ok ? r.reason : '', /no YAML frontmatter/);
  assert.equal(ok(parse(skillText('name: demo\ndescription: Use when testing.'))).name, 'demo');
});

test('frontmatter without a closing --- is skipped with a reason', () => {
  const r = parse('---\nname: demo\ndescription: Use when testing.\n\nBody\n');
  assert.equal(r.ok, false);
  assert.match(!r.ok ? r.reason : '', /closing `---`/);
});

test('unreadable YAML is skipped with the reason and the line', () => {
  const r = parse('---\nname: demo\ndescription: [unclosed\n---\nBody\n');
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.match(r.reason, /unreadable YAML/);
  assert.equal(r.problems[0].rule, 'frontmatter-yaml');
  assert.ok(r.problems[0].line && r.problems[0].line >= 3, `line ${r.problems[0].line}`);
});

test('a value with an unquoted colon is read leniently, with a warning on its line', () => {
  const s = ok(parse('---\nname: demo\ndescription: Use when: the value has a colon\n---\nBody\n'));
  assert.equal(s.description, 'Use when: the value has a colon');
  const w = s.problems.find((p) => p.rule === 'frontmatter-unquoted-colon');
  assert.equal(w?.severity, 'warning');
  assert.equal(w?.line, 3);
  const quoted = ok(parse('---\nname: demo\ndescription: "Use when: quoted"\n---\nBody\n'));
  assert.equal(quoted.description, 'Use when: quoted');
  assert.ok(!rules(quoted).includes('frontmatter-unquoted-colon'));
});

test('a skill with no description is skipped with the reason; an empty one too', () => {
  for (const fm of ['name: demo', 'name: demo\ndescription: "  "']) {
    const r = parse(skillText(fm));
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.reason : '', /no description/);
  }
});

test('a name that differs from its folder is a warning and the skill is kept under its name', () => {
  const s = ok(parse(skillText('name: other\ndescription: Use when testing.'), 'demo'));
  assert.equal(s.name, 'other');
  assert.equal(s.problems.find((p) => p.rule === 'name-matches-folder')?.severity, 'warning');
  assert.ok(
    !rules(ok(parse(skillText('name: demo\ndescription: Use when testing.'), 'demo'))).includes('name-matches-folder'),
  );
});

test('a name longer than 64 characters is a warning, not a reason to drop the skill', () => {
  const long = 'a'.repeat(70);
  const s = ok(parse(skillText(`name: ${long}\ndescription: Use when testing.`), long));
  assert.equal(s.name, long);
  assert.ok(rules(s).includes('name-length'));
  assert.ok(!rules(ok(parse(skillText('name: demo\ndescription: Use when testing.')))).includes('name-length'));
});

test('a missing name falls back to the folder name with a warning', () => {
  const s = ok(parse(skillText('description: Use when testing.'), 'folder-name'));
  assert.equal(s.name, 'folder-name');
  assert.ok(rules(s).includes('name-required'));
});

test('CRLF line ends and a byte-order mark do not shift line numbers', () => {
  const text = '\uFEFF---\r\nname: demo\r\ndescription: Use when testing.\r\n---\r\n\r\n## Steps\r\n\r\nOne.\r\n';
  const s = ok(parse(text));
  assert.equal(s.bodyLine, 5);
  assert.equal(s.sections[0].line, 6);
  assert.equal(s.fieldLines.description, 3);
});

test('metadata gives related skills (list or string) and use-when; else use-when comes from the description', () => {
  const a = ok(
    parse(skillText('name: demo\ndescription: Does things.\nmetadata:\n  related: [x, y]\n  use-when: first setup')),
  );
  assert.deepEqual(a.related, ['x', 'y']);
  assert.equal(a.useWhen, 'first setup');
  const b = ok(
    parse(
      skillText('name: demo\ndescription: Checks code. Use when a rule fails in CI.\nmetadata:\n  related: "x, y"'),
    ),
  );
  assert.deepEqual(b.related, ['x', 'y']);
  assert.equal(b.useWhen, 'Use when a rule fails in CI.');
});

// Body: sections and chunks

const body = [
  '# Title', // 6
  '',
  'Intro.',
  '',
  '## Steps', // 10
  '',
  '1. Do it.',
  '',
  '<chunk id="examples" description="Worked examples">', // 14
  '### Example',
  'Text of the example.',
  '</chunk>', // 17
  '',
  '## Pitfalls', // 19
  '',
  '- Careful.',
  '',
  '```md',
  '## Not a section',
  '<chunk id="fenced" description="not a chunk">',
  '</chunk>',
  '```',
  '',
  '# Appendix', // 29
  '',
  'Tail.',
].join('\n');
const sample = () => ok(parse(skillText('name: demo\ndescription: Use when testing.', body)));

test('## sections have the line of their heading and end before the next # or ## heading', () => {
  const s = sample();
  assert.equal(s.bodyLine, 5);
  assert.deepEqual(s.sections.map((x) => [x.heading, x.line, x.endLine]), [['Steps', 10, 17], ['Pitfalls', 19, 27]]);
  assert.deepEqual(s.sections[0].chunkIds, ['examples']);
});

test('headings and chunk tags inside fenced code are text', () => {
  const s = sample();
  assert.ok(!s.sections.some((x) => x.heading === 'Not a section'));
  assert.deepEqual(s.chunks.map((c) => c.id), ['examples']);
  assert.match(s.level2Body, /<chunk id="fenced"/);
});

test('a chunk is taken out of the level-2 body, with its lines, description and content', () => {
  const s = sample();
  const c = s.chunks[0];
  assert.deepEqual([c.id, c.description, c.line, c.endLine], ['examples', 'Worked examples', 14, 17]);
  assert.equal(c.content, '### Example\nText of the example.');
  assert.doesNotMatch(s.level2Body, /Text of the example/);
  assert.match(s.level2Body, /1\. Do it\./);
});

test('a section is returned without its chunks; sections are found by heading or slug, any case', () => {
  const s = sample();
  const steps = findSection(s, 'steps');
  assert.ok(steps);
  assert.equal(sectionText(s, steps), '## Steps\n\n1. Do it.');
  assert.equal(findSection(s, '## PITFALLS')?.heading, 'Pitfalls');
  assert.equal(findSection(s, 'nope'), undefined);
});

test('a chunk opened and closed on one line is a chunk', () => {
  const s = ok(
    parse(
      skillText(
        'name: demo\ndescription: Use when testing.',
        'Before.\n<chunk id="one" description="One line">Inline text.</chunk>\nAfter.\n',
      ),
    ),
  );
  assert.equal(s.chunks[0].content, 'Inline text.');
  assert.equal(s.level2Body, 'Before.\nAfter.');
});

test('an unclosed chunk stays in the body and is reported', () => {
  const s = ok(
    parse(
      skillText(
        'name: demo\ndescription: Use when testing.',
        '<chunk id="open" description="Never closed">\nStill here.\n',
      ),
    ),
  );
  assert.equal(s.chunks.length, 0);
  assert.match(s.level2Body, /Still here/);
  assert.equal(s.problems.find((p) => p.rule === 'chunk-unclosed')?.line, 6);
});

test('a repeated chunk id keeps the first as a chunk and the second in the body', () => {
  const s = ok(
    parse(
      skillText(
        'name: demo\ndescription: Use when testing.',
        '<chunk id="a" description="First">\nOne.\n</chunk>\n<chunk id="a" description="Second">\nTwo.\n</chunk>\n',
      ),
    ),
  );
  assert.deepEqual(s.chunks.map((c) => c.content), ['One.']);
  assert.match(s.level2Body, /Two\./);
  assert.ok(rules(s).includes('chunk-id-unique'));
});

test('a chunk without an id stays in the body; one without a description is a chunk with a problem', () => {
  const noId = ok(
    parse(skillText('name: demo\ndescription: Use when testing.', '<chunk description="No id">\nKept.\n</chunk>\n')),
  );
  assert.equal(noId.chunks.length, 0);
  assert.match(noId.level2Body, /Kept\./);
  assert.ok(rules(noId).includes('chunk-id-required'));
  const noDesc = ok(
    parse(skillText('name: demo\ndescription: Use when testing.', '<chunk id="x">\nText.\n</chunk>\n')),
  );
  assert.equal(noDesc.chunks[0].id, 'x');
  assert.ok(rules(noDesc).includes('chunk-description-required'));
});

test('nested chunks and a stray </chunk> are reported', () => {
  const s = ok(
    parse(
      skillText(
        'name: demo\ndescription: Use when testing.',
        '<chunk id="a" description="A">\n<chunk id="b" description="B">\nText.\n</chunk>\n</chunk>\n',
      ),
    ),
  );
  assert.ok(rules(s).includes('chunk-nested'));
  assert.ok(rules(s).includes('chunk-unopened'));
});

test('resource files are listed by kind; SKILL.md and links out of the folder are not', () => {
  const listed = listSkillResources(path.join(BUNDLED_FIXTURE, 'project-coldstart'));
  assert.deepEqual(listed.map((r) => [r.path, r.kind]), [
    ['assets/template.txt', 'asset'],
    ['references/dimensions.md', 'reference'],
    ['scripts/count.sh', 'script'],
    ['scripts/slow.sh', 'script'],
  ]);
  const dir = tempDir();
  const skill = path.join(dir, 'skill');
  mkdirSync(path.join(skill, 'references'), { recursive: true });
  writeFileSync(path.join(skill, 'SKILL.md'), 'x');
  writeFileSync(path.join(dir, 'secret.txt'), 'secret');
  writeFileSync(path.join(skill, 'references', 'a.md'), 'a');
  symlinkSync(path.join(dir, 'secret.txt'), path.join(skill, 'references', 'leak.txt'));
  symlinkSync(path.join(skill, 'references', 'a.md'), path.join(skill, 'references', 'alias.md'));
  assert.deepEqual(listSkillResources(skill).map((r) => r.path), ['references/a.md', 'references/alias.md']);
});
