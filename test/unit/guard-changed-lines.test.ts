import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ToolCatalog } from '../../src/core/catalog/catalog';
import { guardTools } from '../../src/core/catalog/guard';
import type { ToolContext, ToolResult } from '../../src/core/catalog/types';
import { changedLinesOfDiff } from '../../src/core/domains/guard/changed-lines';
import { guardWorkspace } from './guard-helpers';

const catalog = new ToolCatalog(guardTools);
const agent: ToolContext = { actor: 'external_agent', channel: 'test' };

function data<T = any>(r: ToolResult): T {
  assert.ok(r.ok, JSON.stringify(r));
  return (r as { data: T }).data;
}

const BEFORE = 'def load(path):\n    try:\n        return read(path)\n    except:\n        return None\n';
const AFTER =
  'def load(path):\n    try:\n        return read(path)\n    except:\n        return None\n\n\ndef save(path, items=[]):\n    try:\n        write(path, items)\n    except:\n        pass\n';
const DIFF = `diff --git a/src/io.py b/src/io.py
index 1111111..2222222 100644
--- a/src/io.py
+++ b/src/io.py
@@ -3,3 +3,10 @@ def load(path):
         return read(path)
     except:
         return None
+
+
+def save(path, items=[]):
+    try:
+        write(path, items)
+    except:
+        pass
`;

test("the new-file numbers of a diff's added lines, for the file asked, and a removed `-- x` line is not a file header", () => {
  assert.deepEqual([...changedLinesOfDiff(DIFF, 'src/io.py')], [6, 7, 8, 9, 10, 11, 12]);
  const sql = '--- a/q.sql\n+++ b/q.sql\n@@ -1,2 +1,2 @@\n--- old comment\n+-- new comment\n select 1;\n';
  assert.deepEqual([...changedLinesOfDiff(sql)], [1]);
  assert.throws(
    () => changedLinesOfDiff(DIFF, 'src/other.py'),
    /no changes to src\/other\.py \(it changes src\/io\.py\)/,
  );
});

test('guard_check with a diff reports only findings on the lines it added, and fixes only those', async () => {
  const { ws, cleanup } = await guardWorkspace({ 'src/io.py': BEFORE });
  try {
    const all = data(
      await catalog.invoke(ws, 'guard_check', { code: AFTER, language: 'python', path: 'src/io.py' }, agent),
    );
    assert.deepEqual(all.violations.map((v: { ruleId: string; start: { line: number } }) => [v.ruleId, v.start.line]), [
      ['py/bare-except', 4],
      ['py/mutable-default', 8],
      ['py/bare-except', 11],
    ]);
    const mine = data(
      await catalog.invoke(
        ws,
        'guard_check',
        { code: AFTER, language: 'python', path: 'src/io.py', diff: DIFF },
        agent,
      ),
    );
    assert.deepEqual(
      mine.violations.map((v: { ruleId: string; start: { line: number } }) => [v.ruleId, v.start.line]),
      [['py/mutable-default', 8], ['py/bare-except', 11]],
    );
    assert.equal(mine.outsideChanges, 1);
    assert.match(
      mine.fixedCode,
      /^    except:\n        return None/m,
      'the line the edit did not touch keeps its finding unfixed',
    );
    const ranges = data(
      await catalog.invoke(ws, 'guard_check', {
        code: AFTER,
        language: 'python',
        path: 'src/io.py',
        changedLines: [{ start: 11 }],
      }, agent),
    );
    assert.deepEqual(ranges.violations.map((v: { start: { line: number } }) => v.start.line), [11]);
  } finally {
    await cleanup();
  }
});
