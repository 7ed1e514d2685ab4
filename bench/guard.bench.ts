// Guard: checking a 5,000-line TypeScript file with every built-in rule, re-checking it after a
// one-line edit, and scanning an installed source tree (the typescript package's lib) — side by side
// with ripgrep running the same regular expressions (the ceiling for regex scanning) and ESLint
// running comparable rules (what a user would otherwise run).
import { Linter } from 'eslint';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import tseslint from 'typescript-eslint';
import { GuardEngine } from '../src/core/domains/guard/engine';
import { listWorkspaceFiles } from '../src/core/domains/guard/files';
import { GlobSet } from '../src/core/domains/guard/filters';
import { builtinRules } from '../src/core/domains/guard/packs';
import type { GuardRule } from '../src/core/domains/guard/rule';
import { RuleRunner } from '../src/core/domains/guard/runner';
import { guardWorkerHandlers } from '../src/core/domains/guard/worker-tasks';
import { mergeSettings } from '../src/core/ground/settings';
import { WorkerPool } from '../src/core/ground/workers/pool';
import { type BenchTable, median, ms, percentile, ratio, sample } from './lib';

const RG = '/usr/bin/rg';

/** A realistic 5,000-line TypeScript module: classes, async code, a few violations every 200 lines. */
function typescriptFile(lines = 5000): string {
  const block = (i: number) => [
    `// Section ${i}: request handling for resource ${i}`,
    `export interface Resource${i} { id: string; name: string; tags: string[]; updated?: Date }`,
    `export class Service${i} {`,
    `  private readonly cache = new Map<string, Resource${i}>();`,
    `  constructor(private readonly client: ApiClient, private readonly log: Logger) {}`,
    `  async load(id: string): Promise<Resource${i} | undefined> {`,
    `    const hit = this.cache.get(id);`,
    `    if (hit) return hit;`,
    `    const res = await this.client.get<Resource${i}>(\`/resources/${i}/\${id}\`);`,
    `    this.cache.set(id, res);`,
    `    return res;`,
    `  }`,
    `  names(): string[] {`,
    `    return [...this.cache.values()].map((r) => r.name.trim()).filter((n) => n.length > 0);`,
    `  }`,
    i % 8 === 0
      ? `  risky(k: string) { return this.cache.get(k)!.name as any; }`
      : `  safe(k: string) { return this.cache.get(k)?.name ?? ''; }`,
    i % 8 === 1
      ? `  swallow() { try { this.flush(); } catch (e) {} }`
      : `  flush() { this.log.info("flush", { size: this.cache.size }); }`,
    `  /* Tags are normalised to lower case; "eval(" in a comment is not code. */`,
    `  tags(id: string) { return (this.cache.get(id)?.tags ?? []).map((t) => t.toLowerCase()); }`,
    `}`,
    '',
  ];
  const out: string[] = [];
  for (let i = 0; out.length < lines; i++) out.push(...block(i));
  return out.slice(0, lines).join('\n') + '\n';
}

function regexRules(rules: GuardRule[], language: string): GuardRule[] {
  return rules.filter((r) =>
    r.pattern.kind === 'regex' && (r.languages.includes(language) || r.languages.includes('*'))
  );
}

/**
 * The pattern as PCRE2 takes it: PCRE2 has no variable-length lookbehind, so such a lookbehind is
 * dropped (ripgrep then matches a little more, never less, and does no less work).
 */
function forPcre2(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === '\\') {
      out += pattern.slice(i, i + 2);
      i++;
      continue;
    }
    if (pattern.startsWith('(?<!', i) || pattern.startsWith('(?<=', i)) {
      let depth = 0;
      let j = i;
      for (; j < pattern.length; j++) {
        if (pattern[j] === '\\') j++;
        else if (pattern[j] === '(') depth++;
        else if (pattern[j] === ')' && --depth === 0) break;
      }
      const body = pattern.slice(i + 4, j).replace(/\\./g, '');
      if (/[+*?{]/.test(body.replace(/\(\?:/g, '('))) {
        i = j;
        continue;
      }
    }
    out += pattern[i];
  }
  return out;
}

/** ripgrep with PCRE2 (our patterns use lookbehind), all patterns in one run, counting matches. */
function ripgrep(patterns: string[], target: string, files?: string[]): number {
  const args = [
    '-P',
    '--no-config',
    '--no-ignore',
    '--count-matches',
    '--no-filename',
    '-j',
    String(Math.max(1, os.availableParallelism())),
    ...patterns.flatMap((p) => ['-e', forPcre2(p)]),
    ...(files ?? [target]),
  ];
  const r = spawnSync(RG, args, { encoding: 'utf8', maxBuffer: 1 << 26, cwd: files ? target : undefined });
  if (r.status !== 0 && r.status !== 1) throw new Error(`rg failed: ${r.stderr}`);
  return r.stdout.split('\n').filter(Boolean).reduce((a, b) => a + Number(b), 0);
}

const eslintCoreRules: Linter.RulesRecord = {
  'no-eval': 'error',
  'no-new-func': 'error',
  'no-implied-eval': 'error',
  'no-debugger': 'error',
  'no-empty': 'warn',
  'no-console': 'warn',
  'no-await-in-loop': 'warn',
};

function eslintConfig(typescript: boolean): Linter.Config[] {
  if (!typescript) {
    return [{
      files: ['**/*.js'],
      languageOptions: { ecmaVersion: 'latest', sourceType: 'script' },
      rules: eslintCoreRules,
    }];
  }
  return [{
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser as Linter.Parser, ecmaVersion: 'latest', sourceType: 'module' },
    plugins: { '@typescript-eslint': tseslint.plugin as never },
    rules: {
      ...eslintCoreRules,
      '@typescript-eslint/no-non-null-assertion': 'warn',
      '@typescript-eslint/no-explicit-any': 'warn',
    },
  }];
}

export async function run(): Promise<BenchTable[]> {
  const rules = builtinRules();
  const text = typescriptFile();
  const bytes = Buffer.byteLength(text);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'guard-bench-'));
  const file = path.join(tmp, 'service.ts');
  writeFileSync(file, text);
  try {
    // 1. One 5,000-line file.
    const defaults = new RuleRunner(rules, { severityOverrides: {}, ruleExclusions: [] });
    await defaults.prepare('typescript');
    const withTree = new RuleRunner(rules, { severityOverrides: { 'ts/await-in-loop': 'info' }, ruleExclusions: [] });
    await withTree.prepare('typescript');
    const ruleCount = defaults.rulesFor('typescript').length;
    const found = defaults.checkText(text, 'typescript').violations.length;
    const full = await sample(30, () => defaults.checkText(text, 'typescript', { budgetMs: 5000 }), 3);
    const fullTree = await sample(15, () => withTree.checkText(text, 'typescript', { budgetMs: 5000 }), 2);
    const lines = text.split('\n');
    const versions = Array.from({ length: 40 }, (_, i) => {
      const l = [...lines];
      l[2500] = `  const probe${i} = eval(input${i});`;
      return l.join('\n');
    });
    const edited = (i: number) => versions[(i + 40) % 40];
    // As the editor checks it: with the file's path (classification, fingerprints against a baseline).
    const at = { documentKey: 'doc', incremental: true, path: 'src/service.ts' };
    defaults.checkText(text, 'typescript', at);
    const inc = await sample(200, (i) => defaults.checkText(edited(i), 'typescript', { ...at, budgetMs: 5000 }), 10);
    withTree.checkText(text, 'typescript', at);
    const incTree = await sample(100, (i) => withTree.checkText(edited(i), 'typescript', { ...at, budgetMs: 5000 }), 5);
    const rgPatterns = regexRules(rules, 'typescript').map((r) => (r.pattern as { regex: string }).regex);
    const rgFile = await sample(10, () => ripgrep(rgPatterns, file), 1);
    const linter = new Linter({ configType: 'flat' });
    const tsConfig = eslintConfig(true);
    const eslintFound = linter.verify(text, tsConfig, { filename: 'service.ts' }).length;
    const eslintFile = await sample(5, () => linter.verify(text, tsConfig, { filename: 'service.ts' }), 1);
    const fileTable: BenchTable = {
      title: `Guard: one 5,000-line TypeScript file (${
        (bytes / 1024).toFixed(0)
      } KiB, the ${ruleCount} built-in rules on by default)`,
      columns: ['what', 'p50', 'p95', 'vs guard full check'],
      rows: [
        ['guard: full check', ms(median(full)), ms(percentile(full, 95)), '-'],
        [
          'guard: re-check after a one-line edit (incremental)',
          ms(median(inc)),
          ms(percentile(inc, 95)),
          ratio(median(inc), median(full)),
        ],
        [
          'guard + the opt-in tree-sitter rule (ts/await-in-loop): full check',
          ms(median(fullTree)),
          ms(percentile(fullTree, 95)),
          ratio(median(fullTree), median(full)),
        ],
        [
          'guard + the opt-in tree-sitter rule: re-check after a one-line edit',
          ms(median(incTree)),
          ms(percentile(incTree, 95)),
          ratio(median(incTree), median(full)),
        ],
        [
          'ripgrep -P, same regexes (process spawn included)',
          ms(median(rgFile)),
          ms(percentile(rgFile, 95)),
          ratio(median(rgFile), median(full)),
        ],
        [
          'ESLint + typescript-eslint parser, comparable rules',
          ms(median(eslintFile)),
          ms(percentile(eslintFile, 95)),
          ratio(median(eslintFile), median(full)),
        ],
      ],
      notes: [
        `guard reported ${found} violations, ESLint ${eslintFound}. ripgrep is not comment/string-aware, so it also counts matches in comments and strings.`,
      ],
    };

    // 2. Workspace scans against ripgrep on the same rules: many small files, then large ones.
    const scanTables = [
      await scanVersusRipgrep(
        path.resolve(__dirname, '../node_modules'),
        "this project's node_modules (many small JS/TS files)",
        rules,
      ),
      await scanVersusRipgrep(
        path.dirname(require.resolve('typescript/lib/typescript.js')),
        'node_modules/typescript/lib (large files)',
        rules,
      ),
    ];
    const tree = path.dirname(require.resolve('typescript/lib/typescript.js'));
    const eslintTarget = path.join(tree, '_tsc.js');
    const eslintBytes = statSync(eslintTarget).size;
    const jsText = readFileSync(eslintTarget, 'utf8');
    const t0 = performance.now();
    linter.verify(jsText, eslintConfig(false), { filename: '_tsc.js' });
    const eslintMs = performance.now() - t0;
    scanTables[1].rows.push([
      `ESLint, comparable core rules, on _tsc.js only (${(eslintBytes / 1e6).toFixed(1)} MB)`,
      ms(eslintMs),
      `${(eslintBytes / 1e6 / (eslintMs / 1000)).toFixed(1)} MB/s`,
      '-',
    ]);
    return [fileTable, ...scanTables];
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * A CI scan (every core, worker threads already started) of `root` against ripgrep with the same
 * regular expressions over the same JS/TS files, interleaved runs, medians. Guard also masks comments
 * and strings, classifies files and applies suppressions; ripgrep matches raw text.
 */
async function scanVersusRipgrep(root: string, label: string, rules: GuardRule[]): Promise<BenchTable> {
  const patterns = [
    ...new Set(
      [...regexRules(rules, 'javascript'), ...regexRules(rules, 'typescript')].filter((r) => !r.disabledByDefault).map((
        r,
      ) => (r.pattern as { regex: string }).regex),
    ),
  ];
  // Every kind of file, as ripgrep sees them (guard skips vendored, generated and minified ones by default).
  const host = {
    root,
    settings: mergeSettings({ trusted: true, guard: { skipKinds: [] } }),
    log: { debug() {}, info() {}, warn() {}, error() {} },
  };
  const ours: number[] = [];
  const theirs: number[] = [];
  let bytes = 0;
  let files = 0;
  let found = 0;
  // ripgrep reads exactly the files guard lists (the workspace walker skips build output, vendor
  // folders and what .gitignore lists).
  const listed = (await listWorkspaceFiles(host, { exclude: new GlobSet([]) })).files.map((f) => f.rel);
  for (let i = 0; i < 3; i++) {
    // The threads run the bundled worker (dist/guard-worker.js, built by `npm run bench`), as the CLI
    // and the extension do; from the sources they would go through tsx's loader.
    const pool = new WorkerPool({
      entry: {
        bundled: path.relative(
          path.resolve(__dirname, '../src/core/ground/workers'),
          path.resolve(__dirname, '../dist/guard-worker.js'),
        ),
        source: '',
      },
      handlers: guardWorkerHandlers,
      size: os.availableParallelism(),
    });
    const engine = new GuardEngine(host, { pool });
    await Promise.all(
      Array.from(
        { length: engine.pool.size },
        () => engine.pool.run('guard.analyzePatterns', { patterns: [], timeoutMs: 100 }),
      ),
    );
    const t0 = performance.now();
    const res = await engine.scan({ maxFileBytes: 64 << 20, budgetMs: 30_000 });
    ours.push(performance.now() - t0);
    ({ bytes, files } = res);
    found = res.violations.length;
    await engine.dispose();
    await pool.dispose();
    theirs.push((await sample(1, () => ripgrep(patterns, root, listed), 0))[0]);
  }
  const rate = (t: number) => `${(bytes / 1e6 / (t / 1000)).toFixed(1)} MB/s`;
  return {
    title: `Guard: scanning ${label}: ${files} files, ${(bytes / 1e6).toFixed(1)} MB`,
    columns: ['what', 'median', 'throughput', 'vs ripgrep'],
    rows: [
      [
        `guard scan, ${os.availableParallelism()} worker threads (CI), the ${patterns.length} default regexes for JS/TS`,
        ms(median(ours)),
        rate(median(ours)),
        ratio(median(ours), median(theirs)),
      ],
      [`ripgrep -P, same regexes, ${os.availableParallelism()} threads`, ms(median(theirs)), rate(median(theirs)), '-'],
    ],
    notes: [
      `guard found ${found} violations, its threads running the bundled worker. Both read the files guard's workspace walker lists (all source files; on non-JS/TS files guard runs only its two common rules, ripgrep every pattern). Runs interleaved (guard, ripgrep) three times; thread start-up excluded (the bundled CLI starts its threads in milliseconds).`,
    ],
  };
}
