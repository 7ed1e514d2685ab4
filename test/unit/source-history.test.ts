// Comments in src/ say why in terms of the code's own constructs. One that names a repository the
// product was evaluated on, a numbered work period or an evaluation round records history instead:
// the case belongs in a fixture and a test named by its construct, the history in git.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const root = path.join(__dirname, '..', '..');

/** Repository sets of the evaluations under bench/data: `{ repositories: { "owner/name": commit } }`. */
const REPOSITORY_SETS = [
  'bench/data/guard-eval/repositories.json',
  'bench/data/coldstart-eval/held-out.json',
  'bench/data/coldstart-eval/test-set.json',
];
/** Names that are also technologies a comment may weigh as such (a schema library we chose against). */
const TECHNOLOGIES = new Set(['zod']);

const HISTORY: [RegExp, string][] = [
  [/\bsessions? \d+/i, 'a numbered work period'],
  [/\b(?:this|that|previous|last|earlier|next) session\b/i, 'a work period'],
  [/\bwork periods?\b/i, 'a work period'],
  [/\brounds? \d+/i, 'an evaluation round'],
  [/\b(?:evaluation|blind|review) rounds?\b/i, 'an evaluation round'],
  [/\bblind (?:reviews?|reviewers?|helpers?|labels?)\b/i, 'the people who judged'],
  [/\b(?:previous|starting|earlier|old|last) build\b/i, 'an earlier build'],
];

function evaluatedRepositories(): RegExp[] {
  const names = new Set<string>();
  for (const file of REPOSITORY_SETS) {
    const { repositories } = JSON.parse(readFileSync(path.join(root, file), 'utf8')) as {
      repositories: Record<string, string>;
    };
    for (const full of Object.keys(repositories)) {
      names.add(full);
      names.add(full.split('/')[1]);
    }
  }
  return [...names].filter((n) => !TECHNOLOGIES.has(n.toLowerCase())).map((n) =>
    new RegExp(`(?<![\\w-])${n.replace(/[.+/]/g, '\\$&')}(?![\\w-])`, 'i')
  );
}

/** The comment text of a line of TypeScript: after `//`, or a line of a block comment. */
function commentOf(line: string): string | undefined {
  const block = /^\s*(?:\/\*\*?|\*)(.*)$/.exec(line);
  if (block) return block[1];
  const i = line.indexOf('//');
  return i >= 0 && !/['"`][^'"`]*\/\/[^'"`]*['"`]/.test(line.slice(0, i + 2)) ? line.slice(i + 2) : undefined;
}

test('comments in src/ name no evaluated repository, work period or evaluation round', () => {
  const repositories = evaluatedRepositories();
  const found: string[] = [];
  const files = readdirSync(path.join(root, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'));
  for (const f of files) {
    readFileSync(path.join(root, 'src', f), 'utf8').split('\n').forEach((line, i) => {
      const comment = commentOf(line);
      if (!comment) return;
      for (const [pattern, what] of HISTORY) {
        const m = pattern.exec(comment);
        if (m) found.push(`src/${f}:${i + 1}: "${m[0]}" (${what})`);
      }
      for (const pattern of repositories) {
        const m = pattern.exec(comment);
        if (m) found.push(`src/${f}:${i + 1}: "${m[0]}" (an evaluated repository)`);
      }
    });
  }
  assert.deepEqual(found, [], 'state the construct and its statistics; keep the case as a fixture named by it');
});
