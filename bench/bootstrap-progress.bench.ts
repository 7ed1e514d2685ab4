// How soon "AutoSnippet: Bootstrap Knowledge" shows that it runs, in a real workbench (code-server +
// Chromium): a fresh window on a 5,000-file workspace that has no .autosnippet folder yet, the command
// run as soon as the palette lists it, while the workspace is still being opened. Timed in the
// page's own clock, from the click on the command palette's row to the progress notification's
// appearance in the DOM; then until the closing message. `npm run bench -- bootstrap-progress`.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { codeServerEntry, repoRoot, VSCodeSession } from '../test/vscode/harness';
import { copyPackages } from './bootstrap.bench';
import { type BenchTable, median, ms } from './lib';

const ROUNDS = 5;
const FILES = 5000;
const COMMAND = 'AutoSnippet: Bootstrap Knowledge';
const PROGRESS = 'bootstrapping knowledge';
const DONE = /Bootstrap scanned/;

interface Round {
  /** Click on the palette row → the progress notification in the DOM. */
  progressMs: number;
  /** Click → the message that closes the run (scanned N files …). */
  doneMs: number;
  /** When the extension host activated the extension, from the click (negative: before it). */
  activationMs: number | undefined;
}

/**
 * When the extension was activated, as the extension host logged it (local wall-clock time). A fresh
 * window may activate it before the command runs (its MCP server collection is asked for at start-up),
 * so the click can land before, during or after activation and the opening of the workspace.
 */
function activationTime(profileDir: string): number | undefined {
  const logs = path.join(profileDir, 'user-data/logs');
  if (!existsSync(logs)) return undefined;
  for (const f of readdirSync(logs, { recursive: true, encoding: 'utf8' })) {
    if (!f.endsWith('exthost.log')) continue;
    const line = readFileSync(path.join(logs, f), 'utf8').split('\n')
      .find((l) => l.includes('_doActivateExtension autosnippet.autosnippet'));
    const m = line && /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d\.\d+)/.exec(line);
    if (m) return new Date(`${m[1]}T${m[2]}`).getTime();
  }
  return undefined;
}

/**
 * Runs in the page before the click: stamps the click (capture phase, before the palette acts on it)
 * and the first notification toast whose text holds `progress` or matches `done`, with a
 * MutationObserver so the stamp is the DOM's change, not a poll's. A string: the page's DOM types are
 * not the bench's (Node's lib).
 */
function watchInPage(progress: string, done: RegExp): string {
  return `(() => {
    const w = window;
    const done = new RegExp(${JSON.stringify(done.source)});
    const progress = ${JSON.stringify(progress)};
    window.addEventListener('click', () => { w.benchClick ??= performance.now(); }, { capture: true });
    const look = () => {
      if (w.benchClick === undefined) return;
      for (const toast of document.querySelectorAll('.notification-toast')) {
        const text = toast.textContent ?? '';
        if (w.benchProgress === undefined && text.includes(progress)) w.benchProgress = performance.now();
        if (w.benchDone === undefined && done.test(text)) w.benchDone = performance.now();
      }
    };
    new MutationObserver(look).observe(document.body, { childList: true, subtree: true, characterData: true });
  })()`;
}

async function round(workspace: string, i: number): Promise<Round> {
  // What the previous round wrote: each round is the first bootstrap of this workspace.
  rmSync(path.join(workspace, '.autosnippet'), { recursive: true, force: true });
  const session = await VSCodeSession.start({ workspace, name: `bench-bootstrap-progress-${i}` });
  try {
    const workbench = await session.openWorkbench({ timeoutMs: 120_000 });
    const page = workbench.page;
    await page.evaluate(watchInPage(PROGRESS, DONE));
    // The palette lists contributed commands before the extension is active; a few tries cover the
    // moment after the workbench shows.
    for (let attempt = 1;; attempt++) {
      await page.keyboard.press('F1');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible' });
      await input.fill(`>${COMMAND}`);
      const row = page.locator('.quick-input-list .monaco-list-row', { hasText: COMMAND }).first();
      try {
        await row.waitFor({ state: 'visible', timeout: 5_000 });
        await row.click();
        break;
      } catch (e) {
        await page.keyboard.press('Escape');
        if (attempt >= 6) throw e;
      }
    }
    const stamps = () =>
      page.evaluate<{ click?: number; progress?: number; done?: number }>(
        '({ click: window.benchClick, progress: window.benchProgress, done: window.benchDone })',
      );
    const deadline = Date.now() + 180_000;
    let s = await stamps();
    while ((s.progress === undefined || s.done === undefined) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      s = await stamps();
    }
    if (s.click === undefined || s.progress === undefined || s.done === undefined) {
      const shot = await workbench.screenshot(`bench-bootstrap-progress-${i}.png`);
      throw new Error(`round ${i}: no ${s.progress === undefined ? 'progress' : 'closing'} notification; see ${shot}`);
    }
    const origin = await page.evaluate<number>('performance.timeOrigin');
    const activated = activationTime(session.server.profileDir);
    return {
      progressMs: s.progress - s.click,
      doneMs: s.done - s.click,
      activationMs: activated === undefined ? undefined : activated - (origin + s.click),
    };
  } finally {
    await session.close();
  }
}

export async function run(): Promise<BenchTable[]> {
  if (!existsSync(codeServerEntry) || !existsSync(path.join(repoRoot, 'dist/extension.js'))) {
    console.error('bootstrap-progress: skipped (needs `bash scripts/setup-vscode.sh` and `node scripts/build.mjs`)');
    return [];
  }
  const modules = path.join(repoRoot, 'node_modules');
  const workspace = mkdtempSync(path.join(os.tmpdir(), 'as-bench-progress-'));
  try {
    const files = copyPackages(readdirSync(modules).filter((p) => !p.startsWith('.')).sort(), workspace, FILES);
    const rounds: Round[] = [];
    for (let i = 0; i < ROUNDS; i++) rounds.push(await round(workspace, i));
    const load = os.loadavg()[0].toFixed(1);
    return [{
      title: `Bootstrap in a fresh window: until the progress shows (${files} source files, load ${load})`,
      columns: ['measure', 'median', 'rounds'],
      rows: [
        [
          'click → progress notification',
          ms(median(rounds.map((r) => r.progressMs))),
          rounds.map((r) => Math.round(r.progressMs)).join(', '),
        ],
        [
          'click → closing message',
          ms(median(rounds.map((r) => r.doneMs))),
          rounds.map((r) => Math.round(r.doneMs)).join(', '),
        ],
        [
          'extension activated, from the click',
          '',
          rounds.map((r) => (r.activationMs === undefined ? '?' : Math.round(r.activationMs))).join(', '),
        ],
      ],
      notes: [
        "Each round starts code-server and a new window on the workspace with its .autosnippet folder removed, and clicks the command as soon as the palette lists it; the toast is timed in the page (performance.now(), click to the toast entering the DOM). The extension host activates the extension at start-up (the MCP server collection is asked for), which starts opening the workspace; the last row says when, from the extension host's log (negative: before the click).",
      ],
    }];
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}
