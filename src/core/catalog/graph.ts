import { existsSync } from 'node:fs';
import path from 'node:path';
import { bootstrapKnowledge, type BootstrapResult, CORE_DIMENSIONS, LANGUAGE_DIMENSIONS } from '../domains/bootstrap';
import {
  type EdgeIndex,
  knowledgeGraph,
  MAX_IMPACT_DEPTH,
  MAX_PATH_DEPTH,
  normalizeRelation,
  parseNodeKey,
  requireNode,
} from '../domains/graph';
import { recipeEdgeSource } from '../domains/graph/recipe-edges';
import type { GraphStats, ImpactEntry, Neighbour, PathStep } from '../domains/graph/types';
import { ensureIndexFresh } from '../domains/knowledge/index-freshness';
import { findRecipeRow } from '../domains/knowledge/recipes';
import {
  type Ecosystem,
  projectStructure,
  requireTarget,
  syncStructureGraph,
  targetFiles,
  type TargetKind,
} from '../domains/structure';
import type { Workspace } from '../ground/workspace';
import { Domain, FilePath, Input, List, Name, Opt, Out, StringEnum, Type } from './schema';
import { type AnyTool, defineTool, type HealthCounter } from './types';

const ECOSYSTEMS = [
  'npm',
  'pnpm',
  'yarn',
  'typescript',
  'swift',
  'xcode',
  'cargo',
  'go',
  'python',
  'gradle',
  'maven',
] as const satisfies readonly Ecosystem[];
const KINDS = ['library', 'app', 'test', 'plugin', 'module'] as const satisfies readonly TargetKind[];
export const NODE_HELP = 'A node: "target:<name>", "recipe:<id>" or "file:<path>"; a bare name is tried as each.';
const node = (description = NODE_HELP) => FilePath(description, { minLength: 1 });
const relation = (description?: string) => Name(description, { maxLength: 64 });
const nodeOut = { node: Type.String(), kind: Type.String(), name: Type.String() };

/** The graph as the tools see it: manifests and recipe files caught up first (both cheap when unchanged). */
export async function currentGraph(ws: Workspace): Promise<EdgeIndex> {
  await syncStructureGraph(ws);
  await ensureIndexFresh(ws);
  return knowledgeGraph(ws, recipeEdgeSource(ws));
}

/**
 * The node a caller named. A target from the manifests or a file of the workspace that has no edge
 * yet is still a node (with no neighbours), not an error; anything else is NOT_FOUND with the closest names.
 */
export async function resolveNode(ws: Workspace, graph: EdgeIndex, name: string, field = 'node'): Promise<string> {
  const r = graph.resolve(name);
  if (r.ok || 'ambiguous' in r) return requireNode(graph, name, field);
  const p = parseNodeKey(name.trim());
  if (p.kind === 'recipe' && recipeExists(ws, p.id)) return `recipe:${p.id}`;
  const structure = await projectStructure(ws);
  if (p.kind !== 'file' && p.kind !== 'recipe') {
    const t = structure.targets.find((x) => x.name === p.id)
      ?? structure.targets.find((x) => x.name.toLowerCase() === p.id.toLowerCase());
    if (t) return `target:${t.name}`;
  }
  if (p.kind !== 'target' && p.kind !== 'recipe') {
    const rel = path.posix.normalize(p.id.replace(/\\/g, '/')).replace(/^\.\//, '');
    if (rel && rel !== '.' && !rel.startsWith('../') && !path.isAbsolute(rel) && existsSync(path.join(ws.root, rel))) {
      return `file:${rel}`;
    }
  }
  return requireNode(graph, name, field);
}

function recipeExists(ws: Workspace, id: string): boolean {
  try {
    return findRecipeRow(ws, id).id === id;
  } catch {
    return false; // NOT_FOUND follows, with the closest nodes
  }
}

function describeNode(key: string): { node: string; kind: string; name: string } {
  const p = parseNodeKey(key);
  return { node: key, kind: p.kind ?? 'other', name: p.id };
}

const graphQuery = defineTool({
  name: 'graph_query',
  title: 'Graph neighbours',
  domain: 'graph',
  summary: 'The recipes, targets and files directly linked to a node, with the relation and where it is stated.',
  description:
    'Returns the neighbours of one node of the knowledge graph: outgoing edges (what it depends on, uses, references) and incoming ones (what depends on it). '
    + 'Nodes are recipes ("recipe:<id>"), targets from the build manifests ("target:<name>") and files ("file:<path>"); relations include depends_on (manifests), dev_depends_on (dev- and test-only manifest dependencies, left out of rankings and cycles), imports and contains '
    + "(files, from bootstrap_knowledge), applies_to and references (recipes) and the recipes' own relations. Relation names are normalised: "
    + '`dependsOn`, `depends-on` and `depends_on` are the same relation. Each edge carries its evidence as `path:line` when known. Paged: pass `cursor` for more.',
  inputSchema: Input({
    node: node(),
    direction: Opt(
      StringEnum(['out', 'in', 'both'], {
        default: 'both',
        description: 'out: what the node points to; in: what points to it.',
      }),
    ),
    relation: Opt(relation('Only this relation (any spelling: dependsOn, depends-on…).')),
  }),
  outputSchema: Out({
    ...nodeOut,
    total: Type.Integer(),
    neighbours: Domain<Neighbour[]>('Each neighbour with direction, relation and evidence.', 'array'),
  }),
  aliases: { id: 'node', name: 'node', nodeId: 'node', target: 'node' },
  access: 'read',
  maxOutputChars: 12_000,
  paginate: 'neighbours',
  async handler(ws, input) {
    const graph = await currentGraph(ws);
    const key = await resolveNode(ws, graph, input.node);
    const neighbours = graph.neighbours(
      key,
      input.direction ?? 'both',
      input.relation ? normalizeRelation(input.relation) : undefined,
    );
    return { ...describeNode(key), total: neighbours.length, neighbours };
  },
});

const graphImpact = defineTool({
  name: 'graph_impact',
  title: 'Impact of a change',
  domain: 'graph',
  summary: `What depends on a node, directly and transitively (depth ≤ ${MAX_IMPACT_DEPTH}), with the chain for each.`,
  description:
    `Answers "what may break if I change X": every node that depends on X through incoming dependency edges, breadth-first up to depth ${MAX_IMPACT_DEPTH}. `
    + 'Direct dependents come first (depth 1), then transitive ones, each with `via`, the chain from the dependent down to X. A file reaches the files that import it and the target that contains it '
    + '(after bootstrap_knowledge), and through that target its dependents. Recipes that apply to or reference X are included and counted separately: '
    + 'they may need updating. Relations that only say two things are alike (related_to, conflicts_with) are not followed. Paged: pass `cursor` for more.',
  inputSchema: Input({
    node: node(),
    depth: Opt(
      Type.Integer({
        minimum: 1,
        maximum: MAX_IMPACT_DEPTH,
        default: MAX_IMPACT_DEPTH,
        description: 'How many hops to follow.',
      }),
    ),
    relations: Opt(
      List(relation(), 20, { description: 'Follow only these relations (default: every dependency relation).' }),
    ),
  }),
  outputSchema: Out({
    ...nodeOut,
    depth: Type.Integer(),
    counts: Out({ direct: Type.Integer(), transitive: Type.Integer(), recipes: Type.Integer() }),
    dependents: Domain<ImpactEntry[]>('Each dependent with its depth and the chain (`via`) down to the node.', 'array'),
  }),
  aliases: { id: 'node', name: 'node', target: 'node', maxDepth: 'depth' },
  access: 'read',
  maxOutputChars: 14_000,
  paginate: 'dependents',
  async handler(ws, input) {
    const graph = await currentGraph(ws);
    const key = await resolveNode(ws, graph, input.node);
    const dependents = graph.impact(key, input.depth ?? MAX_IMPACT_DEPTH, input.relations?.map(normalizeRelation));
    return {
      ...describeNode(key),
      depth: input.depth ?? MAX_IMPACT_DEPTH,
      counts: {
        direct: dependents.filter((d) => d.depth === 1).length,
        transitive: dependents.filter((d) => d.depth > 1).length,
        recipes: dependents.filter((d) => d.node.startsWith('recipe:')).length,
      },
      dependents,
    };
  },
});

const graphPath = defineTool({
  name: 'graph_path',
  title: 'Path between two nodes',
  domain: 'graph',
  summary: `The shortest chain of edges from one node to another (at most ${MAX_PATH_DEPTH}), e.g. why A depends on B.`,
  description:
    `Finds the shortest path from \`from\` to \`to\` following edges in their direction (a dependency chain), at most ${MAX_PATH_DEPTH} edges. `
    + 'Each step names the relation and its evidence (`path:line`). With directed: false edges are also walked backwards (any connection). '
    + `No path within ${MAX_PATH_DEPTH} edges means no dependency the graph knows of, not proof that there is none; the answer says whether an undirected connection exists.`,
  inputSchema: Input({
    from: node(),
    to: node(),
    maxDepth: Opt(
      Type.Integer({
        minimum: 1,
        maximum: MAX_PATH_DEPTH,
        default: MAX_PATH_DEPTH,
        description: 'Longest path to look for, in edges.',
      }),
    ),
    directed: Opt(Type.Boolean({ default: true, description: 'Follow edges only in their direction.' })),
  }),
  outputSchema: Out({
    found: Type.Boolean(),
    from: Type.String(),
    to: Type.String(),
    length: Opt(Type.Integer()),
    path: Opt(Type.Array(Type.String())),
    steps: Opt(Domain<PathStep[]>('Each edge of the path with its relation and evidence.', 'array')),
    maxDepth: Opt(Type.Integer()),
    explanation: Opt(Type.String()),
  }),
  aliases: { source: 'from', target: 'to', depth: 'maxDepth' },
  access: 'read',
  maxOutputChars: 8000,
  async handler(ws, input) {
    const graph = await currentGraph(ws);
    const from = await resolveNode(ws, graph, input.from, 'from');
    const to = await resolveNode(ws, graph, input.to, 'to');
    const maxDepth = input.maxDepth ?? MAX_PATH_DEPTH;
    const directed = input.directed ?? true;
    const steps = graph.path(from, to, maxDepth, directed);
    if (steps) return { found: true, from, to, length: steps.length, path: [from, ...steps.map((s) => s.to)], steps };
    const loose = directed ? graph.path(from, to, maxDepth, false) : undefined;
    return {
      found: false,
      from,
      to,
      maxDepth,
      explanation: `No ${directed ? 'directed ' : ''}path of at most ${maxDepth} edges from ${from} to ${to}.`
        + (loose
          ? ` They are connected when edges may be walked backwards (${loose.length} edges): call again with directed: false to see it.`
          : ' The graph knows no connection between them within that depth.'),
    };
  },
});

const graphStats = defineTool({
  name: 'graph_stats',
  title: 'Graph overview',
  domain: 'graph',
  summary: 'Node and edge counts by kind and relation, the most depended-on nodes, components and cycles.',
  description:
    'An overview of the knowledge graph: how many nodes (recipes, targets, files) and edges, edges per relation, the nodes with the most dependents and the most dependencies, '
    + 'the number of connected components, and up to five dependency cycles. Use it to find the core modules before an analysis or a cold start.',
  inputSchema: Input({
    top: Opt(
      Type.Integer({ minimum: 1, maximum: 50, default: 10, description: 'How many nodes to list in the rankings.' }),
    ),
  }),
  outputSchema: Domain<GraphStats>('Counts by kind and relation, rankings, components and cycles.'),
  access: 'read',
  maxOutputChars: 10_000,
  async handler(ws, input) {
    const graph = await currentGraph(ws);
    return graph.stats(input.top ?? 10);
  },
});

const getTargets = defineTool({
  name: 'get_targets',
  title: 'Project targets',
  domain: 'structure',
  summary: 'The packages, crates, modules and build targets from the manifests, with their internal dependencies.',
  description:
    'Reads the build manifests of every ecosystem found (npm/pnpm/yarn workspaces, TypeScript project references, Package.swift, Cargo workspaces, go.work/go.mod, pyproject.toml, '
    + 'settings.gradle, pom.xml modules) and lists the targets: name, ecosystem, kind (library, app, test, plugin, module), language, manifest and folder, and the other targets each depends on. '
    + 'A folder is not a target: only what a manifest declares is. Manifests that could not be read are listed under `problems`. Paged: pass `cursor` for more.',
  inputSchema: Input({
    ecosystem: Opt(StringEnum(ECOSYSTEMS, { description: 'Only targets of this ecosystem.' })),
    kind: Opt(StringEnum(KINDS, { description: 'Only targets of this kind.' })),
    filter: Opt(Name('Only targets whose name or folder contains this text.')),
    refresh: Opt(
      Type.Boolean({
        default: false,
        description: 'Read the manifests again now instead of the answer cached for a few seconds.',
      }),
    ),
  }),
  outputSchema: Out({
    total: Type.Integer(),
    ecosystems: Domain<Record<string, number>>('Targets per ecosystem found.'),
    problems: Opt(Domain<unknown[]>('Manifests that could not be read.', 'array')),
    note: Opt(Type.String()),
    targets: Type.Array(Out({
      name: Type.String(),
      ecosystem: Type.String(),
      kind: Type.String(),
      language: Opt(Type.String()),
      manifest: Type.String(),
      dir: Type.String(),
      dependsOn: Type.Array(Type.String()),
      externalDependencies: Type.Integer(),
    })),
  }),
  access: 'read',
  maxOutputChars: 16_000,
  paginate: 'targets',
  async handler(ws, input) {
    const structure = input.refresh ? await syncStructureGraph(ws, { refresh: true }) : await projectStructure(ws);
    const needle = input.filter?.toLowerCase();
    const targets = structure.targets.filter((t) =>
      (!input.ecosystem || t.ecosystem === input.ecosystem) && (!input.kind || t.kind === input.kind)
      && (!needle || t.name.toLowerCase().includes(needle) || t.dir.toLowerCase().includes(needle))
    );
    return {
      total: targets.length,
      ecosystems: structure.ecosystems,
      ...(structure.problems.length ? { problems: structure.problems } : {}),
      ...(structure.truncated
        ? { note: 'The workspace listing hit its bound; manifests in the deepest folders may be missing.' }
        : {}),
      targets: targets.map((t) => ({
        name: t.name,
        ecosystem: t.ecosystem,
        kind: t.kind,
        language: t.language,
        manifest: t.manifest,
        dir: t.dir || '.',
        dependsOn: [...new Set(t.dependencies.filter((d) => d.target).map((d) => d.target!))],
        externalDependencies: t.dependencies.filter((d) => !d.target).length,
      })),
    };
  },
});

const getTargetFiles = defineTool({
  name: 'get_target_files',
  title: 'Files of a target',
  domain: 'structure',
  summary: 'The files of one target (its folder minus nested targets, .gitignore respected), paged.',
  description:
    'Lists the files that belong to a target: everything under its folder that .gitignore leaves, minus the folders of other targets nested inside it. '
    + 'Filter by extension-based language or by a sub-folder. The answer is paged: pass `cursor` to continue; do not assume the first page is everything.',
  inputSchema: Input({
    target: Name('A target name from get_targets.', { minLength: 1, maxLength: 300 }),
    language: Opt(Name('Only files with this extension (e.g. "ts", "swift", ".py").', { maxLength: 32 })),
    under: Opt(FilePath('Only files under this workspace-relative folder.')),
  }),
  outputSchema: Out({
    target: Type.String(),
    dir: Type.String(),
    total: Type.Integer(),
    files: Type.Array(Type.String()),
  }),
  aliases: { name: 'target', targetName: 'target' },
  access: 'read',
  maxOutputChars: 12_000,
  paginate: 'files',
  async handler(ws, input) {
    const target = requireTarget(await projectStructure(ws), input.target);
    const ext = input.language ? '.' + input.language.replace(/^\./, '').toLowerCase() : undefined;
    const under = input.under?.replace(/^\.\//, '').replace(/\/+$/, '');
    const files = (await targetFiles(ws, target)).filter((f) =>
      (!ext || f.toLowerCase().endsWith(ext)) && (!under || f.startsWith(under + '/'))
    );
    return { target: target.name, dir: target.dir || '.', total: files.length, files };
  },
});

const getTargetMetadata = defineTool({
  name: 'get_target_metadata',
  title: 'Target details',
  domain: 'structure',
  summary: 'One target in full: manifest fields, every dependency with its manifest line, dependents, linked recipes.',
  description:
    'Everything known about one target: ecosystem, kind, language, manifest and folder, what the manifest says (version, entry points, scripts, platforms, plugins…), '
    + 'each declared dependency (internal ones name the target) with the `path:line` that declares it, the targets that depend on it, its file count, and the recipes linked to it in the graph.',
  inputSchema: Input({ target: Name('A target name from get_targets.', { minLength: 1, maxLength: 300 }) }),
  outputSchema: Out({
    name: Type.String(),
    ecosystem: Type.String(),
    kind: Type.String(),
    language: Opt(Type.String()),
    manifest: Type.String(),
    dir: Type.String(),
    extraDirs: Opt(Type.Array(Type.String())),
    metadata: Domain<Record<string, unknown>>('What the manifest says: version, entry points, scripts, platforms…'),
    files: Type.Integer(),
    dependents: Domain<unknown[]>('Targets that depend on it, with scope and evidence.', 'array'),
    recipes: Type.Array(Out({ recipe: Type.String(), relation: Type.String() })),
    dependencies: Domain<unknown[]>('Each declared dependency with the `path:line` that declares it.', 'array'),
  }),
  aliases: { name: 'target', targetName: 'target' },
  access: 'read',
  maxOutputChars: 14_000,
  async handler(ws, input) {
    const structure = await syncStructureGraph(ws);
    const t = requireTarget(structure, input.target);
    const dependents = structure.targets.flatMap((o) =>
      o.dependencies.filter((d) => d.target === t.name).map((d) => ({
        name: o.name,
        scope: d.scope,
        evidence: d.evidence,
      }))
    );
    await ensureIndexFresh(ws);
    const graph = await knowledgeGraph(ws, recipeEdgeSource(ws));
    const key = `target:${t.name}`;
    const recipes = graph.has(key)
      ? graph.neighbours(key, 'in').filter((n) => n.node.startsWith('recipe:')).map((n) => ({
        recipe: n.node.slice('recipe:'.length),
        relation: n.relation,
      }))
      : [];
    return {
      name: t.name,
      ecosystem: t.ecosystem,
      kind: t.kind,
      language: t.language,
      manifest: t.manifest,
      dir: t.dir || '.',
      ...(t.extraDirs?.length ? { extraDirs: t.extraDirs } : {}),
      metadata: t.metadata,
      files: (await targetFiles(ws, t)).length,
      dependents,
      recipes,
      dependencies: t.dependencies,
    };
  },
});

const bootstrap = defineTool({
  name: 'bootstrap_knowledge',
  title: 'Bootstrap knowledge (cold start)',
  domain: 'knowledge',
  summary: 'Scan the project with heuristics and propose pending candidates over the nine dimensions; idempotent.',
  description:
    'Cold start without AI. Lists the workspace (respecting .gitignore; node_modules, build output and vendored folders are skipped), reads the targets, scans a bounded, representative set of source files '
    + 'and analyses nine dimensions: code standard, code pattern, architecture, best practice, event and data flow, project profile, agent guidelines, '
    + 'and the two dimensions of each language found (jsts-async, jsts-type-safety, swift-concurrency, swift-safety, objc-memory, objc-api-safety, …). Every finding becomes a pending candidate with '
    + 'reasoning, a calibrated confidence and `path:line` sources; a person reviews them. Running it again creates no duplicates. The answer is a compact summary: counts, candidate ids per dimension, '
    + 'and for each dimension what to look for by reading (from the autosnippet-coldstart skill and the language reference skills). Next: enrich_candidates with the new ids.',
  inputSchema: Input({
    maxFiles: Opt(
      Type.Integer({ minimum: 1, maximum: 20_000, description: 'Read at most this many source files (default 2000).' }),
    ),
    maxFileBytes: Opt(
      Type.Integer({
        minimum: 1024,
        maximum: 4 * 1024 * 1024,
        description: 'Skip files larger than this (default 262144).',
      }),
    ),
    dimensions: Opt(
      List(StringEnum([...CORE_DIMENSIONS, ...Object.values(LANGUAGE_DIMENSIONS).flat()]), 50, {
        description: 'Only propose candidates for these dimensions.',
      }),
    ),
  }),
  outputSchema: Domain<BootstrapResult>('What was scanned, the candidates created per dimension, and what to do next.'),
  aliases: { max_files: 'maxFiles', limit: 'maxFiles' },
  access: 'propose',
  maxOutputChars: 12_000,
  confirmation: (input) => ({
    title: 'Bootstrap knowledge?',
    message: `Scan up to ${
      input.maxFiles ?? 2000
    } source files and add what it finds as pending candidates for a person to review.`,
  }),
  handler(ws, input, ctx) {
    return bootstrapKnowledge(
      ws,
      { maxFiles: input.maxFiles, maxFileBytes: input.maxFileBytes, dimensions: input.dimensions },
      { actor: ctx.actor, signal: ctx.signal, progress: ctx.progress },
    );
  },
});

export { bootstrap as bootstrapKnowledgeTool };

export const graphTools: AnyTool[] = [
  graphQuery,
  graphImpact,
  graphPath,
  graphStats,
  getTargets,
  getTargetFiles,
  getTargetMetadata,
  bootstrap,
];

/** For `health`: how many edges the knowledge graph stores (cheap: one count). */
export const graphHealthCounter: HealthCounter = (ws) => ({
  graphEdges: ws.store.memo(
    'graph.edges',
    () => Number(ws.store.get<{ n: number }>('SELECT count(*) AS n FROM graph_edges')?.n ?? 0),
  ),
});
