import { dirOf, DiscoveryContext, isSamplePath, joinRel, lineOf } from '../context';
import type { DependencyScope, Ecosystem, Target, TargetDependency, TargetKind } from '../types';

const DEP_FIELDS: [string, DependencyScope][] = [
  ['dependencies', 'prod'],
  ['devDependencies', 'dev'],
  ['peerDependencies', 'peer'],
  ['optionalDependencies', 'optional'],
];

interface Pkg {
  manifest: string;
  dir: string;
  json: Record<string, unknown>;
  text: string;
  ecosystem: Ecosystem;
  workspaceRoot?: string;
}

/**
 * npm, yarn and pnpm: the packages of every workspace (`workspaces` in package.json, or
 * `pnpm-workspace.yaml`); without workspaces, each package.json outside sample folders; and any
 * package with its own lockfile.
 */
export async function discoverNpm(ctx: DiscoveryContext): Promise<Target[]> {
  const manifests = ctx.named('package.json');
  const roots: { dir: string; patterns: string[]; ecosystem: Ecosystem }[] = [];
  for (const m of manifests) {
    const dir = dirOf(m);
    const json = await ctx.readJson(m);
    const pnpm = await ctx.read(joinRel(dir, 'pnpm-workspace.yaml'));
    let patterns: string[] = [];
    if (pnpm !== undefined) patterns = pnpmPackages(pnpm);
    else if (Array.isArray(json?.workspaces)) patterns = json.workspaces.filter(isString);
    else if (isRecord(json?.workspaces) && Array.isArray(json.workspaces.packages)) {
      patterns = json.workspaces.packages.filter(isString);
    }
    if (patterns.length) {
      roots.push({ dir, patterns, ecosystem: pnpm !== undefined ? 'pnpm' : managerOf(ctx, dir, json) });
    }
  }

  const chosen = new Map<string, { ecosystem: Ecosystem; workspaceRoot?: string }>();
  for (const r of roots) {
    for (const dir of await ctx.matchDirs(r.dir, r.patterns, 'package.json')) {
      if (!chosen.has(dir)) chosen.set(dir, { ecosystem: r.ecosystem, workspaceRoot: r.dir });
    }
  }
  const rootDirs = new Set(roots.map((r) => r.dir));
  if (roots.length === 0 || !rootDirs.has('')) {
    for (const m of manifests) {
      const dir = dirOf(m);
      if (chosen.has(dir) || rootDirs.has(dir) || isSamplePath(dir)) continue;
      if (roots.some((r) => dir.startsWith(r.dir === '' ? '' : r.dir + '/'))) continue;
      chosen.set(dir, { ecosystem: managerOf(ctx, dir, await ctx.readJson(m)) });
    }
  }

  // A package with its own lockfile is a project of its own, even inside a workspace's folder
  // (a Docusaurus site in a docs folder, outside the workspaces, with its own yarn.lock).
  for (const m of manifests) {
    const dir = dirOf(m);
    if (chosen.has(dir) || rootDirs.has(dir) || isSamplePath(dir) || !LOCKFILES.some((f) => ctx.has(joinRel(dir, f)))) {
      continue;
    }
    chosen.set(dir, { ecosystem: managerOf(ctx, dir, await ctx.readJson(m)) });
  }

  const pkgs: Pkg[] = [];
  for (const [dir, info] of [...chosen].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const manifest = joinRel(dir, 'package.json');
    const json = await ctx.readJson(manifest);
    const text = await ctx.read(manifest);
    if (!json || text === undefined) continue;
    pkgs.push({ manifest, dir, json, text, ...info });
  }
  // A dependency resolves to a package of the same workspace (or of none, as before), or to any
  // local package through a `file:`/`link:`/`workspace:` range; otherwise it comes from the registry.
  const workspaceOf = new Map(pkgs.map((p) => [nameOf(p), p.workspaceRoot]));
  const sources = sourceCounts(ctx, new Set(pkgs.map((p) => p.dir)));
  const dependedOn = new Set(
    pkgs.flatMap((p) => DEP_FIELDS.flatMap(([field]) => (isRecord(p.json[field]) ? Object.keys(p.json[field]) : []))),
  );
  return pkgs.map((p) => toTarget(ctx, p, workspaceOf, sources.get(p.dir), dependedOn.has(nameOf(p))));
}

/** The JavaScript and TypeScript files of each package, counted to the nearest package folder above them. */
function sourceCounts(ctx: DiscoveryContext, dirs: Set<string>): Map<string, { js: number; ts: number }> {
  const out = new Map<string, { js: number; ts: number }>();
  for (const f of ctx.files) {
    const ts = /\.(ts|tsx|mts|cts)$/.test(f) && !/\.d\.[mc]?ts$/.test(f);
    if (!ts && !/\.(js|jsx|mjs|cjs)$/.test(f)) continue;
    let dir = dirOf(f);
    while (!dirs.has(dir) && dir !== '') dir = dirOf(dir);
    if (!dirs.has(dir)) continue;
    let c = out.get(dir);
    if (!c) out.set(dir, c = { js: 0, ts: 0 });
    if (ts) c.ts++;
    else c.js++;
  }
  return out;
}

function toTarget(
  ctx: DiscoveryContext,
  p: Pkg,
  workspaceOf: Map<string, string | undefined>,
  sources: { js: number; ts: number } | undefined,
  dependedOn: boolean,
): Target {
  const { json, text, manifest, dir } = p;
  const dependencies: TargetDependency[] = [];
  for (const [field, scope] of DEP_FIELDS) {
    const deps = json[field];
    if (!isRecord(deps)) continue;
    const sectionAt = text.indexOf(`"${field}"`);
    for (const [name, version] of Object.entries(deps)) {
      const dep: TargetDependency = {
        name,
        scope,
        version: String(version),
        evidence: `${manifest}:${lineOf(text, `"${name}"`, Math.max(0, sectionAt))}`,
      };
      // Members of one workspace link to each other; packages outside any workspace get each other from the registry
      // unless linked by path (a benchmark asking for the package's ^3 while the repository is at 4.x).
      const linked = workspaceOf.has(name)
        && ((workspaceOf.get(name) === p.workspaceRoot && p.workspaceRoot !== undefined)
          || /^(file|link|workspace|portal):/.test(String(version)));
      if (linked && name !== nameOf(p)) dep.target = name;
      dependencies.push(dep);
    }
  }
  // The language most of its own files are written in (a Docusaurus site with an editor-only
  // tsconfig is JavaScript); without sources, what its manifest and configuration say.
  const hasTs = sources && sources.js + sources.ts > 0
    ? sources.ts >= sources.js
    : ctx.has(joinRel(dir, 'tsconfig.json'))
      || ctx.files.some((f) => dirOf(f) === dir && /\.tsx?$/.test(f) && !f.endsWith('.d.ts'))
      || typeof json.types === 'string' || typeof json.typings === 'string'
      || (isRecord(json.devDependencies) && 'typescript' in json.devDependencies);
  return {
    name: nameOf(p),
    ecosystem: p.ecosystem,
    kind: kindOf(
      p,
      ['index.js', 'index.mjs', 'index.cjs', 'index.ts'].some((f) => ctx.has(joinRel(dir, f))),
      dependedOn,
    ),
    manifest,
    dir,
    language: hasTs ? 'typescript' : 'javascript',
    dependencies,
    metadata: compact({
      version: json.version,
      description: json.description,
      private: json.private,
      main: json.main,
      module: json.module,
      types: json.types ?? json.typings,
      exports: isRecord(json.exports) ? Object.keys(json.exports).slice(0, 20) : json.exports,
      bin: typeof json.bin === 'string' ? [nameOf(p)] : isRecord(json.bin) ? Object.keys(json.bin) : undefined,
      scripts: isRecord(json.scripts) ? Object.fromEntries(Object.entries(json.scripts).slice(0, 25)) : undefined,
      engines: json.engines,
      type: json.type,
      packageManager: json.packageManager,
      workspaceRoot: p.workspaceRoot === undefined ? undefined : p.workspaceRoot || '.',
    }),
  };
}

function nameOf(p: Pkg): string {
  return typeof p.json.name === 'string' && p.json.name ? p.json.name : p.dir || 'root';
}

/** Folders of applications (and not of packages). */
const APP_FOLDER = /^(?!(?:.*\/)?packages\/)(?:.*\/)?(apps?|examples?|www|site|website)\//;

const LOCKFILES = ['package-lock.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lock', 'bun.lockb'];

/** Dependencies that make a private package an application (a site, a server, a UI). */
const APP_FRAMEWORKS =
  /^(next|nuxt|@docusaurus\/core|vite|react-scripts|expo|react-native|@remix-run\/\w+|astro|gatsby|@sveltejs\/kit|@angular\/core|electron)$/;

/**
 * What a package is: a test package (by folder or name), a library when it offers an entry point
 * (`main`, `module`, `types` or a `.` export) whatever else it has (except a private example), a VS Code extension, an app when
 * it only offers a `bin` or is the repository's root manifest with nothing to import, or a private
 * package built on an application framework or kept in an apps/examples folder.
 */
function kindOf(p: Pkg, hasIndex: boolean, dependedOn: boolean): TargetKind {
  const j = p.json;
  const name = typeof j.name === 'string' ? j.name : '';
  const exportsMain = typeof j.exports === 'string' || Array.isArray(j.exports)
    || (isRecord(j.exports) && ('.' in j.exports || Object.keys(j.exports).every((k) => !k.startsWith('.'))));
  const entryPoint = typeof j.main === 'string' || typeof j.module === 'string' || typeof j.types === 'string'
    || typeof j.typings === 'string' || exportsMain;
  // What a package publishes says what it is: a non-private package with an entry point that declares
  // what it ships (`files`) or how (`publishConfig`) is a library others install, whatever its folder or
  // name (a published `@scope/test` helper is no test suite). Without those, a package in a test or
  // benchmark folder is taken as the harness it usually is.
  const published = j.private !== true && typeof j.version === 'string' && entryPoint
    && (Array.isArray(j.files) || isRecord(j.publishConfig));
  // Tests, and benchmarks (`benchmarks/*`: the keys count them as tests).
  if (
    !published
    && (/(^|\/)(\.?tests?|e2e|__tests__|bench|benches|benchmarks?)(\/|$)/.test(p.dir)
      || /(^|[/-])tests?$|-e2e$/.test(name))
  ) return 'test';
  const engines = j.engines;
  if (isRecord(engines) && 'vscode' in engines) return 'plugin';
  // Example programs are apps, even when they export a handler (a Lambda, a worker); so is a private
  // package that is the whole repository (a service) and offers nothing to import. `private` only keeps
  // a package off the registry: one that declares what importers get (`exports`, `module`, `types`) is
  // still a library (built, vendored or linked); `main` alone is also what `node .` starts.
  const forImporters = exportsMain || typeof j.module === 'string' || typeof j.types === 'string'
    || typeof j.typings === 'string';
  if (
    j.private === true
    && (isSamplePath(p.dir) || (p.dir === '' && p.workspaceRoot === undefined && !j.workspaces && !forImporters))
  ) return 'app';
  const deps = {
    ...(isRecord(j.dependencies) ? j.dependencies : {}),
    ...(isRecord(j.devDependencies) ? j.devDependencies : {}),
  };
  const app = Object.keys(deps).some((d) => APP_FRAMEWORKS.test(d));
  // A private workspace package nothing depends on that neither runs (no framework, no start, dev
  // or serve script) nor installs a command is a harness around the others: tests, benchmarks,
  // type-check and bundle checks (`packages/integration`, `bench`, `treeshake`, `resolution` packages).
  const scripts = isRecord(j.scripts) ? Object.keys(j.scripts) : [];
  const runs = app || !!j.browserslist || scripts.some((k) => /^(start|dev|serve|preview)\b/.test(k))
    || APP_FOLDER.test(p.dir + '/');
  if (j.private === true && p.workspaceRoot !== undefined && !dependedOn && !j.bin && !runs) return 'test';
  if (entryPoint) return 'library';
  if (j.bin) return 'app';
  // The repository's own manifest with nothing another package could import (no entry point, no
  // index file, no published `files`) holds the project's scripts (release tooling beside a server in another language).
  if (p.dir === '' && p.workspaceRoot === undefined && !j.workspaces && !j.files && !hasIndex) return 'app';
  if (j.private === true && app) return 'app';
  // A private package that says which browsers it ships to is a web app bundle (an app package, a server's frontend).
  if (
    j.private === true
    && (isRecord(j.browserslist) || Array.isArray(j.browserslist) || typeof j.browserslist === 'string')
  ) return 'app';
  if (APP_FOLDER.test(p.dir + '/')) return 'app';
  return 'library';
}

function managerOf(ctx: DiscoveryContext, dir: string, json: Record<string, unknown> | undefined): Ecosystem {
  const pm = typeof json?.packageManager === 'string' ? json.packageManager : '';
  if (pm.startsWith('pnpm') || ctx.has(joinRel(dir, 'pnpm-lock.yaml'))) return 'pnpm';
  if (pm.startsWith('yarn') || ctx.has(joinRel(dir, 'yarn.lock')) || ctx.has(joinRel(dir, '.yarnrc.yml'))) {
    return 'yarn';
  }
  return 'npm';
}

/** The `packages:` list of pnpm-workspace.yaml (block or flow style), without a YAML library. */
export function pnpmPackages(yaml: string): string[] {
  const lines = yaml.split(/\r?\n/);
  const at = lines.findIndex((l) => /^packages\s*:/.test(l));
  if (at < 0) return [];
  const inline = /^packages\s*:\s*\[(.*)\]/.exec(lines[at]);
  if (inline) return inline[1].split(',').map(unquote).filter(Boolean);
  const out: string[] = [];
  for (const l of lines.slice(at + 1)) {
    if (/^\S/.test(l)) break;
    const m = /^\s*-\s*(.+?)\s*(#.*)?$/.exec(l);
    if (m) out.push(unquote(m[1]));
  }
  return out.filter(Boolean);
}

function unquote(s: string): string {
  return s.trim().replace(/^['"]|['"]$/g, '');
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isString(v: unknown): v is string {
  return typeof v === 'string';
}

export function compact(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null && v !== ''));
}
