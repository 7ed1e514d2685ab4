import { dirOf, DiscoveryContext, isSamplePath, joinRel } from '../context';
import type { DependencyScope, Target, TargetDependency, TargetKind } from '../types';
import { child, childrenNamed, childText, parseXml, type XmlElement } from '../xml';
import { compact } from './npm';

interface Pom {
  manifest: string;
  dir: string;
  project: XmlElement;
  groupId?: string;
  artifactId: string;
  packaging: string;
  modules: string[];
}

/** Maven: the modules of each aggregator pom.xml (recursively), or a lone pom.xml. */
export async function discoverMaven(ctx: DiscoveryContext): Promise<Target[]> {
  const poms = new Map<string, Pom>();
  const load = async (manifest: string): Promise<Pom | undefined> => {
    if (poms.has(manifest)) return poms.get(manifest);
    const text = await ctx.read(manifest);
    if (text === undefined) return undefined;
    const project = child(parseXml(text), 'project');
    const artifactId = childText(project, 'artifactId');
    if (!project || !artifactId) {
      ctx.problem(manifest, 'no <project> with an <artifactId>');
      return undefined;
    }
    const pom: Pom = {
      manifest,
      dir: dirOf(manifest),
      project,
      groupId: childText(project, 'groupId') ?? childText(child(project, 'parent'), 'groupId'),
      artifactId,
      packaging: childText(project, 'packaging') ?? 'jar',
      modules: childrenNamed(child(project, 'modules'), 'module').map((m) => m.text.trim()),
    };
    poms.set(manifest, pom);
    for (const m of pom.modules) {
      const file = m.endsWith('.xml') ? joinRel(pom.dir, m) : joinRel(pom.dir, m, 'pom.xml');
      if (!(await load(file))) ctx.problem(manifest, `module "${m}" has no readable ${file}`);
    }
    return pom;
  };
  for (const p of ctx.named('pom.xml')) if (!isSamplePath(dirOf(p))) await load(p);
  const list = [...poms.values()];
  const modules = list.filter((p) => p.packaging !== 'pom' || list.length === 1);
  const byCoord = new Map(modules.map((p) => [`${p.groupId}:${p.artifactId}`, p]));
  const byArtifact = new Map(modules.map((p) => [p.artifactId, p]));
  return modules.map((p) => toTarget(ctx, p, byCoord, byArtifact));
}

function toTarget(ctx: DiscoveryContext, p: Pom, byCoord: Map<string, Pom>, byArtifact: Map<string, Pom>): Target {
  const deps: TargetDependency[] = childrenNamed(child(p.project, 'dependencies'), 'dependency').map((d) => {
    const group = childText(d, 'groupId')?.replace('${project.groupId}', p.groupId ?? '');
    const artifact = childText(d, 'artifactId') ?? '';
    const local = byCoord.get(`${group}:${artifact}`) ?? (group === p.groupId ? byArtifact.get(artifact) : undefined);
    const version = childText(d, 'version');
    return {
      name: `${group}:${artifact}`,
      ...(local && local !== p ? { target: local.artifactId } : {}),
      scope: scopeOf(childText(d, 'scope')),
      ...(version ? { version } : {}),
      evidence: `${p.manifest}:${d.line}`,
    };
  });
  const plugins = childrenNamed(child(child(p.project, 'build'), 'plugins'), 'plugin').map((pl) =>
    childText(pl, 'artifactId') ?? ''
  );
  const kind: TargetKind = p.packaging === 'maven-plugin'
    ? 'plugin'
    : /(^|[-_])(tests?|it)([-_]|$)|tests$/.test(p.artifactId) || isTestModule(p.project)
    ? 'test'
    : ['war', 'ear'].includes(p.packaging) || plugins.some((x) => /spring-boot-maven-plugin|exec-maven-plugin/.test(x))
    ? 'app'
    : 'library';
  const kotlin = plugins.includes('kotlin-maven-plugin')
    || ctx.files.some((f) => f.startsWith(joinRel(p.dir, 'src/main/kotlin') + '/'));
  return {
    name: p.artifactId,
    ecosystem: 'maven',
    kind,
    manifest: p.manifest,
    dir: p.dir,
    language: kotlin ? 'kotlin' : 'java',
    dependencies: deps,
    metadata: compact({
      groupId: p.groupId,
      version: childText(p.project, 'version') ?? childText(child(p.project, 'parent'), 'version'),
      packaging: p.packaging,
      name: childText(p.project, 'name'),
      parent: childText(child(p.project, 'parent'), 'artifactId'),
      modules: p.modules.length ? p.modules : undefined,
      plugins: plugins.length ? plugins : undefined,
    }),
  };
}

function scopeOf(scope: string | undefined): DependencyScope {
  if (scope === 'test') return 'test';
  if (scope === 'provided' || scope === 'system') return 'build';
  if (scope === 'runtime') return 'prod';
  return 'prod';
}

/** A module that says it is one (a property such as `<project.isTestModule>true</project.isTestModule>`, which its parent reads to skip javadoc and deploy). */
function isTestModule(project: XmlElement | undefined): boolean {
  return (child(project, 'properties')?.children ?? []).some((c) =>
    /test-?module$/i.test(c.name) && c.text.trim() === 'true'
  );
}
