import { languageForPath } from '../kernel/languages';
import { isTestPath } from './source';

const SKIPPED_NAMES = /\.min\.(js|css)$|\.bundle\.js$|\.map$|(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml)$/;

export interface Selection {
  /** Files to read, in the order the analysers see them. */
  files: { path: string; language: string }[];
  /** Source files in the workspace (after .gitignore) that the scan could read. */
  eligible: number;
  /** True when `eligible` exceeded the bound and some were left out. */
  capped: boolean;
}

/**
 * Picks at most `maxFiles` source files so that a bound keeps the scan representative: folders take
 * turns (one file each per round, in path order), production code first, tests capped at a fifth.
 */
export function selectFiles(listing: readonly string[], maxFiles: number): Selection {
  const prod: { path: string; language: string }[] = [];
  const tests: { path: string; language: string }[] = [];
  for (const path of listing) {
    if (SKIPPED_NAMES.test(path)) continue;
    const language = languageForPath(path);
    if (!language) continue;
    (isTestPath(path) ? tests : prod).push({ path, language });
  }
  const eligible = prod.length + tests.length;
  const testShare = Math.min(tests.length, Math.floor(maxFiles / 5));
  const prodOrder = roundRobin(prod);
  const testOrder = roundRobin(tests);
  const takeProd = Math.min(prodOrder.length, maxFiles - testShare);
  const files = [...prodOrder.slice(0, takeProd), ...testOrder.slice(0, Math.min(testOrder.length, maxFiles - takeProd))];
  return { files, eligible, capped: eligible > files.length };
}

function roundRobin<T extends { path: string }>(items: T[]): T[] {
  const byDir = new Map<string, T[]>();
  for (const it of items) {
    const dir = it.path.slice(0, Math.max(0, it.path.lastIndexOf('/')));
    const list = byDir.get(dir);
    if (list) list.push(it);
    else byDir.set(dir, [it]);
  }
  const dirs = [...byDir.keys()].sort();
  const out: T[] = [];
  for (let round = 0; out.length < items.length; round++) {
    for (const d of dirs) {
      const it = byDir.get(d)![round];
      if (it) out.push(it);
    }
  }
  return out;
}
