import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'jsonc-parser';
import { configPath, upsertServerConfig } from '../../src/mcp/client-config';

const launch = { command: '/usr/bin/node', args: ['/ext/dist/mcp.js', '--workspace', '/proj'], env: { ELECTRON_RUN_AS_NODE: '1' } };

test('Cursor and Claude Desktop get mcpServers entries; VS Code gets servers with a type', () => {
  assert.deepEqual(JSON.parse(upsertServerConfig('cursor', undefined, launch)), { mcpServers: { autosnippet: launch } });
  assert.deepEqual(JSON.parse(upsertServerConfig('claude-desktop', '', launch)), { mcpServers: { autosnippet: launch } });
  assert.deepEqual(JSON.parse(upsertServerConfig('vscode', '{}', launch)), { servers: { autosnippet: { type: 'stdio', ...launch } } });
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

test('a file that is not a JSON object is refused and left alone', () => {
  assert.throws(() => upsertServerConfig('cursor', '[1, 2', launch), /not a JSON object/);
  assert.throws(() => upsertServerConfig('cursor', '[]', launch), /not a JSON object/);
});

test('each client config lives where that client reads it', () => {
  assert.equal(configPath('vscode', '/proj'), '/proj/.vscode/mcp.json');
  assert.equal(configPath('cursor', '/proj'), '/proj/.cursor/mcp.json');
  assert.equal(configPath('claude-desktop', '/proj', 'darwin', '/Users/a'), '/Users/a/Library/Application Support/Claude/claude_desktop_config.json');
  assert.equal(configPath('claude-desktop', '/proj', 'linux', '/home/a', {}), '/home/a/.config/Claude/claude_desktop_config.json');
  assert.equal(configPath('claude-desktop', '/proj', 'win32', 'C:\\Users\\a', { APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }).replace(/\\/g, '/').endsWith('Claude/claude_desktop_config.json'), true);
});
