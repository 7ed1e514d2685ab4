import type { DeclaredKinds } from '../../ground/files';
import { languageForPath } from '../../ground/kernel/languages';
import { pathKind } from './source';

export interface Selection {
  /** Files to read, in the order the analysers see them. */
  files: { path: string; language: string }[];
  /** Source files in the workspace (after .gitignore) that the scan could read. */
  eligible: number;
  /** True when `eligible` exceeded the bound and some were left out. */
  capped: boolean;
  /** Source files left out because they are not code the project writes: examples, docs, vendored… by kind. */
  notProduction: Record<string, number>;
}

/**
 * Picks at most `maxFiles` source files so that a bound keeps the scan representative: folders take
 * turns (one file each per round, in path order), production code first, tests capped at a fifth.
 * Examples, fixtures, docs, benchmarks, build scripts, vendored, generated and minified files (the
 * shared classifier's verdict from the path, or what the repository declares) teach no convention and are not read.
 */
export function selectFiles(listing: readonly string[], maxFiles: number, declared?: DeclaredKinds): Selection {
  const prod: { path: string; language: string }[] = [];
  const tests: { path: string; language: string }[] = [];
  const notProduction: Record<string, number> = {};
  for (const path of listing) {
    const language = languageForPath(path);
    if (!language) continue;
    // What the repository declares vendored or generated (submodules, .gitattributes) goes first: such folders are named after the library, not `vendor/`.
    const kind = declared?.kindOf(path) ?? pathKind(path);
    if (kind === 'production') prod.push({ path, language });
    else if (kind === 'test') tests.push({ path, language });
    else notProduction[kind] = (notProduction[kind] ?? 0) + 1;
  }
  const eligible = prod.length + tests.length;
  const testShare = Math.min(tests.length, Math.floor(maxFiles / 5));
  const prodOrder = roundRobin(prod);
  const testOrder = roundRobin(tests);
  const takeProd = Math.min(prodOrder.length, maxFiles - testShare);
  const files = [
    ...prodOrder.slice(0, takeProd),
    ...testOrder.slice(0, Math.min(testOrder.length, maxFiles - takeProd)),
  ];
  return { files, eligible, capped: eligible > files.length, notProduction };
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
