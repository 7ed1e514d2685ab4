// Candidates are state of the database; deleting the database must not lose them.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { listCandidates, rejectCandidate, submitCandidates } from '../../src/core/domains/knowledge';
import { CANDIDATE_BACKUP } from '../../src/core/domains/knowledge/candidate-backup';
import { Workspace } from '../../src/core/ground/workspace';
import { tempWorkspace } from './knowledge-helpers';

const proposal = (title: string) => ({
  title,
  summary: `${title}, as the code does.`,
  code: `${title.toLowerCase().replace(/\W+/g, '_')}();`,
  language: 'typescript',
});

test('the database deleted: the first candidate write brings every candidate back with its status and decision', async () => {
  const ws = await tempWorkspace();
  try {
    const { created } = await submitCandidates(ws, [
      proposal('Use getJson for HTTP'),
      proposal('Wrap timers in useClock'),
    ], 'external_agent');
    await rejectCandidate(ws, created[1], 'human', 'timers are rare here');
    assert.match(readFileSync(ws.path(CANDIDATE_BACKUP), 'utf8'), /timers are rare here/);
    const root = ws.root;
    await ws.dispose();
    for (const f of readdirSync(path.join(root, '.autosnippet'))) {
      if (f.startsWith('autosnippet.db')) rmSync(path.join(root, '.autosnippet', f), { force: true });
    }

    const again = await Workspace.open(root);
    try {
      assert.deepEqual(
        listCandidates(again, { status: 'any' }).length,
        0,
        'reads never write: nothing is restored before a write',
      );
      await submitCandidates(again, [proposal('Log through the project logger')], 'external_agent');
      const all = listCandidates(again, { status: 'any' });
      assert.deepEqual(all.map((c) => c.title).sort(), [
        'Log through the project logger',
        'Use getJson for HTTP',
        'Wrap timers in useClock',
      ]);
      const rejected = all.find((c) => c.id === created[1])!;
      assert.equal(rejected.status, 'rejected');
      assert.equal(rejected.rejectionReason, 'timers are rare here');
      assert.match(
        readFileSync(path.join(root, '.autosnippet', '.gitignore'), 'utf8'),
        /^state\/$/m,
        'the copy stays out of git',
      );
    } finally {
      await again.dispose();
    }
  } finally {
    await ws.cleanup();
  }
});

test('a damaged copy loses nothing of the database: bad lines are skipped, a table with candidates is never touched', async () => {
  const ws = await tempWorkspace();
  try {
    await submitCandidates(ws, [proposal('Use getJson for HTTP')], 'external_agent');
    writeFileSync(
      ws.path(CANDIDATE_BACKUP),
      'not json\n{"id": "c-x", "fingerprint": "f", "status": "pending", "title": "Injected", "data": "{}"}\n',
    );
    await submitCandidates(ws, [proposal('Wrap timers in useClock')], 'external_agent');
    const titles = listCandidates(ws, { status: 'any' }).map((c) => c.title).sort();
    assert.deepEqual(titles, ['Use getJson for HTTP', 'Wrap timers in useClock']);
    assert.ok(existsSync(ws.path(CANDIDATE_BACKUP)));
    assert.doesNotMatch(
      readFileSync(ws.path(CANDIDATE_BACKUP), 'utf8'),
      /Injected/,
      'the copy is rewritten from the database',
    );
  } finally {
    await ws.cleanup();
  }
});
