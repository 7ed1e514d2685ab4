import assert from 'node:assert/strict';
import { test } from 'node:test';
import { submitCandidates } from '../../src/core/domains/knowledge';
import { agent, call, tempWorkspace } from './knowledge-helpers';

test('list_candidates pages through more candidates than fit one answer, with the cursor inside data', async () => {
  const ws = await tempWorkspace();
  try {
    const n = 45;
    const inputs = Array.from({ length: n }, (_, i) => ({
      title: `Practice number ${i} of the project`,
      summary: `Candidate ${i}: ` + 'a summary long enough that a page of them does not fit one answer. '.repeat(5),
      language: 'typescript',
    }));
    await submitCandidates(ws, inputs, 'external_agent');
    const seen: string[] = [];
    let cursor: number | undefined;
    let pages = 0;
    for (;;) {
      const data = await call(ws, 'list_candidates', cursor === undefined ? {} : { cursor }, agent);
      pages++;
      assert.equal(data.total, n, 'total counts every match, not the page');
      seen.push(...data.candidates.map((c: { id: string }) => c.id));
      if (!data.hasMore) break;
      assert.equal(typeof data.nextCursor, 'number');
      cursor = data.nextCursor;
    }
    assert.ok(pages > 1, 'the list needed more than one page');
    assert.equal(new Set(seen).size, n);
  } finally {
    await ws.cleanup();
  }
});
