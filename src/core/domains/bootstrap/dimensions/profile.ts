import { conventionPath } from '../../../ground/files/classify';
import { languageForPath } from '../../../ground/kernel/languages';
import { escapeRegExp } from '../../../ground/kernel/names';
import type { Target } from '../../structure';
import { commandDefinitions } from '../command-check';
import { ciChecks, ciCommand, commandSources, type ProjectCommand } from '../commands';
import { factsOf } from '../facts';
import { fit, MAX_SUMMARY, nameList } from '../form';
import { pathKind } from '../source';
import { VERSION_PINS } from '../tool-knowledge';
import type { AnalysisContext, Analyzer, CandidateDraft, Family, SourceFile } from '../types';
import { isAppExtension, productTargets } from './architecture';
import { AGENT_FILES } from './guidelines';
import { languageOf } from './standards';

/** Dependency or import name → what it tells about the stack. */
const FRAMEWORKS: Record<string, string> = {
  react: 'React',
  next: 'Next.js',
  vue: 'Vue',
  svelte: 'Svelte',
  '@angular/core': 'Angular',
  express: 'Express',
  fastify: 'Fastify',
  '@nestjs/core': 'NestJS',
  koa: 'Koa',
  electron: 'Electron',
  jest: 'Jest',
  vitest: 'Vitest',
  mocha: 'Mocha',
  ava: 'AVA',
  'node:test': 'node:test',
  playwright: 'Playwright',
  '@playwright/test': 'Playwright',
  cypress: 'Cypress',
  webpack: 'webpack',
  vite: 'Vite',
  esbuild: 'esbuild',
  rollup: 'Rollup',
  zod: 'zod',
  ajv: 'Ajv',
  prisma: 'Prisma',
  '@prisma/client': 'Prisma',
  typeorm: 'TypeORM',
  graphql: 'GraphQL',
  tailwindcss: 'Tailwind CSS',
  'sql.js': 'sql.js',
  '@modelcontextprotocol/sdk': 'MCP SDK',
  redux: 'Redux',
  '@reduxjs/toolkit': 'Redux Toolkit',
  rxjs: 'RxJS',
  django: 'Django',
  flask: 'Flask',
  fastapi: 'FastAPI',
  pydantic: 'Pydantic',
  sqlalchemy: 'SQLAlchemy',
  pytest: 'pytest',
  celery: 'Celery',
  numpy: 'NumPy',
  pandas: 'pandas',
  'github.com/gin-gonic/gin': 'Gin',
  'github.com/labstack/echo/v4': 'Echo',
  'gorm.io/gorm': 'GORM',
  'github.com/spf13/cobra': 'Cobra',
  'github.com/stretchr/testify': 'testify',
  tokio: 'Tokio',
  'actix-web': 'Actix Web',
  axum: 'Axum',
  serde: 'Serde',
  clap: 'clap',
  diesel: 'Diesel',
  anyhow: 'anyhow',
  thiserror: 'thiserror',
  'com.squareup.okio:okio': 'Okio',
  'com.squareup.okhttp3:okhttp': 'OkHttp',
  'com.squareup.retrofit2:retrofit': 'Retrofit',
  'com.squareup.moshi:moshi': 'Moshi',
  'com.google.code.gson:gson': 'Gson',
  'com.fasterxml.jackson.core:jackson-databind': 'Jackson',
  'com.google.guava:guava': 'Guava',
  'io.reactivex.rxjava3:rxjava': 'RxJava',
  'org.jetbrains.kotlinx:kotlinx-coroutines-core': 'Kotlin coroutines',
  'org.jetbrains.kotlinx:kotlinx-serialization-json': 'kotlinx.serialization',
  'com.google.dagger:dagger': 'Dagger',
  'com.google.dagger:hilt-android': 'Hilt',
  'androidx.compose.ui:ui': 'Jetpack Compose',
  'androidx.room:room-runtime': 'Room',
  'androidx.work:work-runtime': 'WorkManager',
  'androidx.datastore:datastore': 'DataStore',
  'io.coil-kt:coil': 'Coil',
  'org.springframework.boot:spring-boot-starter': 'Spring Boot',
  'org.springframework.boot:spring-boot-starter-web': 'Spring Boot',
  'io.ktor:ktor-server-core': 'Ktor',
  'junit:junit': 'JUnit 4',
  'org.junit.jupiter:junit-jupiter': 'JUnit 5',
  SwiftUI: 'SwiftUI',
  UIKit: 'UIKit',
  AppKit: 'AppKit',
  Combine: 'Combine',
  XCTest: 'XCTest',
  Testing: 'Swift Testing',
  Alamofire: 'Alamofire',
  RxSwift: 'RxSwift',
  SwiftData: 'SwiftData',
  CoreData: 'Core Data',
};

/** JVM packages by import prefix (Kotlin and Java import classes, not packages): the key is an entry of FRAMEWORKS. */
const JVM_PACKAGE_LIST: [string, string][] = [
  ['androidx.compose', 'androidx.compose.ui:ui'],
  ['dagger.hilt', 'com.google.dagger:hilt-android'],
  ['androidx.room', 'androidx.room:room-runtime'],
  ['androidx.work', 'androidx.work:work-runtime'],
  ['androidx.datastore', 'androidx.datastore:datastore'],
  ['coil', 'io.coil-kt:coil'],
  ['coil3', 'io.coil-kt:coil'],
  ['retrofit2', 'com.squareup.retrofit2:retrofit'],
  ['okhttp3', 'com.squareup.okhttp3:okhttp'],
  ['okio', 'com.squareup.okio:okio'],
  ['kotlinx.coroutines', 'org.jetbrains.kotlinx:kotlinx-coroutines-core'],
  ['kotlinx.serialization', 'org.jetbrains.kotlinx:kotlinx-serialization-json'],
  ['io.ktor.server', 'io.ktor:ktor-server-core'],
  ['org.springframework.boot', 'org.springframework.boot:spring-boot-starter'],
  ['com.google.gson', 'com.google.code.gson:gson'],
  ['com.squareup.moshi', 'com.squareup.moshi:moshi'],
  ['io.reactivex.rxjava3', 'io.reactivex.rxjava3:rxjava'],
];
/** With each prefix followed by its dot, made once: every import of every production file is looked up. */
const JVM_PACKAGES: [string, string, string][] = JVM_PACKAGE_LIST.map((
  [prefix, artifact],
) => [prefix, artifact, `${prefix}.`]);

const TEST_FRAMEWORK_NAMES = new Set([
  'Jest',
  'Vitest',
  'Mocha',
  'AVA',
  'node:test',
  'Playwright',
  'Cypress',
  'pytest',
  'testify',
  'JUnit 4',
  'JUnit 5',
  'XCTest',
  'Swift Testing',
]);

/** Files a test runner runs, by the naming conventions of each ecosystem (helpers and fixtures are not tests). */
const TEST_FILE =
  /(^|\/)(test_[^/]+\.py|[^/]+_test\.(py|go)|[^/]+\.(test|spec)\.[cm]?[jt]sx?|[^/]+(Test|Tests|Spec|TestCase)\.(kt|kts|java|swift|m|mm)|[^/]+_spec\.rb)$|(^|\/)tests\/[^/]+\.rs$/;

/** How many test files the project has: every one in the listing, not the sample the scan read; examples' tests left out. */
function testFileCount(listing: readonly string[]): number {
  // Examples' own tests aside; a package named `samples` (com.google.samples) is not an examples folder.
  const tests = listing.filter((f) =>
    pathKind(f) === 'test' && !/(^|\/)(examples?|samples?|demos?)\//i.test(conventionPath(f))
  );
  const named = tests.filter((f) => TEST_FILE.test(f)).length;
  return named || tests.filter((f) => languageForPath(f)).length;
}

/** Test frameworks, by what test files import. */
const TEST_FRAMEWORKS: [RegExp, string][] = [
  [/^org\.junit\.jupiter/, 'JUnit 5'],
  [/^org\.junit(\.|$)(?!jupiter)/, 'JUnit 4'],
  [/^kotlin\.test/, 'kotlin.test'],
  [/^XCTest$/, 'XCTest'],
  [/^Testing$/, 'Swift Testing'],
  [/^pytest$/, 'pytest'],
  [/^unittest$/, 'unittest'],
  [/^vitest/, 'Vitest'],
  [/^(@jest\/globals|jest)$/, 'Jest'],
  [/^mocha$/, 'Mocha'],
  [/^node:test$/, 'node:test'],
  [/^@playwright\/test$/, 'Playwright'],
  [/^github\.com\/stretchr\/testify/, 'testify'],
];

/** A command a person types: a build tool or runner first, then its arguments. */
const RUNNER =
  /^(\.\/gradlew|gradle|yarn|npm|npx|pnpm|bun|make|cargo|go|swift|xcodebuild|pytest|uv|python3?|poetry|tox|nox|bundle|rake|mvn|\.\/mvnw|dotnet|just|bazel|deno)(\s|$)/;

/**
 * The commands the agent instructions list, each with the words around it as its label and its line:
 * the project's own word on how to build and test, which reviewers expect over what CI or the
 * ecosystem suggest. Bullets in either order (`- Run local tests: \`./gradlew test\`` and
 * `- \`./gradlew lint\`: run Android lint checks.`) and fenced shell blocks (each labelled by
 * the comment or heading above). A template a person must fill in (`<path>`, `{Variant}`, `X.X.X`) or
 * a watch mode is not a command to run as written. One file, the first that has any; without agent
 * instructions, the contributor guide's (a `./gradlew clean check`, a `scripts/install`
 * first): reviewers asked for those over the ecosystem's defaults. A command whose script, Makefile
 * target or file the repository no longer defines is left out: the guide outlived it.
 */
async function agentFileCommands(
  ctx: AnalysisContext,
): Promise<{ file: string; label: string; command: string; source: string }[]> {
  const runnable = (c: string) =>
    (RUNNER.test(c) || /^\.\/[\w./-]+\.sh\b|^(\.\/)?scripts\/[\w.-]+(\s|$)/.test(c))
    && !/<[^>]+>|\{\w+\}|\bX\.X\b|(^|[\s:])(--)?watch\b/.test(c);
  const defined = await commandDefinitions(ctx);
  const agentFiles = ctx.listing.filter((f) => AGENT_FILES.test(f)).sort();
  const guides = ['CONTRIBUTING.md', '.github/CONTRIBUTING.md', 'docs/CONTRIBUTING.md'].filter((f) => ctx.has(f));
  for (const file of [...agentFiles, ...guides]) {
    const out: { file: string; label: string; command: string; source: string }[] = [];
    const add = (label: string, command: string, line: number) => {
      if (runnable(command) && defined.defines(command) && out.length < 6 && !out.some((o) => o.command === command)) {
        out.push({ file, label: label.trim(), command, source: `${file}:${line + 1}` });
      }
    };
    let fence = false;
    let heading = '';
    let comment = '';
    ((await ctx.read(file)) ?? '').split('\n').forEach((line, i) => {
      if (/^\s*(```|~~~)/.test(line)) {
        fence = !fence;
        comment = '';
        return;
      }
      if (fence) {
        const c = /^\s*#\s*(.+)$/.exec(line);
        if (c) comment = c[1];
        else if (line.trim()) add(comment || heading, line.trim().replace(/^\$\s+/, '').replace(/\s+#.*$/, ''), i);
        return;
      }
      const h = /^#{1,6}\s+(.+)$/.exec(line);
      if (h) heading = h[1].trim();
      const labelFirst = /^\s*(?:[-*]|\d+\.)\s+(?:\*\*)?([^`:*]{2,40}?)(?:\*\*)?:\s*(?:\*\*)?[^`]*`([^`]+)`/.exec(line);
      if (labelFirst) return add(labelFirst[1], labelFirst[2].trim(), i);
      const commandFirst = /^\s*(?:[-*]|\d+\.)\s+`([^`]+)`\s*(?::|-|—|–)\s*([^.(;]{2,60})/.exec(line);
      if (commandFirst) add(commandFirst[2], commandFirst[1].trim(), i);
    });
    if (out.length) return out;
  }
  return [];
}

/** The commands a summary has room for: a test, a build and a check first (what every change needs), then the rest in the file's order. */
function leadingCommands<T extends { label: string; command: string }>(commands: readonly T[], n: number): T[] {
  const about = (re: RegExp) => commands.find((c) => re.test(`${c.label} ${c.command}`));
  const lead = [about(/\btests?\b|Test\b/), about(/\b(build|assemble)/i), about(/\b(lint|check|spotless|format)/i)]
    .filter((c): c is T => !!c);
  return [...new Set([...lead, ...commands])].slice(0, n);
}

/** The manifest that sets each language's version floor, read first for the project's primary language. */
const primaryManifest = (primary: Family): RegExp | undefined =>
  VERSION_PINS.find((p) => p.families[0] === primary)?.manifest;

/**
 * Dimension 6, project profile: exactly one candidate with the stack (from production code only),
 * the product's targets, its frameworks (never the project itself), the test framework the tests
 * actually use, and commands a person can run as written.
 */
export class ProjectProfileAnalyzer implements Analyzer {
  private readonly languages = new Map<string, { files: number; bytes: number }>();
  /** Per framework, the production files that import it by target (`''` for a file no target owns), with the first import. */
  private readonly imported = new Map<string, Map<string, { files: number; first: string }>>();
  /** Test files that use each framework: all the scanned ones, and those named as tests (what the test-file count counts). */
  private readonly testFrameworks = new Map<string, { files: number; named: number; first: string }>();
  private readonly filesPerTarget = new Map<string, number>();
  /** Production files no target owns. */
  private unowned = 0;
  /** JVM import prefixes seen, and the project's own packages: its own `com.example` is not a library it uses. */
  private readonly jvmPrefix = new Map<string, string>();
  private readonly ownPackages = new Set<string>();

  visit(file: SourceFile): void {
    if (file.kind === 'test') {
      const named = TEST_FILE.test(file.path) ? 1 : 0;
      const count = (framework: string, line: number) => {
        const e = this.testFrameworks.get(framework) ?? { files: 0, named: 0, first: `${file.path}:${line}` };
        e.files++;
        e.named += named;
        this.testFrameworks.set(framework, e);
      };
      const seen = new Set<string>();
      for (const imp of factsOf(file).imports) {
        const hit = TEST_FRAMEWORKS.find(([re]) => re.test(imp.spec));
        if (!hit || seen.has(hit[1])) continue;
        seen.add(hit[1]);
        count(hit[1], imp.line);
      }
      if (file.family === 'go' && /^import[\s\S]*?"testing"/m.test(file.code)) count('go test', 1);
      return;
    }
    if (file.kind !== 'production') return;
    if (file.target) this.filesPerTarget.set(file.target, (this.filesPerTarget.get(file.target) ?? 0) + 1);
    else this.unowned++;
    const pkg = (file.family === 'kotlin' || file.family === 'java') && /^\s*package\s+([\w.]+)/m.exec(file.code)?.[1];
    if (pkg) this.ownPackages.add(pkg);
    // A `.h` header is C by its extension; in an Objective-C code base it is Objective-C's (merged at the end).
    const language = file.language === 'c' && file.path.endsWith('.h') ? 'c-header' : file.language;
    const l = this.languages.get(language) ?? { files: 0, bytes: 0 };
    l.files++;
    l.bytes += file.bytes;
    this.languages.set(language, l);
    const seen = new Set<string>();
    for (const imp of factsOf(file).imports) {
      const jvm = JVM_PACKAGES.find(([prefix, , dotted]) => imp.spec === prefix || imp.spec.startsWith(dotted));
      if (jvm) this.jvmPrefix.set(jvm[1], jvm[0]);
      const name = jvm?.[1]
        ?? (FRAMEWORKS[imp.spec]
          ? imp.spec
          : imp.spec.startsWith('@')
          ? imp.spec.split('/').slice(0, 2).join('/')
          : imp.spec.split('/')[0]);
      if (!FRAMEWORKS[name] || seen.has(name)) continue;
      seen.add(name);
      const byTarget = this.imported.get(name) ?? new Map<string, { files: number; first: string }>();
      const e = byTarget.get(file.target ?? '') ?? { files: 0, first: `${file.path}:${imp.line}` };
      e.files++;
      byTarget.set(file.target ?? '', e);
      this.imported.set(name, byTarget);
    }
  }

  async finish(ctx: AnalysisContext): Promise<CandidateDraft[]> {
    const headers = this.languages.get('c-header');
    if (headers) {
      this.languages.delete('c-header');
      const owner = this.languages.has('objective-c')
        ? 'objective-c'
        : this.languages.has('cpp') && !this.languages.has('c')
        ? 'cpp'
        : 'c';
      const l = this.languages.get(owner) ?? { files: 0, bytes: 0 };
      this.languages.set(owner, { files: l.files + headers.files, bytes: l.bytes + headers.bytes });
    }
    const totalBytes = [...this.languages.values()].reduce((n, l) => n + l.bytes, 0);
    if (totalBytes === 0 && ctx.structure.targets.length === 0) return [];
    const langs = [...this.languages.entries()].map(([l, v]) =>
      [l, Math.round((v.bytes / Math.max(1, totalBytes)) * 100)] as const
    ).filter(([, pct]) => pct > 0).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    // The applications first (an Android `:app`), then the biggest packages: they say most about
    // the project. Not an app extension, nor a small tool beside a library (a command-line client, a
    // codemod CLI): an app leads when it has a quarter of the largest target's files.
    const files = (t: Target) => this.filesPerTarget.get(t.name) ?? 0;
    const allProducts = [...productTargets(ctx)];
    // A manifest that owns no production file (a Python project's package.json that runs release-it) is tooling, not a
    // product; an Xcode target is one, though it compiles a folder another target owns (an iOS and a tvOS target).
    const products = allProducts.some((t) => files(t) > 0)
      ? allProducts.filter((t) => files(t) > 0 || t.ecosystem === 'xcode')
      : allProducts;
    const largest = Math.max(0, ...products.map(files));
    const leads = (t: Target) => t.kind === 'app' && !isAppExtension(t) && files(t) * 4 >= largest;
    products.sort((a, b) => Number(leads(b)) - Number(leads(a)) || files(b) - files(a));
    // A root build that only aggregates the others is counted as none of them.
    const others = ctx.structure.targets.filter((t) => !t.metadata.aggregator).length - allProducts.length;
    const own = new Set(
      ctx.structure.targets.flatMap((
        t,
      ) => [t.name, t.name.split('/').pop() ?? t.name, String(t.metadata.package ?? '')]).map((n) => n.toLowerCase()),
    );
    const frameworks = new Map<string, string>();
    /** The product targets that use each framework: one only some small targets use is named with them (Guava only in a proto module). */
    const users = new Map<string, Set<string>>();
    const add = (name: string, evidence: string, target?: string) => {
      // Test frameworks belong to the Tests line, measured on the test files.
      if (own.has(name.toLowerCase()) || TEST_FRAMEWORK_NAMES.has(name)) return;
      if (!frameworks.has(name)) frameworks.set(name, evidence);
      if (target) users.set(name, (users.get(name) ?? new Set()).add(target));
    };
    // Imports by the products' own files; not by a docs site, a tool or a scratch script beside them
    // (zod's mm.mjs imports esbuild, the library does not). Files no target owns count only where the
    // targets own few of the files (the map could not place them).
    const productNames = new Set(products.map((t) => t.name));
    const owned = [...this.filesPerTarget.values()].reduce((n, v) => n + v, 0);
    const counts = (t: string) => (t === '' ? owned < this.unowned : !productNames.size || productNames.has(t));
    const imported = [...this.imported.entries()].map(([name, byTarget]) => {
      const used = [...byTarget.entries()].filter(([t]) => counts(t)).sort((a, b) =>
        (this.filesPerTarget.get(b[0]) ?? 0) - (this.filesPerTarget.get(a[0]) ?? 0)
      );
      return {
        name,
        files: used.reduce((n, [, e]) => n + e.files, 0),
        first: used[0]?.[1].first ?? '',
        targets: used.map(([t]) => t).filter(Boolean),
      };
    }).filter((u) => u.files > 0);
    // What the most files import first (Compose, Hilt and Room before the HTTP client), then what the manifests declare.
    const ownJvm = (name: string) => {
      const prefix = this.jvmPrefix.get(name);
      return prefix !== undefined && [...this.ownPackages].some((p) => p === prefix || p.startsWith(`${prefix}.`));
    };
    for (const u of imported.sort((a, b) => b.files - a.files)) {
      if (own.has(u.name.toLowerCase()) || ownJvm(u.name)) continue;
      add(FRAMEWORKS[u.name], u.first);
      for (const t of u.targets) add(FRAMEWORKS[u.name], u.first, t);
    }
    for (const t of products) {
      for (const d of t.dependencies) {
        if (
          FRAMEWORKS[d.name] && d.evidence && d.scope !== 'dev' && d.scope !== 'test' && !own.has(d.name.toLowerCase())
        ) add(FRAMEWORKS[d.name], d.evidence, t.name);
      }
      const engines = t.metadata.engines as Record<string, unknown> | undefined;
      if (engines && typeof engines === 'object' && 'vscode' in engines) {
        add('VS Code extension API', `${t.manifest}:1`);
      }
    }
    const lead = products[0]?.name;
    const shownName = (name: string) => {
      const by = [...(users.get(name) ?? [])];
      return products.length > 1 && lead && by.length && by.length <= 2 && !by.includes(lead)
        ? `${name} (in ${by.join(', ')})`
        : name;
    };
    // The summary names what the product as a whole is built on; the details say where the rest is used.
    const summaryFrameworks = [...frameworks.keys()].filter((n) => shownName(n) === n);
    // Counted over the files the test-file count counts, so that no framework is used by more files
    // than there are tests (else test helpers and rules count too: 53 uses in 52 test files).
    const byName = [...this.testFrameworks.values()].some((e) => e.named > 0);
    const tests = [...this.testFrameworks.entries()].map(([n, e]) =>
      [n, { first: e.first, files: byName ? e.named : e.files }] as const
    ).filter(([, e]) => e.files > 0).sort((a, b) => b[1].files - a[1].files);
    // No well-known framework: the runtime dependencies say what the code is built on (httpcore, anyio…).
    const deps = frameworks.size
      ? []
      : [
        ...new Map(
          products.flatMap((t) => t.dependencies).filter((d) =>
            d.scope === 'prod' && d.evidence && !own.has(d.name.toLowerCase())
          ).map((d) => [d.name, d.evidence!]),
        ).entries(),
      ];
    const floor = await versionFloor(ctx, products.map((t) => t.manifest), ctx.primary);
    const { list: commands, notes, before, checks: ciChecked, ciTest } = await this.commands(ctx);
    const agentCommands = await agentFileCommands(ctx);
    // A check the commands already give (a spotlessCheck in AGENTS.md) is said once; a project command that is not
    // shown (a typecheck-packages script, beside CONTRIBUTING.md's commands) is still one of CI's checks.
    const given = agentCommands.length ? agentCommands : commands;
    const checks = ciChecked.filter((c) => !given.some((a) => a.command === c.command));
    // Beside the agent file's commands, the tests CI runs when the file does not give that command.
    const ciTestToo = agentCommands.length && ciTest && !agentCommands.some((c) => c.command === ciTest.command)
      ? ciTest
      : undefined;
    const declared = await Promise.all(products.slice(0, 2).map((t) => manifestLine(ctx, t.manifest, namedIn(t.name))));
    const sources = [
      ...new Set([
        ...agentCommands.slice(0, 2).map((c) => c.source),
        ...declared,
        ...commands.map((c) => c.source),
        ...(ciTestToo ? [ciTestToo.source] : []),
        ...checks.slice(0, 2).map((c) => c.source),
        ...tests.slice(0, 1).map(([, e]) => e.first),
        ...[...frameworks.values()].slice(0, 3),
        ...deps.slice(0, 1).map(([, e]) => e),
        ...(floor ? [floor.source] : []),
      ]),
    ].slice(0, 10);
    const fam: Family | undefined = ctx.primary;
    // By the manifest that declares them: a Swift package's targets can hold Objective-C sources.
    const label = (e: string) => (e === 'swift' ? 'SwiftPM' : e === 'xcode' ? 'Xcode' : e);
    const ecosystems = [...new Set(products.map((t) => label(t.ecosystem)))].join(', ')
      || Object.keys(ctx.structure.ecosystems).map(label).join(', ');
    const testFiles = testFileCount(ctx.listing);
    const testLine = tests.length
      ? `${tests[0][0]}${testFiles ? `, ${testFiles} test files` : ''}${
        tests.length > 1
          ? ` (of the scanned test files, ${tests[0][1].files} use ${tests[0][0]}; also ${
            tests.slice(1, 3).map(([n, e]) => `${n} in ${e.files}`).join(', ')
          })`
          : ''
      }`
      : '';
    const details = [
      `- Languages (production code): ${langs.map(([l, pct]) => `${l} ${pct} %`).join(', ') || 'none detected'}`,
      // An Xcode app extension (a widget) is said as one, not as a third app.
      `- Targets: ${
        products.slice(0, 15).map((t) => `${t.name} (${isAppExtension(t) ? 'app extension' : t.kind})`).join(', ')
        || 'none'
      }${products.length > 15 ? `, … ${products.length - 15} more` : ''}${
        others ? `; plus ${others} test, sample or tool targets` : ''
      }`,
      `- Frameworks and libraries: ${
        [...frameworks.keys()].sort().map(shownName).join(', ') || (deps.length
          ? `none of the well-known ones; it depends on ${deps.slice(0, 6).map(([n]) => n).join(', ')}${
            deps.length > 6 ? ` and ${deps.length - 6} more` : ''
          }`
          : 'none detected')
      }`,
      ...(floor ? [`- Language version: ${floor.text} (${floor.source})`] : []),
      ...platformsLine(products),
      ...(testLine ? [`- Tests: ${testLine}`] : []),
      // The agent file's commands replace the generic ones (a reviewer found `./gradlew build` beside AGENTS.md's assembleDemoDebug contradictory).
      ...(agentCommands.length ? [] : commands.map((c) => `- ${c.label}: \`${c.command}\``)),
      ...(agentCommands.length
        ? [
          `- ${agentCommands[0].file} gives: ${
            agentCommands.map((c) => `${c.label} \`${c.command}\` (${c.source})`).join('; ')
          }`,
        ]
        : []),
      ...(ciTestToo ? [`- CI tests with \`${ciTestToo.command}\` (${ciTestToo.source})`] : []),
      ...(checks.length
        ? [
          `- CI checks (a change must pass them): ${
            checks.slice(0, 6).map((c) => `\`${c.command}\` (${c.source})`).join(', ')
          }`,
        ]
        : []),
      ...notes,
    ].join('\n');
    // The agent file's own commands when it gives them (the reviewers asked for CLAUDE.md's
    // build_and_test.sh, AGENTS.md's assembleDemoDebug rather than "follow them"), else the project's.
    const said = (c: string) => `\`${c.length <= 70 ? c : fit(c, 60)}\``;
    const shownCommands = agentCommands.length
      ? `Commands from ${agentCommands[0].file}: ${
        leadingCommands(agentCommands, 3).map((c) => said(c.command)).join(', ')
      }.`
      : commands.length
      ? `Commands: ${commands.slice(0, 3).map((c) => said(c.command)).join(', ')}.`
      : '';
    // A check cut mid-command reads as a wrong command: a long one is left to the details.
    const shownChecks = checks.filter((c) => c.command.length <= 70).slice(0, 3).map((c) => said(c.command));
    const ciSaid = ciTestToo || shownChecks.length
      ? `CI ${
        [
          ...(ciTestToo ? [`tests with ${said(ciTestToo.command)}`] : []),
          ...(shownChecks.length ? [`checks ${shownChecks.join(', ')}`] : []),
        ].join(' and ')
      }.`
      : '';
    return [
      {
        title: 'Project profile: stack, targets, build and test commands',
        knowledgeType: 'project-profile',
        dimension: 'project-profile',
        language: fam ? languageOf(fam, ctx) : 'text',
        category: 'project',
        summary: summaryWithin(MAX_SUMMARY, [
          [
            `${
              langs.slice(0, 3).map(([l, pct]) => `${l} ${pct} %`).join(', ') || 'No source'
            }; ${products.length} ${ecosystems} target${products.length === 1 ? '' : 's'}.`,
            1,
          ],
          [summaryFrameworks.length ? `Uses ${summaryFrameworks.slice(0, 5).join(', ')}.` : '', 3],
          [
            testLine
              ? `Tests: ${
                nameList(tests.filter(([, t]) => t.files >= tests[0][1].files / 4).map(([n]) => n), 40, false)
              }${testFiles ? `, ${testFiles} test files` : ''}.`
              : '',
            4,
          ],
          [before.length ? `The tests need ${before.join(' and ')} first.` : '', 1],
          [shownCommands, 1],
          [ciSaid, 2],
        ]),
        code: '',
        details,
        reasoning: {
          whyStandard:
            'Read from the build manifests, the scripts and CI workflows, and the scanned production and test sources.',
          sources: sources.length ? sources : [`${ctx.listing[0] ?? 'README.md'}:1`],
          confidence: 0.9,
        },
        tags: ['project-profile', ...Object.keys(ctx.structure.ecosystems)],
        trigger: 'project-profile',
      },
    ];
  }

  /**
   * Commands as a person runs them: the project's own scripts first, then what CI runs (the test
   * command CI agrees on, the build of the test job), then the ecosystem's defaults. Notes say what
   * must happen before the tests (pods, a local server CI starts) and the other ways CI runs them.
   */
  private async commands(
    ctx: AnalysisContext,
  ): Promise<
    {
      list: { label: string; command: string; source: string }[];
      notes: string[];
      before: string[];
      checks: ProjectCommand[];
      ciTest?: { command: string; source: string };
    }
  > {
    const out: { label: string; command: string; source: string }[] = [];
    const add = (label: string, command: string, source: string) => {
      if (!out.some((o) => o.label === label || o.command === command)) out.push({ label, command, source });
    };
    const scripts = await commandSources(ctx);
    for (const label of ['Build', 'Test', 'Typecheck', 'Lint', 'Format', 'Check']) {
      const re = new RegExp(
        `^(${
          label === 'Format'
            ? 'fmt|format|format-fix'
            : label === 'Typecheck'
            ? 'typecheck|type-check|check-types'
            : label.toLowerCase()
        })\\b`,
        'i',
      );
      const named = (s: ProjectCommand) => s.command.split(/[\s/]/).pop() ?? '';
      // A package script or a Makefile target by its name or what it runs; a script file by its name
      // only (a create-deb.sh writing a `Format:` line is no formatter); a hook's id is no command.
      // A script file is cited at its first line that runs something, not at `export PREFIX=""`.
      const scaffold = (s: ProjectCommand) =>
        s.origin === 'script'
        && /^(?:(?:export|set|if|fi|then|else|elif|do|done|cd|for|while|case|esac|local|readonly|trap)\b|\[|[A-Za-z_]\w*=)/
          .test(s.text);
      const mine = scripts.filter((s) =>
        (s.origin === 'package' || s.origin === 'make' || s.origin === 'script') && !s.command.includes('\n')
        && ((s.origin !== 'script' && re.test(s.text)) || re.test(named(s)))
      ).sort((a, b) => Number(scaffold(a)) - Number(scaffold(b)));
      // The script named exactly so (`build`, `make test`) before its variants (`build-node`, `test-js`).
      const own = mine.find((s) => re.test(named(s)) && named(s).length === re.exec(named(s))![0].length) ?? mine[0];
      if (own) add(label, own.command, own.source);
    }
    const ownTest = out.some((o) => o.label === 'Test');
    const ciTest = ciCommand(scripts, 'test');
    const ciBuild = ciCommand(scripts, 'build', ciTest?.job);
    if (ciBuild) add('Build', ciBuild.command, ciBuild.source);
    if (ciTest) add('Test', ciTest.command, ciTest.source);
    const eco = ctx.structure.ecosystems;
    // The ecosystem's defaults cite the manifest's line that makes them apply, past any licence header.
    const manifest = (e: string, find?: RegExp) =>
      manifestLine(
        ctx,
        ctx.structure.targets.find((t) => t.ecosystem === e && !t.metadata.aggregator)?.manifest ?? '',
        find,
      );
    if (eco.cargo) {
      const at = await manifest('cargo', /^\s*\[(package|workspace)\]/);
      add('Build', 'cargo build', at);
      add('Test', 'cargo test', at);
    }
    if (eco.go) {
      const at = await manifest('go', /^module\s/);
      add('Build', 'go build ./...', at);
      add('Test', 'go test ./...', at);
    }
    // `swift test` only runs where the package declares test targets.
    // `swift build` and `swift test` work where the package is the root (not for packages under Modules/).
    if (eco.swift && ctx.has('Package.swift')) {
      const at = await manifestLine(ctx, 'Package.swift', /\bPackage\s*\(/);
      add('Build', 'swift build', at);
      if (ctx.structure.targets.some((t) => t.ecosystem === 'swift' && t.kind === 'test')) {
        add('Test', 'swift test', at);
      }
    }
    if (eco.gradle) {
      const gw = ctx.has('gradlew') ? './gradlew' : 'gradle';
      const at = await manifest('gradle');
      add('Build', `${gw} build`, at);
      add('Test', `${gw} test`, at);
    }
    if (eco.maven) {
      const at = await manifest('maven', /<artifactId>/);
      add('Build', 'mvn package', at);
      add('Test', 'mvn test', at);
    }
    if (eco.python) {
      const pytest = ctx.structure.targets.flatMap((t) => t.dependencies).find((d) => d.name === 'pytest');
      if (pytest) add('Test', 'pytest', pytest.evidence ?? (await manifest('python')));
    }
    // What CI checks beyond the tests; the project's own lint and format scripts only when CI runs them
    // too (a `make lint` may run the retired golint while CI runs golangci-lint; a `pnpm lint` may fix files).
    const checks = ciChecks(scripts).filter((c) => c.command !== ciTest?.command);
    const ci = scripts.filter((s) => s.job);
    const ranByCi = (command: string) => ci.some((c) => c.command === command || c.command.endsWith(` ${command}`));
    if (checks.length) {
      for (const label of ['Lint', 'Format', 'Check']) {
        const i = out.findIndex((o) => o.label === label);
        if (i >= 0 && !ranByCi(out[i].command)) out.splice(i, 1);
      }
    }
    const notes: string[] = [];
    const before: string[] = [];
    // A test script that is bare `vitest` keeps watching in a terminal (CI sets CI=true, so it runs once there).
    const test = out.find((o) => o.label === 'Test');
    const body = test && scripts.find((s) => !s.job && s.command === test.command)?.text;
    if (test && body && /^[\w:.-]+:\s*vitest(?![^&|;]*(?:\brun\b|--run|--watch=false))/.test(body)) {
      notes.push(
        `- \`${test.command}\` starts Vitest in watch mode in a terminal; \`${test.command}${
          /^npm\b/.test(test.command) ? ' --' : ''
        } --run\` runs the tests once`,
      );
    }
    if (ciTest && !ownTest) {
      for (const s of ciTest.setup) {
        before.push(s.background ? `\`${s.command}\` running` : `\`${s.command}\``);
        notes.push(
          s.background
            ? `- Before the tests, CI starts \`${s.command}\` in the background (${s.source}): the tests need it running`
            : `- Before building or testing, CI runs \`${s.command}\` (${s.source})`,
        );
      }
      if (ciTest.variants.length) {
        notes.push(`- CI also tests with ${ciTest.variants.map((v) => `\`${v}\``).join(', ')}`);
      }
    }
    // The combinations CI tests (Go versions × systems × build tags): a change must pass on each.
    if (ciTest?.matrix) {
      // The three keys with the fewest values: the versions and systems, not a list of every target triple.
      const axes = Object.entries(ciTest.matrix).sort((a, b) => a[1].length - b[1].length).slice(0, 3).map((
        [key, values],
      ) => `${key} ${nameList(values.map((v) => (v === '' ? '""' : v)), 120)}`);
      notes.push(
        ciTest.configurations
          ? `- CI runs the tests in ${ciTest.configurations} configurations, over ${axes.join('; ')} (${ciTest.source})`
          : `- CI runs the tests on every combination of ${axes.join(' × ')} (${ciTest.source})`,
      );
    }
    // A coverage floor CI enforces (`--fail-under=100`): new code needs tests to keep it.
    const floor = coverageFloor(scripts);
    if (floor) {
      notes.push(
        `- Coverage must stay at ${floor.percent} %${
          floor.percent < 100 ? ' or more' : ''
        }: \`${floor.command}\` fails below it (${floor.source})`,
      );
    }
    return { list: out, notes, before, checks, ciTest };
  }
}

/**
 * Sentences in their order, within `max` characters: when they do not all fit, the least needed go
 * first (a higher rank), so the commands an agent runs outlast the stack a reader can see in the details.
 */
function summaryWithin(max: number, parts: [text: string, rank: number][]): string {
  const kept = parts.map(([t, rank]) => [t.replace(/\s+/g, ' ').trim(), rank] as const).filter(([t]) => t);
  const text = () => kept.map(([t]) => t).join(' ');
  while (text().length > max && kept.length > 1) {
    const worst = kept.reduce((w, p, i) => (p[1] >= kept[w][1] ? i : w), 0);
    kept.splice(worst, 1);
  }
  return text();
}

/** `Package@swift-5.10.swift` after `Package@swift-5.9.swift`: by the numbers in the names. */
/** Dotted versions compared by their numbers (`6.0` before `6.3`). */
function compareVersions(a: string, b: string): number {
  const [x, y] = [a, b].map((s) => s.split('.').map(Number));
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  }
  return 0;
}

/** The first version floor the product manifests (then the root ones) declare, with its line. */
async function versionFloor(
  ctx: AnalysisContext,
  manifests: string[],
  primary: Family | undefined,
): Promise<{ text: string; source: string } | undefined> {
  // The primary language's manifests first: a Python project may have a package.json for its tooling.
  const own = primary && primaryManifest(primary);
  const ordered = [
    ...new Set([...manifests, 'go.mod', 'pyproject.toml', 'Cargo.toml', 'Package.swift', 'package.json']),
  ].sort((a, b) => Number(!!own?.test(b)) - Number(!!own?.test(a)));
  for (const m of ordered) {
    // A Swift toolchain reads the newest `Package@swift-X.swift` it supports, else Package.swift: the oldest that can
    // build is the lowest tools version of them all (a Package.swift at 5.1 beside a 5.9 variant builds
    // on 5.1), and the language mode is Package.swift's: one manifest's version alone would mislead.
    if (/(^|\/)Package\.swift$/.test(m) && ctx.has(m)) {
      const swift = await swiftFloor(ctx, m);
      if (swift) return swift;
      continue;
    }
    const floor = VERSION_PINS.find((f) => f.manifest.test(m));
    if (!floor || !ctx.has(m)) continue;
    const text = await ctx.read(m);
    const hit = text === undefined ? null : floor.pattern.exec(text);
    if (!hit || text === undefined) continue;
    return {
      text: floor.say.replace('{v}', hit[1]),
      source: `${m}:${text.slice(0, hit.index + hit[0].indexOf(hit[1])).split('\n').length}`,
    };
  }
  return undefined;
}

/** The oldest Swift tools version of a package's manifests (Package.swift and its `Package@swift-X.swift` variants), with the language mode. */
async function swiftFloor(
  ctx: AnalysisContext,
  manifest: string,
): Promise<{ text: string; source: string } | undefined> {
  const dir = manifest.slice(0, manifest.lastIndexOf('/') + 1);
  const all = [
    manifest,
    ...ctx.listing.filter((f) => f.startsWith(dir) && /^Package@swift-[\d.]+\.swift$/.test(f.slice(dir.length))),
  ];
  const versions: { file: string; version: string; line: number }[] = [];
  for (const f of all) {
    const text = (await ctx.read(f)) ?? '';
    const m = /swift-tools-version:[ \t]*([\d.]+)/.exec(text);
    if (m) versions.push({ file: f, version: m[1], line: text.slice(0, m.index).split('\n').length });
  }
  if (!versions.length) return undefined;
  const sorted = [...versions].sort((a, b) => compareVersions(a.version, b.version));
  const [oldest, newest] = [sorted[0], sorted[sorted.length - 1]];
  const name = (f: string) => f.slice(f.lastIndexOf('/') + 1);
  const mode = [...((await ctx.read(manifest)) ?? '').matchAll(/swiftLanguage(?:Modes|Versions)\s*:\s*\[([^\]]*)\]/g)]
    .flatMap((m) => [...m[1].matchAll(/\.v(\d+)/g)].map((x) => Number(x[1])));
  // What a current toolchain reads, and how far back the others go (reviewers took either for "the" version).
  const older = oldest !== newest ? `, down to ${oldest.version} for older toolchains (${name(oldest.file)})` : '';
  return {
    text: `swift-tools-version ${newest.version} (${name(newest.file)})${older}${
      mode.length ? `; Swift ${Math.max(...mode)} language mode` : ''
    }`,
    source: `${newest.file}:${newest.line}`,
  };
}

/**
 * `manifest:line` for the line that shows a fact: the first line `find` matches, else the first line
 * of code (past a licence header, comments and lone brackets); line 1 when the file cannot be read.
 * Reviewers rejected sources that cite a copyright line.
 */
async function manifestLine(ctx: AnalysisContext, manifest: string, find?: RegExp): Promise<string> {
  const lines = (await ctx.read(manifest))?.split('\n') ?? [];
  // The lines inside a block comment (a licence in `<!-- … -->` or `/* … */`, atop a pom.xml) are not code either.
  const inComment: boolean[] = [];
  let open: string | undefined;
  for (const l of lines) {
    const t = l.trim();
    const starts = open ?? (t.startsWith('<!--') ? '-->' : t.startsWith('/*') ? '*/' : undefined);
    inComment.push(!!starts);
    open = starts && !t.slice(open ? 0 : 2).includes(starts) ? starts : undefined;
  }
  const code = (line: string, i: number) => {
    const t = line.trim();
    return t !== '' && !inComment[i] && !/^(\/\/|#(?!\w)|\/\*|\*|<!--|<\?xml)/.test(t) && !/^[{}[\]()]+,?$/.test(t);
  };
  const at = find ? lines.findIndex((l, i) => code(l, i) && find.test(l)) : -1;
  const first = at >= 0 ? at : lines.findIndex(code);
  return `${manifest}:${first >= 0 ? first + 1 : 1}`;
}

/** A target's own name as a manifest writes it: whole (`"@scope/server"`) or its last part, quoted, after a colon (`include(":core")`) or as an element's text. */
function namedIn(name: string): RegExp {
  const last = name.split(/[/:]/).filter(Boolean).pop() ?? name;
  // Or as an XML element's text (`<artifactId>core</artifactId>`).
  return new RegExp(`["':>](?:${escapeRegExp(name)}|${escapeRegExp(last)})["'\\s,)<]`);
}

/** The oldest OS versions a Swift package supports (`platforms:` in Package.swift): what the code may call. */
function platformsLine(
  products: readonly { ecosystem: string; manifest: string; metadata: Record<string, unknown> }[],
): string[] {
  const t = products.find((p) =>
    p.ecosystem === 'swift' && Array.isArray(p.metadata.platforms) && (p.metadata.platforms as unknown[]).length
  );
  if (!t) return [];
  return [`- Platforms, oldest supported: ${(t.metadata.platforms as string[]).join(', ')} (${t.manifest})`];
}

/** The coverage floor a command of the project enforces (`coverage report --fail-under=100`, `--cov-fail-under 90`). */
function coverageFloor(
  commands: readonly ProjectCommand[],
): { percent: number; command: string; source: string } | undefined {
  for (const c of commands) {
    const m = /--(?:cov-)?fail-under[=\s]+(\d+(?:\.\d+)?)/.exec(c.text);
    if (m) {
      return {
        percent: Number(m[1]),
        command: c.origin === 'script' ? c.source.replace(/:\d+$/, '') : c.command,
        source: c.source,
      };
    }
  }
  return undefined;
}
