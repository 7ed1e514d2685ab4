import { statSync } from 'node:fs';
import path from 'node:path';
import { classifyFile, type FileKind } from '../../ground/files/classify';
import { AutoSnippetError, ErrorCode } from '../../ground/kernel/errors';
import { knownLanguages, normalizeLanguage } from '../../ground/kernel/languages';
import type { Logger } from '../../ground/kernel/log';
import type { Settings } from '../../ground/settings';
import { WorkerPool } from '../../ground/workers/pool';
import {
  type AbsentFinding,
  BASELINE_FILE,
  BaselineError,
  type BaselineRead,
  compareWithBaseline,
  markReviewed,
  readBaseline,
  type ReviewTarget,
  writeBaseline,
} from './baseline';
import { listWorkspaceFiles, relPath, type WorkspaceFile } from './files';
import { GlobSet } from './filters';
import { headerLanguage } from './header-language';
import { followLinterSettings, readLinterSettings } from './linter-config';
import { type GuardLocale, localizeRule, localizeViolation } from './locale';
import { RuleOverruns } from './overruns';
import { builtinRules } from './packs';
import { type ProjectGuardConfig, readProjectGuardConfig } from './project-rules';
import type { CheckResult, GuardRule, RuleProblem, Severity, Violation } from './rule';
import { severityRank } from './rule';
import { selfTestRules } from './rule-selftest';
import { DEFAULT_SKIP_KINDS, RuleRunner, type RunnerConfig, type TextCheckOptions } from './runner';
import { TreeSitterHost } from './structural';
import { PatternVetting } from './vetting';
import { type CheckFilesJob, type FileCheck, guardWorkerHandlers } from './worker-tasks';

/** The guard's worker thread: dist/guard-worker.js beside the bundle, or worker-main.ts from the sources. */
const GUARD_WORKER = { bundled: 'guard-worker.js', source: path.join(__dirname, 'worker-main.ts') };
/** A scan thread holds a batch of files (4 MB each at most), their masks and matches: far below this. */
const GUARD_THREAD_LIMITS = { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 64 };

/** Rules another part of AutoSnippet contributes (see GuardEngine.addRuleSource). */
export interface RuleSource {
  /** Changes when the rules change; cheap and synchronous, asked on every use. */
  key(): string;
  rules(): GuardRule[];
  /** Catches up with the files the rules come from; `force` when a watcher saw them change. */
  refresh?(force?: boolean): Promise<void>;
}

/** What the engine needs from a workspace (a `Workspace` satisfies it). */
export interface GuardHost {
  root: string;
  settings: Settings;
  log: Logger;
  /** Creates `.autosnippet/` (with its .gitignore) before the first file guard writes there: the baseline. */
  ensureDataDir?(): void;
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
  /** Compare with the project's baseline (`.autosnippet/guard/baseline.json`) when there is one; default `use`. */
  baseline?: 'use' | 'ignore';
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
  /** Files not checked for their kind (vendored, generated, minified by default), counted per kind. */
  notChecked: Partial<Record<FileKind, number>>;
  /** Against the baseline, when the project has one: each violation carries its `baselineState`. */
  baseline?: {
    file: string;
    new: number;
    unchanged: number;
    absent: AbsentFinding[]; /** Of `unchanged`, those marked reviewed. */
    reviewed: number;
  };
  /** Counts of the violations that are not in the baseline (all of them without one). */
  newCounts: Record<Severity, number>;
  problems: RuleProblem[];
  threaded: boolean;
}

const BATCH_FILES = 24;

/**
 * The guard for one workspace: the built-in packs, the project's rules (only when the workspace is
 * trusted), rules from other sources (recipes), validated once and compiled per language; checks of
 * text and documents on the caller's thread under a time budget; file and workspace scans on worker
 * threads.
 */
export class GuardEngine {
  private readonly sources = new Map<string, RuleSource>();
  private readonly treeSitter = new TreeSitterHost();
  private readonly fileCache = new Map<string, { key: string; mtimeMs: number; bytes: number; result: FileCheck }>();
  private state?: Promise<LoadedState>;
  private stateKey = '';
  private generation = 0;
  readonly pool: WorkerPool;
  private readonly vetting: PatternVetting;
  private readonly overruns = new RuleOverruns();
  private readonly ownsPool: boolean;

  constructor(private readonly host: GuardHost, options: { pool?: WorkerPool; budgetMs?: number } = {}) {
    this.pool = options.pool
      ?? new WorkerPool({
        entry: GUARD_WORKER,
        handlers: guardWorkerHandlers,
        log: host.log,
        resourceLimits: GUARD_THREAD_LIMITS,
      });
    this.vetting = new PatternVetting(this.treeSitter, this.pool, host.log);
    this.ownsPool = !options.pool;
    this.budgetMs = options.budgetMs;
  }

  private readonly budgetMs?: number;

  /** The language of built-in rules' messages in what the engine returns (see locale.ts); set by the adapter. */
  locale: GuardLocale = 'en';

  private localized(state: LoadedState, vs: Violation[]): Violation[] {
    return this.locale === 'en'
      ? vs
      : vs.map((v) => localizeViolation(v, this.locale, state.statuses.get(v.ruleId)?.rule.origin));
  }

  private localizedStatus(st: RuleStatus): RuleStatus {
    return this.locale === 'en' ? st : { ...st, rule: localizeRule(st.rule, this.locale) };
  }

  /** Adds or replaces a fixed list of rules from another source (an extension); validated like project rules. */
  setRuleSource(name: string, rules: GuardRule[]): void {
    this.addRuleSource(name, { key: () => '', rules: () => rules });
  }

  /**
   * Adds or replaces a source of rules that change on their own (the guard constraints of published
   * recipes): its rules are read again whenever its key changes.
   */
  addRuleSource(name: string, source: RuleSource): void {
    this.sources.set(name, source);
    this.invalidate();
  }

  /** Lets every source catch up with the files it reads (before a scan, or, forced, when a watcher saw them change). */
  async refreshSources(force = false): Promise<void> {
    for (const [name, s] of this.sources) {
      try {
        await s.refresh?.(force);
      } catch (e) {
        this.host.log.warn(`guard: the rule source ${name} could not refresh: ${(e as Error).message}`);
      }
    }
  }

  /** Re-reads the project's rule files on the next use. */
  invalidate(): void {
    this.generation++;
    this.fileCache.clear();
    this.baselineRead = undefined;
  }

  private key(): string {
    const s = this.host.settings;
    const sources = [...this.sources.values()].map((src) => {
      try {
        return src.key();
      } catch {
        return '?';
      }
    });
    return JSON.stringify([
      this.generation,
      s.trusted,
      s.guard.severityOverrides,
      s.guard.exclude,
      s.guard.skipKinds,
      sources,
    ]);
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
    const foreign: GuardRule[] = [...project.rules];
    for (const [name, src] of this.sources) {
      try {
        foreign.push(...src.rules());
      } catch (e) {
        problems.push({
          source: name,
          code: 'UNREADABLE_RULES',
          message: `The rules of ${name} could not be read: ${(e as Error).message}`,
        });
      }
    }
    const seen = new Set<string>();
    const candidates: GuardRule[] = [];
    const untrusted: GuardRule[] = [];
    for (const rule of foreign) {
      if (seen.has(rule.id)) {
        problems.push({
          source: rule.source,
          ruleId: rule.id,
          code: 'DUPLICATE_RULE',
          message: `Rule ${rule.id} is defined more than once; the first definition wins.`,
          hint: 'Rename one of them.',
        });
        continue;
      }
      seen.add(rule.id);
      if (!s.trusted) {
        untrusted.push(rule);
        statuses.set(rule.id, {
          rule,
          active: false,
          reason: `the workspace is not trusted: project rules do not run${s.trustNote ? ` (${s.trustNote})` : ''}`,
          severity: rule.severity,
        });
        continue;
      }
      candidates.push(rule);
    }
    // Said once, loudly: a CI run of an untrusted clone must not pass silently on the built-in rules alone.
    if (untrusted.length) {
      const sources = [...new Set(untrusted.map((r) => r.source))];
      problems.push({
        source: sources[0],
        code: 'UNTRUSTED_RULES',
        message: `${untrusted.length} project rule${untrusted.length === 1 ? '' : 's'} (${
          sources.join(', ')
        }) did not run: ${s.trustNote ?? 'the workspace is not trusted'}.`,
        hint: 'In CI, pass --trust: autosnippet --trust guard.',
      });
    }
    const invalid = await this.vetting.vet(candidates, problems);
    for (const p of problems) {
      const rule = p.ruleId && !p.field ? candidates.find((r) => r.id === p.ruleId) : undefined;
      if (rule && rule.source === p.source) {
        Object.assign(
          p,
          { field: rule.pattern.kind === 'regex' ? 'pattern' : 'query' },
          rule.file ? { file: rule.file } : {},
        );
      }
    }
    const failing = await selfTestRules(candidates.filter((r) => !invalid.has(r.id)), this.treeSitter, problems);
    for (const [id, why] of failing) invalid.set(id, why);
    for (const candidate of candidates) {
      const why = invalid.get(candidate.id);
      const verdict = this.vetting.verdictOf(candidate);
      const rule = verdict?.linear ? { ...candidate, linear: true } : candidate;
      const replaced = statuses.get(rule.id);
      if (!why && replaced?.rule.origin === 'builtin') {
        this.host.log.info(`guard: ${rule.source} replaces the built-in rule ${rule.id}`);
      }
      const overran = why ? undefined : this.overruns.reasonFor(rule);
      if (overran) {
        problems.push({
          source: rule.source,
          ruleId: rule.id,
          code: 'RULE_OVERRAN',
          message: `${rule.id}: ${overran}.`,
          hint: 'Anchor the pattern or remove nested and overlapping repetitions, then save the rule file.',
        });
      }
      const off = why ?? overran;
      statuses.set(
        rule.id,
        off
          ? { rule, active: false, reason: off, severity: rule.severity }
          : { rule, active: true, severity: rule.severity },
      );
    }
    const severityOverrides = { ...project.severity, ...s.guard.severityOverrides };
    const ruleExclusions = [...project.ruleExclusions];
    const linters = readLinterSettings(this.host.root);
    for (const st of statuses.values()) {
      const o = severityOverrides[st.rule.id];
      if (o === 'off') Object.assign(st, { active: false, reason: 'turned off by a severity override' });
      else if (o && o in severityRank) st.severity = o as Severity;
      else followLinterSettings(st, linters, ruleExclusions, severityOverrides);
    }
    const config: RunnerConfig = {
      severityOverrides,
      ruleExclusions,
      skipKinds: s.guard.skipKinds ?? [...DEFAULT_SKIP_KINDS],
    };
    const active = [...statuses.values()].filter((st) => st.active).map((st) => st.rule);
    const runner = new RuleRunner(active, config, this.treeSitter);
    return {
      project,
      problems,
      statuses,
      runner,
      config,
      active,
      exclude: new GlobSet([...project.exclude, ...s.guard.exclude]),
      rulesKey: `${this.host.root}|${this.stateKey}`,
    };
  }

  async rules(): Promise<RuleStatus[]> {
    return [...(await this.loaded()).statuses.values()].map((st) => this.localizedStatus(st));
  }

  async problems(): Promise<RuleProblem[]> {
    return (await this.loaded()).problems;
  }

  async rule(id: string): Promise<RuleStatus> {
    const st = (await this.loaded()).statuses;
    const found = st.get(id);
    if (found) return this.localizedStatus(found);
    const ids = [...st.keys()];
    const close = ids.filter((x) => x.includes(id) || id.includes(x.split('/').pop() ?? x)).slice(0, 5);
    throw new AutoSnippetError(
      'RULE_NOT_FOUND',
      `There is no guard rule "${id}".`,
      `Call guard_rules for the ids.${close.length ? ` Close: ${close.join(', ')}` : ''}`,
      { known: ids.length },
    );
  }

  /**
   * Rules that are not loaded (a drafted rule) put through what loading does — pattern safety, query
   * compilation, their own examples — and a runner of the ones that pass, for the caller to dispose.
   */
  async trial(rules: GuardRule[]): Promise<{ problems: RuleProblem[]; runner: RuleRunner }> {
    const state = await this.loaded();
    const problems: RuleProblem[] = [];
    const refused = await this.vetting.vet(rules, problems);
    const tested = await selfTestRules(rules.filter((r) => !refused.has(r.id)), this.treeSitter, problems);
    const passing = rules.filter((r) => !refused.has(r.id) && !tested.has(r.id));
    const config = { severityOverrides: {}, ruleExclusions: [], skipKinds: state.config.skipKinds };
    return { problems, runner: new RuleRunner(passing, config, this.treeSitter) };
  }

  /** Whether guard skips a workspace-relative path (settings and project excludes). */
  async isExcluded(relPath: string): Promise<boolean> {
    return (await this.loaded()).exclude.has(relPath);
  }

  /** Checks text. With `documentKey` + `incremental`, only the lines around the last edit are re-checked. */
  async check(text: string, language: string, opts: TextCheckOptions = {}): Promise<CheckResult> {
    const known = normalizeLanguage(language);
    if (!known) {
      throw new AutoSnippetError(
        ErrorCode.InvalidInput,
        `Unknown language "${language}".`,
        `Use one of: ${knownLanguages().join(', ')}.`,
      );
    }
    const lang = opts.path !== undefined ? headerLanguage(path.join(this.host.root, opts.path), text, known) : known;
    // A whole-file check (a file opened or saved, not a keystroke) lets the rule sources catch up, at
    // most every 2 s: a recipe rule a watcher event missed still reaches the file.
    if (!opts.incremental) await this.refreshSources();
    const state = await this.loaded();
    if (opts.path !== undefined && state.exclude.has(opts.path)) {
      return { violations: [], stopped: [], incomplete: false, elapsedMs: 0 };
    }
    await state.runner.prepare(lang);
    const res = state.runner.checkText(text, lang, { budgetMs: this.budgetMs, ...opts });
    this.noteOverruns(state, res.stopped.map((s) => ({ ...s, path: opts.path })));
    const read = opts.path !== undefined && res.violations.length ? this.baseline() : undefined;
    if (read?.ok) compareWithBaseline(read.baseline, res.violations, (p) => p === opts.path);
    return { ...res, violations: this.localized(state, res.violations) };
  }

  /** One file of a batch that overran, under the watchdogs; a file that still exhausts its thread's memory is skipped with the reason. */
  private async checkAlone(
    f: WorkspaceFile,
    job: (files: WorkspaceFile[], guarded: boolean) => CheckFilesJob,
    signal?: AbortSignal,
  ): Promise<FileCheck[]> {
    try {
      return await this.pool.run<FileCheck[]>('guard.checkFiles', job([f], true), { signal });
    } catch (e) {
      if (!(e instanceof AutoSnippetError && e.code === 'RESOURCE_LIMIT')) throw e;
      return [{
        path: f.rel,
        language: '',
        bytes: 0,
        violations: [],
        stopped: [],
        incomplete: true,
        skipped: e.message,
        mtimeMs: 0,
      }];
    }
  }

  /** A project regex rule that overran is off from the next check on (see overruns.ts). */
  private noteOverruns(state: LoadedState, stopped: Parameters<RuleOverruns['note']>[0]): void {
    if (this.overruns.note(stopped, (id) => state.statuses.get(id)?.rule)) this.invalidate();
  }

  forgetDocument(documentKey: string): void {
    void this.state?.then((s) => s.runner.forgetDocument(documentKey), () => undefined);
  }

  /** Checks files or folders (workspace scan when `paths` is empty) on worker threads. */
  async scan(opts: ScanOptions = {}): Promise<ScanResult> {
    const t0 = performance.now();
    await this.refreshSources();
    const state = await this.loaded();
    const languages = new Set(knownLanguages().filter((l) => state.runner.rulesFor(l).length > 0));
    // Vendored and generated files that their path gives away are not even read.
    const notChecked: Partial<Record<FileKind, number>> = {};
    const checked = (rel: string) => {
      const kind = classifyFile(rel).kind;
      if (state.runner.checks(kind)) return true;
      notChecked[kind] = (notChecked[kind] ?? 0) + 1;
      return false;
    };
    const listing = await listWorkspaceFiles(this.host, {
      paths: opts.paths,
      exclude: state.exclude,
      languages,
      signal: opts.signal,
    });
    listing.files = listing.files.filter((f) => checked(f.rel));
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
    const budgetMs = opts.budgetMs ?? 2000;
    const job = (files: typeof pending, guarded: boolean): CheckFilesJob => ({
      root: this.host.root,
      rulesKey: state.rulesKey,
      rules: state.active,
      config: state.config,
      files,
      budgetMs,
      maxFileBytes: opts.maxFileBytes ?? 4 << 20,
      guarded,
    });
    // On worker threads a batch runs without per-file watchdogs, under one deadline for the batch; a
    // batch past it (a regex backtracking on some file) is run again file by file under watchdogs,
    // which name and skip the slow rule.
    const threaded = this.pool.threaded;
    const runBatch = async (files: typeof pending): Promise<FileCheck[]> => {
      if (!threaded) return this.pool.run<FileCheck[]>('guard.checkFiles', job(files, true), { signal: opts.signal });
      // Generous: a batch is a few milliseconds of work unless a regex backtracks on some file.
      const deadline = 15 * budgetMs + files.length * budgetMs;
      try {
        return await this.pool.run<FileCheck[]>('guard.checkFiles', job(files, false), {
          signal: opts.signal,
          timeoutMs: deadline,
        });
      } catch (e) {
        if (!(e instanceof AutoSnippetError && (e.code === 'TIMEOUT' || e.code === 'RESOURCE_LIMIT'))) throw e;
        this.host.log.warn(
          `guard: a batch of ${files.length} files ${
            e.code === 'TIMEOUT' ? `ran past ${Math.round(deadline)} ms` : 'ran out of memory'
          }; checking its files one by one under the time budget`,
        );
        return (await Promise.all(files.map((f) => this.checkAlone(f, job, opts.signal)))).flat();
      }
    };
    await Promise.all(batches.map(async (files) => {
      const out = await runBatch(files);
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
    // A path named explicitly can be skipped by the listing and by a worker too: each path once, the first reason.
    const skippedByPath = new Map<string, ScanResult['skipped'][number]>();
    for (const s of listing.skipped) if (!skippedByPath.has(s.path)) skippedByPath.set(s.path, s);
    let bytes = 0;
    let files = 0;
    for (const r of results) {
      if (r.skipped) {
        if (r.kind && !state.runner.checks(r.kind)) notChecked[r.kind] = (notChecked[r.kind] ?? 0) + 1;
        else if (!skippedByPath.has(r.path)) skippedByPath.set(r.path, { path: r.path, reason: r.skipped });
        continue;
      }
      files++;
      bytes += r.bytes;
      for (const v of r.violations) {
        // A cached file's violations carry the marks of the last comparison: compare afresh.
        delete v.baselineState;
        delete v.reviewed;
        counts[v.severity]++;
        violations.push(v);
      }
      for (const s of r.stopped) stopped.push({ path: r.path, ruleId: s.ruleId, detail: s.detail });
      this.noteOverruns(state, r.stopped.map((s) => ({ ...s, path: r.path })));
    }
    const problems = [...state.problems];
    let baseline: ScanResult['baseline'];
    const newCounts = { ...counts };
    if (opts.baseline !== 'ignore') {
      const read = this.baseline();
      if (read.ok) {
        const scope = scopeOf(this.host.root, opts.paths);
        const absent = compareWithBaseline(read.baseline, violations, scope);
        const unchanged = violations.filter((v) => v.baselineState === 'unchanged');
        for (const v of unchanged) newCounts[v.severity]--;
        baseline = {
          file: BASELINE_FILE,
          new: violations.length - unchanged.length,
          unchanged: unchanged.length,
          absent,
          reviewed: unchanged.filter((v) => v.reviewed !== undefined).length,
        };
      } else if (!read.missing) {
        problems.push({
          source: BASELINE_FILE,
          code: 'INVALID_BASELINE',
          message: read.message,
          hint: 'Fix the file or write it again: autosnippet guard --baseline write.',
        });
      }
    }
    return {
      root: this.host.root,
      files,
      bytes,
      durationMs: performance.now() - t0,
      counts,
      newCounts,
      violations: this.localized(state, violations),
      stopped,
      skipped: [...skippedByPath.values()],
      notChecked,
      problems,
      threaded: this.pool.threaded,
      ...(baseline ? { baseline } : {}),
    };
  }

  /**
   * Records today's findings (of the files under `paths`, or of the whole workspace) as the
   * project's baseline; entries of files outside `paths` are kept.
   */
  async writeBaseline(
    opts: Omit<ScanOptions, 'baseline'> = {},
  ): Promise<{ file: string; findings: number; scan: ScanResult }> {
    const scan = await this.scan({ ...opts, baseline: 'ignore' });
    this.host.ensureDataDir?.();
    // Findings a person marked reviewed stay reviewed, not baselined (writeBaseline marks them).
    const file = writeBaseline(this.host.root, scan.violations, scopeOf(this.host.root, opts.paths));
    this.baselineRead = undefined;
    return { file, findings: scan.violations.filter((v) => v.reviewed === undefined).length, scan };
  }

  /** Marks one finding reviewed with a person's reason (see baseline.ts `markReviewed`); later checks hide it. */
  markReviewed(target: ReviewTarget, reason: string, opts: { alreadyReviewed?: boolean } = {}): string {
    this.host.ensureDataDir?.();
    try {
      return markReviewed(this.host.root, target, reason, opts);
    } catch (e) {
      if (e instanceof BaselineError) throw new AutoSnippetError(e.code, e.message);
      throw e;
    } finally {
      this.baselineRead = undefined;
    }
  }

  private baselineRead?: BaselineRead;

  /** The project's baseline, read once per rules generation. */
  private baseline(): BaselineRead {
    return (this.baselineRead ??= readBaseline(this.host.root));
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

/** Files in batches of BATCH_FILES: one message to a worker each, without a stat per file on this thread. */
function batch<T>(files: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < files.length; i += BATCH_FILES) out.push(files.slice(i, i + BATCH_FILES));
  return out;
}

/** Which workspace-relative files a scan of `paths` covers (every file without paths). */
function scopeOf(root: string, paths: string[] | undefined): ((relPath: string) => boolean) | undefined {
  if (!paths?.length) return undefined;
  const rels = paths.map((p) => relPath(root, path.resolve(root, p))).filter((r): r is string => r !== undefined);
  return (file) => rels.some((r) => r === '' || file === r || file.startsWith(`${r}/`));
}

export function sortViolations(vs: Violation[]): Violation[] {
  return vs.sort((a, b) =>
    (a.path ?? '').localeCompare(b.path ?? '') || a.start.line - b.start.line || a.start.column - b.start.column
    || severityRank[a.severity] - severityRank[b.severity]
  );
}
