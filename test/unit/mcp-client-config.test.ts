import { parse } from 'jsonc-parser';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { isAutoSnippetError } from '../../src/core/ground/kernel/errors';
import { configFileProblem, configPath, upsertServerConfig } from '../../src/mcp/client-config';

const launch = {
  command: '/usr/bin/node',
  args: ['/ext/dist/mcp.js', '--workspace', '/proj'],
  env: { ELECTRON_RUN_AS_NODE: '1' },
};

test('Cursor and Claude Desktop get mcpServers entries; VS Code gets servers with a type', () => {
  assert.deepEqual(JSON.parse(upsertServerConfig('cursor', undefined, launch)), {
    mcpServers: { autosnippet: launch },
  });
  assert.deepEqual(JSON.parse(upsertServerConfig('claude-desktop', '', launch)), {
    mcpServers: { autosnippet: launch },
  });
  assert.deepEqual(JSON.parse(upsertServerConfig('vscode', '{}', launch)), {
    servers: { autosnippet: { type: 'stdio', ...launch } },
  });
});

test('other servers, other settings and comments are kept; our entry is replaced, not duplicated', () => {
  const existing = `{
  // my servers
  "mcpServers": {
    "other": { "command": "other-server" },
    "autosnippet": { "command": "old" }
  },
  "theme": "dark",
}`;
  const out = upsertServerConfig('cursor', existing, launch);
  assert.match(out, /\/\/ my servers/);
  const parsed = parse(out, [], { allowTrailingComma: true });
  assert.deepEqual(parsed.mcpServers.other, { command: 'other-server' });
  assert.deepEqual(parsed.mcpServers.autosnippet, launch);
  assert.equal(parsed.theme, 'dark');
});

test('an existing autosnippet entry keeps the fields it does not own (env with a token, cwd, disabled) and its comments', () => {
  const existing = `{
  "mcpServers": {
    "autosnippet": {
      // the token for the private registry
      "command": "old-node",
      "args": ["old.js"],
      "env": { "REGISTRY_TOKEN": "s3cret", "ELECTRON_RUN_AS_NODE": "0" },
      "cwd": "/work/proj",
      "disabled": false
    }
  }
}`;
  const out = upsertServerConfig('cursor', existing, launch);
  assert.match(out, /\/\/ the token for the private registry/);
  assert.deepEqual(parse(out).mcpServers.autosnippet, {
    command: launch.command,
    args: launch.args,
    env: { REGISTRY_TOKEN: 's3cret', ELECTRON_RUN_AS_NODE: '1' },
    cwd: '/work/proj',
    disabled: false,
  });

  const vscodeFile =
    '{ "servers": { "autosnippet": { "type": "stdio", "command": "x", "args": [], "envFile": "${workspaceFolder}/.env" } } }';
  const noEnv = { command: 'node', args: ['server.js'] };
  assert.deepEqual(JSON.parse(upsertServerConfig('vscode', vscodeFile, noEnv)).servers.autosnippet, {
    type: 'stdio',
    command: 'node',
    args: ['server.js'],
    envFile: '${workspaceFolder}/.env',
  });
  assert.deepEqual(
    JSON.parse(upsertServerConfig('cursor', '{ "mcpServers": { "autosnippet": "broken" } }', noEnv)).mcpServers
      .autosnippet,
    noEnv,
    'an entry that is not an object is replaced',
  );
});

test('duplicate keys on the way to the entry are refused with INVALID_JSON, naming the key and its lines; nothing is written into either copy', () => {
  const twice = `{
  "mcpServers": { "autosnippet": { "command": "a", "env": { "TOKEN": "1" } } },
  "theme": "dark",
  "mcpServers": { "other": { "command": "b" } }
}`;
  assert.throws(
    () => upsertServerConfig('cursor', twice, launch),
    (e) =>
      isAutoSnippetError(e) && e.code === 'INVALID_JSON'
      && /^"mcpServers" appears twice at the top level \(lines 2 and 4\)/.test(e.message)
      && /Merge them into one/.test(e.message),
  );
  const entryTwice = '{ "servers": {\n "autosnippet": { "command": "a" },\n "autosnippet": { "command": "b" } } }';
  assert.throws(
    () => upsertServerConfig('vscode', entryTwice, launch),
    /"autosnippet" appears twice in "servers" \(lines 2 and 3\)/,
  );
  const envTwice = '{ "mcpServers": { "autosnippet": { "command": "a", "env": {}, "env": { "TOKEN": "1" } } } }';
  assert.throws(
    () => upsertServerConfig('claude-desktop', envTwice, launch),
    /"env" appears twice in "mcpServers\.autosnippet"/,
  );
  // Another server's duplicate is that server's business: the file is still updated.
  const elsewhere = '{ "mcpServers": { "other": { "command": "a", "command": "b" } } }';
  assert.deepEqual(parse(upsertServerConfig('cursor', elsewhere, launch)).mcpServers.autosnippet, launch);
});

test('a file that is not a JSON object is refused and left alone', () => {
  assert.throws(() => upsertServerConfig('cursor', '[1, 2', launch), /not a JSON object/);
  assert.throws(() => upsertServerConfig('cursor', '[]', launch), /not a JSON object/);
});

test('each client config lives where that client reads it', () => {
  assert.equal(configPath('vscode', '/proj'), '/proj/.vscode/mcp.json');
  assert.equal(configPath('cursor', '/proj'), '/proj/.cursor/mcp.json');
  assert.equal(
    configPath('claude-desktop', '/proj', 'darwin', '/Users/a'),
    '/Users/a/Library/Application Support/Claude/claude_desktop_config.json',
  );
  assert.equal(
    configPath('claude-desktop', '/proj', 'linux', '/home/a', {}),
    '/home/a/.config/Claude/claude_desktop_config.json',
  );
  assert.equal(
    configPath('claude-desktop', '/proj', 'win32', 'C:\\Users\\a', { APPDATA: 'C:\\Users\\a\\AppData\\Roaming' })
      .replace(/\\/g, '/').endsWith('Claude/claude_desktop_config.json'),
    true,
  );
});

test('a workspace client config that is a link, or under a linked folder, is refused by name and target before anything is written', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-clients-'));
  const outside = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-outside-'));
  try {
    assert.equal(configFileProblem('cursor', root), undefined, 'no file yet: fine');
    symlinkSync(outside, path.join(root, '.cursor'));
    assert.match(
      configFileProblem('cursor', root) ?? '',
      /^\.cursor is a link to .*, outside the workspace; AutoSnippet does not write through links, so \.cursor\/mcp\.json was not written\./,
    );
    writeFileSync(path.join(root, 'package.json'), '{}\n');
    mkdirSync(path.join(root, '.vscode'));
    symlinkSync('../package.json', path.join(root, '.vscode', 'mcp.json'));
    assert.match(
      configFileProblem('vscode', root) ?? '',
      /^\.vscode\/mcp\.json is a link to package\.json; AutoSnippet does not write through links/,
    );
    assert.equal(configFileProblem('claude-desktop', root), undefined, "the per-user file is not the repository's");
    assert.deepEqual(readdirSync(outside), []);
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  }
});
