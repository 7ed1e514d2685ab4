// Export never writes through a link: a destination that is a link, or whose folders pass through
// one, is refused by name (with where the link leads), in a dry run too, and the other files are written.
import assert from 'node:assert/strict';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { planExport, writeExport } from '../../src/core/domains/export';
import { isAutoSnippetError } from '../../src/core/ground/kernel/errors';
import { exportTo, runExport, seeded, type Ws } from './export-helpers';
import { readText, writeSource } from './freshness-helpers';

type Files = { path: string; action: string; note?: string }[];
const entry = (files: Files, rel: string) => files.find((f) => f.path === rel);

/** Every regular file under a folder, with its bytes: what an export must leave alone. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirNames(d)) {
      const abs = path.join(d, name);
      const st = lstatSync(abs);
      if (st.isDirectory()) walk(abs);
      else if (st.isFile()) out.set(path.relative(dir, abs), readFileSync(abs, 'latin1'));
    }
  };
  walk(dir);
  return out;
}
const readdirNames = (d: string): string[] => (existsSync(d) ? readdirSync(d) : []);

/**
 * The attack: a repository commits its instruction files as links to files an export must never
 * touch (git's config, the package manifest, a source file), and folders that lead elsewhere.
 */
function plantLinks(ws: Ws, outside: string): void {
  writeSource(ws, '.git/config', '[core]\n\trepositoryformatversion = 0\n');
  writeSource(ws, 'package.json', '{ "name": "demo" }\n');
  writeSource(ws, 'src/http.ts', 'export const get = 1;\n');
  writeSource(ws, 'docs/notes.md', '# Notes\n');
  symlinkSync('.git/config', path.join(ws.root, 'AGENTS.md'));
  symlinkSync(path.join(ws.root, 'package.json'), path.join(ws.root, 'CLAUDE.md'));
  mkdirSync(path.join(ws.root, '.github'));
  symlinkSync('../src/http.ts', path.join(ws.root, '.github/copilot-instructions.md'));
  // A folder on the way that is a link: inside the workspace, and out of it.
  symlinkSync('docs', path.join(ws.root, '.claude'));
  symlinkSync(outside, path.join(ws.root, '.cursor'));
}

test('links committed as instruction files, and folders that are links, are refused by name and target; their targets are untouched; the other files are written', async () => {
  const ws = await seeded();
  const outside = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-outside-'));
  try {
    plantLinks(ws, outside);
    const before = snapshot(ws.root);
    const result = await exportTo(ws, { to: ['agents', 'copilot', 'claude', 'cursor'] });
    const files: Files = result.files;

    assert.equal(entry(files, 'AGENTS.md')?.action, 'refused');
    assert.match(
      entry(files, 'AGENTS.md')!.note!,
      /^AGENTS\.md is a link to \.git\/config; export does not write through links/,
    );
    assert.match(entry(files, 'CLAUDE.md')!.note!, /^CLAUDE\.md is a link to package\.json;/);
    assert.match(
      entry(files, '.github/copilot-instructions.md')!.note!,
      /^\.github\/copilot-instructions\.md is a link to src\/http\.ts;/,
    );
    assert.equal(entry(files, '.claude/rules/autosnippet-swift.md')?.action, 'refused');
    assert.match(
      entry(files, '.claude/rules/autosnippet-swift.md')!.note!,
      /^\.claude is a link to docs; export does not write through links, so \.claude\/rules\/autosnippet-swift\.md was not written/,
    );
    assert.match(
      entry(files, '.cursor/rules/autosnippet.mdc')!.note!,
      new RegExp(
        `^\\.cursor is a link to ${
          realpathSync(outside).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        }, outside the workspace;`,
      ),
    );

    const refused = files.filter((f) => f.action === 'refused').map((f) => f.path);
    // The three linked files, .claude/rules' two language files and .cursor/rules' three.
    assert.equal(refused.length, 3 + 2 + 3, `refused: ${refused.join(', ')}`);
    assert.deepEqual(result.written, [
      '.github/instructions/autosnippet-swift.instructions.md',
      '.github/instructions/autosnippet-typescript.instructions.md',
    ]);

    const after = snapshot(ws.root);
    for (const [rel, bytes] of before) assert.equal(after.get(rel), bytes, `${rel} changed`);
    assert.deepEqual(readdirNames(outside), [], 'nothing written outside the workspace');
    assert.deepEqual(
      readdirNames(path.join(ws.root, 'docs')),
      ['notes.md'],
      'nothing written where a linked folder leads',
    );
    for (const link of ['AGENTS.md', 'CLAUDE.md', '.github/copilot-instructions.md', '.claude', '.cursor']) {
      assert.ok(lstatSync(path.join(ws.root, link)).isSymbolicLink(), `${link} is still a link`);
    }
  } finally {
    rmSync(outside, { recursive: true, force: true });
    await ws.cleanup();
  }
});

test('a broken link is refused and stays a link; a link to a folder is refused', async () => {
  const ws = await seeded();
  try {
    symlinkSync('nowhere/AGENTS.md', path.join(ws.root, 'AGENTS.md'));
    mkdirSync(path.join(ws.root, 'docs'));
    symlinkSync('docs', path.join(ws.root, 'CLAUDE.md'));
    const { files } = await exportTo(ws, { to: ['agents', 'claude'] });
    assert.match(
      entry(files, 'AGENTS.md')!.note!,
      /^AGENTS\.md is a link to nowhere\/AGENTS\.md, which does not exist;/,
    );
    assert.match(entry(files, 'CLAUDE.md')!.note!, /^CLAUDE\.md is a link to docs;/);
    assert.equal(readlinkSync(path.join(ws.root, 'AGENTS.md')), 'nowhere/AGENTS.md');
    assert.ok(!existsSync(path.join(ws.root, 'nowhere')), 'no folder created where the link leads');
  } finally {
    await ws.cleanup();
  }
});

test('CLAUDE.md linked to AGENTS.md: exported together, the link is left as it is and shows the block; alone, it is refused', async () => {
  const ws = await seeded();
  try {
    writeSource(ws, 'AGENTS.md', '# Guide\n');
    symlinkSync('AGENTS.md', path.join(ws.root, 'CLAUDE.md'));
    const alone = await exportTo(ws, { to: ['claude'] });
    assert.equal(entry(alone.files, 'CLAUDE.md')?.action, 'refused');
    assert.equal(readText(ws, 'AGENTS.md'), '# Guide\n');

    for (const order of [['claude', 'agents'], ['agents', 'claude']]) {
      const both = await exportTo(ws, { to: order });
      assert.equal(entry(both.files, 'CLAUDE.md')?.action, 'skipped');
      assert.equal(entry(both.files, 'CLAUDE.md')?.note, 'CLAUDE.md is a link to AGENTS.md, which this export writes.');
      assert.ok(['update', 'unchanged'].includes(entry(both.files, 'AGENTS.md')!.action));
      assert.ok(lstatSync(path.join(ws.root, 'CLAUDE.md')).isSymbolicLink(), 'the link is kept');
      assert.equal(readText(ws, 'AGENTS.md').split('autosnippet:begin').length, 2);
    }
  } finally {
    await ws.cleanup();
  }
});

test('a file replaced by a link between the plan and the write is refused at the write, and its target is untouched', async () => {
  const ws = await seeded();
  try {
    writeSource(ws, 'AGENTS.md', '# Guide\n');
    writeSource(ws, 'package.json', '{ "name": "demo" }\n');
    const plan = await planExport(ws, { targets: ['agents'] });
    rmSync(path.join(ws.root, 'AGENTS.md'));
    symlinkSync('package.json', path.join(ws.root, 'AGENTS.md'));
    await assert.rejects(
      writeExport(ws, plan),
      (e) =>
        isAutoSnippetError(e) && e.code === 'EXPORT_UNSAFE_PATH'
        && /AGENTS\.md is a link to package\.json/.test(e.message),
    );
    assert.equal(readText(ws, 'package.json'), '{ "name": "demo" }\n');

    // A folder the plan would create, made a link in between: the write does not follow it.
    const outside = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-outside-'));
    try {
      const cursor = await planExport(ws, { targets: ['cursor'] });
      symlinkSync(outside, path.join(ws.root, '.cursor'));
      await assert.rejects(
        writeExport(ws, cursor),
        (e) => isAutoSnippetError(e) && e.code === 'EXPORT_UNSAFE_PATH' && /\.cursor is a link to/.test(e.message),
      );
      assert.deepEqual(readdirNames(outside), []);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  } finally {
    await ws.cleanup();
  }
});

test('autosnippet export refuses links by name, with --dry-run and without: exit 1, the link and its target named, the other files written', async () => {
  const ws = await seeded();
  try {
    writeSource(ws, '.git/config', '[core]\n');
    writeSource(ws, 'package.json', '{ "name": "demo" }\n');
    symlinkSync('.git/config', path.join(ws.root, 'AGENTS.md'));
    symlinkSync('package.json', path.join(ws.root, 'CLAUDE.md'));

    const dry = await runExport(ws, '--to', 'agents,claude', '--dry-run');
    assert.equal(dry.code, 1, dry.stderr);
    assert.match(
      dry.stdout,
      /^refused {7}AGENTS\.md: AGENTS\.md is a link to \.git\/config; export does not write through links/m,
    );
    assert.match(dry.stdout, /^refused {7}CLAUDE\.md: CLAUDE\.md is a link to package\.json;/m);
    assert.match(dry.stdout, /^would create {2}\.claude\/rules\/autosnippet-swift\.md/m);
    assert.doesNotMatch(dry.stdout, /would (create|update) +(AGENTS|CLAUDE)\.md/);
    assert.match(
      dry.stderr,
      /^2 files would be refused \(AGENTS\.md, CLAUDE\.md\): nothing would be written to them\./m,
    );
    assert.ok(!existsSync(path.join(ws.root, '.claude/rules')), 'a dry run writes nothing');

    const real = await runExport(ws, '--to', 'agents,claude');
    assert.equal(real.code, 1, real.stderr);
    assert.match(real.stdout, /^refused {7}AGENTS\.md: AGENTS\.md is a link to \.git\/config;/m);
    assert.match(real.stdout, /^created {7}\.claude\/rules\/autosnippet-swift\.md/m);
    assert.match(
      real.stderr,
      /^2 files were refused \(AGENTS\.md, CLAUDE\.md\): nothing was written to them; the other files were written\./m,
    );
    assert.equal(readText(ws, '.git/config'), '[core]\n');
    assert.equal(readText(ws, 'package.json'), '{ "name": "demo" }\n');
    assert.ok(existsSync(path.join(ws.root, '.claude/rules/autosnippet-swift.md')));

    const json = await runExport(ws, '--to', 'agents', '--json', '--dry-run');
    assert.equal(json.code, 1);
    const [agents] = JSON.parse(json.stdout).files;
    assert.equal(agents.action, 'refused');
    assert.equal(agents.text, undefined, 'a refused file has no text that would be written');
  } finally {
    await ws.cleanup();
  }
});
