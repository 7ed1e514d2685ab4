import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import {
  READ_CAPS,
  readRepoBytes,
  readRepoFile,
  readRepoFileSync,
  RealPathCache,
  skillBoundary,
} from '../../src/core/ground/files';
import { fifo, link, socket, tempTree, within } from './files-helpers';

/** Both readers, so every case is checked on the synchronous and the asynchronous path. */
const readers = {
  async: (root: string, rel: string, o: Parameters<typeof readRepoFile>[2]) => readRepoFile(root, rel, o),
  sync: async (root: string, rel: string, o: Parameters<typeof readRepoFile>[2]) => readRepoFileSync(root, rel, o),
};

async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  const e = await within(
    5000,
    p.then(() => assert.fail('expected a refusal'), (err) => err as { code: string; message: string }),
  );
  return e;
}

for (const [name, read] of Object.entries(readers)) {
  test(`${name}: reads a regular file as text, with its size and its path relative to the root`, async () => {
    const root = tempTree({ 'src/a.ts': 'export const a = 1;\n' });
    const f = await read(root, 'src/a.ts', { kind: 'source' });
    assert.equal(f.text, 'export const a = 1;\n');
    assert.equal(f.size, 20);
    assert.equal(f.path, 'src/a.ts');
  });

  test(`${name}: a FIFO is refused with NOT_A_REGULAR_FILE, at once, without being opened`, async () => {
    const root = tempTree();
    fifo(root, '.gitignore');
    const e = await refusal(read(root, '.gitignore', { kind: 'gitignore' }));
    assert.equal(e.code, 'NOT_A_REGULAR_FILE');
    assert.match(e.message, /\.gitignore is a FIFO \(named pipe\), not a regular file/);
  });

  test(`${name}: a socket and a folder are refused with what they are`, async () => {
    const root = tempTree({ 'dir/x.txt': 'x' });
    await socket(root, 'run.sock');
    assert.match((await refusal(read(root, 'run.sock', { kind: 'source' }))).message, /is a socket/);
    const dir = await refusal(read(root, 'dir', { kind: 'source' }));
    assert.equal(dir.code, 'NOT_A_REGULAR_FILE');
    assert.match(dir.message, /is a folder/);
  });

  test(`${name}: a link to /dev/zero is refused (outside the workspace, and a device) instead of reading forever`, async () => {
    const root = tempTree();
    link(root, '.gitignore', '/dev/zero');
    const e = await refusal(read(root, '.gitignore', { kind: 'gitignore' }));
    assert.equal(e.code, 'PATH_OUTSIDE_WORKSPACE');
  });

  test(`${name}: links to a file or through a folder outside the root are refused; \`..\` too; a link inside is followed`, async () => {
    const outside = tempTree({ 'secret.txt': 'password', 'dir/secret.ts': 'token' });
    const root = tempTree({ 'src/real.ts': 'inside' });
    link(root, 'file-link.ts', path.join(outside, 'secret.txt'));
    link(root, 'dir-link', path.join(outside, 'dir'));
    link(root, 'inner-link.ts', path.join(root, 'src', 'real.ts'));
    for (const rel of [
      'file-link.ts',
      'dir-link/secret.ts',
      '../' + path.basename(outside) + '/secret.txt',
      path.join(outside, 'secret.txt'),
    ]) {
      const e = await refusal(read(root, rel, { kind: 'source' }));
      assert.equal(e.code, 'PATH_OUTSIDE_WORKSPACE', rel);
      assert.doesNotMatch(e.message, /password|token/);
    }
    const inner = await read(root, 'inner-link.ts', { kind: 'source' });
    assert.equal(inner.text, 'inside');
    assert.equal(inner.path, 'src/real.ts');
  });

  test(`${name}: a file over its kind's cap is refused before it is read, naming the size and the cap`, async () => {
    const root = tempTree({ 'big.md': 'x'.repeat(READ_CAPS.recipe + 1), 'small.md': 'y'.repeat(100) });
    const e = await refusal(read(root, 'big.md', { kind: 'recipe' }));
    assert.equal(e.code, 'FILE_TOO_LARGE');
    assert.match(e.message, /big\.md is 1048577 bytes; recipe files are read up to 1 MiB/);
    const capped = await refusal(read(root, 'small.md', { kind: 'recipe', maxBytes: 50 }));
    assert.match(capped.message, /100 bytes; recipe files are read up to 50 bytes/);
  });

  test(`${name}: a missing file is NOT_FOUND; a skill boundary reports its own code`, async () => {
    const root = tempTree();
    assert.equal((await refusal(read(root, 'nope.md', { kind: 'recipe' }))).code, 'NOT_FOUND');
    const skill = tempTree({ 'SKILL.md': '---\n---\n' });
    const e = await refusal(read(skill, '../x', { kind: 'skill-resource', boundary: skillBoundary('demo') }));
    assert.equal(e.code, 'PATH_OUTSIDE_SKILL');
    assert.match(e.message, /outside the folder of skill "demo"/);
  });
}

test('a path is shown shortened in messages: a megabyte name does not make a megabyte error', async () => {
  const root = tempTree();
  const e = await refusal(readRepoFile(root, 'a'.repeat(100_000), { kind: 'source' }));
  assert.ok(e.message.length < 500, `${e.message.length} characters`);
});

test('reads bytes for binary resources', async () => {
  const root = tempTree();
  mkdirSync(path.join(root, 'assets'));
  writeFileSync(path.join(root, 'assets', 'x.bin'), Buffer.from([0, 1, 2, 255]));
  const f = await readRepoBytes(root, 'assets/x.bin', { kind: 'skill-resource' });
  assert.deepEqual([...f.bytes], [0, 1, 2, 255]);
});

test('a cancelled read answers CANCELLED', async () => {
  const root = tempTree({ 'a.ts': 'x' });
  const c = new AbortController();
  c.abort();
  assert.equal((await refusal(readRepoFile(root, 'a.ts', { kind: 'source', signal: c.signal }))).code, 'CANCELLED');
});

test('with a real-path cache (one batch of reads), links out of the workspace are still refused and links inside followed', () => {
  const outside = tempTree({ 'secret.txt': 'password' });
  const root = tempTree({ 'src/a.ts': 'a', 'src/b.ts': 'b' });
  link(root, 'src/out.ts', path.join(outside, 'secret.txt'));
  link(root, 'linked-dir', outside);
  link(root, 'src/in.ts', path.join(root, 'src', 'a.ts'));
  const realPaths = new RealPathCache();
  assert.equal(readRepoFileSync(root, 'src/a.ts', { kind: 'source', realPaths }).text, 'a');
  assert.equal(readRepoFileSync(root, 'src/b.ts', { kind: 'source', realPaths }).text, 'b');
  assert.equal(readRepoFileSync(root, 'src/in.ts', { kind: 'source', realPaths }).path, 'src/a.ts');
  for (const rel of ['src/out.ts', 'linked-dir/secret.txt']) {
    assert.throws(
      () => readRepoFileSync(root, rel, { kind: 'source', realPaths }),
      (e: { code?: string }) => e.code === 'PATH_OUTSIDE_WORKSPACE',
      rel,
    );
  }
});
