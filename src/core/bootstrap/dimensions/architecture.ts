import path from 'node:path';
import { nodeKey, type GraphEdge } from '../../graph';
import { confidence, Tallies } from '../evidence';
import { slicer } from '../slices';
import { factsOf, type ImportFact } from '../facts';
import type { AnalysisContext, Analyzer, CandidateDraft, Family, SourceFile } from '../types';
import { languageOf } from './standards';

const SOURCE_ROOTS = new Set(['src', 'lib', 'app', 'source', 'Sources', 'pkg', 'internal', 'cmd', 'packages', 'apps', 'modules', 'libs', 'services', 'crates']);
const JS_EXTENSIONS = ['', '.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '/index.ts', '/index.tsx', '/index.js', '/index.jsx'];
const MAX_FILE_EDGES = 20_000;

const ENTRY_POINTS: [RegExp, string, Family[]][] = [
  [/^if\s+__name__\s*==\s*['"]__main__['"]/m, 'script entry (__main__)', ['python']],
  [/^func\s+main\s*\(\s*\)/m, 'Go main', ['go']],
  [/^\s*(?:pub\s+)?(?:async\s+)?fn\s+main\s*\(/m, 'Rust main', ['rust']],
  [/^@main\b|^\s*@main\s+(?:struct|class|enum)/m, 'Swift @main', ['swift']],
  [/\bUIApplicationMain\s*\(|@UIApplicationMain|@NSApplicationMain/, 'app delegate entry', ['swift', 'objc']],
  [/^export\s+(?:async\s+)?function\s+activate\s*\(/m, 'VS Code extension activate()', ['jsts']],
  [/\brequire\.main\s*===\s*module\b|import\.meta\.main\b/, 'Node script entry', ['jsts']],
  [/\bcreateRoot\s*\([^)]*\)\s*\.render\s*\(|ReactDOM\.render\s*\(/, 'React root', ['jsts']],
  [/\b(?:app|server)\.listen\s*\(/, 'HTTP server start', ['jsts', 'python']],
  [/@SpringBootApplication\b/, 'Spring Boot application', ['java', 'kotlin']],
  [/^\s*fun\s+main\s*\(/m, 'Kotlin main', ['kotlin']],
  [/public\s+static\s+void\s+main\s*\(\s*String/, 'Java main', ['java']],
];

interface RawImports {
  path: string;
  family: Family;
  target?: string;
  imports: ImportFact[];
}

/**
 * Dimension 3, architecture: import direction between layers (folders or targets), the boundaries
 * that follow from it, module dependencies from the manifests, and the entry points. Also yields the
 * file → file import edges for the knowledge graph.
 */
export class ArchitectureAnalyzer implements Analyzer {
  private readonly files: RawImports[] = [];
  private readonly entries = new Tallies(12);
  private readonly productionFiles: string[] = [];
  private edges: GraphEdge[] = [];

  visit(file: SourceFile): void {
    if (file.generated || file.family === 'other') return;
    const imports = factsOf(file).imports;
    if (!file.isTest && imports.length) this.files.push({ path: file.path, family: file.family, ...(file.target ? { target: file.target } : {}), imports });
    if (file.isTest) return;
    this.productionFiles.push(file.path);
    for (const [re, label, families] of ENTRY_POINTS) {
      if (!families.includes(file.family)) continue;
      // Raw text, since some idioms live in strings (`'__main__'`); a match inside a comment does not count.
      const m = new RegExp(re.source, re.flags.includes('g') ? re.flags : re.flags + 'g');
      for (let hit = m.exec(file.text); hit; hit = m.exec(file.text)) {
        const at = hit.index + (hit[0].length - hit[0].trimStart().length);
        if (file.code[at] !== file.text[at]) continue;
        this.entries.get(label).add(file, lineOf(file.text, at));
        break;
      }
    }
  }

  /** file → file `imports` edges found by the last `finish`, for the graph. */
  fileEdges(): GraphEdge[] {
    return this.edges;
  }

  async finish(ctx: AnalysisContext): Promise<CandidateDraft[]> {
    const resolver = new ImportResolver(ctx);
    const useTargets = ctx.structure.targets.length >= 2;
    const unitOf = (p: string, target?: string) => (useTargets ? target : layerOf(p));
    const unitEdges = new Map<string, { count: number; sources: string[] }>();
    const fileEdges = new Map<string, GraphEdge>();
    const checkpoint = slicer();
    for (const f of this.files) {
      await checkpoint();
      const fromUnit = unitOf(f.path, f.target);
      for (const imp of f.imports) {
        const resolved = resolver.resolve(f, imp.spec);
        if (!resolved) continue;
        if (resolved.file && fileEdges.size < MAX_FILE_EDGES) {
          const k = `${f.path}\u0000${resolved.file}`;
          if (!fileEdges.has(k) && resolved.file !== f.path) fileEdges.set(k, { from: nodeKey('file', f.path), to: nodeKey('file', resolved.file), relation: 'imports', weight: 1, evidence: `${f.path}:${imp.line}` });
        }
        const toUnit = resolved.target && useTargets ? resolved.target : resolved.file ? unitOf(resolved.file, resolver.targetOf(resolved.file)) : undefined;
        if (!fromUnit || !toUnit || fromUnit === toUnit) continue;
        const k = `${fromUnit}\u0000${toUnit}`;
        const e = unitEdges.get(k) ?? { count: 0, sources: [] };
        e.count++;
        if (e.sources.length < 4 && !e.sources.some((s) => s.startsWith(f.path + ':'))) e.sources.push(`${f.path}:${imp.line}`);
        unitEdges.set(k, e);
      }
    }
    this.edges = [...fileEdges.values()];
    const fam = ctx.primary ?? 'other';
    return [...this.layering(unitEdges, useTargets, fam, ctx), ...this.independentSiblings(fam, ctx), ...this.moduleDependencies(ctx), ...(await this.entryPoints(ctx))];
  }

  private layering(unitEdges: Map<string, { count: number; sources: string[] }>, useTargets: boolean, fam: Family, ctx: AnalysisContext): CandidateDraft[] {
    const edges = [...unitEdges.entries()].map(([k, v]) => ({ from: k.split('\u0000')[0], to: k.split('\u0000')[1], ...v }));
    const units = [...new Set(edges.flatMap((e) => [e.from, e.to]))].sort();
    if (units.length < 3 || edges.length < 2) return [];
    const order = topological(units, edges);
    const what = useTargets ? 'targets' : 'folders';
    const out: CandidateDraft[] = [];
    const language = languageOf(fam, ctx);
    if (order) {
      const sorted = [...edges].sort((a, b) => order.indexOf(a.from) - order.indexOf(b.from) || order.indexOf(a.to) - order.indexOf(b.to));
      out.push({
        title: `Imports between ${what} point one way: ${order.join(' → ')}`,
        knowledgeType: 'architecture',
        dimension: 'architecture',
        language,
        category: 'architecture',
        summary: `Across ${edges.reduce((n, e) => n + e.count, 0)} imports between ${units.length} ${what} there is no cycle: ${sorted.map((e) => `${e.from} → ${e.to} (${e.count})`).join(', ')}. Keep new imports in this direction.`,
        code: sorted.map((e) => `${e.from} → ${e.to}`).join('\n'),
        reasoning: { whyStandard: `Measured from the resolved imports of every scanned source file; the ${what} form a directed acyclic graph.`, sources: sorted.flatMap((e) => e.sources.slice(0, 1)).slice(0, 8), confidence: confidence(0.9, edges.reduce((n, e) => n + e.count, 0)) },
        tags: ['layering', 'imports'],
      });
    }
    // A widely used unit that imports none of its users is a boundary.
    const dependents = new Map<string, typeof edges>();
    for (const e of edges) dependents.set(e.to, [...(dependents.get(e.to) ?? []), e]);
    const boundaries = [...dependents.entries()]
      .filter(([unit, ins]) => ins.length >= 2 && ins.reduce((n, e) => n + e.count, 0) >= 5 && !edges.some((e) => e.from === unit && ins.some((i) => i.from === e.to)))
      .sort((a, b) => b[1].reduce((n, e) => n + e.count, 0) - a[1].reduce((n, e) => n + e.count, 0) || (a[0] < b[0] ? -1 : 1))
      .slice(0, 3);
    for (const [unit, ins] of boundaries) {
      const users = ins.map((e) => e.from).sort();
      const total = ins.reduce((n, e) => n + e.count, 0);
      out.push({
        title: `\`${unit}\` does not import ${users.map((u) => `\`${u}\``).join(', ')}`,
        knowledgeType: 'boundary-constraint',
        dimension: 'architecture',
        language,
        category: 'architecture',
        summary: `${users.length} ${what} import \`${unit}\` (${total} imports) and \`${unit}\` imports none of them back. Keep it that way: shared code must not reach up into its users.`,
        code: users.map((u) => `${u} → ${unit}   (allowed)\n${unit} → ${u}   (not allowed)`).join('\n'),
        reasoning: { whyStandard: 'The dependency is one-directional in every scanned file.', sources: ins.flatMap((e) => e.sources.slice(0, 2)).slice(0, 6), confidence: confidence(0.9, total) },
        tags: ['boundary', 'imports'],
      });
    }
    return out;
  }

  /** Sibling folders (features, screens, plugins) that never import one another, though they import shared code. */
  private independentSiblings(fam: Family, ctx: AnalysisContext): CandidateDraft[] {
    const children = new Map<string, Set<string>>();
    for (const p of this.productionFiles) {
      const parts = p.split('/');
      for (let d = 0; d < parts.length - 2; d++) {
        const parent = parts.slice(0, d + 1).join('/');
        const set = children.get(parent) ?? new Set<string>();
        set.add(parts[d + 1]);
        children.set(parent, set);
      }
    }
    const childOf = (parent: string, file: string) => (file.startsWith(parent + '/') ? file.slice(parent.length + 1).split('/') : undefined);
    const out: CandidateDraft[] = [];
    const found: { parent: string; kids: string[]; outward: GraphEdge[] }[] = [];
    for (const [parent, kids] of children) {
      if (kids.size < 3) continue;
      let cross = 0;
      const outward: GraphEdge[] = [];
      const importing = new Set<string>();
      for (const e of this.edges) {
        const a = childOf(parent, e.from.slice('file:'.length));
        if (!a || a.length < 2) continue;
        const b = childOf(parent, e.to.slice('file:'.length));
        if (!b) {
          outward.push(e);
          importing.add(a[0]);
        } else if (b.length >= 2 && b[0] !== a[0]) cross++;
      }
      if (cross === 0 && outward.length >= 3 && importing.size >= 3) found.push({ parent, kids: [...kids].sort(), outward });
    }
    found.sort((x, y) => y.kids.length - x.kids.length || (x.parent < y.parent ? -1 : 1));
    for (const f of found.slice(0, 2)) {
      const shared = [...new Set(f.outward.map((e) => layerOf(e.to.slice('file:'.length)) ?? e.to.slice('file:'.length)))].sort();
      out.push({
        title: `Folders under \`${f.parent}\` do not import each other`,
        knowledgeType: 'boundary-constraint',
        dimension: 'architecture',
        language: languageOf(fam, ctx),
        category: 'architecture',
        summary: `${f.kids.length} sibling folders (${f.kids.slice(0, 6).join(', ')}) import shared code (${shared.slice(0, 4).join(', ')}) ${f.outward.length} times and never one another. Share code by moving it out of ${f.parent}, not by importing a sibling.`,
        code: f.kids.map((k) => `${f.parent}/${k} → ${shared.slice(0, 3).join(', ')}`).join('\n'),
        reasoning: { whyStandard: 'No import crosses between these siblings in the scanned code, while each imports shared modules.', sources: [...new Map(f.outward.map((e) => [e.from, e.evidence!])).values()].slice(0, 6), confidence: confidence(0.9, f.outward.length) },
        tags: ['boundary', 'modules', 'imports'],
      });
    }
    return out;
  }

  private moduleDependencies(ctx: AnalysisContext): CandidateDraft[] {
    const targets = ctx.structure.targets;
    const internal = targets.flatMap((t) => t.dependencies.filter((d) => d.target).map((d) => ({ from: t.name, to: d.target!, scope: d.scope, evidence: d.evidence })));
    if (targets.length < 2 || internal.length === 0) return [];
    const byFrom = new Map<string, string[]>();
    for (const e of internal) byFrom.set(e.from, [...new Set([...(byFrom.get(e.from) ?? []), e.scope === 'prod' || e.scope === 'build' ? e.to : `${e.to} (${e.scope})`])]);
    const leaves = targets.filter((t) => !internal.some((e) => e.from === t.name)).map((t) => t.name);
    const ecosystems = Object.keys(ctx.structure.ecosystems).join(', ');
    return [
      {
        title: 'Module dependencies declared in the build manifests',
        knowledgeType: 'module-dependency',
        dimension: 'architecture',
        language: ctx.structure.targets[0]?.language ?? 'text',
        category: 'architecture',
        summary: `${targets.length} targets (${ecosystems}); ${internal.length} internal dependencies. Targets with no internal dependency: ${leaves.slice(0, 8).join(', ') || 'none'}. Add a dependency in the manifest before importing across targets.`,
        code: [...byFrom.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([from, tos]) => `${from} → ${tos.sort().join(', ')}`).join('\n'),
        reasoning: { whyStandard: 'Read from the manifests, which the build enforces.', sources: internal.map((e) => e.evidence).filter((x): x is string => !!x).slice(0, 8), confidence: 0.9 },
        tags: ['modules', 'dependencies', ...Object.keys(ctx.structure.ecosystems)],
      },
    ];
  }

  private async entryPoints(ctx: AnalysisContext): Promise<CandidateDraft[]> {
    const found = this.entries.entries().flatMap(([label, t]) => t.samples.map((s) => ({ label, ...s })));
    for (const t of ctx.structure.targets) {
      const bin = t.metadata.bin;
      const main = t.metadata.main;
      if (typeof main === 'string') found.push({ label: `${t.name} main`, path: path.posix.join(t.dir, main.replace(/^\.\//, '')), line: 1, text: '' });
      if (Array.isArray(bin)) found.push({ label: `${t.name} bin`, path: t.manifest, line: 1, text: bin.join(', ') });
    }
    if (found.length === 0) return [];
    found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
    const unique = found.filter((f, i) => found.findIndex((g) => g.path === f.path && g.label === f.label) === i).slice(0, 12);
    const exists = unique.filter((f) => ctx.listing.includes(f.path));
    if (exists.length === 0) return [];
    return [
      {
        title: `Entry points: ${[...new Set(exists.map((f) => f.path))].slice(0, 3).join(', ')}`,
        knowledgeType: 'architecture',
        dimension: 'architecture',
        language: languageOf(ctx.primary ?? 'other', ctx),
        category: 'architecture',
        summary: `Execution starts in ${exists.length} place${exists.length === 1 ? '' : 's'}: ${exists.map((f) => `${f.path} (${f.label})`).join('; ')}. Wiring of new components belongs here, not in library code.`,
        code: exists.map((f) => `${f.path}:${f.line}  ${f.label}`).join('\n'),
        reasoning: { whyStandard: 'Found by the entry-point idioms of each language and by the manifests\' main/bin fields.', sources: exists.map((f) => `${f.path}:${f.line}`).slice(0, 8), confidence: 0.8 },
        tags: ['entry-point', 'composition-root'],
      },
    ];
  }
}

/** Folder that stands for a layer: `src/core` for `src/core/graph/x.ts`, `lib` for `lib/x.py`. */
export function layerOf(p: string): string | undefined {
  const parts = p.split('/');
  if (parts.length < 2) return undefined;
  if (SOURCE_ROOTS.has(parts[0])) return parts.length >= 3 ? `${parts[0]}/${parts[1]}` : undefined;
  return parts[0];
}

function topological(units: string[], edges: { from: string; to: string }[]): string[] | undefined {
  const indeg = new Map(units.map((u) => [u, 0]));
  for (const e of edges) indeg.set(e.to, (indeg.get(e.to) ?? 0) + 1);
  const ready = units.filter((u) => indeg.get(u) === 0).sort();
  const order: string[] = [];
  while (ready.length) {
    const u = ready.shift()!;
    order.push(u);
    for (const e of edges.filter((x) => x.from === u)) {
      indeg.set(e.to, indeg.get(e.to)! - 1);
      if (indeg.get(e.to) === 0) {
        ready.push(e.to);
        ready.sort();
      }
    }
  }
  return order.length === units.length ? order : undefined;
}

function lineOf(text: string, index: number): number {
  let n = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/** Turns an import as written into a workspace file or a target, per language. */
class ImportResolver {
  private readonly files: Set<string>;
  private readonly jvm = new Map<string, string>();
  private readonly byBase = new Map<string, string[]>();
  private readonly packages = new Map<string, string>();
  private readonly goModules: { module: string; dir: string; name: string }[] = [];
  private readonly targetDirs: { dir: string; name: string }[];
  private readonly pyRoots: string[];
  private readonly goFileByDir = new Map<string, string>();

  constructor(ctx: AnalysisContext) {
    this.files = new Set(ctx.listing);
    for (const f of ctx.listing) {
      const m = /(?:^|\/)(?:java|kotlin)\/(.+)\.(?:java|kt)$/.exec(f);
      if (m) this.jvm.set(m[1].replace(/\//g, '.'), f);
      if (f.endsWith('.go') && !f.endsWith('_test.go')) {
        const d = path.posix.dirname(f);
        if (!this.goFileByDir.has(d)) this.goFileByDir.set(d, f);
      }
      if (/\.(h|hpp)$/.test(f)) {
        const b = f.slice(f.lastIndexOf('/') + 1);
        this.byBase.set(b, [...(this.byBase.get(b) ?? []), f]);
      }
    }
    for (const t of ctx.structure.targets) {
      if (t.ecosystem === 'npm' || t.ecosystem === 'pnpm' || t.ecosystem === 'yarn') this.packages.set(t.name, t.name);
      if (t.ecosystem === 'go') this.goModules.push({ module: t.name, dir: t.dir, name: t.name });
      if (t.ecosystem === 'swift') this.packages.set(t.name, t.name);
    }
    this.targetDirs = ctx.structure.targets.flatMap((t) => [t.dir, ...(t.extraDirs ?? [])].map((dir) => ({ dir, name: t.name }))).sort((a, b) => b.dir.length - a.dir.length);
    this.pyRoots = ['', 'src', ...ctx.structure.targets.filter((t) => t.ecosystem === 'python').flatMap((t) => [t.dir, path.posix.join(t.dir, 'src')])];
  }

  targetOf(file: string): string | undefined {
    return this.targetDirs.find((t) => t.dir === '' || file.startsWith(t.dir + '/'))?.name;
  }

  resolve(from: RawImports, spec: string): { file?: string; target?: string } | undefined {
    const dir = path.posix.dirname(from.path);
    switch (from.family) {
      case 'jsts': {
        if (spec.startsWith('.')) {
          const base = path.posix.normalize(path.posix.join(dir, spec));
          for (const ext of JS_EXTENSIONS) if (this.files.has(base + ext)) return { file: base + ext };
          const swapped = base.replace(/\.(m|c)?js$/, '.$1ts');
          if (this.files.has(swapped)) return { file: swapped };
          return undefined;
        }
        const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
        return this.packages.has(pkg) ? { target: pkg } : undefined;
      }
      case 'python': {
        const dots = /^\.*/.exec(spec)![0].length;
        const rest = spec.slice(dots).split('.').filter(Boolean).join('/');
        const bases = dots ? [path.posix.normalize(path.posix.join(dir, ...Array(dots - 1).fill('..'), rest))] : this.pyRoots.map((r) => path.posix.join(r, rest));
        for (const b of bases) for (const c of [`${b}.py`, `${b}/__init__.py`]) if (this.files.has(c.replace(/^\.\//, ''))) return { file: c.replace(/^\.\//, '') };
        return undefined;
      }
      case 'go': {
        const mod = this.goModules.filter((m) => spec === m.module || spec.startsWith(m.module + '/')).sort((a, b) => b.module.length - a.module.length)[0];
        if (!mod) return undefined;
        const pkgDir = path.posix.join(mod.dir, spec.slice(mod.module.length + 1));
        const file = this.goFileByDir.get(pkgDir);
        return file ? { file, target: mod.name } : { target: mod.name };
      }
      case 'swift':
        return this.packages.has(spec) ? { target: spec } : undefined;
      case 'objc': {
        const local = path.posix.join(dir, spec);
        if (this.files.has(local)) return { file: local };
        const b = spec.slice(spec.lastIndexOf('/') + 1);
        const c = this.byBase.get(b);
        return c && c.length === 1 ? { file: c[0] } : undefined;
      }
      case 'java':
      case 'kotlin': {
        const f = this.jvm.get(spec);
        return f ? { file: f } : undefined;
      }
      default:
        return undefined;
    }
  }
}
