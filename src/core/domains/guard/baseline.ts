/**
 * Baselines: today's findings recorded in a committed `.autosnippet/guard/baseline.json`, so that a
 * team can turn guard on in CI at once and fail only on what is new — like ESLint's bulk
 * suppressions and SARIF's `baselineState`.
 *
 * A finding is recognised by a fingerprint of its rule, its file and the text of its line (spaces
 * collapsed) and of the match, not by its line number: it survives lines added or removed above it.
 * Identical findings in one file are counted, so fixing one of three identical lines leaves two.
 *
 * The same file keeps findings a person reviewed and judged intended (`reviewed`, each with its
 * reason, like a SARIF suppression with a justification): they are hidden like baselined ones, but a
 * new baseline keeps them, and SARIF reports them as suppressed with the reason.
 */
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Violation } from './rule';

export const BASELINE_FILE = '.autosnippet/guard/baseline.json';
const MAX_BASELINE_BYTES = 32 * 1024 * 1024;

export type BaselineState = 'new' | 'unchanged' | 'absent';

export interface BaselineEntry {
  rule: string;
  fingerprint: string;
  /** How many identical findings the file had. */
  count: number;
  /** Where the first was when the baseline was written, for people reading the file. */
  line: number;
  text: string;
}

/** A finding a person reviewed and judged intended. */
export interface ReviewedEntry extends BaselineEntry {
  /** Why the code is right as it is (required; shown in reports and SARIF). */
  reason: string;
  /** When it was marked, ISO date (YYYY-MM-DD). */
  date: string;
}

export interface BaselineFile {
  version: 1;
  /** Workspace-relative path → its findings, both sorted, so the file diffs well in review. */
  files: Record<string, BaselineEntry[]>;
  /** Workspace-relative path → the findings marked reviewed there; kept when the baseline is written again. */
  reviewed?: Record<string, ReviewedEntry[]>;
}

/** The longest reason a reviewed mark keeps. */
export const MAX_REVIEW_REASON = 500;

/** A finding the baseline holds that the current run no longer reports (fixed, or its line changed). */
export interface AbsentFinding {
  path: string;
  rule: string;
  line: number;
  text: string;
  fingerprint: string;
}

/** 64-bit FNV-1a (two 32-bit lanes), hex. */
export function stableHash(s: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x01000193 + 0x2f) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

/** The line's text with runs of white space collapsed, as fingerprints see it. */
export function normalizedLine(lineText: string): string {
  return lineText.trim().replace(/\s+/g, ' ');
}

export function fingerprintOf(ruleId: string, relPath: string, lineText: string, matchedText: string): string {
  return stableHash(`${ruleId}\u0000${relPath}\u0000${normalizedLine(lineText)}\u0000${matchedText}`);
}

export type BaselineRead = { ok: true; baseline: BaselineFile } | { ok: false; missing: true } | {
  ok: false;
  missing: false;
  message: string;
};

export function readBaseline(root: string): BaselineRead {
  const abs = path.join(root, BASELINE_FILE);
  let text: string;
  try {
    const st = statSync(abs);
    if (!st.isFile()) return { ok: false, missing: false, message: `${BASELINE_FILE} is not a file.` };
    if (st.size > MAX_BASELINE_BYTES) {
      return { ok: false, missing: false, message: `${BASELINE_FILE} is larger than ${MAX_BASELINE_BYTES >> 20} MiB.` };
    }
    text = readFileSync(abs, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { ok: false, missing: true };
    return { ok: false, missing: false, message: `${BASELINE_FILE} cannot be read: ${(e as Error).message}` };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return {
      ok: false,
      missing: false,
      message: `${BASELINE_FILE} is not valid JSON: ${
        (e as Error).message
      }. Write it again with autosnippet guard --baseline write.`,
    };
  }
  const b = data as Partial<BaselineFile>;
  if (b?.version !== 1 || typeof b.files !== 'object' || b.files === null || Array.isArray(b.files)) {
    return {
      ok: false,
      missing: false,
      message:
        `${BASELINE_FILE} is not a guard baseline (version 1 with "files"). Write it again with autosnippet guard --baseline write.`,
    };
  }
  for (const [file, entries] of Object.entries(b.files)) {
    if (
      !Array.isArray(entries)
      || entries.some((e) =>
        typeof e?.fingerprint !== 'string' || typeof e?.rule !== 'string' || !Number.isInteger(e?.count) || e.count < 1
      )
    ) {
      return {
        ok: false,
        missing: false,
        message: `${BASELINE_FILE}: the entries of "${file}" need rule, fingerprint and a count of at least 1.`,
      };
    }
  }
  if (b.reviewed !== undefined) {
    if (typeof b.reviewed !== 'object' || b.reviewed === null || Array.isArray(b.reviewed)) {
      return {
        ok: false,
        missing: false,
        message: `${BASELINE_FILE}: "reviewed" must map files to their reviewed findings.`,
      };
    }
    for (const [file, entries] of Object.entries(b.reviewed)) {
      if (
        !Array.isArray(entries)
        || entries.some((e) =>
          typeof e?.fingerprint !== 'string' || typeof e?.rule !== 'string' || !Number.isInteger(e?.count)
          || e.count < 1 || typeof e?.reason !== 'string' || !e.reason.trim()
        )
      ) {
        return {
          ok: false,
          missing: false,
          message:
            `${BASELINE_FILE}: the reviewed entries of "${file}" need rule, fingerprint, a count of at least 1 and a reason.`,
        };
      }
    }
  }
  return { ok: true, baseline: b as BaselineFile };
}

/**
 * The baseline for a set of violations (each with a fingerprint). With `previous` and `scope`, only
 * the files in `scope` are replaced and the rest of the previous baseline is kept (a baseline
 * written for `src/` leaves `lib/`'s entries alone). Violations marked reviewed (compared against
 * `previous` first) are not baselined; the reviewed entries of files in scope that no longer match
 * a finding are dropped, the others kept.
 */
export function buildBaseline(
  violations: readonly Violation[],
  previous?: BaselineFile,
  scope?: (relPath: string) => boolean,
): BaselineFile {
  const files: Record<string, Map<string, BaselineEntry>> = {};
  const stillReviewed = new Map<string, Map<string, number>>();
  for (const v of violations) {
    if (!v.path || !v.fingerprint) continue;
    if (v.reviewed !== undefined) {
      const m = stillReviewed.get(v.path) ?? new Map<string, number>();
      m.set(v.fingerprint, (m.get(v.fingerprint) ?? 0) + 1);
      stillReviewed.set(v.path, m);
      continue;
    }
    const byFp = (files[v.path] ??= new Map());
    const e = byFp.get(v.fingerprint);
    if (e) e.count++;
    else {
      byFp.set(v.fingerprint, {
        rule: v.ruleId,
        fingerprint: v.fingerprint,
        count: 1,
        line: v.start.line,
        text: (v.lineText ?? '').slice(0, 200),
      });
    }
  }
  const out: Record<string, BaselineEntry[]> = {};
  if (previous && scope) {
    for (const [file, entries] of Object.entries(previous.files)) if (!scope(file)) out[file] = entries;
  }
  for (const [file, byFp] of Object.entries(files)) {
    out[file] = [...byFp.values()].sort((a, b) => a.line - b.line || a.rule.localeCompare(b.rule));
  }
  const reviewed: Record<string, ReviewedEntry[]> = {};
  for (const [file, entries] of Object.entries(previous?.reviewed ?? {})) {
    if (scope && !scope(file)) {
      reviewed[file] = entries;
      continue;
    }
    const seen = stillReviewed.get(file);
    const kept = entries.flatMap((e) => {
      const n = Math.min(e.count, seen?.get(e.fingerprint) ?? 0);
      return n > 0 ? [{ ...e, count: n }] : [];
    });
    if (kept.length) reviewed[file] = kept;
  }
  return {
    version: 1,
    files: sortedByFile(out),
    ...(Object.keys(reviewed).length ? { reviewed: sortedByFile(reviewed) } : {}),
  };
}

function sortedByFile<T>(byFile: Record<string, T>): Record<string, T> {
  const sorted: Record<string, T> = {};
  for (const file of Object.keys(byFile).sort()) sorted[file] = byFile[file];
  return sorted;
}

/**
 * Writes the baseline of today's findings next to the rule files (temporary file, then rename), under
 * the baseline's lock and merged with the file as it is then: the findings people marked reviewed stay
 * reviewed (a mark made while the scan ran is not lost), and with `scope` the other files' entries stay.
 */
export function writeBaseline(root: string, violations: Violation[], scope?: (relPath: string) => boolean): string {
  return withBaselineLock(root, () => {
    const read = readBaseline(root);
    const previous = read.ok ? read.baseline : undefined;
    if (previous?.reviewed) {
      compareWithBaseline({ version: 1, files: {}, reviewed: previous.reviewed }, violations, scope);
    }
    return writeUnlocked(root, buildBaseline(violations, previous, scope));
  });
}

function writeUnlocked(root: string, baseline: BaselineFile): string {
  const abs = path.join(root, BASELINE_FILE);
  mkdirSync(path.dirname(abs), { recursive: true });
  const tmp = `${abs}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(baseline, null, 1) + '\n');
  renameSync(tmp, abs);
  return abs;
}

/** A finding to mark reviewed: where it is and its fingerprint, as a check reported it. */
export interface ReviewTarget {
  path: string;
  rule: string;
  fingerprint: string;
  line: number;
  lineText: string;
}

/**
 * Records one finding as reviewed, with the reason a person gave: read, change and write the baseline
 * file under its lock, so two windows (or a CI job writing the baseline) marking at once both land.
 * Marking a finding the baseline holds moves it from the baseline to the reviewed ones; marking one
 * already reviewed replaces its reason. Returns the file written.
 */
export function markReviewed(
  root: string,
  target: ReviewTarget,
  reason: string,
  opts: { alreadyReviewed?: boolean; date?: string } = {},
): string {
  const why = reviewReason(reason);
  if (!why) {
    throw new BaselineError('INVALID_INPUT', 'A reviewed finding needs a reason: say why the code is right as it is.');
  }
  if (why.length > MAX_REVIEW_REASON) {
    throw new BaselineError(
      'INVALID_INPUT',
      `The reason is ${why.length} characters; keep it to ${MAX_REVIEW_REASON}.`,
    );
  }
  return withBaselineLock(root, () => {
    const read = readBaseline(root);
    if (!read.ok && !read.missing) throw new BaselineError('INVALID_BASELINE', read.message);
    const b: BaselineFile = read.ok ? read.baseline : { version: 1, files: {} };
    const inBaseline = b.files[target.path]?.find((e) => e.fingerprint === target.fingerprint);
    if (inBaseline && !opts.alreadyReviewed) {
      inBaseline.count--;
      b.files[target.path] = b.files[target.path].filter((e) => e.count > 0);
      if (!b.files[target.path].length) delete b.files[target.path];
    }
    const reviewed = (b.reviewed ??= {});
    const entries = (reviewed[target.path] ??= []);
    const date = opts.date ?? new Date().toISOString().slice(0, 10);
    const existing = entries.find((e) => e.fingerprint === target.fingerprint);
    if (existing) {
      if (!opts.alreadyReviewed) existing.count++;
      existing.reason = why;
      existing.date = date;
    } else {
      entries.push({
        rule: target.rule,
        fingerprint: target.fingerprint,
        count: 1,
        line: target.line,
        text: target.lineText.slice(0, 200),
        reason: why,
        date,
      });
      entries.sort((x, y) => x.line - y.line || x.rule.localeCompare(y.rule));
    }
    b.reviewed = sortedByFile(reviewed);
    return writeUnlocked(root, b);
  });
}

/** A reason as it is kept: trimmed, white space runs as one space. */
export function reviewReason(reason: string): string {
  return reason.trim().replace(/\s+/g, ' ');
}

/** Why a baseline write was refused: the input, the file as it is, or another process writing it. */
export class BaselineError extends Error {
  constructor(readonly code: 'INVALID_INPUT' | 'INVALID_BASELINE' | 'CONFLICT', message: string) {
    super(message);
  }
}

const LOCK_WAIT_MS = 2000;
/** A lock older than this was left by a process that died while writing. */
const LOCK_STALE_MS = 30_000;

/** Runs `write` holding `.autosnippet/guard/baseline.json.lock` (created exclusively; waits for another holder). */
function withBaselineLock<T>(root: string, write: () => T): T {
  const lock = path.join(root, `${BASELINE_FILE}.lock`);
  mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + LOCK_WAIT_MS;
  let fd: number | undefined;
  while (fd === undefined) {
    try {
      fd = openSync(lock, 'wx');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      try {
        if (Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS) rmSync(lock, { force: true });
      } catch {
        // gone meanwhile: try again
      }
      if (Date.now() > deadline) {
        throw new BaselineError(
          'CONFLICT',
          `${BASELINE_FILE} is being written by another process (${BASELINE_FILE}.lock exists); try again, or delete the lock file if no autosnippet is running.`,
        );
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 15);
    }
  }
  try {
    return write();
  } finally {
    closeSync(fd);
    rmSync(lock, { force: true });
  }
}

/**
 * Marks each violation new or unchanged against the baseline (in order, so the first `count`
 * identical findings of a file are the baselined ones; reviewed ones first, with their reason) and
 * lists the baseline's findings that are gone (not the reviewed ones: a new baseline drops those).
 * With `scope`, findings of files outside it are not reported absent (they were not checked).
 */
export function compareWithBaseline(
  baseline: BaselineFile,
  violations: Violation[],
  scope?: (relPath: string) => boolean,
): AbsentFinding[] {
  const left = new Map<string, Map<string, number>>();
  const remaining = (file: string) => {
    let m = left.get(file);
    if (!m) {
      m = new Map((baseline.files[file] ?? []).map((e) => [e.fingerprint, e.count]));
      left.set(file, m);
    }
    return m;
  };
  const reviewedLeft = new Map<string, Map<string, { n: number; reason: string }>>();
  const reviewedIn = (file: string) => {
    let m = reviewedLeft.get(file);
    if (!m) {
      m = new Map((baseline.reviewed?.[file] ?? []).map((e) => [e.fingerprint, { n: e.count, reason: e.reason }]));
      reviewedLeft.set(file, m);
    }
    return m;
  };
  for (const v of violations) {
    if (!v.path || !v.fingerprint) continue;
    delete v.reviewed;
    const r = reviewedIn(v.path).get(v.fingerprint);
    if (r && r.n > 0) {
      r.n--;
      v.baselineState = 'unchanged';
      v.reviewed = r.reason;
      continue;
    }
    const m = remaining(v.path);
    const n = m.get(v.fingerprint) ?? 0;
    if (n > 0) {
      m.set(v.fingerprint, n - 1);
      v.baselineState = 'unchanged';
    } else v.baselineState = 'new';
  }
  const absent: AbsentFinding[] = [];
  for (const [file, entries] of Object.entries(baseline.files)) {
    if (scope && !scope(file)) continue;
    const m = remaining(file);
    for (const e of entries) {
      const n = Math.min(m.get(e.fingerprint) ?? 0, e.count);
      for (let i = 0; i < n; i++) {
        absent.push({ path: file, rule: e.rule, line: e.line, text: e.text, fingerprint: e.fingerprint });
      }
    }
  }
  return absent;
}
