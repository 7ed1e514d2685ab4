/**
 * Import boundaries for the evidence packs: which top-level folders (or packages) the project's own
 * imports go between, with counts, and which pairs are one-way (one imports the other, never the
 * reverse). Read from the scan's file-to-file import edges, so it states only resolved imports.
 */
import type { GraphEdge } from '../graph';

/** Folders whose first level below is where the project's units sit (`packages/server`, `crates/core`). */
const CONTAINERS = new Set(['src', 'lib', 'packages', 'crates', 'modules', 'libs', 'apps', 'Sources', 'Source', 'pkg']);
/** Groups, pairs and cited lines kept: what a reader takes in at a glance. */
const MAX_PAIRS = 8;
const MAX_ONE_WAY = 6;
const MAX_CITED = 5;
/** Imports between two groups before the pair says anything about a boundary. */
const MIN_IMPORTS = 2;

export interface LayerFinding {
  claim: string;
  /** `path:line` of imports across the busiest boundaries. */
  cited: string[];
}

/** The unit a file belongs to: its first folder, or the one below a container folder. */
export function unitOf(file: string): string | undefined {
  const parts = file.split('/');
  if (parts.length < 2) return undefined;
  if (CONTAINERS.has(parts[0])) return parts.length >= 3 ? `${parts[0]}/${parts[1]}` : undefined;
  return parts[0];
}

/** The boundaries between units, or nothing when fewer than three units import one another. */
export function importBoundaries(edges: readonly GraphEdge[]): LayerFinding | undefined {
  const pairs = new Map<string, { from: string; to: string; count: number; cited: string[] }>();
  for (const e of edges) {
    if (e.relation !== 'imports') continue;
    const from = unitOf(e.from.replace(/^file:/, ''));
    const to = unitOf(e.to.replace(/^file:/, ''));
    if (!from || !to || from === to) continue;
    const k = `${from}\u0000${to}`;
    const p = pairs.get(k) ?? { from, to, count: 0, cited: [] };
    p.count++;
    if (e.evidence && p.cited.length < 2) p.cited.push(e.evidence);
    pairs.set(k, p);
  }
  const kept = [...pairs.values()].filter((p) => p.count >= MIN_IMPORTS)
    .sort((a, b) => b.count - a.count || (a.from + a.to < b.from + b.to ? -1 : 1));
  const units = new Set(kept.flatMap((p) => [p.from, p.to]));
  if (units.size < 3) return undefined;
  const oneWay = kept.filter((p) => !pairs.has(`${p.to}\u0000${p.from}`));
  const both = kept.filter((p) => p.from < p.to && pairs.has(`${p.to}\u0000${p.from}`));
  const total = kept.reduce((n, p) => n + p.count, 0);
  const said = (p: { from: string; to: string; count: number }) => `\`${p.from}\` → \`${p.to}\` (${p.count})`;
  const claim = [
    `Imports between top-level folders (${total} resolved imports across ${units.size} folders): ${
      kept.slice(0, MAX_PAIRS).map(said).join(', ')
    }.`,
    oneWay.length
      ? `One-way: ${oneWay.slice(0, MAX_ONE_WAY).map((p) => `\`${p.to}\` never imports \`${p.from}\``).join(', ')}.`
      : '',
    both.length
      ? `Both ways: ${both.slice(0, 3).map((p) => `\`${p.from}\` ↔ \`${p.to}\``).join(', ')}.`
      : '',
  ].filter(Boolean).join(' ');
  return { claim, cited: kept.flatMap((p) => p.cited.slice(0, 1)).slice(0, MAX_CITED) };
}
