import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { realPathInside } from '../../src/core/ground/files';

function tempDirs(): { root: string; outside: string; done: () => void } {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'as-source-link-')));
  const root = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.mkdirSync(outside);
  return { root, outside, done: () => fs.rmSync(base, { recursive: true, force: true }) };
}

test('a source link through a symlink inside the workspace to a file outside it is refused', async () => {
  const { root, outside, done } = tempDirs();
  try {
    fs.writeFileSync(path.join(outside, 'id_rsa'), 'secret\n');
    fs.symlinkSync(path.join(outside, 'id_rsa'), path.join(root, 'src', 'config.ts'));
    fs.symlinkSync(outside, path.join(root, 'vendor'));
    assert.deepEqual(await realPathInside(root, 'src/config.ts'), {
      ok: false,
      reason: 'outside',
      real: path.join(outside, 'id_rsa'),
    });
    assert.deepEqual(await realPathInside(root, 'vendor/id_rsa'), {
      ok: false,
      reason: 'outside',
      real: path.join(outside, 'id_rsa'),
    });
    assert.deepEqual(await realPathInside(root, '../outside/id_rsa'), { ok: false, reason: 'outside' });
  } finally {
    done();
  }
});

test('a source link inside the workspace opens its real file, through links that stay inside', async () => {
  const { root, done } = tempDirs();
  try {
    fs.writeFileSync(path.join(root, 'src', 'http.ts'), 'export {};\n');
    fs.symlinkSync(path.join(root, 'src', 'http.ts'), path.join(root, 'http-link.ts'));
    assert.deepEqual(await realPathInside(root, 'src/http.ts'), { ok: true, real: path.join(root, 'src', 'http.ts') });
    assert.deepEqual(await realPathInside(root, 'http-link.ts'), { ok: true, real: path.join(root, 'src', 'http.ts') });
    assert.deepEqual(await realPathInside(root, 'src/gone.ts'), { ok: false, reason: 'missing' });
  } finally {
    done();
  }
});
