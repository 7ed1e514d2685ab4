import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { discoverStructure } from '../../src/core/domains/structure';
import { parseGoMod } from '../../src/core/domains/structure/ecosystems/go';
import { includes } from '../../src/core/domains/structure/ecosystems/gradle';
import { pnpmPackages } from '../../src/core/domains/structure/ecosystems/npm';
import { parseToml, TomlError } from '../../src/core/domains/structure/toml';
import { child, childText, parseXml } from '../../src/core/domains/structure/xml';
import { walkWorkspace } from '../../src/core/ground/files';

function tempTree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'as-structure-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

test('TOML: tables, arrays of tables, dotted and quoted keys, inline tables, multi-line arrays and strings, with key lines', () => {
  const doc = parseToml(`# comment
title = "x" # trailing
[package]
name = 'shop'
version = "1.0"
edition.workspace = true

[dependencies]
serde = { version = "1", features = ["derive", "rc"] }
"quoted-key" = "2"
tokio.version = "1"

[[bin]]
name = "a"
[[bin]]
name = "b"

[workspace]
members = [
  "crates/*", # members
  "tools/x",
]
text = """
line one
line two"""
n = 1_000
flag = false
when = 1979-05-27
`);
  const d = doc.data as any;
  assert.equal(d.title, 'x');
  assert.equal(d.package.name, 'shop');
  assert.deepEqual(d.package.edition, { workspace: true });
  assert.deepEqual(d.dependencies.serde, { version: '1', features: ['derive', 'rc'] });
  assert.equal(d.dependencies['quoted-key'], '2');
  assert.deepEqual(d.dependencies.tokio, { version: '1' });
  assert.deepEqual(d.bin.map((b: any) => b.name), ['a', 'b']);
  assert.deepEqual(d.workspace.members, ['crates/*', 'tools/x']);
  assert.equal(d.workspace.text, 'line one\nline two');
  assert.equal(d.workspace.n, 1000);
  assert.equal(d.workspace.flag, false);
  assert.equal(d.workspace.when, '1979-05-27');
  assert.equal(doc.lines.get('dependencies.serde'), 9);
  assert.equal(doc.lines.get('bin.1.name'), 16);
  assert.equal(doc.lines.get('workspace.members.1'), 21);
  assert.throws(() => parseToml('a = [1, 2'), TomlError);
  assert.throws(() => parseToml('a = "x" b = 2'), /unexpected/);
});

test('XML: elements, text, comments and CDATA skipped or kept, line numbers', () => {
  const root = parseXml(`<?xml version="1.0"?>
<!-- <modules><module>nope</module></modules> -->
<project xmlns="x">
  <artifactId>a&amp;b</artifactId>
  <description><![CDATA[<raw>]]></description>
  <modules>
    <module>core</module>
  </modules>
  <empty/>
</project>`);
  const project = child(root, 'project')!;
  assert.equal(childText(project, 'artifactId'), 'a&b');
  assert.equal(childText(project, 'description'), '<raw>');
  assert.equal(child(child(project, 'modules'), 'module')?.line, 7);
  assert.ok(child(project, 'empty'));
  assert.equal(root.children.length, 1, 'the comment is not an element');
});

test('pnpm-workspace.yaml: block and flow lists, quotes, comments', () => {
  assert.deepEqual(pnpmPackages("packages:\n  - 'a/*'\n  - \"b\" # comment\n  - '!a/x'\ncatalog:\n  - nope\n"), [
    'a/*',
    'b',
    '!a/x',
  ]);
  assert.deepEqual(pnpmPackages('packages: [\'x/*\', "y"]\n'), ['x/*', 'y']);
  assert.deepEqual(pnpmPackages('nothing: here\n'), []);
});

test('Gradle settings: Groovy and Kotlin include forms, comments, custom projectDir', () => {
  const subs = includes(
    `rootProject.name = 'x'
// include ':commented'
include ':app', ':lib'
include(
  ":core:data",
)
includeBuild("build-logic")
project(':lib').projectDir = file('libraries/lib')
`,
    '',
  );
  assert.deepEqual(subs.map((s) => `${s.path}@${s.dir}:${s.line}`), [
    ':app@app:3',
    ':lib@libraries/lib:3',
    ':core:data@core/data:5',
  ]);
});

test('go.mod: single and block directives, comments, replace', () => {
  const m = parseGoMod(
    'x/go.mod',
    'module example.com/x // the module\n\ngo 1.21\n\nrequire example.com/y v1.0.0\nrequire (\n\tgithub.com/a/b v0.1.0 // indirect\n)\nreplace example.com/y => ../y\n',
  );
  assert.equal(m.module, 'example.com/x');
  assert.equal(m.go, '1.21');
  assert.deepEqual(m.requires.map((r) => `${r.path}@${r.line}:${r.indirect}`), [
    'example.com/y@5:false',
    'github.com/a/b@7:true',
  ]);
  assert.deepEqual(m.replaces.map((r) => r.to), ['../y']);
});

test('listing respects root and nested .gitignore (with negation) and always skips dependency and build folders', async () => {
  const dir = tempTree({
    '.gitignore': 'secret/\n*.log\n!keep.log\n',
    'src/a.ts': '',
    'src/debug.log': '',
    'keep.log': '',
    'secret/x.ts': '',
    'pkg/.gitignore': 'generated\n',
    'pkg/generated/y.ts': '',
    'pkg/ok.ts': '',
    'node_modules/dep/index.js': '',
    'dist/out.js': '',
    'crate/Cargo.toml': '',
    'crate/target/debug/x.rs': '',
    '.hidden/z.ts': '',
    '.github/workflows/ci.yml': '',
  });
  try {
    const l = await walkWorkspace(dir);
    assert.deepEqual(l.files, [
      '.github/workflows/ci.yml',
      '.gitignore',
      'crate/Cargo.toml',
      'keep.log',
      'pkg/.gitignore',
      'pkg/ok.ts',
      'src/a.ts',
    ]);
    assert.ok(l.ignored >= 6);
    const capped = await walkWorkspace(dir, { maxFiles: 3 });
    assert.equal(capped.truncated, true);
    assert.equal(capped.files.length, 3);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a tsconfig project in a package folder merges into the package; clashing names get an ecosystem prefix; broken manifests are reported', async () => {
  const dir = tempTree({
    'package.json': JSON.stringify({ name: 'root', private: true, workspaces: ['packages/*'] }),
    'tsconfig.json': JSON.stringify({ files: [], references: [{ path: 'packages/a' }, { path: 'packages/b' }] }),
    'packages/a/package.json': JSON.stringify({ name: 'a' }),
    'packages/a/tsconfig.json': JSON.stringify({ compilerOptions: { composite: true } }),
    'packages/b/package.json': JSON.stringify({ name: 'b' }),
    'packages/b/tsconfig.json': JSON.stringify({
      compilerOptions: { composite: true },
      references: [{ path: '../a' }],
    }),
    'rust/Cargo.toml': '[package]\nname = "a"\n',
    'broken/pyproject.toml': '[project\nname = "x"',
  });
  try {
    const l = await walkWorkspace(dir);
    const s = await discoverStructure(dir, l.files);
    assert.deepEqual(
      s.targets.map((t) => `${t.name}:${t.ecosystem}`).sort(),
      ['cargo:a:cargo', 'npm:a:npm', 'b:npm'].sort(),
    );
    const b = s.targets.find((t) => t.name === 'b')!;
    assert.equal(b.language, 'typescript');
    assert.deepEqual(b.dependencies.map((d) => `${d.target}:${d.scope}`), ['npm:a:build']);
    assert.equal(s.problems.length, 1);
    assert.match(s.problems[0].manifest, /broken\/pyproject\.toml/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('manifests of sample projects (fixtures, examples, testdata) are not targets, unless a workspace declares them', async () => {
  const dir = tempTree({
    'package.json': JSON.stringify({ name: 'tool', workspaces: ['examples/declared'] }),
    'examples/declared/package.json': JSON.stringify({ name: 'declared-example' }),
    'examples/other/package.json': JSON.stringify({ name: 'other-example' }),
    'test/fixtures/mono/package.json': JSON.stringify({ name: 'fixture-root', workspaces: ['packages/*'] }),
    'test/fixtures/mono/packages/a/package.json': JSON.stringify({ name: 'fixture-a' }),
    'test/fixtures/swift/Package.swift': 'let package = Package(name: "F", targets: [.target(name: "F")])',
    'test/fixtures/rust/Cargo.toml': '[workspace]\nmembers = ["c"]\n',
    'test/fixtures/rust/c/Cargo.toml': '[package]\nname = "c"\n',
    'testdata/go.work': 'go 1.22\nuse ./m\n',
    'testdata/m/go.mod': 'module example.com/m\n',
  });
  try {
    const l = await walkWorkspace(dir);
    const s = await discoverStructure(dir, l.files);
    assert.deepEqual(s.targets.map((t) => t.name), ['declared-example']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
