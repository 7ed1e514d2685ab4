// Evidence packs: what the scan hands a model (or an agent) to write the cold-start cards from.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { createCatalog } from '../../src/core/catalog';
import { coldstartRequests } from '../../src/core/domains/agent/coldstart-prompt';
import { FactDigest } from '../../src/core/domains/bootstrap/fact-digest';
import { citableLines, scanEvidence } from '../../src/core/domains/bootstrap/packs';
import { sourceFile } from '../../src/core/domains/bootstrap/source';
import { loadTokenCounter } from '../../src/core/domains/skills/tokens';
import type { Workspace } from '../../src/core/ground/workspace';
import { agent, closeWorkspaces, fixtureWorkspace, workspaceWith } from './structure-helpers';

after(closeWorkspaces);
const run = { actor: 'external_agent' as const };

function lineOf(ws: Workspace, rel: string, line: number): string {
  return readFileSync(path.join(ws.root, rel), 'utf8').split('\n')[line - 1].trim();
}

test('every reference in a pack quotes the line the file has at that place', async () => {
  const ws = await fixtureWorkspace('bootstrap-ts');
  const { packs } = await scanEvidence(ws, {}, run, await loadTokenCounter());
  assert.ok(packs.length >= 4, `packs: ${packs.map((p) => p.dimension).join(', ')}`);
  let refs = 0;
  for (const p of packs) {
    for (const f of p.findings) {
      for (const r of [...f.refs, ...f.counterExamples]) {
        refs++;
        assert.equal(r.text, lineOf(ws, r.path, r.line).slice(0, 160), `${r.path}:${r.line}`);
        assert.ok(p.text.includes(`- ${r.path}:${r.line} \`${r.text}\``), `the pack shows ${r.path}:${r.line}`);
      }
    }
  }
  assert.ok(refs >= 10, `refs: ${refs}`);
});

test('a pack stays within its token budget by leaving out its lowest findings, and says how many', async () => {
  const ws = await fixtureWorkspace('bootstrap-ts');
  const counter = await loadTokenCounter();
  const full = await scanEvidence(ws, {}, run, counter);
  const small = await scanEvidence(ws, { tokensPerPack: 300 }, run, counter);
  const big = full.packs.find((p) => p.tokens > 600 && p.findings.length > 1);
  assert.ok(big, 'the fixture has a pack over 600 tokens with several findings');
  const cut = small.packs.find((p) => p.dimension === big.dimension)!;
  assert.ok(cut.tokens <= 300 || cut.findings.length === 1, `${cut.tokens} tokens, ${cut.findings.length} findings`);
  assert.equal(cut.tokens, counter.count(cut.text));
  assert.ok(cut.omitted > 0 || cut.findings.every((f) => !f.excerpt), 'it lost findings or excerpts, and says so');
  if (cut.omitted) assert.match(cut.text, new RegExp(`${cut.omitted} lower-ranked findings left out`));
  // What stays is the highest ranked: the same first finding.
  assert.equal(cut.findings[0].claim, big.findings[0].claim);
});

test('the same project gives the same packs and the same prompts', async () => {
  const ws = await fixtureWorkspace('bootstrap-ts');
  const counter = await loadTokenCounter();
  const a = await scanEvidence(ws, {}, run, counter);
  const b = await scanEvidence(ws, {}, run, counter);
  assert.deepEqual(a.packs.map((p) => p.text), b.packs.map((p) => p.text));
  const project = { primaryLanguage: a.scan.primaryLanguage, files: a.scan.scanned.files };
  const pa = coldstartRequests(a.packs, project);
  assert.deepEqual(pa, coldstartRequests(b.packs, project));
  // Every pack is in exactly one request.
  for (const p of a.packs) assert.equal(pa.filter((r) => r.user.includes(p.text)).length, 1, p.dimension);
});

test('a supertype many production types declare, a helper many files call and a shared test helper are evidence', async () => {
  const files: Record<string, string> = {
    'pyproject.toml': '[project]\nname = "shapes"\nversion = "1.0.0"\n',
    'shapes/shape.py': 'class Shape:\n    def area(self) -> float:\n        raise NotImplementedError\n',
    'shapes/measure.py': 'def measure_text(s: str) -> int:\n    return len(s)\n',
  };
  for (const n of ['circle', 'square', 'triangle', 'hexagon']) {
    const cls = n[0].toUpperCase() + n.slice(1);
    files[`shapes/${n}.py`] = `from .shape import Shape\nfrom .measure import measure_text\n\n\n`
      + `class ${cls}(Shape):\n    def area(self) -> float:\n        return measure_text("${n}")\n`;
    files[`tests/test_${n}.py`] =
      `from tests.support import make_shape\n\n\ndef test_${n}():\n    make_shape("${n}")\n`;
  }
  files['tests/support.py'] = 'def make_shape(name):\n    return {"name": name}\n';
  const ws = await workspaceWith(files);
  const { packs } = await scanEvidence(ws, {}, run, await loadTokenCounter());
  const all = packs.flatMap((p) => p.findings.map((f) => ({ dim: p.dimension, ...f })));
  // The scan's own card or the statistic, whichever states it: the supertype and the types declaring it.
  const protocol = all.find((f) => /`Shape`/.test(f.claim) && f.refs.some((r) => r.path === 'shapes/square.py'));
  assert.ok(protocol, all.map((f) => f.claim).join('\n'));
  // The scan's own card or the statistic, whichever states it: the helper and where four files call it.
  const helper = all.find((f) => f.dim === 'code-pattern' && /measure_text/.test(f.claim));
  assert.ok(helper, 'the helper four files call');
  assert.ok(helper.refs.some((r) => r.path === 'shapes/circle.py' && /measure_text\("circle"\)/.test(r.text)));
  const testHelper = all.find((f) => f.dim === 'best-practice' && /`make_shape`.*shared test helper/.test(f.claim));
  assert.ok(testHelper, 'the helper every test calls');
  assert.match(testHelper.claim, /called from 4 test files/);
});

test('the digest counts a supertype by the production types that declare it, across files, and quotes its definition', () => {
  const digest = new FactDigest();
  const py = (rel: string, text: string) => digest.visit(sourceFile(rel, 'python', text, undefined));
  py('shapes/shape.py', 'class Shape:\n    pass\n');
  for (const n of ['Circle', 'Square', 'Hexagon']) py(`shapes/${n.toLowerCase()}.py`, `class ${n}(Shape):\n    pass\n`);
  py('tests/test_shape.py', 'class FakeShape(Shape):\n    pass\n');
  const fact = digest.facts().find((f) => /declare `Shape` as a supertype/.test(f.claim));
  assert.ok(fact, JSON.stringify(digest.facts()));
  assert.equal(
    fact.claim,
    '3 production types in 3 files declare `Shape` as a supertype (declared at shapes/shape.py:1). Implementations below.',
  );
  assert.deepEqual(fact.definition, { path: 'shapes/shape.py', line: 1, text: 'class Shape:' });
  assert.deepEqual(fact.places.map((p) => p.path), ['shapes/circle.py', 'shapes/square.py', 'shapes/hexagon.py']);
  // Two types in one file are not a protocol the code base is built around.
  const one = new FactDigest();
  one.visit(
    sourceFile(
      'a.py',
      'python',
      'class A(Base):\n    pass\nclass B(Base):\n    pass\nclass C(Base):\n    pass\n',
      undefined,
    ),
  );
  assert.equal(one.facts().filter((f) => /supertype/.test(f.claim)).length, 0);
});

test('the digest names the members a project supertype declares, and the error types under one root with where they are raised', () => {
  const digest = new FactDigest();
  const py = (rel: string, text: string) => digest.visit(sourceFile(rel, 'python', text, undefined));
  py(
    'app/shape.py',
    'class Shape:\n    def area(self) -> float:\n        raise NotImplementedError\n\n    def name(self) -> str:\n        return ""\n',
  );
  py(
    'app/errors.py',
    'class AppError(Exception):\n    pass\n\n\nclass NotFound(AppError):\n    pass\n\n\nclass Invalid(AppError):\n    pass\n',
  );
  for (const n of ['Circle', 'Square', 'Hexagon']) {
    py(
      `app/${n.toLowerCase()}.py`,
      `from .errors import NotFound\n\n\nclass ${n}(Shape):\n    def area(self) -> float:\n        raise NotFound("${n}")\n`,
    );
  }
  const protocol = digest.facts().find((f) => /declare `Shape` as a supertype/.test(f.claim));
  assert.match(protocol?.claim ?? '', /its declaration holds `area`, `name`/);
  assert.equal(protocol?.essential, true);
  const errors = digest.facts().find((f) => /^Errors:/.test(f.claim));
  assert.ok(errors, digest.facts().map((f) => f.claim).join('\n'));
  assert.match(
    errors.claim,
    /`AppError` \(app\/errors\.py:1, extends `Exception`\) and 2 project error types under it \(`NotFound`, `Invalid`\)/,
  );
  assert.deepEqual(errors.places.map((p) => p.text).filter((t) => /raise/.test(t)).length, 3);
  assert.equal(errors.dimension, 'best-practice');
});

test('packs carry the import boundaries between folders, and essential facts outlast scan cards in a tight budget', async () => {
  const files: Record<string, string> = { 'package.json': '{"name":"layers","version":"1.0.0"}' };
  for (const n of ['a', 'b', 'c']) {
    files[`core/${n}.ts`] = `export function core${n.toUpperCase()}(): number {\n  return 1;\n}\n`;
    files[`api/${n}.ts`] =
      `import { core${n.toUpperCase()} } from '../core/${n}';\n\nexport function api${n.toUpperCase()}(): number {\n  return core${n.toUpperCase()}();\n}\n`;
    files[`cli/${n}.ts`] =
      `import { api${n.toUpperCase()} } from '../api/${n}';\nimport { core${n.toUpperCase()} } from '../core/${n}';\n\nexport function cli${n.toUpperCase()}(): number {\n  return api${n.toUpperCase()}() + core${n.toUpperCase()}();\n}\n`;
  }
  const ws = await workspaceWith(files);
  const { packs } = await scanEvidence(ws, {}, run, await loadTokenCounter());
  const layers = packs.find((p) => p.dimension === 'architecture')?.findings.find((f) =>
    /^Imports between/.test(f.claim)
  );
  assert.ok(layers, packs.map((p) => p.text).join('\n\n'));
  assert.match(layers.claim, /`cli` → `api` \(3\)/);
  assert.match(layers.claim, /`core` never imports `api`/);
  assert.match(layers.claim, /`api` never imports `cli`/);
  assert.ok(
    layers.refs.some((r) => r.path.startsWith('cli/') && /from '\.\.\/api\//.test(r.text)),
    JSON.stringify(layers.refs),
  );
  // With room for one finding, the architecture pack keeps the boundaries.
  const tight = await scanEvidence(ws, { tokensPerPack: 10 }, run, await loadTokenCounter());
  assert.match(tight.packs.find((p) => p.dimension === 'architecture')?.findings[0]?.claim ?? '', /^Imports between/);
});

test('citable lines are the references and the first block of each excerpt', async () => {
  const ws = await fixtureWorkspace('bootstrap-ts');
  const { packs } = await scanEvidence(ws, {}, run, await loadTokenCounter());
  const citable = citableLines(packs);
  const withExcerpt = packs.flatMap((p) => p.findings).find((f) => f.excerpt);
  assert.ok(withExcerpt?.excerpt);
  const { path: file, line } = withExcerpt.excerpt;
  assert.ok(citable.has(`${file}:${line}`) && citable.has(`${file}:${line + 1}`));
  assert.ok(!citable.has('src/nowhere.ts:1'));
});

test('coldstart_evidence pages the packs, records nothing, and names the dimensions without evidence', async () => {
  const ws = await fixtureWorkspace('bootstrap-ts');
  const catalog = createCatalog();
  const r = await catalog.invoke(ws, 'coldstart_evidence', {}, agent);
  assert.ok(r.ok, JSON.stringify(r));
  const data = r.data as any;
  assert.equal(data.hasMore, false);
  assert.ok(data.packs.length >= 4);
  assert.ok(data.empty.every((d: string) => !data.packs.some((p: any) => p.dimension === d)));
  assert.ok(data.rules.length >= 5);
  // An agent submits its cards itself, where no source is compared with the evidence: the rules say
  // what the submission checks, never a flag only the model path sets.
  assert.ok(!data.rules.some((rule: string) => /flagged/.test(rule)), data.rules.join('\n'));
  assert.ok(data.rules.some((rule: string) => /opened when you submit/.test(rule)));
  assert.ok(JSON.stringify(r).length <= catalog.get('coldstart_evidence')!.maxOutputChars);
  assert.equal(existsSync(path.join(ws.root, '.autosnippet')), false, 'a read creates no .autosnippet/');
  // A tight budget per pack: more, smaller packs still fit and are paged, never dropped.
  const pages: any[] = [];
  let cursor: number | undefined = 0;
  while (cursor !== undefined && pages.length < 10) {
    const p = await catalog.invoke(ws, 'coldstart_evidence', { tokensPerPack: 6000, cursor }, agent);
    assert.ok(p.ok);
    pages.push(p.data);
    cursor = (p.data as any).nextCursor;
  }
  assert.deepEqual(pages.flatMap((p) => p.packs.map((x: any) => x.dimension)), data.packs.map((p: any) => p.dimension));
});
