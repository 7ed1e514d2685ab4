import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { allTools } from '../../src/core/catalog';
import { generatedBlock, REFERENCE_DOC, toolTable } from '../../src/core/catalog/docs';

const root = path.join(__dirname, '..', '..');
const README_LIMIT_BYTES = 12 * 1024;

/** The documents a reader meets: the README, every Markdown file under docs/, the benchmarks' page. */
function documents(): string[] {
  const docs = readdirSync(path.join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => path.join('docs', f));
  return ['README.md', 'bench/README.md', ...docs].sort();
}

/**
 * Wording that dates a statement instead of stating it: a numbered work period, an evaluation round,
 * the people who judged, a comparison with an earlier build. A document says what is true now.
 */
const HISTORY: [RegExp, string][] = [
  [/\bsessions? \d+/i, 'a numbered work period'],
  [/\b(?:this|that|previous|last|earlier|next) session\b/i, 'a work period'],
  [/\bsession's (?:start|starting|final|last)\b/i, 'a work period'],
  [/\bwork periods?\b/i, 'a work period'],
  [/\brounds? \d+/i, 'an evaluation round'],
  [/\b(?:evaluation|blind|review) rounds?\b/i, 'an evaluation round'],
  [/\breviewers?\b/i, 'the people who judged'],
  [/\b(?:previous|starting|earlier|old|last) build\b/i, 'an earlier build'],
];

test('README, docs/ and bench/README.md state what is true now: no work periods, rounds, reviewers or earlier builds', () => {
  const found: string[] = [];
  for (const file of documents()) {
    readFileSync(path.join(root, file), 'utf8').split('\n').forEach((line, i) => {
      for (const [pattern, what] of HISTORY) {
        const m = pattern.exec(line);
        if (m) found.push(`${file}:${i + 1}: "${m[0]}" (${what})`);
      }
    });
  }
  assert.deepEqual(found, [], 'say what holds now; figures and their dates belong in bench/README.md');
});

test(`the README is at most ${README_LIMIT_BYTES} bytes and names the two commands`, () => {
  const readme = readFileSync(path.join(root, 'README.md'));
  assert.ok(readme.length <= README_LIMIT_BYTES, `README.md has ${readme.length} bytes; move detail to docs/`);
  const text = readme.toString('utf8');
  for (const command of ['npm start', 'npm test']) assert.ok(text.includes(command), command);
  assert.match(readFileSync(path.join(root, '.ci/run'), 'utf8'), /\bnpm test\b/, "CI runs the README's test command");
});

test('the README has no relative links: it ships in the .vsix, and vsce package refuses links it cannot resolve', () => {
  const text = readFileSync(path.join(root, 'README.md'), 'utf8').replace(/```[\s\S]*?```/g, '');
  const relative = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((t) => !/^(?:[a-z]+:|#)/i.test(t));
  assert.deepEqual(relative, [], 'name the file in `code` instead');
});

test('docs/README.md links every file in docs/', () => {
  const index = readFileSync(path.join(root, 'docs/README.md'), 'utf8');
  const unlinked = documents()
    .filter((f) => f.startsWith('docs/') && f !== 'docs/README.md')
    .map((f) => path.relative('docs', f))
    .filter((f) => !index.includes(`](${f})`) && !index.includes(`](./${f})`));
  assert.deepEqual(unlinked, [], 'add a line for each to docs/README.md');
});

test('every relative link in README, docs/ and bench/README.md leads to a file that exists', () => {
  const broken: string[] = [];
  for (const file of documents()) {
    const text = readFileSync(path.join(root, file), 'utf8').replace(/```[\s\S]*?```/g, '');
    for (const m of text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
      const target = m[1];
      if (/^[a-z]+:/i.test(target)) continue;
      const resolved = path.join(root, path.dirname(file), target);
      if (!existsSync(resolved) || (target.endsWith('/') && !statSync(resolved).isDirectory())) {
        broken.push(`${file}: ${target}`);
      }
    }
  }
  assert.deepEqual(broken, []);
});

test("the reference's tool table is generated from the catalog (npm run gen:manifest)", () => {
  const reference = readFileSync(path.join(root, REFERENCE_DOC), 'utf8');
  assert.equal(generatedBlock(reference, 'tools'), toolTable(allTools));
  for (const tool of allTools) assert.ok(reference.includes(`| \`${tool.name}\` |`), tool.name);
});
