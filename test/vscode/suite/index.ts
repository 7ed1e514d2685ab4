// The integration suite: one module with a `run()` export, loaded by VS Code's extension host as
// `extensionTestsPath`. Two runners use it: test/vscode/extension.test.ts (code-server + Chromium,
// offline) and scripts/test-desktop.mjs (@vscode/test-electron, desktop VS Code).
// Bundled by scripts/build.mjs into out/test/vscode/suite/index.js with `vscode` external.
// Add a feature's tests as a `<feature>.suite.ts` file (not `.test.ts`: those run in plain Node)
// and import it below.
import { runRegisteredTests } from './collector';
import './foundation.suite';
import './skills.suite';
import './guard.suite';
import './knowledge.suite';
import './freshness.suite';
import './agent.suite';
import './packs.suite';

export async function run(): Promise<void> {
  // Stack traces of failures then point into the .ts sources (the bundle ships a linked source map).
  process.setSourceMapsEnabled?.(true);
  await runRegisteredTests();
}
