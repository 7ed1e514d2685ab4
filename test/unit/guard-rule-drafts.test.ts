// Rules drafted from what a card knows: checked on their own examples and on the repository today,
// reporting nothing on code that follows them and every planted violation at its line and column,
// while the same text in a comment, a string or an excluded test stays quiet.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createCatalog } from '../../src/core/catalog';
import { draftFromSeed, tryDraftRules } from '../../src/core/domains/guard/rule-draft-check';
import type { RuleSeed } from '../../src/core/domains/knowledge/rule-seed';
import type { GuardPattern } from '../../src/core/domains/knowledge/types';
import type { Workspace } from '../../src/core/ground/workspace';
import { guardWorkspace, writeFiles } from './guard-helpers';

/** A small Python library that logs through its logger and whose core never imports its CLI. */
const PY_FILES: Record<string, string> = {
  'pyproject.toml': '[project]\nname = "shop"\n',
  'src/shop/__init__.py': '',
  'src/shop/log.py': 'import logging\n\nlogger = logging.getLogger("shop")\n',
  'src/shop/core/__init__.py': '',
  'src/shop/core/orders.py': [
    'from shop.log import logger',
    '',
    '',
    'def total(items):',
    '    amount = sum(i.price for i in items)',
    '    logger.info("order total %s", amount)',
    '    # print(amount) was the old debugging aid',
    '    return amount',
    '',
  ].join('\n'),
  'src/shop/core/stock.py': [
    'from shop.log import logger',
    '',
    '',
    'def reserve(item, n):',
    '    logger.debug("reserving %d of %s", n, item)',
    '    note = "call print(stock) to see it"',
    '    return note',
    '',
  ].join('\n'),
  'src/shop/cli/__init__.py': '',
  'src/shop/cli/main.py': [
    'from shop.core.orders import total',
    'from shop.log import logger',
    '',
    '',
    'def main(items):',
    '    logger.info("done: %s", total(items))',
    '',
  ].join('\n'),
  'tests/test_orders.py': 'from shop.core.orders import total\n\n\ndef test_total():\n    print(total([]))\n',
};

/** A TypeScript app whose HTTP goes through its helper, and whose shared folder imports no feature. */
const TS_FILES: Record<string, string> = {
  'package.json': '{ "name": "app" }\n',
  'src/net/http.ts': [
    'export async function fetchJson(url: string): Promise<unknown> {',
    '  const res = await fetch(url);',
    '  return res.json();',
    '}',
    '',
  ].join('\n'),
  'src/shared/format.ts': "import { pad } from './pad';\n\nexport const money = (n: number) => pad(n.toFixed(2));\n",
  'src/shared/pad.ts': "export const pad = (s: string) => s.padStart(8, ' ');\n",
  'src/features/cart.ts': [
    "import { fetchJson } from '../net/http';",
    "import { money } from '../shared/format';",
    '',
    'export async function cart(): Promise<string> {',
    "  const data = (await fetchJson('/api/cart')) as { total: number };",
    '  return money(data.total);',
    '}',
    '',
  ].join('\n'),
  'src/features/user.ts': [
    "import { fetchJson } from '../net/http';",
    '',
    "export const user = () => fetchJson('/api/user');",
    '',
  ].join('\n'),
  'src/net/http.test.ts': "it('fetches', async () => { await fetch('/x'); });\n",
};

/** Inserts `line` after line `after` (1-based) of a copy of `from`; returns the copy's text. */
function plant(root: string, from: string, to: string, after: number, lines: string[]): void {
  const text = readFileSync(path.join(root, from), 'utf8').split('\n');
  text.splice(after, 0, ...lines);
  writeFiles(root, { [to]: text.join('\n') });
}

async function trial(ws: Workspace, guard: GuardPattern, language: string) {
  const out = (await tryDraftRules(ws, [{ key: 'k', title: 't', language, summary: 's', guards: [guard] }])).get('k')!;
  assert.deepEqual(out.problems, [], 'the drafted rule passes its own examples');
  return out.report!.rules[0];
}

function drafted(ws: Workspace, seed: RuleSeed): GuardPattern {
  const out = draftFromSeed(ws, seed, 'The project says so.');
  assert.ok(out.guard, out.problem);
  return out.guard;
}

describe('rules drafted from a Python card', () => {
  let t: Awaited<ReturnType<typeof guardWorkspace>>;
  before(async () => (t = await guardWorkspace(PY_FILES)));
  after(() => t.cleanup());

  it('no-direct-output: examples from the repository, nothing today, every planted print at its line and column', async () => {
    const guard = drafted(t.ws, {
      kind: 'no-direct-output',
      language: 'python',
      instead: '`logger`',
      goodAt: ['src/shop/core/orders.py:6', 'src/shop/core/stock.py:5'],
    });
    // The good examples are the repository's own lines; the bad ones the same lines printing instead.
    assert.ok(guard.examples!.good!.includes('logger.info("order total %s", amount)'));
    assert.ok(guard.examples!.bad!.includes('print("order total %s", amount)'));
    assert.ok(guard.examples!.good!.some((g) => g.startsWith('# ')), 'the bad line in a comment is a control');
    assert.equal((await trial(t.ws, guard, 'python')).total, 0, 'the repository follows the rule today');

    plant(t.root, 'src/shop/core/orders.py', 'src/shop/core/orders_planted.py', 5, [
      '    print("amount", amount)',
      '    # print("amount", amount)',
      '    label = "print(amount)"',
      '    if amount: print(amount)',
    ]);
    plant(t.root, 'src/shop/cli/main.py', 'src/shop/cli/main_planted.py', 6, ['    print(total(items))']);
    plant(t.root, 'tests/test_orders.py', 'tests/test_orders_planted.py', 5, ['    print("again")']);
    const report = await trial(t.ws, guard, 'python');
    assert.deepEqual(
      report.findings.map((f) => `${f.path}:${f.line}:${f.column}`).sort(),
      [
        'src/shop/cli/main_planted.py:7:5',
        'src/shop/core/orders_planted.py:6:5',
        'src/shop/core/orders_planted.py:9:16',
      ],
    );
  });

  it('forbid-import: core never imports cli, in either import form; a comment does not count', async () => {
    const guard = drafted(t.ws, {
      kind: 'forbid-import',
      language: 'python',
      files: 'src/shop/core',
      modules: ['src/shop/cli'],
      goodAt: ['src/shop/cli/main.py:1'],
    });
    assert.deepEqual(guard.include, ['src/shop/core/**']);
    assert.equal((await trial(t.ws, guard, 'python')).total, 0);
    plant(t.root, 'src/shop/core/stock.py', 'src/shop/core/stock_planted.py', 1, [
      'from shop.cli.main import main',
      '# from shop.cli.main import main',
      'import shop.cli',
    ]);
    // The same import from the CLI itself is outside the rule's files.
    plant(t.root, 'src/shop/cli/main.py', 'src/shop/cli/main_again.py', 1, ['from shop.cli import main']);
    const report = await trial(t.ws, guard, 'python');
    assert.deepEqual(
      report.findings.map((f) => `${f.path}:${f.line}:${f.column}`),
      ['src/shop/core/stock_planted.py:2:1', 'src/shop/core/stock_planted.py:4:1'],
    );
  });
});

describe('rules drafted from a TypeScript card', () => {
  let t: Awaited<ReturnType<typeof guardWorkspace>>;
  before(async () => (t = await guardWorkspace(TS_FILES)));
  after(() => t.cleanup());

  it("prefer-helper: the standard call is reported outside the helper's file, tests and strings aside", async () => {
    const guard = drafted(t.ws, {
      kind: 'prefer-helper',
      language: 'typescript',
      standard: ['fetch'],
      helper: 'fetchJson',
      definedIn: 'src/net/http.ts',
      goodAt: ['src/features/cart.ts:5', 'src/features/user.ts:3'],
    });
    assert.ok(guard.examples!.bad!.includes("export const user = () => fetch('/api/user');"));
    assert.equal((await trial(t.ws, guard, 'typescript')).total, 0, 'the helper itself calls fetch: excluded');
    plant(t.root, 'src/features/user.ts', 'src/features/user_planted.ts', 3, [
      "export const team = () => fetch('/api/team');",
      "// export const team = () => fetch('/api/team');",
      "export const doc = 'call fetch(url) yourself';",
    ]);
    plant(t.root, 'src/net/http.test.ts', 'src/features/cart.test.ts', 1, ["it('x', () => fetch('/y'));"]);
    const report = await trial(t.ws, guard, 'typescript');
    assert.deepEqual(report.findings.map((f) => `${f.path}:${f.line}:${f.column}`), [
      'src/features/user_planted.ts:4:27',
    ]);
  });

  it('forbid-import: the shared folder never imports features, by relative path at any depth', async () => {
    const guard = drafted(t.ws, {
      kind: 'forbid-import',
      language: 'typescript',
      files: 'src/shared',
      modules: ['src/features'],
      goodAt: ['src/features/cart.ts:2'],
    });
    assert.equal(guard.in, 'strings');
    assert.equal((await trial(t.ws, guard, 'typescript')).total, 0);
    writeFiles(t.root, {
      'src/shared/deep/planted.ts': [
        "import { cart } from '../../features/cart';",
        "// import { user } from '../../features/user';",
        "import { pad } from '../pad';",
        'export const both = [cart, pad];',
        '',
      ].join('\n'),
    });
    const report = await trial(t.ws, guard, 'typescript');
    assert.deepEqual(report.findings.map((f) => `${f.path}:${f.line}:${f.column}`), [
      'src/shared/deep/planted.ts:1:23',
    ]);
  });

  it('a drafted rule that reports its own good example is refused, and nothing is offered', async () => {
    const guard: GuardPattern = {
      id: 'too-broad',
      message: 'No fetch.',
      pattern: 'fetch',
      languages: ['typescript'],
      examples: { bad: ["fetch('/x')"], good: ["fetchJson('/x')"] },
    };
    const out =
      (await tryDraftRules(t.ws, [{ key: 'k', title: 't', language: 'typescript', summary: 's', guards: [guard] }]))
        .get('k')!;
    assert.equal(out.guards.length, 0);
    assert.equal(out.report, undefined);
    assert.equal(out.problems[0].field, 'examples.good[0]');
    assert.match(out.problems[0].message, /reports its good example 1/);
  });
});

describe('propose_guard_rule: the agent proposes, a person approves the rule with the candidate', () => {
  let t: Awaited<ReturnType<typeof guardWorkspace>>;
  const catalog = createCatalog();
  const agent = { actor: 'external_agent' as const, channel: 'test' as const };
  const human = { actor: 'human' as const, channel: 'test' as const };
  const invoke = async (tool: string, input: unknown, ctx: typeof agent | typeof human = agent) =>
    catalog.invoke(t.ws, tool, input, ctx);
  before(async () => (t = await guardWorkspace(TS_FILES, { trusted: true })));
  after(() => t.cleanup());

  async function candidate(title: string): Promise<string> {
    const r = await invoke('submit_candidate', {
      title,
      summary: 'HTTP goes through fetchJson, which parses and reports errors the same way everywhere.',
      language: 'typescript',
      knowledgeType: 'code-standard',
      code: "export const user = () => fetchJson('/api/user');",
      reasoning: { whyStandard: 'Every feature calls it.', sources: ['src/features/user.ts:3'], confidence: 0.9 },
    });
    assert.ok(r.ok, JSON.stringify(r));
    return (r.data as { id: string }).id;
  }

  it('a rule that reports its own good example is refused and nothing is stored', async () => {
    const id = await candidate('HTTP calls go through fetchJson, refused rule');
    const r = await invoke('propose_guard_rule', {
      candidateId: id,
      rule: {
        id: 'no-fetch',
        message: 'Use fetchJson.',
        pattern: 'fetch',
        examples: { bad: ["fetch('/x')"], good: ["fetchJson('/x')"] },
      },
    });
    assert.equal(r.ok, false);
    assert.ok(!r.ok && r.error.code === 'INVALID_INPUT' && /good example 1/.test(r.error.message), JSON.stringify(r));
    const c = await invoke('get_candidate', { id });
    assert.ok(c.ok, JSON.stringify(c));
    assert.equal((c.data as { title: string }).title, 'HTTP calls go through fetchJson, refused rule');
    assert.equal((c.data as { constraints?: unknown }).constraints, undefined);
  });

  const handWritten = (good: string) => ({
    title: `HTTP calls go through fetchJson (${good})`,
    summary: 'HTTP goes through fetchJson, which parses and reports errors the same way everywhere.',
    language: 'typescript',
    knowledgeType: 'code-standard',
    code: "export const user = () => fetchJson('/api/user');",
    reasoning: { whyStandard: 'Every feature calls it.', sources: ['src/features/user.ts:3'], confidence: 0.9 },
    constraints: {
      guards: [{
        id: 'no-raw-fetch',
        message: 'Use fetchJson.',
        pattern: '\\bfetch\\(',
        exclude: ['src/net/**'],
        examples: { bad: ["fetch('/x')"], good: [good] },
      }],
    },
  });

  it('a guard written into a submitted card gets the same trial: refused with its field, or stored with its report', async () => {
    const bad = await invoke('submit_candidate', handWritten("fetch('/y')"));
    assert.ok(!bad.ok && bad.error.code === 'INVALID_INPUT', JSON.stringify(bad));
    const details = !bad.ok ? bad.error.details as { field?: string } | undefined : undefined;
    assert.equal(details?.field, 'constraints.guards.examples.good[0]');
    assert.match(!bad.ok ? bad.error.message : '', /good example 1/);

    const good = await invoke('submit_candidate', handWritten("fetchJson('/x')"));
    assert.ok(good.ok, JSON.stringify(good));
    assert.deepEqual((good.data as { guards?: unknown }).guards, [{ id: 'no-raw-fetch', total: 0 }]);
    const c = await invoke('get_candidate', { id: (good.data as { id: string }).id });
    const stored = c.ok ? c.data as { guardReport?: { files: number; rules: { total: number }[] } } : {};
    assert.ok(stored.guardReport, 'the person sees what the rule reports today');
    assert.ok(stored.guardReport!.files >= 4);
    assert.deepEqual(stored.guardReport!.rules.map((r) => r.total), [0]);

    const batch = await invoke('submit_candidates', {
      candidates: [handWritten("fetchJson('/z')"), handWritten("fetch('/w')")],
    });
    assert.ok(batch.ok, JSON.stringify(batch));
    const b = batch.data as { created: string[]; refused: { input: number; issues: { field: string }[] }[] };
    assert.equal(b.created.length, 1);
    assert.deepEqual((batch.data as { guards?: unknown }).guards, [{
      id: b.created[0],
      rules: [{ id: 'no-raw-fetch', total: 0 }],
    }]);
    assert.deepEqual(b.refused.map((r) => r.input), [1]);
    assert.match(b.refused[0].issues[0].field, /^constraints\.guards/);
  });

  it('drafted from a seed, stored pending, written to the recipe on approval and enforced once published', async () => {
    const id = await candidate('HTTP calls go through fetchJson');
    const r = await invoke('propose_guard_rule', {
      candidateId: id,
      seed: {
        kind: 'prefer-helper',
        standard: ['fetch'],
        helper: 'fetchJson',
        definedIn: 'src/net/http.ts',
        goodAt: ['src/features/user.ts:3'],
      },
    });
    assert.ok(r.ok, JSON.stringify(r));
    const data = r.data as { rules: GuardPattern[]; report: { rules: { total: number }[] } };
    assert.equal(data.rules[0].id, 'prefer-fetch-json');
    assert.deepEqual(data.report.rules.map((x) => x.total), [0]);
    // Pending: a published recipe's guards run; a candidate's do not.
    const planted = "export const team = () => fetch('/api/team');\n";
    const before = await invoke('guard_check', { code: planted, language: 'typescript', path: 'src/features/team.ts' });
    assert.ok(
      before.ok
        && !(before.data as { violations: { ruleId: string }[] }).violations.some((v) =>
          v.ruleId.startsWith('recipe/')
        ),
    );

    const approved = await invoke('approve_candidate', { id }, human);
    assert.ok(approved.ok, JSON.stringify(approved));
    const recipe = (approved.data as { recipe: { id: string; file: string } }).recipe;
    assert.match(
      readFileSync(path.join(t.root, recipe.file), 'utf8'),
      /constraints:\n\s+guards:\n\s+- id: prefer-fetch-json/,
    );
    const published = await invoke('publish_recipe', { id: recipe.id }, human);
    assert.ok(published.ok, JSON.stringify(published));
    const after = await invoke('guard_check', { code: planted, language: 'typescript', path: 'src/features/team.ts' });
    assert.ok(after.ok, JSON.stringify(after));
    const hit = (after.data as { violations: { ruleId: string; start: { line: number; column: number } }[] }).violations
      .find((v) => v.ruleId === `recipe/${recipe.id}/prefer-fetch-json`);
    assert.deepEqual(hit?.start, { line: 1, column: 27 });
  });
});
