import { type Discoverer, DiscoveryContext } from './context';
import { discoverCargo } from './ecosystems/cargo';
import { discoverGo } from './ecosystems/go';
import { discoverGradle } from './ecosystems/gradle';
import { discoverMaven } from './ecosystems/maven';
import { discoverNpm } from './ecosystems/npm';
import { discoverPython } from './ecosystems/python';
import { discoverSwift } from './ecosystems/swift';
import { discoverTypeScript } from './ecosystems/typescript';
import { discoverXcode } from './ecosystems/xcode';
import type { Ecosystem, ProjectStructure, Target } from './types';

/** Every ecosystem's reader, in the order their targets are listed. */
const DISCOVERERS: Discoverer[] = [
  discoverNpm,
  discoverTypeScript,
  discoverSwift,
  discoverXcode,
  discoverCargo,
  discoverGo,
  discoverPython,
  discoverGradle,
  discoverMaven,
];

const JS_ECOSYSTEMS = new Set<Ecosystem>(['npm', 'pnpm', 'yarn']);

/**
 * Reads every build manifest in the listing and returns the project's targets with the dependencies
 * between them resolved to target names. A manifest that cannot be read is reported, not fatal.
 */
export async function discoverStructure(
  root: string,
  files: readonly string[],
  truncated = false,
): Promise<ProjectStructure> {
  const ctx = new DiscoveryContext(root, files);
  const groups: Target[][] = [];
  for (const discover of DISCOVERERS) {
    try {
      groups.push(await discover(ctx));
    } catch (e) {
      ctx.problem('(discovery)', `${discover.name}: ${(e as Error).message}`);
      groups.push([]);
    }
  }
  const [npm, ts] = [groups[0], groups[1]];
  groups[1] = mergeProjectReferences(npm, ts);

  // Final names: unique across the project; an ecosystem prefix only where two ecosystems clash.
  const seen = new Map<string, number>();
  for (const t of groups.flat()) seen.set(t.name, (seen.get(t.name) ?? 0) + 1);
  const taken = new Set<string>();
  for (const group of groups) {
    const rename = new Map<string, string>();
    for (const t of group) {
      let name = (seen.get(t.name) ?? 0) > 1 ? `${t.ecosystem}:${t.name}` : t.name;
      if (taken.has(name)) name = `${name}@${t.dir || '.'}`;
      taken.add(name);
      if (!rename.has(t.name)) rename.set(t.name, name);
      t.name = name;
    }
    for (const t of group) for (const d of t.dependencies) if (d.target) d.target = rename.get(d.target) ?? d.target;
  }
  const targets = groups.flat();
  const ecosystems: Partial<Record<Ecosystem, number>> = {};
  for (const t of targets) ecosystems[t.ecosystem] = (ecosystems[t.ecosystem] ?? 0) + 1;
  return { targets, ecosystems, problems: ctx.problems, truncated };
}

/**
 * A TypeScript project in the same folder as a workspace package is that package: its references
 * become the package's dependencies instead of a second target.
 */
function mergeProjectReferences(packages: Target[], projects: Target[]): Target[] {
  const pkgByDir = new Map(packages.filter((p) => JS_ECOSYSTEMS.has(p.ecosystem)).map((p) => [p.dir, p]));
  const merged = new Map<string, Target>();
  for (const p of projects) {
    const pkg = pkgByDir.get(p.dir);
    if (pkg && p.manifest.endsWith('tsconfig.json')) merged.set(p.name, pkg);
  }
  for (const p of projects) {
    const into = merged.get(p.name);
    if (!into) continue;
    into.language = 'typescript';
    into.metadata.tsconfig = p.manifest;
    for (const d of p.dependencies) {
      const dep = d.target ? merged.get(d.target) : undefined;
      if (!dep) continue;
      if (!into.dependencies.some((x) => x.target === dep.name && x.scope === 'build')) {
        into.dependencies.push({ name: d.name, target: dep.name, scope: 'build', evidence: d.evidence });
      }
    }
  }
  const remaining = projects.filter((p) => !merged.has(p.name));
  // References from a standalone project to a merged one now point at the package.
  for (const p of remaining) {
    for (const d of p.dependencies) if (d.target && merged.has(d.target)) d.target = merged.get(d.target)!.name;
  }
  return remaining;
}
