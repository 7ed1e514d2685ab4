import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { ToolCatalog } from '../../src/core/catalog/catalog';
import { graphTools } from '../../src/core/catalog/graph';
import type { ToolContext } from '../../src/core/catalog/types';
import { listCandidates } from '../../src/core/domains/knowledge/candidates';
import type { Workspace } from '../../src/core/ground/workspace';
import { agent, closeWorkspaces, dataOf, errorOf, fixtureWorkspace, human } from './structure-helpers';

after(closeWorkspaces);
const catalog = new ToolCatalog(graphTools);

async function bootstrap(ws: Workspace, input: Record<string, unknown> = {}, ctx: ToolContext = agent) {
  const r = await catalog.invoke(ws, 'bootstrap_knowledge', input, ctx);
  assert.ok(r.ok, JSON.stringify(r));
  return r.data as any;
}

/** Every `path:line` names an existing file and a line inside it. */
function assertSourcesExist(ws: Workspace, sources: string[]): void {
  assert.ok(sources.length >= 1, 'at least one source');
  for (const s of sources) {
    const m = /^(.+):(\d+)$/.exec(s);
    assert.ok(m, `not path:line: ${s}`);
    const file = path.join(ws.root, m[1]);
    assert.ok(existsSync(file), `source file missing: ${s}`);
    const lines = readFileSync(file, 'utf8').split('\n').length;
    assert.ok(Number(m[2]) >= 1 && Number(m[2]) <= lines, `line out of range: ${s}`);
  }
}

function lineAt(ws: Workspace, source: string): string {
  const [, file, line] = /^(.+):(\d+)$/.exec(source)!;
  return readFileSync(path.join(ws.root, file), 'utf8').split('\n')[Number(line) - 1];
}

test('six sibling feature folders that import shared code and never each other are stated as a boundary', async () => {
  // Two more features, made like the fixture's billing feature.
  const ws = await fixtureWorkspace('bootstrap-ts', (dir) => {
    const billing = path.join(dir, 'src/features/billing');
    for (const name of ['search', 'settings']) {
      const to = path.join(dir, 'src/features', name);
      mkdirSync(to, { recursive: true });
      for (const f of readdirSync(billing)) {
        writeFileSync(
          path.join(to, f.replace('billing', name)),
          readFileSync(path.join(billing, f), 'utf8').replaceAll('billing', name).replaceAll(
            'Billing',
            name[0].toUpperCase() + name.slice(1),
          ),
        );
      }
    }
  });
  await bootstrap(ws);
  const boundary = listCandidates(ws).find((c) =>
    /Folders under `src\/features` do not import each other/.test(c.title)
  );
  assert.ok(boundary, listCandidates(ws).map((c) => c.title).join('\n'));
  assert.equal(boundary.knowledgeType, 'boundary-constraint');
  assert.match(boundary.summary, /^6 sibling folders \(billing, catalog, orders, search, settings and users\)/);
});

test("bootstrap finds the project's conventions as pending candidates with file:line sources", async () => {
  const ws = await fixtureWorkspace('bootstrap-ts');
  const result = await bootstrap(ws);
  assert.equal(result.scanned.files, 16);
  assert.deepEqual(result.targets, { count: 1, ecosystems: { npm: 1 } });
  assert.equal(result.primaryLanguage, 'typescript');
  assert.ok(result.candidates.created >= 12, JSON.stringify(result.candidates));

  const candidates = listCandidates(ws);
  assert.equal(candidates.length, result.candidates.created);
  const byTitle = (re: RegExp) => {
    const c = candidates.find((x) => re.test(x.title));
    assert.ok(c, `no candidate matching ${re}; titles:\n${candidates.map((x) => x.title).join('\n')}`);
    return c;
  };
  for (const c of candidates) {
    assert.equal(c.status, 'pending');
    assert.match(c.origin, /^bootstrap:/);
    assert.ok(c.tags.includes('bootstrap'));
    assert.ok(c.reasoning.confidence >= 0.5 && c.reasoning.confidence <= 1, `${c.title}: ${c.reasoning.confidence}`);
    assert.ok(c.reasoning.whyStandard.length > 10);
    assertSourcesExist(ws, c.reasoning.sources);
  }

  const http = byTitle(/HTTP requests are made only in `src\/core\/http-client\.ts`/);
  assert.equal(http.knowledgeType, 'boundary-constraint');
  assert.ok(http.reasoning.sources.every((s) => lineAt(ws, s).includes('fetch(')));

  const errors = byTitle(/Throw the project's `AppError`/);
  assert.equal(lineAt(ws, errors.reasoning.sources[0]).trim(), 'export class AppError extends Error {');
  assert.match(errors.code ?? '', /class AppError extends Error/);
  assert.ok(errors.reasoning.sources.slice(1).every((s) => lineAt(ws, s).includes('throw new AppError')));

  const helper = byTitle(/Reuse the internal `createLogger\(\)`/);
  assert.equal(helper.knowledgeType, 'code-pattern');
  assert.equal(helper.reasoning.sources[0], 'src/core/create-logger.ts:7', 'the declaration line');
  assert.ok(helper.reasoning.sources.slice(1).every((s) => lineAt(ws, s).includes('createLogger(')));
  assert.equal(helper.trigger, '@create-logger', 'a short kebab-case trigger named after the helper');
  assert.equal(helper.createdBy, 'system', 'the scan is the author');

  assert.equal(byTitle(/file names use kebab-case/).knowledgeType, 'code-standard');
  for (const c of candidates) {
    assert.ok(c.title.length <= 100, `title over 100: ${c.title}`);
    assert.ok(c.summary.length <= 300, `summary over 300: ${c.summary}`);
    assert.match(c.trigger, /^@[a-z0-9]+(-[a-z0-9]+)*$/, `kebab-case trigger: ${c.trigger}`);
    assert.ok(!c.code || !/^\S+:\d+\s/m.test(c.code), `code is code, not a listing of places: ${c.title}`);
  }
  assert.equal(
    byTitle(/Folders import only those listed after them: src\/app, src\/features, src\/core/).knowledgeType,
    'architecture',
  );
  // Four feature folders that happen not to import each other are not yet a boundary (see the six below).
  assert.ok(!candidates.some((c) => /do not import each other/.test(c.title)));
  assert.ok(
    byTitle(/^Agent instructions \(`AGENTS\.md`\): Never call `fetch`/).rationale?.includes('Never call `fetch`'),
    'the stated rules, as a list in the rationale',
  );
  assert.deepEqual(byTitle(/Generated files are not edited by hand/).reasoning.sources, [
    'src/generated/api-types.ts:1',
  ]);
  assert.deepEqual(byTitle(/TypeScript compiles in strict mode/).reasoning.sources, [
    'tsconfig.json:5',
    'tsconfig.json:6',
  ]);
  assert.equal(
    candidates.filter((c) => c.knowledgeType === 'project-profile').length,
    1,
    'exactly one project profile',
  );
  assert.match(byTitle(/Project profile/).rationale ?? '', /Build: `npm run build`/);

  // Patterns are not learned from generated code or tests.
  assert.ok(
    !candidates.some((c) =>
      c.reasoning.sources.some((s) => s.startsWith('test/')) && c.knowledgeType !== 'project-profile'
    ),
  );
  assert.ok(
    !candidates.some((c) =>
      c.knowledgeType !== 'boundary-constraint' && c.reasoning.sources.some((s) => s.startsWith('src/generated/'))
    ),
  );

  // Dimensions come with their guides from the skills.
  const dims = Object.fromEntries(result.dimensions.map((d: any) => [d.id, d]));
  assert.equal(dims['code-standard'].guideFrom, 'autosnippet-coldstart');
  assert.match(dims['code-standard'].guide, /naming/);
  assert.equal(dims['jsts-async'].guideFrom, 'autosnippet-reference-jsts');
  assert.ok(dims['jsts-type-safety'].created.length >= 1);
  assert.equal(
    dims['jsts-async'].created.length,
    0,
    "async/await over .then() is the language's advice, not this project's",
  );
  assert.equal(result.dimensions.reduce((n: number, d: any) => n + d.created.length, 0), result.candidates.created);

  // The file imports are in the graph.
  assert.ok(result.graph.fileImports >= 20);
  const impact = await catalog.invoke(ws, 'graph_impact', { node: 'file:src/core/app-error.ts', depth: 1 }, agent);
  assert.ok(dataOf(impact).dependents.some((d: any) => d.node === 'file:src/features/users/users-service.ts'));
  assert.ok(
    dataOf(impact).dependents.some((d: any) => d.node === 'target:shop-service'),
    'the containing target is impacted too',
  );
  assert.equal(result.graph.targetFiles, 16);
});

test('bootstrap is idempotent: the second run creates nothing and names the existing candidates', async () => {
  const ws = await fixtureWorkspace('bootstrap-ts');
  const first = await bootstrap(ws);
  const second = await bootstrap(ws);
  assert.equal(second.candidates.created, 0);
  assert.equal(second.candidates.existing, first.candidates.created);
  const firstIds = first.dimensions.flatMap((d: any) => d.created).sort();
  assert.deepEqual(second.dimensions.flatMap((d: any) => d.existing).sort(), firstIds);
  assert.equal(listCandidates(ws).length, first.candidates.created);
  assert.match(second.next, /Nothing new/);
});

test('bootstrap respects .gitignore: ignored code teaches nothing (and the same code, not ignored, would)', async () => {
  const leak = (dir: string) => {
    mkdirSync(path.join(dir, 'vendored-copy', 'internal'), { recursive: true });
    writeFileSync(
      path.join(dir, 'vendored-copy', 'internal', 'leak-helper.ts'),
      'export function leakedHelperXyz(n: number): number {\n  const twice = n * 2;\n  return twice - n;\n}\n',
    );
    for (const f of ['one', 'two', 'three', 'four']) {
      writeFileSync(
        path.join(dir, 'vendored-copy', `use-${f}.ts`),
        `import { leakedHelperXyz } from './internal/leak-helper';\nexport const ${f} = leakedHelperXyz(1);\n`,
      );
    }
  };
  const ignored = await fixtureWorkspace('bootstrap-ts', (dir) => {
    leak(dir);
    writeFileSync(path.join(dir, '.gitignore'), 'vendored-copy/\n');
  });
  const r = await bootstrap(ignored);
  assert.equal(r.scanned.files, 16, 'the ignored folder is not scanned');
  assert.ok(r.scanned.ignoredByGitignore >= 1);
  const cands = listCandidates(ignored);
  assert.ok(!cands.some((c) => c.title.includes('leakedHelperXyz')));
  assert.ok(!cands.some((c) => c.reasoning.sources.some((s) => s.startsWith('vendored-copy/'))));

  const control = await fixtureWorkspace('bootstrap-ts', leak);
  const rc = await bootstrap(control);
  assert.equal(rc.scanned.files, 21);
  assert.ok(
    listCandidates(control).some((c) => c.title.includes('leakedHelperXyz')),
    'without .gitignore the helper is found: the check above is meaningful',
  );
});

test('bootstrap reports progress from listing to done, with done ≤ total', async () => {
  const ws = await fixtureWorkspace('bootstrap-ts');
  const seen: { message?: string; done?: number; total?: number }[] = [];
  const r = await catalog.invoke(ws, 'bootstrap_knowledge', {}, { ...human, progress: (p) => seen.push(p) });
  assert.ok(r.ok);
  const messages = seen.map((p) => p.message ?? '');
  for (const re of [/^Listing/, /^Scanning 16 source files/, /^Analysing/, /^Recording/, /^Done: \d+ new candidates/]) {
    assert.ok(messages.some((m) => re.test(m)), `no progress matching ${re}: ${messages.join(' | ')}`);
  }
  const dones = seen.filter((p) => p.done !== undefined);
  assert.ok(dones.every((p, i) => p.done! <= p.total! && (i === 0 || p.done! >= dones[i - 1].done!)));
});

test('bootstrap can be cancelled: an aborted signal stops it with CANCELLED and creates nothing', async () => {
  const ws = await fixtureWorkspace('bootstrap-ts');
  const before = new AbortController();
  before.abort();
  const early = await catalog.invoke(ws, 'bootstrap_knowledge', {}, { ...agent, signal: before.signal });
  assert.equal(early.ok, false);
  assert.equal(errorOf(early).code, 'CANCELLED');

  const during = new AbortController();
  const r = await catalog.invoke(
    ws,
    'bootstrap_knowledge',
    {},
    {
      ...agent,
      signal: during.signal,
      progress: (p) => {
        if (p.message?.startsWith('Scanning')) during.abort();
      },
    },
  );
  assert.equal(r.ok, false);
  assert.equal(errorOf(r).code, 'CANCELLED');
  assert.match(errorOf(r).message, /cancelled after scanning \d+ of 16 files; no candidates were created/);
  assert.deepEqual(listCandidates(ws), []);
});

test('bootstrap bounds the files and keeps its answer compact on a large tree', async () => {
  const ws = await fixtureWorkspace('bootstrap-ts', (dir) => {
    for (let m = 0; m < 30; m++) {
      const d = path.join(dir, 'src', 'modules', `module-${m}`);
      mkdirSync(d, { recursive: true });
      for (let f = 0; f < 20; f++) {
        writeFileSync(
          path.join(d, `part-${f}.ts`),
          `import { createLogger } from '../../core/create-logger';\nconst log = createLogger('m${m}');\nexport function partNumber${m}x${f}(): number {\n  log.info('part');\n  return ${f};\n}\n`,
        );
      }
    }
  });
  const r = await catalog.invoke(ws, 'bootstrap_knowledge', { maxFiles: 120 }, agent);
  assert.ok(r.ok, JSON.stringify(r));
  const d = r.data as any;
  assert.equal(d.scanned.files, 120);
  assert.equal(d.scanned.eligible, 616);
  assert.equal(d.scanned.capped, true);
  assert.equal(r.truncated, undefined, 'the summary fits its bound without cutting');
  assert.ok(JSON.stringify(d).length < 12_000);
  const tooBig = await catalog.invoke(ws, 'bootstrap_knowledge', { maxFiles: 100_000 }, agent);
  assert.equal(errorOf(tooBig).code, 'INVALID_INPUT');
});

test('bootstrap can be limited to some dimensions', async () => {
  const ws = await fixtureWorkspace('bootstrap-ts');
  const r = await bootstrap(ws, { dimensions: ['architecture', 'project-profile'] });
  assert.deepEqual(r.dimensions.map((d: any) => d.id).sort(), ['architecture', 'project-profile']);
  assert.ok(
    listCandidates(ws).every((c) => ['bootstrap:architecture', 'bootstrap:project-profile'].includes(c.origin)),
  );
  const bad = await catalog.invoke(ws, 'bootstrap_knowledge', { dimensions: ['astrology'] }, agent);
  assert.equal(errorOf(bad).code, 'INVALID_INPUT');
});
