import { DiscoveryContext, dirOf, isSamplePath, joinRel, lineAt } from '../context';
import type { DependencyScope, Target, TargetDependency, TargetKind } from '../types';
import { compact } from './npm';

interface Subproject {
  path: string;
  dir: string;
  line: number;
}

/** Gradle: the projects `settings.gradle(.kts)` includes, and their `project(":x")` dependencies. */
export async function discoverGradle(ctx: DiscoveryContext): Promise<Target[]> {
  const targets: Target[] = [];
  const settingsFiles = [...ctx.named('settings.gradle.kts'), ...ctx.named('settings.gradle')].filter((s) => !isSamplePath(dirOf(s)));
  for (const settings of settingsFiles) {
    const text = await ctx.read(settings);
    if (text === undefined) continue;
    const base = dirOf(settings);
    const rootName = /rootProject\.name\s*=\s*["']([^"']+)["']/.exec(text)?.[1];
    const subprojects = includes(text, base);
    const projects: Subproject[] = subprojects.length ? subprojects : [{ path: ':', dir: base, line: 1 }];
    const byPath = new Map(projects.map((p) => [p.path, p]));
    const byAccessor = new Map(projects.map((p) => [accessor(p.path), p]));
    for (const p of projects) {
      const buildFile = [joinRel(p.dir, 'build.gradle.kts'), joinRel(p.dir, 'build.gradle')].find((f) => ctx.has(f));
      const build = buildFile ? ((await ctx.read(buildFile)) ?? '') : '';
      const manifest = buildFile ?? settings;
      const deps: TargetDependency[] = [];
      for (const m of build.matchAll(/\b(\w+)\s*\(?\s*project\s*\(\s*(?:path\s*[:=]\s*)?["'](:[^"']*)["']/g)) {
        const dep = byPath.get(m[2]);
        deps.push({ name: m[2], ...(dep ? { target: nameOf(dep, rootName) } : {}), scope: scopeOf(m[1]), evidence: `${manifest}:${lineAt(build, m.index)}` });
      }
      for (const m of build.matchAll(/\b(\w+)\s*\(?\s*projects\.([\w.]+)/g)) {
        const dep = byAccessor.get(m[2]);
        deps.push({ name: dep?.path ?? m[2], ...(dep ? { target: nameOf(dep, rootName) } : {}), scope: scopeOf(m[1]), evidence: `${manifest}:${lineAt(build, m.index)}` });
      }
      for (const m of build.matchAll(/\b(implementation|api|compileOnly|runtimeOnly|testImplementation|androidTestImplementation|kapt|ksp|annotationProcessor)\s*\(?\s*["']([\w.-]+:[\w.-]+)(?::([^"']+))?["']/g)) {
        deps.push({ name: m[2], scope: scopeOf(m[1]), ...(m[3] ? { version: m[3] } : {}), evidence: `${manifest}:${lineAt(build, m.index)}` });
      }
      const plugins = [...build.matchAll(/\bid\s*\(?\s*["']([\w.-]+)["']|\bkotlin\s*\(\s*["']([\w.-]+)["']|\balias\s*\(\s*libs\.plugins\.([\w.]+)\s*\)|^\s*(application|`java-library`|java-library|`java-gradle-plugin`)\s*$/gm)].map((m) => m[1] ?? (m[2] ? `kotlin-${m[2]}` : m[3] ?? m[4]?.replace(/`/g, '')));
      targets.push({
        name: nameOf(p, rootName),
        ecosystem: 'gradle',
        kind: kindOf(plugins, p.dir),
        manifest,
        dir: p.dir,
        language: buildFile?.endsWith('.kts') || plugins.some((x) => /kotlin/.test(x)) || ctx.files.some((f) => f.startsWith(joinRel(p.dir, 'src') + '/') && f.endsWith('.kt')) ? 'kotlin' : 'java',
        dependencies: deps,
        metadata: compact({
          gradlePath: p.path,
          settings: `${settings}:${p.line}`,
          rootProject: rootName,
          plugins: plugins.length ? [...new Set(plugins)] : undefined,
          namespace: /namespace\s*=?\s*["']([^"']+)["']/.exec(build)?.[1],
          group: /^\s*group\s*=\s*["']([^"']+)["']/m.exec(build)?.[1],
        }),
      });
    }
  }
  return targets;
}

/** `include(":app", ":core:data")`, `include ':a', ':b'` (over several lines), and custom `projectDir`s. */
export function includes(text: string, base: string): Subproject[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, ' ')).replace(/\/\/[^\n]*/g, (m) => ' '.repeat(m.length));
  const out: Subproject[] = [];
  for (const m of code.matchAll(/\binclude\b(?!Build)\s*(\(([^)]*)\)|((?:[^\n]*,[ \t]*\n)*[^\n]*))/g)) {
    const args = m[2] ?? m[3] ?? '';
    const argsAt = m.index + m[0].indexOf(args);
    for (const s of args.matchAll(/["'](:?[\w.:-]+)["']/g)) {
      const p = s[1].startsWith(':') ? s[1] : ':' + s[1];
      if (out.some((o) => o.path === p)) continue;
      out.push({ path: p, dir: joinRel(base, p.slice(1).replace(/:/g, '/')), line: lineAt(text, argsAt + (s.index ?? 0)) });
    }
  }
  for (const m of code.matchAll(/project\s*\(\s*["'](:[\w.:-]+)["']\s*\)\s*\.projectDir\s*=\s*(?:file|new\s+File)\s*\(([^)]*)\)/g)) {
    const p = out.find((o) => o.path === m[1]);
    const dir = [...m[2].matchAll(/["']([^"']+)["']/g)].pop()?.[1];
    if (p && dir) p.dir = joinRel(base, dir);
  }
  return out;
}

function nameOf(p: Subproject, rootName: string | undefined): string {
  return p.path === ':' ? rootName ?? (p.dir.split('/').pop() || 'root') : p.path;
}

/** `projects.core.dataModel` names `:core:data-model` (type-safe project accessors). */
function accessor(path: string): string {
  return path
    .split(':')
    .filter(Boolean)
    .map((seg) => seg.replace(/[-_.](\w)/g, (_, c: string) => c.toUpperCase()))
    .join('.');
}

function scopeOf(configuration: string): DependencyScope {
  if (/^(test|androidTest)/i.test(configuration)) return 'test';
  if (/^(compileOnly|annotationProcessor|kapt|ksp)/.test(configuration)) return 'build';
  return 'prod';
}

function kindOf(plugins: string[], dir: string): TargetKind {
  if (plugins.some((p) => /application$|^application$/.test(p))) return 'app';
  if (plugins.some((p) => /gradle-plugin/.test(p))) return 'plugin';
  if (/(^|\/)(app|apps)(\/|$)/.test(dir) && plugins.length === 0) return 'app';
  return 'library';
}
