import { statSync } from 'node:fs';
import { AutoSnippetError, ErrorCode } from '../kernel/errors';
import type { Logger } from '../kernel/log';
import type { Settings } from '../settings';
import { WorkerPool } from '../workers/pool';
import { GlobSet } from './filters';
import { listWorkspaceFiles } from './files';
import { knownLanguages, normalizeLanguage } from '../kernel/languages';
import { builtinRules } from './packs';
import { readProjectGuardConfig, type ProjectGuardConfig } from './project-rules';
import { checkPatternSyntax, type PatternVerdict } from './regex-safety';
import type { CheckResult, GuardRule, RuleProblem, Severity, Violation } from './rule';
import { severityRank } from './rule';
import { RuleRunner, type RunnerConfig, type TextCheckOptions } from './runner';
import { grammarFor, TreeSitterHost } from './structural';
import type { CheckFilesJob, FileCheck } from './worker-tasks';

/** What the engine needs from a workspace (a `Workspace` satisfies it). */
export interface GuardHost {
  root: string;
  settings: Settings;
  log: Logger;
}

export interface RuleStatus {
  rule: GuardRule;
  active: boolean;
  /** Why an inactive rule does not run. */
  reason?: string;
  severity: Severity;
}

export interface ScanOptions {
  /** Workspace-relative or absolute paths; default the whole workspace. */
  paths?: string[];
  signal?: AbortSignal;
  progress?(p: { done: number; total: number; message?: string }): void;
  budgetMs?: number;
  maxFileBytes?: number;
}

export interface ScanResult {
  root: string;
  /** Files checked (not counting skipped ones). */
  files: number;
  bytes: number;
  durationMs: number;
  counts: Record<Severity, number>;
  violations: Violation[];
  /** Rules stopped by the time budget, per file. */
  stopped: { path: string; ruleId: string; detail: string }[];
  skipped: { path: string; reason: string }[];
  problems: RuleProblem[];
  threaded: boolean;
}

const BATCH_FILES = 24;
const BATCH_BYTES = 1 << 20;

/**
 * The guard for one workspace: the built-in packs, the project's rules (only when the workspace is
 * trusted), rules from other sources (recipes), validated once and compiled per language; checks of
 * text and documents on the caller's thread under a time budget; file and workspace scans on worker
 * threads.
 */
export class GuardEngine {
  private readonly sources = new Map<string, GuardRule[]>();
  private readonly verdicts = new Map<string, PatternVerdict>();
  private readonly treeSitter = new TreeSitterHost();
  private readonly fileCache = new Map<string, { key: string; mtimeMs: number; bytes: number; result: FileCheck }>();
  private state?: Promise<LoadedState>;
  private stateKey = '';
  private generation = 0;
  readonly pool: WorkerPool;
  private readonly ownsPool: boolean;

  constructor(private readonly host: GuardHost, options: { pool?: WorkerPool; budgetMs?: number } = {}) {
    this.pool = options.pool ?? new WorkerPool({ log: host.log });
    this.ownsPool = !options.pool;
    this.budgetMs = options.budgetMs;
  }

  private readonly budgetMs?: number;

  /** Adds or replaces rules from another source (recipes' constraints, an extension); they are validated like project rules. */
  setRuleSource(name: string, rules: GuardRule[]): void {
    this.sources.set(name, rules);
    this.invalidate();
  }

  /** Re-reads the project's rule files on the next use. */
  invalidate(): void {
    this.generation++;
    this.fileCache.clear();
  }

  private key(): string {
    const s = this.host.settings;
    return JSON.stringify([this.generation, s.trusted, s.guard.severityOverrides, s.guard.exclude]);
  }

  private loaded(): Promise<LoadedState> {
    const key = this.key();
    if (!this.state || key !== this.stateKey) {
      const previous = this.state;
      this.stateKey = key;
      this.state = this.load();
      void previous?.then((p) => p.runner.dispose(), () => undefined);
    }
    return this.state;
  }

  private async load(): Promise<LoadedState> {
    const s = this.host.settings;
    const project = readProjectGuardConfig(this.host.root);
    const problems: RuleProblem[] = [...project.problems];
    const statuses = new Map<string, RuleStatus>();
    for (const rule of builtinRules()) statuses.set(rule.id, { rule, active: true, severity: rule.severity });
    const foreign: GuardRule[] = [...project.rules, ...[...this.sources.values()].flat()];
    const seen = new Set<string>();
    const candidates: GuardRule[] = [];
    for (const rule of foreign) {
      if (seen.has(rule.id)) {
        problems.push({ source: rule.source, ruleId: rule.id, code: 'DUPLICATE_RULE', message: `Rule ${rule.id} is defined more than once; the first definition wins.`, hint: 'Rename one of them.' });
        continue;
      }
      seen.add(rule.id);
      if (!s.trusted) {
        statuses.set(rule.id, { rule, active: false, reason: 'the workspace is not trusted: project rules do not run', severity: rule.severity });
        continue;
      }
      candidates.push(rule);
    }
    const invalid = await this.validate(candidates, problems);
    for (const rule of candidates) {
      const why = invalid.get(rule.id);
      const replaced = statuses.get(rule.id);
      if (!why && replaced?.rule.origin === 'builtin') this.host.log.info(`guard: ${rule.source} replaces the built-in rule ${rule.id}`);
      statuses.set(rule.id, why ? { rule, active: false, reason: why, severity: rule.severity } : { rule, active: true, severity: rule.severity });
    }
    const severityOverrides = { ...project.severity, ...s.guard.severityOverrides };
    for (const st of statuses.values()) {
      const o = severityOverrides[st.rule.id];
      if (o === 'off') Object.assign(st, { active: false, reason: 'turned off by a severity override' });
      else if (o && o in severityRank) st.severity = o as Severity;
      else if (st.rule.disabledByDefault) Object.assign(st, { active: false, reason: 'off by default; turn it on with a severity override' });
    }
    const config: RunnerConfig = { severityOverrides, ruleExclusions: project.ruleExclusions };
    const active = [...statuses.values()].filter((st) => st.active).map((st) => st.rule);
    const runner = new RuleRunner(active, config, this.treeSitter);
    return { project, problems, statuses, runner, config, active, exclude: new GlobSet([...project.exclude, ...s.guard.exclude]), rulesKey: `${this.host.root}|${this.stateKey}` };
  }

  /** Regex safety (in a worker) and query compilation; returns rule id → why it was refused. */
  private async validate(rules: GuardRule[], problems: RuleProblem[]): Promise<Map<string, string>> {
    const invalid = new Map<string, string>();
    const refuse = (rule: GuardRule, code: RuleProblem['code'], message: string, hint?: string) => {
      invalid.set(rule.id, message);
      problems.push({ source: rule.source, ruleId: rule.id, code, message: `${rule.id}: ${message}`, hint });
    };
    const toAnalyze: GuardRule[] = [];
    for (const rule of rules) {
      const unknown = rule.languages.filter((l) => l !== '*' && !normalizeLanguage(l));
      if (unknown.length) this.host.log.warn(`guard: rule ${rule.id} names unknown language(s) ${unknown.join(', ')}; known: ${knownLanguages().join(', ')}`);
      if (rule.pattern.kind === 'regex') {
        const syntax = checkPatternSyntax(rule.pattern.regex, rule.pattern.flags ?? '');
        if (syntax) refuse(rule, 'INVALID_RULE', syntax.message!, 'Test the pattern in a JavaScript console: new RegExp(source, flags).');
        else if (!this.verdicts.has(verdictKey(rule))) toAnalyze.push(rule);
        continue;
      }
      const grammars = [...new Set(rule.languages.map((l) => grammarFor(normalizeLanguage(l) ?? l)).filter((g): g is string => !!g))];
      if (grammars.length === 0) {
        refuse(rule, 'INVALID_RULE', `structural patterns need a parser, and there is none for ${rule.languages.join(', ')}.`, 'Use a regex for this language.');
        continue;
      }
      for (const g of grammars) {
        try {
          (await this.treeSitter.compileQuery(g, rule.pattern.query)).delete();
        } catch (e) {
          refuse(rule, 'INVALID_RULE', `the tree-sitter query does not compile for ${g}: ${(e as Error).message}`, 'Check node names in the grammar (e.g. with the tree-sitter playground).');
          break;
        }
      }
    }
    if (toAnalyze.length) {
      const patterns = toAnalyze.map((r) => ({ source: (r.pattern as { regex: string }).regex, flags: (r.pattern as { flags?: string }).flags ?? '' }));
      let verdicts: PatternVerdict[];
      try {
        verdicts = await this.pool.run<PatternVerdict[]>('guard.analyzePatterns', { patterns, timeoutMs: 2000 }, { timeoutMs: 20_000 + 3000 * patterns.length });
      } catch (e) {
        this.host.log.warn(`guard: regex analysis failed (${(e as Error).message}); project patterns run under the time budget only`);
        verdicts = patterns.map(() => ({ ok: true, status: 'tolerated', message: 'not analyzed' }));
      }
      toAnalyze.forEach((r, i) => this.verdicts.set(verdictKey(r), verdicts[i]));
    }
    for (const rule of rules) {
      if (rule.pattern.kind !== 'regex' || invalid.has(rule.id)) continue;
      const v = this.verdicts.get(verdictKey(rule));
      if (v && !v.ok) refuse(rule, v.status === 'invalid' ? 'INVALID_RULE' : 'UNSAFE_PATTERN', v.message ?? 'unsafe pattern', 'The rule is not loaded until its pattern is fixed.');
    }
    return invalid;
  }

  async rules(): Promise<RuleStatus[]> {
    return [...(await this.loaded()).statuses.values()];
  }

  async problems(): Promise<RuleProblem[]> {
    return (await this.loaded()).problems;
  }

  async rule(id: string): Promise<RuleStatus> {
    const st = (await this.loaded()).statuses;
    const found = st.get(id);
    if (found) return found;
    const ids = [...st.keys()];
    const close = ids.filter((x) => x.includes(id) || id.includes(x.split('/').pop() ?? x)).slice(0, 5);
    throw new AutoSnippetError('RULE_NOT_FOUND', `There is no guard rule "${id}".`, `Call guard_rules for the ids.${close.length ? ` Close: ${close.join(', ')}` : ''}`, { known: ids.length });
  }

  /** Whether guard skips a workspace-relative path (settings and project excludes). */
  async isExcluded(relPath: string): Promise<boolean> {
    return (await this.loaded()).exclude.has(relPath);
  }

  /** Checks text. With `documentKey` + `incremental`, only the lines around the last edit are re-checked. */
  async check(text: string, language: string, opts: TextCheckOptions = {}): Promise<CheckResult> {
    const lang = normalizeLanguage(language);
    if (!lang) throw new AutoSnippetError(ErrorCode.InvalidInput, `Unknown language "${language}".`, `Use one of: ${knownLanguages().join(', ')}.`);
    const state = await this.loaded();
    if (opts.path !== undefined && state.exclude.has(opts.path)) return { violations: [], stopped: [], incomplete: false, elapsedMs: 0 };
    await state.runner.prepare(lang);
    return state.runner.checkText(text, lang, { budgetMs: this.budgetMs, ...opts });
  }

  forgetDocument(documentKey: string): void {
    void this.state?.then((s) => s.runner.forgetDocument(documentKey), () => undefined);
  }

  /** Checks files or folders (workspace scan when `paths` is empty) on worker threads. */
  async scan(opts: ScanOptions = {}): Promise<ScanResult> {
    const t0 = performance.now();
    const state = await this.loaded();
    const languages = new Set(knownLanguages().filter((l) => state.runner.rulesFor(l).length > 0));
    const listing = await listWorkspaceFiles(this.host, { paths: opts.paths, exclude: state.exclude, languages, signal: opts.signal });
    const total = listing.files.length;
    opts.progress?.({ done: 0, total, message: `${total} files to check` });
    const results: FileCheck[] = [];
    const pending: typeof listing.files = [];
    for (const f of listing.files) {
      const hit = this.cached(f.rel, f.abs, state.rulesKey);
      if (hit) results.push(hit);
      else pending.push(f);
    }
    let done = results.length;
    const batches = batch(pending);
    const job = (files: typeof pending): CheckFilesJob => ({
      root: this.host.root, rulesKey: state.rulesKey, rules: state.active, config: state.config, files,
      budgetMs: opts.budgetMs ?? 2000, maxFileBytes: opts.maxFileBytes ?? 4 << 20,
    });
    await Promise.all(batches.map(async (files) => {
      const out = await this.pool.run<FileCheck[]>('guard.checkFiles', job(files), { signal: opts.signal });
      for (const r of out) {
        results.push(r);
        this.fileCache.set(r.path, { key: state.rulesKey, mtimeMs: r.mtimeMs, bytes: r.bytes, result: r });
      }
      done += out.length;
      opts.progress?.({ done, total, message: `${done}/${total} files` });
    })).catch((e) => {
      if (opts.signal?.aborted) throw new AutoSnippetError(ErrorCode.Cancelled, 'The scan was cancelled.');
      throw e;
    });
    results.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0, hint: 0 };
    const violations: Violation[] = [];
    const stopped: ScanResult['stopped'] = [];
    const skipped = [...listing.skipped];
    let bytes = 0;
    let files = 0;
    for (const r of results) {
      if (r.skipped) {
        skipped.push({ path: r.path, reason: r.skipped });
        continue;
      }
      files++;
      bytes += r.bytes;
      for (const v of r.violations) {
        counts[v.severity]++;
        violations.push(v);
      }
      for (const s of r.stopped) stopped.push({ path: r.path, ruleId: s.ruleId, detail: s.detail });
    }
    return { root: this.host.root, files, bytes, durationMs: performance.now() - t0, counts, violations, stopped, skipped, problems: state.problems, threaded: this.pool.threaded };
  }

  private cached(rel: string, abs: string, key: string): FileCheck | undefined {
    const c = this.fileCache.get(rel);
    if (!c || c.key !== key) return undefined;
    try {
      const st = statSync(abs);
      return st.mtimeMs === c.mtimeMs && st.size === c.bytes ? c.result : undefined;
    } catch {
      return undefined;
    }
  }

  async dispose(): Promise<void> {
    const s = await this.state?.catch(() => undefined);
    s?.runner.dispose();
    this.treeSitter.dispose();
    if (this.ownsPool) await this.pool.dispose();
  }
}

interface LoadedState {
  project: ProjectGuardConfig;
  problems: RuleProblem[];
  statuses: Map<string, RuleStatus>;
  runner: RuleRunner;
  config: RunnerConfig;
  active: GuardRule[];
  exclude: GlobSet;
  rulesKey: string;
}

function verdictKey(rule: GuardRule): string {
  const p = rule.pattern as { regex: string; flags?: string };
  return `${p.flags ?? ''}/${p.regex}`;
}

function batch<T extends { abs: string }>(files: T[]): T[][] {
  const out: T[][] = [];
  let cur: T[] = [];
  let bytes = 0;
  for (const f of files) {
    let size = 0;
    try {
      size = statSync(f.abs).size;
    } catch {
      /* reported by the worker */
    }
    if (cur.length && (cur.length >= BATCH_FILES || bytes + size > BATCH_BYTES)) {
      out.push(cur);
      cur = [];
      bytes = 0;
    }
    cur.push(f);
    bytes += size;
  }
  if (cur.length) out.push(cur);
  return out;
}

export function sortViolations(vs: Violation[]): Violation[] {
  return vs.sort((a, b) => (a.path ?? '').localeCompare(b.path ?? '') || a.start.line - b.start.line || a.start.column - b.start.column || severityRank[a.severity] - severityRank[b.severity]);
}
