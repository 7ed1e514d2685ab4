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

test('Swift: concurrency and safety dimensions from counted idioms, module dependencies from Package.swift', async () => {
  const files: Record<string, string> = {
    'Package.swift': '// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: "Feed", targets: [.target(name: "Model"), .target(name: "Feed", dependencies: ["Model"]), .target(name: "Profile", dependencies: ["Model"])])\n',
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
  assert.ok(t.includes('bootstrap:swift-safety | No `try!` or `as!` in production Swift code'), t.join('\n'));
  assert.ok(t.includes('bootstrap:swift-safety | Escaping closures capture `[weak self]`'));
  assert.ok(t.includes('bootstrap:swift-safety | Classes are `final` unless designed for subclassing'));
  assert.ok(t.includes('bootstrap:architecture | Module dependencies declared in the build manifests'));
  assert.deepEqual(r.targets, { count: 3, ecosystems: { swift: 3 } });
  const swiftDims = r.dimensions.filter((d) => d.id.startsWith('swift-'));
  assert.deepEqual(swiftDims.map((d) => `${d.id}:${d.guideFrom}`), ['swift-concurrency:built-in', 'swift-safety:built-in'], 'no bundled skills in this workspace: built-in guides');
});

test('Go: error wrapping with %w, context as first parameter, no panics', async () => {
  const files: Record<string, string> = { 'go.mod': 'module example.com/svc\n\ngo 1.22\n' };
  for (let i = 0; i < 6; i++) {
    files[`store/repo${i}.go`] = `package store\n\nimport (\n\t"context"\n\t"fmt"\n)\n\nfunc Load${i}(ctx context.Context, id string) (string, error) {\n\tv, err := get(ctx, id)\n\tif err != nil {\n\t\treturn "", fmt.Errorf("load ${i} %s: %w", id, err)\n\t}\n\treturn v, nil\n}\n`;
  }
  files['store/get.go'] = 'package store\n\nimport "context"\n\nfunc get(ctx context.Context, id string) (string, error) {\n\treturn id, nil\n}\n';
  const ws = await project(files);
  await bootstrapKnowledge(ws, {}, { actor: 'human' });
  const t = titles(ws);
  assert.ok(t.includes('bootstrap:go-errors | Errors are wrapped with `fmt.Errorf("…: %w", err)`'), t.join('\n'));
  assert.ok(t.includes('bootstrap:go-concurrency | Functions that do I/O take `ctx context.Context` first'));
  assert.ok(t.includes('bootstrap:project-profile | Project profile: stack, targets, build and test commands'));
  assert.ok(t.includes('bootstrap:code-standard | Go code uses tab indentation'));
  const profile = listCandidates(ws).find((c) => c.knowledgeType === 'project-profile')!;
  assert.match(profile.code ?? '', /Test: go test \.\/\.\.\./);
});

test('Python: type hints and dataclasses; relative imports resolve into the graph', async () => {
  const files: Record<string, string> = { 'pyproject.toml': '[project]\nname = "shop"\ndependencies = ["pytest"]\n' };
  for (let i = 0; i < 10; i++) files[`shop/model_${i}.py`] = `from dataclasses import dataclass\nfrom .base import Base\n\n\n@dataclass\nclass Item${i}(Base):\n    name: str\n\n\ndef make_item_${i}(name: str) -> "Item${i}":\n    return Item${i}(name)\n`;
  files['shop/base.py'] = 'class Base:\n    pass\n\n\ndef helper() -> None:\n    pass\n';
  const ws = await project(files);
  const r = await bootstrapKnowledge(ws, {}, { actor: 'human' });
  const t = titles(ws);
  assert.ok(t.includes('bootstrap:python-typing | Python functions carry type hints, return types included'), t.join('\n'));
  assert.ok(t.includes('bootstrap:python-typing | Plain data records are `@dataclass`es'));
  assert.ok(t.includes('bootstrap:code-pattern | Python types extend `Base`'));
  assert.ok(t.includes('bootstrap:code-standard | Python file names use snake_case'));
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

test('facts: imports, declarations and uses per language; generated markers; excerpts', () => {
  const ts = sourceFile('src/a.ts', 'typescript', "import { x } from './x';\n// import { fake } from 'comment';\nexport class Foo extends Bar {}\nexport const run = async () => x();\n", undefined);
  const f = factsOf(ts);
  assert.deepEqual(f.imports, [{ spec: './x', line: 1 }]);
  assert.deepEqual(f.decls.map((d) => `${d.kind}:${d.name}:${d.base ?? ''}:${d.exported}`), ['function:run::true', 'type:Foo:Bar:true']);
  assert.equal(f.uses.get('x'), 4);
  const go = sourceFile('main.go', 'go', 'package main\n\nimport (\n\t"fmt"\n\tstore "example.com/x/store"\n)\n\nfunc Open() {}\nfunc helper() {}\n', undefined);
  assert.deepEqual(factsOf(go).imports.map((i) => `${i.spec}@${i.line}`), ['fmt@4', 'example.com/x/store@5']);
  assert.deepEqual(factsOf(go).decls.map((d) => `${d.name}:${d.exported}`), ['Open:true', 'helper:false']);
  assert.deepEqual(sourceFile('gen.ts', 'typescript', '// Code generated by protoc. DO NOT EDIT.\nexport {};\n', undefined).generated, { line: 1, marker: 'Code generated' });
  assert.equal(sourceFile('x.ts', 'typescript', "const s = 'DO NOT EDIT';\n", undefined).generated, undefined);
  assert.equal(excerptFrom('a\nfunction f() {\n  if (x) {\n    y();\n  }\n}\nrest\n', 2), 'function f() {\n  if (x) {\n    y();\n  }\n}');
  assert.equal(excerptFrom('def f():\n    return 1\n\ndef g():\n    pass\n', 1, 10, true), 'def f():\n    return 1');
});
