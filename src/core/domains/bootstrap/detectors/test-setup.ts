// Kind 7, test idioms: the shared setup most test files use to build the thing under test. Four
// constructs compete, each measured as the share of test files that use it: a pytest fixture from a
// conftest.py, a helper declared in test code and called from other test files, a stand-in type the
// product ships for tests (Mock…, Fake…, InMemory…), a helper module most test files import.
import type { DetectedCard, DetectorFacts, FileRecord } from '../repo-facts';

/** The share of test files a setup must reach to be the suite's idiom, and the fewest files. */
const MIN_SHARE = 0.25;
const MIN_FILES = 3;
const MIN_TEST_FILES = 5;
const STAND_IN = /^(Mock|Fake|Stub|InMemory|Dummy|Test|Recording)[A-Z]\w*$|^\w+(Mock|Fake|Stub|Double)$/;
const HELPER_MODULE =
  /(^|[/._-])(test[-_]?utils?|testing|helpers?|fixtures?|support|setup|common|testkit|mocks?|fakes?)([/._-]|$)/i;
const TEST_NAME = /^(test|Test|setUp|tearDown|before|after)[A-Z_]?|^(it|describe|expect)$/;

interface Setup {
  name: string;
  how: 'fixture' | 'helper' | 'stand-in' | 'module';
  declared?: string;
  users: FileRecord[];
  /** Where a user uses it: `path:line`. */
  at: (user: FileRecord) => string;
}

export function detectTestSetup(facts: DetectorFacts): DetectedCard[] {
  const tests = facts.files.filter((f) => f.kind === 'test' && f.tests > 0);
  if (tests.length < MIN_TEST_FILES) return [];
  const need = Math.max(MIN_FILES, Math.ceil(tests.length * MIN_SHARE));
  const setups = [
    ...fixtures(facts, tests),
    ...helpers(facts, tests),
    ...standIns(facts, tests),
    ...modules(facts, tests),
  ]
    .filter((s) => s.users.length >= need)
    .sort((a, b) => b.users.length - a.users.length);
  const best = setups[0];
  if (!best) return [];
  return [card(best, tests, facts)];
}

function fixtures(facts: DetectorFacts, tests: readonly FileRecord[]): Setup[] {
  const out: Setup[] = [];
  for (const f of facts.files.filter((x) => /(^|\/)conftest\.py$/.test(x.path))) {
    const dir = f.path.replace(/[^/]*$/, '');
    for (const fx of f.fixtures) {
      const users = tests.filter((t) => t.path.startsWith(dir) && t.fixtureParams.has(fx.name));
      const at = (u: FileRecord) => `${u.path}:${u.fixtureParams.get(fx.name) ?? 1}`;
      out.push({ name: fx.name, how: 'fixture', declared: `${f.path}:${fx.line}`, users, at });
    }
  }
  return out;
}

/** Functions and types declared once in test code and used from other test files. */
function helpers(facts: DetectorFacts, tests: readonly FileRecord[]): Setup[] {
  const declared = new Map<string, { at: string; path: string }[]>();
  for (const f of facts.files.filter((x) => x.kind === 'test')) {
    for (const d of f.decls) {
      if (d.kind === 'constant' || TEST_NAME.test(d.name) || d.name.length < 4) continue;
      declared.set(d.name, [...(declared.get(d.name) ?? []), { at: `${f.path}:${d.line}`, path: f.path }]);
    }
  }
  const out: Setup[] = [];
  for (const [name, at] of declared) {
    // A name declared in several test files is each file's own, not a shared helper.
    if (at.length !== 1) continue;
    const users = tests.filter((t) => t.path !== at[0].path && t.uses.has(name));
    out.push({ name, how: 'helper', declared: at[0].at, users, at: usedAt(name) });
  }
  return out;
}

/**
 * Types the product declares as stand-ins for tests, used from test files. A name declared in two
 * production files (a current stand-in and a deprecated copy) is attributed per test file by the
 * import that names the declaration's package path; a test that imports neither uses the first.
 */
function standIns(facts: DetectorFacts, tests: readonly FileRecord[]): Setup[] {
  const byName = new Map<string, string[]>();
  for (const f of facts.files.filter((x) => x.kind === 'production')) {
    for (const d of f.decls) {
      if (d.kind !== 'type' || !STAND_IN.test(d.name)) continue;
      byName.set(d.name, [...(byName.get(d.name) ?? []), `${f.path}:${d.line}`]);
    }
  }
  const out: Setup[] = [];
  for (const [name, declared] of byName) {
    const users = new Map<string, FileRecord[]>(declared.map((d) => [d, []]));
    for (const t of tests) {
      if (!t.uses.has(name) && !t.qualifiedUses.has(name)) continue;
      const imported = declared.find((d) => t.imports.some((i) => importNames(i.spec, d)));
      users.get(imported ?? declared[0])!.push(t);
    }
    for (const [at, list] of users) out.push({ name, how: 'stand-in', declared: at, users: list, at: usedAt(name) });
  }
  return out;
}

/** Whether an import (`server3.MockServer`, `pkg/mock`) names the file declared at `path:line`. */
function importNames(spec: string, declared: string): boolean {
  const file = declared.replace(/:\d+$/, '').replace(/\.\w+$/, '');
  const tail = spec.replace(/\.\*$/, '').split(/[./:]+/).filter(Boolean).join('/');
  return tail.includes('/')
    && (file.endsWith(`/${tail}`) || file.endsWith(`/${tail.replace(/\/[^/]*$/, '')}/${baseOf(file)}`));
}

const baseOf = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/** A helper module most test files import (`./helpers`, `tests.utils`, a testkit package). */
function modules(facts: DetectorFacts, tests: readonly FileRecord[]): Setup[] {
  const byModule = new Map<string, FileRecord[]>();
  const folders = new Set(facts.files.flatMap((f) => {
    const parts = f.path.split('/');
    return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/'));
  }));
  const files = new Set(facts.files.map((f) => f.path.replace(/\.\w+$/, '')));
  // The project's own module: a relative import, or a module path whose tail is a folder or file of the
  // repository (a standard or third-party module of the same name, `testing`, is not the project's setup).
  const own = (t: FileRecord, spec: string) => {
    if (spec.startsWith('.')) return true;
    const segments = spec.split(/[./]/).filter(Boolean);
    for (let n = Math.min(3, segments.length); n >= 1; n--) {
      const tail = segments.slice(-n).join('/');
      if (n === 1 && segments.length > 1 && !folders.has(tail) && !files.has(tail)) continue;
      if (folders.has(tail) || files.has(tail)) return true;
    }
    return t.path.startsWith(segments.join('/') + '/');
  };
  for (const t of tests) {
    const specs = t.imports.filter((i) => HELPER_MODULE.test(i.spec) && own(t, i.spec)).map((i) => moduleKey(i.spec));
    for (const spec of new Set(specs)) {
      byModule.set(spec, [...(byModule.get(spec) ?? []), t]);
    }
  }
  return [...byModule].map(([name, users]) => ({
    name,
    how: 'module' as const,
    users,
    at: (u: FileRecord) => `${u.path}:${u.imports.find((i) => moduleKey(i.spec) === name)?.line ?? 1}`,
  }));
}

const usedAt = (name: string) => (u: FileRecord) => `${u.path}:${u.uses.get(name) ?? u.qualifiedUses.get(name) ?? 1}`;

/** `../../helpers/server` and `./helpers/server` are one module: its path without the leading dots. */
const moduleKey = (spec: string) => spec.replace(/^(\.\.?\/)+/, '').replace(/\.[cm]?[jt]sx?$/, '');

/** The deepest folder holding every file. */
function commonDir(paths: readonly string[]): string {
  const parts = paths.map((p) => p.split('/').slice(0, -1));
  const out: string[] = [];
  for (let i = 0; parts.every((p) => i < p.length) && parts.every((p) => p[i] === parts[0][i]); i++) {
    out.push(parts[0][i]);
  }
  return out.join('/');
}

/** A test folder of several test files none of which uses the setup: where the rule does not hold. */
function exceptionOf(setup: Setup, tests: readonly FileRecord[]): string | undefined {
  const users = new Set(setup.users.map((u) => u.path));
  const byDir = new Map<string, { all: number; using: number }>();
  for (const t of tests) {
    const dir = t.path.replace(/\/[^/]*$/, '');
    const e = byDir.get(dir) ?? { all: 0, using: 0 };
    e.all++;
    if (users.has(t.path)) e.using++;
    byDir.set(dir, e);
  }
  const without = [...byDir].filter(([, e]) => e.all >= 3 && e.using === 0).sort((a, b) => b[1].all - a[1].all);
  return without[0]?.[0];
}

function card(setup: Setup, tests: readonly FileRecord[], facts: DetectorFacts): DetectedCard {
  const scope = commonDir(setup.users.map((u) => u.path));
  const where = scope ? `Tests under \`${scope}/\`` : 'Tests';
  const from = setup.declared ? setup.declared.replace(/:\d+$/, '') : undefined;
  const use = {
    fixture:
      `take the pytest fixture \`${setup.name}\` (from ${from}) as a parameter rather than building it in the test`,
    helper: `reuse the helper \`${setup.name}\` (declared in ${from}) rather than writing their own`,
    'stand-in': `use the product's stand-in \`${setup.name}\` (${from}) in place of the real dependency`,
    module: `import their setup from the shared helper module \`${setup.name}\``,
  }[setup.how];
  const exception = exceptionOf(setup, tests);
  const other = exception
    ? ` The exception is \`${exception}/\`, whose tests do not use it.`
    : ' A test that needs something the shared setup cannot give builds it in the test, next to its assertions.';
  const family = setup.users[0].family;
  const title = {
    fixture: `Tests get their subject from the \`${setup.name}\` fixture`,
    helper: `Tests reuse the shared helper \`${setup.name}\``,
    'stand-in': `Tests replace real dependencies with \`${setup.name}\``,
    module: `Tests import their setup from \`${setup.name}\``,
  }[setup.how];
  return {
    title,
    knowledgeType: 'code-pattern',
    dimension: 'code-pattern',
    language: facts.languageOf(family),
    category: 'testing',
    summary: `${where} ${use}; a new test does the same.${other}`,
    code: '',
    ...(setup.declared ? { excerptAt: setup.declared } : {}),
    details: [
      `Used by ${setup.users.length} of ${tests.length} test files, e.g.:`,
      ...setup.users.slice(0, 8).map((u) => `- ${u.path}`),
    ].join('\n'),
    reasoning: {
      whyStandard:
        `Used by ${setup.users.length} of ${tests.length} test files: a test written another way stands out in review.`,
      sources: [...(setup.declared ? [setup.declared] : []), ...setup.users.slice(0, 5).map(setup.at)],
      confidence: setup.users.length * 2 >= tests.length ? 0.85 : 0.7,
    },
    tags: ['code-pattern', 'testing', setup.how],
    trigger: setup.name,
  };
}
