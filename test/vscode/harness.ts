// Runs the built extension inside a real VS Code: code-server 4.104.0 (installed offline by
// scripts/setup-vscode.sh) on a loopback port, with Debian's Chromium driven by playwright-core.
// See ../../../shared/vscode-offline-testing.md for why it is done this way.
//
//   const session = await VSCodeSession.start({ workspace });
//   const result = await session.runExtensionTests({ extensionTestsPath });   // exit code + logs
//   const workbench = await session.openWorkbench();                          // a page to click
//   await session.close();                                                    // kills everything
//
// Every process it starts is killed on close(), on a timeout, and when this process exits.
// Logs and screenshots go to test-output/vscode/.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  type WriteStream,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

// __filename, not __dirname: tsx's tsImport (used by scripts/start.mjs) sets only the former correctly.
export const repoRoot = path.resolve(path.dirname(__filename), '../..');
export const outputDir = path.join(repoRoot, 'test-output/vscode');
export const codeServerDir = path.join(
  path.resolve(repoRoot, process.env.AUTOSNIPPET_VSCODE_DIR || '.vscode-test'),
  'node_modules/code-server',
);
export const codeServerEntry = path.join(codeServerDir, 'out/node/entry.js');

/**
 * Sets up code-server and builds the extension when a test file runs on its own (npm test does both
 * first): the build also runs when any of `outputs` (repository-relative) is missing.
 */
export function ensureBuilt(outputs: readonly string[] = []): void {
  if (!existsSync(codeServerEntry)) {
    const setup = spawnSync('bash', [path.join(repoRoot, 'scripts/setup-vscode.sh')], { stdio: 'inherit' });
    if (setup.status !== 0) throw new Error(`scripts/setup-vscode.sh failed (exit ${setup.status})`);
  }
  if (['dist/extension.js', ...outputs].some((f) => !existsSync(path.join(repoRoot, f)))) {
    const build = spawnSync(process.execPath, [path.join(repoRoot, 'scripts/build.mjs')], {
      stdio: 'inherit',
      cwd: repoRoot,
    });
    if (build.status !== 0) throw new Error(`scripts/build.mjs failed (exit ${build.status})`);
  }
}
export const builtSuite = path.join(repoRoot, 'out/test/vscode/suite/index.js');
export const chromiumPath = process.env.AUTOSNIPPET_CHROMIUM ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** User settings that keep the throw-away profile quiet and fast. */
const USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'git.autoRepositoryDetection': false,
};

// ------------------------------------------------------------------ process cleanup

const live = new Set<{ killNow(): void }>();
let exitHooked = false;
function track(owner: { killNow(): void }): void {
  live.add(owner);
  if (exitHooked) return;
  exitHooked = true;
  process.on('exit', () => {
    for (const o of live) o.killNow();
  });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = () => {
      for (const o of live) o.killNow();
      // Nobody else handles this signal: die of it as we would have without this hook.
      if (process.listenerCount(sig) === 1) {
        process.removeListener(sig, onSignal);
        process.kill(process.pid, sig);
      }
    };
    process.on(sig, onSignal);
  }
}

/**
 * Signals a detached child's process group: the child and everything it started (code-server's
 * worker, the extension host, language servers, MCP servers the tests spawned). The group can outlive
 * its leader, so this does not stop at the leader having exited.
 */
function killGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch { /* the whole group is gone */ }
}

// ------------------------------------------------------------------ small helpers

export async function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, host, () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export async function portIsFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, host, () => srv.close(() => resolve(true)));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Where a workbench page should load extensions under development from: one folder or several. */
export type DevelopmentPaths = string | string[];

/**
 * A URL that opens `folder` with the extension under development loaded (and the tests, if given).
 * The workbench accepts several development folders, but code-server 4.104 loads only the last one:
 * install helper extensions with `installExtensions` instead.
 */
export function workbenchUrl(
  origin: string,
  port: number,
  opts: { folder: string; extensionDevelopmentPath?: DevelopmentPaths; extensionTestsPath?: string },
): string {
  const remote = (p: string) => `vscode-remote://localhost:${port}${path.resolve(p)}`;
  const payload: [string, string][] = [];
  for (const dev of [opts.extensionDevelopmentPath ?? []].flat()) {
    payload.push(['extensionDevelopmentPath', remote(dev)]);
  }
  if (opts.extensionTestsPath) payload.push(['extensionTestsPath', remote(opts.extensionTestsPath)]);
  payload.push(['skipWelcome', 'true']);
  // A `.code-workspace` file opens a multi-root workspace; anything else is a folder.
  const target = opts.folder.endsWith('.code-workspace') ? 'workspace' : 'folder';
  return `${origin}/?${target}=${encodeURIComponent(path.resolve(opts.folder))}&payload=${
    encodeURIComponent(JSON.stringify(payload))
  }`;
}

// ------------------------------------------------------------------ code-server

export interface CodeServerOptions {
  /** Folder the server opens by default (the URL's `folder` parameter decides what a page shows). */
  workspace: string;
  /** Port to listen on; 0 or undefined = a free one. */
  port?: number;
  host?: string;
  /** Extra environment for the server and so for the extension host. */
  env?: Record<string, string>;
  /** Prefix for log files in test-output/vscode. */
  name?: string;
  /** Keep the throw-away user-data and extensions dirs (for debugging). */
  keepProfile?: boolean;
  /** Where logs go; default test-output/vscode. */
  logDir?: string;
  /** Pass code-server's output through to this process's stderr too. */
  echo?: boolean;
  /** Extensions to install into the throw-away extensions dir before the server starts: .vsix files,
   *  or unpacked extension folders (copied in; e.g. a test-only fake language-model provider). */
  installExtensions?: string[];
  /** User settings on top of the quiet defaults, e.g. `{ 'workbench.colorTheme': 'Default Light Modern' }`. */
  settings?: Record<string, unknown>;
  /** The display language (`--locale`), e.g. `zh-cn`: the extension's translations are then used. */
  locale?: string;
}

export class CodeServer {
  private exited = false;
  private constructor(
    readonly process: ChildProcess,
    readonly host: string,
    readonly port: number,
    readonly profileDir: string,
    readonly logFile: string,
    private readonly log: WriteStream,
    private readonly keepProfile: boolean,
  ) {
    track(this);
    process.once('exit', () => {
      this.exited = true;
    });
  }

  get suiteLogFile(): string {
    return path.join(this.profileDir, 'suite.log');
  }

  get origin(): string {
    return `http://${this.host}:${this.port}`;
  }

  url(opts: { folder: string; extensionDevelopmentPath?: DevelopmentPaths; extensionTestsPath?: string }): string {
    return workbenchUrl(this.origin, this.port, opts);
  }

  static async start(opts: CodeServerOptions): Promise<CodeServer> {
    if (!existsSync(codeServerEntry)) {
      throw new Error(`code-server is not installed at ${codeServerDir}; run: bash scripts/setup-vscode.sh`);
    }
    const host = opts.host ?? '127.0.0.1';
    const logDir = opts.logDir ?? outputDir;
    mkdirSync(logDir, { recursive: true });
    let lastError: unknown;
    for (let attempt = 0; attempt < 3; attempt++) {
      const port = opts.port || (await freePort(host));
      const profileDir = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-cs-'));
      const userDataDir = path.join(profileDir, 'user-data');
      mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
      writeFileSync(
        path.join(userDataDir, 'User/settings.json'),
        JSON.stringify({ ...USER_SETTINGS, ...opts.settings }, null, 2),
      );
      if (opts.locale && !opts.locale.startsWith('en')) registerLanguage(userDataDir, opts.locale);
      const logFile = path.join(logDir, `${opts.name ?? 'code-server'}-server.log`);
      const log = createWriteStream(logFile, { flags: 'w' });
      // The suite appends its lines to AUTOSNIPPET_TEST_LOG (it reaches the extension host through the
      // server's environment), so results are readable even if the workbench's log plumbing changes.
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        AUTOSNIPPET_TEST_LOG: path.join(profileDir, 'suite.log'),
        ...opts.env,
      };
      // Variables from an enclosing VS Code or test runner would confuse the server's extension host.
      for (const k of Object.keys(env)) {
        if (
          k.startsWith('VSCODE_') || k === 'ELECTRON_RUN_AS_NODE' || k === 'NODE_TEST_CONTEXT' || k === 'NODE_OPTIONS'
        ) delete env[k];
      }
      const profileArgs = ['--user-data-dir', userDataDir, '--extensions-dir', path.join(profileDir, 'extensions')];
      try {
        for (const vsix of opts.installExtensions ?? []) installExtension(vsix, profileArgs, env, log);
      } catch (e) {
        log.end();
        rmSync(profileDir, { recursive: true, force: true });
        throw e;
      }
      const args = [
        codeServerEntry,
        '--auth',
        'none',
        '--bind-addr',
        `${host}:${port}`,
        '--disable-telemetry',
        '--disable-update-check',
        '--disable-workspace-trust',
        '--disable-getting-started-override',
        ...(opts.locale ? ['--locale', opts.locale] : []),
        ...profileArgs,
        opts.workspace,
      ];
      const child = spawn(process.execPath, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      const server = new CodeServer(child, host, port, profileDir, logFile, log, !!opts.keepProfile);
      let output = '';
      const onData = (chunk: Buffer) => {
        const text = chunk.toString();
        output += text;
        log.write(text);
        if (opts.echo) process.stderr.write(text);
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      try {
        await server.waitUntilReady(() => output, 60_000);
        return server;
      } catch (e) {
        lastError = e;
        await server.stop();
        // A port taken between our probe and the server's bind: try another one.
        if (!opts.port && /EADDRINUSE/.test(output)) continue;
        throw e;
      }
    }
    throw lastError;
  }

  private async waitUntilReady(output: () => string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.exited) {
        throw new Error(
          `code-server exited before it was ready (exit ${this.process.exitCode}); its output:\n${
            output().slice(-3000)
          }`,
        );
      }
      try {
        const res = await fetch(`${this.origin}/healthz`, { signal: AbortSignal.timeout(2000) });
        if (res.ok) return;
      } catch { /* not listening yet */ }
      await sleep(200);
    }
    throw new Error(
      `code-server did not answer on ${this.origin} within ${timeoutMs} ms; its output:\n${output().slice(-3000)}`,
    );
  }

  killNow(): void {
    killGroup(this.process);
  }

  async stop(): Promise<void> {
    live.delete(this);
    if (!this.exited) {
      killGroup(this.process, 'SIGTERM');
      const gone = new Promise<void>((r) => this.process.once('exit', () => r()));
      await Promise.race([gone, sleep(3000)]);
    }
    // The extension host and other children share the group: make sure none outlives the server.
    killGroup(this.process, 'SIGKILL');
    await new Promise<void>((r) => this.log.end(() => r()));
    if (!this.keepProfile) rmSync(this.profileDir, { recursive: true, force: true, maxRetries: 3 });
  }
}

/**
 * Makes VS Code accept `--locale` for a language with no language pack here (the packs come from the
 * extension gallery, which these machines cannot reach): an empty pack, so VS Code's own UI stays in
 * English while every extension, AutoSnippet included, runs in that language with its own translations.
 */
function registerLanguage(userDataDir: string, locale: string): void {
  const translations = path.join(userDataDir, 'test-language-pack', 'main.i18n.json');
  mkdirSync(path.dirname(translations), { recursive: true });
  writeFileSync(translations, JSON.stringify({ version: '1.0.0', contents: {} }));
  writeFileSync(
    path.join(userDataDir, 'languagepacks.json'),
    JSON.stringify({
      [locale]: {
        hash: `autosnippet-test-${locale}`,
        label: locale,
        extensions: [],
        translations: { vscode: translations },
      },
    }),
  );
}

/**
 * Installs an extension into a profile that no server uses yet: a folder is copied to
 * `<extensions-dir>/<publisher>.<name>-<version>` (VS Code picks it up when it first scans the
 * folder), a .vsix goes through `code-server --install-extension`. Throws with the reason on failure.
 */
function installExtension(vsix: string, profileArgs: string[], env: NodeJS.ProcessEnv, log: WriteStream): void {
  if (statSync(vsix).isDirectory()) {
    const manifest = JSON.parse(readFileSync(path.join(vsix, 'package.json'), 'utf8')) as {
      publisher: string;
      name: string;
      version: string;
    };
    const extensionsDir = profileArgs[profileArgs.indexOf('--extensions-dir') + 1];
    const target = path.join(extensionsDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`.toLowerCase());
    cpSync(vsix, target, {
      recursive: true,
      dereference: true,
      filter: (src) => !src.includes(`${path.sep}node_modules${path.sep}.cache`),
    });
    log.write(`copied extension ${vsix} to ${target}\n`);
    // Once a .vsix has been installed, VS Code loads only the extensions listed in extensions.json.
    const registry = path.join(extensionsDir, 'extensions.json');
    if (existsSync(registry)) {
      const entries = JSON.parse(readFileSync(registry, 'utf8')) as { identifier: { id: string } }[];
      const id = `${manifest.publisher}.${manifest.name}`.toLowerCase();
      entries.push(
        {
          identifier: { id },
          version: manifest.version,
          location: { $mid: 1, path: target, scheme: 'file' },
          relativeLocation: path.basename(target),
        } as never,
      );
      writeFileSync(
        registry,
        JSON.stringify(entries.filter((e, i, all) => all.findIndex((x) => x.identifier.id === e.identifier.id) === i)),
      );
    }
    return;
  }
  const r = spawnSync(process.execPath, [
    codeServerEntry,
    ...profileArgs,
    '--install-extension',
    path.resolve(vsix),
    '--force',
  ], { env, encoding: 'utf8', timeout: 120_000 });
  log.write(`--install-extension ${vsix}\n${r.stdout}${r.stderr}\n`);
  if (r.status !== 0 || /Failed Installing|not compatible/i.test(r.stdout + r.stderr)) {
    throw new Error(`installing ${vsix} into code-server failed (exit ${r.status}):\n${r.stdout}${r.stderr}`);
  }
}

// ------------------------------------------------------------------ browser

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `Chromium not found at ${chromiumPath}; run: bash scripts/setup-vscode.sh (installs Debian's chromium)`,
    );
  }
  return chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS, headless: true });
}

// ------------------------------------------------------------------ a session: server + browser

export interface SessionOptions extends CodeServerOptions {
  /** The extension under development; default: the repository root; null: none (e.g. to test an
   *  extension installed from a .vsix with `installExtensions`). */
  extensionDevelopmentPath?: string | null;
}

export interface LogLine {
  /** 'suite' lines come from the suite's log file, others from the workbench / browser console. */
  source: 'automation' | 'console' | 'suite' | 'pageerror';
  level: string;
  text: string;
}

export interface SuiteResult {
  /** The code the suite's run() ended with (0 = passed); null when it timed out. */
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  /** Lines the suite logged (one per test, and the summary), read from its log file. */
  suiteLines: string[];
  /** Everything the workbench logged while the suite ran. */
  logs: LogLine[];
  /** Files the log lines and a screenshot were written to. */
  logFile: string;
  screenshot?: string;
}

export class VSCodeSession {
  private readonly contexts = new Set<BrowserContext>();
  private constructor(readonly server: CodeServer, readonly browser: Browser, readonly opts: SessionOptions) {
    track(this);
  }

  static async start(opts: SessionOptions): Promise<VSCodeSession> {
    const server = await CodeServer.start(opts);
    try {
      const browser = await launchChromium();
      return new VSCodeSession(server, browser, opts);
    } catch (e) {
      await server.stop();
      throw e;
    }
  }

  get name(): string {
    return this.opts.name ?? 'code-server';
  }
  get extensionDevelopmentPath(): string {
    if (this.opts.extensionDevelopmentPath !== null) return this.opts.extensionDevelopmentPath ?? repoRoot;
    // VS Code runs extension tests only in a development window: give it an empty extension, so the
    // extensions that are really tested are the installed ones.
    const placeholder = path.join(this.server.profileDir, 'placeholder-extension');
    if (!existsSync(placeholder)) {
      mkdirSync(placeholder, { recursive: true });
      writeFileSync(
        path.join(placeholder, 'package.json'),
        JSON.stringify({
          name: 'test-placeholder',
          publisher: 'autosnippet-tests',
          version: '0.0.0',
          engines: { vscode: '*' },
        }),
      );
    }
    return placeholder;
  }

  private async newPage(): Promise<Page> {
    const context = await this.browser.newContext({ viewport: { width: 1440, height: 900 } });
    this.contexts.add(context);
    return context.newPage();
  }

  /**
   * Opens the workbench with `extensionTestsPath`, and waits for the suite's run() to finish
   * (the workbench then calls window.codeAutomationExit). Never throws for a failing suite: read
   * `exitCode`.
   */
  async runExtensionTests(
    opts: { extensionTestsPath?: string; folder?: string; timeoutMs?: number } = {},
  ): Promise<SuiteResult> {
    const testsPath = opts.extensionTestsPath ?? builtSuite;
    if (!existsSync(testsPath)) {
      throw new Error(`the test suite is not built: ${testsPath} (run: node scripts/build.mjs)`);
    }
    const folder = opts.folder ?? this.opts.workspace;
    const timeoutMs = opts.timeoutMs ?? 120_000;
    const logFile = path.join(this.opts.logDir ?? outputDir, `${this.name}-suite.log`);
    const suiteLog = this.server.suiteLogFile;
    rmSync(suiteLog, { force: true });
    const logs: LogLine[] = [];
    const t0 = Date.now();
    const page = await this.newPage();
    let resolveExit!: (code: number) => void;
    const exited = new Promise<number>((r) => {
      resolveExit = r;
    });
    await page.exposeFunction('codeAutomationLog', (level: string, message: unknown) => {
      logs.push({
        source: 'automation',
        level: String(level),
        text: typeof message === 'string' ? message : JSON.stringify(message),
      });
    });
    await page.exposeFunction('codeAutomationExit', (code: number) => {
      resolveExit(Number(code));
    });
    page.on('console', (m) => logs.push({ source: 'console', level: m.type(), text: m.text() }));
    page.on('pageerror', (e) => logs.push({ source: 'pageerror', level: 'error', text: String(e.stack ?? e) }));
    const url = this.server.url({
      folder,
      extensionDevelopmentPath: this.extensionDevelopmentPath,
      extensionTestsPath: testsPath,
    });
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<null>((r) => {
      timer = setTimeout(() => r(null), timeoutMs);
    });
    const exitCode = await Promise.race([exited, timedOut]);
    clearTimeout(timer);
    const durationMs = Date.now() - t0;
    let screenshot: string | undefined;
    if (exitCode !== 0) {
      screenshot = path.join(
        this.opts.logDir ?? outputDir,
        `${this.name}-suite-${exitCode === null ? 'timeout' : 'failed'}.png`,
      );
      await page.screenshot({ path: screenshot }).catch(() => {
        screenshot = undefined;
      });
    }
    await page.context().close().catch(() => {});
    const suiteLines = existsSync(suiteLog) ? readFileSync(suiteLog, 'utf8').split('\n').filter(Boolean) : [];
    for (const text of suiteLines) logs.push({ source: 'suite', level: 'info', text });
    writeFileSync(logFile, logs.map((l) => `${l.source}\t${l.level}\t${l.text}`).join('\n') + '\n');
    return { exitCode, timedOut: exitCode === null, durationMs, suiteLines, logs, logFile, screenshot };
  }

  /** Opens the workbench on `folder` with the extension loaded, for UI checks. */
  async openWorkbench(opts: { folder?: string; timeoutMs?: number } = {}): Promise<Workbench> {
    const page = await this.newPage();
    const logs: LogLine[] = [];
    page.on('console', (m) => logs.push({ source: 'console', level: m.type(), text: m.text() }));
    page.on('pageerror', (e) => logs.push({ source: 'pageerror', level: 'error', text: String(e.stack ?? e) }));
    const url = this.server.url({
      folder: opts.folder ?? this.opts.workspace,
      extensionDevelopmentPath: this.extensionDevelopmentPath,
    });
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    const workbench = new Workbench(page, logs, this.opts.logDir ?? outputDir);
    await workbench.waitUntilReady(opts.timeoutMs ?? 60_000);
    return workbench;
  }

  killNow(): void {
    this.server.killNow();
    // Playwright kills the browser it launched when this process exits.
  }

  async close(): Promise<void> {
    live.delete(this);
    for (const c of this.contexts) await c.close().catch(() => {});
    await this.browser.close().catch(() => {});
    await this.server.stop();
  }
}

/** A workbench page with the extension loaded: the UI checks' handle. */
export class Workbench {
  constructor(readonly page: Page, readonly logs: LogLine[], private readonly logDir: string) {}

  async waitUntilReady(timeoutMs: number): Promise<void> {
    // The activity bar and the explorer's folder are the workbench's "restored" state.
    await this.page.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: timeoutMs });
    await this.page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: timeoutMs });
  }

  /** The activity-bar entry of a view container, by its title (e.g. "AutoSnippet"). */
  activityBarItem(title: string) {
    return this.page.locator(`.part.activitybar .action-item a.action-label[aria-label^="${title}"]`).first();
  }

  /** Clicks a view container in the activity bar (if it is not already open) and waits for its side bar. */
  async openViewContainer(id: string, title: string, timeoutMs = 30_000) {
    const item = this.activityBarItem(title);
    await item.waitFor({ state: 'visible', timeout: timeoutMs });
    const sidebar = this.viewContainer(id);
    if (!(await sidebar.isVisible())) await item.click();
    await sidebar.waitFor({ state: 'visible', timeout: timeoutMs });
    await this.page.mouse.move(700, 450); // no hover tooltip in screenshots
    return sidebar;
  }

  /** The side-bar element of an extension's view container (`contributes.viewsContainers` id). */
  viewContainer(id: string) {
    return this.page.locator(`.part.sidebar [id="workbench.view.extension.${id}"]`);
  }

  /**
   * Waits (at most `timeoutMs`, without failing) until a view container's views have content: no
   * progress bar running and no "no data provider registered" placeholder (the extension activates
   * a moment after the workbench is shown). Returns whether it settled.
   */
  async settleViewContainer(id: string, timeoutMs = 15_000): Promise<boolean> {
    const container = this.viewContainer(id);
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const text = await container.innerText().catch(() => '');
      const busy = await container.locator('.monaco-progress-container.active').count().catch(() => 0);
      if (text && !/no data provider registered/i.test(text) && busy === 0) return true;
      await sleep(250);
    }
    return false;
  }

  /** Runs a command through the command palette (F1), by its label. */
  async runCommand(label: string): Promise<void> {
    // An extension's commands reach the palette a moment after the workbench shows: try a few times.
    for (let attempt = 1;; attempt++) {
      await this.page.keyboard.press('F1');
      const input = this.page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible' });
      await input.fill(`>${label}`);
      // The list filters as it renders: wait for the command itself, not for whatever row came first.
      const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first();
      try {
        await row.waitFor({ state: 'visible', timeout: 5_000 });
      } catch (e) {
        await this.page.keyboard.press('Escape');
        if (attempt >= 6) throw e;
        await sleep(1000);
        continue;
      }
      await row.click();
      return;
    }
  }

  async screenshot(name: string): Promise<string> {
    mkdirSync(this.logDir, { recursive: true });
    const file = path.join(this.logDir, name.endsWith('.png') ? name : `${name}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }
}

/** Log lines that every offline run has (gallery and telemetry look-ups, the web's shutdown warning). */
const HARMLESS = [
  /open-vsx\.org|ERR_NAME_NOT_RESOLVED|ENOTFOUND|EAI_AGAIN|marketplace|gallery/i,
  /Failed to load resource: the server responded with a status of 404/,
  /Long running operations during shutdown are unsupported in the web/,
  /^\s*at async? ?\S+ \(http/,
];

/** Workbench errors worth reading when a run fails (the harmless offline noise left out, duplicates merged). */
export function workbenchErrors(logs: LogLine[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const l of logs) {
    if (l.source === 'suite' || (l.level !== 'error' && l.source !== 'pageerror')) continue;
    let text = l.text;
    if (l.source === 'automation') {
      try {
        const parts = JSON.parse(text);
        if (Array.isArray(parts)) text = parts.join(' ');
      } catch { /* plain text */ }
    }
    text = text.replace(/^%c\s+ERR\s+color: #f33\s*/, '');
    const key = text.slice(0, 200);
    if (HARMLESS.some((re) => re.test(text)) || seen.has(key)) continue;
    seen.add(key);
    out.push(text);
  }
  return out;
}

/** Formats a run for a test's diagnostics: the suite's own lines, and on failure the workbench's errors. */
export function describeRun(result: SuiteResult, maxErrors = 30): string {
  const errors = result.exitCode === 0 ? [] : workbenchErrors(result.logs);
  return [
    `suite ${
      result.timedOut ? 'timed out' : `exited with ${result.exitCode}`
    } after ${result.durationMs} ms (full log: ${path.relative(repoRoot, result.logFile)})`,
    ...result.suiteLines.map((l) => `  ${l}`),
    ...(errors.length ? ['workbench errors:', ...errors.slice(-maxErrors).map((t) => `  ${t.slice(0, 800)}`)] : []),
    ...(result.screenshot ? [`screenshot: ${path.relative(repoRoot, result.screenshot)}`] : []),
  ].join('\n');
}
