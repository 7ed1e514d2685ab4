// Runs the test layers with Node's own test runner. `npm test` type-checks and lints, then runs every layer:
//   unit   — the core in plain Node, fast (test/unit/**/*.test.ts; `npm run test:unit`, under a minute)
//   slow   — plain Node too, but long: crash trials with real processes, the full ReDoS analysis (test/slow)
//   mcp    — the MCP SDK's client against the built dist/mcp.js (test/mcp/**/*.test.ts)
//   vscode — the built extension inside code-server, driven by Playwright (test/vscode/*.test.ts)
//   fuzz   — only when asked (`npm run test:fuzz`): 10,000+ generated MCP calls and 1,000+ SIGKILL trials (test/fuzz)
// Set-up (build, and for the vscode layer the offline code-server install) happens here, so one
// command does everything on a fresh machine.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const LINT_TARGETS = ['src', 'test', 'bench', 'scripts', 'eslint', 'eslint.config.mjs'];
const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const asked = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const all = asked.length === 0;
const layers = all ? ['unit', 'slow', 'mcp', 'vscode'] : asked;
const passthrough = process.argv.slice(2).filter((a) => a.startsWith('-'));

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

function testFiles(dir) {
  const out = [];
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const p = path.join(d, name);
      if (name === 'node_modules' || name === 'fixtures') continue;
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.test.ts')) out.push(path.relative(root, p));
    }
  };
  try {
    walk(path.join(root, dir));
  } catch { /* layer has no tests yet */ }
  return out.sort();
}

// tsx strips types without checking them: the whole run starts with the compiler. Build mode with
// the projects' tsbuildinfo files (under .cache/, git-ignored) re-checks only what changed since the last run.
if (all) run(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-b', '.', 'src/webview']);
// Then the lint: typescript-eslint's rules and the layering (eslint/layers.mjs); its cache skips unchanged files.
if (all) {
  run(process.execPath, [
    path.join(root, 'node_modules/eslint/bin/eslint.js'),
    '--cache',
    '--cache-location',
    '.cache/eslint/',
    ...LINT_TARGETS,
  ]);
}
// And the layout: dprint (dprint.json) checks that every source file is formatted.
if (all) run(process.execPath, [path.join(root, 'node_modules/dprint/bin.cjs'), 'check']);
if (layers.includes('vscode')) run('bash', ['scripts/setup-vscode.sh']);
if (layers.some((l) => l === 'mcp' || l === 'vscode' || l === 'fuzz')) run(process.execPath, ['scripts/build.mjs']); // the fuzz suite drives the built server
// The vscode layer also installs the packaged .vsix into code-server and runs the suite against it.
const env = { ...process.env };
// No test reads the person's own ~/.autosnippet (trust, settings, personal skills): an empty one instead.
if (!env.AUTOSNIPPET_HOME) env.AUTOSNIPPET_HOME = mkdtempSync(path.join(os.tmpdir(), 'as-test-home-'));
if (layers.includes('vscode') && !env.AUTOSNIPPET_VSIX) {
  const vsix = path.join(root, '.vscode-test', 'autosnippet-test.vsix');
  mkdirSync(path.dirname(vsix), { recursive: true });
  run(process.execPath, [
    path.join(root, 'node_modules/@vscode/vsce/vsce'),
    'package',
    '--no-dependencies',
    '--skip-license',
    '--out',
    vsix,
  ], { stdio: ['ignore', 'ignore', 'inherit'] });
  env.AUTOSNIPPET_VSIX = vsix;
}

const files = layers.flatMap((l) => testFiles(`test/${l}`));
if (files.length === 0) {
  console.error(`no test files found for: ${layers.join(', ')}`);
  process.exit(1);
}
// Test files mostly wait (processes, timers, disk): two at a time even on two cores (Node's default is cores - 1).
const concurrency = `--test-concurrency=${Math.max(2, os.availableParallelism())}`;
run(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', concurrency, ...passthrough, ...files], {
  env,
});
