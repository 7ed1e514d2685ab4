import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { brotliCompressSync } from 'node:zlib';
import { readDataFile } from '../../src/core/ground/text/data-file';

test('a data file shipped brotli-compressed (NAME.br, as the package ships the large ones) reads as the original bytes', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'as-data-'));
  try {
    const original = Buffer.from(JSON.stringify({ 仓库: 'repository', 周报: 'weekly status report' }));
    writeFileSync(path.join(dir, 'glossary.json.br'), brotliCompressSync(original));
    assert.deepEqual(readDataFile('glossary.json', [dir]), original);
    writeFileSync(path.join(dir, 'plain.json'), '{"a":1}');
    assert.equal(readDataFile('plain.json', [dir])?.toString('utf8'), '{"a":1}');
    assert.equal(readDataFile('missing.json', [dir]), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
