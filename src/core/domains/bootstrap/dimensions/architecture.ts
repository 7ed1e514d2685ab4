import path from 'node:path';
import { slicer } from '../../../ground/kernel/slices';
import { type GraphEdge, nodeKey } from '../../graph';
import { type Ecosystem, ownedDirs, type Target } from '../../structure';
import { confidence, Tallies } from '../evidence';
import { factsOf, type ImportFact } from '../facts';
import { fit, MAX_SUMMARY, nameList, shownTarget } from '../form';
import { resolveJsFile } from '../js-resolution';
import { resolveRust } from '../rust-modules';
import { pathKind } from '../source';
import type { AnalysisContext, Analyzer, CandidateDraft, Family, SourceFile } from '../types';
import { languageOf } from './standards';

/** Sibling folders that never import one another are a boundary worth stating from this many on. */
const MIN_INDEPENDENT_SIBLINGS = 6;

const SOURCE_ROOTS = new Set([
  'src',
  'lib',
  'app',
  'source',
  'Sources',
  'pkg',
  'internal',
  'cmd',
  'packages',
  'apps',
  'modules',
  'libs',
  'services',
  'crates',
]);
const MAX_FILE_EDGES = 20_000;

const ENTRY_POINTS: [RegExp, string, Family[]][] = [
  [/^if\s+__name__\s*==\s*['"]__main__['"]/m, 'script entry (__main__)', ['python']],
  // A Django or ASGI site starts where the server loads `application` (`uvicorn site.asgi:application`), workers at the Celery app.
  [/^application\s*=\s*get_asgi_application\s*\(/m, 'ASGI application', ['python']],
  [/^application\s*=\s*get_wsgi_application\s*\(/m, 'WSGI application', ['python']],
  [/^\w+\s*=\s*Celery\s*\(/m, 'Celery app', ['python']],
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

/** A word each entry-point idiom needs, to skip its regex on files that cannot match. */
const ENTRY_HINT: Record<string, string> = {
  'script entry (__main__)': '__main__',
  'ASGI application': '_application',
  'WSGI application': '_application',
  'Celery app': 'Celery',
  'Go main': 'main',
  'Rust main': 'main',
  'Swift @main': '@main',
  'app delegate entry': 'Application',
  'VS Code extension activate()': 'activate',
  'Node script entry': 'main',
  'React root': 'render',
  'HTTP server start': 'listen',
  'Spring Boot application': 'SpringBoot',
  'Kotlin main': 'main',
  'Java main': 'main',
};

interface RawImports {
  path: string;
  family: Family;
  target?: string;
  imports: ImportFact[];
}

/** Target kinds whose code is the product (not a test suite, not a sample). */
const PRODUCT_KINDS = new Set(['library', 'app', 'plugin', 'module']);

/**
 * Dimension 3, architecture, over production code: module dependencies as the manifests declare
 * them (what the build enforces), import direction and boundaries between the folders of a single
 * package (imports resolved, package imports included), sibling folders that stay independent, and
 * the entry points of the project's applications. Also yields the file → file import edges.
 */
export class ArchitectureAnalyzer implements Analyzer {
  private readonly files: RawImports[] = [];
  private readonly entries = new Tallies(12);
  private readonly productionFiles: string[] = [];
  private edges: GraphEdge[] = [];
  private targetImports: { from: string; fromTarget?: string; toTarget: string; evidence: string }[] = [];

  visit(file: SourceFile): void {
    if (file.kind !== 'production' || file.family === 'other') return;
    const imports = factsOf(file).imports;
    if (imports.length) {
      this.files.push({
        path: file.path,
        family: file.family,
        ...(file.target ? { target: file.target } : {}),
        imports,
      });
    }
    this.productionFiles.push(file.path);
    for (const [re, label, families] of ENTRY_POINTS) {
      if (!families.includes(file.family) || !file.text.includes(ENTRY_HINT[label] ?? '')) continue;
      // A Rust binary starts in main.rs or src/bin; a Go one in package main: a `main` elsewhere is an example in a string or a doc.
      if (file.family === 'rust' && !/(^|\/)main\.rs$|\/bin\/[^/]+\.rs$/.test(file.path)) continue;
      if (file.family === 'go' && !/^\s*package\s+main\b/m.test(file.code)) continue;
      // A Go file built only by `go generate` (`//go:build ignore`) is a generator, not a program of the project.
      if (file.family === 'go' && /^\/\/go:build\s+ignore\b|^\/\/\s*\+build\s+ignore\b/m.test(file.text)) continue;
      // Django's manage.py runs management commands; the site starts at its ASGI/WSGI application.
      if (label === 'script entry (__main__)' && /\bexecute_from_command_line\b/.test(file.text)) continue;
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
    const products = productTargets(ctx);
    const singlePackage = products.length <= 1;
    const unitEdges = new Map<string, { count: number; sources: string[] }>();
    const fileEdges = new Map<string, GraphEdge>();
    this.targetImports = [];
    const checkpoint = slicer();
    for (const f of this.files) {
      await checkpoint();
      const fromUnit = layerOf(f.path);
      for (const imp of f.imports) {
        const resolved = resolver.resolve(f, imp.spec, imp);
        if (!resolved) continue;
        if (resolved.target && resolved.target !== f.target) {
          this.targetImports.push({
            from: f.path,
            fromTarget: f.target,
            toTarget: resolved.target,
            evidence: `${f.path}:${imp.line}`,
          });
        }
        if (resolved.file && fileEdges.size < MAX_FILE_EDGES) {
          const k = `${f.path}\u0000${resolved.file}`;
          if (!fileEdges.has(k) && resolved.file !== f.path) {
            fileEdges.set(k, {
              from: nodeKey('file', f.path),
              to: nodeKey('file', resolved.file),
              relation: 'imports',
              weight: 1,
              evidence: `${f.path}:${imp.line}`,
            });
          }
        }
        // Folder layering only inside one package: between packages the manifests say it, and the build enforces it.
        if (!singlePackage) continue;
        const toUnit = resolved.file ? layerOf(resolved.file) : undefined;
        if (!fromUnit || !toUnit || fromUnit === toUnit) continue;
        const k = `${fromUnit}\u0000${toUnit}`;
        const e = unitEdges.get(k) ?? { count: 0, sources: [] };
        e.count++;
        if (e.sources.length < 4 && !e.sources.some((s) => s.startsWith(f.path + ':'))) {
          e.sources.push(`${f.path}:${imp.line}`);
        }
        unitEdges.set(k, e);
      }
    }
    this.edges = [...fileEdges.values()];
    const fam = ctx.primary ?? 'other';
    return [
      ...this.layering(unitEdges, fam, ctx),
      ...this.independentSiblings(fam, ctx),
      ...this.moduleDependencies(ctx),
      ...(await this.entryPoints(ctx)),
    ];
  }

  private layering(
    unitEdges: Map<string, { count: number; sources: string[] }>,
    fam: Family,
    ctx: AnalysisContext,
  ): CandidateDraft[] {
    const edges = [...unitEdges.entries()].map(([k, v]) => ({
      from: k.split('\u0000')[0],
      to: k.split('\u0000')[1],
      ...v,
    }));
    const units = [...new Set(edges.flatMap((e) => [e.from, e.to]))].sort();
    if (units.length < 3 || edges.length < 2) return [];
    // Go's compiler refuses an import cycle between packages: "one way" and "never imports its users" are the language's rule.
    if (fam === 'go') return [];
    const order = topological(units, edges);
    const out: CandidateDraft[] = [];
    const language = languageOf(fam, ctx);
    const total = edges.reduce((n, e) => n + e.count, 0);
    if (order) {
      const sorted = [...edges].sort((a, b) =>
        order.indexOf(a.from) - order.indexOf(b.from) || order.indexOf(a.to) - order.indexOf(b.to)
      );
      out.push({
        // Not "a → b → c": that reads as edges, and a folder may skip a level.
        title: fit(`Folders import only those listed after them: ${order.join(', ')}`, 100),
        knowledgeType: 'architecture',
        dimension: 'architecture',
        language,
        category: 'architecture',
        summary: `Across ${total} imports between ${units.length} folders there is no cycle (${
          sorted.slice(0, 5).map((e) => `${e.from} → ${e.to} ×${e.count}`).join(', ')
        }${sorted.length > 5 ? ', …' : ''}). Keep new imports in this direction.`,
        code: '',
        details: sorted.map((e) => `- ${e.from} → ${e.to} (${e.count} imports)`).join('\n'),
        reasoning: {
          whyStandard:
            'Measured from the resolved imports of every scanned production file; the folders form a directed acyclic graph.',
          sources: sorted.flatMap((e) => e.sources.slice(0, 1)).slice(0, 8),
          confidence: confidence(0.9, total),
        },
        tags: ['layering', 'imports'],
        trigger: 'import-direction',
      });
    }
    // A widely used folder that imports none of its users is a boundary.
    const dependents = new Map<string, typeof edges>();
    for (const e of edges) dependents.set(e.to, [...(dependents.get(e.to) ?? []), e]);
    const boundaries = [...dependents.entries()]
      .filter(([unit, ins]) =>
        ins.length >= 2 && ins.reduce((n, e) => n + e.count, 0) >= 5
        && !edges.some((e) => e.from === unit && ins.some((i) => i.from === e.to))
      )
      .sort((a, b) =>
        b[1].reduce((n, e) => n + e.count, 0) - a[1].reduce((n, e) => n + e.count, 0) || (a[0] < b[0] ? -1 : 1)
      )
      .slice(0, 2);
    for (const [unit, ins] of boundaries) {
      const users = ins.map((e) => e.from).sort();
      const n = ins.reduce((k, e) => k + e.count, 0);
      out.push({
        title: fit(`\`${unit}\` never imports the folders that use it (${nameList(users, 50)})`, 100),
        knowledgeType: 'boundary-constraint',
        dimension: 'architecture',
        language,
        category: 'architecture',
        summary:
          `${users.length} folders import \`${unit}\` (${n} imports) and \`${unit}\` imports none of them back. Keep it that way: shared code must not reach up into its users.`,
        code: '',
        reasoning: {
          whyStandard: 'The dependency is one-directional in every scanned production file.',
          sources: ins.flatMap((e) => e.sources.slice(0, 2)).slice(0, 6),
          confidence: confidence(0.9, n),
        },
        tags: ['boundary', 'imports'],
        ruleSeed: {
          kind: 'forbid-import',
          language,
          files: unit,
          modules: users,
          goodAt: ins.flatMap((e) => e.sources.slice(0, 1)).slice(0, 4),
        },
      });
    }
    return out;
  }

  /**
   * Sibling folders (features, screens, plugins) that never import one another, though they import
   * shared code. Imports of a sibling package by name count as crossings too.
   */
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
    const targetDir = new Map(ctx.structure.targets.map((t) => [t.name, t.dir]));
    // Each import is looked at from every folder above the importing file (linear in imports × depth).
    const stats = new Map<string, { cross: number; outward: GraphEdge[]; importing: Set<string> }>();
    const statOf = (parent: string) => {
      let st = stats.get(parent);
      if (!st) stats.set(parent, st = { cross: 0, outward: [], importing: new Set() });
      return st;
    };
    const visit = (from: string, to: string | undefined, edge?: GraphEdge) => {
      const a = from.split('/');
      let parent = '';
      for (let d = 1; d < a.length - 1; d++) {
        parent = d === 1 ? a[0] : `${parent}/${a[d - 1]}`;
        if ((children.get(parent)?.size ?? 0) < 3) continue;
        const inside = to !== undefined && to.length > parent.length + 1 && to.charCodeAt(parent.length) === 47
          && to.startsWith(parent);
        if (!inside) {
          if (edge) {
            const st = statOf(parent);
            st.outward.push(edge);
            st.importing.add(a[d]);
          }
          continue;
        }
        // The child folder the import lands in (none when it is a file right in `parent`).
        const slash = to!.indexOf('/', parent.length + 1);
        if (slash > 0 && to!.slice(parent.length + 1, slash) !== a[d]) statOf(parent).cross++;
      }
    };
    for (const e of this.edges) visit(e.from.slice('file:'.length), e.to.slice('file:'.length), e);
    for (const t of this.targetImports) {
      const dir = targetDir.get(t.toTarget);
      if (dir !== undefined) visit(t.from, `${dir}/x/x`);
    }
    const out: CandidateDraft[] = [];
    const found: { parent: string; kids: string[]; outward: GraphEdge[] }[] = [];
    for (const [parent, st] of stats) {
      // Three to five folders that happen not to import each other are a coincidence, not a boundary
      // (an internal/ai beside an internal/auth, a few account mutation modules);
      // plugins and features come in larger sets.
      // Kotlin multiplatform source sets (commonMain, jvmMain, …) share one package without imports: not independent folders.
      const kids = [...children.get(parent)!];
      if (kids.filter((k) => /(Main|Test)$/.test(k)).length * 2 > kids.length) continue;
      if (
        st.cross === 0 && st.outward.length >= 3 && st.importing.size >= 3
        && children.get(parent)!.size >= MIN_INDEPENDENT_SIBLINGS
      ) found.push({ parent, kids: [...children.get(parent)!].sort(), outward: st.outward });
    }
    found.sort((x, y) => y.kids.length - x.kids.length || (x.parent < y.parent ? -1 : 1));
    for (const f of found.slice(0, 2)) {
      const shared = [
        ...new Set(f.outward.map((e) => layerOf(e.to.slice('file:'.length)) ?? e.to.slice('file:'.length))),
      ].sort();
      out.push({
        title: `Folders under \`${f.parent}\` do not import each other`,
        knowledgeType: 'boundary-constraint',
        dimension: 'architecture',
        language: languageOf(fam, ctx),
        category: 'architecture',
        summary: `${f.kids.length} sibling folders (${nameList(f.kids, 80, false)}) import shared code (${
          nameList(shared, 60, false)
        }) ${f.outward.length} times and never one another. Share code by moving it out of ${f.parent}, not by importing a sibling.`,
        code: '',
        reasoning: {
          whyStandard:
            'No import crosses between these siblings in the scanned production code (package imports included), while each imports shared modules.',
          sources: [...new Map(f.outward.map((e) => [e.from, e.evidence!])).values()].slice(0, 6),
          confidence: confidence(0.9, f.outward.length),
        },
        tags: ['boundary', 'modules', 'imports'],
      });
    }
    return out;
  }

  /** The dependencies between the product's own packages, as the manifests declare them (tests, dev tools and samples aside). */
  private moduleDependencies(ctx: AnalysisContext): CandidateDraft[] {
    const products = productTargets(ctx);
    const names = new Set(products.map((t) => t.name));
    // buildSrc is on every build script's classpath: an edge from each project says nothing about the module graph.
    const internal = products.flatMap((t) =>
      t.dependencies.filter((d) =>
        d.target && names.has(d.target) && d.target !== t.name && d.via !== 'buildSrc'
        && ['prod', 'peer', 'build', 'optional'].includes(d.scope)
      ).map((d) => ({ from: t.name, to: d.target!, scope: d.scope, evidence: d.evidence, via: d.via }))
    );
    const pairs = [...new Map(internal.map((e) => [`${e.from}\u0000${e.to}`, e])).values()];
    // A graph of four packages or fewer is read at a glance in the root manifest (4 crates and 3 edges are trivial).
    if (products.length < 5 || pairs.length < 3) return [];
    // The claim is that the manifests are the module graph: production code that imports another
    // package without declaring it (packages reaching each other through tsconfig paths)
    // contradicts it.
    const declared = new Set(
      products.flatMap((t) => t.dependencies.filter((d) => d.target).map((d) => `${t.name}\u0000${d.target}`)),
    );
    // Only where a package must declare what it imports itself (npm, Cargo); Gradle's `api` and
    // SwiftPM pass dependencies on to their users.
    const direct = new Set(
      products.filter((t) => ['npm', 'pnpm', 'yarn', 'cargo'].includes(t.ecosystem)).map((t) => t.name),
    );
    const undeclared = this.targetImports.filter((i) =>
      i.fromTarget && direct.has(i.fromTarget) && names.has(i.toTarget)
      && !declared.has(`${i.fromTarget}\u0000${i.toTarget}`)
    );
    if (undeclared.length > 0) return [];
    // Dependencies for tests only are not part of the product's graph, but they are in the manifests: say how many.
    const product = new Set(pairs.map((e) => `${e.from}\u0000${e.to}`));
    const testOnly = new Set(
      products.flatMap((t) =>
        t.dependencies.filter((d) =>
          d.target && names.has(d.target) && d.target !== t.name && (d.scope === 'dev' || d.scope === 'test')
        ).map((d) => `${t.name}\u0000${d.target}`)
      ).filter((k) => !product.has(k)),
    ).size;
    const byFrom = new Map<string, string[]>();
    for (const e of pairs) {
      byFrom.set(e.from, [
        ...(byFrom.get(e.from) ?? []),
        e.scope === 'prod' || e.scope === 'build' ? e.to : `${e.to} (${e.scope})`,
      ]);
    }
    // The base and the top of the code's graph: edges the code is compiled against, not a lint jar, a code generator's
    // classpath (build scope) or a BOM's version constraints (a :lint module at the base and a :bom on top mislead).
    const bom = (name: string) => /(^|[:/_-])bom$/i.test(name);
    const code = pairs.filter((e) => e.scope !== 'build' && !bom(e.from));
    const layered = code.length ? code : pairs;
    const used = new Set(layered.map((e) => e.to));
    const users = new Set(layered.map((e) => e.from));
    const base = products.filter((t) => used.has(t.name) && !users.has(t.name)).map((t) => t.name);
    const top = products.filter((t) => users.has(t.name) && !used.has(t.name)).map((t) => t.name);
    // Counted per kind of unit: "20 SwiftPM targets and 6 Xcode targets" ("26 SwiftPM targets, Xcode targets" reads as garbled).
    const perUnit = new Map<string, number>();
    for (const t of products) perUnit.set(UNIT[t.ecosystem], (perUnit.get(UNIT[t.ecosystem]) ?? 0) + 1);
    const units = nameList(
      [...perUnit].map(([unit, n]) => `${n} ${n === 1 ? unit.replace(/s$/, '') : unit}`),
      200,
      false,
    );
    // Gradle projects renamed in settings (a mockwebserver/ folder named :mockwebserver3): what a dependency names is not the folder.
    const folderOf = (t: (typeof products)[number]) => t.dir.split('/').pop();
    const nameOf = (t: (typeof products)[number]) => t.name.replace(/^:/, '').split(':').pop();
    // The most misleading first: a name that is another project's folder (:mockwebserver is mockwebserver-deprecated/).
    const misleading = (
      t: (typeof products)[number],
    ) => (products.some((o) => o !== t && folderOf(o) === nameOf(t)) ? 0 : 1);
    const renamed = products.filter((t) => t.ecosystem === 'gradle' && t.dir && nameOf(t) !== folderOf(t)).sort((
      a,
      b,
    ) => misleading(a) - misleading(b) || (a.name < b.name ? -1 : 1));
    const renames = renamed.map((t) => `${t.name} is ${t.dir}/`);
    // Edges a convention plugin adds to every project that applies it: no project's own build file shows them, so they are the graph's most useful part.
    const conventional = pairs.filter((e) => e.via === 'convention-plugin');
    const pluginFiles = [
      ...new Set(
        conventional.map((e) => (e.evidence ?? '').replace(/:\d+$/, '').split('/').pop()!.replace(/\.(kt|java)$/, '')),
      ),
    ];
    const conventionNote = conventional.length
      ? `; ${conventional.length} of them are added by convention plugins (${nameList(pluginFiles, 90)})`
      : '';
    const renamedNote = renamed.length
      ? ` ${
        renamed.length === 1
          ? 'One project name differs from its folder'
          : `${renamed.length} project names differ from their folders`
      } (${renamed.length > 1 ? 'such as ' : ''}${renames[0]}).`
      : '';
    return [
      {
        title: 'Module dependencies declared in the build manifests',
        knowledgeType: 'module-dependency',
        dimension: 'architecture',
        language: products[0]?.language ?? 'text',
        category: 'architecture',
        // No "declare a dependency before importing": the build tool says so itself (three reviewers called it generic).
        summary: `${units} of the product (tests and samples aside) with ${pairs.length} dependencies between them${
          testOnly ? ` (and ${testOnly} for tests only)` : ''
        }${conventionNote}. At the base: ${nameList(base, 60, false) || 'none'}; on top: ${
          nameList(top, 60, false) || 'none'
        }.${renamedNote}`,
        code: '',
        details: [
          ...[...byFrom.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([from, tos]) =>
            `- ${from} → ${tos.sort().join(', ')}`
          ),
          ...(renames.length ? [`- Names that differ from their folders: ${[...renames].sort().join(', ')}`] : []),
        ].join('\n'),
        reasoning: {
          whyStandard: 'Read from the manifests, which the build enforces.',
          sources: onePerFile(
            [...conventional, ...pairs.filter((e) => e.via !== 'convention-plugin')].map((e) => e.evidence).filter((
              x,
            ): x is string => !!x),
          ).slice(0, 8),
          confidence: 0.9,
        },
        tags: ['modules', 'dependencies', ...new Set(products.map((t) => t.ecosystem))],
        trigger: 'module-dependencies',
      },
    ];
  }

  /** Where the project's applications start (not a library's examples, tests or build scripts). */
  private async entryPoints(ctx: AnalysisContext): Promise<CandidateDraft[]> {
    const apps = productTargets(ctx).filter((t) => t.kind === 'app');
    if (apps.length === 0) return [];
    const inApp = (p: string) =>
      apps.some((t) => [t.dir, ...(t.extraDirs ?? [])].some((d) => d === '' || p.startsWith(d + '/')));
    const found = this.entries.entries().flatMap(([label, t]) =>
      t.samples.filter((s) => inApp(s.path)).map((s) => ({ label, ...s }))
    );
    for (const t of apps) {
      const main = t.metadata.main;
      if (typeof main === 'string') {
        found.push({
          label: `${t.name} main`,
          path: path.posix.join(t.dir, main.replace(/^\.\//, '')),
          line: 1,
          text: '',
        });
      }
    }
    // An app extension without a `@main` starts at the class its Info.plist names (a share or Safari extension).
    for (const t of apps.filter(isAppExtension)) {
      const dirs = [t.dir, ...(t.extraDirs ?? [])].filter((d) => d !== '');
      const plist = t.metadata.infoPlist;
      if (typeof plist !== 'string' || found.some((f) => dirs.some((d) => f.path.startsWith(d + '/')))) continue;
      const lines = ((await ctx.read(plist)) ?? '').split('\n');
      const key = lines.findIndex((l) => /<key>NSExtension(PrincipalClass|MainStoryboard)<\/key>/.test(l));
      const value = key >= 0
        ? /<string>(?:\$\(PRODUCT_MODULE_NAME\)\.)?([^<]+)<\/string>/.exec(lines.slice(key, key + 2).join(' '))?.[1]
        : undefined;
      if (value) {
        found.push({
          label: `${
            /PrincipalClass/.test(lines[key]) ? 'NSExtensionPrincipalClass' : 'NSExtensionMainStoryboard'
          } ${value}`,
          path: plist,
          line: key + 1,
          text: '',
        });
      }
    }
    const exists = found.filter((f, i) => ctx.has(f.path) && found.findIndex((g) => g.path === f.path) === i).sort((
      a,
      b,
    ) => (a.path < b.path ? -1 : 1)).slice(0, 8);
    if (exists.length === 0) return [];
    const libraries = productTargets(ctx).filter((t) => t.kind === 'library').length;
    /** The application a file starts: the app whose folder holds it most closely. */
    const appOf = (p: string) => {
      const holders = apps.filter((t) =>
        [t.dir, ...(t.extraDirs ?? [])].some((d) => d === '' || p.startsWith(d + '/'))
      );
      const depth = (t: Target) =>
        Math.max(
          ...[t.dir, ...(t.extraDirs ?? [])].filter((d) => d === '' || p.startsWith(d + '/')).map((d) => d.length),
        );
      const t = holders.sort((a, b) => depth(b) - depth(a))[0];
      // An app at the root holds every file: it says nothing about which start is whose (an ASGI app beside a Celery app).
      return t && depth(t) > 0
        ? `${isAppExtension(t) ? 'the app extension' : 'the app'} ${shownTarget(t.name)}`
        : undefined;
    };
    // In a library project a side tool's main() (a curl-like CLI beside a client library) is not where the project starts;
    // an application at the root (a CLI whose crate is the root) is.
    if (libraries > apps.length && !apps.some((t) => t.dir === '')) return [];
    // A Rust binary starting in its crate's src/main.rs is Cargo's default layout, not project knowledge.
    if (
      exists.every((f) =>
        /(^|\/)src\/main\.rs$/.test(f.path)
        && ctx.has(path.posix.join(path.posix.dirname(path.posix.dirname(f.path)), 'Cargo.toml'))
      )
    ) return [];
    const starts = exists.map((f) =>
      `${f.path} (${f.label}${apps.length > 1 && appOf(f.path) ? `, ${appOf(f.path)}` : ''})`
    );
    // Said shorter when the full form does not fit ("Swift @main, the app Reader" → "@main, Reader").
    const short = exists.map((f) =>
      `${f.path} (${
        f.label.replace(/^\w+ @main$/, '@main').replace(
          /^NSExtension(PrincipalClass|MainStoryboard) /,
          (_m, k: string) => (k === 'PrincipalClass' ? 'principal class ' : 'storyboard '),
        )
      }${
        apps.length > 1 && appOf(f.path)
          ? `, ${appOf(f.path)!.replace(/^the app extension /, 'extension ').replace(/^the app /, '')}`
          : ''
      })`
    );
    const full = wholeItems('Execution starts in ', starts, '.');
    const summary = full === `Execution starts in ${starts.join('; ')}.`
      ? full
      : wholeItems('Execution starts in ', short, '.');
    return [
      {
        title: fit(`Entry point${exists.length === 1 ? '' : 's'}: ${nameList(exists.map((f) => f.path), 80)}`, 100),
        knowledgeType: 'architecture',
        dimension: 'architecture',
        language: languageOf(ctx.primary ?? 'other', ctx),
        category: 'architecture',
        // Where execution starts, and no more: "new top-level wiring goes there" is false where a main only builds the CLI.
        // Each start with the application it starts, when there are several (a macOS app, an iOS app and a widget).
        // As many as fit whole, the others counted rather than cut mid-sentence; the details list them all.
        summary,
        ...(summary === full ? {} : { details: starts.map((x) => `- ${x}`).join('\n') }),
        code: await ctx.excerpt(exists[0].path, exists[0].line, 12),
        reasoning: {
          whyStandard:
            "Found by each language's entry-point idiom in the production code of the project's application targets.",
          sources: exists.map((f) => `${f.path}:${f.line}`),
          confidence: 0.8,
        },
        tags: ['entry-point', 'composition-root'],
        trigger: 'entry-points',
      },
    ];
  }
}

/** The targets that are the product: libraries, apps and plugins outside test, sample and docs folders. */
export function productTargets(ctx: AnalysisContext): AnalysisContext['structure']['targets'] {
  // A root build that only aggregates its subprojects (a docs-only root project) is no part of the product.
  const production = (dir: string) => pathKind(dir === '' ? 'x' : `${dir}/x`) === 'production';
  // An Xcode target's folders are its own (its project may sit at the root): all of them samples is a sample app (an Examples/Basic target).
  const sampleOnly = (t: Target) => t.ecosystem === 'xcode' && !!t.extraDirs?.length && !t.extraDirs.some(production);
  return ctx.structure.targets.filter((t) =>
    PRODUCT_KINDS.has(t.kind) && !t.metadata.aggregator && production(t.dir) && !sampleOnly(t)
    && !/(^|\/)(\.test|tests?|e2e)(\/|$)/.test(t.dir)
  );
}

/** Folder that stands for a layer: `src/core` for `src/core/domains/graph/x.ts`, `lib` for `lib/x.py`. */
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
  private readonly crates = new Map<string, string>();

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
      if (t.ecosystem === 'cargo') this.crates.set(t.name.replace(/^cargo:/, ''), t.name);
    }
    this.targetDirs = ctx.structure.targets.flatMap((t) => ownedDirs(t).map((dir) => ({ dir, name: t.name }))).sort((
      a,
      b,
    ) => b.dir.length - a.dir.length);
    this.pyRoots = [
      '',
      'src',
      ...ctx.structure.targets.filter((t) => t.ecosystem === 'python').flatMap((
        t,
      ) => [t.dir, path.posix.join(t.dir, 'src')]),
    ];
  }

  targetOf(file: string): string | undefined {
    return this.targetDirs.find((t) => t.dir === '' || file.startsWith(t.dir + '/'))?.name;
  }

  resolve(from: RawImports, spec: string, imp?: ImportFact): { file?: string; target?: string } | undefined {
    const dir = path.posix.dirname(from.path);
    switch (from.family) {
      case 'rust':
        return resolveRust(from.path, imp ?? { spec }, this.files, this.crates);
      case 'jsts': {
        if (spec.startsWith('.')) {
          const base = path.posix.normalize(path.posix.join(dir, spec));
          const file = resolveJsFile(base, (f) => this.files.has(f));
          return file ? { file } : undefined;
        }
        const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
        return this.packages.has(pkg) ? { target: pkg } : undefined;
      }
      case 'python': {
        const dots = /^\.*/.exec(spec)![0].length;
        const rest = spec.slice(dots).split('.').filter(Boolean).join('/');
        const bases = dots
          ? [path.posix.normalize(path.posix.join(dir, ...Array(dots - 1).fill('..'), rest))]
          : this.pyRoots.map((r) => path.posix.join(r, rest));
        for (const b of bases) {
          for (const c of [`${b}.py`, `${b}/__init__.py`]) {
            if (this.files.has(c.replace(/^\.\//, ''))) return { file: c.replace(/^\.\//, '') };
          }
        }
        return undefined;
      }
      case 'go': {
        const mod =
          this.goModules.filter((m) => spec === m.module || spec.startsWith(m.module + '/')).sort((a, b) =>
            b.module.length - a.module.length
          )[0];
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

/** What one product is called in each build system: SwiftPM's unit is a target, Gradle's a project. */
const UNIT: Record<Ecosystem, string> = {
  swift: 'SwiftPM targets',
  xcode: 'Xcode targets',
  gradle: 'Gradle projects',
  maven: 'Maven modules',
  cargo: 'Cargo crates',
  go: 'Go modules',
  npm: 'npm packages',
  pnpm: 'pnpm packages',
  yarn: 'yarn packages',
  typescript: 'TypeScript projects',
  python: 'Python packages',
};

/**
 * `path:line` sources with one line of each kind of manifest first, then one of each file (the
 * reviewers saw eight lines of one manifest, then eight Package.swift files and no project.pbxproj).
 */
export function onePerFile(sources: readonly string[]): string[] {
  const file = (s: string) => s.replace(/:\d+$/, '');
  const kinds = new Set<string>();
  const files = new Set<string>();
  const [kind, each, rest]: string[][] = [[], [], []];
  for (const s of sources) {
    const name = file(s).split('/').pop()!;
    if (!kinds.has(name)) kind.push(s);
    else if (!files.has(file(s))) each.push(s);
    else rest.push(s);
    kinds.add(name);
    files.add(file(s));
  }
  return [...kind, ...each, ...rest];
}

/** An Xcode app extension (a widget, a share extension): an app target that is not an application. */
export const isAppExtension = (t: Target) =>
  t.kind === 'app' && /extension/i.test(String(t.metadata.productType ?? ''));

/** `head` and as many whole items as fit in a summary, joined by "; ", then how many more. */
function wholeItems(head: string, items: readonly string[], tail: string): string {
  let shown = items.length;
  const text = (n: number) =>
    `${head}${items.slice(0, n).join('; ')}${n < items.length ? `; and ${items.length - n} more` : ''}${tail}`;
  while (shown > 1 && text(shown).length > MAX_SUMMARY) shown--;
  return text(shown);
}
