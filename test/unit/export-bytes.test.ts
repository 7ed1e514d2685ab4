// The person's text outside the exported block is kept byte for byte (trailing blank lines and
// spaces, line endings, a UTF-8 BOM), on the first export and later ones, and the file keeps its mode.
import assert from 'node:assert/strict';
import { chmodSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { BLOCK_BEGIN, BLOCK_END } from '../../src/core/domains/export/block';
import { exportTo, publish, runExport, seeded, type Ws } from './export-helpers';
import { writeSource } from './freshness-helpers';

const bytes = (ws: Ws, rel: string) => readFileSync(path.join(ws.root, rel));
const mode = (ws: Ws, rel: string) => statSync(path.join(ws.root, rel)).mode & 0o777;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** A recipe published after the first export, so the next one rewrites the block. */
const publishAnother = (ws: Ws) =>
  publish(ws, 'log-errors', {
    title: 'Log errors with context',
    summary: 'Log every caught error with the request id.',
    language: 'text',
    knowledgeType: 'code-standard',
  });

test("the first export keeps the trailing blank lines and spaces of the person's file; later ones keep them too", async () => {
  const ws = await seeded();
  try {
    const cases: Record<string, string> = {
      'AGENTS.md': '# Guide\n\nRun the tests.\n\n\n',
      'CLAUDE.md': 'Be brief.   ',
      '.github/copilot-instructions.md': 'Line one\r\nLine two  \r\n\r\n\r\n',
    };
    for (const [rel, text] of Object.entries(cases)) writeSource(ws, rel, text);
    await exportTo(ws, { to: ['agents', 'claude', 'copilot'] });
    for (const [rel, text] of Object.entries(cases)) {
      const after = bytes(ws, rel).toString('utf8');
      assert.ok(after.startsWith(text), `${rel} kept its text: ${JSON.stringify(after.slice(0, text.length + 10))}`);
      assert.equal(after.split(BLOCK_BEGIN).length, 2, `${rel} has one block`);
    }
    assert.match(
      bytes(ws, 'CLAUDE.md').toString('utf8'),
      new RegExp(`^Be brief\\. {3}\\n\\n${BLOCK_BEGIN.slice(0, 20)}`),
      'a file without a final newline gets a blank line before the block',
    );
    assert.ok(!/[^\r]\n/.test(bytes(ws, '.github/copilot-instructions.md').toString('utf8')), 'a CRLF file stays CRLF');

    const firstTime = Object.fromEntries(Object.keys(cases).map((rel) => [rel, bytes(ws, rel).toString('utf8')]));
    await publishAnother(ws);
    await exportTo(ws, { to: ['agents', 'claude', 'copilot'] });
    for (const rel of Object.keys(cases)) {
      const was = firstTime[rel];
      const now = bytes(ws, rel).toString('utf8');
      assert.equal(
        now.slice(0, was.indexOf(BLOCK_BEGIN)),
        was.slice(0, was.indexOf(BLOCK_BEGIN)),
        `${rel}: the text before the block`,
      );
      assert.equal(
        now.slice(now.indexOf(BLOCK_END)),
        was.slice(was.indexOf(BLOCK_END)),
        `${rel}: the text after the block`,
      );
    }
  } finally {
    await ws.cleanup();
  }
});

test('a UTF-8 BOM is kept, and a block right after it is found again (no second block)', async () => {
  const ws = await seeded();
  try {
    writeSource(ws, 'AGENTS.md', '\uFEFF# Guide\r\n');
    writeSource(ws, 'CLAUDE.md', '\uFEFF');
    await exportTo(ws, { to: ['agents', 'claude'] });
    assert.deepEqual(bytes(ws, 'AGENTS.md').subarray(0, 12), Buffer.concat([BOM, Buffer.from('# Guide\r\n')]));
    assert.deepEqual(bytes(ws, 'CLAUDE.md').subarray(0, 3), BOM, 'a file that was only a BOM keeps it');
    assert.ok(bytes(ws, 'CLAUDE.md').toString('utf8').startsWith(`\uFEFF${BLOCK_BEGIN}`));

    const again = await exportTo(ws, { to: ['agents', 'claude'] });
    assert.deepEqual(
      again.files.filter((f: { action: string }) => f.action !== 'unchanged'),
      [],
      'a second export changes nothing',
    );
    await publishAnother(ws);
    await exportTo(ws, { to: ['agents', 'claude'] });
    for (const rel of ['AGENTS.md', 'CLAUDE.md']) {
      const text = bytes(ws, rel);
      assert.deepEqual(text.subarray(0, 3), BOM, `${rel} keeps its BOM`);
      assert.notDeepEqual(text.subarray(3, 6), BOM, `${rel} has one BOM`);
      assert.equal(text.toString('utf8').split(BLOCK_BEGIN).length, 2, `${rel} has one block`);
      assert.match(text.toString('utf8'), /Log every caught error/);
    }
  } finally {
    await ws.cleanup();
  }
});

test('an exported file keeps its mode; a new one gets the normal mode; a read-only one is refused and stays read-only', async () => {
  const ws = await seeded();
  const umask = process.umask();
  try {
    writeSource(ws, 'AGENTS.md', '# Private guide\n');
    chmodSync(path.join(ws.root, 'AGENTS.md'), 0o600);
    writeSource(ws, '.github/copilot-instructions.md', '# Team guide\n');
    chmodSync(path.join(ws.root, '.github/copilot-instructions.md'), 0o664);
    writeSource(ws, 'CLAUDE.md', '# Locked\n');
    chmodSync(path.join(ws.root, 'CLAUDE.md'), 0o444);

    const dry = await runExport(ws, '--to', 'agents,copilot,claude', '--dry-run');
    assert.equal(dry.code, 1);
    assert.match(
      dry.stdout,
      /^refused {7}CLAUDE\.md: CLAUDE\.md is read-only \(mode 0444\); export does not change a file's permissions, so it was not written\. Make it writable \(chmod u\+w CLAUDE\.md\) to export to it\.$/m,
    );

    const result = await exportTo(ws, { to: ['agents', 'copilot', 'claude'] });
    const action = (rel: string) => result.files.find((f: { path: string }) => f.path === rel)?.action;
    assert.equal(action('AGENTS.md'), 'update');
    assert.equal(action('CLAUDE.md'), 'refused');
    assert.equal(mode(ws, 'AGENTS.md'), 0o600, 'a private file stays private');
    assert.equal(mode(ws, '.github/copilot-instructions.md'), 0o664);
    assert.equal(mode(ws, 'CLAUDE.md'), 0o444, 'a read-only file stays read-only');
    assert.equal(bytes(ws, 'CLAUDE.md').toString('utf8'), '# Locked\n');
    assert.equal(mode(ws, '.claude/rules/autosnippet-swift.md'), 0o666 & ~umask, 'a new file gets the normal mode');
  } finally {
    chmodSync(path.join(ws.root, 'CLAUDE.md'), 0o644);
    await ws.cleanup();
  }
});
