import { dirOf, DiscoveryContext, isSamplePath, isTestDataPath, joinRel } from '../context';
import { parseToml, type TomlDocument } from '../toml';
import type { DependencyScope, Target, TargetDependency, TargetKind } from '../types';
import { compact, isRecord } from './npm';

const SECTIONS: [string, DependencyScope][] = [
  ['dependencies', 'prod'],
  ['dev-dependencies', 'dev'],
  ['build-dependencies', 'build'],
];

interface Crate {
  manifest: string;
  dir: string;
  doc: TomlDocument;
  name: string;
  workspace?: string;
}

/** Cargo: the member crates of each `[workspace]`, or every crate outside sample folders. */
export async function discoverCargo(ctx: DiscoveryContext): Promise<Target[]> {
  const docs = new Map<string, TomlDocument>();
  for (const m of ctx.named('Cargo.toml', true)) {
    const text = await ctx.read(m);
    if (text === undefined) continue;
    try {
      docs.set(m, parseToml(text));
    } catch (e) {
      ctx.problem(m, (e as Error).message);
    }
  }
  const members = new Map<string, string>();
  for (const [m, doc] of docs) {
    const ws = doc.data.workspace;
    if (!isRecord(ws) || isSamplePath(dirOf(m))) continue;
    const patterns = [...strs(ws.members), ...strs(ws.exclude).map((x) => '!' + x)];
    for (const d of await ctx.matchDirs(dirOf(m), patterns, 'Cargo.toml')) if (!members.has(d)) members.set(d, m);
    if (isRecord(doc.data.package)) members.set(dirOf(m), m);
  }
  const crates: Crate[] = [];
  for (const [m, doc] of docs) {
    const dir = dirOf(m);
    const pkg = doc.data.package;
    if (!isRecord(pkg)) continue;
    if (!members.has(dir) && (isSamplePath(dir) || isTestDataPath(dir) || insideWorkspace(dir, members))) continue;
    crates.push({
      manifest: m,
      dir,
      doc,
      name: typeof pkg.name === 'string' ? pkg.name : dir.split('/').pop() || 'crate',
      workspace: members.get(dir),
    });
  }
  const names = new Set(crates.map((c) => c.name));
  return crates.map((c) => toTarget(ctx, c, names));
}

/** A crate under a workspace root that the workspace does not list (an excluded or stray crate). */
function insideWorkspace(dir: string, members: Map<string, string>): boolean {
  return [...new Set(members.values())].some((root) => {
    const r = dirOf(root);
    return r === '' || dir.startsWith(r + '/');
  });
}

function toTarget(ctx: DiscoveryContext, c: Crate, local: Set<string>): Target {
  const data = c.doc.data;
  const pkg = data.package as Record<string, unknown>;
  const dependencies: TargetDependency[] = [];
  // `[dependencies]` and friends, then the same sections under `[target.'cfg(…)'.…]`.
  const tables: { prefix: string; table: Record<string, unknown>; condition?: string }[] = [{
    prefix: '',
    table: data,
  }];
  if (isRecord(data.target)) {
    for (const [cfg, t] of Object.entries(data.target)) {
      if (isRecord(t)) tables.push({ prefix: `target.${cfg}.`, table: t, condition: cfg });
    }
  }
  for (const { prefix, table, condition } of tables) {
    for (const [section, sectionScope] of SECTIONS) {
      const deps = table[section];
      if (!isRecord(deps)) continue;
      for (const [key, spec] of Object.entries(deps)) {
        const real = isRecord(spec) && typeof spec.package === 'string' ? spec.package : key;
        const version = typeof spec === 'string'
          ? spec
          : isRecord(spec) && typeof spec.version === 'string'
          ? spec.version
          : undefined;
        // A feature-gated dependency is only built when its feature is on.
        const scope = sectionScope === 'prod' && isRecord(spec) && spec.optional === true ? 'optional' : sectionScope;
        const line = c.doc.lines.get(`${prefix}${section}.${key}`);
        const dep: TargetDependency = {
          name: real,
          scope,
          ...(version ? { version } : {}),
          ...(condition ? { condition } : {}),
          ...(line ? { evidence: `${c.manifest}:${line}` } : {}),
        };
        if (local.has(real) && real !== c.name) dep.target = real;
        dependencies.push(dep);
      }
    }
  }
  const bins = Array.isArray(data.bin) ? data.bin.filter(isRecord).map((b) => String(b.name ?? '')) : [];
  const lib = isRecord(data.lib) ? data.lib : undefined;
  const hasMain = ctx.has(joinRel(c.dir, 'src/main.rs'));
  const hasLib = ctx.has(joinRel(c.dir, 'src/lib.rs')) || !!lib;
  const metadata = isRecord(pkg.metadata) ? pkg.metadata : {};
  // A binary that bears the package's name is what the package is, a library beside it or not (`src/bin/<name>/main.rs`).
  const namedBin = bins.includes(c.name) || ctx.has(joinRel(c.dir, `src/bin/${c.name}.rs`))
    || ctx.has(joinRel(c.dir, `src/bin/${c.name}/main.rs`));
  // A [lib] that declares its crate types (cdylib, staticlib…) or is a proc-macro is built to be linked or used by others: published as a library.
  const declaredLib = !!lib && (Array.isArray(lib['crate-type']) || lib['proc-macro'] === true);
  const kind: TargetKind = metadata['cargo-fuzz'] === true || /(^|\/)fuzz$/.test(c.dir)
    ? 'test'
    : declaredLib
    ? 'library'
    : ((bins.length || hasMain) && !hasLib) || namedBin
    ? 'app'
    : 'library';
  return {
    name: c.name,
    ecosystem: 'cargo',
    kind,
    manifest: c.manifest,
    dir: c.dir,
    language: 'rust',
    dependencies,
    metadata: compact({
      version: typeof pkg.version === 'string' ? pkg.version : isRecord(pkg.version) ? 'workspace' : undefined,
      edition: typeof pkg.edition === 'string' ? pkg.edition : isRecord(pkg.edition) ? 'workspace' : undefined,
      description: pkg.description,
      binaries: bins.length ? bins : hasMain ? [c.name] : undefined,
      library: hasLib || undefined,
      features: isRecord(data.features) ? Object.keys(data.features) : undefined,
      workspace: c.workspace,
    }),
  };
}

function strs(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}
