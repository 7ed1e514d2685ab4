import type { Store } from '../../ground/store/store';
import type { ScanResult } from './engine';
import type { Severity } from './rule';

/** What one workspace scan leaves in the database: totals, per-rule counts, the worst files. */
export interface ScanSummary {
  id?: number;
  finishedAt: string;
  files: number;
  filesClean: number;
  bytes: number;
  counts: Record<Severity, number>;
  durationMs: number;
  rulesActive: number;
  rules: { ruleId: string; severity: Severity; violations: number; files: number }[];
  topFiles: { path: string; violations: number; errors: number }[];
}

export interface ComplianceReport {
  /** Share of checked files with no error or warning, 0–100. */
  score: number;
  previousScore?: number;
  trend: 'first scan' | 'better' | 'worse' | 'unchanged';
  scan: Omit<ScanSummary, 'rules' | 'topFiles'>;
  previousScan?: { id?: number; finishedAt: string; counts: Record<Severity, number>; files: number };
  perRule: { ruleId: string; severity: Severity; violations: number; files: number; previous: number; delta: number }[];
  perFile: { path: string; violations: number; errors: number; previous?: number; delta?: number }[];
  /** Rules that no longer fire since the previous scan. */
  resolvedRules: string[];
}

/** Scans kept in the database; older ones are dropped. */
export const KEPT_SCANS = 50;
/** Files kept per scan (the ones with the most violations). */
export const KEPT_FILES = 100;

export function summarizeScan(scan: ScanResult, rulesActive: number, finishedAt: string): ScanSummary {
  const rules = new Map<string, { severity: Severity; violations: number; files: Set<string> }>();
  const files = new Map<string, { violations: number; errors: number; blocking: boolean }>();
  for (const v of scan.violations) {
    let r = rules.get(v.ruleId);
    if (!r) rules.set(v.ruleId, r = { severity: v.severity, violations: 0, files: new Set() });
    r.violations++;
    r.files.add(v.path ?? '');
    let f = files.get(v.path ?? '');
    if (!f) files.set(v.path ?? '', f = { violations: 0, errors: 0, blocking: false });
    f.violations++;
    if (v.severity === 'error') f.errors++;
    if (v.severity === 'error' || v.severity === 'warning') f.blocking = true;
  }
  const blockingFiles = [...files.values()].filter((f) => f.blocking).length;
  return {
    finishedAt,
    files: scan.files,
    filesClean: Math.max(0, scan.files - blockingFiles),
    bytes: scan.bytes,
    counts: { ...scan.counts },
    durationMs: Math.round(scan.durationMs),
    rulesActive,
    rules: [...rules].map(([ruleId, r]) => ({
      ruleId,
      severity: r.severity,
      violations: r.violations,
      files: r.files.size,
    })).sort((a, b) => b.violations - a.violations || a.ruleId.localeCompare(b.ruleId)),
    topFiles: [...files].map(([path, f]) => ({ path, violations: f.violations, errors: f.errors })).sort((a, b) =>
      b.errors - a.errors || b.violations - a.violations || a.path.localeCompare(b.path)
    ).slice(0, KEPT_FILES),
  };
}

type StoreLike = Pick<Store, 'transaction' | 'all' | 'get'>;

/**
 * Appends a scan summary and drops scans beyond the last KEPT_SCANS, in one transaction. Read tools
 * record it, so it is derived: it creates no database in a project without an .autosnippet folder.
 */
export async function recordScan(store: StoreLike, s: ScanSummary): Promise<number> {
  return store.transaction((tx) => {
    const { lastInsertRowid: id } = tx.run(
      'INSERT INTO guard_scans (finished_at, files, files_clean, bytes, errors, warnings, infos, hints, duration_ms, rules_active) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [
        s.finishedAt,
        s.files,
        s.filesClean,
        s.bytes,
        s.counts.error,
        s.counts.warning,
        s.counts.info,
        s.counts.hint,
        s.durationMs,
        s.rulesActive,
      ],
    );
    for (const r of s.rules) {
      tx.run('INSERT INTO guard_scan_rules (scan_id, rule_id, severity, violations, files) VALUES (?, ?, ?, ?, ?)', [
        id,
        r.ruleId,
        r.severity,
        r.violations,
        r.files,
      ]);
    }
    for (const f of s.topFiles) {
      tx.run('INSERT INTO guard_scan_files (scan_id, path, violations, errors) VALUES (?, ?, ?, ?)', [
        id,
        f.path,
        f.violations,
        f.errors,
      ]);
    }
    const cutoff = tx.get<{ id: number }>('SELECT id FROM guard_scans ORDER BY id DESC LIMIT 1 OFFSET ?', [KEPT_SCANS]);
    if (cutoff) {
      tx.run('DELETE FROM guard_scan_rules WHERE scan_id <= ?', [cutoff.id]);
      tx.run('DELETE FROM guard_scan_files WHERE scan_id <= ?', [cutoff.id]);
      tx.run('DELETE FROM guard_scans WHERE id <= ?', [cutoff.id]);
    }
    return id;
  }, { derived: true });
}

interface ScanRow {
  id: number;
  finished_at: string;
  files: number;
  files_clean: number;
  bytes: number;
  errors: number;
  warnings: number;
  infos: number;
  hints: number;
  duration_ms: number;
  rules_active: number;
}

/** The most recent scans, newest first. */
export function recentScans(store: StoreLike, limit = 2): ScanSummary[] {
  const rows = store.all<ScanRow>('SELECT * FROM guard_scans ORDER BY id DESC LIMIT ?', [limit]);
  return rows.map((r) => ({
    id: r.id,
    finishedAt: r.finished_at,
    files: r.files,
    filesClean: r.files_clean,
    bytes: r.bytes,
    counts: { error: r.errors, warning: r.warnings, info: r.infos, hint: r.hints },
    durationMs: r.duration_ms,
    rulesActive: r.rules_active,
    rules: store.all<{ rule_id: string; severity: Severity; violations: number; files: number }>(
      'SELECT rule_id, severity, violations, files FROM guard_scan_rules WHERE scan_id = ? ORDER BY violations DESC, rule_id',
      [r.id],
    )
      .map((x) => ({ ruleId: x.rule_id, severity: x.severity, violations: x.violations, files: x.files })),
    topFiles: store.all<{ path: string; violations: number; errors: number }>(
      'SELECT path, violations, errors FROM guard_scan_files WHERE scan_id = ? ORDER BY errors DESC, violations DESC, path',
      [r.id],
    ),
  }));
}

const score = (s: ScanSummary) => (s.files === 0 ? 100 : Math.round((1000 * s.filesClean) / s.files) / 10);

export function complianceReport(current: ScanSummary, previous?: ScanSummary): ComplianceReport {
  const prevRules = new Map(previous?.rules.map((r) => [r.ruleId, r.violations]) ?? []);
  const prevFiles = new Map(previous?.topFiles.map((f) => [f.path, f.violations]) ?? []);
  const now = score(current);
  const before = previous ? score(previous) : undefined;
  const blocking = (s: ScanSummary) => s.counts.error * 10 + s.counts.warning;
  const trend: ComplianceReport['trend'] = !previous
    ? 'first scan'
    : now > before! || (now === before && blocking(current) < blocking(previous))
    ? 'better'
    : now < before! || blocking(current) > blocking(previous)
    ? 'worse'
    : 'unchanged';
  const { rules, topFiles, ...scan } = current;
  return {
    score: now,
    previousScore: before,
    trend,
    scan,
    previousScan: previous
      ? { id: previous.id, finishedAt: previous.finishedAt, counts: previous.counts, files: previous.files }
      : undefined,
    perRule: rules.map((r) => ({
      ...r,
      previous: prevRules.get(r.ruleId) ?? 0,
      delta: r.violations - (prevRules.get(r.ruleId) ?? 0),
    })),
    perFile: topFiles.map((
      f,
    ) => (previous
      ? { ...f, previous: prevFiles.get(f.path) ?? 0, delta: f.violations - (prevFiles.get(f.path) ?? 0) }
      : f)
    ),
    resolvedRules: previous
      ? previous.rules.filter((r) => !rules.some((x) => x.ruleId === r.ruleId)).map((r) => r.ruleId)
      : [],
  };
}
