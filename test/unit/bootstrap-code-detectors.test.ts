// The fact layer's implementations, annotations, macros, calls and roles, and the detectors that
// read them: one fixture per construct under test/fixtures/code-detectors.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { bootstrapKnowledge } from '../../src/core/domains/bootstrap';
import { factsOf } from '../../src/core/domains/bootstrap/facts';
import { sourceFile } from '../../src/core/domains/bootstrap/source';
import type { Candidate } from '../../src/core/domains/knowledge';
import { listCandidates } from '../../src/core/domains/knowledge/candidates';
import { closeWorkspaces, workspaceWith } from './structure-helpers';

after(closeWorkspaces);

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'code-detectors');

function filesOf(dir: string, base = dir, out: Record<string, string> = {}): Record<string, string> {
  for (const e of readdirSync(dir)) {
    const p = path.join(dir, e);
    if (statSync(p).isDirectory()) filesOf(p, base, out);
    else out[path.relative(base, p).split(path.sep).join('/')] = readFileSync(p, 'utf8');
  }
  return out;
}

async function coldStart(fixture: string) {
  const ws = await workspaceWith(filesOf(path.join(FIXTURES, fixture)));
  const result = await bootstrapKnowledge(ws, {}, { actor: 'human' });
  return { result, cards: listCandidates(ws) };
}

function find(cards: Candidate[], wanted: (c: Candidate) => boolean): Candidate {
  const c = cards.find(wanted);
  assert.ok(c, cards.map((x) => `${x.origin} | ${x.title}\n    ${x.summary}`).join('\n'));
  return c;
}

test('Rust impl blocks, mod declarations, attributes and macros are facts', () => {
  const f = factsOf(sourceFile(
    'src/lib.rs',
    'rust',
    'mod flags;\nuse crate::flags::Flag;\n\nmacro_rules! impl_flag {\n    ($t:ty) => {};\n}\nimpl_flag!(Foo);\n\n#[derive(Debug, Clone)]\npub struct Foo;\nunsafe impl Send for Foo {}\nimpl Flag for Foo {\n    fn name(&self) -> &str {\n        let g = self.state.lock().unwrap();\n        "x"\n    }\n}\nimpl std::fmt::Display for Foo {}\n',
    undefined,
  ));
  assert.deepEqual(f.imports.find((i) => i.module), { spec: 'flags', line: 1, module: true });
  assert.deepEqual(f.impls.map((i) => [i.type, i.base, i.how, !!i.unchecked]), [
    ['Foo', 'Send', 'impl', true],
    ['Foo', 'Flag', 'impl', false],
    // A trait reached through a path outside the crate is not a project type of that name.
    ['Foo', 'std::fmt::Display', 'impl', false],
  ]);
  assert.deepEqual(f.annotations, [{ name: 'derive', line: 9, args: 'Debug, Clone' }]);
  assert.deepEqual(f.macros.filter((m) => m.name === 'impl_flag').map((m) => [m.line, m.def, !!m.item]), [
    [4, true, false],
    [7, false, true],
  ]);
  assert.equal(f.calls.get('state.lock')?.[1], 1);
  assert.equal(f.decls.find((d) => d.name === 'name')?.owner, 'Foo');
  assert.equal(f.decls.find((d) => d.name === 'name')?.signature, '(&self) -> &str');
});

test('Swift extension conformances, Java implements lists, modifiers and file roles are facts', () => {
  const swift = factsOf(sourceFile(
    'Sources/A.swift',
    'swift',
    '@MainActor\nfinal class Model {\n  nonisolated func load() async {}\n}\nextension Session: @unchecked Sendable, Foo {}\n',
    undefined,
  ));
  assert.deepEqual(swift.impls.map((i) => [i.type, i.base, !!i.unchecked]), [
    ['Session', 'Sendable', true],
    ['Session', 'Foo', false],
  ]);
  assert.equal(swift.annotations[0].name, 'MainActor');
  assert.deepEqual(swift.decls.find((d) => d.name === 'load')?.modifiers, ['nonisolated']);
  assert.equal(swift.decls.find((d) => d.name === 'Model')?.keyword, 'class');
  const java = factsOf(sourceFile(
    'src/X.java',
    'java',
    'class X extends Base implements Runnable, Comparable<X> {\n  public synchronized void run() { new Thread(this).start(); }\n}\n',
    undefined,
  ));
  assert.deepEqual(java.impls.map((i) => i.base), ['Runnable', 'Comparable']);
  assert.deepEqual(java.decls.find((d) => d.name === 'run')?.modifiers, ['synchronized']);
  // The declaration of run() is not a call of it; the constructor call is one.
  assert.equal(java.calls.has('run'), false);
  assert.equal(java.calls.get('Thread')?.[1], 1);
  assert.equal(factsOf(sourceFile('vendor/lib/a.py', 'python', 'import os\n', undefined)).role, 'vendored');
  assert.equal(factsOf(sourceFile('tests/test_a.py', 'python', 'import os\n', undefined)).role, 'test');
});

test('Rust mod declarations and crate paths give Rust files an import graph', async () => {
  const { result } = await coldStart('rust-macro-per-type');
  // lib.rs → macros.rs, parse.rs, io.rs, net.rs; each of those → macros.rs.
  assert.ok(result.graph.fileImports >= 6, JSON.stringify(result.graph));
});

test('a macro defined once and invoked for every error type is a recurring shape', async () => {
  const { cards } = await coldStart('rust-macro-per-type');
  const c = find(cards, (x) => /`impl_error!` macro/.test(x.title));
  assert.match(c.summary, /defined once \(macros\.rs:1\) and invoked 6 times in 3 production files/);
  assert.match(c.summary, /each invocation declaring an item/);
});

test('one constructor signature repeated for every command is a recurring shape', async () => {
  const { cards } = await coldStart('go-command-constructors');
  const c = find(cards, (x) => /`new…` functions share/.test(x.title));
  assert.match(c.title, /`new…\(opts \*Options\) \*Command`/);
  // What the facts show (names, signature, files), never a role guessed from the names' shared word.
  assert.match(c.summary, /5 top-level functions named `new…`, one per file, take `\(opts \*Options\) \*Command`/);
  assert.doesNotMatch(c.summary, /component/);
});

test('one method signature on unrelated types is no shape: nothing else shows they are of a kind', async () => {
  const { cards } = await coldStart('rust-method-unrelated');
  assert.ok(!cards.some((c) => /`path\(&self\) -> &Path`/.test(c.summary)), cards.map((c) => c.title).join('\n'));
});

test('types that share a set of methods are a shape: the set, the types, and the one that defines part of it', async () => {
  const { cards } = await coldStart('rust-method-group');
  const c = find(cards, (x) => /`get_mut`/.test(x.title) && /`get_ref`/.test(x.title));
  assert.match(c.summary, /4 types in 4 production files \(`Counter`, `Json`, `Standard`, `Summary`\) each define/);
  assert.match(c.summary, /`into_inner\(self\) -> W`/);
  assert.match(c.summary, /`Sink` defines only `get_mut`/);
  assert.doesNotMatch(c.summary, /of one kind|this kind/);
  // An interface may ask for them where the facts cannot show it (implicit, or declared elsewhere): no claim of absence.
  assert.doesNotMatch(c.summary, /no declared interface/);
  // One card for the group, not one per method of it.
  assert.equal(cards.filter((x) => /`get_ref`/.test(x.title)).length, 1);
});

test('a lock idiom is said as a whole: the mutex field, its name, and the exception', async () => {
  const { cards } = await coldStart('go-lock-field');
  const c = find(cards, (x) => x.origin === 'bootstrap:go-concurrency');
  assert.match(c.summary, /guarded with `sync\.Mutex`\/`sync\.RWMutex`: 4 of 5 production files do/);
  assert.match(
    c.summary,
    /the lock is a field named `mu` in 3 of 4 files that take one \(`pool\.go` is the exception\)/,
  );
});

test('a project function with a standard twin: the rule, the ratio and the file that is the exception', async () => {
  const { cards } = await coldStart('ts-standard-twin');
  const c = find(cards, (x) => /Call `currentTime\(\)` rather than `Date\.now\(\)`/.test(x.title));
  assert.match(
    c.summary,
    /is called from 6 production files, `Date\.now\(\)` directly from 1 \(`legacy\.ts`: the exception\)/,
  );
  assert.ok(c.reasoning.sources.includes('src/clock.ts:2'), c.reasoning.sources.join(', '));
});

test('an extension point names the implementation that does not override what the others do', async () => {
  const { cards } = await coldStart('ts-base-override');
  const c = find(cards, (x) => /extend `Step`/.test(x.title));
  assert.match(c.summary, /defining `run\(\)` as 3 of 4 do \(`PassStep` is the exception\)/);
  // The card never says both "as the others do" and names an exception.
  assert.doesNotMatch(c.summary, /as the others do/);
});

test('a guard construct in a few files of many is no concurrency model of the code base', async () => {
  const { cards } = await coldStart('rust-few-atomics');
  assert.deepEqual(cards.filter((c) => c.tags?.includes('concurrency')).map((c) => c.title), []);
});
