import { dirOf, DiscoveryContext, isSamplePath, joinRel } from '../context';
import { parseToml, type TomlDocument } from '../toml';
import type { DependencyScope, Target, TargetDependency } from '../types';
import { compact, isRecord } from './npm';

interface Project {
  manifest: string;
  dir: string;
  doc: TomlDocument;
  name: string;
}

/** Python: each pyproject.toml that names a project (PEP 621 `[project]` or `[tool.poetry]`), example programs too (`examples/tutorial`). */
export async function discoverPython(ctx: DiscoveryContext): Promise<Target[]> {
  const projects: Project[] = [];
  for (const m of ctx.named('pyproject.toml', true)) {
    const dir = dirOf(m);
    const text = await ctx.read(m);
    if (text === undefined) continue;
    let doc: TomlDocument;
    try {
      doc = parseToml(text);
    } catch (e) {
      ctx.problem(m, (e as Error).message);
      continue;
    }
    const name = get(doc.data, 'project', 'name') ?? get(doc.data, 'tool', 'poetry', 'name');
    if (typeof name !== 'string') continue;
    projects.push({ manifest: m, dir, doc, name });
  }
  const byName = new Map(projects.map((p) => [normalize(p.name), p]));
  const byDir = new Map(projects.map((p) => [p.dir, p]));
  return projects.map((p) => toTarget(ctx, p, byName, byDir));
}

function toTarget(
  ctx: DiscoveryContext,
  p: Project,
  byName: Map<string, Project>,
  byDir: Map<string, Project>,
): Target {
  const d = p.doc.data;
  const deps: TargetDependency[] = [];
  const sources = get(d, 'tool', 'uv', 'sources');
  const add = (raw: string, scope: DependencyScope, linePath: string, localPath?: string) => {
    // PEP 508: `name[extras] (version) ; marker`. The marker is a condition, not part of the version.
    const [spec, ...marker] = raw.split(';');
    const condition = marker.join(';').trim();
    const m = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*\(?\s*([^)]*?)\s*\)?\s*$/.exec(spec);
    const name = m?.[1];
    if (!name || name.toLowerCase() === 'python') return;
    const version = m?.[3]?.trim();
    const src = isRecord(sources) ? sources[name] : undefined;
    const path = localPath ?? (isRecord(src) && typeof src.path === 'string' ? src.path : undefined);
    const local = (path ? byDir.get(joinRel(p.dir, path)) : undefined) ?? byName.get(normalize(name));
    const line = p.doc.lines.get(linePath);
    deps.push({
      name,
      ...(local && local !== p ? { target: local.name } : {}),
      scope,
      ...(version ? { version } : {}),
      ...(condition ? { condition } : {}),
      ...(line ? { evidence: `${p.manifest}:${line}` } : {}),
    });
  };
  list(get(d, 'project', 'dependencies')).forEach((s, i) => add(s, 'prod', `project.dependencies.${i}`));
  const optional = get(d, 'project', 'optional-dependencies');
  if (isRecord(optional)) {
    for (const [group, specs] of Object.entries(optional)) {
      list(specs).forEach((s, i) => add(s, 'optional', `project.optional-dependencies.${group}.${i}`));
    }
  }
  const groups = d['dependency-groups'];
  if (isRecord(groups)) {
    for (const [group, specs] of Object.entries(groups)) {
      list(specs).forEach((s, i) => add(s, group === 'test' ? 'test' : 'dev', `dependency-groups.${group}.${i}`));
    }
  }
  const poetry = get(d, 'tool', 'poetry');
  if (isRecord(poetry)) {
    const table = (t: unknown, scope: DependencyScope, prefix: string) => {
      if (!isRecord(t)) return;
      for (const [name, spec] of Object.entries(t)) {
        const version = typeof spec === 'string'
          ? spec
          : isRecord(spec) && typeof spec.version === 'string'
          ? spec.version
          : '';
        add(
          `${name} ${version}`.trim(),
          scope,
          `${prefix}.${name}`,
          isRecord(spec) && typeof spec.path === 'string' ? spec.path : undefined,
        );
      }
    };
    table(poetry.dependencies, 'prod', 'tool.poetry.dependencies');
    table(poetry['dev-dependencies'], 'dev', 'tool.poetry.dev-dependencies');
    if (isRecord(poetry.group)) {
      for (const [g, spec] of Object.entries(poetry.group)) {
        if (isRecord(spec)) {
          table(spec.dependencies, g === 'test' ? 'test' : 'dev', `tool.poetry.group.${g}.dependencies`);
        }
      }
    }
  }
  const scripts = get(d, 'project', 'scripts') ?? get(d, 'tool', 'poetry', 'scripts');
  const pkgDir = [joinRel(p.dir, 'src', importName(p.name)), joinRel(p.dir, importName(p.name))].find((x) =>
    ctx.files.some((f) => f.startsWith(x + '/'))
  );
  return {
    name: p.name,
    ecosystem: 'python',
    kind: kindOf(p, scripts, optional, ctx.has(joinRel(p.dir, 'manage.py')), get(d, 'project', 'classifiers')),
    manifest: p.manifest,
    dir: p.dir,
    language: 'python',
    dependencies: deps,
    metadata: compact({
      version: get(d, 'project', 'version') ?? get(d, 'tool', 'poetry', 'version'),
      description: get(d, 'project', 'description') ?? get(d, 'tool', 'poetry', 'description'),
      requiresPython: get(d, 'project', 'requires-python'),
      buildBackend: get(d, 'build-system', 'build-backend'),
      scripts: isRecord(scripts) ? Object.keys(scripts) : undefined,
      package: pkgDir,
      tools: isRecord(d.tool) ? Object.keys(d.tool).sort() : undefined,
      uvWorkspace: list(get(d, 'tool', 'uv', 'workspace', 'members')).length
        ? list(get(d, 'tool', 'uv', 'workspace', 'members'))
        : undefined,
    }),
  };
}

/**
 * A project with console scripts is an app, unless its scripts need an optional extra (`cli`) or its
 * classifiers say it is a library or typed: then the command line is an add-on and the package a
 * library. Test projects by folder, example programs by folder.
 */
function kindOf(
  p: Project,
  scripts: unknown,
  optional: unknown,
  django: boolean,
  classifiers: unknown,
): Target['kind'] {
  if (/(^|\/)tests?(\/|$)/.test(p.dir)) return 'test';
  // A Django project (manage.py beside the manifest) is a site you run; so is an example program.
  if (django || isSamplePath(p.dir)) return 'app';
  if (!isRecord(scripts)) return 'library';
  // A package that says it is a library, or ships types for importers, is one whatever command it adds (a web framework's own CLI).
  if (
    Array.isArray(classifiers)
    && classifiers.some((c) =>
      typeof c === 'string' && /^(Topic :: Software Development :: Libraries\b|Typing :: Typed)/.test(c)
    )
  ) return 'library';
  const extras = isRecord(optional) ? Object.keys(optional) : [];
  return extras.some((e) => /^(cli|console|cmd|command-line|scripts)$/i.test(e)) ? 'library' : 'app';
}

function get(o: unknown, ...path: string[]): unknown {
  let v = o;
  for (const k of path) {
    if (!isRecord(v)) return undefined;
    v = v[k];
  }
  return v;
}

function list(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** PEP 503 name normalisation. */
function normalize(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

function importName(name: string): string {
  return name.toLowerCase().replace(/[-.]+/g, '_');
}
