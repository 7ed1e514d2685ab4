// Guard: checking a 5,000-line TypeScript file with every built-in rule, re-checking it after a
// one-line edit, and scanning an installed source tree (the typescript package's lib) — side by side
// with ripgrep running the same regular expressions (the ceiling for regex scanning) and ESLint
// running comparable rules (what a user would otherwise run).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { builtinRules } from '../src/core/guard/packs';
import { RuleRunner } from '../src/core/guard/runner';
import { GuardEngine } from '../src/core/guard/engine';
import type { GuardRule } from '../src/core/guard/rule';
import { mergeSettings } from '../src/core/settings';
import { median, ms, percentile, ratio, sample, type BenchTable } from './lib';

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
    i % 8 === 0 ? `  risky(k: string) { return this.cache.get(k)!.name as any; }` : `  safe(k: string) { return this.cache.get(k)?.name ?? ''; }`,
    i % 8 === 1 ? `  swallow() { try { this.flush(); } catch (e) {} }` : `  flush() { this.log.info("flush", { size: this.cache.size }); }`,
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
  return rules.filter((r) => r.pattern.kind === 'regex' && (r.languages.includes(language) || r.languages.includes('*')));
}

/** ripgrep with PCRE2 (our patterns use lookbehind), all patterns in one run, counting matches. */
function ripgrep(patterns: string[], target: string): number {
  const args = ['-P', '--no-config', '--no-ignore', '--count-matches', '--no-filename', '-j', String(Math.max(1, os.availableParallelism())), ...patterns.flatMap((p) => ['-e', p]), target];
  const r = spawnSync(RG, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`rg failed: ${r.stderr}`);
  return r.stdout.split('\n').filter(Boolean).reduce((a, b) => a + Number(b), 0);
}

const eslintCoreRules: Linter.RulesRecord = {
  'no-eval': 'error', 'no-new-func': 'error', 'no-implied-eval': 'error', 'no-debugger': 'error',
  'no-empty': 'warn', 'no-console': 'warn', 'no-await-in-loop': 'warn',
};

function eslintConfig(typescript: boolean): Linter.Config[] {
  if (!typescript) return [{ files: ['**/*.js'], languageOptions: { ecmaVersion: 'latest', sourceType: 'script' }, rules: eslintCoreRules }];
  return [{
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser as Linter.Parser, ecmaVersion: 'latest', sourceType: 'module' },
    plugins: { '@typescript-eslint': tseslint.plugin as never },
    rules: { ...eslintCoreRules, '@typescript-eslint/no-non-null-assertion': 'warn', '@typescript-eslint/no-explicit-any': 'warn' },
  }];
}

function filesUnder(dir: string, exts: string[]): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p, exts));
    else if (exts.some((x) => e.name.endsWith(x))) out.push(p);
  }
  return out;
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
    const versions = Array.from({ length: 40 }, (_, i) => { const l = [...lines]; l[2500] = `  const probe${i} = eval(input${i});`; return l.join('\n'); });
    const edited = (i: number) => versions[(i + 40) % 40];
    defaults.checkText(text, 'typescript', { documentKey: 'doc', incremental: true });
    const inc = await sample(30, (i) => defaults.checkText(edited(i), 'typescript', { documentKey: 'doc', incremental: true, budgetMs: 5000 }), 3);
    withTree.checkText(text, 'typescript', { documentKey: 'doc', incremental: true });
    const incTree = await sample(30, (i) => withTree.checkText(edited(i), 'typescript', { documentKey: 'doc', incremental: true, budgetMs: 5000 }), 3);
    const rgPatterns = regexRules(rules, 'typescript').map((r) => (r.pattern as { regex: string }).regex);
    const rgFile = await sample(10, () => ripgrep(rgPatterns, file), 1);
    const linter = new Linter({ configType: 'flat' });
    const tsConfig = eslintConfig(true);
    const eslintFound = linter.verify(text, tsConfig, { filename: 'service.ts' }).length;
    const eslintFile = await sample(5, () => linter.verify(text, tsConfig, { filename: 'service.ts' }), 1);
    const fileTable: BenchTable = {
      title: `Guard: one 5,000-line TypeScript file (${(bytes / 1024).toFixed(0)} KiB, the ${ruleCount} built-in rules on by default)`,
      columns: ['what', 'p50', 'p95', 'vs guard full check'],
      rows: [
        ['guard: full check', ms(median(full)), ms(percentile(full, 95)), '-'],
        ['guard: re-check after a one-line edit (incremental)', ms(median(inc)), ms(percentile(inc, 95)), ratio(median(inc), median(full))],
        ['guard + the opt-in tree-sitter rule (ts/await-in-loop): full check', ms(median(fullTree)), ms(percentile(fullTree, 95)), ratio(median(fullTree), median(full))],
        ['guard + the opt-in tree-sitter rule: re-check after a one-line edit', ms(median(incTree)), ms(percentile(incTree, 95)), ratio(median(incTree), median(full))],
        ['ripgrep -P, same regexes (process spawn included)', ms(median(rgFile)), ms(percentile(rgFile, 95)), ratio(median(rgFile), median(full))],
        ['ESLint + typescript-eslint parser, comparable rules', ms(median(eslintFile)), ms(percentile(eslintFile, 95)), ratio(median(eslintFile), median(full))],
      ],
      notes: [`guard reported ${found} violations, ESLint ${eslintFound}. ripgrep is not comment/string-aware, so it also counts matches in comments and strings.`],
    };

    // 2. A large installed tree.
    const tree = path.dirname(require.resolve('typescript/lib/typescript.js'));
    const treeFiles = filesUnder(tree, ['.js', '.ts']);
    const treeBytes = treeFiles.reduce((a, f) => a + statSync(f).size, 0);
    const mb = treeBytes / 1e6;
    const host = { root: tree, settings: mergeSettings({ trusted: true }), log: { debug() {}, info() {}, warn() {}, error() {} } };
    const scans: number[] = [];
    let scanFiles = 0;
    let threaded = false;
    for (let i = 0; i < 2; i++) {
      const engine = new GuardEngine(host);
      const t0 = performance.now();
      const res = await engine.scan({ maxFileBytes: 64 << 20, budgetMs: 30_000 });
      scans.push(performance.now() - t0);
      scanFiles = res.files;
      threaded = res.threaded;
      await engine.dispose();
    }
    const jsPatterns = [...new Set([...regexRules(rules, 'javascript'), ...regexRules(rules, 'typescript')].map((r) => (r.pattern as { regex: string }).regex))];
    const rgTree = await sample(3, () => ripgrep(jsPatterns, tree), 1);
    const eslintTarget = path.join(tree, '_tsc.js');
    const eslintBytes = statSync(eslintTarget).size;
    const jsText = readFileSync(eslintTarget, 'utf8');
    const t0 = performance.now();
    linter.verify(jsText, eslintConfig(false), { filename: '_tsc.js' });
    const eslintMs = performance.now() - t0;
    const rate = (b: number, t: number) => `${(b / 1e6 / (t / 1000)).toFixed(1)} MB/s`;
    const scanTable: BenchTable = {
      title: `Guard: scanning node_modules/typescript/lib (${treeFiles.length} files, ${mb.toFixed(1)} MB)`,
      columns: ['what', 'time', 'throughput'],
      rows: [
        [`guard scan, cold (${scanFiles} files, ${threaded ? `${os.availableParallelism() > 2 ? Math.min(4, os.availableParallelism() - 1) : 1} worker thread(s)` : 'in-thread'})`, ms(scans[0]), rate(treeBytes, scans[0])],
        ['guard scan, second engine (cold again)', ms(scans[1]), rate(treeBytes, scans[1])],
        [`ripgrep -P, same regexes, ${os.availableParallelism()} threads`, ms(median(rgTree)), rate(treeBytes, median(rgTree))],
        [`ESLint, comparable core rules, on _tsc.js only (${(eslintBytes / 1e6).toFixed(1)} MB)`, ms(eslintMs), rate(eslintBytes, eslintMs)],
      ],
      notes: ['The guard scan includes listing the tree, reading, masking comments and strings, and every default rule; ESLint parses and walks an AST.'],
    };
    return [fileTable, scanTable];
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
