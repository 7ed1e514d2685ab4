// The real-VS-Code layer: the built extension inside code-server 4.104.0, driven by Chromium.
//   1. the integration suite (test/vscode/suite, built to out/test/vscode/suite/index.js) runs in
//      the extension host and must exit with 0;
//   2. UI checks on a workbench page: the AutoSnippet container opens from the activity bar, and a
//      screenshot is written to test-output/vscode/workbench-autosnippet.png.
// Needs `bash scripts/setup-vscode.sh` and `node scripts/build.mjs` (scripts/test.mjs runs both).
// AUTOSNIPPET_EXTENSION_DEVELOPMENT_PATH runs another extension folder instead of the repository.
// AUTOSNIPPET_VSIX=path/to/autosnippet.vsix adds a run of the suite against that package, installed
// into a fresh code-server profile (no development extension).
const vsix = process.env.AUTOSNIPPET_VSIX && path.resolve(process.env.AUTOSNIPPET_VSIX);
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { VSCodeSession, builtSuite, codeServerEntry, describeRun, outputDir, repoRoot } from './harness';

const fixture = path.join(repoRoot, 'test/fixtures/sample-workspace');
const extensionPath = process.env.AUTOSNIPPET_EXTENSION_DEVELOPMENT_PATH ?? repoRoot;
// A test-only extension that registers a deterministic language-model provider (there is no Copilot here).
const fakeModelExtension = path.join(repoRoot, 'test/vscode/fake-lm-extension');

function ensurePrerequisites(): void {
  if (!existsSync(codeServerEntry)) {
    const r = spawnSync('bash', [path.join(repoRoot, 'scripts/setup-vscode.sh')], { stdio: 'inherit' });
    assert.equal(r.status, 0, 'scripts/setup-vscode.sh failed');
  }
  const needExtension = extensionPath === repoRoot && !existsSync(path.join(repoRoot, 'dist/extension.js'));
  if (!existsSync(builtSuite) || needExtension) {
    const r = spawnSync(process.execPath, [path.join(repoRoot, 'scripts/build.mjs')], { stdio: 'inherit', cwd: repoRoot });
    assert.equal(r.status, 0, 'node scripts/build.mjs failed');
  }
  assert.ok(existsSync(builtSuite), `the suite was not built: ${builtSuite}`);
}

describe('AutoSnippet in VS Code (code-server 4.104.0 + Chromium)', { timeout: 240_000 }, () => {
  let session: VSCodeSession;
  let tmp: string;
  let workspace: string;

  before(async () => {
    ensurePrerequisites();
    tmp = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-vscode-'));
    workspace = path.join(tmp, 'sample-workspace');
    cpSync(fixture, workspace, { recursive: true });
    rmSync(path.join(outputDir, 'workbench-autosnippet.png'), { force: true });
    session = await VSCodeSession.start({ workspace, extensionDevelopmentPath: extensionPath, installExtensions: [fakeModelExtension], name: 'extension' });
  });

  after(async () => {
    await session?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('the integration suite passes in the extension host', async (t) => {
    const result = await session.runExtensionTests({ timeoutMs: 120_000 });
    assert.ok(result.suiteLines.length > 0, `the suite logged nothing; see ${result.logFile}\n${describeRun(result)}`);
    assert.equal(result.exitCode, 0, describeRun(result));
    for (const line of describeRun(result).split('\n')) t.diagnostic(line);
  });

  it('the AutoSnippet container opens from the activity bar', async (t) => {
    const workbench = await session.openWorkbench({ timeoutMs: 60_000 });
    const container = await workbench.openViewContainer('autosnippet', 'AutoSnippet');
    const settled = await workbench.settleViewContainer('autosnippet');
    if (!settled) t.diagnostic('the AutoSnippet views still show a placeholder or progress after 15 s');
    const file = await workbench.screenshot('workbench-autosnippet.png');
    t.diagnostic(`screenshot: ${path.relative(repoRoot, file)}`);
    assert.ok(existsSync(file) && statSync(file).size > 0, `no screenshot at ${file}`);

    assert.ok(await container.isVisible(), 'the AutoSnippet view container is not visible');
    const item = workbench.page.locator('.part.activitybar li.action-item.checked a.action-label[aria-label^="AutoSnippet"]');
    assert.equal(await item.count(), 1, 'the AutoSnippet activity-bar item is not the selected one');
    const title = await workbench.page.locator('.part.sidebar .composite.title').innerText();
    assert.match(title, /AUTOSNIPPET/i, `the side bar's title is "${title}"`);
    const views = await container.locator('.pane').count();
    const text = await container.innerText();
    assert.ok(views > 0 || text.trim().length > 0, 'the AutoSnippet container shows no views');
    assert.doesNotMatch(text, /no data provider registered/i, `a view in the container has no provider:\n${text}`);
  });

  it('the Skills view lists the 13 bundled skills and the one from .github/skills', async (t) => {
    const workbench = await session.openWorkbench({ timeoutMs: 60_000 });
    const container = await workbench.openViewContainer('autosnippet', 'AutoSnippet');
    await workbench.settleViewContainer('autosnippet');
    // Four views share the container: collapse the others so the Skills tree has room to render every row.
    for (const name of ['Overview', 'Recipes', 'Candidates']) {
      const header = container.locator('.pane-header[aria-expanded="true"]').filter({ hasText: new RegExp(`^${name}`, 'i') });
      if ((await header.count()) > 0) await header.first().click();
    }
    const tree = container.locator('.pane').filter({ has: workbench.page.locator('.pane-header', { hasText: /skills/i }) }).locator('.monaco-list').first();
    await tree.waitFor({ state: 'visible', timeout: 30_000 });
    // Expand every source (level 1) so its skills are rendered.
    for (let round = 0; round < 4; round++) {
      const collapsed = tree.locator('.monaco-list-row[aria-level="1"][aria-expanded="false"]');
      if ((await collapsed.count()) === 0) break;
      await collapsed.first().click();
      await sleep(300);
    }
    const labels = await eventuallyLabels(tree, (l) => l.filter((x) => x.startsWith('autosnippet-')).length >= 13 && l.includes('team-conventions'));
    const file = await workbench.screenshot('skills-view.png');
    t.diagnostic(`screenshot: ${path.relative(repoRoot, file)}`);
    assert.equal(new Set(labels.filter((x) => x.startsWith('autosnippet-'))).size, 13, labels.join(', '));
    assert.ok(labels.includes('team-conventions'), labels.join(', '));
  });
});

describe('AutoSnippet installed from a .vsix into code-server', { timeout: 180_000, skip: vsix ? false : 'set AUTOSNIPPET_VSIX=path/to/autosnippet.vsix to run' }, () => {
  it('the integration suite passes against the installed package', async (t) => {
    assert.ok(existsSync(vsix as string), `no .vsix at ${vsix}`);
    ensurePrerequisites();
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-vsix-'));
    const workspace = path.join(tmp, 'sample-workspace');
    cpSync(fixture, workspace, { recursive: true });
    const session = await VSCodeSession.start({ workspace, extensionDevelopmentPath: null, installExtensions: [vsix as string, fakeModelExtension], name: 'vsix' });
    try {
      const result = await session.runExtensionTests({ timeoutMs: 120_000 });
      assert.equal(result.exitCode, 0, describeRun(result));
      for (const line of describeRun(result).split('\n')) t.diagnostic(line);
    } finally {
      await session.close();
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The first words of the tree's rows (skill names), polled until `done` holds or 20 s pass. */
async function eventuallyLabels(tree: import('playwright-core').Locator, done: (labels: string[]) => boolean): Promise<string[]> {
  let labels: string[] = [];
  for (const end = Date.now() + 20_000; Date.now() < end; await sleep(300)) {
    labels = (await tree.locator('.monaco-list-row .label-name').allInnerTexts()).map((x) => x.trim());
    if (done(labels)) break;
  }
  return labels;
}
