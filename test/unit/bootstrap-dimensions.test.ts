import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bootstrapKnowledge, dimensionGuides } from '../../src/core/bootstrap';
import { excerptFrom } from '../../src/core/bootstrap/evidence';
import { languageBullets } from '../../src/core/bootstrap/guides';
import { selectFiles } from '../../src/core/bootstrap/select';
import { sourceFile } from '../../src/core/bootstrap/source';
import { factsOf } from '../../src/core/bootstrap/facts';
import { listCandidates } from '../../src/core/knowledge/candidates';
import { closeWorkspaces, emptyWorkspace } from './structure-helpers';
import type { Workspace } from '../../src/core/workspace';

after(closeWorkspaces);

async function project(files: Record<string, string>): Promise<Workspace> {
  const ws = await emptyWorkspace();
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(ws.root, rel)), { recursive: true });
    writeFileSync(path.join(ws.root, rel), text);
  }
  return ws;
}

const titles = (ws: Workspace) => listCandidates(ws).map((c) => `${c.origin} | ${c.title}`);

test('Swift: the project\'s own choices (@MainActor over GCD, final classes, package features), not the language\'s advice', async () => {
  const files: Record<string, string> = {
    'Package.swift': '// swift-tools-version:6.0\nimport PackageDescription\nlet package = Package(name: "Feed", targets: [.target(name: "Model"), .target(name: "Feed", dependencies: ["Model"], swiftSettings: [.enableUpcomingFeature("ExistentialAny")]), .target(name: "Profile", dependencies: ["Model"])], swiftLanguageModes: [.v5])\n',
  };
  for (const name of ['Feed', 'Profile']) {
    for (let i = 0; i < 6; i++) {
      files[`Sources/${name}/${name}ViewModel${i}.swift`] = `import Model\n\n@MainActor\nfinal class ${name}ViewModel${i} {\n  private var task: Task<Void, Never>?\n  func load() async {\n    guard let item = try? await Loader.fetch() else { return }\n    if let name = item as? String { print(name) }\n    task = Task { [weak self] in await self?.refresh() }\n  }\n  func refresh() async {}\n}\n`;
    }
  }
  files['Sources/Model/Loader.swift'] = 'public enum Loader {\n  public static func fetch() async throws -> Any { 1 }\n}\n';
  const ws = await project(files);
  const r = await bootstrapKnowledge(ws, {}, { actor: 'human' });
  const t = titles(ws);
  assert.ok(t.includes('bootstrap:swift-concurrency | UI state is isolated with `@MainActor`, not `DispatchQueue.main`'), t.join('\n'));
  assert.ok(t.includes('bootstrap:swift-safety | Classes are `final` unless designed for subclassing'));
  assert.ok(t.includes('bootstrap:agent-guidelines | The package turns on Swift feature `ExistentialAny`'), t.join('\n'));
  const feature = listCandidates(ws).find((c) => c.title.includes('ExistentialAny'))!;
  assert.match(feature.summary, /Swift 5 language mode/);
  // Counter-evidence: tools 6.0 but `swiftLanguageModes: [.v5]`, so strict concurrency is not on.
  assert.ok(!t.some((x) => /strict concurrency|complete concurrency/i.test(x)), t.join('\n'));
  // What Swift itself asks of everyone is not project knowledge.
  assert.ok(!t.some((x) => /weak self|try!|naming|PascalCase|defer/i.test(x)), t.join('\n'));
  assert.deepEqual(r.targets, { count: 3, ecosystems: { swift: 3 } });
  const swiftDims = r.dimensions.filter((d) => d.id.startsWith('swift-'));
  assert.deepEqual(swiftDims.map((d) => `${d.id}:${d.guideFrom}`), ['swift-concurrency:built-in', 'swift-safety:built-in'], 'no bundled skills in this workspace: built-in guides');
});

test('Go: no generic Go advice (%w, context first, defer, file names); the profile has the commands', async () => {
  const files: Record<string, string> = { 'go.mod': 'module example.com/svc\n\ngo 1.22\n' };
  for (let i = 0; i < 6; i++) {
    files[`store/repo${i}.go`] = `package store\n\nimport (\n\t"context"\n\t"fmt"\n)\n\nfunc Load${i}(ctx context.Context, id string) (string, error) {\n\tv, err := get(ctx, id)\n\tif err != nil {\n\t\treturn "", fmt.Errorf("load ${i} %s: %w", id, err)\n\t}\n\tdefer release()\n\treturn v, nil\n}\n`;
  }
  files['store/get.go'] = 'package store\n\nimport "context"\n\nfunc get(ctx context.Context, id string) (string, error) {\n\treturn id, nil\n}\n\nfunc release() {}\n';
  const ws = await project(files);
  await bootstrapKnowledge(ws, {}, { actor: 'human' });
  const t = titles(ws);
  assert.deepEqual(t, ['bootstrap:project-profile | Project profile: stack, targets, build and test commands'], 'gofmt tabs, %w, ctx-first and defer are Go conventions, not this project\'s');
  const profile = listCandidates(ws).find((c) => c.knowledgeType === 'project-profile')!;
  assert.match(profile.rationale ?? '', /Test: `go test \.\/\.\.\.`/);
});

test('Python: dataclasses and the project\'s base class; relative imports resolve into the graph', async () => {
  const files: Record<string, string> = { 'pyproject.toml': '[project]\nname = "shop"\ndependencies = ["pytest"]\n' };
  for (let i = 0; i < 10; i++) files[`shop/model_${i}.py`] = `from dataclasses import dataclass\nfrom .base import Base\n\n\n@dataclass\nclass Item${i}(Base):\n    name: str\n\n\ndef make_item_${i}(name: str) -> "Item${i}":\n    return Item${i}(name)\n`;
  files['shop/base.py'] = 'class Base:\n    pass\n\n\ndef helper() -> None:\n    pass\n';
  const ws = await project(files);
  const r = await bootstrapKnowledge(ws, {}, { actor: 'human' });
  const t = titles(ws);
  assert.ok(t.includes('bootstrap:python-typing | Python functions carry type hints, return types included'), t.join('\n'));
  assert.ok(t.includes('bootstrap:python-typing | Plain data records are `@dataclass`es'));
  assert.ok(t.some((x) => /^bootstrap:code-pattern \| Python `Item0`, `Item1`.* extend `Base`$/.test(x)), t.join('\n'));
  assert.ok(!t.some((x) => /snake_case|PEP 8/.test(x)), 'snake_case file names are the Python norm');
  assert.equal(r.graph.fileImports, 10, 'each model imports shop/base.py');
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
  assert.deepEqual(builtIn.map((g) => g.id), ['code-standard', 'code-pattern', 'architecture', 'best-practice', 'event-data-flow', 'project-profile', 'agent-guidelines', 'jsts-async', 'jsts-type-safety']);
  assert.deepEqual(languageBullets('Intro:\n\n- `swift-concurrency` — actors and\n  isolation.\n- `swift-safety` — optionals.\n'), [['swift-concurrency', 'actors and isolation.'], ['swift-safety', 'optionals.']]);
});

test('file selection: folders take turns, tests get at most a fifth, unknown extensions and minified files are skipped', () => {
  const listing = ['a/1.ts', 'a/2.ts', 'a/3.ts', 'b/1.ts', 'c/1.py', 'test/x.test.ts', 'test/y.test.ts', 'README.md', 'a/lib.min.js'];
  const s = selectFiles(listing, 5);
  assert.deepEqual(s.files.map((f) => f.path), ['a/1.ts', 'b/1.ts', 'c/1.py', 'a/2.ts', 'test/x.test.ts']);
  assert.equal(s.eligible, 7);
  assert.equal(s.capped, true);
  assert.equal(selectFiles(listing, 100).capped, false);
});

test('facts: imports with what they bind, declarations with visibility, uses that are not qualified or declared; generated markers; excerpts', () => {
  const ts = sourceFile('src/a.ts', 'typescript', "import { x, y as z } from './x';\n// import { fake } from 'comment';\nexport class Foo extends Bar {}\nexport const run = async () => x();\n", undefined);
  const f = factsOf(ts);
  assert.deepEqual(f.imports.map((i) => `${i.spec}@${i.line}:${i.names?.map((n) => `${n.imported}>${n.local}`).join(',')}`), ['./x@1:x>x,y>z']);
  assert.deepEqual(f.decls.map((d) => `${d.kind}:${d.name}:${d.base ?? ''}:${d.visibility}`), ['function:run::public', 'type:Foo:Bar:public']);
  assert.equal(f.uses.get('x'), 4);
  const go = sourceFile('main.go', 'go', 'package main\n\nimport (\n\t"fmt"\n\tstore "example.com/x/store"\n)\n\nfunc Open() {}\nfunc helper() {}\nfunc (s *S) Method() {}\n', undefined);
  assert.deepEqual(factsOf(go).imports.map((i) => `${i.spec}@${i.line}=${i.alias}`), ['fmt@4=fmt', 'example.com/x/store@5=store']);
  assert.deepEqual(factsOf(go).decls.map((d) => `${d.name}:${d.visibility}:${d.member}`), ['Open:public:false', 'helper:internal:false', 'Method:public:true']);
  // ripgrep: `WalkEvent::File` and `hir::Class::Bytes` are not uses of a type named File or Bytes; `use` lines bind, they do not use.
  const rs = sourceFile('crates/x/src/a.rs', 'rust', 'use crate::sink::{Bytes, Sink};\nfn f(e: WalkEvent) {\n  match e { WalkEvent::File(p) => {}, _ => {} }\n  let y = hir::Class::Bytes(1);\n  helper(1);\n}\npub(crate) struct Ignore {}\nfn helper(x: i32) {}\n', undefined);
  const rf = factsOf(rs);
  assert.equal(rf.uses.has('File'), false);
  assert.equal(rf.uses.has('Bytes'), false);
  assert.equal(rf.uses.get('helper'), 5);
  assert.equal(rf.decls.find((d) => d.name === 'Ignore')?.visibility, 'internal', 'pub(crate)');
  // httpx: `def request(` declares, `self.send(` is a method call: neither is a use of a bare name.
  const py = sourceFile('httpx/_client.py', 'python', 'from ._models import Request\nclass Client:\n    def request(self, method):\n        return self.send(Request(method))\n', undefined);
  assert.deepEqual([...factsOf(py).uses.keys()], ['Request']);
  assert.deepEqual(sourceFile('gen.ts', 'typescript', '// Code generated by protoc. DO NOT EDIT.\nexport {};\n', undefined).generated, { line: 1, marker: 'DO NOT EDIT' });
  assert.equal(sourceFile('x.ts', 'typescript', "const s = 'DO NOT EDIT';\n", undefined).generated, undefined);
  assert.equal(excerptFrom('a\nfunction f() {\n  if (x) {\n    y();\n  }\n}\nrest\n', 2), 'function f() {\n  if (x) {\n    y();\n  }\n}');
  assert.equal(excerptFrom('def f():\n    return 1\n\ndef g():\n    pass\n', 1, 10, true), 'def f():\n    return 1');
});
