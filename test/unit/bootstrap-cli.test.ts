import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { bootstrapCommand } from '../../src/cli/bootstrap';
import { ToolCatalog } from '../../src/core/catalog/catalog';
import { graphTools } from '../../src/core/catalog/graph';
import { closeWorkspaces, fixtureWorkspace } from './structure-helpers';

after(closeWorkspaces);
const catalog = new ToolCatalog(graphTools);

function capture() {
  const out = { stdout: '', stderr: '' };
  return { out, io: { stdout: (s: string) => void (out.stdout += s), stderr: (s: string) => void (out.stderr += s) } };
}

test('autosnippet bootstrap: progress on stderr, a readable summary on stdout, then nothing new', async () => {
  const ws = await fixtureWorkspace('bootstrap-ts');
  const first = capture();
  assert.equal(await bootstrapCommand(['--max-files', '50'], async () => ws, first.io, catalog), 0);
  assert.match(first.out.stderr, /^Listing the workspace/m);
  assert.match(
    first.out.stderr,
    /^Created \.autosnippet\/ in .* for this first write/m,
    'the first write says it created the folder',
  );
  assert.match(first.out.stderr, /Scanning 16 source files \[0\/16\]/);
  assert.match(first.out.stdout, /^Scanned 16 of 16 source files/);
  assert.match(first.out.stdout, /Created \d+ candidates, 0 already known/);
  assert.match(first.out.stdout, /code-standard\s+\d+ new\s+0 known\s+cand-/);

  const second = capture();
  assert.equal(
    await bootstrapCommand(['--json', '--dimension', 'architecture'], async () => ws, second.io, catalog),
    0,
  );
  const envelope = JSON.parse(second.out.stdout);
  assert.equal(envelope.ok, true);
  assert.equal(envelope.data.candidates.created, 0);
  assert.ok(envelope.data.candidates.existing >= 1);
  assert.doesNotMatch(second.out.stderr, /Created \.autosnippet/);
});

test('autosnippet bootstrap: usage errors exit 2, tool errors exit 1', async () => {
  const ws = await fixtureWorkspace('bootstrap-ts');
  const bad = capture();
  assert.equal(await bootstrapCommand(['--max-files', 'lots'], async () => ws, bad.io, catalog), 2);
  assert.match(bad.out.stderr, /--max-files takes a whole number/);
  const unknown = capture();
  assert.equal(await bootstrapCommand(['--fast'], async () => ws, unknown.io, catalog), 2);
  const invalid = capture();
  assert.equal(await bootstrapCommand(['--dimension', 'astrology'], async () => ws, invalid.io, catalog), 1);
  assert.match(invalid.out.stderr, /^INVALID_INPUT/m);
  const help = capture();
  assert.equal(await bootstrapCommand(['--help'], async () => ws, help.io, catalog), 0);
  assert.match(help.out.stdout, /Usage: autosnippet bootstrap/);
});
