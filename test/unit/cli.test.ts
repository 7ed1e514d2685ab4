// `autosnippet <tool>`: every catalog tool is a command, its flags generated from the input schema.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { main } from '../../src/cli/main';

async function run(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
}

test('a catalog tool is a command: flags from its schema, kebab or snake name, data as JSON, errors exit 1, usage errors exit 2', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'as-cli-'));
  try {
    const info = await run(['-w', dir, 'get-tool-info', '--name', 'load_skill']);
    assert.equal(info.code, 0, info.stderr);
    assert.equal(JSON.parse(info.stdout).name, 'load_skill');

    const caps = await run(['-w', dir, 'capabilities', '--domain', 'system', '--include-review', '--json']);
    assert.equal(caps.code, 0, caps.stderr);
    const envelope = JSON.parse(caps.stdout);
    assert.equal(envelope.ok, true);
    assert.ok(envelope.data.domains[0].tools.some((t: { name: string }) => t.name === 'health'));

    const list = await run(['-w', dir, 'list_recipes', '--status', 'any']);
    assert.equal(list.code, 0, list.stderr);
    assert.deepEqual(JSON.parse(list.stdout).recipes, []);

    const audit = await run(['-w', dir, 'query-audit-log', '--limit', '5']);
    assert.equal(audit.code, 0, audit.stderr);

    const unknownTool = await run(['-w', dir, 'get-tool-info', '--name', 'nope']);
    assert.equal(unknownTool.code, 1);
    assert.match(unknownTool.stderr, /^UNKNOWN_TOOL: /);

    const badValue = await run(['-w', dir, 'query-audit-log', '--limit', 'many']);
    assert.equal(badValue.code, 2);
    assert.match(badValue.stderr, /--limit takes a whole number/);
    assert.equal((await run(['-w', dir, 'health', '--verbose'])).code, 2, 'an unknown flag is a usage error');

    const help = await run(['list-candidates', '-h']);
    assert.equal(help.code, 0);
    for (const flag of ['--status pending|approved|rejected|any', '--origin', '--limit', '--json']) {
      assert.ok(help.stdout.includes(flag), flag);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a tool command that creates .autosnippet/ says so on stderr; stdout stays the data', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'as-cli-'));
  try {
    const args = [
      '-w',
      dir,
      'submit-candidate',
      '--title',
      'Never eval input',
      '--summary',
      'Parse it instead.',
      '--language',
      'typescript',
      '--category',
      'security',
    ];
    const first = await run(args);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /Created \.autosnippet\/ in .* for this first write/);
    assert.ok(JSON.parse(first.stdout).id, 'stdout is the data alone');
    const second = await run([...args.slice(0, 4), 'Always parse input', ...args.slice(5)]);
    assert.equal(second.code, 0, second.stderr);
    assert.doesNotMatch(second.stderr, /Created \.autosnippet/, 'said once');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
