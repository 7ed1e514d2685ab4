import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs, { mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { classifyFile, walkWorkspace, WorkspaceFiles } from '../../src/core/ground/files';
import { parseIndex } from '../../src/core/ground/files/tracked';
import { fifo, link, socket, tempTree, within } from './files-helpers';

test('one ignore list: nested .gitignore with negation, always-skipped and hidden folders, target/ beside Cargo.toml', async () => {
  const root = tempTree({
    '.gitignore': 'secret/\n*.log\n!keep.log\n',
    'src/a.ts': '',
    'src/debug.log': '',
    'keep.log': '',
    'secret/x.ts': '',
    'pkg/.gitignore': 'generated\n!important.log\n',
    'pkg/generated/y.ts': '',
    'pkg/important.log': '',
    'pkg/ok.ts': '',
    'node_modules/dep/index.js': '',
    'dist/out.js': '',
    'vendor/lib.go': '',
    'crate/Cargo.toml': '',
    'crate/target/debug/x.rs': '',
    'other/target/kept.txt': '',
    '.hidden/z.ts': '',
    '.github/workflows/ci.yml': '',
    // Hidden folders of hooks and CI that the cold start reads: husky's git hooks, sourcehut's builds, GitLab's templates.
    '.husky/pre-commit': '',
    '.builds/linux.yml': '',
    '.gitlab/ci/test.yml': '',
  });
  const l = await walkWorkspace(root);
  assert.deepEqual(l.files, [
    '.builds/linux.yml',
    '.github/workflows/ci.yml',
    '.gitignore',
    '.gitlab/ci/test.yml',
    '.husky/pre-commit',
    'crate/Cargo.toml',
    'keep.log',
    'other/target/kept.txt',
    'pkg/.gitignore',
    'pkg/important.log',
    'pkg/ok.ts',
    'src/a.ts',
  ]);
  assert.ok(l.ignored >= 8, String(l.ignored));
  assert.deepEqual(l.problems, []);
});

test('a file git tracks is listed though an ignore file matches it (a package.json committed under a `**/package.json` rule), in index versions 2 and 4; an untracked ignored file stays out; a damaged index leaves the ignore files in charge', async () => {
  const root = tempTree({
    'package.json': '{"private": true}\n',
    'packages/zod/.gitignore': '**/*.js\n**/package.json\n',
    'packages/zod/package.json': '{"name": "zod"}\n',
    'packages/zod/src/index.ts': 'export {};\n',
    'packages/zod/index.js': 'built\n',
    'packages/zod/v4/package.json': '{"type": "module"}\n',
  });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });
  git('init', '-q');
  git('add', '-A');
  git('add', '-f', 'packages/zod/package.json');
  const listed = (l: { files: readonly string[] }) =>
    l.files.filter((f) => f.startsWith('packages/zod/') && !f.endsWith('.gitignore'));
  assert.deepEqual(
    listed(await walkWorkspace(root)),
    ['packages/zod/package.json', 'packages/zod/src/index.ts'],
    'tracked package.json listed; untracked v4/package.json and the built index.js ignored',
  );
  git('update-index', '--index-version', '4');
  assert.deepEqual([...parseIndex(readFileSync(path.join(root, '.git', 'index')))].sort(), [
    'package.json',
    'packages/zod/.gitignore',
    'packages/zod/package.json',
    'packages/zod/src/index.ts',
  ]);
  assert.deepEqual(
    listed(await walkWorkspace(root)),
    ['packages/zod/package.json', 'packages/zod/src/index.ts'],
    'index version 4 (paths prefix-compressed)',
  );
  const index = readFileSync(path.join(root, '.git', 'index'));
  writeFileSync(path.join(root, '.git', 'index'), index.subarray(0, 40));
  assert.deepEqual(
    listed(await walkWorkspace(root)),
    ['packages/zod/src/index.ts'],
    'a cut index: the ignore files alone decide, nothing thrown',
  );
});

test('a FIFO .gitignore (root or nested) is reported and not applied; the listing answers at once', async () => {
  const root = tempTree({ 'src/a.ts': '', 'pkg/b.ts': '', 'pkg/c.log': '' });
  fifo(root, '.gitignore');
  fifo(root, 'pkg/.gitignore');
  const l = await within(5000, walkWorkspace(root));
  assert.ok(l.files.includes('src/a.ts') && l.files.includes('pkg/b.ts'));
  const problems = l.problems.filter((p) => p.code === 'NOT_A_REGULAR_FILE').map((p) => p.path).sort();
  assert.deepEqual(problems, ['.gitignore', 'pkg/.gitignore']);
  assert.match(l.problems[0].message, /FIFO.*not applied/s);
});

test('a .gitignore linked to /dev/zero is refused, not read forever', async () => {
  const root = tempTree({ 'src/a.ts': '' });
  link(root, '.gitignore', '/dev/zero');
  const l = await within(5000, walkWorkspace(root));
  assert.deepEqual(l.files, ['src/a.ts']);
  assert.equal(l.problems[0].path, '.gitignore');
  assert.equal(l.problems[0].code, 'PATH_OUTSIDE_WORKSPACE');
});

test('a 1 MB .gitignore line and a backtracking `**` line are left out with a problem each; the other lines apply', async () => {
  const root = tempTree({
    '.gitignore': `*.log\n${'a'.repeat(1 << 20)}\n${Array(8).fill('**/x').join('/')}/y\nbuild-out/\n`,
    'a.log': '',
    'b.ts': '',
    'build-out/c.ts': '',
    [Array(30).fill('x').join('/') + '/d.ts']: '',
  });
  const t0 = Date.now();
  const l = await within(5000, walkWorkspace(root));
  assert.ok(Date.now() - t0 < 2000);
  assert.ok(!l.files.includes('a.log') && !l.files.includes('build-out/c.ts'));
  assert.ok(l.files.includes('b.ts'));
  const lines = l.problems.filter((p) => p.code === 'INVALID_IGNORE_LINE').map((p) => p.message);
  assert.equal(lines.length, 2, JSON.stringify(l.problems));
  assert.match(lines[0], /\.gitignore line 2: it is 1048576 characters long/);
  assert.match(lines[1], /\.gitignore line 3: it has more than 3 `\*\*`/);
  assert.ok(JSON.stringify(l.problems).length < 2000, 'problems do not quote the bad line');
});

test('links are never followed (inside or outside), special files are reported and never opened', async () => {
  const outside = tempTree({ 'secret.ts': 'token' });
  const root = tempTree({ 'src/a.ts': '' });
  link(root, 'out-dir', outside);
  link(root, 'out-file.ts', path.join(outside, 'secret.ts'));
  link(root, 'in-dir', path.join(root, 'src'));
  fifo(root, 'src/pipe.ts');
  await socket(root, 'src/run.sock');
  const l = await within(5000, walkWorkspace(root));
  assert.deepEqual(l.files, ['src/a.ts']);
  assert.equal(l.links, 3);
  assert.deepEqual(l.problems.map((p) => p.path).sort(), ['src/pipe.ts', 'src/run.sock']);
  assert.match(l.problems.find((p) => p.path === 'src/pipe.ts')!.message, /FIFO.*never opened/);
});

test("exclude globs and a filter (e.g. the classifier's verdict) narrow the listing and are counted", async () => {
  const root = tempTree({ 'src/a.ts': '', 'src/a.test.ts': '', 'gen/b.ts': '', 'lib/x.min.js': '' });
  const l = await walkWorkspace(root, { exclude: ['gen/**', '*.min.js'], filter: (rel) => !rel.endsWith('.test.ts') });
  assert.deepEqual(l.files, ['src/a.ts']);
  assert.equal(l.excluded, 3);
});

test("the filter takes the file classifier's verdict: vendored, generated and minified files left out", async () => {
  const root = tempTree({ 'src/app.ts': '', 'third_party/lib/x.c': '', 'web/app.min.js': '', 'src/api.pb.go': '' });
  const skipped = new Set(['vendored', 'generated', 'minified']);
  const l = await walkWorkspace(root, { filter: (rel) => !skipped.has(classifyFile(rel).kind) });
  assert.deepEqual(l.files, ['src/app.ts']);
  assert.equal(l.excluded, 3);
});

test('bounded: at most maxFiles files (shallow folders first) and maxDepth levels, each said in a problem', async () => {
  const root = tempTree({
    'a.ts': '',
    'b.ts': '',
    'c.ts': '',
    'deep/x.ts': '',
    [`${Array(6).fill('d').join('/')}/y.ts`]: '',
  });
  const capped = await walkWorkspace(root, { maxFiles: 3 });
  assert.equal(capped.truncated, true);
  assert.deepEqual(capped.files, ['a.ts', 'b.ts', 'c.ts']);
  assert.match(capped.problems[0].message, /more than 3 files/);
  const shallow = await walkWorkspace(root, { maxDepth: 3 });
  assert.ok(!shallow.files.some((f) => f.endsWith('y.ts')));
  assert.match(shallow.problems.map((p) => p.message).join(' '), /deeper than 3 levels/);
});

test('cancellable: an aborted signal answers CANCELLED', async () => {
  const root = tempTree({ 'a.ts': '' });
  const c = new AbortController();
  c.abort();
  await assert.rejects(walkWorkspace(root, { signal: c.signal }), (e: { code?: string }) => e.code === 'CANCELLED');
});

/** Counts directory reads, to tell a cached answer from a walk. */
function countReaddir(): { count: () => number; restore(): void } {
  const original = fs.readdirSync;
  let n = 0;
  fs.readdirSync = ((...args: Parameters<typeof original>) => {
    n++;
    return (original as (...a: unknown[]) => unknown)(...args);
  }) as typeof original;
  return { count: () => n, restore: () => void (fs.readdirSync = original) };
}

test('cached: nothing changed, nothing is read again; a new file reads only its folder; an edited .gitignore re-reads its subtree', async () => {
  const root = tempTree({ 'src/a.ts': '', 'src/deep/b.ts': '', 'lib/c.ts': '', 'lib/.gitignore': '' });
  const files = new WorkspaceFiles(root, { freshMs: 0 });
  const reads = countReaddir();
  try {
    const first = await files.list();
    const walked = reads.count();
    assert.ok(walked >= 4);
    const again = await files.list();
    assert.equal(reads.count(), walked, 'an unchanged workspace is not read again');
    assert.equal(again.generation, first.generation);

    writeFileSync(path.join(root, 'src', 'new.ts'), '');
    const fresh = await files.list();
    assert.ok(fresh.files.includes('src/new.ts'));
    assert.equal(reads.count(), walked + 1, 'only src/ is read again');

    const before = reads.count();
    writeFileSync(path.join(root, 'lib', '.gitignore'), 'c.ts\n');
    utimesSync(path.join(root, 'lib', '.gitignore'), new Date(), new Date(Date.now() + 5000));
    const ignoredNow = await files.list();
    assert.ok(!ignoredNow.files.includes('lib/c.ts'));
    assert.equal(reads.count(), before + 1, 'only lib/ (its subtree) is read again');

    rmSync(path.join(root, 'src', 'deep'), { recursive: true });
    assert.ok(!(await files.list()).files.includes('src/deep/b.ts'));
  } finally {
    reads.restore();
  }
});

test('with a watcher: requests never touch the disk; invalidate(path) reads that folder again', async () => {
  const root = tempTree({ 'src/a.ts': '', 'docs/x.md': '' });
  const files = new WorkspaceFiles(root, { freshMs: 0 });
  files.setWatched(true);
  await files.list();
  mkdirSync(path.join(root, 'src', 'added'));
  writeFileSync(path.join(root, 'src', 'added', 'n.ts'), '');
  const reads = countReaddir();
  try {
    assert.ok(!(await files.list()).files.includes('src/added/n.ts'), 'not seen before the watcher says so');
    assert.equal(reads.count(), 0);
    files.invalidate(path.join(root, 'src', 'added'));
    assert.ok((await files.list()).files.includes('src/added/n.ts'));
    assert.equal(reads.count(), 2, 'src/ and the new folder');
  } finally {
    reads.restore();
  }
});
