// Reviewing by keyboard in a real workbench (code-server + Chromium): twenty candidates decided one
// key each, an Undo that takes a decision back, the checklist cleared from the edit form, code spans
// shown as code (no backticks). Screenshots go to test-output/vscode/review-keys/.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FrameLocator } from 'playwright-core';
import { ensureBuilt, repoRoot, VSCodeSession, type Workbench } from './harness';
import { eventually } from './suite/poll';

const fixture = path.join(repoRoot, 'test/fixtures/sample-workspace');
const COUNT = 20;

function cli(workspace: string, tool: string, input: Record<string, unknown>): any {
  const r = spawnSync(process.execPath, [
    path.join(repoRoot, 'dist/cli.js'),
    '-w',
    workspace,
    'call',
    tool,
    JSON.stringify(input),
  ], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, `autosnippet call ${tool} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** Twenty cold-start-like candidates: a reason and two sources, no usage guide, a code span in the title. */
function candidates(): Record<string, unknown>[] {
  return Array.from({ length: COUNT }, (_, i) => ({
    title: `Rule ${String(i + 1).padStart(2, '0')}: call \`getJson\` with a timeout of ${i + 1} s`,
    language: 'typescript',
    category: 'networking',
    knowledgeType: 'code-pattern',
    summary: `Every request goes through \`getJson\` so that it times out after ${i + 1} seconds.`,
    // Quoted as the cited file has it: a card whose sources do not hold is refused.
    code: 'export async function getJson<T>(url: string, timeoutMs = 5000): Promise<T> {',
    tags: ['http', 'timeout'],
    reasoning: {
      whyStandard: 'src/users.ts and src/index.ts both fetch through getJson and nothing calls fetch directly.',
      sources: ['src/http.ts:2', 'src/users.ts:1'],
      confidence: 0.9 - i * 0.01,
    },
  }));
}

function reviewFrame(workbench: Workbench): FrameLocator {
  return workbench.page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
}

describe('reviewing candidates by keyboard', { timeout: 900_000 }, () => {
  let session: VSCodeSession;
  let tmp: string;
  let workspace: string;

  before(async () => {
    ensureBuilt();
    tmp = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-review-keys-'));
    workspace = path.join(tmp, 'sample-workspace');
    cpSync(fixture, workspace, { recursive: true });
    session = await VSCodeSession.start({
      workspace,
      name: 'review-keys',
      settings: { 'workbench.colorTheme': 'Default Dark Modern' },
    });
  });

  after(async () => {
    await session?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it(`clears the checklist from the form, undoes a decision, and decides ${COUNT} candidates in at most ${2 * COUNT} keystrokes`, async (t) => {
    const submitted = cli(workspace, 'submit_candidates', { candidates: candidates() });
    const ids: string[] = submitted.data.created;
    assert.equal(ids.length, COUNT, JSON.stringify(submitted).slice(0, 500));
    const workbench = await session.openWorkbench();
    const page = workbench.page;
    await workbench.runCommand('AutoSnippet: Review Candidates');
    await page.locator('.part.editor .tab.active', { hasText: /Review Candidates/ }).waitFor({
      state: 'visible',
      timeout: 20_000,
    });
    const frame = reviewFrame(workbench);
    const rows = frame.locator('.row-main');
    await eventually(`${COUNT} rows`, async () => (await rows.count()) === COUNT, 20_000);
    await frame.locator('#keys-hint').waitFor({ state: 'visible' });

    // Code spans render as code: no backtick in a row or in the detail.
    assert.doesNotMatch((await rows.allInnerTexts()).join('\n'), /`/);
    let keystrokes = 0;
    const press = async (key: string) => {
      keystrokes++;
      await page.keyboard.press(key);
    };

    // j opens the first candidate (the highest confidence).
    await press('j');
    const title = frame.locator('#detail-title');
    await eventually(
      'the first candidate opens',
      async () => /Rule 01/.test(await title.innerText().catch(() => '')),
      10_000,
    );
    assert.equal(await title.locator('code').innerText(), 'getJson');
    assert.doesNotMatch(await frame.locator('.detail').innerText(), /`/);

    // The checklist names the usage guide (the form's field); filling it clears the item, Ctrl+Enter saves.
    const item = frame.locator('.checklist li[data-field="usageGuide"]');
    await item.waitFor({ state: 'visible', timeout: 10_000 });
    t.diagnostic(`screenshot: ${path.relative(repoRoot, await workbench.screenshot('review-checklist.png'))}`);
    await page.keyboard.press('e');
    const usage = frame.locator('#edit-usageGuide');
    await frame.locator('.checklist-box li[data-field="usageGuide"]').waitFor({ state: 'visible', timeout: 10_000 });
    await frame.locator('.checklist-box li[data-field="usageGuide"] a').click();
    await eventually(
      'the checklist link focuses its field',
      async () => (await usage.evaluate((el) =>
        el === (el as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement
      )),
      5_000,
    );
    await page.keyboard.type('For every request to our own API; streaming downloads use fetch with a signal.');
    await eventually(
      'the usage-guide item clears as it is typed',
      async () => (await frame.locator('.checklist-box li[data-field="usageGuide"]').count()) === 0,
      10_000,
    );
    t.diagnostic(`screenshot: ${path.relative(repoRoot, await workbench.screenshot('review-checklist-cleared.png'))}`);
    await page.keyboard.press('Control+Enter');
    await eventually(
      'saved',
      () => /streaming downloads/.test(cli(workspace, 'get_candidate', { id: ids[0] }).data.usageGuide ?? ''),
      15_000,
    );
    assert.equal(await frame.locator('#edit-heading').count(), 0, 'the editor closed');
    assert.equal(await frame.locator('.detail .checklist').count(), 0, 'nothing left on the checklist');

    // a approves at once (no dialog), the next candidate opens, the banner offers Undo; u takes it back.
    await press('a');
    const banner = frame.locator('.outcome.approved');
    await banner.waitFor({ state: 'visible', timeout: 15_000 });
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'no confirmation for one approval');
    await eventually(
      'the next candidate opens',
      async () => /Rule 02/.test(await title.innerText().catch(() => '')),
      10_000,
    );
    const draft = cli(workspace, 'get_candidate', { id: ids[0] }).data;
    assert.equal(draft.status, 'approved');
    const recipeFile = path.join(workspace, '.autosnippet/recipes', `${draft.recipeId}.md`);
    assert.ok(existsSync(recipeFile), recipeFile);
    t.diagnostic(`screenshot: ${path.relative(repoRoot, await workbench.screenshot('review-undo-banner.png'))}`);
    await press('u');
    await eventually(
      'undone: pending again, the draft removed',
      () => cli(workspace, 'get_candidate', { id: ids[0] }).data.status === 'pending' && !existsSync(recipeFile),
      15_000,
    );
    await eventually(
      'the undone candidate is on show again',
      async () => /Rule 01/.test(await title.innerText().catch(() => '')),
      10_000,
    );

    // r asks for the reason in place; Enter rejects, and the next one opens.
    await press('r');
    const reason = frame.locator('#reject-one-reason');
    await reason.waitFor({ state: 'visible', timeout: 5_000 });
    await page.keyboard.type('Covered by the HTTP recipe.');
    await page.keyboard.press('Enter');
    await eventually(
      'rejected with its reason',
      () => cli(workspace, 'get_candidate', { id: ids[0] }).data.rejectionReason === 'Covered by the HTTP recipe.',
      15_000,
    );

    // The other nineteen: one key each.
    const decided = async (n: number) =>
      eventually(
        `${n} left to review`,
        async () => (await rows.count()) === n && !(await frame.locator('#app[aria-busy="true"]').count()),
        15_000,
      ).catch(async (e) => {
        await workbench.screenshot('review-keys-failed.png');
        throw e;
      });
    await decided(COUNT - 1);
    for (let left = COUNT - 1; left > 0; left--) {
      await press('a');
      await decided(left - 1);
    }
    t.diagnostic(`screenshot: ${path.relative(repoRoot, await workbench.screenshot('review-all-decided.png'))}`);
    const statuses = ids.map((id) => cli(workspace, 'get_candidate', { id }).data.status);
    assert.deepEqual(statuses, ['rejected', ...Array(COUNT - 1).fill('approved')]);
    t.diagnostic(`keystrokes for ${COUNT} decisions with one undo (reason text aside): ${keystrokes}`);
    assert.ok(keystrokes <= 2 * COUNT, `${keystrokes} keystrokes`);
  });

  it('every checklist item of a thin candidate clears from the edit form', async (t) => {
    const thin = cli(workspace, 'submit_candidate', {
      title: 'Dates',
      summary: 'Dates.',
      code: '// TODO',
      language: 'typescript',
      category: 'data',
      knowledgeType: 'code-pattern',
      tags: ['dates'],
      reasoning: { whyStandard: '', sources: ['src/profile.ts:1'], confidence: 0.7 },
    });
    const id: string = thin.data.id;
    const workbench = await session.openWorkbench();
    await workbench.runCommand('AutoSnippet: Review Candidates');
    const frame = reviewFrame(workbench);
    await frame.locator(`#row-${id}`).click();
    const listed = frame.locator('.detail .checklist li');
    await eventually('the checklist', async () => (await listed.count()) >= 5, 15_000);
    const fields = (await listed.evaluateAll((els) => els.map((e) => e.getAttribute('data-field')))).sort();
    assert.deepEqual(
      fields,
      ['code', 'summary', 'title', 'usageGuide', 'whyStandard'],
      'one item per form field, no item the form cannot clear',
    );
    await frame.locator('#edit-one').click();
    const box = frame.locator('.checklist-box li');
    await eventually('the form shows the same checklist', async () => (await box.count()) === fields.length, 10_000);
    const values: Record<string, string> = {
      title: 'Parse dates with parseISO',
      summary: 'Parse every timestamp from the API with parseISO, never with new Date(string).',
      whyStandard:
        'src/profile.ts and every API client parse timestamps this way; Date parsing differs between engines.',
      usageGuide: 'For ISO 8601 strings from the API; user input goes through the date picker instead.',
      code: 'const createdAt = parseISO(row.created_at);',
    };
    for (const [field, value] of Object.entries(values)) {
      const before = await box.count();
      await frame.locator(`.checklist-box li[data-field="${field}"] a`).click();
      await frame.locator(`#edit-${field}`).fill(value);
      await eventually(
        `the ${field} item clears`,
        async () =>
          (await frame.locator(`.checklist-box li[data-field="${field}"]`).count()) === 0
          && (await box.count()) === before - 1,
        10_000,
      );
    }
    t.diagnostic(
      `screenshot: ${path.relative(repoRoot, await workbench.screenshot('review-checklist-all-cleared.png'))}`,
    );
    await frame.locator('#edit-save').click();
    await eventually('saved', () => cli(workspace, 'get_candidate', { id }).data.title === values.title, 15_000);
    await eventually(
      'nothing left before approving',
      async () =>
        (await frame.locator('#detail-title').innerText()) === values.title
        && (await frame.locator('.detail .checklist').count()) === 0,
      10_000,
    );
  });

  it("the Overview's Guard row follows a workspace scan, and tree labels show code spans without backticks", async (t) => {
    cli(workspace, 'submit_candidate', {
      ...candidates()[0],
      title: 'Parse dates with `parseISO`, never `new Date(string)`',
      code: 'const controller = new AbortController();',
    });
    const workbench = await session.openWorkbench();
    const container = await workbench.openViewContainer('autosnippet', 'AutoSnippet');
    await workbench.settleViewContainer('autosnippet');
    const pane = (title: RegExp) =>
      container.locator('.pane').filter({ has: workbench.page.locator('.pane-header', { hasText: title }) });
    const guardRow = pane(/^Overview/i).locator('.monaco-list-row', { hasText: 'Guard' });
    await guardRow.waitFor({ state: 'visible', timeout: 20_000 });
    const before = await guardRow.innerText();
    assert.doesNotMatch(before, /files scanned/, before);
    await workbench.runCommand('AutoSnippet: Scan Workspace with Guard');
    const after = await eventually('the Guard row shows the scan', async () => {
      const text = await guardRow.innerText();
      return /\d+ files scanned · \d+ errors · \d+ warnings/.test(text) ? text : undefined;
    }, 60_000);
    t.diagnostic(`Guard row: ${before.replace(/\s+/g, ' ')} → ${after.replace(/\s+/g, ' ')}`);
    const candidatesPane = pane(/^Candidates/i);
    await eventually(
      'the new candidate in the Candidates view',
      async () => /Parse dates with parseISO/.test(await candidatesPane.innerText()),
      20_000,
    );
    assert.doesNotMatch(await candidatesPane.innerText(), /`/);
    t.diagnostic(`screenshot: ${path.relative(repoRoot, await workbench.screenshot('review-overview-guard.png'))}`);
  });
});
