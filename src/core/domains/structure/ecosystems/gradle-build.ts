// Reading Gradle build scripts without running Gradle: comments and strings masked, the block each
// dependency sits in (a Kotlin multiplatform source set), configurations (quoted custom ones too),
// and version-catalog aliases.
import { blankComments } from '../../../ground/text/comments';
import { lineAt } from '../context';
import { parseToml } from '../toml';
import type { DependencyScope } from '../types';
import { isRecord } from './npm';

/**
 * The script with comments blanked and string contents kept (offsets and lines unchanged). Both DSLs
 * lex as the Java family: line and block comments, `'…'` and `"…"` strings on one line, `"""` blocks.
 */
export function maskGradleComments(text: string): string {
  return blankComments(text, 'java');
}

/** For each offset of an opening brace's block, the names of the enclosing blocks (`kotlin`, `sourceSets`, `jvmTest`). */
export function blockPath(code: string): (offset: number) => string[] {
  const opens: { at: number; end: number; name: string }[] = [];
  const stack: { at: number; name: string }[] = [];
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < code.length && code[j] !== c && code[j] !== '\n') j += code[j] === '\\' ? 2 : 1;
      i = j;
    } else if (c === '{') stack.push({ at: i, name: blockName(code.slice(Math.max(0, i - 120), i)) });
    else if (c === '}') {
      const open = stack.pop();
      if (open) opens.push({ at: open.at, end: i, name: open.name });
    }
  }
  return (offset) =>
    opens
      .filter((o) => o.at < offset && offset < o.end)
      .sort((a, b) => a.at - b.at)
      .map((o) => o.name);
}

/**
 * `jvmTest` for `val jvmTest by getting {`, `commonJvmAndroid` for `create("commonJvmAndroid") {`,
 * `dependencies` for `dependencies {`, the source set for `commonTest.dependencies {` (its scope).
 */
function blockName(before: string): string {
  const m = /val\s+(\w+)\s+by\s+(?:getting|creating)\s*$/.exec(before.trimEnd())
    ?? /(?:\b(\w+)|(?:getByName|named)\s*\(\s*"([\w-]+)"\s*\))\s*\.\s*dependencies\s*$/.exec(before.trimEnd())
    ?? /(?:create|getByName|named|register)\s*(?:<[^>]*>)?\s*\(\s*"([\w-]+)"[^)]*\)\s*$/.exec(before.trimEnd())
    ?? /(\w+)\s*(?:\([^()]*\))?\s*$/.exec(before.trimEnd());
  return m?.[1] ?? m?.[2] ?? '';
}

/** Prod, test or build, from the configuration and the source set it is declared in. */
export function gradleScope(configuration: string, blocks: string[]): DependencyScope {
  if (/test/i.test(configuration) || blocks.some((b) => /(^test|Test)(\w*)$/.test(b) && b !== 'testing')) return 'test';
  if (/^(compileOnly|annotationProcessor|kapt|ksp|compileOnlyApi)$|CompileOnly$/.test(configuration)) return 'build';
  if (/^(api|implementation|runtimeOnly|compile|runtime)$|(Api|Implementation|RuntimeOnly)$/.test(configuration)) {
    return 'prod';
  }
  // A configuration the script creates itself (a code generator's classpath, say).
  return 'build';
}

export interface CatalogEntry {
  module: string;
  version?: string;
  line: number;
}

/** `gradle/libs.versions.toml`: accessor (`square.okio`) → module and version. */
export function readVersionCatalog(text: string): Map<string, CatalogEntry> {
  const out = new Map<string, CatalogEntry>();
  let doc;
  try {
    doc = parseToml(text);
  } catch {
    return out;
  }
  const versions = isRecord(doc.data.versions) ? doc.data.versions : {};
  const libraries = isRecord(doc.data.libraries) ? doc.data.libraries : {};
  for (const [alias, spec] of Object.entries(libraries)) {
    let module: string | undefined;
    let version: string | undefined;
    if (typeof spec === 'string') {
      const parts = spec.split(':');
      module = parts.slice(0, 2).join(':');
      version = parts[2];
    } else if (isRecord(spec)) {
      module = typeof spec.module === 'string'
        ? spec.module
        : typeof spec.group === 'string' && typeof spec.name === 'string'
        ? `${spec.group}:${spec.name}`
        : undefined;
      const v = spec.version;
      if (typeof v === 'string') version = v;
      else if (isRecord(v) && typeof v.ref === 'string' && typeof versions[v.ref] === 'string') {
        version = versions[v.ref] as string;
      } else if (typeof (spec as Record<string, unknown>)['version.ref'] === 'string') {
        version = versions[(spec as Record<string, string>)['version.ref']] as string | undefined;
      }
    }
    if (!module) continue;
    out.set(alias.replace(/[-_]/g, '.'), {
      module,
      ...(version ? { version } : {}),
      line: doc.lines.get(`libraries.${alias}`) ?? 1,
    });
  }
  return out;
}

export interface ScriptDependency {
  configuration: string;
  /** `projects.core.dataModel` accessor, a `project(":x")` path, a catalog alias, or a `group:artifact` string. */
  ref: { kind: 'accessor' | 'path' | 'catalog' | 'coordinates'; value: string; version?: string };
  scope: DependencyScope;
  line: number;
}

/** Every dependency declaration of a build script, with the scope its configuration and source set give it. */
export function scriptDependencies(text: string): ScriptDependency[] {
  const code = maskGradleComments(text);
  const blocks = blockPath(code);
  const out: ScriptDependency[] = [];
  // `api(x)`, `"friendsApi"(x)`, `testImplementation x` (Groovy), each followed by what it names.
  const config = String.raw`(?:\b([a-z]\w*)|"([a-z]\w*)")\s*(?:\(\s*|\s+)`;
  const patterns: [RegExp, ScriptDependency['ref']['kind']][] = [
    [new RegExp(config + String.raw`projects\.([\w.]+?)(?=\s*[)\s{,]|$)`, 'gm'), 'accessor'],
    [new RegExp(config + String.raw`project\s*\(\s*(?:path\s*[:=]\s*)?["'](:[^"']*)["']`, 'gm'), 'path'],
    [new RegExp(config + String.raw`libs\.([\w.]+?)(?=\s*[)\s{,]|$)`, 'gm'), 'catalog'],
    [new RegExp(config + String.raw`["']([\w.-]+:[\w.-]+(?::[^"'$]+)?)["']`, 'gm'), 'coordinates'],
  ];
  const seen = new Set<number>();
  for (const [re, kind] of patterns) {
    for (const m of code.matchAll(re)) {
      const configuration = m[1] ?? m[2];
      if (NOT_CONFIGURATIONS.has(configuration) || seen.has(m.index)) continue;
      let value = m[3];
      if (
        kind === 'catalog'
        && (value.startsWith('plugins.') || value.startsWith('versions.') || value.startsWith('bundles.'))
      ) continue;
      let version: string | undefined;
      if (kind === 'coordinates') {
        const parts = value.split(':');
        value = parts.slice(0, 2).join(':');
        version = parts[2];
      }
      seen.add(m.index);
      out.push({
        configuration,
        ref: { kind, value, ...(version ? { version } : {}) },
        scope: gradleScope(configuration, blocks(m.index)),
        line: lineAt(text, m.index),
      });
    }
  }
  // The baseline-profile plugin's producer: `baselineProfile { variants { … { from(project(":benchmark")) } } }`.
  for (const m of code.matchAll(/\bfrom\s*\(\s*project\s*\(\s*["'](:[^"']*)["']/g)) {
    if (blocks(m.index).includes('baselineProfile')) {
      out.push({
        configuration: 'baselineProfile',
        ref: { kind: 'path', value: m[1] },
        scope: 'build',
        line: lineAt(text, m.index),
      });
    }
  }
  return out.sort((a, b) => a.line - b.line);
}

/** Calls that take a project or library but declare no dependency. */
const NOT_CONFIGURATIONS = new Set([
  'id',
  'alias',
  'kotlin',
  'plugin',
  'apply',
  'from',
  'version',
  'platform',
  'enforcedPlatform',
  'exclude',
  'include',
  'includeBuild',
  'evaluationDependsOn',
  'project',
  'files',
  'fileTree',
  'classpath',
  'set',
  'add',
  'get',
  'getByName',
  'named',
  'create',
  'register',
  'if',
  'when',
  'println',
  'listOf',
  'setOf',
  'mapOf',
]);

/** A project dependency a convention plugin adds to every project that applies it. */
export interface ConventionDependency {
  dep: ScriptDependency;
  /** `path:line` in the plugin's source. */
  evidence: string;
}

/**
 * Convention plugins of an included build (`build-logic/`): each plugin registered in a
 * `gradlePlugin { plugins { register(…) { id = …; implementationClass = … } } }` block, by its id and
 * by its catalog accessor (`<project>.android.feature.impl`), with the project dependencies its
 * class adds (`"implementation"(project(":core:ui"))`), including those of the plugins it applies.
 */
export async function conventionPlugins(
  files: readonly string[],
  read: (f: string) => Promise<string | undefined>,
  catalogText: string,
): Promise<Map<string, ConventionDependency[]>> {
  const out = new Map<string, ConventionDependency[]>();
  const builds = files.filter((f) => /(^|\/)build\.gradle\.kts$/.test(f));
  const registered: { keys: string[]; className: string; dir: string }[] = [];
  // The catalog's plugins: accessor (dashes as dots) ↔ id.
  const idOfAccessor = new Map<string, string>();
  try {
    const plugins = parseToml(catalogText).data.plugins;
    if (isRecord(plugins)) {
      for (const [alias, spec] of Object.entries(plugins)) {
        const id = typeof spec === 'string'
          ? spec.split(':')[0]
          : isRecord(spec) && typeof spec.id === 'string'
          ? spec.id
          : undefined;
        if (id) idOfAccessor.set(alias.replace(/[-_]/g, '.'), id);
      }
    }
  } catch {
    // An unreadable catalog: plugins are found by literal id only.
  }
  for (const f of builds) {
    const text = (await read(f)) ?? '';
    if (!/\bgradlePlugin\s*\{/.test(text)) continue;
    for (const m of maskGradleComments(text).matchAll(/\bregister\s*\(\s*"[^"]*"\s*\)\s*\{([^}]*)\}/g)) {
      const body = m[1];
      const className = /implementationClass\s*=\s*"([\w.]+)"/.exec(body)?.[1];
      if (!className) continue;
      const literal = /\bid\s*=\s*"([\w.-]+)"/.exec(body)?.[1];
      const viaCatalog = /\bid\s*=\s*libs\.plugins\.([\w.]+?)(?:\.asProvider\(\))?\.get\(\)\.pluginId/.exec(body)?.[1];
      const id = literal ?? (viaCatalog ? idOfAccessor.get(viaCatalog) : undefined);
      const keys = [id, viaCatalog, ...[...idOfAccessor].filter(([, v]) => v === id).map(([k]) => k)].filter((
        k,
      ): k is string => !!k);
      registered.push({
        keys: [...new Set(keys)],
        className: className.split('.').pop()!,
        dir: f.slice(0, f.lastIndexOf('/') + 1),
      });
    }
  }
  const own = new Map<string, { deps: ConventionDependency[]; applies: string[] }>();
  for (const r of registered) {
    const source = files.find((f) =>
      f.startsWith(r.dir) && (f.endsWith(`/${r.className}.kt`) || f.endsWith(`/${r.className}.java`))
    );
    const text = source ? ((await read(source)) ?? '') : '';
    const deps = source
      ? scriptDependencies(text).filter((d) => d.ref.kind === 'path' || d.ref.kind === 'accessor').map((dep) => ({
        dep,
        evidence: `${source}:${dep.line}`,
      }))
      : [];
    const applies = [
      ...text.matchAll(/\bapply\s*\(\s*plugin\s*=\s*"([\w.-]+)"|pluginManager\.apply\s*\(\s*"([\w.-]+)"/g),
    ].map((m) => m[1] ?? m[2]);
    for (const k of r.keys) own.set(k, { deps, applies });
  }
  const resolve = (key: string, seen: Set<string>): ConventionDependency[] => {
    const p = own.get(key);
    if (!p || seen.has(key)) return [];
    seen.add(key);
    return [...p.deps, ...p.applies.flatMap((a) => resolve(a, seen))];
  };
  for (const key of own.keys()) {
    const all = resolve(key, new Set());
    if (all.length) out.set(key, all);
  }
  return out;
}

/**
 * The projects a build names as published in a list of its build logic (a
 * `val publicModules = setOf("lib", "lib-core", …)` in buildSrc): a list whose name says public or
 * published, of project names.
 */
export async function publishedLists(
  files: readonly string[],
  read: (f: string) => Promise<string | undefined>,
): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  for (const f of files) {
    if (!/(^|\/)(buildSrc|build-logic)\/.*\.kts?$|(^|\/)build\.gradle\.kts$/.test(f)) continue;
    const text = (await read(f)) ?? '';
    for (const m of text.matchAll(
      /\bval\s+(\w*(?:[Pp]ublic|[Pp]ublish)\w*)\s*(?::[^=]+)?=\s*(?:setOf|listOf|arrayOf|mutableSetOf)\s*\(([^)]*)\)/g,
    )) {
      out.set(m[1], new Set([...m[2].matchAll(/"([\w.-]+)"/g)].map((x) => x[1])));
    }
  }
  return out;
}

/** A string of a build script with `$name` and `${name}` filled in from the script's own `val name = … "literal"` (the last literal: a property's default). */
export function interpolate(build: string, value: string): string {
  return value.replace(/\$\{?(\w+)\}?/g, (whole, name: string) => {
    const line = new RegExp(String.raw`\bval\s+${name}\s*(?::[^=\n]+)?=([^\n]*)`).exec(build)?.[1] ?? '';
    return [...line.matchAll(/"([^"$]*)"/g)].pop()?.[1] ?? whole;
  });
}
