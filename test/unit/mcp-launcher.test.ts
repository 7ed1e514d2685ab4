// The MCP entry AutoSnippet writes for other clients travels: variables where the client expands
// them, and a launcher at a fixed place that starts the newest installed extension's server.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { launcherPath, refreshLauncher, serverLaunch, writeLauncher } from '../../src/vscode/mcp-launcher';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A fake extension folder whose dist/mcp.js prints which one ran and its arguments. */
function fakeExtension(dir: string, name: string): string {
  mkdirSync(path.join(dir, 'dist'), { recursive: true });
  writeFileSync(
    path.join(dir, 'dist', 'mcp.js'),
    `process.stdout.write(JSON.stringify({ ran: ${JSON.stringify(name)}, args: process.argv.slice(2) }));`,
  );
  return dir;
}

function run(
  launcher: string,
  home: string,
  ...args: string[]
): { ran?: string; args?: string[]; status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [launcher, ...args], {
    encoding: 'utf8',
    env: { ...process.env, HOME: home, USERPROFILE: home },
  });
  return { ...(r.stdout ? JSON.parse(r.stdout) : {}), status: r.status, stderr: r.stderr };
}

describe('the MCP launcher', () => {
  it('starts the extension it was written from, with the arguments', () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'as-home-'));
    dirs.push(home);
    const ext = fakeExtension(path.join(home, 'somewhere', 'autosnippet'), 'written-from');
    const file = writeLauncher(ext, home);
    assert.equal(file, launcherPath(home));
    assert.deepEqual(run(file, home, '--workspace', '/w'), {
      ran: 'written-from',
      args: ['--workspace', '/w'],
      status: 0,
      stderr: '',
    });
  });

  it('after an update, starts the newest installed extension without a new configuration', () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'as-home-'));
    dirs.push(home);
    const old = fakeExtension(path.join(home, '.vscode', 'extensions', 'autosnippet.autosnippet-0.1.0'), '0.1.0');
    fakeExtension(path.join(home, '.vscode', 'extensions', 'autosnippet.autosnippet-0.10.2'), '0.10.2');
    fakeExtension(path.join(home, '.vscode', 'extensions', 'autosnippet.autosnippet-0.9.0'), '0.9.0');
    fakeExtension(path.join(home, '.vscode', 'extensions', 'someone.else-9.9.9'), 'other');
    const file = writeLauncher(old, home);
    assert.equal(run(file, home).ran, '0.10.2');
  });

  it('says what to do when no extension is left', () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'as-home-'));
    dirs.push(home);
    const file = writeLauncher(path.join(home, 'gone'), home);
    const r = run(file, home);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /Connect an MCP Client/);
  });

  it('is refreshed on activation only where it exists (activation writes nothing new)', () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'as-home-'));
    dirs.push(home);
    refreshLauncher(path.join(home, 'ext'), home);
    assert.equal(spawnSync('ls', [path.join(home, '.autosnippet')]).status !== 0, true, 'no ~/.autosnippet created');
  });

  it('entries use variables where the client expands them, absolute paths only for Claude Desktop', () => {
    for (const client of ['vscode', 'cursor'] as const) {
      const l = serverLaunch(client, '/home/me/project', '/home/me/.autosnippet/mcp-server.js');
      assert.deepEqual(l, {
        command: 'node',
        args: ['${userHome}/.autosnippet/mcp-server.js', '--workspace', '${workspaceFolder}'],
      });
    }
    assert.deepEqual(serverLaunch('claude-desktop', '/home/me/project', '/home/me/.autosnippet/mcp-server.js'), {
      command: 'node',
      args: ['/home/me/.autosnippet/mcp-server.js', '--workspace', '/home/me/project'],
    });
  });
});
