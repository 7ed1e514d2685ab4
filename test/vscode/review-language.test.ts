// The review panel after a display-language switch, in a real workbench (code-server + Chromium):
// a person reviews two folders of a multi-root workspace, picks Simplified Chinese (argv.json's
// "locale", what "Configure Display Language" writes) and reloads the window. Every restored review
// tab must be titled in the new language, and each folder must have exactly one.
//
// Language packs come from the extension gallery, which these machines cannot reach: a minimal
// zh-cn pack (test/fixtures/zh-cn-language-pack, a `localizations` contribution with a few workbench
// strings) is packaged here and installed with "Install from VSIX...", so VS Code switches for real
// (the running server records a language pack only when it installs one).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureBuilt, repoRoot, VSCodeSession, type Workbench } from './harness';
import { eventually } from './suite/poll';

const languagePack = path.join(repoRoot, 'test/fixtures/zh-cn-language-pack');

function packageLanguagePack(out: string): void {
  const r = spawnSync(process.execPath, [
    path.join(repoRoot, 'node_modules/@vscode/vsce/vsce'),
    'package',
    '--no-dependencies',
    '--skip-license',
    '--allow-missing-repository',
    '--out',
    out,
  ], { cwd: languagePack, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, `packaging the language pack failed:\n${r.stdout}${r.stderr}`);
}

/**
 * "Extensions: Install from VSIX...", typing the file's path into the workbench's file dialog, until
 * the server has recorded the pack in `languagepacks.json`.
 */
async function installFromVsix(workbench: Workbench, vsix: string, languagePacks: string): Promise<void> {
  await workbench.runCommand('Extensions: Install from VSIX...');
  const input = workbench.page.locator('.quick-input-widget input');
  const installed = () => existsSync(languagePacks) && /"zh-cn"/.test(readFileSync(languagePacks, 'utf8'));
  // The dialog fills in and lists its starting folder while it shows, which may overwrite a path typed
  // too early: type it again until the install goes through.
  await eventually(
    'the language pack is installed',
    async () => {
      if (installed()) return true;
      if (await input.isVisible()) {
        await input.fill(vsix);
        await new Promise((r) => setTimeout(r, 500));
        if ((await input.inputValue()) === vsix) {
          await workbench.page.locator('.quick-input-widget .monaco-button', { hasText: 'Install' }).click();
        }
      }
      await new Promise((r) => setTimeout(r, 2000));
      return installed();
    },
    60_000,
  ).catch(async (e) => {
    await workbench.screenshot('review-language-install-failed.png');
    throw e;
  });
}

/** The editor tabs' labels, left to right. */
async function tabLabels(workbench: Workbench): Promise<string[]> {
  return (await workbench.page.locator('.part.editor .tab .label-name').allInnerTexts()).map((t) => t.trim());
}

/** Opens a file by name through Quick Open, so the next command acts on that file's folder. */
async function openFile(workbench: Workbench, name: string): Promise<void> {
  // F1 opens the command palette; without its leading ">" the box is Quick Open's file search.
  await workbench.page.keyboard.press('F1');
  const input = workbench.page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(name);
  await workbench.page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor({
    state: 'visible',
    timeout: 10_000,
  });
  await workbench.page.keyboard.press('Enter');
  await workbench.page.locator('.part.editor .tab.active', { hasText: name }).waitFor({
    state: 'visible',
    timeout: 10_000,
  });
}

async function showTab(workbench: Workbench, name: string): Promise<void> {
  await workbench.page.locator('.part.editor .tab', { hasText: name }).click();
  await workbench.page.locator('.part.editor .tab.active', { hasText: name }).waitFor({ state: 'visible' });
}

describe('the review panel after switching the display language', { timeout: 300_000 }, () => {
  let session: VSCodeSession;
  let tmp: string;
  let workspaceFile: string;

  before(async () => {
    ensureBuilt();
    tmp = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-review-language-'));
    cpSync(path.join(repoRoot, 'test/fixtures/sample-workspace'), path.join(tmp, 'alpha'), { recursive: true });
    mkdirSync(path.join(tmp, 'beta/src'), { recursive: true });
    writeFileSync(path.join(tmp, 'beta/src/api.ts'), 'export const api = "/api";\n');
    packageLanguagePack(path.join(tmp, 'zh-cn.vsix'));
    workspaceFile = path.join(tmp, 'two-folders.code-workspace');
    writeFileSync(workspaceFile, JSON.stringify({ folders: [{ path: 'alpha' }, { path: 'beta' }] }, null, 2));
    session = await VSCodeSession.start({
      workspace: path.join(tmp, 'alpha'),
      name: 'review-language',
    });
  });

  after(async () => {
    await session?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('restores one review tab per folder, titled in the new language', async (t) => {
    const workbench = await session.openWorkbench({ folder: workspaceFile });
    const page = workbench.page;
    const userData = path.join(session.server.profileDir, 'user-data');
    await installFromVsix(workbench, path.join(tmp, 'zh-cn.vsix'), path.join(userData, 'languagepacks.json'));
    await openFile(workbench, 'http.ts');
    await openFile(workbench, 'api.ts');
    for (const [file, folder] of [['http.ts', 'alpha'], ['api.ts', 'beta']]) {
      // A text editor in front (not a webview, which keeps the keyboard) decides the command's folder.
      await showTab(workbench, file);
      await workbench.runCommand('AutoSnippet: Review Candidates');
      await page.locator('.part.editor .tab.active', { hasText: `Review Candidates: ${folder}` }).waitFor({
        state: 'visible',
        timeout: 20_000,
      }).catch(async (e) => {
        await workbench.screenshot('review-language-failed.png');
        throw new Error(`${(e as Error).message}\ntabs: ${JSON.stringify(await tabLabels(workbench))}`);
      });
    }
    assert.deepEqual(
      (await tabLabels(workbench)).filter((l) => /Review Candidates/.test(l)).sort(),
      ['Review Candidates: alpha', 'Review Candidates: beta'],
    );
    // The beta panel is the active tab: bring a file forward so one restored panel starts hidden.
    await showTab(workbench, 'http.ts');

    // The web workbench stores its open editors when the window loses the focus (IndexedDB writes
    // during an unload may never land), as when a person turns to another window before switching.
    // Headless Chromium never takes the focus away, so the page is told it has lost it.
    await page.evaluate(() => {
      const g = globalThis as unknown as {
        document: { hasFocus(): boolean };
        dispatchEvent(e: unknown): void;
        Event: new(type: string) => unknown;
      };
      g.document.hasFocus = () => false;
      g.dispatchEvent(new g.Event('blur'));
    });
    await new Promise((r) => setTimeout(r, 3000));

    // What "Configure Display Language" does in code-server: argv.json's locale, then a reload.
    writeFileSync(
      path.join(userData, 'User/argv.json'),
      JSON.stringify({ locale: 'zh-cn' }),
    );
    await page.reload({ waitUntil: 'domcontentloaded' });
    await workbench.waitUntilReady(60_000);
    // The workbench itself speaks the pack's language: the Explorer's activity-bar entry.
    await workbench.activityBarItem('资源管理器').waitFor({ state: 'visible', timeout: 30_000 });

    const expected = ['审阅候选：alpha', '审阅候选：beta'];
    let labels: string[] = [];
    const seen: string[] = [];
    const settled = await eventually(
      'the restored review tabs carry their zh-cn titles',
      async () => {
        labels = (await tabLabels(workbench)).filter((l) => /审阅候选|Review Candidates/.test(l));
        if (JSON.stringify(labels) !== seen.at(-1)) seen.push(JSON.stringify(labels));
        return JSON.stringify([...labels].sort()) === JSON.stringify(expected);
      },
      30_000,
    ).then(() => true, () => false);
    t.diagnostic(`review tabs after the reload: ${seen.join(' → ')}`);
    t.diagnostic(`screenshot: ${path.relative(repoRoot, await workbench.screenshot('review-language-zh-cn.png'))}`);
    assert.ok(settled, `review tabs after the switch: ${JSON.stringify(labels)}; expected ${JSON.stringify(expected)}`);
    // Retitling a hidden tab leaves the editor the person had in front where it was.
    assert.equal((await page.locator('.part.editor .tab.active .label-name').innerText()).trim(), 'http.ts');
  });
});
