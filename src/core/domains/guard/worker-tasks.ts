import { statSync } from 'node:fs';
import { looksBinary, readRepoFileSync, RealPathCache } from '../../ground/files';
import type { FileKind } from '../../ground/files/classify';
import { ErrorCode, isAutoSnippetError } from '../../ground/kernel/errors';
import type { WorkspaceFile } from './files';
import { headerLanguage } from './header-language';
import { analyzePattern, type PatternVerdict } from './regex-safety';
import type { GuardRule, StoppedRule, Violation } from './rule';
import { RuleRunner, type RunnerConfig } from './runner';

export interface CheckFilesJob {
  /** The workspace: files are read through the safe reader, never outside it. */
  root: string;
  /** Identifies the rule list, so a worker compiles it once for many jobs. */
  rulesKey: string;
  rules: GuardRule[];
  config: RunnerConfig;
  files: WorkspaceFile[];
  budgetMs: number;
  maxFileBytes: number;
  /**
   * False on a worker thread: regexes run without the per-file watchdog, and the job's deadline
   * (the pool stops the thread past it) guards the whole batch.
   */
  guarded: boolean;
}

export interface FileCheck {
  path: string;
  language: string;
  bytes: number;
  violations: Violation[];
  stopped: StoppedRule[];
  incomplete: boolean;
  skipped?: string;
  mtimeMs: number;
  /** The kind of code the file holds (see files/classify.ts). */
  kind?: FileKind;
}

let runner: { key: string; runner: RuleRunner } | undefined;

/** Checks files from disk with a rule list; runs in a worker thread (or in-thread as a fallback). */
export async function checkFiles(job: CheckFilesJob): Promise<FileCheck[]> {
  if (runner?.key !== job.rulesKey) {
    runner?.runner.dispose();
    runner = { key: job.rulesKey, runner: new RuleRunner(job.rules, job.config) };
  }
  const r = runner.runner;
  const out: FileCheck[] = [];
  const realPaths = new RealPathCache();
  for (const f of job.files) {
    let text: string;
    let bytes = 0;
    let mtimeMs = 0;
    try {
      const file = readRepoFileSync(job.root, f.rel, { kind: 'source', maxBytes: job.maxFileBytes, realPaths });
      ({ text, size: bytes, mtimeMs } = file);
    } catch (e) {
      const st = statSync(f.abs, { throwIfNoEntry: false });
      const tooLarge = isAutoSnippetError(e) && e.code === ErrorCode.FileTooLarge;
      const skipped = tooLarge
        ? `larger than ${Math.round(job.maxFileBytes / 1024)} KiB`
        : `unreadable: ${(e as Error).message}`;
      out.push({
        path: f.rel,
        language: f.language,
        bytes: st?.size ?? 0,
        violations: [],
        stopped: [],
        incomplete: false,
        skipped,
        mtimeMs: st?.mtimeMs ?? 0,
      });
      continue;
    }
    if (looksBinary(text)) {
      out.push({
        path: f.rel,
        language: f.language,
        bytes,
        violations: [],
        stopped: [],
        incomplete: false,
        skipped: 'binary',
        mtimeMs,
      });
      continue;
    }
    const language = headerLanguage(f.abs, text, f.language);
    await r.prepare(language);
    // Large files get proportionally more time: the budget is there to stop runaway patterns.
    const budgetMs = Math.max(job.budgetMs, (bytes / 1e6) * 500);
    const res = r.checkText(text, language, { path: f.rel, budgetMs, guarded: job.guarded });
    out.push({
      path: f.rel,
      language,
      bytes,
      violations: res.violations,
      stopped: res.stopped,
      incomplete: res.incomplete,
      mtimeMs,
      ...(res.skipped ? { skipped: res.skipped } : {}),
      ...(res.fileKind ? { kind: res.fileKind } : {}),
    });
  }
  return out;
}

export interface AnalyzeJob {
  patterns: { source: string; flags: string }[];
}

export function analyzePatterns(job: AnalyzeJob): PatternVerdict[] {
  return job.patterns.map((p) => analyzePattern(p.source, p.flags));
}

export const guardWorkerHandlers = {
  'guard.checkFiles': (p: CheckFilesJob) => checkFiles(p),
  'guard.analyzePatterns': (p: AnalyzeJob) => analyzePatterns(p),
};
