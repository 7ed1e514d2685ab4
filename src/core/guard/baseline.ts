/**
 * Baselines: today's findings recorded in a committed `.autosnippet/guard/baseline.json`, so that a
 * team can turn guard on in CI at once and fail only on what is new — like ESLint's bulk
 * suppressions and SARIF's `baselineState`.
 *
 * A finding is recognised by a fingerprint of its rule, its file and the text of its line (spaces
 * collapsed) and of the match, not by its line number: it survives lines added or removed above it.
 * Identical findings in one file are counted, so fixing one of three identical lines leaves two.
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
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

export interface BaselineFile {
  version: 1;
  /** Workspace-relative path → its findings, both sorted, so the file diffs well in review. */
  files: Record<string, BaselineEntry[]>;
}

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

export type BaselineRead = { ok: true; baseline: BaselineFile } | { ok: false; missing: true } | { ok: false; missing: false; message: string };

export function readBaseline(root: string): BaselineRead {
  const abs = path.join(root, BASELINE_FILE);
  let text: string;
  try {
    const st = statSync(abs);
    if (!st.isFile()) return { ok: false, missing: false, message: `${BASELINE_FILE} is not a file.` };
    if (st.size > MAX_BASELINE_BYTES) return { ok: false, missing: false, message: `${BASELINE_FILE} is larger than ${MAX_BASELINE_BYTES >> 20} MiB.` };
    text = readFileSync(abs, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { ok: false, missing: true };
    return { ok: false, missing: false, message: `${BASELINE_FILE} cannot be read: ${(e as Error).message}` };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return { ok: false, missing: false, message: `${BASELINE_FILE} is not valid JSON: ${(e as Error).message}. Write it again with autosnippet guard --baseline write.` };
  }
  const b = data as Partial<BaselineFile>;
  if (b?.version !== 1 || typeof b.files !== 'object' || b.files === null || Array.isArray(b.files)) {
    return { ok: false, missing: false, message: `${BASELINE_FILE} is not a guard baseline (version 1 with "files"). Write it again with autosnippet guard --baseline write.` };
  }
  for (const [file, entries] of Object.entries(b.files)) {
    if (!Array.isArray(entries) || entries.some((e) => typeof e?.fingerprint !== 'string' || typeof e?.rule !== 'string' || !Number.isInteger(e?.count) || e.count < 1)) {
      return { ok: false, missing: false, message: `${BASELINE_FILE}: the entries of "${file}" need rule, fingerprint and a count of at least 1.` };
    }
  }
  return { ok: true, baseline: b as BaselineFile };
}

/**
 * The baseline for a set of violations (each with a fingerprint). With `previous` and `scope`, only
 * the files in `scope` are replaced and the rest of the previous baseline is kept (a baseline
 * written for `src/` leaves `lib/`'s entries alone).
 */
export function buildBaseline(violations: readonly Violation[], previous?: BaselineFile, scope?: (relPath: string) => boolean): BaselineFile {
  const files: Record<string, Map<string, BaselineEntry>> = {};
  for (const v of violations) {
    if (!v.path || !v.fingerprint) continue;
    const byFp = (files[v.path] ??= new Map());
    const e = byFp.get(v.fingerprint);
    if (e) e.count++;
    else byFp.set(v.fingerprint, { rule: v.ruleId, fingerprint: v.fingerprint, count: 1, line: v.start.line, text: (v.lineText ?? '').slice(0, 200) });
  }
  const out: Record<string, BaselineEntry[]> = {};
  if (previous && scope) for (const [file, entries] of Object.entries(previous.files)) if (!scope(file)) out[file] = entries;
  for (const [file, byFp] of Object.entries(files)) out[file] = [...byFp.values()].sort((a, b) => a.line - b.line || a.rule.localeCompare(b.rule));
  const sorted: Record<string, BaselineEntry[]> = {};
  for (const file of Object.keys(out).sort()) sorted[file] = out[file];
  return { version: 1, files: sorted };
}

/** Writes the baseline next to the rule files (temporary file, then rename). */
export function writeBaseline(root: string, baseline: BaselineFile): string {
  const abs = path.join(root, BASELINE_FILE);
  mkdirSync(path.dirname(abs), { recursive: true });
  const tmp = `${abs}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(baseline, null, 1) + '\n');
  renameSync(tmp, abs);
  return abs;
}

/**
 * Marks each violation new or unchanged against the baseline (in order, so the first `count`
 * identical findings of a file are the baselined ones) and lists the baseline's findings that are
 * gone. With `scope`, findings of files outside it are not reported absent (they were not checked).
 */
export function compareWithBaseline(baseline: BaselineFile, violations: Violation[], scope?: (relPath: string) => boolean): AbsentFinding[] {
  const left = new Map<string, Map<string, number>>();
  const remaining = (file: string) => {
    let m = left.get(file);
    if (!m) {
      m = new Map((baseline.files[file] ?? []).map((e) => [e.fingerprint, e.count]));
      left.set(file, m);
    }
    return m;
  };
  for (const v of violations) {
    if (!v.path || !v.fingerprint) continue;
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
      for (let i = 0; i < n; i++) absent.push({ path: file, rule: e.rule, line: e.line, text: e.text, fingerprint: e.fingerprint });
    }
  }
  return absent;
}
