// Seeds the cold start counts from the code and the rules the guard drafts from them, by construct:
// an annotation nearly every public declaration of a kind carries, a helper that stands in for a
// standard call, and an import boundary in the module syntax of each language.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { bootstrapKnowledge } from '../../src/core/domains/bootstrap';
import { draftRuleFromSeed } from '../../src/core/domains/guard/rule-draft';
import type { Candidate } from '../../src/core/domains/knowledge';
import { listCandidates } from '../../src/core/domains/knowledge/candidates';
import { closeWorkspaces, workspaceWith } from './structure-helpers';

after(closeWorkspaces);

async function coldStart(files: Record<string, string>): Promise<Candidate[]> {
  const ws = await workspaceWith(files);
  await bootstrapKnowledge(ws, {}, { actor: 'human' });
  return listCandidates(ws);
}

/** A crate of `n` public structs over four files that derive Debug, but those in `bare`: they derive Default. */
function crate(n: number, bare: number[]): Record<string, string> {
  const files: Record<string, string> = {
    'Cargo.toml': '[package]\nname = "shapes"\nversion = "0.1.0"\nedition = "2021"\n',
    'src/lib.rs': 'pub mod a;\npub mod b;\npub mod c;\npub mod d;\n',
  };
  for (let i = 0; i < n; i++) {
    const file = `src/${'abcd'[i % 4]}.rs`;
    const derive = bare.includes(i) ? '#[derive(Default)]' : '#[derive(Debug)]';
    files[file] = `${files[file] ?? ''}/// Shape ${i}.\n${derive}\npub struct Shape${i} {\n    pub size: u32,\n}\n\n`;
  }
  return files;
}

test('public structs that nearly all derive a trait: the card, its rule, and the one struct that does not', async () => {
  const cards = await coldStart(crate(12, [5]));
  const card = cards.find((c) => /Public `struct` declarations carry `#\[derive\(Debug\)\]`/.test(c.title));
  assert.ok(card, cards.map((c) => c.title).join('\n'));
  assert.match(card.summary, /11 of 12 `pub struct` declarations in 4 production files/);
  const guard = card.constraints?.guards?.[0];
  assert.ok(guard, 'the card carries its drafted rule');
  // Good examples are the repository's declarations with their attribute line; the bad one is the exception.
  assert.ok(
    guard.examples!.good!.includes('#[derive(Debug)]\npub struct Shape0 {'),
    guard.examples!.good!.join('|'),
  );
  assert.deepEqual(guard.examples!.bad, ['#[derive(Default)]\npub struct Shape5 {']);
  const report = card.guardReport!.rules[0];
  assert.equal(report.total, 1);
  assert.equal(report.findings[0].path, 'src/b.rs');
});

test('an annotation on fewer than nine in ten public declarations of a kind is no rule', async () => {
  const cards = await coldStart(crate(12, [1, 5]));
  assert.ok(!cards.some((c) => c.ruleSeed?.kind === 'require-annotation'), cards.map((c) => c.title).join('\n'));
});

test('the annotation rule leaves members, crate-private structs and annotated blocks in any order alone', () => {
  const out = draftRuleFromSeed(
    {
      kind: 'require-annotation',
      language: 'rust',
      annotation: 'derive(Debug)',
      declaration: 'struct',
      goodAt: ['src/a.rs:2'],
    },
    { read: () => '#[derive(Debug)]\npub struct A;\n' },
  );
  assert.ok('guard' in out, JSON.stringify(out));
  const re = new RegExp(out.guard.pattern!, out.guard.flags);
  assert.ok(!re.test('#[serde(rename_all = "x")]\n#[derive(Debug, Clone)]\n#[non_exhaustive]\npub struct A {'));
  assert.ok(!re.test('#[derive(Clone)]\npub(crate) struct A;'));
  assert.ok(!re.test('impl A {\n    pub struct B;\n}'));
  assert.ok(re.test('#[non_exhaustive]\n#[derive(Clone)]\npub struct A;'));
  assert.ok(re.test('pub struct A;'));
  assert.ok(re.test('#[derive(Debug)]\nstruct Private;\n\npub struct A;'));
});

test('a Java class annotation is drafted from the cited declarations, the annotation taken off for the bad one', () => {
  const text = '@Immutable\npublic final class Money {\n}\n';
  const out = draftRuleFromSeed(
    {
      kind: 'require-annotation',
      language: 'java',
      annotation: 'Immutable',
      declaration: 'class',
      goodAt: ['M.java:2'],
    },
    { read: () => text },
  );
  assert.ok('guard' in out, JSON.stringify(out));
  assert.deepEqual(out.guard.examples!.bad, ['public final class Money {']);
  const re = new RegExp(out.guard.pattern!, out.guard.flags);
  assert.ok(!re.test('@Immutable(strict = true)\n@Deprecated\npublic class A {'));
  assert.ok(re.test('@ImmutableView\npublic class A {'), 'a longer annotation name is another annotation');
});

test('a helper called from most files that need the call it wraps: the card carries the rule, the exception reported', async () => {
  const files: Record<string, string> = { 'package.json': '{ "name": "app", "version": "1.0.0", "private": true }' };
  files['src/clock.ts'] =
    '/** The time the app runs at. */\nexport function currentTime(): number {\n  return Date.now();\n}\n';
  for (const name of ['orders', 'users', 'carts', 'bills', 'items']) {
    files[`src/${name}.ts`] =
      `import { currentTime } from './clock';\n\nexport function stamp${name}(r: { at?: number }) {\n  r.at = currentTime();\n  return r;\n}\n`;
  }
  files['src/legacy.ts'] = 'export function legacyStamp(r: { at?: number }) {\n  r.at = Date.now();\n  return r;\n}\n';
  const cards = await coldStart(files);
  const card = cards.find((c) => /Call `currentTime\(\)` rather than `Date\.now\(\)`/.test(c.title));
  assert.ok(card, cards.map((c) => c.title).join('\n'));
  const guard = card.constraints?.guards?.[0];
  assert.equal(guard?.id, 'prefer-current-time');
  assert.deepEqual(guard?.exclude, ['src/clock.ts'], 'the helper itself may make the call');
  assert.deepEqual(card.guardReport!.rules[0].findings.map((f) => `${f.path}:${f.line}`), ['src/legacy.ts:2']);
});

test('no helper rule when the call it wraps is common production code (2 of 7 files make it directly)', async () => {
  const files: Record<string, string> = { 'package.json': '{ "name": "app", "version": "1.0.0", "private": true }' };
  files['src/clock.ts'] = 'export function currentTime(): number {\n  return Date.now();\n}\n';
  for (const name of ['orders', 'users', 'carts', 'bills', 'items']) {
    files[`src/${name}.ts`] = `import { currentTime } from './clock';\n\nexport const ${name} = () => currentTime();\n`;
  }
  for (const name of ['legacy', 'audit']) files[`src/${name}.ts`] = `export const ${name} = () => Date.now();\n`;
  const cards = await coldStart(files);
  assert.ok(!cards.some((c) => c.ruleSeed?.kind === 'prefer-helper'), cards.map((c) => c.title).join('\n'));
});

test('an import boundary in Rust forbids the module path of the folders, not their neighbours', () => {
  const out = draftRuleFromSeed(
    { kind: 'forbid-import', language: 'rust', files: 'src/util', modules: ['src/app', 'src/cli'] },
    { read: () => undefined },
  );
  assert.ok('guard' in out, JSON.stringify(out));
  assert.deepEqual(out.guard.include, ['src/util/**']);
  const re = new RegExp(out.guard.pattern!, out.guard.flags);
  assert.ok(re.test('use crate::app::Config;'));
  assert.ok(re.test('let c = crate::cli::parse();'));
  assert.ok(!re.test('use crate::application::Config;'));
  assert.ok(!re.test('use other_crate::app::Config;'));
});

test('an import boundary in Java or Kotlin forbids the packages under the source root', () => {
  const out = draftRuleFromSeed(
    {
      kind: 'forbid-import',
      language: 'kotlin',
      files: 'lib/src/main/kotlin/com/acme/util',
      modules: ['lib/src/main/kotlin/com/acme/ui'],
    },
    { read: () => undefined },
  );
  assert.ok('guard' in out, JSON.stringify(out));
  const re = new RegExp(out.guard.pattern!, out.guard.flags);
  assert.ok(re.test('package com.acme.util\n\nimport com.acme.ui.Screen\n'));
  assert.ok(!re.test('import com.acme.uikit.Screen'));
  assert.ok(!re.test('val s = "import com.acme.ui.Screen"'));
});

test('a struct that implements the derived trait by hand: the card counts it and drafts no rule', async () => {
  const files = crate(12, [5]);
  files['src/b.rs'] +=
    'impl std::fmt::Debug for Shape5 {\n    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {\n        f.write_str("Shape5")\n    }\n}\n';
  const cards = await coldStart(files);
  const card = cards.find((c) => /Public `struct` declarations carry `#\[derive\(Debug\)\]`/.test(c.title));
  assert.ok(card, cards.map((c) => c.title).join('\n'));
  assert.match(card.summary, /or implement `Debug` by hand \(1\)/);
  assert.equal(card.ruleSeed, undefined);
  assert.equal(card.constraints?.guards, undefined);
});
