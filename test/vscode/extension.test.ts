// The real-VS-Code layer: the built extension inside code-server 4.104.0, driven by Chromium.
//   1. the integration suite (test/vscode/suite, built to out/test/vscode/suite/index.js) runs in
//      the extension host and must exit with 0;
//   2. UI checks on workbench pages: the AutoSnippet container opens from the activity bar, the Skills
//      view lists the skills, the Problems panel shows the guard problems of an open file with their
//      rule ids, and the Candidates view's inline Approve action (at once, with Undo) writes the draft recipe
//      file; editing code a published recipe cites marks it stale in the Recipes view, whose Review
//      Changes action opens the diff. Screenshots go to test-output/vscode/ (workbench-autosnippet.png, skills-view.png,
//      problems-guard.png, candidates-approve-notification.png, candidates-approve.png, recipes-stale.png, freshness-review.png).
// Needs `bash scripts/setup-vscode.sh` and `node scripts/build.mjs` (scripts/test.mjs runs both).
// AUTOSNIPPET_EXTENSION_DEVELOPMENT_PATH runs another extension folder instead of the repository.
// AUTOSNIPPET_VSIX=path/to/autosnippet.vsix adds a run of the suite against that package, installed
// into a fresh code-server profile (no development extension).
const vsix = process.env.AUTOSNIPPET_VSIX && path.resolve(process.env.AUTOSNIPPET_VSIX);
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { builtSuite, codeServerEntry, describeRun, outputDir, repoRoot, VSCodeSession, Workbench } from './harness';
import { eventually } from './suite/poll';

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
    const r = spawnSync(process.execPath, [path.join(repoRoot, 'scripts/build.mjs')], {
      stdio: 'inherit',
      cwd: repoRoot,
    });
    assert.equal(r.status, 0, 'node scripts/build.mjs failed');
  }
  assert.ok(existsSync(builtSuite), `the suite was not built: ${builtSuite}`);
}

describe('AutoSnippet in VS Code (code-server 4.104.0 + Chromium)', { timeout: 540_000 }, () => {
  let session: VSCodeSession;
  let tmp: string;
  let workspace: string;

  before(async () => {
    ensurePrerequisites();
    tmp = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-vscode-'));
    workspace = path.join(tmp, 'sample-workspace');
    cpSync(fixture, workspace, { recursive: true });
    for (const png of [
      'workbench-autosnippet.png',
      'problems-guard.png',
      'candidates-approve-notification.png',
      'candidates-approve.png',
    ]) rmSync(path.join(outputDir, png), { force: true });
    session = await VSCodeSession.start({
      workspace,
      extensionDevelopmentPath: extensionPath,
      installExtensions: [fakeModelExtension],
      name: 'extension',
    });
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
    const item = workbench.page.locator(
      '.part.activitybar li.action-item.checked a.action-label[aria-label^="AutoSnippet"]',
    );
    assert.equal(await item.count(), 1, 'the AutoSnippet activity-bar item is not the selected one');
    const title = await workbench.page.locator('.part.sidebar .composite.title').innerText();
    assert.match(title, /AUTOSNIPPET/i, `the side bar's title is "${title}"`);
    const views = await container.locator('.pane').count();
    const text = await container.innerText();
    assert.ok(views > 0 || text.trim().length > 0, 'the AutoSnippet container shows no views');
    assert.doesNotMatch(text, /no data provider registered/i, `a view in the container has no provider:\n${text}`);
  });

  it('the Skills view lists the 13 bundled skills and the one from .github/skills', async (t) => {
    const { workbench, pane } = await openAutoSnippetView(session, 'Skills');
    const tree = pane.locator('.monaco-list').first();
    await tree.waitFor({ state: 'visible', timeout: 30_000 });
    // Expand every source (level 1) so its skills are rendered.
    for (let round = 0; round < 4; round++) {
      const collapsed = tree.locator('.monaco-list-row[aria-level="1"][aria-expanded="false"]');
      if ((await collapsed.count()) === 0) break;
      await collapsed.first().click();
      await sleep(300);
    }
    const labels = await eventuallyLabels(
      tree,
      (l) => l.filter((x) => x.startsWith('autosnippet-')).length >= 13 && l.includes('team-conventions'),
    );
    const file = await workbench.screenshot('skills-view.png');
    t.diagnostic(`screenshot: ${path.relative(repoRoot, file)}`);
    assert.equal(new Set(labels.filter((x) => x.startsWith('autosnippet-'))).size, 13, labels.join(', '));
    assert.ok(labels.includes('team-conventions'), labels.join(', '));
  });

  it('the Problems panel lists the AutoSnippet Guard problems of an open file, with their rule ids', async (t) => {
    // Written after the suite ran, so the guard suite's workspace scan never sees it.
    const file = path.join(workspace, 'src', 'guarded.ts');
    writeFileSync(
      file,
      'export function f(m: Map<string, unknown>, k: string) {\n  return (m.get(k) as any).length + eval("1");\n}\n',
    );
    try {
      const workbench = await session.openWorkbench({ timeoutMs: 60_000 });
      await openFile(workbench, 'guarded.ts');
      await workbench.runCommand('Problems: Focus on Problems View');
      const panel = workbench.page.locator('.part.panel .markers-panel');
      await panel.waitFor({ state: 'visible', timeout: 15_000 });
      // The rows of the Problems tree: a file row ("2 problems in file guarded.ts of folder src"), then its markers.
      const problems = await eventually('the two guard problems of guarded.ts in the Problems panel', async () => {
        const rows = await problemRows(workbench);
        const at = rows.findIndex((r) => /problems? in file guarded\.ts of folder src/.test(r.label));
        if (at < 0) return undefined;
        const next = rows.findIndex((r, i) => i > at && / in file /.test(r.label));
        const mine = rows.slice(at + 1, next < 0 ? undefined : next);
        return mine.length >= 2 ? mine : undefined;
      }, 20_000);
      const file_ = await workbench.screenshot('problems-guard.png');
      t.diagnostic(`screenshot: ${path.relative(repoRoot, file_)}`);
      for (const p of problems) t.diagnostic(`${p.label} | ${p.text.replace(/\n/g, ' / ')}`);
      assert.equal(problems.length, 2, problems.map((p) => p.text).join('\n'));
      const byRule = new Map(problems.map((p) => [p.text.match(/\bts\/[a-z-]+/)?.[0], p]));
      assert.deepEqual(
        [...byRule.keys()].sort(),
        ['ts/no-eval', 'ts/no-explicit-any-cast'],
        problems.map((p) => p.text).join('\n'),
      );
      for (const p of problems) assert.match(p.text, /AutoSnippet Guard/, `the source is shown: ${p.text}`);
      const evalRow = byRule.get('ts/no-eval')!;
      const anyRow = byRule.get('ts/no-explicit-any-cast')!;
      assert.match(
        evalRow.label,
        /^Error: eval runs a string as code\..* at line 2 and character 37\. generated by AutoSnippet Guard/,
        evalRow.label,
      );
      assert.match(
        anyRow.label,
        /^Info\w*: Cast to any turns off type checking\..* at line 2 and character 20\. generated by AutoSnippet Guard/,
        anyRow.label,
      );
      // The rule id links to the rule's explanation.
      const link = panel.locator('.monaco-list-row a', { hasText: 'ts/no-eval' });
      assert.equal(await link.count(), 1, 'the rule id ts/no-eval is a link');
      t.diagnostic(`ts/no-eval links to ${await link.getAttribute('href')}`);
    } finally {
      rmSync(file, { force: true });
    }
  });

  it('a person marks a guard finding reviewed from the light bulb, types why in the input box, and the problem leaves the Problems panel', async (t) => {
    const file = path.join(workspace, 'src', 'reviewed-ui.ts');
    const baseline = path.join(workspace, '.autosnippet/guard/baseline.json');
    writeFileSync(file, 'export const run = (code: string) =>\n  eval(code);\n');
    try {
      const workbench = await session.openWorkbench({ timeoutMs: 60_000 });
      const page = workbench.page;
      await openFile(workbench, 'reviewed-ui.ts');
      await workbench.runCommand('Problems: Focus on Problems View');
      const inFile = async () => {
        const rows = await problemRows(workbench);
        const at = rows.findIndex((r) => /in file reviewed-ui\.ts/.test(r.label));
        if (at < 0) return [];
        const next = rows.findIndex((r, i) => i > at && / in file /.test(r.label));
        return rows.slice(at + 1, next < 0 ? undefined : next);
      };
      await eventually(
        'the eval problem of reviewed-ui.ts',
        async () => ((await inFile()).some((r) => /ts\/no-eval/.test(r.text)) ? true : undefined),
        20_000,
      );
      // The cursor on the eval (line 2), then the light bulb's menu, as a person would open it.
      await page.locator('.part.editor .monaco-editor .view-lines').first().click();
      await page.keyboard.press('Control+G');
      const goto = page.locator('.quick-input-widget input');
      await goto.waitFor({ state: 'visible' });
      await goto.fill(':2:4');
      await page.keyboard.press('Enter');
      const action = page.locator('.action-widget .monaco-list-row, .context-view .action-widget li', {
        hasText: 'Mark this ts/no-eval finding reviewed',
      }).first();
      await eventually('the "mark reviewed" quick fix', async () => {
        if (await action.isVisible().catch(() => false)) return true;
        await page.keyboard.press('Control+.');
        await action.waitFor({ state: 'visible', timeout: 3_000 }).catch(() => undefined);
        return (await action.isVisible().catch(() => false)) || undefined;
      }, 20_000);
      // The menu takes the keyboard (a click lands on its pointer block): move the focus to the row, then Enter.
      await eventually('the "mark reviewed" row focused', async () => {
        const focused = page.locator('.action-widget .monaco-list-row.focused').first();
        if (
          /Mark this ts\/no-eval finding reviewed/.test(
            (await focused.getAttribute('aria-label').catch(() => null)) ?? '',
          )
        ) return true;
        await page.keyboard.press('ArrowDown');
        return undefined;
      }, 10_000);
      await page.keyboard.press('Enter');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      const prompt = await page.locator('.quick-input-widget').innerText();
      t.diagnostic(`input box: ${prompt.replace(/\n/g, ' / ')}`);
      assert.match(prompt, /Why is the code right as it is\?/);
      await input.fill('The playground runs code its own user typed, in their own tab.');
      await page.keyboard.press('Enter');
      await eventually(
        'the eval problem leaves the Problems panel',
        async () => ((await inFile()).some((r) => /ts\/no-eval/.test(r.text)) ? undefined : true),
        20_000,
      );
      const shot = await workbench.screenshot('guard-marked-reviewed.png');
      t.diagnostic(`screenshot: ${path.relative(repoRoot, shot)}`);
      const written = JSON.parse(readFileSync(baseline, 'utf8')) as {
        reviewed?: Record<string, { rule: string; reason: string }[]>;
      };
      assert.deepEqual(written.reviewed?.['src/reviewed-ui.ts']?.map((e) => [e.rule, e.reason]), [[
        'ts/no-eval',
        'The playground runs code its own user typed, in their own tab.',
      ]]);
    } finally {
      rmSync(file, { force: true });
      rmSync(baseline, { force: true });
    }
  });

  it('a candidate an agent proposes from another process appears in the open Candidates view without a refresh', async () => {
    const { pane } = await openAutoSnippetView(session, 'Candidates');
    await pane.locator('.monaco-list, .welcome-view').first().waitFor({ state: 'visible', timeout: 20_000 });
    // The view is open and showing; now another process (the CLI, as an MCP server would) commits.
    const title = 'Errors crossing a module boundary are wrapped (live update check)';
    const submitted = cli(workspace, 'submit_candidate', {
      title,
      language: 'typescript',
      summary: 'Wrap errors before they leave a module.',
    });
    assert.equal(submitted.data?.status, 'created', JSON.stringify(submitted));
    const row = pane.locator('.monaco-list-row', { hasText: title });
    await eventually('the new candidate in the open Candidates view', async () => (await row.count()) === 1, 15_000);
    cli(workspace, 'reject_candidate', { id: submitted.data.id, reason: 'test cleanup' });
  });

  it('approving a pending candidate with its inline action in the Candidates view writes the draft recipe file at once, and Undo takes it back', async (t) => {
    // A person proposes it through the CLI (it acts as a person), on the workspace the session serves.
    const category = 'ui-approve';
    const title = 'Look users up through UserRepository.find (UI check)';
    // Quoted from src/users.ts as it is: a candidate's code must be found in the files it cites.
    const code = 'find(id: number): User | undefined {\n    return this.byId.get(id);\n  }';
    const submitted = cli(workspace, 'submit_candidate', {
      title,
      code,
      language: 'typescript',
      category,
      knowledgeType: 'code-pattern',
      summary: 'Find users by id through the repository, and handle a missing one.',
      reasoning: { whyStandard: 'src/users.ts keeps users by id.', sources: ['src/users.ts:16'], confidence: 0.7 },
    });
    assert.equal(submitted.data?.status, 'created', JSON.stringify(submitted));
    const candidateId: string = submitted.data.id;
    const recipesDir = path.join(workspace, '.autosnippet', 'recipes', category);
    try {
      const { workbench, pane } = await openAutoSnippetView(session, 'Candidates');
      const row = pane.locator('.monaco-list-row', { hasText: title });
      await eventually(
        'the candidate in the Candidates view',
        async () => (await row.count()) === 1 && /pending/.test(await row.innerText()),
        20_000,
      );

      // The inline action shows on hover; the click is the decision (no modal), and the notification offers Undo.
      await row.hover();
      const approve = row.locator('.actions .action-label[aria-label="Approve Candidate"]');
      await approve.waitFor({ state: 'visible', timeout: 5_000 });
      await approve.click();
      const toast = workbench.page.locator('.notification-toast', { hasText: `Approved "${title}"` });
      await toast.waitFor({ state: 'visible', timeout: 10_000 });
      assert.equal(await workbench.page.locator('.monaco-dialog-box').count(), 0, 'no modal after the click');
      t.diagnostic(
        `screenshot: ${path.relative(repoRoot, await workbench.screenshot('candidates-approve-notification.png'))}`,
      );
      const draftFiles = () => (existsSync(recipesDir) ? readdirSync(recipesDir).filter((x) => x.endsWith('.md')) : []);
      await eventually('the draft recipe file', () => draftFiles().length === 1, 15_000);
      // Undo in the notification: pending again, and the unedited draft is gone.
      await toast.getByRole('button', { name: 'Undo' }).click();
      await eventually(
        'the candidate pending again after Undo',
        () => cli(workspace, 'get_candidate', { id: candidateId }).data?.status === 'pending' && !draftFiles().length,
        15_000,
      );
      // Approved again, for good this time.
      await eventually('the candidate back in the pending list', async () => (await row.count()) === 1, 10_000);
      await row.hover();
      await approve.waitFor({ state: 'visible', timeout: 5_000 });
      await approve.click();

      // The draft recipe file appears on disk with the candidate's code, and the view shows it approved.
      const files = await eventually(`a recipe file in .autosnippet/recipes/${category}/`, () => {
        const f = existsSync(recipesDir) ? readdirSync(recipesDir).filter((x) => x.endsWith('.md')) : [];
        return f.length ? f : undefined;
      }, 15_000);
      assert.equal(files.length, 1, files.join(', '));
      const markdown = readFileSync(path.join(recipesDir, files[0]), 'utf8');
      assert.match(markdown, /^status: ["']?draft["']?$/m, markdown);
      const fenced = markdown.replace(/^---\n[\s\S]*?\n---\n/, '').match(/^(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n\1[ \t]*$/m)
        ?.[2];
      assert.equal(fenced, code, `the candidate's code in a fenced block:\n${markdown}`);
      // The view moves it out of the pending ones into the collapsed "Decided" group; opened, it shows it approved.
      await eventually('the candidate gone from the pending ones', async () => (await row.count()) === 0, 10_000);
      const decided = pane.locator('.monaco-list-row', { hasText: /Decided \(\d+\)/ });
      await decided.waitFor({ state: 'visible', timeout: 10_000 });
      await decided.click();
      await eventually(
        'the candidate shown as approved under "Decided"',
        async () => (await row.count()) === 1 && /approved/.test(await row.innerText()),
        10_000,
      );
      const shot = await workbench.screenshot('candidates-approve.png');
      t.diagnostic(`screenshot: ${path.relative(repoRoot, shot)}`);
      const after = cli(workspace, 'get_candidate', { id: candidateId });
      assert.equal(after.data?.status, 'approved', JSON.stringify(after).slice(0, 500));
      assert.equal(after.data?.recipeId, `${category}/${files[0].replace(/\.md$/, '')}`);
    } finally {
      rmSync(recipesDir, { recursive: true, force: true });
    }
  });
  it('editing the code a published recipe cites marks it stale in the Recipes view, and its Review Changes action shows the diff', async (t) => {
    const category = 'ui-freshness';
    const title = 'Users are looked up in UserRepository.byId (freshness check)';
    const users = path.join(workspace, 'src', 'users.ts');
    const original = readFileSync(users, 'utf8');
    const lines = original.split('\n');
    const cited = lines.findIndex((l) => l.includes('return this.byId.get(id);')) + 1;
    assert.ok(cited > 0, 'src/users.ts of the fixture has the lookup');
    const recipeDir = path.join(workspace, '.autosnippet', 'recipes', category);
    mkdirSync(recipeDir, { recursive: true });
    writeFileSync(
      path.join(recipeDir, 'find-users.md'),
      `---\ntitle: ${
        JSON.stringify(title)
      }\nsummary: Find users through UserRepository.find.\nlanguage: typescript\nstatus: draft\nsources: ["src/users.ts:${cited}"]\n---\n\n\`\`\`ts\n${
        lines.slice(cited - 2, cited + 1).join('\n')
      }\n\`\`\`\n`,
    );
    try {
      const published = cli(workspace, 'publish_recipe', { id: `${category}/find-users` });
      assert.equal(published.data?.status, 'published', JSON.stringify(published));
      const { workbench, pane } = await openAutoSnippetView(session, 'Recipes');
      const row = pane.locator('.monaco-list-row', { hasText: title });
      await eventually('the published recipe in the Recipes view', async () => (await row.count()) === 1, 20_000);
      assert.doesNotMatch(await row.innerText(), /stale/);

      writeFileSync(users, original.replace('return this.byId.get(id);', 'return this.byId.get(Number(id));'));
      const edited = Date.now();
      // The goal is 2 s (issue 16); the time is reported, not asserted: a loaded CI machine is no measure of speed.
      await eventually(
        'the recipe marked stale in the Recipes view',
        async () => /stale/.test(await row.innerText()),
        20_000,
      );
      t.diagnostic(`marked stale ${Date.now() - edited} ms after the edit (goal 2,000 ms)`);
      t.diagnostic(`screenshot: ${path.relative(repoRoot, await workbench.screenshot('recipes-stale.png'))}`);

      await row.hover();
      const review = row.locator('.actions .action-label[aria-label="Review Changes"]');
      await review.waitFor({ state: 'visible', timeout: 5_000 });
      await review.click();
      const diff = workbench.page.locator('.part.editor .monaco-diff-editor');
      await diff.first().waitFor({ state: 'visible', timeout: 10_000 });
      const tab = workbench.page.locator('.part.editor .tab.active');
      assert.match(await tab.innerText(), /\(recorded ↔ now\)/);
      const side = (which: 'original' | 'modified') => diff.first().locator(`.editor.${which} .view-lines`).innerText();
      await eventually(
        'both sides of the diff rendered',
        async () => /byId\.get/.test(await side('original')) && /byId\.get/.test(await side('modified')),
        10_000,
      );
      assert.match((await side('original')).replace(/\s+/g, ' '), /return this\.byId\.get\(id\);/);
      assert.match((await side('modified')).replace(/\s+/g, ' '), /return this\.byId\.get\(Number\(id\)\);/);
      t.diagnostic(`screenshot: ${path.relative(repoRoot, await workbench.screenshot('freshness-review.png'))}`);
    } finally {
      writeFileSync(users, original);
      rmSync(recipeDir, { recursive: true, force: true });
    }
  });
});

describe('AutoSnippet installed from a .vsix into code-server', {
  timeout: 180_000,
  skip: vsix ? false : 'set AUTOSNIPPET_VSIX=path/to/autosnippet.vsix to run',
}, () => {
  it('the integration suite passes against the installed package', async (t) => {
    assert.ok(existsSync(vsix as string), `no .vsix at ${vsix}`);
    ensurePrerequisites();
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-vsix-'));
    const workspace = path.join(tmp, 'sample-workspace');
    cpSync(fixture, workspace, { recursive: true });
    const session = await VSCodeSession.start({
      workspace,
      extensionDevelopmentPath: null,
      installExtensions: [vsix as string, fakeModelExtension],
      name: 'vsix',
    });
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

/** Opens a workspace file by name through Quick Open (Ctrl+P) and waits for its editor tab. */
async function openFile(workbench: Workbench, name: string): Promise<void> {
  const page = workbench.page;
  // A file written a moment ago can be missing from Quick Open's first answer: ask again.
  for (let attempt = 1;; attempt++) {
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill(name);
    try {
      await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor({
        state: 'visible',
        timeout: 10_000,
      });
      break;
    } catch (e) {
      await page.keyboard.press('Escape');
      if (attempt >= 3) throw e;
    }
  }
  await page.keyboard.press('Enter');
  await page.locator('.part.editor .tab.active', { hasText: name }).waitFor({ state: 'visible', timeout: 15_000 });
}

/** The Problems tree's rendered rows: their accessible label and their text. */
async function problemRows(workbench: Workbench): Promise<{ label: string; text: string }[]> {
  // Read in one go: the tree re-renders its rows while markers change, so row-by-row reads can wait on a row that is gone.
  return workbench.page.locator('.part.panel .markers-panel .monaco-list-row').evaluateAll((rows) =>
    rows.map((r) => ({
      label: r.getAttribute('aria-label') ?? '',
      text: (r as unknown as { innerText: string }).innerText,
    }))
  );
}

/** `autosnippet call <tool> <json>` on a workspace (the CLI acts as a person); its JSON answer. */
function cli(workspace: string, tool: string, input: Record<string, unknown>): any {
  const local = path.join(extensionPath, 'dist/cli.js');
  const entry = existsSync(local) ? local : path.join(repoRoot, 'dist/cli.js');
  const r = spawnSync(process.execPath, [entry, '-w', workspace, 'call', tool, JSON.stringify(input)], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(r.status, 0, `autosnippet call ${tool} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** The first words of the tree's rows (skill names), polled until `done` holds or 20 s pass. */
async function eventuallyLabels(
  tree: import('playwright-core').Locator,
  done: (labels: string[]) => boolean,
): Promise<string[]> {
  let labels: string[] = [];
  for (const end = Date.now() + 20_000; Date.now() < end; await sleep(300)) {
    labels = (await tree.locator('.monaco-list-row .label-name').allInnerTexts()).map((x) => x.trim());
    if (done(labels)) break;
  }
  return labels;
}

/**
 * Opens the AutoSnippet container and gives one of its four views the room: the others are collapsed
 * (a tree renders only the rows that fit), this one expanded.
 */
async function openAutoSnippetView(session: VSCodeSession, name: 'Overview' | 'Recipes' | 'Candidates' | 'Skills') {
  const workbench = await session.openWorkbench({ timeoutMs: 60_000 });
  const container = await workbench.openViewContainer('autosnippet', 'AutoSnippet');
  await workbench.settleViewContainer('autosnippet');
  for (const other of ['Overview', 'Recipes', 'Candidates', 'Skills'].filter((n) => n !== name)) {
    const header = container.locator('.pane-header[aria-expanded="true"]').filter({
      hasText: new RegExp(`^${other}`, 'i'),
    });
    if ((await header.count()) > 0) await header.first().click();
  }
  const header = container.locator('.pane-header').filter({ hasText: new RegExp(`^${name}`, 'i') }).first();
  if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
  const pane = container.locator('.pane').filter({
    has: workbench.page.locator('.pane-header', { hasText: new RegExp(`^${name}`, 'i') }),
  });
  return { workbench, container, pane };
}
