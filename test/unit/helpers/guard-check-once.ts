// Child process for tests that must survive a hang: checks the text of argv[3] (a file) in the
// workspace argv[2] with the budget argv[4] ms, and prints the result as JSON. The parent kills it
// at its own deadline, so a check that never returns fails the test instead of stalling the run.
import { readFileSync } from 'node:fs';
import { GuardEngine } from '../../../src/core/domains/guard/engine';
import { Workspace } from '../../../src/core/ground/workspace';

void (async () => {
  const [root, textFile, budget] = process.argv.slice(2);
  const ws = await Workspace.open(root);
  const engine = new GuardEngine(ws, { budgetMs: Number(budget) });
  try {
    await engine.check('', 'typescript');
    const res = await engine.check(readFileSync(textFile, 'utf8'), 'typescript');
    const problems = await engine.problems();
    const again = await engine.check('const b = 1;\n', 'typescript');
    const rss = process.memoryUsage().rss;
    process.stdout.write(
      JSON.stringify({
        stopped: res.stopped,
        violations: res.violations.map((v) => v.ruleId),
        problems,
        again: again.stopped,
        rss,
      }),
    );
  } finally {
    await engine.dispose();
    await ws.dispose();
  }
})();
