// `npm start`: the extension in a real VS Code in the browser, on a copy of the sample workspace.
//   1. installs code-server 4.104.0 (offline, scripts/setup-vscode.sh; a no-op when done),
//   2. builds the extension (scripts/build.mjs),
//   3. copies test/fixtures/sample-workspace to a temporary folder (the repository stays clean),
//   4. starts code-server on 127.0.0.1 with the extension loaded as a development extension, and
//      prints the URL to open; runs until Ctrl-C, then removes the temporary folders.
// Environment:
//   PORT                  port to listen on (default 8080; a free one when that is taken)
//   AUTOSNIPPET_WORKSPACE open this folder instead of a copy of the sample workspace
//   AUTOSNIPPET_EXTENSION_DEVELOPMENT_PATH  load this extension folder instead of the repository
// Flags: --no-build (skip step 2), --no-setup (skip step 1).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tsImport } from 'tsx/esm/api';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const args = process.argv.slice(2);

function step(cmd, cmdArgs) {
  const r = spawnSync(cmd, cmdArgs, { stdio: 'inherit', cwd: root });
  if (r.status !== 0) {
    console.error(`npm start: ${cmd} ${cmdArgs.join(' ')} failed (exit ${r.status ?? r.signal})`);
    process.exit(r.status ?? 1);
  }
}

if (!args.includes('--no-setup')) step('bash', [path.join(root, 'scripts/setup-vscode.sh')]);
if (!args.includes('--no-build')) step(process.execPath, [path.join(root, 'scripts/build.mjs')]);

const extensionDevelopmentPath = path.resolve(process.env.AUTOSNIPPET_EXTENSION_DEVELOPMENT_PATH ?? root);
if (extensionDevelopmentPath === root && !existsSync(path.join(root, 'dist/extension.js'))) {
  console.error('npm start: dist/extension.js is missing; run: node scripts/build.mjs');
  process.exit(1);
}

let tmp;
let workspace = process.env.AUTOSNIPPET_WORKSPACE && path.resolve(process.env.AUTOSNIPPET_WORKSPACE);
if (!workspace) {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-start-'));
  workspace = path.join(tmp, 'sample-workspace');
  cpSync(path.join(root, 'test/fixtures/sample-workspace'), workspace, { recursive: true });
}

const { CodeServer, portIsFree } = await tsImport('../test/vscode/harness.ts', import.meta.url);

const wanted = Number(process.env.PORT || 8080);
let port = wanted;
if (!(await portIsFree(wanted))) {
  console.log(`npm start: port ${wanted} is taken; using a free one.`);
  port = 0;
}

let server;
try {
  server = await CodeServer.start({ workspace, port, name: 'start', logDir: path.join(root, 'test-output/start') });
} catch (e) {
  console.error(`npm start: code-server did not start: ${e instanceof Error ? e.message : e}`);
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  process.exit(1);
}
const url = server.url({ folder: workspace, extensionDevelopmentPath });

console.log(`
AutoSnippet is running in VS Code (code-server 4.104.0) on the workspace
  ${workspace}

Open this URL in your browser:

${url}

(server log: ${path.relative(root, server.logFile)}; Ctrl-C to stop)
`);

let stopping = false;
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`\nnpm start: ${signal}, stopping code-server...`);
  await server.stop().catch(() => {});
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  process.exit(0);
}
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => void stop(sig));
server.process.once('exit', (code, signal) => {
  if (stopping) return;
  console.error(`npm start: code-server exited (${code ?? signal}); see ${server.logFile}`);
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  process.exit(1);
});
