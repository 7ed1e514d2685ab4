// `npm run test:desktop`: the integration suite (test/vscode/suite, the same module the code-server
// layer runs) inside desktop VS Code, through @vscode/test-electron. It downloads VS Code, so it
// works only on a machine that can reach update.code.visualstudio.com; offline, use
// `npm run test:vscode` (code-server + Chromium).
//
//   VSCODE_VERSIONS   comma-separated versions to test (default "1.104.0,stable": the minimum
//                     supported and the newest)
// `--no-build` skips `node scripts/build.mjs`.
// On Linux without a display it re-runs itself under xvfb-run when that is installed.
import { downloadAndUnzipVSCode, runTests } from '@vscode/test-electron';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const versions = (process.env.VSCODE_VERSIONS ?? '1.104.0,stable').split(',').map((v) => v.trim()).filter(Boolean);
const suite = path.join(root, 'out/test/vscode/suite/index.js');
const fixture = path.join(root, 'test/fixtures/sample-workspace');
const cachePath = path.join(root, '.vscode-test');

if (
  process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY
  && !process.env.AUTOSNIPPET_UNDER_XVFB
) {
  const hasXvfb = spawnSync('sh', ['-c', 'command -v xvfb-run'], { stdio: 'ignore' }).status === 0;
  if (hasXvfb) {
    const r = spawnSync('xvfb-run', ['-a', process.execPath, ...process.argv.slice(1)], {
      stdio: 'inherit',
      env: { ...process.env, AUTOSNIPPET_UNDER_XVFB: '1' },
    });
    process.exit(r.status ?? 1);
  }
  console.warn('test:desktop: no DISPLAY and no xvfb-run; desktop VS Code may fail to start (apt-get install xvfb).');
}

if (!process.argv.includes('--no-build')) {
  const build = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { stdio: 'inherit', cwd: root });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

let failed = 0;
for (const version of versions) {
  let vscodeExecutablePath;
  try {
    vscodeExecutablePath = await downloadAndUnzipVSCode({ version, cachePath });
  } catch (e) {
    console.error([
      '',
      `test:desktop: could not download VS Code ${version}: ${e instanceof Error ? e.message : e}`,
      'This runner needs to download desktop VS Code (update.code.visualstudio.com). On a machine without',
      'that access, run the same suite in code-server instead:  npm run test:vscode',
      '',
    ].join('\n'));
    process.exit(2);
  }

  const tmp = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-desktop-'));
  const workspace = path.join(tmp, 'sample-workspace');
  cpSync(fixture, workspace, { recursive: true });
  mkdirSync(path.join(tmp, 'user-data'), { recursive: true });
  console.log(`\ntest:desktop: VS Code ${version} on ${workspace}`);
  try {
    await runTests({
      vscodeExecutablePath,
      extensionDevelopmentPath: [root, path.join(root, 'test/vscode/fake-lm-extension')],
      extensionTestsPath: suite,
      extensionTestsEnv: { AUTOSNIPPET_TEST_LOG: path.join(tmp, 'suite.log') },
      launchArgs: [
        workspace,
        '--disable-extensions', // other installed extensions; the one under development still loads
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
        '--disable-gpu',
        '--user-data-dir',
        path.join(tmp, 'user-data'),
        '--extensions-dir',
        path.join(tmp, 'extensions'),
      ],
    });
    console.log(`test:desktop: VS Code ${version} passed`);
  } catch (e) {
    failed++;
    console.error(`test:desktop: VS Code ${version} failed: ${e instanceof Error ? e.message : e}`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
process.exit(failed ? 1 : 0);
