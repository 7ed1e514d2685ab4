import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { bootstrapKnowledge, dimensionGuides } from '../../src/core/domains/bootstrap';
import {
  ciChecks,
  ciCommand,
  circleCommands,
  commandWords,
  gitlabCommands,
  workflowCommands,
} from '../../src/core/domains/bootstrap/commands';
import { productTargets } from '../../src/core/domains/bootstrap/dimensions/architecture';
import { listedTogether } from '../../src/core/domains/bootstrap/dimensions/extension-points';
import { docIndex } from '../../src/core/domains/bootstrap/docs';
import { excerptFrom } from '../../src/core/domains/bootstrap/evidence';
import { factsOf } from '../../src/core/domains/bootstrap/facts';
import { distinctTails } from '../../src/core/domains/bootstrap/form';
import { languageBullets } from '../../src/core/domains/bootstrap/guides';
import { receiversOf } from '../../src/core/domains/bootstrap/members';
import { selectFiles } from '../../src/core/domains/bootstrap/select';
import { sourceFile } from '../../src/core/domains/bootstrap/source';
import { SymbolIndex } from '../../src/core/domains/bootstrap/symbols';
import type { AnalysisContext } from '../../src/core/domains/bootstrap/types';
import type { Candidate } from '../../src/core/domains/knowledge';
import { listCandidates } from '../../src/core/domains/knowledge/candidates';
import type { Target } from '../../src/core/domains/structure';
import type { Workspace } from '../../src/core/ground/workspace';
import { closeWorkspaces, emptyWorkspace, workspaceWith } from './structure-helpers';

after(closeWorkspaces);

const project = workspaceWith;

const titles = (ws: Workspace) => listCandidates(ws).map((c) => `${c.origin} | ${c.title}`);

/** The candidate a cold start of `files` proposes that `wanted` picks (failing, with every title, when there is none). */
async function candidateIn(files: Record<string, string>, wanted: (c: Candidate) => boolean) {
  const ws = await project(files);
  await bootstrapKnowledge(ws, {}, { actor: 'human' });
  const c = listCandidates(ws).find(wanted);
  assert.ok(c, titles(ws).join('\n'));
  return c;
}

/** The project-profile candidate a cold start of `files` proposes. */
const profileCandidate = (files: Record<string, string>) =>
  candidateIn(files, (c) => c.origin === 'bootstrap:project-profile');

test("Swift: the project's own choices (@MainActor over GCD, final classes, package features), not the language's advice", async () => {
  const files: Record<string, string> = {
    'Package.swift':
      '// swift-tools-version:6.0\nimport PackageDescription\nlet package = Package(name: "Feed", targets: [.target(name: "Model"), .target(name: "Feed", dependencies: ["Model"], swiftSettings: [.enableUpcomingFeature("ExistentialAny")]), .target(name: "Profile", dependencies: ["Model"])], swiftLanguageModes: [.v5])\n',
  };
  for (const name of ['Feed', 'Profile']) {
    for (let i = 0; i < 6; i++) {
      files[`Sources/${name}/${name}ViewModel${i}.swift`] =
        `import Model\n\n@MainActor\nfinal class ${name}ViewModel${i} {\n  private var task: Task<Void, Never>?\n  func load() async {\n    guard let item = try? await Loader.fetch() else { return }\n    if let name = item as? String { print(name) }\n    task = Task { [weak self] in await self?.refresh() }\n  }\n  func refresh() async {}\n}\n`;
    }
  }
  files['Sources/Model/Loader.swift'] =
    'public enum Loader {\n  public static func fetch() async throws -> Any { 1 }\n}\n';
  const ws = await project(files);
  const r = await bootstrapKnowledge(ws, {}, { actor: 'human' });
  const t = titles(ws);
  assert.ok(
    t.includes('bootstrap:swift-concurrency | UI state is isolated with `@MainActor`, not `DispatchQueue.main`'),
    t.join('\n'),
  );
  assert.ok(t.includes('bootstrap:swift-safety | Classes are `final` unless designed for subclassing'));
  assert.ok(
    t.includes('bootstrap:agent-guidelines | The package turns on Swift feature `ExistentialAny`'),
    t.join('\n'),
  );
  const feature = listCandidates(ws).find((c) => c.title.includes('ExistentialAny'))!;
  assert.match(feature.summary, /Swift 5 language mode/);
  // Counter-evidence: tools 6.0 but `swiftLanguageModes: [.v5]`, so strict concurrency is not on.
  assert.ok(!t.some((x) => /strict concurrency|complete concurrency/i.test(x)), t.join('\n'));
  // What Swift itself asks of everyone is not project knowledge.
  assert.ok(!t.some((x) => /weak self|try!|naming|PascalCase|defer/i.test(x)), t.join('\n'));
  assert.deepEqual(r.targets, { count: 3, ecosystems: { swift: 3 } });
  const swiftDims = r.dimensions.filter((d) => d.id.startsWith('swift-'));
  assert.deepEqual(swiftDims.map((d) => `${d.id}:${d.guideFrom}`), [
    'swift-concurrency:built-in',
    'swift-safety:built-in',
  ], 'no bundled skills in this workspace: built-in guides');
});

test('Go: no generic Go advice (%w, context first, defer, file names); the profile has the commands', async () => {
  const files: Record<string, string> = { 'go.mod': 'module example.com/svc\n\ngo 1.22\n' };
  for (let i = 0; i < 6; i++) {
    files[`store/repo${i}.go`] =
      `package store\n\nimport (\n\t"context"\n\t"fmt"\n)\n\nfunc Load${i}(ctx context.Context, id string) (string, error) {\n\tv, err := get(ctx, id)\n\tif err != nil {\n\t\treturn "", fmt.Errorf("load ${i} %s: %w", id, err)\n\t}\n\tdefer release()\n\treturn v, nil\n}\n`;
  }
  files['store/get.go'] =
    'package store\n\nimport "context"\n\nfunc get(ctx context.Context, id string) (string, error) {\n\treturn id, nil\n}\n\nfunc release() {}\n';
  const ws = await project(files);
  await bootstrapKnowledge(ws, {}, { actor: 'human' });
  const t = titles(ws);
  assert.deepEqual(
    t,
    ['bootstrap:project-profile | Project profile: stack, targets, build and test commands'],
    "gofmt tabs, %w, ctx-first and defer are Go conventions, not this project's",
  );
  const profile = listCandidates(ws).find((c) => c.knowledgeType === 'project-profile')!;
  assert.match(profile.rationale ?? '', /Test: `go test \.\/\.\.\.`/);
});

test("Python: dataclasses and the project's base class; relative imports resolve into the graph", async () => {
  const files: Record<string, string> = { 'pyproject.toml': '[project]\nname = "shop"\ndependencies = ["pytest"]\n' };
  for (let i = 0; i < 10; i++) {
    files[`shop/model_${i}.py`] =
      `from dataclasses import dataclass\nfrom .base import Base\n\n\n@dataclass\nclass Item${i}(Base):\n    name: str\n\n\ndef make_item_${i}(name: str) -> "Item${i}":\n    return Item${i}(name)\n`;
  }
  files['shop/base.py'] = 'class Base:\n    pass\n\n\ndef helper() -> None:\n    pass\n';
  const ws = await project(files);
  const r = await bootstrapKnowledge(ws, {}, { actor: 'human' });
  const t = titles(ws);
  assert.ok(
    t.includes('bootstrap:python-typing | Python functions carry type hints, return types included'),
    t.join('\n'),
  );
  assert.ok(t.includes('bootstrap:python-typing | Plain data records are `@dataclass`es'));
  assert.ok(t.some((x) => /^bootstrap:code-pattern \| Python `Item0`, `Item1`.* extend `Base`$/.test(x)), t.join('\n'));
  assert.ok(!t.some((x) => /snake_case|PEP 8/.test(x)), 'snake_case file names are the Python norm');
  assert.equal(r.graph.fileImports, 10, 'each model imports shop/base.py');
});

test('Python: a return type followed by a comment on the def line is counted as declared', async () => {
  const files: Record<string, string> = { 'pyproject.toml': '[project]\nname = "shop"\n' };
  for (let i = 0; i < 12; i++) {
    // One in three carries a trailing comment after the colon (a type-checker pragma, a note).
    const tail = i % 3 === 0 ? '  # type: ignore[override]' : i % 3 === 1 ? '  # pragma: no cover' : '';
    files[`shop/part_${i}.py`] = `def part_${i}(name: str) -> str:${tail}\n    return name\n`;
  }
  const ws = await project(files);
  await bootstrapKnowledge(ws, {}, { actor: 'human' });
  const card = listCandidates(ws).find((c) => /carry type hints/.test(c.title));
  assert.match(card?.summary ?? '', /^12 of 12 production functions \(100 ?%\) declare a return type/, card?.summary);
});

test('a dimension with no evidence proposes nothing, and weak evidence is not submitted', async () => {
  const ws = await project({ 'notes.txt': 'nothing to learn here\n', 'src/a.ts': 'export const a = 1;\n' });
  const r = await bootstrapKnowledge(ws, {}, { actor: 'human' });
  assert.ok(r.candidates.created <= 1, JSON.stringify(titles(ws)));
  assert.ok(r.dimensions.filter((d) => d.id !== 'project-profile').every((d) => d.created.length === 0));
});

test('dimension guides come from the coldstart and reference skills, with a built-in fallback', async () => {
  const ws = await emptyWorkspace();
  const builtIn = dimensionGuides(ws, ['jsts']);
  assert.ok(builtIn.every((g) => g.from === 'built-in'));
  assert.deepEqual(builtIn.map((g) => g.id), [
    'code-standard',
    'code-pattern',
    'architecture',
    'best-practice',
    'event-data-flow',
    'project-profile',
    'agent-guidelines',
    'jsts-async',
    'jsts-type-safety',
  ]);
  assert.deepEqual(
    languageBullets('Intro:\n\n- `swift-concurrency` — actors and\n  isolation.\n- `swift-safety` — optionals.\n'),
    [['swift-concurrency', 'actors and isolation.'], ['swift-safety', 'optionals.']],
  );
});

test('file selection: folders take turns, tests get at most a fifth, unknown extensions and minified files are skipped', () => {
  const listing = [
    'a/1.ts',
    'a/2.ts',
    'a/3.ts',
    'b/1.ts',
    'c/1.py',
    'test/x.test.ts',
    'test/y.test.ts',
    'README.md',
    'a/lib.min.js',
  ];
  const s = selectFiles(listing, 5);
  assert.deepEqual(s.files.map((f) => f.path), ['a/1.ts', 'b/1.ts', 'c/1.py', 'a/2.ts', 'test/x.test.ts']);
  assert.equal(s.eligible, 7);
  assert.equal(s.capped, true);
  assert.equal(selectFiles(listing, 100).capped, false);
});

test('facts: imports with what they bind, declarations with visibility, uses that are not qualified or declared; generated markers; excerpts', () => {
  const ts = sourceFile(
    'src/a.ts',
    'typescript',
    "import { x, y as z } from './x';\n// import { fake } from 'comment';\nexport class Foo extends Bar {}\nexport const run = async () => x();\n",
    undefined,
  );
  const f = factsOf(ts);
  assert.deepEqual(
    f.imports.map((i) => `${i.spec}@${i.line}:${i.names?.map((n) => `${n.imported}>${n.local}`).join(',')}`),
    ['./x@1:x>x,y>z'],
  );
  assert.deepEqual(f.decls.map((d) => `${d.kind}:${d.name}:${d.base ?? ''}:${d.visibility}`), [
    'function:run::public',
    'type:Foo:Bar:public',
  ]);
  assert.equal(f.uses.get('x'), 4);
  const go = sourceFile(
    'main.go',
    'go',
    'package main\n\nimport (\n\t"fmt"\n\tstore "example.com/x/store"\n)\n\nfunc Open() {}\nfunc helper() {}\nfunc (s *S) Method() {}\n',
    undefined,
  );
  assert.deepEqual(factsOf(go).imports.map((i) => `${i.spec}@${i.line}=${i.alias}`), [
    'fmt@4=fmt',
    'example.com/x/store@5=store',
  ]);
  assert.deepEqual(factsOf(go).decls.map((d) => `${d.name}:${d.visibility}:${d.member}`), [
    'Open:public:false',
    'helper:internal:false',
    'Method:public:true',
  ]);
  // Rust: `WalkEvent::File` and `hir::Class::Bytes` are not uses of a type named File or Bytes; `use` lines bind, they do not use.
  const rs = sourceFile(
    'crates/x/src/a.rs',
    'rust',
    'use crate::sink::{Bytes, Sink};\nfn f(e: WalkEvent) {\n  match e { WalkEvent::File(p) => {}, _ => {} }\n  let y = hir::Class::Bytes(1);\n  helper(1);\n}\npub(crate) struct Ignore {}\nfn helper(x: i32) {}\n',
    undefined,
  );
  const rf = factsOf(rs);
  assert.equal(rf.uses.has('File'), false);
  assert.equal(rf.uses.has('Bytes'), false);
  assert.equal(rf.uses.get('helper'), 5);
  assert.equal(rf.decls.find((d) => d.name === 'Ignore')?.visibility, 'internal', 'pub(crate)');
  // Python: `def request(` declares, `self.send(` is a method call: neither is a use of a bare name.
  const py = sourceFile(
    'httpx/_client.py',
    'python',
    'from ._models import Request\nclass Client:\n    def request(self, method):\n        return self.send(Request(method))\n',
    undefined,
  );
  assert.deepEqual([...factsOf(py).uses.keys()], ['Request']);
  // A typing.overload stub is a signature; the function is declared where its body is.
  const overloads = sourceFile(
    'utils.py',
    'python',
    'from typing import overload\n\n@overload\ndef parse(x: str) -> str: ...\n\n@typing.overload\ndef parse(x: int) -> int: ...\n\ndef parse(x):\n    return x\n',
    undefined,
  );
  assert.deepEqual(factsOf(overloads).decls.map((d) => `${d.name}@${d.line}`), ['parse@9']);
  assert.deepEqual(
    sourceFile('gen.ts', 'typescript', '// Code generated by protoc. DO NOT EDIT.\nexport {};\n', undefined).generated,
    { line: 1, marker: 'DO NOT EDIT' },
  );
  assert.equal(sourceFile('x.ts', 'typescript', "const s = 'DO NOT EDIT';\n", undefined).generated, undefined);
  assert.equal(
    excerptFrom('a\nfunction f() {\n  if (x) {\n    y();\n  }\n}\nrest\n', 2),
    'function f() {\n  if (x) {\n    y();\n  }\n}',
  );
  // A Python signature's closing `):` at the def's depth does not end the excerpt.
  assert.equal(
    excerptFrom('def f(\n    a,\n    b,\n):\n    return a\n\nrest = 1\n', 1, 14, true),
    'def f(\n    a,\n    b,\n):\n    return a',
  );
  assert.equal(excerptFrom('def f():\n    return 1\n\ndef g():\n    pass\n', 1, 10, true), 'def f():\n    return 1');
});

test('a code excerpt never stops mid-statement: a block up to twice the line budget is whole; a longer one ends after a whole statement of its body, marked as cut', () => {
  // A 21-line function, over the 16-line budget of a helper excerpt.
  const fn = [
    'export function getTRPCErrorFromUnknown(cause: unknown): TRPCError {',
    '  if (cause instanceof TRPCError) {',
    '    return cause;',
    '  }',
    "  if (cause instanceof Error && cause.name === 'TRPCError') {",
    '    return cause as TRPCError;',
    '  }',
    '',
    '  const trpcError = new TRPCError({',
    "    code: 'INTERNAL_SERVER_ERROR',",
    '    cause,',
    '  });',
    '',
    '  // Inherit stack from error',
    '  if (cause instanceof Error && cause.stack) {',
    '    trpcError.stack = cause.stack;',
    '  }',
    '',
    '  return trpcError;',
    '}',
  ];
  assert.equal(excerptFrom(['// a', ...fn, 'export class TRPCError {}'].join('\n'), 2, 16), fn.join('\n'));
  // A long function: cut after the last whole statement of its body within the budget, then `…` and the closing brace.
  const body = Array.from(
    { length: 40 },
    (_, i) => (i % 4 === 0 ? `  if (x${i}) {` : i % 4 === 3 ? '  }' : `    step${i}();`),
  );
  const long = ['function run() {', ...body, '}'];
  const cut = excerptFrom(long.join('\n'), 1, 14).split('\n');
  assert.deepEqual(cut.slice(0, -2), long.slice(0, 13));
  assert.deepEqual(cut.slice(-2), ['  // …', '}']);
  // Python: the body up to twice the budget, else cut at a line of the body's own indentation.
  const py = [
    'def f(x):',
    ...Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? `    if x > ${i}:` : `        y${i}(x)`)),
  ];
  const pcut = excerptFrom(py.join('\n'), 1, 10, true).split('\n');
  assert.equal(pcut[pcut.length - 1], '    # …');
  assert.ok(/^ {8}y\d+\(x\)$/.test(pcut[pcut.length - 2]), pcut.join('\n'));
});

test('agent files (AGENTS.md, CLAUDE.md, Copilot instructions) each become one agent-instructions candidate, named first in the answer; code blocks and links are not rules', async () => {
  const ws = await project({
    'AGENTS.md':
      '# Working here\n\nRun `make check` before you commit.\n\n```sh\n# never run this in CI\nmake release\n```\n\n- Never edit files under `gen/` by hand; run `make gen`.\n- Tests must not touch the network.\n\n[docs]: https://example.com/always\n',
    'CLAUDE.md': 'Always use the `log` module, never `console.log`.\n',
    '.github/copilot-instructions.md': 'Prefer the `Result` type over exceptions in `core/`.\n',
    'CONTRIBUTING.md':
      '# Contributing\n\n- Do not add dependencies without an issue.\n- Every change must come with a test.\n',
    'src/a.ts': 'export const a = 1;\n',
  });
  const r = await bootstrapKnowledge(ws, {}, { actor: 'human' });
  const byFile = (f: string) =>
    listCandidates(ws).find((c) =>
      c.knowledgeType === 'agent-guideline' && c.reasoning.sources.some((s) => s.startsWith(`${f}:`))
    )!;
  const agents = byFile('AGENTS.md');
  assert.equal(agents.title, 'Agent instructions (`AGENTS.md`): Never edit files under `gen/` by hand; run `make gen`');
  assert.deepEqual(agents.reasoning.sources, ['AGENTS.md:10', 'AGENTS.md:11']);
  assert.ok(!/release|example\.com/.test(agents.rationale ?? ''), agents.rationale);
  assert.match(byFile('CLAUDE.md').title, /never `console\.log`/);
  assert.match(byFile('.github/copilot-instructions.md').title, /Prefer the `Result` type/);
  assert.match(byFile('CONTRIBUTING.md').title, /^Rules stated in `CONTRIBUTING.md`/);
  assert.deepEqual(r.policies?.map((p) => p.file), [
    '.github/copilot-instructions.md',
    'AGENTS.md',
    'CLAUDE.md',
    'CONTRIBUTING.md',
  ]);
  assert.match(r.next, /^Read \.github\/copilot-instructions\.md, AGENTS\.md, CLAUDE\.md, CONTRIBUTING\.md first/);
});

test('lint rules are "enforced" only where a script, a hook or CI runs ESLint, else "configured"', async () => {
  const config = 'export default [{ rules: { "no-console": "error" } }];\n';
  const bare = await project({ 'eslint.config.js': config, 'src/a.ts': 'export const a = 1;\n' });
  await bootstrapKnowledge(bare, {}, { actor: 'human' });
  const configured = listCandidates(bare).find((c) => /^Lint rules/.test(c.title))!;
  assert.match(configured.title, /^Lint rules the project configures: `no-console`/);
  assert.match(configured.summary, /No CI step, script or hook runs ESLint/);
  const run = await project({
    'eslint.config.js': config,
    'package.json': '{\n  "name": "x",\n  "scripts": {\n    "lint": "eslint ."\n  }\n}\n',
    'src/a.ts': 'export const a = 1;\n',
  });
  await bootstrapKnowledge(run, {}, { actor: 'human' });
  const enforced = listCandidates(run).find((c) => /^Lint rules/.test(c.title))!;
  assert.match(enforced.title, /^Lint rules the project enforces: `no-console`/);
  assert.match(enforced.summary, /fails `npm run lint`/);
  assert.ok(enforced.reasoning.sources.includes('package.json:4'), enforced.reasoning.sources.join(', '));
});

test('facts: an Objective-C category declares no type, not even a name cut off at its parenthesis (`@interface UIButton (…)` had become a type `UIButto`)', () => {
  const f = sourceFile(
    'UIKit/UIButton+AF.h',
    'objective-c',
    '@interface UIButton (AFNetworking)\n+ (AFImageDownloader *)sharedImageDownloader;\n@end\n\n@interface AFImageDownloader : NSObject\n@end\n',
    undefined,
  );
  assert.deepEqual(factsOf(f).decls.filter((d) => d.kind === 'type').map((d) => d.name), ['AFImageDownloader']);
});

test("a shared instance a category adds is the extended class's (`UIButton.sharedImageDownloader`, not a cut-off `UIButto`)", async () => {
  const files: Record<string, string> = {
    'AF/AFReachabilityManager.h':
      '#import <Foundation/Foundation.h>\n\n@interface AFReachabilityManager : NSObject\n+ (instancetype)sharedManager;\n@end\n',
    'AF/AFActivityManager.h':
      '#import <Foundation/Foundation.h>\n\n@interface AFActivityManager : NSObject\n+ (instancetype)sharedManager;\n@end\n',
    'UIKit/UIButton+AF.h':
      '#import <UIKit/UIKit.h>\n\n@interface UIButton (AFNetworking)\n+ (AFImageDownloader *)sharedImageDownloader;\n@end\n',
    'UIKit/AFImageDownloader.h':
      '#import <Foundation/Foundation.h>\n\n@interface AFImageDownloader : NSObject\n+ (instancetype)defaultInstance;\n@end\n',
    'AF/AFSecurityPolicy.h':
      '#import <Foundation/Foundation.h>\n\n@interface AFSecurityPolicy : NSObject\n+ (instancetype)defaultPolicy;\n@end\n',
  };
  for (let i = 0; i < 3; i++) {
    files[`AF/AFPart${i}.m`] =
      `#import "AFReachabilityManager.h"\n\n@implementation AFPart${i}\n- (void)run {\n    [[AFReachabilityManager sharedManager] start];\n}\n@end\n`;
  }
  const card = await candidateIn(files, (c) => /^Shared instances/.test(c.title));
  assert.match(card.summary, /UIButton\.sharedImageDownloader/);
  assert.doesNotMatch(card.summary, /UIButto\./);
  assert.match(card.summary, /AFImageDownloader\.defaultInstance/, 'defaultInstance is a shared instance too');
  assert.doesNotMatch(card.summary, /defaultPolicy/, 'a default… factory is not');
});

test('facts: an import after a `;`-terminated one binds its own names at its own line', () => {
  const text = readFileSync(
    path.join(__dirname, '..', 'fixtures', 'real', 'trpc', 'packages', 'client', 'src', 'links', 'splitLink.ts'),
    'utf8',
  );
  const facts = factsOf(sourceFile('packages/client/src/links/splitLink.ts', 'typescript', text, undefined));
  assert.deepEqual(
    facts.imports.map((i) => [i.line, i.spec, i.names?.map((n) => n.local)]),
    [
      [1, '@trpc/server/observable', ['observable']],
      [2, '@trpc/server/unstable-core-do-not-import', ['AnyRouter']],
      [3, './internals/createChain', ['createChain']],
      [4, './types', ['Operation', 'TRPCLink']],
    ],
  );
});

test("facts: Kotlin supertypes after an annotated constructor are read, and the constructor's visibility is not the class's (a handshake class, a socket adapter)", () => {
  const handshake = factsOf(
    sourceFile(
      'okhttp/src/commonJvmAndroid/kotlin/okhttp3/Handshake.kt',
      'kotlin',
      'package okhttp3\n\nclass Handshake internal constructor(\n  val tlsVersion: TlsVersion,\n) {\n}\n',
      undefined,
    ),
  );
  assert.deepEqual(handshake.decls.map((d) => [d.name, d.visibility, d.bases ?? []]), [['Handshake', 'public', []]]);
  const text = readFileSync(
    path.join(
      __dirname,
      '..',
      'fixtures',
      'real',
      'okhttp',
      'okhttp',
      'src',
      'androidMain',
      'kotlin',
      'okhttp3',
      'internal',
      'platform',
      'android',
      'Android17SocketAdapter.kt',
    ),
    'utf8',
  );
  const adapter = factsOf(
    sourceFile(
      'okhttp/src/androidMain/kotlin/okhttp3/internal/platform/android/Android17SocketAdapter.kt',
      'kotlin',
      text,
      undefined,
    ),
  ).decls.find((d) => d.name === 'Android17SocketAdapter')!;
  assert.deepEqual(adapter.bases, ['SocketAdapter']);
});

test("facts: a Kotlin extension function on a generic receiver is declared by its own name, not the receiver's (`fun <T> List<T>.forEachIndices` is not a function `List`)", () => {
  const f = factsOf(
    sourceFile(
      'coil-core/src/commonMain/kotlin/coil3/util/collections.kt',
      'kotlin',
      'package coil3.util\n\n/** @see forEach */\ninternal inline fun <T> List<T>.forEachIndices(action: (T) -> Unit) {\n    for (i in indices) action(get(i))\n}\n\ninternal fun <K, V> Map<K, List<V>>?.orEmptyLists(): Map<K, List<V>> = this ?: emptyMap()\n',
      undefined,
    ),
  );
  assert.deepEqual(f.decls.map((d) => d.name), ['forEachIndices', 'orEmptyLists']);
});

test('the same contributor rules in two files (docs/contributing.md and .github/CONTRIBUTING.md) are one candidate', async () => {
  const guide = (extra: string) =>
    `# Contributing\n\n${extra}\n\n## Changelog\n\n- Things that must go in the changelog: added or removed features.\n- Things that should not go in the changelog: changes to tests.\n`;
  const ws = await project({
    '.github/CONTRIBUTING.md': guide('Run a single test like this.'),
    'docs/contributing.md': guide('For example, to run a single test:'),
    'src/a.py': 'A = 1\n',
  });
  await bootstrapKnowledge(ws, {}, { actor: 'human' });
  assert.deepEqual(listCandidates(ws).filter((c) => /^Rules stated/.test(c.title)).map((c) => c.title), [
    'Rules stated in `.github/CONTRIBUTING.md` (Changelog)',
  ]);
});

test('a contributor-rules candidate says the rules, the sentence that binds in each, never a count of must/never rules', async () => {
  const ws = await project({
    '.github/CONTRIBUTING.md':
      "# Contributing\n\n- Don\u2019t change public API lightly, avoid if possible, and include your reasoning in the PR if essential. It causes pain for developers.\n- OkHttp is a small and light dependency. Don't introduce new dependencies or major new functionality.\n",
    'src/a.py': 'A = 1\n',
  });
  await bootstrapKnowledge(ws, {}, { actor: 'human' });
  const c = listCandidates(ws).find((x) => /^Rules stated/.test(x.title))!;
  assert.equal(
    c.summary,
    `.github/CONTRIBUTING.md ("Contributing"): Don\u2019t change public API lightly, avoid if possible, and include your reasoning in the PR if essential; Don't introduce new dependencies or major new functionality.`,
  );
});

test('doc index: names the docs show as code, not prose words, members of other types, file paths or change-log entries', async () => {
  const files: Record<string, string> = {
    'README.md':
      'Every observable is cold.\n\n```kotlin\nval s = String.format("%d", 1)\nfun <T : AnyRouter> wire(r: T) = Unit\n```\n\nSee `Source/Core/Protected.swift` and `createClient()`.\n',
    'CHANGELOG.md': '- Fixed `isObject` for arrays.\n',
  };
  const index = await docIndex(
    { listing: Object.keys(files), read: async (rel: string) => files[rel] } as unknown as AnalysisContext,
  );
  assert.equal(index.mention('AnyRouter'), 'README.md');
  assert.equal(index.mention('createClient'), 'README.md');
  for (const name of ['observable', 'format', 'Protected', 'isObject']) {
    assert.equal(index.mention(name), undefined, name);
  }
});

test("Python: proxy variables read through urllib's getproxies() are environment reads (a utilities module), so _config.py is not the only place", async () => {
  const files: Record<string, string> = {
    'pkg/_config.py':
      'import os\n\ndef cert_file():\n    return os.environ.get("SSL_CERT_FILE")\n\ndef cert_dir():\n    return os.environ.get("SSL_CERT_DIR")\n\ndef debug():\n    return os.getenv("DEBUG")\n',
    'pkg/_utils.py':
      'from urllib.request import getproxies\n\ndef get_environment_proxies():\n    proxy_info = getproxies()\n    return proxy_info\n',
  };
  for (let i = 0; i < 10; i++) files[`pkg/mod${i}.py`] = `def f${i}(x):\n    return x + ${i}\n`;
  const ws = await project(files);
  await bootstrapKnowledge(ws, {}, { actor: 'human' });
  const env = listCandidates(ws).find((c) => /^Environment variables/.test(c.title));
  assert.ok(env, titles(ws).join('\n'));
  assert.equal(env.title, 'Environment variables are read only in `pkg/_config.py` and `pkg/_utils.py`');

  // One read in each of three files, with nothing in front of them, is not a boundary (TERM, a mode variable, PORT).
  const scattered: Record<string, string> = {
    'go.mod': 'module example.com/web\n\ngo 1.21\n',
    'logger.go': 'package web\n\nimport "os"\n\nfunc isTerm() bool {\n\treturn os.Getenv("TERM") != "dumb"\n}\n',
    'mode.go': 'package web\n\nimport "os"\n\nfunc init() {\n\tsetMode(os.Getenv("WEB_MODE"))\n}\n',
    'utils.go': 'package web\n\nimport "os"\n\nfunc resolveAddress() string {\n\treturn ":" + os.Getenv("PORT")\n}\n',
  };
  for (let i = 0; i < 20; i++) {
    scattered[`part${i}.go`] = `package web\n\nfunc Part${i}(n int) int {\n\treturn n * ${i + 2}\n}\n`;
  }
  const gin = await project(scattered);
  await bootstrapKnowledge(gin, {}, { actor: 'human' });
  assert.ok(!listCandidates(gin).some((c) => /^Environment variables/.test(c.title)), titles(gin).join('\n'));
});

test("React: a method named useContext (a client's `utils.useContext()`) is not React context; `React.useContext(…)` and a bare useContext are", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 3; i++) {
    files[`src/hooks${i}.tsx`] =
      `import * as React from 'react';\nexport function useThing${i}(utils: any) {\n  return [utils.useContext(), proxy.useContext()];\n}\n`;
  }
  const ws = await project(files);
  await bootstrapKnowledge(ws, {}, { actor: 'human' });
  assert.ok(!titles(ws).some((t) => /React context/.test(t)), titles(ws).join('\n'));
  const real: Record<string, string> = {};
  for (let i = 0; i < 3; i++) {
    real[`src/ctx${i}.tsx`] =
      `import * as React from 'react';\nconst C${i} = React.createContext(null);\nexport function useC${i}() {\n  return React.useContext(C${i});\n}\n`;
  }
  const ws2 = await project(real);
  await bootstrapKnowledge(ws2, {}, { actor: 'human' });
  assert.ok(titles(ws2).some((t) => /React context/.test(t)), titles(ws2).join('\n'));
});

test('a helper of a few lines that only three files use is not worth a candidate (a threadFactory()); the same helper used by five files is', async () => {
  const helper =
    'export function padCell(\n  text: string,\n  width: number,\n): string {\n  return text.padEnd(width, " ");\n}\n';
  const users = (n: number) =>
    Object.fromEntries(
      Array.from(
        { length: n },
        (
          _,
          i,
        ) => [
          `src/view${i}/render.ts`,
          `import { padCell } from '../util/pad';\nexport const row${i} = (a: string) => padCell(a, ${i + 4});\n`,
        ],
      ),
    );
  const few = await project({ 'src/util/pad.ts': helper, ...users(3) });
  await bootstrapKnowledge(few, {}, { actor: 'human' });
  assert.ok(!titles(few).some((t) => /padCell/.test(t)), titles(few).join('\n'));
  const many = await project({ 'src/util/pad.ts': helper, ...users(5) });
  await bootstrapKnowledge(many, {}, { actor: 'human' });
  assert.ok(titles(many).some((t) => /Reuse the internal `padCell\(\)`/.test(t)), titles(many).join('\n'));
});

test("AbortSignal: taking a signal is the platform's idiom, not a project convention; the project's own signal helpers are (allAbortSignals/raceAbortSignals)", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 5; i++) {
    files[`src/op${i}.ts`] =
      `export async function run${i}(signal: AbortSignal) {\n  const c = new AbortController();\n  if (signal.aborted) return;\n  c.abort();\n}\n`;
  }
  const plain = await project(files);
  await bootstrapKnowledge(plain, {}, { actor: 'human' });
  assert.ok(!titles(plain).some((t) => /AbortSignal|[Cc]ancellation/.test(t)), titles(plain).join('\n'));
  const signals = readFileSync(
    path.join(__dirname, '..', 'fixtures', 'real', 'trpc', 'packages', 'client', 'src', 'internals', 'signals.ts'),
    'utf8',
  );
  const own = await project({ ...files, 'src/internals/signals.ts': signals });
  await bootstrapKnowledge(own, {}, { actor: 'human' });
  const c = listCandidates(own).find((x) => /allAbortSignals/.test(x.title));
  assert.ok(c, titles(own).join('\n'));
  assert.match(c.title, /`allAbortSignals\(\)` and `raceAbortSignals\(\)`/);
  assert.ok(c.reasoning.sources[0].startsWith('src/internals/signals.ts:'), c.reasoning.sources.join(', '));
});

test('values of a type are the names declared with it, unless the file declares the same name with another type too (a type-adapter file: `LazilyParsedNumber value` in one method, `Number value` in others)', () => {
  const one =
    'class A {\n  void write(JsonWriter out, LazilyParsedNumber number) {\n    out.value(number.longValue());\n  }\n}\n';
  assert.deepEqual([...receiversOf(one, 'LazilyParsedNumber', 'java')], ['number']);
  const two =
    'class A {\n  void write(JsonWriter out, LazilyParsedNumber value) {\n    out.value(value);\n  }\n  void other(JsonWriter out, Number value) {\n    out.value(value.longValue());\n  }\n}\n';
  assert.deepEqual([...receiversOf(two, 'LazilyParsedNumber', 'java')], []);
  const kotlin =
    'fun a(lock: Lockable) {\n  lock.assertHeld()\n}\nfun b(config: Config) {\n  val lock = config.lock\n}\n';
  assert.deepEqual([...receiversOf(kotlin, 'Lockable', 'kotlin')], ['lock'], 'a name declared without a type stays');
});

test('CI steps: env and matrix values resolved, chains and multi-line blocks split, output pipes dropped; a workflow that does not parse still gives its one-line steps', () => {
  const wf =
    'env:\n  CARGO: cargo\njobs:\n  test:\n    strategy:\n      matrix:\n        os: [ubuntu, mac]\n    steps:\n    - run: ${{ env.CARGO }} test --verbose --workspace ${{ env.FLAGS }}\n      env:\n        FLAGS:\n    - run: |\n        set -o pipefail\n        server &\n        make check RUNNER=${{ matrix.os }} 2>&1 | tee log.txt\n    - run: deploy ${{ secrets.TOKEN }}\n';
  assert.deepEqual(
    workflowCommands('.github/workflows/ci.yml', wf).map((c) => [c.command, c.source, c.background ?? false]),
    [
      ['cargo test --workspace', '.github/workflows/ci.yml:9', false],
      ['server', '.github/workflows/ci.yml:14', true],
      ['make check RUNNER=ubuntu', '.github/workflows/ci.yml:15', false],
    ],
  );
  assert.deepEqual(
    workflowCommands('.github/workflows/bad.yml', 'jobs:\n  x:\n   steps:\n  - run: cargo fmt --check\n  bad: [\n').map(
      (c) => c.command,
    ),
    ['cargo fmt --check'],
  );
});

test('CI steps as a person types them: a CI expression with a default stays one value (`${{ matrix.extra-mvn-args || \'\' }}`), a one-word variable loses its quotes (`"${MSRV_FEATURES}"`)', () => {
  const wf =
    'env:\n  MSRV_FEATURES: "--all-features"\njobs:\n  build:\n    strategy:\n      matrix:\n        java: [17, 21]\n        include:\n          - java: 11\n            extra-mvn-args: -Denforcer.fail=false\n    steps:\n      - run: mvn verify javadoc:jar ${{ matrix.extra-mvn-args || \'\' }}\n  msrv:\n    steps:\n      - run: cargo test --locked "${MSRV_FEATURES}"\n';
  assert.deepEqual(workflowCommands('.github/workflows/build.yml', wf).map((c) => c.command), [
    'mvn verify javadoc:jar',
    'cargo test --locked --all-features',
  ]);
});

test("the tests CI runs: Maven's verify, not a build that skips them; tox behind `uv run`, not its typing environment; a fastlane test lane", () => {
  const gson =
    'jobs:\n  build:\n    steps:\n      - run: mvn verify javadoc:jar\n  repro:\n    steps:\n      - run: mvn clean verify artifact:compare -Dmaven.test.skip --projects gson\n';
  assert.deepEqual(
    ciCommand(workflowCommands('.github/workflows/build.yml', gson), 'test')?.command,
    'mvn verify javadoc:jar',
  );
  assert.equal(
    ciCommand(
      workflowCommands(
        '.github/workflows/build.yml',
        'jobs:\n  repro:\n    steps:\n      - run: mvn clean verify -Dmaven.test.skip\n',
      ),
      'test',
    ),
    undefined,
  );
  const flask =
    'jobs:\n  tests:\n    steps:\n      - run: uv run --locked --no-default-groups --group dev tox run -e typing\n      - run: uv run --locked --no-default-groups --group dev tox run\n';
  assert.equal(
    ciCommand(workflowCommands('.github/workflows/tests.yaml', flask), 'test')?.command,
    'uv run --locked --no-default-groups --group dev tox run',
  );
  const kf = 'jobs:\n  run-test:\n    steps:\n      - run: bundle install\n      - run: bundle exec fastlane test_ci\n';
  assert.equal(
    ciCommand(workflowCommands('.github/workflows/test.yaml', kf), 'test')?.command,
    'bundle exec fastlane test_ci',
  );
});

test('the checks CI runs that change nothing: rustfmt and Clippy, a `lint:check` script but not the lint that rewrites files, SwiftLint but not installing it, pre-commit behind uv', () => {
  const fd =
    'jobs:\n  fmt:\n    steps:\n      - run: cargo fmt -- --check\n  clippy:\n    steps:\n      - run: cargo clippy --all-targets --all-features -- -Dwarnings\n  msrv:\n    steps:\n      - run: cargo clippy --locked --all-targets\n      - run: cargo test --locked\n';
  assert.deepEqual(ciChecks(workflowCommands('.github/workflows/CICD.yml', fd)).map((c) => [c.command, c.source]), [
    ['cargo fmt -- --check', '.github/workflows/CICD.yml:4'],
    ['cargo clippy --all-targets --all-features -- -Dwarnings', '.github/workflows/CICD.yml:7'],
  ]);
  const zod = [
    { command: 'pnpm lint', text: 'lint: biome lint --write .', source: 'package.json:3', origin: 'package' as const },
    {
      command: 'pnpm lint:check',
      text: 'lint:check: biome lint .',
      source: 'package.json:4',
      origin: 'package' as const,
    },
    ...workflowCommands(
      '.github/workflows/test.yml',
      'jobs:\n  lint:\n    steps:\n      - run: pnpm lint\n      - run: pnpm lint:check\n      - run: pnpm test\n',
    ),
  ];
  assert.deepEqual(ciChecks(zod).map((c) => c.command), ['pnpm lint:check']);
  const nnw = 'jobs:\n  lint:\n    steps:\n      - run: brew install swiftlint\n      - run: swiftlint lint --strict\n';
  assert.deepEqual(ciChecks(workflowCommands('.github/workflows/ci.yml', nnw)).map((c) => c.command), [
    'swiftlint lint --strict',
  ]);
  const flask =
    'jobs:\n  main:\n    steps:\n      - run: uv run --locked --group pre-commit pre-commit run --all-files\n      - run: uv run --group dev tox run -e typing\n      - run: uv run --group dev tox run\n';
  assert.deepEqual(ciChecks(workflowCommands('.github/workflows/pre-commit.yaml', flask)).map((c) => c.command), [
    'uv run --locked --group pre-commit pre-commit run --all-files',
    'uv run --group dev tox run -e typing',
  ]);
  // A docs job: `cargo doc` is a check, typed with the flags that turn its warnings into errors (else it passes locally and fails in CI).
  const rg =
    "jobs:\n  docs:\n    steps:\n      - name: Check documentation\n        env:\n          RUSTDOCFLAGS: -D warnings\n        run: cargo doc --no-deps --workspace\n  build:\n    env:\n      RUSTFLAGS: -C debuginfo=0\n    steps:\n      - run: RUSTFLAGS='-Dwarnings' cargo clippy --workspace\n      - run: cargo build --workspace\n";
  assert.deepEqual(ciChecks(workflowCommands('.github/workflows/ci.yml', rg)).map((c) => c.command), [
    "RUSTDOCFLAGS='-D warnings' cargo doc --no-deps --workspace",
    "RUSTFLAGS='-Dwarnings' cargo clippy --workspace",
  ]);
  assert.equal(
    ciCommand(workflowCommands('.github/workflows/ci.yml', rg), 'build')?.command,
    'cargo build --workspace',
  );
  // The tool comes after leading assignments; a quoted argument that holds `=` is still unquoted.
  assert.deepEqual(commandWords("RUSTDOCFLAGS='-D warnings' cargo doc --workspace"), ['cargo', 'doc', '--workspace']);
  assert.deepEqual(commandWords('git log --grep "a=b" -- src'), ['git', 'log', '--grep', 'a=b', '--', 'src']);
});

test("CI steps no change has to pass are not CI's commands: a workflow run only on release tags, a job switched off with `if: false`, a step for a matrix value the matrix never takes; a project's test workflow before a special one (migrations, release)", () => {
  assert.deepEqual(
    workflowCommands(
      '.github/workflows/release.yml',
      'on:\n  push:\n    tags: ["v*"]\njobs:\n  mac:\n    steps:\n      - run: cargo test --release\n',
    ),
    [],
  );
  assert.equal(
    workflowCommands(
      '.github/workflows/ci.yml',
      'on:\n  push:\n    branches: [main]\n    tags: ["v*"]\njobs:\n  t:\n    steps:\n      - run: cargo test\n',
    ).length,
    1,
  );
  const wf =
    'on: [pull_request]\njobs:\n  windows:\n    if: false\n    steps:\n      - run: ./gradlew test -Pwin\n  android:\n    strategy:\n      matrix:\n        api-level: [26, 34]\n    steps:\n      - if: matrix.api-level == 30\n        run: ./gradlew testDemoDebugUnitTest\n      - if: ${{ matrix.api-level == 34 }}\n        run: ./gradlew connectedDemoDebugAndroidTest\n';
  assert.deepEqual(workflowCommands('.github/workflows/build.yml', wf).map((c) => c.command), [
    './gradlew connectedDemoDebugAndroidTest',
  ]);
  const saleor = [
    ...workflowCommands(
      '.github/workflows/test-migrations-compatibility.yml',
      'jobs:\n  m:\n    steps:\n      - run: uv run pytest -n 0 --reuse-db\n',
    ),
    ...workflowCommands(
      '.github/workflows/tests.yaml',
      'jobs:\n  t:\n    steps:\n      - run: uv run pytest -m "not e2e" -n logical\n',
    ),
  ];
  assert.equal(ciCommand(saleor, 'test')?.command, 'uv run pytest -m "not e2e" -n logical');
  // CI's report files are not part of running the tests; a cross-compilation is not the build.
  const reports = workflowCommands(
    '.github/workflows/ci.yml',
    'jobs:\n  t:\n    steps:\n      - run: uv run pytest -m "not e2e" --junitxml=junit/test-results.xml -o junit_family=legacy -n logical\n      - run: cargo build --target=x86_64-apple-darwin\n',
  );
  assert.equal(reports[0].command, 'uv run pytest -m "not e2e" -n logical');
  assert.equal(ciCommand(reports, 'build'), undefined);
  // A command continued over lines is cited at its own first line, not the line before it.
  const continued = workflowCommands(
    '.github/workflows/tests.yaml',
    'jobs:\n  t:\n    steps:\n      - run: |\n          uv sync --locked\n          uv run pytest \\\n            -m "not e2e" \\\n            -n logical\n',
  );
  assert.deepEqual(continued.map((c) => [c.command, c.source]), [
    ['uv sync --locked', '.github/workflows/tests.yaml:5'],
    ['uv run pytest -m "not e2e" -n logical', '.github/workflows/tests.yaml:6'],
  ]);
  const zod = [
    ...workflowCommands(
      '.github/workflows/release.yml',
      'on:\n  push:\n    branches: [main]\njobs:\n  r:\n    steps:\n      - run: pnpm lint:check\n',
    ),
    ...workflowCommands('.github/workflows/test.yml', 'jobs:\n  lint:\n    steps:\n      - run: pnpm lint:check\n'),
  ];
  assert.deepEqual(ciChecks(zod).map((c) => c.source), ['.github/workflows/test.yml:4']);
});

test('CI steps of GitLab CI and CircleCI: jobs with their variables, default before_script, parallel matrix; templates and parameters left out', () => {
  const gl = [
    'variables:',
    '  PIP_CACHE_DIR: .cache',
    '  TOX: tox',
    'default:',
    '  before_script:',
    '    - pip install -e .[dev]',
    'stages: [test]',
    '.template:',
    '  script: [echo hidden]',
    'lint:',
    '  script:',
    '    - ruff check src && $TOX -e lint',
    'test:',
    '  parallel:',
    '    matrix:',
    '      - PY: ["3.12", "3.11"]',
    '        OS: linux',
    '  before_script: []',
    '  script:',
    '    - python$PY -m pytest tests --os ${OS}',
    '    - deploy $CI_JOB_TOKEN',
  ].join('\n');
  assert.deepEqual(gitlabCommands('.gitlab-ci.yml', gl).map((c) => [c.command, c.source, c.job]), [
    ['pip install -e .[dev]', '.gitlab-ci.yml:6', '.gitlab-ci.yml#lint'],
    ['ruff check src', '.gitlab-ci.yml:12', '.gitlab-ci.yml#lint'],
    ['tox -e lint', '.gitlab-ci.yml:12', '.gitlab-ci.yml#lint'],
    ['python3.12 -m pytest tests --os linux', '.gitlab-ci.yml:20', '.gitlab-ci.yml#test'],
  ]);
  const circle = [
    'version: 2.1',
    'jobs:',
    '  build:',
    '    docker: [{ image: cimg/go:1.22 }]',
    '    environment:',
    '      GOFLAGS: -mod=mod',
    '    steps:',
    '      - checkout',
    '      - run: go build ./...',
    '      - run:',
    '          name: Tests',
    '          command: |',
    '            go test $GOFLAGS ./...',
    '            go vet << parameters.pkg >>',
  ].join('\n');
  assert.deepEqual(circleCommands('.circleci/config.yml', circle).map((c) => [c.command, c.source]), [
    ['go build ./...', '.circleci/config.yml:9'],
    ['go test -mod=mod ./...', '.circleci/config.yml:13'],
  ]);
  assert.equal(
    ciCommand(gitlabCommands('.gitlab-ci.yml', gl), 'test')?.command,
    'python3.12 -m pytest tests --os linux',
    'python -m pytest is the tests; tox -e lint is not',
  );
  assert.equal(ciCommand(circleCommands('.circleci/config.yml', circle), 'test')?.command, 'go test -mod=mod ./...');
});

test('GitLab CI of a real project (wayland): scripts inherited through extends, ${X:-default} as a person runs it, lines of the shared template', () => {
  const text = readFileSync(path.join(__dirname, '..', 'fixtures', 'real', 'wayland', 'gitlab-ci.yml'), 'utf8');
  const commands = gitlabCommands('.gitlab-ci.yml', text);
  const test = ciCommand(commands, 'test');
  assert.equal(test?.command, 'meson test --num-processes 4');
  assert.equal(test?.source, '.gitlab-ci.yml:229');
  // Every job that extends .do-build runs it, each pointing at the template's line.
  const runs = commands.filter((c) => c.command === 'meson test --num-processes 4');
  assert.equal(runs.length, 6);
  assert.deepEqual([...new Set(runs.map((c) => c.source))], ['.gitlab-ci.yml:229']);
  assert.ok(!commands.some((c) => c.job?.includes('#.')), 'hidden templates are not jobs');
});

test('a state mechanism used by a few framework-adapter files of a large code base is not how the project shares state (React context in 4 of 161 modules)', async () => {
  const context: Record<string, string> = {};
  for (let i = 0; i < 4; i++) {
    context[`src/react/ctx${i}.tsx`] =
      `import * as React from 'react';\nconst C${i} = React.createContext(null);\nexport function useC${i}() {\n  return React.useContext(C${i});\n}\n`;
  }
  const rest: Record<string, string> = {};
  for (let i = 0; i < 96; i++) {
    rest[`src/core/mod${i}.ts`] = `export function work${i}(n: number): number {\n  return n * ${i + 1};\n}\n`;
  }
  const ws = await project({ ...context, ...rest });
  await bootstrapKnowledge(ws, {}, { actor: 'human' });
  assert.ok(!titles(ws).some((t) => /React context/.test(t)), titles(ws).join('\n'));
});

test('generated files: a few small shims a setup tool wrote once (bin/intent.js) are not worth a candidate; a header that says DO NOT EDIT is', async () => {
  const shim =
    '#!/usr/bin/env node\n// Auto-generated by @tanstack/intent setup\n// Exposes the intent end-user CLI for consumers of this library.\ntry {\n  await import("@tanstack/intent/intent-library");\n} catch (e) {\n  throw e;\n}\n';
  const base: Record<string, string> = { 'packages/core/src/index.ts': 'export const one = 1;\n' };
  for (const p of ['client', 'server', 'next']) base[`packages/${p}/bin/intent.js`] = shim;
  const shims = await project(base);
  await bootstrapKnowledge(shims, {}, { actor: 'human' });
  assert.ok(!titles(shims).some((t) => /Generated files/.test(t)), titles(shims).join('\n'));
  // Database migrations are generated once, then the project's own (an AGENTS.md that says to hand-write them).
  const django: Record<string, string> = { ...base };
  for (let i = 1; i <= 4; i++) {
    django[`shop/orders/migrations/000${i}_auto.py`] =
      `# Generated by Django 4.2 on 2024-01-0${i} 10:00\n\nfrom django.db import migrations, models\n\n\nclass Migration(migrations.Migration):\n${
        '    operations = []\n'.repeat(60)
      }`;
  }
  const migrations = await project(django);
  await bootstrapKnowledge(migrations, {}, { actor: 'human' });
  assert.ok(!titles(migrations).some((t) => /Generated files/.test(t)), titles(migrations).join('\n'));
  const regenerated = await project({
    ...base,
    'packages/core/src/api-types.ts':
      '// Code generated by openapi-typescript. DO NOT EDIT.\nexport interface User {\n  id: string;\n}\n',
  });
  await bootstrapKnowledge(regenerated, {}, { actor: 'human' });
  assert.ok(
    titles(regenerated).some((t) => /Generated files are not edited by hand/.test(t)),
    titles(regenerated).join('\n'),
  );
});

test('a tool configuration the project tracks despite its .gitignore (which ignores `.*`) still counts: the ruff-format hook enforces formatting', async () => {
  const files: Record<string, string> = {
    '.gitignore': '*.py[cod]\n.*\n!.github\n!.gitignore\n',
    '.pre-commit-config.yaml':
      'repos:\n  - repo: https://github.com/astral-sh/ruff-pre-commit\n    rev: v0.12.11\n    hooks:\n      - id: ruff\n        args: [--fix]\n      - id: ruff-format\n',
    'pyproject.toml': '[project]\nname = "shop"\nrequires-python = ">=3.12"\n\n[tool.ruff]\nline-length = 88\n',
  };
  for (let i = 0; i < 6; i++) files[`shop/mod${i}.py`] = `def work${i}(n):\n    return n * ${i + 1}\n`;
  const ws = await project(files);
  await bootstrapKnowledge(ws, {}, { actor: 'human' });
  const ruff = listCandidates(ws).find((c) => /formatting is enforced by ruff/.test(c.title));
  assert.ok(ruff, titles(ws).join('\n'));
  assert.match(ruff.title, /run `ruff format`/);
  assert.match(ruff.summary, /a git hook runs `ruff format`/);
});

test('crate-level Clippy lints fail `cargo clippy`, not the build; rustc lints fail the build', async () => {
  const lints = async (header: string) => {
    const files: Record<string, string> = {
      'Cargo.toml': '[package]\nname = "term"\nversion = "0.1.0"\n',
      'src/main.rs': `${header}\n\nfn main() {}\n`,
    };
    for (let i = 0; i < 3; i++) files[`src/part${i}.rs`] = `pub fn run${i}(n: u32) -> u32 {\n    n + ${i}\n}\n`;
    const ws = await project(files);
    await bootstrapKnowledge(ws, {}, { actor: 'human' });
    return listCandidates(ws).find((c) => /Crate-level lints/.test(c.title))?.summary ?? titles(ws).join('\n');
  };
  assert.match(
    await lints('#![deny(clippy::all, clippy::if_not_else, clippy::enum_glob_use)]'),
    /fails `cargo clippy`$|fails `cargo clippy`\.$/,
  );
  assert.match(await lints('#![forbid(unsafe_code)]'), /does not compile\.$/);
});

test("profile commands as the project names them (applications): the script named build over build-node, `make test` that runs its parts, no formatter read from a build script's code, no `swift build` without a root Package.swift, a CI step in a subfolder is not the project's tests, the primary language's version", async () => {
  const profileOf = async (files: Record<string, string>) => {
    const ws = await project(files);
    await bootstrapKnowledge(ws, {}, { actor: 'human' });
    const p = listCandidates(ws).find((c) => c.origin === 'bootstrap:project-profile');
    assert.ok(p, titles(ws).join('\n'));
    return p.rationale ?? '';
  };
  // A web app's shape: build-node listed before build; an esbuild script with `format: "esm"`.
  const web: Record<string, string> = {
    'package.json': JSON.stringify(
      {
        name: 'whiteboard',
        private: true,
        scripts: { 'build-node': 'node ./scripts/build-node.js', build: 'vite build', test: 'vitest' },
      },
      null,
      2,
    ),
    'scripts/buildBase.js': 'export const config = {\n  bundle: true,\n  format: "esm",\n  target: "es2020",\n};\n',
  };
  for (let i = 0; i < 4; i++) {
    web[`src/part${i}.ts`] = `export function part${i}(n: number): number {\n  return n + ${i};\n}\n`;
  }
  const w = await profileOf(web);
  assert.match(w, /Build: `npm run build`/);
  assert.ok(!/buildBase|Format:/.test(w), w);
  // Two shapes: Go first, `test: test-js test-go`; Python first, Node engines too, a semgrep job in .semgrep.
  const svc: Record<string, string> = {
    'go.mod': 'module example.org/photos\n\ngo 1.22.0\n',
    'Makefile': 'test: test-js test-go\ntest-js:\n\tcd frontend && npm test\ntest-go:\n\tgo test ./...\n',
    'pyproject.toml': '[project]\nname = "tools"\nrequires-python = ">=3.12"\n',
    'package.json': JSON.stringify({ name: 'photos-frontend', private: true, engines: { node: '>=20 <22' } }),
    '.github/workflows/semgrep.yml':
      'name: semgrep\non: [push]\njobs:\n  rules:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - name: Test rules\n        working-directory: .semgrep\n        run: make check-rules\n',
  };
  for (let i = 0; i < 6; i++) {
    svc[`internal/part${i}/part.go`] = `package part${i}\n\nfunc Run(n int) int {\n\treturn n + ${i}\n}\n`;
  }
  const g = await profileOf(svc);
  assert.match(g, /Test: `make test`/);
  assert.ok(!/check-rules/.test(g), g);
  const py: Record<string, string> = {
    'pyproject.toml':
      '[project]\nname = "shop"\nrequires-python = ">=3.12"\ndependencies = ["django>=5"]\n\n[dependency-groups]\ndev = ["pytest>=8"]\n',
    'package.json': JSON.stringify({ name: 'shop', private: true, engines: { node: '>=20 <22' } }),
    '.github/workflows/test-semgrep-rules.yml':
      'name: semgrep rules\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - name: Test rules\n        working-directory: .semgrep\n        run: make test\n',
  };
  for (let i = 0; i < 6; i++) py[`shop/mod${i}.py`] = `def work${i}(n):\n    return n * ${i + 1}\n`;
  const p = await profileOf(py);
  assert.match(p, /Language version: Python >=3\.12/);
  assert.ok(!/make test/.test(p), p);
  // A Swift app's shape: Swift packages under Modules/, an Xcode project at the root.
  const mac: Record<string, string> = {
    'Modules/Core/Package.swift':
      '// swift-tools-version:5.9\nimport PackageDescription\n\nlet package = Package(\n  name: "Core",\n  targets: [.target(name: "Core")]\n)\n',
  };
  for (let i = 0; i < 4; i++) {
    mac[`Modules/Core/Sources/Core/Part${i}.swift`] = `public func part${i}(_ n: Int) -> Int {\n    n + ${i}\n}\n`;
  }
  assert.ok(!/`swift build`/.test(await profileOf(mac)));
});

test("the profile gives the commands an agent instructions file lists, with their line, not templates to fill in (AGENTS.md: spotlessApply, not assemble{Variant}); CI's concrete test task beside them", async () => {
  const files: Record<string, string> = {
    'settings.gradle.kts': 'rootProject.name = "nia"\ninclude(":app")\n',
    'gradlew': '#!/bin/sh\n',
    'app/build.gradle.kts': 'plugins {\n    alias(libs.plugins.nowinandroid.android.application)\n}\n',
    'AGENTS.md':
      '# Agents\n\n## Commands\n\n- Build: `./gradlew assemble{Variant}`. Typically `assembleDemoDebug`.\n- Fix linting/formatting: `./gradlew spotlessApply`\n- Run local tests: `./gradlew {variant}Test`\n- Use `ComposeTestRule` in UI tests.\n',
    '.github/workflows/Build.yaml':
      'jobs:\n  test:\n    steps:\n      - run: ./gradlew spotlessCheck --no-configuration-cache\n      - run: ./gradlew testDemoDebug\n',
  };
  for (let i = 0; i < 4; i++) {
    files[`app/src/main/kotlin/com/example/nia/Part${i}.kt`] =
      `package com.example.nia\n\nfun part${i}(n: Int): Int = n + ${i}\n`;
  }
  const p = await profileCandidate(files);
  assert.match(
    p.rationale ?? '',
    /^- AGENTS\.md gives: Fix linting\/formatting `\.\/gradlew spotlessApply` \(AGENTS\.md:6\)$/m,
  );
  assert.ok(
    !/\{variant\}|ComposeTestRule`? \(/i.test(p.rationale ?? ''),
    'a template or a class name is not a command',
  );
  assert.match(
    p.rationale ?? '',
    /^- CI tests with `\.\/gradlew testDemoDebug` \(\.github\/workflows\/Build\.yaml:5\)$/m,
  );
  assert.match(
    p.summary,
    /Commands from AGENTS\.md: `\.\/gradlew spotlessApply`\. CI tests with `\.\/gradlew testDemoDebug` and checks `\.\/gradlew spotlessCheck --no-configuration-cache`\.$/,
  );
});

test('agent files list commands either way round (a command in backticks, then what it does) and in fenced shell blocks, labelled by the comment above; a summary leads with the test, the build and a check', async () => {
  const files: Record<string, string> = {
    // The scripts the guide names exist: a documented command counts only when the repository defines what it runs.
    'package.json': JSON.stringify({
      name: 'img',
      private: true,
      scripts: { lint: 'eslint .', dev: 'vite', test: 'vitest run', build: 'vite build', release: 'release-it' },
    }),
    'AGENTS.md':
      '# Guide\n\n## Commands\n- `npm run lint`: run the lint checks.\n- `npm run dev` - start the dev server\n\n### Tests\n```bash\n# Install dependencies\nnpm ci\n\n# Run all tests\nnpm test\nnpm run build # the bundle\nnpm run release -- --version X.X.X\n```\n',
  };
  for (let i = 0; i < 3; i++) {
    files[`src/part${i}.ts`] = `export function part${i}(n: number): number {\n  return n + ${i};\n}\n`;
  }
  const p = await profileCandidate(files);
  assert.match(
    p.rationale ?? '',
    /^- AGENTS\.md gives: run the lint checks `npm run lint` \(AGENTS\.md:4\); start the dev server `npm run dev` \(AGENTS\.md:5\); Install dependencies `npm ci` \(AGENTS\.md:10\); Run all tests `npm test` \(AGENTS\.md:13\); Run all tests `npm run build` \(AGENTS\.md:14\)$/m,
  );
  assert.match(p.summary, /Commands from AGENTS\.md: `npm test`, `npm run build`, `npm run lint`\.$/);
});

test("profile commands: a line of a packaging script is no formatter (create-deb.sh writes `Format:`), a pre-commit hook id is no command (check-merge-conflict), and the project's own lint that CI does not run gives way to what CI checks (make lint runs golint, CI golangci-lint)", async () => {
  const files: Record<string, string> = {
    'go.mod': 'module example.org/web\n\ngo 1.22\n',
    'Makefile': 'test:\n\tgo test ./...\nlint:\n\tgolint ./...\n',
    'scripts/create-deb.sh':
      '#!/bin/bash\ncat > copyright <<EOF\nFormat: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\nEOF\n',
    '.pre-commit-config.yaml':
      'repos:\n  - repo: https://github.com/pre-commit/pre-commit-hooks\n    hooks:\n      - id: check-merge-conflict\n',
    '.github/workflows/ci.yml':
      'jobs:\n  lint:\n    steps:\n      - uses: golangci/golangci-lint-action@v8\n  test:\n    steps:\n      - run: make test\n',
  };
  for (let i = 0; i < 4; i++) files[`part${i}.go`] = `package web\n\nfunc Run${i}(n int) int {\n\treturn n + ${i}\n}\n`;
  const p = await profileCandidate(files);
  assert.ok(
    !/create-deb|check-merge-conflict|make lint|Format:|Check:/.test(`${p.summary}\n${p.rationale}`),
    p.rationale,
  );
  assert.match(p.rationale ?? '', /^- Test: `make test`$/m);
  assert.match(
    p.rationale ?? '',
    /^- CI checks \(a change must pass them\): `golangci-lint run` \(\.github\/workflows\/ci\.yml:4\)$/m,
  );
  assert.match(p.summary, /CI checks `golangci-lint run`\.$/);
});

test("the profile's stack: what the product's files import, not a scratch script beside it (an .mjs using esbuild), and a library only a small target uses is named with it (Guava in a proto module); the Swift tools version a current toolchain reads and how far back the other manifests go (5.9, down to 5.1; 6.3, down to 6.0, in the Swift 5 mode)", async () => {
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'root', private: true, workspaces: ['packages/*'] }),
    'packages/core/package.json': JSON.stringify({ name: 'core', version: '1.0.0', main: 'index.js' }),
    'packages/react/package.json': JSON.stringify({
      name: 'core-react',
      version: '1.0.0',
      main: 'index.js',
      dependencies: { core: '1.0.0' },
      peerDependencies: { react: '18' },
    }),
    'mm.mjs': "import * as esbuild from 'esbuild';\nawait esbuild.build({ entryPoints: ['a.ts'] });\n",
    'packages/react/src/hook.tsx':
      "import React from 'react';\nexport function useCore() {\n  return React.useState(0);\n}\n",
  };
  for (let i = 0; i < 6; i++) {
    files[`packages/core/src/part${i}.ts`] = `export function part${i}(n: number): number {\n  return n + ${i};\n}\n`;
  }
  const p = await profileCandidate(files);
  assert.match(p.rationale ?? '', /^- Frameworks and libraries: React \(in core-react\)$/m);
  assert.doesNotMatch(p.summary, /esbuild|Uses React/);

  const swift: Record<string, string> = {
    'Package.swift':
      '// swift-tools-version:5.1\nimport PackageDescription\n\nlet package = Package(name: "Img", targets: [.target(name: "Img", path: "Sources")])\n',
    'Package@swift-5.9.swift':
      '// swift-tools-version:5.9\nimport PackageDescription\n\nlet package = Package(name: "Img", targets: [.target(name: "Img", path: "Sources")])\n',
    'fastlane/actions/bump.rb':
      'module Fastlane\n  module Actions\n    class BumpAction < Action\n      def self.run(params)\n        puts params\n      end\n    end\n  end\nend\n',
    'Gemfile': "source 'https://rubygems.org'\ngem 'fastlane'\n",
  };
  for (let i = 0; i < 4; i++) {
    swift[`Sources/Part${i}.swift`] = `public func part${i}(_ n: Int) -> Int {\n    n + ${i}\n}\n`;
  }
  const s2 = await profileCandidate(swift);
  assert.match(
    s2.rationale ?? '',
    /^- Language version: swift-tools-version 5\.9 \(Package@swift-5\.9\.swift\), down to 5\.1 for older toolchains \(Package\.swift\) \(Package@swift-5\.9\.swift:1\)$/m,
  );
  const s3 = await profileCandidate({
    ...swift,
    'Package.swift':
      '// swift-tools-version: 6.3\nimport PackageDescription\n\nlet package = Package(name: "Img", targets: [.target(name: "Img", path: "Sources")], swiftLanguageModes: [.v5])\n',
    'Package@swift-5.9.swift':
      '// swift-tools-version: 6.0\nimport PackageDescription\n\nlet package = Package(name: "Img", targets: [.target(name: "Img", path: "Sources")])\n',
  });
  assert.match(
    s3.rationale ?? '',
    /^- Language version: swift-tools-version 6\.3 \(Package\.swift\), down to 6\.0 for older toolchains \(Package@swift-5\.9\.swift\); Swift 5 language mode \(Package\.swift:1\)$/m,
  );
  assert.match(s2.summary, /^swift 100 %;/, "fastlane's Ruby is build tooling, not production code");
});

test('the profile counts what it can show: a manifest with no code of its own is no product (a release-it package.json), no framework is used by more test files than there are (53 of 52), and a check too long to say whole stays in the details', async () => {
  const files: Record<string, string> = {
    'pyproject.toml':
      '[project]\nname = "shop"\nrequires-python = ">=3.12"\ndependencies = ["django>=5"]\n\n[dependency-groups]\ndev = ["pytest>=8"]\n',
    'package.json': JSON.stringify({ name: 'shop-release', private: true, scripts: { release: 'release-it' } }),
    'tests/test_orders.py': 'import pytest\n\n\ndef test_total():\n    assert 1 + 1 == 2\n',
    'tests/test_models.py':
      'import unittest\n\n\nclass ModelTest(unittest.TestCase):\n    def test_name(self):\n        self.assertEqual("a", "a")\n',
    'tests/conftest.py': 'import pytest\n\n\n@pytest.fixture\ndef client():\n    return object()\n',
    'tests/helpers.py': 'import pytest\n\n\ndef skip_slow():\n    return pytest.mark.skip\n',
    '.github/workflows/lint.yml':
      'jobs:\n  lint:\n    steps:\n      - run: uv run --locked --no-default-groups --group lint pre-commit run --show-diff-on-failure --all-files\n',
  };
  for (let i = 0; i < 6; i++) {
    files[`shop/mod${i}.py`] = `import django\n\n\ndef work${i}(n):\n    return n * ${i + 1}\n`;
  }
  const p = await profileCandidate(files);
  assert.match(p.rationale ?? '', /^- Targets: (python:)?shop \(\w+\)$/m);
  assert.match(p.summary, /; 1 python target\./);
  assert.match(
    p.rationale ?? '',
    /^- Tests: pytest, 2 test files \(of the scanned test files, 1 use pytest; also unittest in 1\)$/m,
  );
  assert.match(
    p.rationale ?? '',
    /^- CI checks \(a change must pass them\): `uv run --locked --no-default-groups --group lint pre-commit run --show-diff-on-failure --all-files`/m,
  );
  assert.ok(!p.summary.includes('…'), p.summary);
});

test("compiler strictness is what the root tsconfig gets through `extends` (.configs/tsconfig.base.json), never a docs site's own config", async () => {
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'schema', private: true }),
    'tsconfig.json': '{\n  "extends": "./.configs/tsconfig.base",\n  "compilerOptions": { "module": "nodenext" }\n}\n',
    '.configs/tsconfig.base.json':
      '{\n  "compilerOptions": {\n    "target": "es2020",\n    "strict": true,\n    "exactOptionalPropertyTypes": true,\n    "noUnusedLocals": true\n  }\n}\n',
    'docs/tsconfig.json': '{\n  "compilerOptions": {\n    "strict": true\n  }\n}\n',
  };
  for (let i = 0; i < 3; i++) {
    files[`src/part${i}.ts`] = `export function part${i}(n: number): number {\n  return n + ${i};\n}\n`;
  }
  const c = await candidateIn(files, (x) => /TypeScript compiles in strict mode/.test(x.title));
  assert.equal(c.title, 'TypeScript compiles in strict mode (strict, exactOptionalPropertyTypes and noUnusedLocals)');
  assert.match(
    c.summary,
    /^tsconfig\.json, through \.configs\/tsconfig\.base\.json, turns on strict, exactOptionalPropertyTypes, noUnusedLocals: new code must type-check under them/,
  );
  assert.deepEqual(c.reasoning.sources, [
    '.configs/tsconfig.base.json:4',
    '.configs/tsconfig.base.json:5',
    '.configs/tsconfig.base.json:6',
  ]);

  // `strict` alone is how most projects compile: not worth a card (it was rejected as trivial).
  const plain = await project({
    ...files,
    '.configs/tsconfig.base.json': '{\n  "compilerOptions": {\n    "strict": true\n  }\n}\n',
  });
  await bootstrapKnowledge(plain, {}, { actor: 'human' });
  assert.ok(!titles(plain).some((t) => /strict mode/.test(t)), titles(plain).join('\n'));
});

test('the profile says an Xcode app extension is one (a widget was listed as a third app)', async () => {
  const id = (n: number) => n.toString(16).toUpperCase().padStart(24, '0');
  const native = (n: number, name: string, type: string) =>
    `\t\t${
      id(n)
    } /* ${name} */ = {\n\t\t\tisa = PBXNativeTarget;\n\t\t\tname = "${name}";\n\t\t\tproductType = "com.apple.product-type.${type}";\n\t\t};`;
  const files: Record<string, string> = {
    'Reader.xcodeproj/project.pbxproj': [
      '// !$*UTF8*$!',
      '{',
      '\tobjects = {',
      native(1, 'Reader', 'application'),
      native(2, 'Reader Widget Extension', 'app-extension'),
      '\t};',
      '}',
    ].join('\n'),
  };
  for (let i = 0; i < 4; i++) files[`Reader/Part${i}.swift`] = `func part${i}(_ n: Int) -> Int {\n    n + ${i}\n}\n`;
  const p = await profileCandidate(files);
  assert.match(p.rationale ?? '', /^- Targets: .*Reader Widget Extension \(app extension\)/m);
  assert.match(p.rationale ?? '', /^- Targets: .*Reader \(app\)/m);
});

test('sourcehut build manifests are CI (.builds/linux.yml runs cargo fmt --check)', async () => {
  const files: Record<string, string> = {
    'Cargo.toml': '[package]\nname = "term"\nversion = "0.1.0"\n',
    'rustfmt.toml': 'max_width = 100\n',
    '.builds/linux.yml':
      'image: archlinux\npackages:\n  - rustup\nsources:\n  - https://github.com/alacritty/alacritty\ntasks:\n  - rustup: |\n      rustup toolchain install nightly -c rustfmt\n  - test: |\n      cd alacritty\n      cargo test\n  - rustfmt: |\n      cd alacritty\n      cargo +nightly fmt -- --check\n',
  };
  for (let i = 0; i < 4; i++) files[`src/part${i}.rs`] = `pub fn run${i}(n: u32) -> u32 {\n    n + ${i}\n}\n`;
  const ws = await project(files);
  await bootstrapKnowledge(ws, {}, { actor: 'human' });
  const fmt = listCandidates(ws).find((c) => /formatting is enforced by rustfmt/.test(c.title));
  assert.ok(fmt, titles(ws).join('\n'));
  assert.match(fmt.summary, /CI checks with `cargo \+nightly fmt -- --check`/);
});

test('files named in a title by their shortest distinct tails (two models.py are discount/models.py and order/models.py)', () => {
  assert.deepEqual(distinctTails(['saleor/core/db/locks.py', 'saleor/discount/models.py', 'saleor/order/models.py']), [
    'locks.py',
    'discount/models.py',
    'order/models.py',
  ]);
  assert.deepEqual(distinctTails(['a/x/index.ts', 'b/x/index.ts', 'c/util.ts']), [
    'a/x/index.ts',
    'b/x/index.ts',
    'util.ts',
  ]);
  assert.deepEqual(distinctTails(['src/a.ts']), ['a.ts']);
  // Only the shown ones are named, distinct among them all.
  assert.deepEqual(distinctTails(['a/x/index.ts'], ['a/x/index.ts', 'b/x/index.ts', 'c/util.ts']), ['a/x/index.ts']);
});

test('a source file with inline data that looks minified (an SVG logo, a base64 font) is not a generated file to keep hands off', async () => {
  const path = `M${Array.from({ length: 300 }, (_, i) => `${i},${(i * 7) % 13}`).join('L')}Z`;
  const files: Record<string, string> = {
    'packages/app/src/index.ts': 'export const one = 1;\n',
    'packages/app/src/components/Logo.tsx':
      `export const Logo = () => (\n<svg viewBox="0 0 40 40"><path d="${path}"/></svg>);\n`,
  };
  for (let f = 0; f < 3; f++) {
    files[`packages/app/src/icons/set${f}.ts`] =
      Array.from({ length: 90 }, (_, i) => `export const i${i} = "data:image/png;base64,${'QUJDRA'.repeat(100)}";`)
        .join('\n') + '\n';
  }
  for (let i = 0; i < 3; i++) {
    files[`packages/app/src/part${i}.ts`] = `export function part${i}(n: number): number {\n  return n + ${i};\n}\n`;
  }
  const ws = await project(files);
  await bootstrapKnowledge(ws, {}, { actor: 'human' });
  assert.ok(!titles(ws).some((t) => /Generated files/.test(t)), titles(ws).join('\n'));
});

test("Rust: a project's own output macros lead the logging candidate (message!/err_message!), the logger share follows", async () => {
  const files: Record<string, string> = {
    'Cargo.toml': '[package]\nname = "tool"\nversion = "0.1.0"\n',
    'src/messages.rs':
      'macro_rules! message {\n    ($($tt:tt)*) => {\n        eprintln!("rg: {}", format_args!($($tt)*));\n    }\n}\n\nmacro_rules! err_message {\n    ($($tt:tt)*) => {\n        crate::messages::set_errored();\n        message!($($tt)*);\n    }\n}\n',
  };
  for (let i = 0; i < 3; i++) {
    files[`src/part${i}.rs`] =
      `pub fn run${i}(n: u32) {\n    log::debug!("starting {}", n);\n    log::trace!("step {}", n);\n}\n`;
  }
  const ws = await project(files);
  await bootstrapKnowledge(ws, {}, { actor: 'human' });
  const c = listCandidates(ws).find((x) => x.category === 'logging');
  assert.ok(c, titles(ws).join('\n'));
  assert.equal(c.title, 'Rust output for the user goes through `message!` and `err_message!`, logs through a logger');
  assert.match(
    c.summary,
    /^Output for the user goes through `message!` and `err_message!` \(src\/messages\.rs\), not println!; 6 of 7 log calls \(86 %\) in 3 files go through a logger\.$/,
  );
  assert.ok(c.reasoning.sources[0].startsWith('src/messages.rs:'), c.reasoning.sources.join(', '));
});

test('environment variables named by a function of the project (configEnvVar) are read through it: the boundary candidate says so', async () => {
  const files: Record<string, string> = {
    'go.mod': 'module example.com/tool\n\ngo 1.21\n',
    'env.go':
      'package tool\n\nimport "os"\n\nfunc configEnvVar(name, suffix string) string {\n\treturn name + "_" + suffix\n}\n\nfunc getEnvConfig(name, suffix string) string {\n\tv := os.Getenv(configEnvVar(name, suffix))\n\tif v == "" {\n\t\tv = os.Getenv(configEnvVar("TOOL", suffix))\n\t}\n\treturn v\n}\n',
    'debug.go': 'package tool\n\nimport "os"\n\nfunc debugFile() string {\n\treturn os.Getenv("TOOL_DEBUG_FILE")\n}\n',
  };
  for (let i = 0; i < 10; i++) {
    files[`part${i}.go`] = `package tool\n\nfunc Part${i}(n int) int {\n\treturn n * ${i + 2}\n}\n`;
  }
  const ws = await project(files);
  await bootstrapKnowledge(ws, {}, { actor: 'human' });
  const c = listCandidates(ws).find((x) => /^Environment variables are read only in/.test(x.title));
  assert.ok(c, titles(ws).join('\n'));
  assert.match(
    c.summary,
    /the project's own settings are named by `configEnvVar\(\)`\. Read new ones there and name them with it, not as literals\./,
  );
});

test("a helper's purpose is in its title only whole: a doc comment that does not fit is left out, not cut (a Settings class)", async () => {
  const long =
    '/**\n * Settings describe characteristics of the sending peer, which are used by the receiving peer to tune its flow control windows and frame sizes.\n */\n';
  const helper = (doc: string) =>
    `${doc}export function tuneWindow(\n  size: number,\n  peer: number,\n): number {\n  return Math.min(size, peer) * 2;\n}\n`;
  const users = Object.fromEntries(
    Array.from(
      { length: 5 },
      (
        _,
        i,
      ) => [
        `src/view${i}/render.ts`,
        `import { tuneWindow } from '../util/window';\nexport const w${i} = (a: number) => tuneWindow(a, ${i + 4});\n`,
      ],
    ),
  );
  const ws = await project({ 'src/util/window.ts': helper(long), ...users });
  await bootstrapKnowledge(ws, {}, { actor: 'human' });
  const t = titles(ws).find((x) => /tuneWindow/.test(x));
  assert.ok(t?.endsWith('| Reuse the internal `tuneWindow()` from src/util/window.ts'), t);
  const short = await project({
    'src/util/window.ts': helper('/** Doubles the smaller of two window sizes. */\n'),
    ...users,
  });
  await bootstrapKnowledge(short, {}, { actor: 'human' });
  assert.ok(
    titles(short).some((x) =>
      x.endsWith('| Reuse the internal `tuneWindow()`: doubles the smaller of two window sizes')
    ),
    titles(short).join('\n'),
  );
});

test('a settings or config type is not a helper to reuse (UiConfig, a Font "font config", a Settings class); a wrapper type is', async () => {
  const type = (name: string, doc: string) =>
    `/** ${doc} */\nexport class ${name} {\n  constructor(private readonly value: number) {}\n  read(): number {\n    return this.value;\n  }\n  write(next: number): ${name} {\n    return new ${name}(next);\n  }\n}\n`;
  const files: Record<string, string> = {
    'src/config/ui.ts': type('UiConfig', 'The root configuration of the user interface.'),
    'src/config/font.ts': type('Font', 'Font config.'),
    'src/sync/protected.ts': type('Protected', 'A thread-safe wrapper around a value.'),
  };
  for (let i = 0; i < 5; i++) {
    files[`src/view${i}/render.ts`] =
      `import { UiConfig } from '../config/ui';\nimport { Font } from '../config/font';\nimport { Protected } from '../sync/protected';\nexport const v${i} = (c: UiConfig, f: Font, p: Protected) => c.read() + f.read() + p.read() + ${i};\n`;
  }
  const ws = await project(files);
  await bootstrapKnowledge(ws, {}, { actor: 'human' });
  const t = titles(ws);
  assert.ok(t.some((x) => /Reuse the internal `Protected`/.test(x)), t.join('\n'));
  assert.ok(!t.some((x) => /`UiConfig`|`Font`/.test(x)), t.join('\n'));
});

test("an extension point says where its implementations are listed (a PlatformRegistry's socketAdapters): a new one must be added there too", async () => {
  const files: Record<string, string> = {
    'src/platform/platform.ts': 'export abstract class Platform {\n  abstract name(): string;\n}\n',
    'src/platform/registry.ts':
      "import { AndroidPlatform } from './android';\nimport { JdkPlatform } from './jdk';\nimport { ConscryptPlatform } from './conscrypt';\n\nexport function findPlatform() {\n  return [AndroidPlatform, JdkPlatform, ConscryptPlatform].map((P) => new P());\n}\n",
  };
  for (
    const [file, name] of [['android', 'AndroidPlatform'], ['jdk', 'JdkPlatform'], ['conscrypt', 'ConscryptPlatform']]
  ) {
    files[`src/platform/${file}.ts`] =
      `import { Platform } from './platform';\n\nexport class ${name} extends Platform {\n  name(): string {\n    return '${file}';\n  }\n}\n`;
  }
  const ws = await project(files);
  await bootstrapKnowledge(ws, {}, { actor: 'human' });
  const c = listCandidates(ws).find((x) => x.knowledgeType === 'inheritance');
  assert.ok(c, titles(ws).join('\n'));
  assert.match(
    c.summary,
    /A new type in the same role extends it too and is added where the others are listed: `registry\.ts:\d+`\.$/,
  );
  assert.ok(c.reasoning.sources.some((s) => s.startsWith('src/platform/registry.ts:')), c.reasoning.sources.join(', '));
});

test('Rust: files that name anyhow by path (anyhow::Result, no use line) count as its users', async () => {
  const by = (n: number) => `pub fn f${n}() -> anyhow::Result<()> {\n    anyhow::bail!("no {}", ${n});\n}\n`;
  const ws = await project({
    'Cargo.toml': '[package]\nname = "tool"\nversion = "0.1.0"\n\n[dependencies]\nanyhow = "1"\n',
    'src/main.rs':
      'use anyhow::Context;\nfn main() -> anyhow::Result<()> {\n    run().context("run")?;\n    Ok(())\n}\n',
    ...Object.fromEntries([1, 2, 3, 4, 5].map((n) => [`src/m${n}.rs`, by(n)])),
  });
  await bootstrapKnowledge(ws, {}, { actor: 'human' });
  const c = listCandidates(ws).find((x) => /anyhow/.test(x.title));
  assert.ok(c, listCandidates(ws).map((x) => x.title).join('\n'));
  assert.match(c.summary, /^\d+ uses in 6 files of tool\b/);
});

test("an extension point cites where its implementations are listed together (a switch in Session.perform), not the file's first use of one", () => {
  const lines = [
    'func request() -> DataRequest {',
    '  fatalError()',
    '}',
    ...Array(20).fill('// …'),
    'switch request {',
    'case let r as UploadRequest: performUpload(r)',
    'case let r as DataRequest: performData(r)',
    'case let r as DownloadRequest: performDownload(r)',
    '}',
  ];
  assert.equal(listedTogether(lines, ['DataRequest', 'UploadRequest', 'DownloadRequest']), 25);
  assert.equal(listedTogether(['let a: DataRequest'], ['DataRequest', 'UploadRequest']), undefined);
});

test("a Swift file compiled into two app targets (a Shared/ folder) is visible to both: the Mac app's uses of it count", () => {
  const index = new SymbolIndex();
  const shared = sourceFile(
    'Shared/IconCache.swift',
    'swift',
    'final class IconCache {\n    static let shared = IconCache()\n    func image() -> Int { 1 }\n}\n',
    'Reader-iOS',
    ['Reader'],
  );
  const mac = sourceFile(
    'Mac/Sidebar.swift',
    'swift',
    'final class Sidebar {\n    func icon() -> Int { IconCache.shared.image() }\n}\n',
    'Reader',
  );
  const other = sourceFile(
    'Widget/Row.swift',
    'swift',
    'final class Row {\n    func icon() -> Int { IconCache.shared.image() }\n}\n',
    'Widget',
  );
  for (const f of [shared, mac, other]) index.add(f);
  const def = index.definitions.get('IconCache')![0];
  const files = {} as Record<string, string>;
  for (const f of [shared, mac, other]) files[f.path] = f.text;
  const ctx = { listing: Object.keys(files), read: async (rel: string) => files[rel] } as unknown as AnalysisContext;
  assert.deepEqual(index.usesOf(def, ctx).map((u) => u.path), ['Mac/Sidebar.swift']);
});

test("a Swift method of the same name shadows a top-level function for bare calls in its file (a view controller's markArticles is no use of the global one)", () => {
  const index = new SymbolIndex();
  const global = sourceFile(
    'Shared/ArticleUtilities.swift',
    'swift',
    'func markArticles(_ ids: Set<Int>, flag: Bool) {\n    print(ids, flag)\n}\n',
    'Reader',
  );
  const shadowing = sourceFile(
    'Mac/Timeline+Menus.swift',
    'swift',
    'extension Timeline {\n    func markRead() {\n        markArticles([1], read: true)\n    }\n\n    func markArticles(_ ids: [Int], read: Bool) {\n        print(ids, read)\n    }\n}\n',
    'Reader',
  );
  const caller = sourceFile(
    'Mac/Toolbar.swift',
    'swift',
    'final class Toolbar {\n    func markRead() {\n        markArticles([1], flag: true)\n    }\n}\n',
    'Reader',
  );
  for (const f of [global, shadowing, caller]) index.add(f);
  const files = Object.fromEntries([global, shadowing, caller].map((f) => [f.path, f.text]));
  const ctx = { listing: Object.keys(files), read: async (rel: string) => files[rel] } as unknown as AnalysisContext;
  assert.deepEqual(
    index.usesOf(index.definitions.get('markArticles')!.find((d) => !d.member)!, ctx).map((u) => u.path),
    ['Mac/Toolbar.swift'],
  );
});

test("a Go formatter golangci-lint configures is enforced when CI runs golangci-lint through a shared workflow, and a Taskfile's tasks are the project's commands (`task lint`, a lint workflow from another repository)", async () => {
  const files: Record<string, string> = {
    'go.mod': 'module example.org/tea\n\ngo 1.24\n',
    '.golangci.yml':
      'version: "2"\nlinters:\n  enable:\n    - revive\nformatters:\n  enable:\n    - gofumpt\n    - goimports\n',
    'Taskfile.yaml':
      'version: "3"\n\ntasks:\n  lint:\n    desc: Run lint\n    cmds:\n      - golangci-lint run\n\n  test:\n    desc: Run tests\n    cmds:\n      - go test -race ./...\n',
    '.github/workflows/lint.yml':
      'name: lint\non:\n  pull_request:\njobs:\n  lint:\n    uses: charmbracelet/meta/.github/workflows/lint.yml@main\n    with:\n      golangci_path: .golangci.yml\n      golangci_version: v2.9\n',
  };
  for (let i = 0; i < 4; i++) files[`part${i}.go`] = `package tea\n\nfunc Run${i}(n int) int {\n\treturn n + ${i}\n}\n`;
  const f = await candidateIn(files, (c) => c.knowledgeType === 'code-style' && /gofumpt/.test(c.title));
  assert.doesNotMatch(f.summary, /no CI step/);
  assert.match(f.summary, /CI checks with `golangci-lint run`/);
  assert.ok(f.reasoning.sources.includes('.github/workflows/lint.yml:6'), f.reasoning.sources.join(', '));
  const p = await profileCandidate(files);
  assert.match(p.rationale ?? '', /^- Test: `task test`$/m);
});

test("SwiftLint run by Danger in CI, or by an Xcode Run Script phase, is run: not 'nothing runs it yet' (a Dangerfile.swift, a framework target's build phase)", async () => {
  const pbx = (script: string) =>
    [
      '// !$*UTF8*$!',
      '{',
      '\tobjects = {',
      '\t\t0000000000000000000000A1 /* SwiftLint */ = {',
      '\t\t\tisa = PBXShellScriptBuildPhase;',
      `\t\t\tshellScript = "${script}";`,
      '\t\t};',
      '\t};',
      '}',
    ].join('\n');
  const files: Record<string, string> = {
    'Package.swift':
      '// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: "Net", targets: [.target(name: "Net", path: "Sources")])\n',
    '.swiftlint.yml': 'disabled_rules:\n  - line_length\n',
    'Net.xcodeproj/project.pbxproj': pbx(
      'if which swiftlint > /dev/null; then\\n    swiftlint\\nelse\\n    echo \\"warning: SwiftLint not installed\\"\\nfi',
    ),
  };
  for (let i = 0; i < 4; i++) {
    files[`Sources/Net/Part${i}.swift`] = `public struct Part${i} {\n    public let value = ${i}\n}\n`;
  }
  const byBuild = await candidateIn(files, (c) => /SwiftLint/.test(c.title));
  assert.match(byBuild.summary, /; an Xcode build phase runs `swiftlint`\./);
  assert.ok(
    byBuild.reasoning.sources.includes('Net.xcodeproj/project.pbxproj:6'),
    byBuild.reasoning.sources.join(', '),
  );
  const withDanger = {
    ...files,
    'Dangerfile.swift':
      'import Danger\n\nlet danger = Danger()\n// Run Swiftlint\nSwiftLint.lint(inline: true, configFile: ".swiftlint.yml")\n',
    '.circleci/config.yml':
      'version: 2.1\njobs:\n  danger:\n    steps:\n      - run:\n          name: Run Danger\n          command: brew install danger/tap/danger-swift && danger-swift ci\n',
  };
  const byCi = await candidateIn(withDanger, (c) => /SwiftLint/.test(c.title));
  assert.match(byCi.summary, /; CI runs `swiftlint`\./);
  assert.ok(byCi.reasoning.sources.includes('Dangerfile.swift:5'), byCi.reasoning.sources.join(', '));
});

test("an HTTP boundary counts calls and clients, not the library's types or import lines, and is reached through an interface, not any base class (a test client's annotations, WebSocketDisconnect; a Java import of a client class)", async () => {
  const files: Record<string, string> = { 'pyproject.toml': '[project]\nname = "web"\n' };
  for (let i = 0; i < 11; i++) files[`web/part${i}.py`] = `def handler${i}(request):\n    return ${i}\n`;
  files['web/websockets.py'] = 'class WebSocketDisconnect(Exception):\n    pass\n';
  files['web/testclient.py'] = [
    'import httpx',
    'from web.websockets import WebSocketDisconnect',
    '',
    'class WebSocketDenialResponse(httpx.Response, WebSocketDisconnect):',
    '    pass',
    '',
    'class TestClient(httpx.Client):',
    '    def request(self, url: httpx._types.URLTypes, headers: httpx._types.HeaderTypes | None = None, cookies: httpx._types.CookieTypes | None = None) -> httpx.Response:',
    '        return super().request("GET", url)',
    '',
  ].join('\n');
  const annotated = await project(files);
  await bootstrapKnowledge(annotated, {}, { actor: 'human' });
  assert.ok(!titles(annotated).some((t) => /HTTP requests/.test(t)), titles(annotated).join('\n'));
  files['web/fetch.py'] =
    'import httpx\n\ndef load(url):\n    with httpx.Client() as client:\n        return client.get(url)\n\ndef head(url):\n    return httpx.head(url)\n\ndef post(url, body):\n    return httpx.post(url, json=body)\n';
  const c = await candidateIn(files, (x) => /HTTP requests are made only in/.test(x.title));
  assert.match(
    c.summary,
    /only one holds the 3 places that make HTTP requests or set up an HTTP client: web\/fetch\.py/,
  );
  assert.doesNotMatch(c.summary, /WebSocketDisconnect/);
  assert.deepEqual(c.reasoning.sources, ['web/fetch.py:4', 'web/fetch.py:8', 'web/fetch.py:11']);
});

test("an extension point's subclasses are listed where one scope names them, not where a file imports them and uses each in its own function (an endpoints module was cited)", async () => {
  const files: Record<string, string> = { 'pyproject.toml': '[project]\nname = "web"\n' };
  files['web/requests.py'] =
    'class HTTPConnection:\n    """A connection: the base of requests and websockets."""\n\n    def __init__(self, scope):\n        self.scope = scope\n\n\nclass Request(HTTPConnection):\n    pass\n';
  files['web/cached.py'] = 'from web.requests import Request\n\n\nclass CachedRequest(Request):\n    pass\n';
  files['web/websockets.py'] =
    'from web.requests import HTTPConnection\n\n\nclass WebSocket(HTTPConnection):\n    pass\n';
  files['web/endpoints.py'] =
    'from web.requests import Request\nfrom web.websockets import WebSocket\n\n\nclass HTTPEndpoint:\n    def dispatch(self, scope):\n        request = Request(scope)\n        return request\n\n    def not_allowed(self, request: Request):\n        return None\n\n\nclass WebSocketEndpoint:\n    def dispatch(self, scope):\n        websocket = WebSocket(scope)\n        return websocket\n\n    def decode(self, websocket: WebSocket, message):\n        return message\n';
  for (let i = 0; i < 10; i++) {
    files[`web/part${i}.py`] =
      `from web.requests import HTTPConnection\n\n\ndef scope_of${i}(conn: HTTPConnection):\n    return conn.scope\n`;
  }
  const c = await candidateIn(files, (x) => x.knowledgeType === 'inheritance' && /HTTPConnection/.test(x.title));
  assert.doesNotMatch(c.summary, /listed/);
  assert.ok(!c.reasoning.sources.some((s) => s.startsWith('web/endpoints.py')), c.reasoning.sources.join(', '));
});

test('an Xcode target whose folders are all samples (Basic and Multi-Target in Examples/) is no product target, wherever its project sits', () => {
  const xcode = (name: string, dirs: string[]): Target => ({
    name,
    ecosystem: 'xcode',
    kind: 'app',
    manifest: 'Moya.xcodeproj/project.pbxproj',
    dir: '',
    extraDirs: dirs,
    language: 'swift',
    dependencies: [],
    metadata: {},
  });
  const targets: Target[] = [
    {
      name: 'Moya',
      ecosystem: 'swift',
      kind: 'library',
      manifest: 'Package.swift',
      dir: 'Sources/Moya',
      language: 'swift',
      dependencies: [],
      metadata: {},
    },
    xcode('Basic', ['Examples/Basic']),
    xcode('Multi-Target', ['Examples/Multi-Target', 'Examples/_shared']),
    xcode('Reader', ['Mac', 'Shared']),
  ];
  const ctx = { structure: { targets, ecosystems: {}, problems: [], truncated: false } } as unknown as AnalysisContext;
  assert.deepEqual(productTargets(ctx).map((t) => t.name), ['Moya', 'Reader']);
});

test("the properties of several types in one file do not list an extension point's implementations together (one request per task struct)", async () => {
  const files: Record<string, string> = {
    'Package.swift':
      '// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: "Net", targets: [.target(name: "Net", path: "Sources")])\n',
    'Sources/Core/Request.swift':
      '/// A request: the base of every kind of request.\npublic class Request {\n    func task() -> Int {\n        fatalError("Subclasses must override.")\n    }\n}\n',
    'Sources/Features/Concurrency.swift': ['Data', 'Download', 'Stream'].map((n) =>
      `extension ${n}Request {\n    public func asyncTask() -> ${n}Task {\n        ${n}Task(request: self)\n    }\n}\n\npublic struct ${n}Task {\n    private let request: ${n}Request\n}\n`
    ).join('\n'),
  };
  for (const n of ['Data', 'Download', 'Stream']) {
    files[`Sources/Core/${n}Request.swift`] =
      `public final class ${n}Request: Request {\n    override func task() -> Int {\n        1\n    }\n}\n`;
  }
  for (let i = 0; i < 3; i++) {
    files[`Sources/Core/User${i}.swift`] = `func use${i}(_ r: Request) -> Int {\n    r.task()\n}\n`;
  }
  const c = await candidateIn(files, (x) => x.knowledgeType === 'inheritance');
  assert.ok(
    !c.reasoning.sources.some((s) => s.startsWith('Sources/Features/Concurrency.swift')),
    c.reasoning.sources.join(', '),
  );
  assert.doesNotMatch(c.summary, /listed/);
});

test("a Python base's private subclasses (`_CachedRequest`) are no kind of their own: two public ones are no extension point (an HTTPConnection base)", async () => {
  const files: Record<string, string> = { 'pyproject.toml': '[project]\nname = "web"\n' };
  files['web/requests.py'] =
    'class HTTPConnection:\n    """A connection: the base of requests and websockets."""\n\n    def __init__(self, scope):\n        self.scope = scope\n\n\nclass Request(HTTPConnection):\n    pass\n';
  files['web/cached.py'] = 'from web.requests import Request\n\n\nclass _CachedRequest(Request):\n    pass\n';
  files['web/websockets.py'] =
    'from web.requests import HTTPConnection\n\n\nclass WebSocket(HTTPConnection):\n    pass\n';
  for (let i = 0; i < 10; i++) {
    files[`web/part${i}.py`] =
      `from web.requests import HTTPConnection\n\n\ndef scope_of${i}(conn: HTTPConnection):\n    return conn.scope\n`;
  }
  const ws = await project(files);
  await bootstrapKnowledge(ws, {}, { actor: 'human' });
  assert.ok(!titles(ws).some((t) => /HTTPConnection/.test(t)), titles(ws).join('\n'));
  files['web/cached.py'] = files['web/cached.py'].replace('_CachedRequest', 'CachedRequest');
  const ws2 = await project(files);
  await bootstrapKnowledge(ws2, {}, { actor: 'human' });
  assert.ok(titles(ws2).some((t) => /extend `HTTPConnection`/.test(t)), titles(ws2).join('\n'));
});
