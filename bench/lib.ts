/** Small helpers shared by the benchmarks: timing, percentiles and a plain-text table. */
import { performance } from 'node:perf_hooks';

export interface BenchTable {
  title: string;
  columns: string[];
  rows: (string | number)[][];
  notes?: string[];
}

export async function timeIt(fn: () => unknown | Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** Runs fn `n` times (after `warmup` untimed runs) and returns the durations in ms. */
export async function sample(n: number, fn: (i: number) => unknown | Promise<unknown>, warmup = 1): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn(-1 - i);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn(i);
    out.push(performance.now() - t0);
  }
  return out;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return s[i];
}

export const median = (v: number[]) => percentile(v, 50);

export function ms(v: number): string {
  if (!Number.isFinite(v)) return '-';
  return v < 1 ? `${v.toFixed(3)} ms` : v < 100 ? `${v.toFixed(2)} ms` : `${v.toFixed(0)} ms`;
}

export function ratio(ours: number, theirs: number): string {
  if (!ours || !theirs) return '-';
  return theirs >= ours ? `${(theirs / ours).toFixed(1)}× faster` : `${(ours / theirs).toFixed(1)}× slower`;
}

export function printTable(t: BenchTable): void {
  const cells = [t.columns, ...t.rows.map((r) => r.map(String))];
  const widths = t.columns.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => '| ' + r.map((c, i) => (c ?? '').padEnd(widths[i])).join(' | ') + ' |';
  console.log(`\n### ${t.title}\n`);
  console.log(line(t.columns));
  console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|');
  for (const r of cells.slice(1)) console.log(line(r));
  for (const n of t.notes ?? []) console.log(`\n${n}`);
}
