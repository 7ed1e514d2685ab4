import { dirOf, DiscoveryContext, isSamplePath, joinRel, lineAt } from '../context';
import type { Target, TargetDependency, TargetKind } from '../types';
import {
  type CatalogEntry,
  conventionPlugins,
  interpolate,
  maskGradleComments,
  publishedLists,
  readVersionCatalog,
  scriptDependencies,
} from './gradle-build';
import { compact } from './npm';

interface Subproject {
  /** The include path as written (`:mockwebserver`). */
  included: string;
  /** The path after `project(":x").name = "y"` renames (`:mockwebserver3`): the project's name. */
  path: string;
  dir: string;
  line: number;
  /** The root project of a multi-project build, listed because its own script depends on projects. */
  aggregator?: boolean;
}

/**
 * Gradle: the projects each `settings.gradle(.kts)` includes (renames and custom folders applied),
 * their dependencies on one another (`project(":x")`, type-safe `projects.x` accessors, quoted
 * custom configurations, Kotlin multiplatform source sets) and on libraries (version catalogs).
 */
export async function discoverGradle(ctx: DiscoveryContext): Promise<Target[]> {
  const targets: Target[] = [];
  const settingsFiles = [...ctx.named('settings.gradle.kts'), ...ctx.named('settings.gradle')].filter((s) =>
    !isSamplePath(dirOf(s))
  );
  for (const settings of settingsFiles) {
    const text = await ctx.read(settings);
    if (text === undefined) continue;
    const base = dirOf(settings);
    const rootName = /rootProject\.name\s*=\s*["']([^"']+)["']/.exec(text)?.[1];
    const subprojects = includes(text, base);
    const projects: Subproject[] = subprojects.length
      ? subprojects
      : [{ included: ':', path: ':', dir: base, line: 1 }];
    // The root project of a multi-project build is one more when its own script depends on projects (a root
    // that aggregates every published module's docs with `dokka(project(":$module"))`).
    const rootBuild = [joinRel(base, 'build.gradle.kts'), joinRel(base, 'build.gradle')].find((f) => ctx.has(f));
    if (
      subprojects.length && rootBuild
      && scriptDependencies((await ctx.read(rootBuild)) ?? '').some((d) =>
        d.ref.kind === 'path' || d.ref.kind === 'accessor'
      )
    ) {
      projects.unshift({ included: ':', path: ':', dir: base, line: 1, aggregator: true });
    }
    // buildSrc is on the classpath of every build script of the build: each project depends on it to build.
    const buildSrc = ['buildSrc/build.gradle.kts', 'buildSrc/build.gradle'].map((f) => joinRel(base, f)).find((f) =>
      ctx.has(f)
    );
    // Renamed paths first: after the renames `:mockwebserver` may name another project than the one included so.
    const byPath = new Map<string, Subproject>();
    for (const p of projects) byPath.set(p.path, p);
    for (const p of projects) if (!byPath.has(p.included)) byPath.set(p.included, p);
    const byAccessor = new Map(projects.map((p) => [accessor(p.path), p]));
    const catalogFile = joinRel(base, 'gradle/libs.versions.toml');
    const catalogText = ctx.has(catalogFile) ? ((await ctx.read(catalogFile)) ?? '') : '';
    const catalog = catalogText ? readVersionCatalog(catalogText) : new Map<string, CatalogEntry>();
    // Convention plugins of the included builds under this settings file (build-logic).
    const buildFiles = ctx.files.filter((f) => base === '' || f.startsWith(base + '/'));
    const conventions = await conventionPlugins(buildFiles, (f) => ctx.read(f), catalogText);
    const published = await publishedLists(buildFiles, (f) => ctx.read(f));
    const isPublished = (name: string) => [...published.values()].some((names) => names.has(name));
    for (const p of projects) {
      const buildFile = [joinRel(p.dir, 'build.gradle.kts'), joinRel(p.dir, 'build.gradle')].find((f) => ctx.has(f));
      const build = buildFile ? ((await ctx.read(buildFile)) ?? '') : '';
      const manifest = buildFile ?? settings;
      const deps: TargetDependency[] = [];
      for (const d of scriptDependencies(build)) {
        const evidence = `${manifest}:${d.line}`;
        // `for (module in publicModules) { dokka(project(":$module")) }`: one dependency per name of the list.
        const loop = d.ref.kind === 'path' && /\$\{?(\w+)/.exec(d.ref.value);
        const over = loop ? new RegExp(String.raw`\bfor\s*\(\s*${loop[1]}\s+in\s+(\w+)\s*\)`).exec(build) : null;
        const names = over ? published.get(over[1]) : undefined;
        if (loop && names) {
          for (const n of names) {
            const dep = byPath.get(d.ref.value.replace(/\$\{?\w+\}?/, n));
            if (dep && !deps.some((x) => x.target === nameOf(dep, rootName) && x.scope === d.scope)) {
              deps.push({ name: dep.path, target: nameOf(dep, rootName), scope: d.scope, evidence });
            }
          }
          continue;
        }
        if (d.ref.kind === 'accessor' || d.ref.kind === 'path') {
          const dep = d.ref.kind === 'accessor' ? byAccessor.get(d.ref.value) : byPath.get(d.ref.value);
          if (d.ref.kind === 'accessor' && !dep && /\.(version|name|path|group)$/.test(d.ref.value)) continue;
          deps.push({
            name: dep?.path ?? d.ref.value,
            ...(dep ? { target: nameOf(dep, rootName) } : {}),
            scope: d.scope,
            evidence,
          });
        } else if (d.ref.kind === 'catalog') {
          const lib = catalog.get(d.ref.value);
          deps.push({
            name: lib?.module ?? `libs.${d.ref.value}`,
            scope: d.scope,
            ...(lib?.version ? { version: lib.version } : {}),
            evidence,
          });
        } else {
          deps.push({
            name: d.ref.value,
            scope: d.scope,
            ...(d.ref.version ? { version: d.ref.version } : {}),
            evidence,
          });
        }
      }
      // An Android test project instruments the app it names (`targetProjectPath = ":app"`).
      const instrumented = /\btargetProjectPath\s*=\s*"(:[^"]+)"/.exec(maskGradleComments(build));
      if (instrumented) {
        const path = interpolate(build, instrumented[1]);
        const target = byPath.get(path);
        deps.push({
          name: target?.path ?? path,
          ...(target ? { target: nameOf(target, rootName) } : {}),
          scope: 'test',
          evidence: `${manifest}:${lineAt(build, instrumented.index)}`,
        });
      }
      // A BOM (java-platform) constrains the versions of the projects it lists, or of the published ones when it loops over them.
      const bom = /\bjava-platform\b/.test(build) ? /\bconstraints\s*\{[\s\S]*?\bin\s+(\w+)\s*\)/.exec(build) : null;
      const list = bom ? published.get(bom[1]) : undefined;
      if (bom && list) {
        const at = `${manifest}:${lineAt(build, bom.index)}`;
        for (const p of projects) {
          if (list.has(p.path.split(':').pop()!)) {
            deps.push({ name: p.path, target: nameOf(p, rootName), scope: 'prod', evidence: at });
          }
        }
      }
      // Or every other subproject that applies a plugin (a BOM project: `rootProject.subprojects { plugins.withId('…publish') { api subproject } }`).
      const byPlugin = /\bjava-platform\b/.test(build)
        ? /\bconstraints\s*\{[\s\S]*?\bsubprojects\b[\s\S]*?\bplugins\.withId\(\s*["']([\w.-]+)["']\s*\)/.exec(
          maskGradleComments(build),
        )
        : null;
      if (byPlugin) {
        const at = `${manifest}:${lineAt(build, byPlugin.index)}`;
        for (const q of projects) {
          if (q === p || q.aggregator) continue;
          const qFile = [joinRel(q.dir, 'build.gradle.kts'), joinRel(q.dir, 'build.gradle')].find((f) => ctx.has(f));
          if (qFile && pluginsOf((await ctx.read(qFile)) ?? '').includes(byPlugin[1])) {
            deps.push({ name: q.path, target: nameOf(q, rootName), scope: 'prod', evidence: at });
          }
        }
      }
      const plugins = pluginsOf(build);
      // What the convention plugins it applies add (a `feature` convention plugin that adds :core:ui and :core:designsystem).
      for (const { dep: d, evidence } of plugins.flatMap((x) => conventions.get(x) ?? [])) {
        const dep = d.ref.kind === 'accessor' ? byAccessor.get(d.ref.value) : byPath.get(d.ref.value);
        if (!dep || deps.some((x) => x.target === nameOf(dep, rootName) && x.scope === d.scope)) continue;
        deps.push({
          name: dep.path,
          target: nameOf(dep, rootName),
          scope: d.scope,
          evidence,
          via: 'convention-plugin',
        });
      }
      if (buildSrc && !deps.some((x) => x.target === 'buildSrc')) {
        deps.push({ name: 'buildSrc', target: 'buildSrc', scope: 'build', evidence: `${buildSrc}:1`, via: 'buildSrc' });
      }
      targets.push({
        name: nameOf(p, rootName),
        ecosystem: 'gradle',
        // A root that only aggregates its subprojects (docs, a BOM of them) is a module, not a library.
        kind: p.aggregator ? 'module' : kindOf(ctx, p, plugins, build, isPublished(p.path.split(':').pop() ?? '')),
        manifest,
        dir: p.dir,
        language: languageOf(ctx, p.dir, buildFile, plugins),
        dependencies: deps,
        metadata: compact({
          gradlePath: p.path,
          aggregator: p.aggregator,
          ...(p.included !== p.path ? { includedAs: p.included } : {}),
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

/** `include(":app", ":core:data")`, `include ':a', ':b'` (over several lines), renames and custom `projectDir`s. */
export function includes(text: string, base: string): Subproject[] {
  const code = maskGradleComments(text);
  const out: Subproject[] = [];
  for (const m of code.matchAll(/\binclude\b(?!Build)\s*(\(([^)]*)\)|((?:[^\n]*,[ \t]*\n)*[^\n]*))/g)) {
    const args = m[2] ?? m[3] ?? '';
    const argsAt = m.index + m[0].indexOf(args);
    for (const s of args.matchAll(/["'](:?[\w.:-]+)["']/g)) {
      const p = s[1].startsWith(':') ? s[1] : ':' + s[1];
      if (out.some((o) => o.included === p)) continue;
      out.push({
        included: p,
        path: p,
        dir: joinRel(base, p.slice(1).replace(/:/g, '/')),
        line: lineAt(text, argsAt + (s.index ?? 0)),
      });
    }
  }
  for (const m of code.matchAll(
    /project\s*\(\s*["'](:[\w.:-]+)["']\s*\)\s*\.projectDir\s*=\s*(?:file|new\s+File)\s*\(([^)]*)\)/g,
  )) {
    const p = out.find((o) => o.included === m[1]);
    const dir = [...m[2].matchAll(/["']([^"']+)["']/g)].pop()?.[1];
    if (p && dir) p.dir = joinRel(base, dir);
  }
  for (const m of code.matchAll(/project\s*\(\s*["'](:[\w.:-]+)["']\s*\)\s*\.name\s*=\s*["']([\w.-]+)["']/g)) {
    const p = out.find((o) => o.included === m[1]);
    if (p) p.path = `${p.included.slice(0, p.included.lastIndexOf(':'))}:${m[2]}`;
  }
  return out;
}

function nameOf(p: Subproject, rootName: string | undefined): string {
  // buildSrc is Gradle's build-logic folder whatever its settings call it (its settings may give it the product's name).
  if (p.path === ':' && p.dir.split('/').pop() === 'buildSrc') return 'buildSrc';
  // Beside its subprojects the root is named by its Gradle path, as they are.
  if (p.aggregator) return ':';
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

function pluginsOf(build: string): string[] {
  const code = maskGradleComments(build);
  const block = /\bplugins\s*\{([^}]*)\}/.exec(code)?.[1] ?? '';
  const applied = [...code.matchAll(/apply\s*(?:\(\s*)?plugin\s*[:=]\s*["']([\w.-]+)["']/g)].map((m) => m[1]);
  return [
    ...[
      ...block.matchAll(
        /\bid\s*\(?\s*["']([\w.-]+)["']|\bkotlin\s*\(\s*["']([\w.-]+)["']|\balias\s*\(\s*libs\.plugins\.([\w.]+)\s*\)|^\s*`?([\w-]+)`?\s*$/gm,
      ),
    ].map((m) => m[1] ?? (m[2] ? `kotlin-${m[2]}` : m[3] ?? m[4])),
    ...applied,
  ];
}

/**
 * What a project is: a test project by its name or because it has only test sources, an app when it
 * applies the application plugin (or Android's) or its jar names a Main-Class, a test project when it
 * applies Android's test plugin or its name has the word "test" or "testing" and it is not published, a plugin when it
 * builds Gradle plugins, a sample program when it sits in a samples folder, otherwise a library.
 */
function kindOf(
  ctx: DiscoveryContext,
  p: Subproject,
  plugins: string[],
  build: string,
  listedAsPublished: boolean,
): TargetKind {
  const name = p.path.split(':').pop() ?? '';
  // Published for other people's tests (a `<product>-test` artifact), a project is a library whatever its name.
  const published = listedAsPublished || plugins.some((x) => /maven-publish|\.publish\b|publish-conventions/.test(x))
    || /\b(mavenPublishing|publishing)\s*\{/.test(build);
  if (!published && /(^|[-_])(tests?|test-app-tests)$|tests$/i.test(name) && !/^testing/.test(name)) return 'test';
  // Also through a convention plugin named for it (`libs.plugins.<project>.android.application`).
  if (
    plugins.some((x) =>
      x === 'application' || x === 'com.android.application' || x === 'android.application'
      || x === 'android-application' || /[.-]android[.-]application$/.test(x)
    )
  ) return 'app';
  if (/["']Main-Class["']\s*(?:to|:)/.test(build) || /\bapplication\s*\{[^}]*mainClass/.test(build)) return 'app';
  // Android's test plugin (benchmarks, baseline profiles), and support code only tests use (`:core:testing`,
  // `:client-testing-support`, `:ui-test-hilt-manifest`): a word "test" or "testing" in the name.
  if (plugins.some((x) => x === 'com.android.test' || /(^|[.-])android[.-]test$/.test(x))) return 'test';
  if (!published && name.split(/[-_.]/).some((w) => /^(tests?|testing)$/i.test(w))) return 'test';
  if (plugins.some((x) => /gradle-plugin|kotlin-dsl/.test(x))) return 'plugin';
  const sources = ctx.files.filter((f) =>
    f.startsWith(joinRel(p.dir, 'src') + '/') && /\.(kt|java|kts|groovy|scala)$/.test(f)
  );
  if (sources.length && sources.every((f) => /\/src\/(test|\w*Test|androidTest|testFixtures)\//.test(f))) return 'test';
  if (isSamplePath(p.dir)) return 'app';
  return 'library';
}

/** Kotlin or Java, by the production sources (the test sources when there are none), then the build. */
function languageOf(ctx: DiscoveryContext, dir: string, buildFile: string | undefined, plugins: string[]): string {
  const under = ctx.files.filter((f) => f.startsWith(joinRel(dir, 'src') + '/'));
  const main = under.filter((f) => !/\/src\/(test|\w*Test|androidTest|testFixtures)\//.test(f));
  for (const files of [main, under]) {
    const kt = files.filter((f) => f.endsWith('.kt')).length;
    const java = files.filter((f) => f.endsWith('.java') && !f.endsWith('module-info.java')).length;
    if (kt || java) return kt >= java ? 'kotlin' : 'java';
  }
  return buildFile?.endsWith('.kts') || plugins.some((x) => /kotlin/.test(x)) ? 'kotlin' : 'java';
}
