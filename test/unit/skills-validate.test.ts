import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { errorCount, validateSkillsIn, validateSkillText } from '../../src/core/domains/skills/validate';
import { BUNDLED_FIXTURE, FIXTURES, REPO_SKILLS, skillText } from './skills-helpers';

const FM = 'name: demo\ndescription: Use when testing the validator.';
const doc = (fm: string, body?: string) => skillText(fm, body);

/** Each rule: a text that breaks it (and the line it should point at, when it has one) and one that does not. */
const cases: {
  rule: string;
  severity: 'error' | 'warning' | 'info';
  bad: string;
  line?: number;
  good: string;
  folder?: string;
  known?: string[];
}[] = [
  { rule: 'frontmatter-missing', severity: 'error', bad: '# No frontmatter\n', line: 1, good: doc(FM) },
  { rule: 'frontmatter-unclosed', severity: 'error', bad: `---\n${FM}\n\nBody\n`, good: doc(FM) },
  {
    rule: 'frontmatter-yaml',
    severity: 'error',
    bad: '---\nname: demo\ndescription: [oops\n---\nBody\n',
    good: doc(FM),
  },
  {
    rule: 'frontmatter-unquoted-colon',
    severity: 'error',
    bad: doc('name: demo\ndescription: Use when: colons'),
    line: 3,
    good: doc('name: demo\ndescription: "Use when: colons"'),
  },
  { rule: 'name-required', severity: 'error', bad: doc('description: Use when testing.'), good: doc(FM) },
  {
    rule: 'name-type',
    severity: 'error',
    bad: doc('name: [demo]\ndescription: Use when testing.'),
    line: 2,
    good: doc(FM),
  },
  {
    rule: 'name-length',
    severity: 'error',
    bad: doc(`name: ${'a'.repeat(65)}\ndescription: Use when testing.`),
    folder: 'a'.repeat(65),
    line: 2,
    good: doc(`name: ${'a'.repeat(64)}\ndescription: Use when testing.`),
  },
  {
    rule: 'name-charset',
    severity: 'error',
    bad: doc('name: Demo_Skill\ndescription: Use when testing.'),
    folder: 'Demo_Skill',
    line: 2,
    good: doc('name: demo-skill-2\ndescription: Use when testing.'),
  },
  {
    rule: 'name-hyphen-edge',
    severity: 'error',
    bad: doc('name: -demo\ndescription: Use when testing.'),
    folder: '-demo',
    line: 2,
    good: doc(FM),
  },
  {
    rule: 'name-double-hyphen',
    severity: 'error',
    bad: doc('name: de--mo\ndescription: Use when testing.'),
    folder: 'de--mo',
    line: 2,
    good: doc('name: de-mo\ndescription: Use when testing.'),
  },
  {
    rule: 'name-matches-folder',
    severity: 'error',
    bad: doc('name: other\ndescription: Use when testing.'),
    line: 2,
    good: doc(FM),
  },
  { rule: 'description-required', severity: 'error', bad: doc('name: demo\ndescription: ""'), line: 3, good: doc(FM) },
  {
    rule: 'description-type',
    severity: 'error',
    bad: doc('name: demo\ndescription:\n  nested: map'),
    line: 3,
    good: doc(FM),
  },
  {
    rule: 'description-length',
    severity: 'error',
    bad: doc(`name: demo\ndescription: Use when ${'x'.repeat(1020)}`),
    line: 3,
    good: doc(`name: demo\ndescription: Use when ${'x'.repeat(1000)}`),
  },
  {
    rule: 'description-use-when',
    severity: 'info',
    bad: doc('name: demo\ndescription: Formats code.'),
    line: 3,
    good: doc(FM),
  },
  {
    rule: 'field-unknown',
    severity: 'error',
    bad: doc(`${FM}\nversion: 2`),
    line: 4,
    good: doc(`${FM}\nlicense: MIT\ncompatibility: Node 20\nallowed-tools: Read Grep\nmetadata:\n  version: "2"`),
  },
  {
    rule: 'license-type',
    severity: 'error',
    bad: doc(`${FM}\nlicense: [MIT]`),
    line: 4,
    good: doc(`${FM}\nlicense: MIT`),
  },
  {
    rule: 'compatibility-type',
    severity: 'error',
    bad: doc(`${FM}\ncompatibility: [node]`),
    line: 4,
    good: doc(`${FM}\ncompatibility: Requires git`),
  },
  {
    rule: 'compatibility-length',
    severity: 'error',
    bad: doc(`${FM}\ncompatibility: ${'x'.repeat(501)}`),
    line: 4,
    good: doc(`${FM}\ncompatibility: ${'x'.repeat(500)}`),
  },
  {
    rule: 'allowed-tools-type',
    severity: 'error',
    bad: doc(`${FM}\nallowed-tools: 3`),
    line: 4,
    good: doc(`${FM}\nallowed-tools: Bash(git:*) Read`),
  },
  {
    rule: 'metadata-type',
    severity: 'error',
    bad: doc(`${FM}\nmetadata: just text`),
    line: 4,
    good: doc(`${FM}\nmetadata:\n  author: me`),
  },
  {
    rule: 'metadata-value-type',
    severity: 'warning',
    bad: doc(`${FM}\nmetadata:\n  deep:\n    x: 1`),
    line: 5,
    good: doc(`${FM}\nmetadata:\n  related: [a, b]\n  author: me`),
  },
  {
    rule: 'related-unknown',
    severity: 'warning',
    bad: doc(`${FM}\nmetadata:\n  related: [demo, ghost]`),
    line: 5,
    known: ['demo'],
    good: doc(`${FM}\nmetadata:\n  related: demo`),
  },
  { rule: 'body-empty', severity: 'warning', bad: doc(FM, '\n'), good: doc(FM) },
  { rule: 'body-length', severity: 'warning', bad: doc(FM, 'line\n'.repeat(520)), good: doc(FM, 'line\n'.repeat(480)) },
  {
    rule: 'chunk-id-required',
    severity: 'error',
    bad: doc(FM, '<chunk description="d">\nx\n</chunk>\n'),
    line: 6,
    good: doc(FM, '<chunk id="a" description="d">\nx\n</chunk>\n'),
  },
  {
    rule: 'chunk-id-format',
    severity: 'warning',
    bad: doc(FM, '<chunk id="has space" description="d">\nx\n</chunk>\n'),
    line: 6,
    good: doc(FM, '<chunk id="has-dash_1.2" description="d">\nx\n</chunk>\n'),
  },
  {
    rule: 'chunk-id-unique',
    severity: 'error',
    bad: doc(FM, '<chunk id="a" description="d">\nx\n</chunk>\n<chunk id="a" description="e">\ny\n</chunk>\n'),
    line: 9,
    good: doc(FM, '<chunk id="a" description="d">\nx\n</chunk>\n<chunk id="b" description="e">\ny\n</chunk>\n'),
  },
  {
    rule: 'chunk-description-required',
    severity: 'error',
    bad: doc(FM, '<chunk id="a" description=" ">\nx\n</chunk>\n'),
    line: 6,
    good: doc(FM, '<chunk id="a" description="When it fails">\nx\n</chunk>\n'),
  },
  {
    rule: 'chunk-unclosed',
    severity: 'error',
    bad: doc(FM, '<chunk id="a" description="d">\nx\n'),
    line: 6,
    good: doc(FM, '<chunk id="a" description="d">\nx\n</chunk>\n'),
  },
  {
    rule: 'chunk-unopened',
    severity: 'error',
    bad: doc(FM, 'x\n</chunk>\n'),
    line: 7,
    good: doc(FM, 'x\n`</chunk>` closes a chunk.\n'),
  },
  {
    rule: 'chunk-nested',
    severity: 'error',
    bad: doc(FM, '<chunk id="a" description="d">\n<chunk id="b" description="e">\n</chunk>\n</chunk>\n'),
    line: 7,
    good: doc(FM, '<chunk id="a" description="d">\n```\n<chunk id="b" description="e">\n```\n</chunk>\n'),
  },
];

for (const c of cases) {
  test(`validation rule ${c.rule}: reported on a breaking SKILL.md, not on a good one`, () => {
    const known = c.known ? new Set(c.known) : undefined;
    const bad = validateSkillText(c.bad, c.folder ?? 'demo', { knownNames: known });
    const hit = bad.find((p) => p.rule === c.rule);
    assert.ok(hit, `expected ${c.rule} in ${JSON.stringify(bad)}`);
    assert.equal(hit.severity, c.severity);
    if (c.line !== undefined) assert.equal(hit.line, c.line);
    const goodFolder = /^name: (\S+)/m.exec(c.good)?.[1] ?? 'demo';
    const good = validateSkillText(c.good, goodFolder, { knownNames: known });
    assert.ok(!good.some((p) => p.rule === c.rule), `did not expect ${c.rule} in ${JSON.stringify(good)}`);
  });
}

test('a fully valid skill has no problems at all', () => {
  assert.deepEqual(
    validateSkillText(doc(FM, '## Steps\n\n<chunk id="ex" description="Examples">\nx\n</chunk>\n'), 'demo'),
    [],
  );
});

test('validateSkillsIn handles a skill folder, a folder of skills and a workspace', () => {
  assert.equal(validateSkillsIn(path.join(BUNDLED_FIXTURE, 'guard-rules')).length, 1);
  assert.deepEqual(validateSkillsIn(BUNDLED_FIXTURE).map((v) => path.basename(v.dir)), [
    'guard-rules',
    'project-coldstart',
    'recipe-writing',
    'shared-name',
  ]);
  const ws = validateSkillsIn(path.join(FIXTURES, 'workspace')).map((v) =>
    path.relative(path.join(FIXTURES, 'workspace'), v.dir)
  );
  assert.ok(ws.includes(path.join('.github', 'skills', 'gh-only')));
  assert.ok(ws.includes(path.join('.agents', 'skills', 'no-description')));
  const bad = validateSkillsIn(path.join(FIXTURES, 'invalid'));
  assert.ok(errorCount(bad[0].problems) > 0);
});

test('the fixture skills validate without errors (they are the reference for good skills)', () => {
  for (const v of validateSkillsIn(BUNDLED_FIXTURE)) {
    assert.equal(errorCount(v.problems), 0, `${v.file}: ${JSON.stringify(v.problems)}`);
  }
});

test('every bundled skill in skills/ passes the validator', () => {
  const results = validateSkillsIn(REPO_SKILLS);
  assert.ok(results.length > 0, 'skills/ holds no skills');
  for (const v of results) {
    assert.equal(
      errorCount(v.problems),
      0,
      `${v.file}: ${JSON.stringify(v.problems.filter((p) => p.severity === 'error'))}`,
    );
  }
});
