import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { main } from '../../src/cli/main';
import { generatedBlock, REFERENCE_DOC } from '../../src/core/catalog/docs';
import {
  configurationManifest,
  readSettingsFile,
  SETTINGS_FILE,
  settingsFrom,
  settingsTable,
} from '../../src/core/ground/settings';

const root = path.join(__dirname, '..', '..');

function recordingLog() {
  const warnings: string[] = [];
  const log = { debug() {}, info() {}, warn: (m: string) => void warnings.push(m), error() {} };
  return { log, warnings };
}

test("package.json's configuration and the reference's settings table are generated from the one settings table (npm run gen:manifest)", () => {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  assert.deepEqual(pkg.contributes.configuration, configurationManifest());
  assert.equal(generatedBlock(readFileSync(path.join(root, REFERENCE_DOC), 'utf8'), 'settings'), settingsTable());
});

test('.autosnippet/settings.json: missing is fine and never created; good values apply, bad ones are reported and left at their default', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'as-settings-'));
  try {
    const { log, warnings } = recordingLog();
    assert.deepEqual(readSettingsFile(dir, log), {});
    assert.ok(!existsSync(path.join(dir, '.autosnippet')), 'reading settings creates nothing');
    assert.deepEqual(warnings, []);

    mkdirSync(path.join(dir, '.autosnippet'));
    writeFileSync(
      path.join(dir, SETTINGS_FILE),
      JSON.stringify({
        'autosnippet.guard.exclude': ['dist/**'],
        'guard.severityOverrides': { 'ts/no-eval': 'off' },
        'autosnippet.guard.enabled': 'no',
        'autosnippet.skills.allowScripts': true,
        'autosnippet.guard.skipKinds': ['vendored', 'test'],
        'autosnippet.colour': 'blue',
      }),
    );
    const values = readSettingsFile(dir, log);
    // A repository's file may not widen what agents may do: its allowScripts: true is dropped, said once.
    assert.deepEqual(values, {
      'guard.exclude': ['dist/**'],
      'guard.severityOverrides': { 'ts/no-eval': 'off' },
      'guard.skipKinds': ['vendored', 'test'],
    });
    assert.equal(warnings.length, 3);
    assert.match(warnings.join('\n'), /"autosnippet\.guard\.enabled" is ignored: it must be true or false/);
    assert.match(warnings.join('\n'), /unknown setting "autosnippet\.colour"/);
    assert.match(
      warnings.join('\n'),
      /"autosnippet\.skills\.allowScripts": true is ignored: a repository's files may narrow/,
    );
    const s = settingsFrom(values);
    assert.deepEqual(s.guard, {
      enabled: true,
      exclude: ['dist/**'],
      severityOverrides: { 'ts/no-eval': 'off' },
      skipKinds: ['vendored', 'test'],
    });
    assert.equal(s.skills.allowScripts, false);

    // A kind guard does not know is named, and the default kinds stay.
    writeFileSync(
      path.join(dir, SETTINGS_FILE),
      JSON.stringify({ 'autosnippet.guard.skipKinds': ['vendored', 'vendor'] }),
    );
    assert.deepEqual(readSettingsFile(dir, log), {});
    assert.match(
      warnings.at(-1) ?? '',
      /"autosnippet\.guard\.skipKinds" is ignored: "vendor" in the list: it must be one of "production", "test"/,
    );

    writeFileSync(path.join(dir, SETTINGS_FILE), '{ not json');
    assert.deepEqual(readSettingsFile(dir, log), {});
    assert.match(warnings.at(-1) ?? '', /settings\.json is ignored/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the CLI follows .autosnippet/settings.json: with guard turned off, guard-check answers GUARD_DISABLED', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'as-settings-cli-'));
  try {
    const run = async (args: string[]) => {
      let stdout = '';
      let stderr = '';
      const code = await main(['-w', dir, ...args], { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
      return { code, stdout, stderr };
    };
    const check = ['guard-check', '--code', 'const v = eval(x);\n', '--language', 'typescript'];
    assert.equal((await run(check)).code, 0);
    assert.equal(
      existsSync(path.join(dir, '.autosnippet')),
      false,
      'a read-only command creates nothing, a missing settings file included',
    );
    mkdirSync(path.join(dir, '.autosnippet'));
    writeFileSync(path.join(dir, SETTINGS_FILE), JSON.stringify({ 'autosnippet.guard.enabled': false }));
    const off = await run(check);
    assert.equal(off.code, 1);
    assert.match(off.stderr, /^GUARD_DISABLED/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
