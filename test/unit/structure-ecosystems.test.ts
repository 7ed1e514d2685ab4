import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { filesOf, structureEdges } from '../../src/core/domains/structure';
import { discoverStructure } from '../../src/core/domains/structure';
import { walkWorkspace } from '../../src/core/ground/files';
import { tempTree } from './files-helpers';
import { assertEvidence, discoverFixture, ECOSYSTEM_FIXTURES, internalEdges, target } from './structure-helpers';

const root = (name: string) => path.join(ECOSYSTEM_FIXTURES, name);

test('npm workspaces: members from the globs, not the sample package; internal dependencies with their manifest lines', async () => {
  const s = await discoverFixture('npm-workspaces');
  assert.deepEqual(s.targets.map((t) => t.name).sort(), ['@acme/core', '@acme/utils', '@acme/web']);
  assert.deepEqual(s.ecosystems, { npm: 3 });
  assert.deepEqual(internalEdges(s), [
    '@acme/utils -> @acme/core',
    '@acme/web -> @acme/core',
    '@acme/web -> @acme/utils',
  ]);
  const web = target(s, '@acme/web');
  assert.equal(web.kind, 'app');
  assert.equal(web.dir, 'apps/web');
  const dev = web.dependencies.find((d) => d.name === '@acme/core')!;
  assert.equal(dev.scope, 'dev');
  assertEvidence(root('npm-workspaces'), dev.evidence, '"@acme/core"');
  assert.equal(
    web.dependencies.find((d) => d.name === 'react')?.target,
    undefined,
    'an external package is not a target',
  );
  assert.equal(target(s, '@acme/core').metadata.main, 'src/index.js');
});

test('npm workspaces: a target owns its folder; the workspace edges weigh dev dependencies less', async () => {
  const s = await discoverFixture('npm-workspaces');
  const listing = await walkWorkspace(root('npm-workspaces'));
  assert.deepEqual(filesOf(target(s, '@acme/utils'), s.targets, listing.files), [
    'packages/utils/package.json',
    'packages/utils/src/index.js',
  ]);
  const edges = structureEdges(s.targets);
  assert.equal(edges.find((e) => e.from === 'target:@acme/web' && e.to === 'target:@acme/core')?.weight, 0.5);
  assert.equal(edges.find((e) => e.from === 'target:@acme/web' && e.to === 'target:@acme/utils')?.weight, 1);
  // A dev dependency is a development edge (kept out of the product's rankings and cycles).
  assert.equal(
    edges.find((e) => e.from === 'target:@acme/web' && e.to === 'target:@acme/core')?.relation,
    'dev_depends_on',
  );
  assert.ok(edges.filter((e) => e.weight === 1).every((e) => e.relation === 'depends_on'));
});

test('pnpm: pnpm-workspace.yaml globs with an exclusion, workspace: protocol, bin makes an app', async () => {
  const s = await discoverFixture('pnpm');
  assert.deepEqual(
    s.targets.map((t) => t.name).sort(),
    ['@p/api', '@p/db'],
    'packages/legacy is excluded by "!packages/legacy"',
  );
  assert.deepEqual(s.ecosystems, { pnpm: 2 });
  assert.deepEqual(internalEdges(s), ['@p/api -> @p/db']);
  assert.equal(target(s, '@p/api').kind, 'app');
  assertEvidence(root('pnpm'), target(s, '@p/api').dependencies.find((d) => d.target)?.evidence, '"@p/db"');
});

test('yarn: workspaces.packages form, yarn.lock names the manager, peer dependencies count', async () => {
  const s = await discoverFixture('yarn');
  assert.deepEqual(s.ecosystems, { yarn: 2 });
  assert.deepEqual(internalEdges(s), ['lib-b -> lib-a']);
  assert.equal(target(s, 'lib-b').dependencies[0].scope, 'peer');
});

test('TypeScript project references: referenced projects are targets, the solution file is not', async () => {
  const s = await discoverFixture('tsconfig-references');
  assert.deepEqual(s.targets.map((t) => t.name).sort(), ['app', 'core']);
  assert.deepEqual(internalEdges(s), ['app -> core']);
  const app = target(s, 'app');
  assert.equal(app.ecosystem, 'typescript');
  assert.equal(app.metadata.composite, true);
  assertEvidence(root('tsconfig-references'), app.dependencies[0].evidence, '../core');
});

test("Swift packages: every target kind, string/.target/.product dependencies, a local package product, test targets' dependencies in test scope", async () => {
  const s = await discoverFixture('swift');
  assert.deepEqual(s.targets.map((t) => `${t.name}:${t.kind}`).sort(), [
    'App:app',
    'AppTests:test',
    'Core:library',
    'DesignSystem:library',
    'Networking:library',
  ]);
  assert.deepEqual(internalEdges(s), [
    'App -> DesignSystem',
    'App -> Networking',
    'AppTests -> App',
    'Networking -> Core',
  ]);
  const networking = target(s, 'Networking');
  assert.equal(networking.dir, 'Sources/Networking');
  assert.deepEqual(networking.dependencies.map((d) => d.name), ['Core', 'swift-log/Logging']);
  assertEvidence(root('swift'), networking.dependencies[0].evidence, '"Core"');
  assertEvidence(root('swift'), networking.dependencies[1].evidence, 'swift-log');
  assert.equal(target(s, 'AppTests').dir, 'Tests/AppTests');
  assert.deepEqual(
    target(s, 'AppTests').dependencies.map((d) => `${d.target}:${d.scope}`),
    ['App:test'],
    "a test target's dependencies are test dependencies",
  );
  assert.equal(target(s, 'App').dependencies.find((d) => d.target === 'Networking')?.scope, 'prod');
  assert.deepEqual(target(s, 'Core').metadata.platforms, ['iOS 16', 'macOS 13']);
  assert.equal(target(s, 'DesignSystem').dir, 'Packages/DesignSystem/Sources/DesignSystem');
  const listing = await walkWorkspace(root('swift'));
  assert.deepEqual(filesOf(target(s, 'App'), s.targets, listing.files), ['Sources/App/main.swift']);
});

test('Cargo workspace: member globs, path dependencies, bin/lib kinds (a proc-macro crate is a library, as Cargo says), TOML line evidence', async () => {
  const s = await discoverFixture('cargo');
  assert.deepEqual(s.targets.map((t) => `${t.name}:${t.kind}`).sort(), [
    'shop-cli:app',
    'shop-core:library',
    'shop-macros:library',
  ]);
  assert.deepEqual(internalEdges(s), ['shop-cli -> shop-core', 'shop-cli -> shop-macros']);
  const cli = target(s, 'shop-cli');
  assert.equal(cli.dependencies.find((d) => d.name === 'shop-macros')?.scope, 'dev');
  assertEvidence(root('cargo'), cli.dependencies.find((d) => d.name === 'clap')?.evidence, 'clap');
  assert.deepEqual(cli.metadata.binaries, ['shop']);
});

test('Go: go.work modules, a require resolved through replace, indirect requires are optional', async () => {
  const s = await discoverFixture('go');
  assert.deepEqual(s.targets.map((t) => t.name).sort(), ['example.com/shop/api', 'example.com/shop/lib']);
  assert.deepEqual(internalEdges(s), ['example.com/shop/api -> example.com/shop/lib']);
  const api = target(s, 'example.com/shop/api');
  assert.equal(api.metadata.workspace, 'go.work');
  assert.equal(api.dependencies.find((d) => d.name === 'golang.org/x/text')?.scope, 'optional');
  assertEvidence(root('go'), api.dependencies.find((d) => d.target)?.evidence, 'example.com/shop/lib');
});

test('Python: PEP 621, uv workspace sources and Poetry path dependencies; the nameless root is not a target', async () => {
  const s = await discoverFixture('python');
  assert.deepEqual(s.targets.map((t) => `${t.name}:${t.kind}`).sort(), [
    'acme-core:library',
    'acme-legacy:library',
    'acme-service:app',
  ]);
  assert.deepEqual(internalEdges(s), ['acme-legacy -> acme-core', 'acme-service -> acme-core']);
  const service = target(s, 'acme-service');
  assertEvidence(root('python'), service.dependencies.find((d) => d.target)?.evidence, 'acme_core');
  assert.equal(service.dependencies.find((d) => d.name === 'pytest')?.scope, 'optional');
  assert.equal(target(s, 'acme-core').metadata.package, 'packages/core/src/acme_core');
  assert.equal(target(s, 'acme-legacy').metadata.description, 'Old code,\nkept for reference.');
});

test('Gradle: settings includes over several lines, project(":x") and type-safe projects.x accessors', async () => {
  const s = await discoverFixture('gradle');
  assert.deepEqual(s.targets.map((t) => `${t.name}:${t.kind}:${t.language}`).sort(), [
    ':app:app:kotlin',
    ':core:data:library:kotlin',
    ':core:model:library:java',
  ]);
  assert.deepEqual(internalEdges(s), [':app -> :core:data', ':core:data -> :core:model']);
  const app = target(s, ':app');
  assert.equal(app.dir, 'app');
  assert.equal(app.dependencies.find((d) => d.name === 'junit:junit')?.scope, 'test');
  assertEvidence(root('gradle'), app.dependencies.find((d) => d.target)?.evidence, 'project(":core:data")');
  assertEvidence(
    root('gradle'),
    target(s, ':core:data').dependencies.find((d) => d.target)?.evidence,
    'projects.core.model',
  );
  assert.equal(target(s, ':core:model').dir, 'core/model');
});

test('Gradle: an app applied through a convention plugin (`alias(libs.plugins.<project>.android.application)`) is an app', async () => {
  const root = tempTree({
    'settings.gradle.kts': 'rootProject.name = "nia"\ninclude(":app")\ninclude(":core:data")\n',
    'app/build.gradle.kts':
      'plugins {\n    alias(libs.plugins.nowinandroid.android.application)\n    alias(libs.plugins.nowinandroid.android.application.compose)\n}\n',
    'app/src/main/kotlin/com/example/nia/MainActivity.kt': 'package com.example.nia\n\nclass MainActivity\n',
    'core/data/build.gradle.kts': 'plugins {\n    alias(libs.plugins.nowinandroid.android.library)\n}\n',
    'core/data/src/main/kotlin/com/example/nia/data/Repo.kt': 'package com.example.nia.data\n\nclass Repo\n',
  });
  const s = await discoverStructure(root, (await walkWorkspace(root)).files);
  assert.equal(target(s, ':app').kind, 'app');
  assert.equal(target(s, ':core:data').kind, 'library');
});

test('Gradle: an Android test project (a :benchmarks project, android.test convention plugin) is a test that instruments the app it names; support code only tests use is a test project', async () => {
  const root = tempTree({
    'settings.gradle.kts':
      'rootProject.name = "nia"\ninclude(":app")\ninclude(":benchmarks")\ninclude(":core:testing")\ninclude(":core:screenshot-testing")\ninclude(":ui-test-hilt-manifest")\ninclude(":core:data")\n',
    'app/build.gradle.kts': 'plugins {\n    alias(libs.plugins.nowinandroid.android.application)\n}\n',
    'benchmarks/build.gradle.kts':
      'plugins {\n    alias(libs.plugins.baselineprofile)\n    alias(libs.plugins.nowinandroid.android.test)\n}\n\nandroid {\n    namespace = "com.example.nia.benchmarks"\n    targetProjectPath = ":app"\n}\n',
    'benchmarks/src/main/kotlin/com/example/nia/StartupBenchmark.kt':
      'package com.example.nia\n\nclass StartupBenchmark\n',
    'core/testing/build.gradle.kts':
      'plugins {\n    alias(libs.plugins.nowinandroid.android.library)\n}\ndependencies {\n    api(projects.core.data)\n}\n',
    'core/testing/src/main/kotlin/com/example/nia/testing/TestDispatcherRule.kt':
      'package com.example.nia.testing\n\nclass TestDispatcherRule\n',
    'core/screenshot-testing/build.gradle.kts': 'plugins {\n    alias(libs.plugins.nowinandroid.android.library)\n}\n',
    'ui-test-hilt-manifest/build.gradle.kts': 'plugins {\n    alias(libs.plugins.nowinandroid.android.library)\n}\n',
    'core/data/build.gradle.kts':
      'plugins {\n    alias(libs.plugins.nowinandroid.android.library)\n}\ndependencies {\n    testImplementation(projects.core.testing)\n}\n',
  });
  const s = await discoverStructure(root, (await walkWorkspace(root)).files);
  assert.deepEqual(
    s.targets.map((t) => `${t.name}:${t.kind}`).sort(),
    [
      ':app:app',
      ':benchmarks:test',
      ':core:data:library',
      ':core:screenshot-testing:test',
      ':core:testing:test',
      ':ui-test-hilt-manifest:test',
    ],
  );
  const app = target(s, ':benchmarks').dependencies.find((d) => d.target === ':app');
  assert.equal(app?.scope, 'test');
  assert.equal(app?.evidence, 'benchmarks/build.gradle.kts:8');
});

test("Gradle, Kotlin multiplatform: `commonTest.dependencies {}` is test scope; a published test library (named in buildSrc's publicModules) stays a library; a BOM constrains the published projects it loops over; targetProjectPath with a property's default; a baseline-profile producer; buildSrc by its folder's name", async () => {
  const root = tempTree({
    'settings.gradle.kts':
      'rootProject.name = "coil-root"\ninclude(":coil-core")\ninclude(":coil-test")\ninclude(":coil-bom")\ninclude(":internal:benchmark")\ninclude(":internal:test-roborazzi")\ninclude(":samples:compose-android")\n',
    'buildSrc/settings.gradle.kts': 'rootProject.name = "coil"\n',
    'buildSrc/build.gradle.kts': 'plugins {\n    `kotlin-dsl`\n}\n',
    'buildSrc/src/main/kotlin/coil3/utils.kt':
      'package coil3\n\nval publicModules = setOf(\n    "coil-core",\n    "coil-test",\n)\n',
    'coil-core/build.gradle.kts':
      'plugins {\n    id("kotlin-multiplatform")\n}\n\nbaselineProfile {\n    variants {\n        create("androidMain") {\n            from(project(":internal:benchmark"))\n        }\n    }\n}\n',
    'coil-test/build.gradle.kts':
      'plugins {\n    id("kotlin-multiplatform")\n}\nkotlin {\n    sourceSets {\n        commonMain {\n            dependencies {\n                api(projects.coilCore)\n            }\n        }\n    }\n}\n',
    'coil-bom/build.gradle.kts':
      'import coil3.publicModules\n\nplugins {\n    id("java-platform")\n}\n\ndependencies {\n    constraints {\n        for (subproject in rootProject.subprojects) {\n            if (subproject.name in publicModules) {\n                api(subproject)\n            }\n        }\n    }\n}\n',
    'internal/benchmark/build.gradle.kts':
      'plugins {\n    id("com.android.test")\n}\n\nandroid {\n    val targetProject = System.getProperty("project", "compose-android")\n    targetProjectPath = ":samples:$targetProject"\n}\n',
    'internal/test-roborazzi/build.gradle.kts':
      'plugins {\n    id("kotlin-multiplatform")\n}\nkotlin {\n    sourceSets {\n        commonTest.dependencies {\n            implementation(projects.coilCore)\n            implementation(projects.coilTest)\n        }\n    }\n}\n',
    'samples/compose-android/build.gradle.kts': 'plugins {\n    id("com.android.application")\n}\n',
  });
  const s = await discoverStructure(root, (await walkWorkspace(root)).files);
  assert.equal(target(s, ':coil-test').kind, 'library', "published for other people's tests");
  assert.equal(target(s, 'buildSrc').kind, 'plugin');
  assert.deepEqual(internalEdges(s), [
    ':coil-bom -> :coil-core',
    ':coil-bom -> :coil-test',
    ':coil-bom -> buildSrc',
    ':coil-core -> :internal:benchmark',
    ':coil-core -> buildSrc',
    ':coil-test -> :coil-core',
    ':coil-test -> buildSrc',
    ':internal:benchmark -> :samples:compose-android',
    ':internal:benchmark -> buildSrc',
    ':internal:test-roborazzi -> :coil-core',
    ':internal:test-roborazzi -> :coil-test',
    ':internal:test-roborazzi -> buildSrc',
    ':samples:compose-android -> buildSrc',
  ]);
  const scope = (from: string, to: string) => target(s, from).dependencies.find((d) => d.target === to)?.scope;
  assert.equal(scope(':internal:test-roborazzi', ':coil-core'), 'test');
  assert.equal(scope(':coil-core', ':internal:benchmark'), 'build');
  assert.equal(scope(':internal:benchmark', ':samples:compose-android'), 'test');
  assert.equal(scope(':coil-bom', ':coil-test'), 'prod');
});

test('npm: a private workspace package nothing depends on that neither runs nor installs a command is a test or benchmark harness; a private site is still an app', async () => {
  const root = tempTree({
    'package.json': JSON.stringify({ name: 'zod-root', private: true }),
    'pnpm-workspace.yaml': 'packages:\n  - packages/*\n',
    'packages/zod/package.json': JSON.stringify({ name: 'zod', main: './index.cjs' }),
    'packages/resolution/package.json': JSON.stringify({
      name: '@zod/resolution',
      private: true,
      main: './dist/index.cjs',
      scripts: { 'test:all': 'vitest run' },
      dependencies: { zod: 'workspace:*' },
    }),
    'packages/bench/package.json': JSON.stringify({
      name: '@zod/benchmarks',
      private: true,
      scripts: { bench: 'tsx index.ts' },
      devDependencies: { zod: 'workspace:*' },
    }),
    'packages/docs/package.json': JSON.stringify({
      name: '@zod/docs',
      private: true,
      scripts: { dev: 'next dev' },
      dependencies: { next: '15', zod: 'workspace:*', '@zod/shared': 'workspace:*' },
    }),
    'packages/shared/package.json': JSON.stringify({ name: '@zod/shared', private: true, main: 'index.js' }),
  });
  const s = await discoverStructure(root, (await walkWorkspace(root)).files);
  assert.deepEqual(s.targets.map((t) => `${t.name}:${t.kind}`).sort(), [
    '@zod/benchmarks:test',
    '@zod/docs:app',
    '@zod/resolution:test',
    '@zod/shared:library',
    'zod:library',
  ], 'a private package the site depends on is its library');
});

test("npm: a package with its own lockfile outside the workspaces is a project of its own (a Docusaurus site), JavaScript by its files, its registry dependency not a local edge; a root manifest with nothing to import is the project's scripts (release tooling)", async () => {
  const root = tempTree({
    'package.json': JSON.stringify({ name: 'board-monorepo', private: true, workspaces: ['packages/*'] }),
    'packages/board/package.json': JSON.stringify({ name: '@board/board', version: '0.18.0', main: 'index.js' }),
    'packages/board/index.js': 'module.exports = {};\n',
    'dev-docs/package.json': JSON.stringify({
      name: 'docs',
      private: true,
      dependencies: { '@docusaurus/core': '2.2.0', '@board/board': '0.18.0' },
    }),
    'dev-docs/yarn.lock': '# yarn lockfile v1\n',
    'dev-docs/tsconfig.json': '{ "extends": "@tsconfig/docusaurus/tsconfig.json" }\n',
    'dev-docs/docusaurus.config.js': 'module.exports = {};\n',
    'dev-docs/sidebars.js': 'module.exports = {};\n',
    'dev-docs/src/pages/index.js': 'export default function Home() {}\n',
    'dev-docs/src/theme/Root.tsx': 'export default function Root() {}\n',
  });
  const s = await discoverStructure(root, (await walkWorkspace(root)).files);
  const docs = target(s, 'docs');
  assert.equal(`${docs.dir}:${docs.kind}:${docs.language}`, 'dev-docs:app:javascript');
  assert.equal(
    docs.dependencies.find((d) => d.name === '@board/board')?.target,
    undefined,
    'outside the workspace, 0.18.0 comes from the registry',
  );

  const release = tempTree({
    'package.json': JSON.stringify({
      name: 'shop',
      version: '3.24.0',
      devDependencies: { 'release-it': '^19.0.4' },
      scripts: { release: 'release-it' },
    }),
    'pyproject.toml': '[project]\nname = "shop"\nversion = "3.24.0"\n',
    'manage.py': 'import django\n',
  });
  const r = await discoverStructure(release, (await walkWorkspace(release)).files);
  assert.equal(r.targets.find((t) => t.ecosystem === 'npm')?.kind, 'app');
  const lib = tempTree({ 'package.json': JSON.stringify({ name: 'tiny' }), 'index.js': 'module.exports = 1;\n' });
  assert.equal(
    (await discoverStructure(lib, (await walkWorkspace(lib)).files)).targets[0].kind,
    'library',
    'an index.js is an entry point',
  );
});

test('Python and Maven: example programs with their own pyproject are apps that depend on the library (by normalised name); a typed library keeps its CLI; Maven test modules by a word in the artifactId or by a test-module property', async () => {
  const root = tempTree({
    'pyproject.toml':
      '[project]\nname = "Flask"\nversion = "3.2"\nclassifiers = [\n    "Topic :: Software Development :: Libraries :: Application Frameworks",\n    "Typing :: Typed",\n]\n\n[project.scripts]\nflask = "flask.cli:main"\n',
    'src/flask/__init__.py': '',
    'examples/tutorial/pyproject.toml':
      '[project]\nname = "flaskr"\nversion = "1.0"\ndependencies = [\n    "flask",\n]\n',
    'examples/tutorial/flaskr/__init__.py': '',
    'pom.xml':
      '<project><modelVersion>4.0.0</modelVersion><groupId>com.google.code.gson</groupId><artifactId>gson-parent</artifactId><version>2.14</version><packaging>pom</packaging><modules><module>gson</module><module>metrics</module><module>test-jpms</module></modules></project>\n',
    'gson/pom.xml':
      '<project><parent><groupId>com.google.code.gson</groupId><artifactId>gson-parent</artifactId><version>2.14</version></parent><artifactId>gson</artifactId></project>\n',
    'metrics/pom.xml':
      '<project><parent><groupId>com.google.code.gson</groupId><artifactId>gson-parent</artifactId><version>2.14</version></parent><artifactId>gson-metrics</artifactId><properties>\n    <gson.isTestModule>true</gson.isTestModule>\n  </properties><dependencies><dependency><groupId>com.google.code.gson</groupId><artifactId>gson</artifactId><version>${project.parent.version}</version></dependency></dependencies></project>\n',
    'test-jpms/pom.xml':
      '<project><parent><groupId>com.google.code.gson</groupId><artifactId>gson-parent</artifactId><version>2.14</version></parent><artifactId>test-jpms</artifactId></project>\n',
  });
  const s = await discoverStructure(root, (await walkWorkspace(root)).files);
  assert.deepEqual(s.targets.map((t) => `${t.name}:${t.kind}`).sort(), [
    'Flask:library',
    'flaskr:app',
    'gson-metrics:test',
    'gson:library',
    'test-jpms:test',
  ]);
  assert.deepEqual(internalEdges(s), ['flaskr -> Flask', 'gson-metrics -> gson']);
});

test('Maven: aggregator modules (a commented-out module ignored), ${project.groupId} sibling dependency, war is an app', async () => {
  const s = await discoverFixture('maven');
  assert.deepEqual(s.targets.map((t) => `${t.name}:${t.kind}`).sort(), ['core:library', 'web:app']);
  assert.deepEqual(internalEdges(s), ['web -> core']);
  const web = target(s, 'web');
  assert.equal(web.metadata.groupId, 'com.acme');
  assert.equal(web.dependencies.find((d) => d.name === 'junit:junit')?.scope, 'test');
  assertEvidence(root('maven'), web.dependencies.find((d) => d.target)?.evidence, '<dependency>');
  assert.deepEqual(s.problems, []);
});

test('every fixture: one ecosystem each, no manifest problems', async () => {
  for (const name of [
    'npm-workspaces',
    'pnpm',
    'yarn',
    'tsconfig-references',
    'swift',
    'cargo',
    'go',
    'python',
    'gradle',
    'maven',
  ]) {
    const s = await discoverFixture(name);
    assert.equal(Object.keys(s.ecosystems).length, 1, `${name}: ${JSON.stringify(s.ecosystems)}`);
    assert.deepEqual(s.problems, [], name);
    assert.ok(structureEdges(s.targets).length >= 1, `${name} has dependency edges`);
  }
});

test('what an application is, read from the applications of the evaluation: a private package shipped to browsers (browserslist), TypeScript by its own files; a Go module of commands over internal/; a dummy Go module is a test fixture; a Django project', async () => {
  const root = tempTree({
    'package.json': JSON.stringify({ name: 'board', private: true, workspaces: ['board-app', 'packages/*'] }),
    'board-app/package.json': JSON.stringify({
      name: 'board-app',
      private: true,
      browserslist: { production: ['>0.2%'] },
      dependencies: { react: '19' },
    }),
    'board-app/App.tsx': 'export const App = () => null;\n',
    'packages/common/package.json': JSON.stringify({ name: '@board/common', main: 'index.js' }),
    'packages/common/index.js': 'module.exports = {};\n',
    'go.mod': 'module example.com/photos\n\ngo 1.22\n',
    'cmd/photos/main.go': 'package main\n\nfunc main() {}\n',
    'internal/api/api.go': 'package api\n\nfunc Serve() {}\n',
    'internal/entity/photo.go': 'package entity\n\ntype Photo struct{}\n',
    'pkg/fs/fs.go': 'package fs\n\nfunc Exists() bool { return true }\n',
    'docker/dummy/oidc/go.mod': 'module caos-test-op\n\ngo 1.22\n',
    'docker/dummy/oidc/main.go': 'package main\n\nfunc main() {}\n',
    'shop/pyproject.toml': '[project]\nname = "shop"\nversion = "1.0"\n',
    'shop/manage.py': 'import django\n',
  });
  const s = await discoverStructure(root, (await walkWorkspace(root)).files);
  assert.deepEqual(
    s.targets.map((t) => `${t.name}:${t.kind}:${t.language}`).sort(),
    [
      '@board/common:library:javascript',
      'board-app:app:typescript',
      'caos-test-op:test:go',
      'example.com/photos:app:go',
      'shop:app:python',
    ],
  );
});

test('Gradle: a convention plugin that adds project dependencies adds them to every project that applies it, by catalog alias or id, through the plugins it applies (a feature.impl plugin adds :core:ui and :core:designsystem)', async () => {
  const root = tempTree({
    'settings.gradle.kts':
      'pluginManagement {\n    includeBuild("build-logic")\n}\nrootProject.name = "nia"\ninclude(":core:ui")\ninclude(":core:designsystem")\ninclude(":core:navigation")\ninclude(":feature:foryou:impl")\ninclude(":feature:foryou:api")\n',
    'gradle/libs.versions.toml':
      '[plugins]\nnia-feature-impl = { id = "nia.feature.impl" }\nnia-feature-api = { id = "nia.feature.api" }\nnia-library = { id = "nia.library" }\n',
    'build-logic/convention/build.gradle.kts':
      'plugins {\n    `kotlin-dsl`\n}\ngradlePlugin {\n    plugins {\n        register("featureImpl") {\n            id = libs.plugins.nia.feature.impl.get().pluginId\n            implementationClass = "FeatureImplConventionPlugin"\n        }\n        register("featureApi") {\n            id = "nia.feature.api"\n            implementationClass = "FeatureApiConventionPlugin"\n        }\n        register("library") {\n            id = libs.plugins.nia.library.get().pluginId\n            implementationClass = "LibraryConventionPlugin"\n        }\n    }\n}\n',
    'build-logic/convention/src/main/kotlin/FeatureImplConventionPlugin.kt':
      'class FeatureImplConventionPlugin : Plugin<Project> {\n    override fun apply(target: Project) {\n        with(target) {\n            apply(plugin = "nia.library")\n            dependencies {\n                "implementation"(project(":core:ui"))\n                "implementation"(libs.findLibrary("androidx.tracing").get())\n            }\n        }\n    }\n}\n',
    'build-logic/convention/src/main/kotlin/FeatureApiConventionPlugin.kt':
      'class FeatureApiConventionPlugin : Plugin<Project> {\n    override fun apply(target: Project) {\n        dependencies {\n            "api"(project(":core:navigation"))\n        }\n    }\n}\n',
    'build-logic/convention/src/main/kotlin/LibraryConventionPlugin.kt':
      'class LibraryConventionPlugin : Plugin<Project> {\n    override fun apply(target: Project) {\n        dependencies {\n            "implementation"(project(":core:designsystem"))\n        }\n    }\n}\n',
    'core/ui/build.gradle.kts': 'plugins {\n    id("com.android.library")\n}\n',
    'core/designsystem/build.gradle.kts': 'plugins {\n    id("com.android.library")\n}\n',
    'core/navigation/build.gradle.kts': 'plugins {\n    id("com.android.library")\n}\n',
    'feature/foryou/impl/build.gradle.kts':
      'plugins {\n    alias(libs.plugins.nia.feature.impl)\n}\ndependencies {\n    implementation(projects.feature.foryou.api)\n}\n',
    'feature/foryou/api/build.gradle.kts': 'plugins {\n    id("nia.feature.api")\n}\n',
  });
  const s = await discoverStructure(root, (await walkWorkspace(root)).files);
  assert.deepEqual(internalEdges(s).filter((e) => e.startsWith(':feature')), [
    ':feature:foryou:api -> :core:navigation',
    ':feature:foryou:impl -> :core:designsystem',
    ':feature:foryou:impl -> :core:ui',
    ':feature:foryou:impl -> :feature:foryou:api',
  ]);
  const ui = target(s, ':feature:foryou:impl').dependencies.find((d) => d.target === ':core:ui')!;
  assert.equal(ui.via, 'convention-plugin');
  assert.equal(ui.evidence, 'build-logic/convention/src/main/kotlin/FeatureImplConventionPlugin.kt:6');
});

test("Xcode: an application project's native targets (app, extension, test bundle) with the local package products they link and the targets they embed or test; beside a root Swift package, the Xcode target of a package target's name is the package's", async () => {
  const id = (n: number) => n.toString(16).toUpperCase().padStart(24, '0');
  const pbxproj = [
    '// !$*UTF8*$!',
    '{',
    '\tobjects = {',
    `\t\t${id(1)} /* Reader */ = {`,
    '\t\t\tisa = PBXNativeTarget;',
    `\t\t\tdependencies = (\n\t\t\t\t${id(5)} /* PBXTargetDependency */,\n\t\t\t);`,
    '\t\t\tname = Reader;',
    `\t\t\tpackageProductDependencies = (\n\t\t\t\t${id(7)} /* Account */,\n\t\t\t\t${id(8)} /* Sparkle */,\n\t\t\t);`,
    '\t\t\tproductType = "com.apple.product-type.application";',
    '\t\t};',
    `\t\t${id(2)} /* Reader Share Extension */ = {`,
    '\t\t\tisa = PBXNativeTarget;',
    '\t\t\tname = "Reader Share Extension";',
    '\t\t\tproductType = "com.apple.product-type.app-extension";',
    '\t\t};',
    `\t\t${id(3)} /* ReaderTests */ = {`,
    '\t\t\tisa = PBXNativeTarget;',
    `\t\t\tdependencies = (\n\t\t\t\t${id(6)} /* PBXTargetDependency */,\n\t\t\t);`,
    '\t\t\tname = ReaderTests;',
    '\t\t\tproductType = "com.apple.product-type.bundle.unit-test";',
    '\t\t};',
    `\t\t${id(5)} /* PBXTargetDependency */ = {\n\t\t\tisa = PBXTargetDependency;\n\t\t\ttarget = ${
      id(2)
    } /* Reader Share Extension */;\n\t\t};`,
    `\t\t${id(6)} /* PBXTargetDependency */ = {\n\t\t\tisa = PBXTargetDependency;\n\t\t\ttarget = ${
      id(1)
    } /* Reader */;\n\t\t};`,
    `\t\t${id(7)} /* Account */ = {isa = XCSwiftPackageProductDependency; productName = Account; };`,
    `\t\t${id(8)} /* Sparkle */ = {isa = XCSwiftPackageProductDependency; productName = Sparkle; };`,
    '\t};',
    '}',
  ].join('\n');
  const files = {
    'Reader.xcodeproj/project.pbxproj': pbxproj,
    'Reader/App.swift': 'import Account\n',
    'Modules/Account/Package.swift':
      '// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: "Account", targets: [.target(name: "Account")])\n',
    'Modules/Account/Sources/Account/Account.swift': 'public struct Account {}\n',
  };
  const app = tempTree(files);
  const s = await discoverStructure(app, (await walkWorkspace(app)).files);
  assert.deepEqual(s.targets.filter((t) => t.ecosystem === 'xcode').map((t) => `${t.name}:${t.kind}`), [
    'Reader:app',
    'Reader Share Extension:app',
    'ReaderTests:test',
  ]);
  assert.deepEqual(internalEdges(s), [
    'Reader -> Account',
    'Reader -> Reader Share Extension',
    'ReaderTests -> Reader',
  ]);
  assert.equal(target(s, 'ReaderTests').dependencies[0].scope, 'test');
  assert.equal(
    target(s, 'Reader').dependencies.find((d) => d.name === 'Sparkle')?.target,
    undefined,
    'an external package is not a target',
  );
  assert.match(target(s, 'Reader').dependencies[0].evidence ?? '', /^Reader\.xcodeproj\/project\.pbxproj:\d+$/);

  const library = {
    ...files,
    'Package.swift':
      '// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: "Reader", targets: [.target(name: "Reader", path: "Reader")])\n',
  };
  const libRoot = tempTree(library);
  const lib = await discoverStructure(libRoot, (await walkWorkspace(libRoot)).files);
  assert.deepEqual(lib.targets.map((t) => `${t.ecosystem}:${t.name}:${t.kind}`).sort(), [
    'swift:Account:library',
    'swift:Reader:library',
    'xcode:Reader Share Extension:app',
    'xcode:ReaderTests:test',
  ]);
  assert.deepEqual(internalEdges(lib), ['ReaderTests -> Reader'], 'the merged Xcode target is the package target');
});

test("Xcode beside a root Swift package: demo apps in their own project link the package's built framework, a test bundle compiles its own folder and some Objective-C it borrows; each target owns the folder of its Info.plist and of what it compiles", async () => {
  const id = (n: number) => n.toString(16).toUpperCase().padStart(24, '0');
  const object = (n: number, body: string) => `\t\t${id(n)} = {\n${body}\n\t\t};`;
  const project = (objects: string[]) => ['// !$*UTF8*$!', '{', '\tobjects = {', ...objects, '\t};', '}'].join('\n');
  const settings = (n: number, plist: string) =>
    object(
      n,
      `\t\t\tisa = XCBuildConfiguration;\n\t\t\tbuildSettings = {\n\t\t\t\tINFOPLIST_FILE = "${plist}";\n\t\t\t};\n\t\t\tname = Debug;`,
    );
  const root = tempTree({
    'Package.swift':
      '// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: "Kingfisher", targets: [.target(name: "Kingfisher", path: "Sources")])\n',
    'Sources/General/KF.swift': 'public enum KF {}\n',
    'Tests/KingfisherTests/ImageCacheTests.swift': 'import XCTest\n',
    'Tests/KingfisherTests/Info.plist': '<plist/>\n',
    'Tests/Dependency/Nocilla/LSStubRequest.m': '#import "LSStubRequest.h"\n',
    'Tests/Dependency/Nocilla/LSStubRequest.h': '@interface LSStubRequest\n@end\n',
    'Tests/Dependency/Nocilla/LSNocilla.h': '@interface LSNocilla\n@end\n',
    'Demo/Demo/Kingfisher-Demo/AppDelegate.swift': 'import Kingfisher\n',
    'Demo/Demo/Kingfisher-Demo/Info.plist': '<plist/>\n',
    'Kingfisher.xcodeproj/project.pbxproj': project([
      object(
        1,
        '\t\t\tisa = PBXNativeTarget;\n\t\t\tname = Kingfisher;\n\t\t\tproductType = "com.apple.product-type.framework";',
      ),
      object(
        2,
        `\t\t\tisa = PBXNativeTarget;\n\t\t\tbuildConfigurationList = ${id(3)};\n\t\t\tbuildPhases = (\n\t\t\t\t${
          id(5)
        },\n\t\t\t);\n\t\t\tname = KingfisherTests;\n\t\t\tproductType = "com.apple.product-type.bundle.unit-test";`,
      ),
      object(3, `\t\t\tisa = XCConfigurationList;\n\t\t\tbuildConfigurations = (\n\t\t\t\t${id(4)},\n\t\t\t);`),
      settings(4, 'Tests/KingfisherTests/Info.plist'),
      object(5, `\t\t\tisa = PBXSourcesBuildPhase;\n\t\t\tfiles = (\n\t\t\t\t${id(6)},\n\t\t\t\t${id(7)},\n\t\t\t);`),
      `\t\t${id(6)} = {isa = PBXBuildFile; fileRef = ${id(8)}; };`,
      `\t\t${id(7)} = {isa = PBXBuildFile; fileRef = ${id(9)}; };`,
      `\t\t${id(8)} = {isa = PBXFileReference; path = ImageCacheTests.swift; sourceTree = "<group>"; };`,
      `\t\t${
        id(9)
      } = {isa = PBXFileReference; path = Tests/Dependency/Nocilla/LSStubRequest.m; sourceTree = SOURCE_ROOT; };`,
      object(
        10,
        `\t\t\tisa = PBXGroup;\n\t\t\tchildren = (\n\t\t\t\t${
          id(8)
        },\n\t\t\t);\n\t\t\tpath = Tests/KingfisherTests;\n\t\t\tsourceTree = "<group>";`,
      ),
    ]),
    'Demo/Kingfisher-Demo.xcodeproj/project.pbxproj': project([
      object(
        1,
        `\t\t\tisa = PBXNativeTarget;\n\t\t\tbuildConfigurationList = ${id(3)};\n\t\t\tbuildPhases = (\n\t\t\t\t${
          id(5)
        },\n\t\t\t);\n\t\t\tname = "Kingfisher-Demo";\n\t\t\tproductType = "com.apple.product-type.application";`,
      ),
      object(3, `\t\t\tisa = XCConfigurationList;\n\t\t\tbuildConfigurations = (\n\t\t\t\t${id(4)},\n\t\t\t);`),
      settings(4, 'Demo/Kingfisher-Demo/Info.plist'),
      object(5, `\t\t\tisa = PBXFrameworksBuildPhase;\n\t\t\tfiles = (\n\t\t\t\t${id(6)},\n\t\t\t);`),
      `\t\t${id(6)} /* Kingfisher.framework in Frameworks */ = {isa = PBXBuildFile; fileRef = ${id(7)}; };`,
      `\t\t${
        id(7)
      } /* Kingfisher.framework */ = {isa = PBXFileReference; explicitFileType = wrapper.framework; path = Kingfisher.framework; sourceTree = BUILT_PRODUCTS_DIR; };`,
    ]),
  });
  const s = await discoverStructure(root, (await walkWorkspace(root)).files);
  assert.deepEqual(s.targets.map((t) => `${t.ecosystem}:${t.name}:${t.kind}:${t.language}`), [
    'swift:Kingfisher:library:swift',
    'xcode:Kingfisher-Demo:app:swift',
    'xcode:KingfisherTests:test:swift',
  ]);
  assert.deepEqual(internalEdges(s), ['Kingfisher-Demo -> Kingfisher']);
  assert.deepEqual(target(s, 'Kingfisher-Demo').extraDirs, ['Demo/Demo/Kingfisher-Demo']);
  assert.deepEqual(
    target(s, 'KingfisherTests').extraDirs,
    ['Tests/KingfisherTests', 'Tests'],
    "its Info.plist's folder, and the folder of all it compiles (its own tests and the borrowed Nocilla source)",
  );
});

test("Xcode: an example project links another project's framework through a reference proxy (an iOS Example → the library's iOS framework) or a stale build path, resolved to the framework target for its own platform (a macOS Example → the library's macOS framework)", async () => {
  const id = (n: number) => n.toString(16).toUpperCase().padStart(24, '0');
  const project = (objects: string[]) => ['// !$*UTF8*$!', '{', '\tobjects = {', ...objects, '\t};', '}'].join('\n');
  const configured = (n: number, sdk: string) => [
    `\t\t${id(n)} = {isa = XCConfigurationList; buildConfigurations = (${id(n + 1)}, ); };`,
    `\t\t${id(n + 1)} = {isa = XCBuildConfiguration; buildSettings = { SDKROOT = ${sdk}; }; name = Debug; };`,
  ];
  const framework = (n: number, name: string, sdk: string) => [
    `\t\t${id(n)} = {isa = PBXNativeTarget; buildConfigurationList = ${
      id(n + 1)
    }; name = "${name}"; productReference = ${id(n + 3)}; productType = "com.apple.product-type.framework"; };`,
    ...configured(n + 1, sdk),
    `\t\t${id(n + 3)} = {isa = PBXFileReference; path = Lib.framework; sourceTree = BUILT_PRODUCTS_DIR; };`,
  ];
  const app = (n: number, name: string, sdk: string, linked: number) => [
    `\t\t${id(n)} = {isa = PBXNativeTarget; buildConfigurationList = ${id(n + 1)}; buildPhases = (${
      id(n + 3)
    }, ); name = "${name}"; productType = "com.apple.product-type.application"; };`,
    ...configured(n + 1, sdk),
    `\t\t${id(n + 3)} = {isa = PBXFrameworksBuildPhase; files = (${id(n + 4)}, ); };`,
    `\t\t${id(n + 4)} = {isa = PBXBuildFile; fileRef = ${id(linked)}; };`,
  ];
  const root = tempTree({
    'Lib.xcodeproj/project.pbxproj': project([
      ...framework(0x10, 'Lib iOS', 'iphoneos'),
      ...framework(0x20, 'Lib macOS', 'macosx'),
    ]),
    'Lib/Lib.m': '#import "Lib.h"\n',
    'Example/Example.xcodeproj/project.pbxproj': project([
      ...app(0x30, 'iOS Example', 'iphoneos', 0x50),
      ...app(0x40, 'macOS Example', 'macosx', 0x60),
      `\t\t${id(0x50)} = {isa = PBXReferenceProxy; fileType = wrapper.framework; path = Lib.framework; remoteRef = ${
        id(0x51)
      }; sourceTree = BUILT_PRODUCTS_DIR; };`,
      `\t\t${id(0x51)} = {isa = PBXContainerItemProxy; proxyType = 2; remoteInfo = "Lib iOS"; };`,
      `\t\t${
        id(0x60)
      } = {isa = PBXFileReference; lastKnownFileType = wrapper.framework; name = Lib.framework; path = "../../Library/Developer/Xcode/DerivedData/Lib-abc/Build/Products/Debug-iphoneos/Lib.framework"; sourceTree = "<group>"; };`,
    ]),
    'Example/iOS Example/AppDelegate.m': '#import <Lib/Lib.h>\n',
  });
  const s = await discoverStructure(root, (await walkWorkspace(root)).files);
  assert.deepEqual(internalEdges(s), ['iOS Example -> Lib iOS', 'macOS Example -> Lib macOS']);
});

test("CocoaPods: a Podfile target installs the repository's own pod (`:path => './'`, directly or through a def) and so depends on the targets that hold its subspecs and theirs (demos and tests)", async () => {
  const id = (n: number) => n.toString(16).toUpperCase().padStart(24, '0');
  const pbxproj = [
    '// !$*UTF8*$!',
    '{',
    '\tobjects = {',
    `\t\t${id(1)} = {isa = PBXNativeTarget; name = "Demo iOS"; productType = "com.apple.product-type.application"; };`,
    `\t\t${
      id(2)
    } = {isa = PBXNativeTarget; name = "Demo Watch"; productType = "com.apple.product-type.watchkit2-extension"; };`,
    `\t\t${
      id(3)
    } = {isa = PBXNativeTarget; name = "Tests iOS"; productType = "com.apple.product-type.bundle.unit-test"; };`,
    '\t};',
    '}',
  ].join('\n');
  const root = tempTree({
    'Package.swift':
      '// swift-tools-version:5.3\nimport PackageDescription\nlet package = Package(name: "Img", targets: [.target(name: "Img", path: "Img"), .target(name: "ImgMapKit", dependencies: ["Img"], path: "ImgMapKit")])\n',
    'Img/Core/Img.m': '#import "Img.h"\n',
    'ImgMapKit/MapKit/MKAnnotationView+Img.m': '#import "Img.h"\n',
    'Img.podspec':
      "Pod::Spec.new do |s|\n  s.name = 'Img'\n  s.default_subspec = 'Core'\n\n  s.subspec 'Core' do |core|\n    core.source_files = 'Img/Core/*.{h,m}'\n  end\n\n  s.subspec 'MapKit' do |mk|\n    mk.source_files = 'ImgMapKit/MapKit/*.{h,m}'\n    mk.dependency 'Img/Core'\n  end\nend\n",
    'Podfile':
      "use_frameworks!\n\ndef example_pods\n  pod 'Img/MapKit', :path => './'\n  pod 'Other', :git => 'https://example.invalid/other.git'\nend\n\ntarget 'Demo iOS' do\n  project 'Examples/Demo'\n  example_pods\nend\n\ntarget 'Demo Watch' do\n  project 'Examples/Demo'\n  pod 'Img/Core', path: './'\nend\n\ntarget 'Tests iOS' do\n  pod 'Img', :path => './'\nend\n",
    'Examples/Demo.xcodeproj/project.pbxproj': pbxproj,
  });
  const s = await discoverStructure(root, (await walkWorkspace(root)).files);
  assert.deepEqual(internalEdges(s), [
    'Demo Watch -> Img',
    'Demo iOS -> Img',
    'Demo iOS -> ImgMapKit',
    'ImgMapKit -> Img',
    'Tests iOS -> Img',
  ]);
  const demo = target(s, 'Demo iOS').dependencies.find((d) => d.target === 'ImgMapKit');
  assert.equal(demo?.evidence, 'Podfile:4');
  assert.equal(target(s, 'Tests iOS').dependencies[0].scope, 'test');
});

test('Xcode: a target whose build settings come from an .xcconfig (Xcode 16: a synchronized folder and a path in it, app extensions) owns the folder of the Info.plist the .xcconfig names, and says which file that is', async () => {
  const id = (n: number) => n.toString(16).toUpperCase().padStart(24, '0');
  const object = (n: number, body: string) => `\t\t${id(n)} = {\n${body}\n\t\t};`;
  const project = (objects: string[]) => ['// !$*UTF8*$!', '{', '\tobjects = {', ...objects, '\t};', '}'].join('\n');
  const root = tempTree({
    'Mac/ShareExtension/ShareViewController.swift': 'import Cocoa\nclass ShareViewController: NSViewController {}\n',
    'Mac/ShareExtension/Info.plist':
      '<plist version="1.0">\n<dict>\n\t<key>NSExtension</key>\n\t<dict>\n\t\t<key>NSExtensionPrincipalClass</key>\n\t\t<string>$(PRODUCT_MODULE_NAME).ShareViewController</string>\n\t</dict>\n</dict>\n</plist>\n',
    'xcconfig/Share_target.xcconfig':
      '// Share extension\nINFOPLIST_FILE = Mac/ShareExtension/Info.plist // the extension\n',
    'Reader.xcodeproj/project.pbxproj': project([
      object(
        1,
        `\t\t\tisa = PBXNativeTarget;\n\t\t\tbuildConfigurationList = ${
          id(2)
        };\n\t\t\tname = "Share Extension";\n\t\t\tproductType = "com.apple.product-type.app-extension";`,
      ),
      object(2, `\t\t\tisa = XCConfigurationList;\n\t\t\tbuildConfigurations = (\n\t\t\t\t${id(3)},\n\t\t\t);`),
      object(
        3,
        `\t\t\tisa = XCBuildConfiguration;\n\t\t\tbaseConfigurationReferenceAnchor = ${
          id(4)
        } /* xcconfig */;\n\t\t\tbaseConfigurationReferenceRelativePath = Share_target.xcconfig;\n\t\t\tbuildSettings = {\n\t\t\t};\n\t\t\tname = Debug;`,
      ),
      `\t\t${
        id(4)
      } /* xcconfig */ = {isa = PBXFileSystemSynchronizedRootGroup; path = xcconfig; sourceTree = "<group>"; };`,
    ]),
  });
  const s = await discoverStructure(root, (await walkWorkspace(root)).files);
  const share = target(s, 'Share Extension');
  assert.deepEqual(share.extraDirs, ['Mac/ShareExtension']);
  assert.equal(share.metadata.infoPlist, 'Mac/ShareExtension/Info.plist');
});

test('Gradle: a root build script that depends on projects is the root project ":" (`for (module in publicModules) { dokka(project(":$module")) }`, a list from buildSrc), and every project depends on buildSrc to build', async () => {
  const root = tempTree({
    'settings.gradle.kts':
      'rootProject.name = "img-root"\ninclude(":img")\ninclude(":img-gif")\ninclude(":img-test")\n',
    'build.gradle.kts':
      'plugins {\n    id("org.jetbrains.dokka")\n}\n\ndependencies {\n    for (module in publicModules) {\n        dokka(project(":$module"))\n    }\n}\n',
    'buildSrc/build.gradle.kts': 'plugins {\n    `kotlin-dsl`\n}\n',
    'buildSrc/src/main/kotlin/img/utils.kt':
      'package img\n\nval publicModules = setOf(\n    "img",\n    "img-gif",\n)\n',
    'img/build.gradle.kts': 'plugins {\n    kotlin("jvm")\n}\n',
    'img/src/main/kotlin/img/Img.kt': 'package img\n\nclass Img\n',
    'img-gif/build.gradle.kts': 'plugins {\n    kotlin("jvm")\n}\n\ndependencies {\n    api(projects.img)\n}\n',
    'img-gif/src/main/kotlin/img/gif/Gif.kt': 'package img.gif\n\nclass Gif\n',
    'img-test/build.gradle.kts':
      'plugins {\n    kotlin("jvm")\n}\n\ndependencies {\n    testImplementation(projects.img)\n}\n',
  });
  const s = await discoverStructure(root, (await walkWorkspace(root)).files);
  const top = target(s, ':');
  assert.equal(top.kind, 'module');
  assert.deepEqual(top.dependencies.filter((d) => d.via !== 'buildSrc').map((d) => `${d.target}:${d.scope}`).sort(), [
    ':img-gif:build',
    ':img:build',
  ]);
  for (const name of [':', ':img', ':img-gif', ':img-test']) {
    assert.ok(
      target(s, name).dependencies.some((d) => d.target === 'buildSrc' && d.scope === 'build' && d.via === 'buildSrc'),
      name,
    );
  }
});

test('Xcode: a target that compiles from several top-level folders owns each of them (a library folder and a UIKit+ categories folder), not the whole repository', async () => {
  const id = (n: number) => n.toString(16).toUpperCase().padStart(24, '0');
  const object = (n: number, body: string) => `\t\t${id(n)} = {\n${body}\n\t\t};`;
  const root = tempTree({
    'AFNetworking/AFHTTPSessionManager.m': '#import "AFHTTPSessionManager.h"\n',
    'AFNetworking/AFHTTPSessionManager.h': '@interface AFHTTPSessionManager\n@end\n',
    'UIKit+AFNetworking/UIImageView+AFNetworking.m': '#import "UIImageView+AFNetworking.h"\n',
    'UIKit+AFNetworking/UIImageView+AFNetworking.h': '@interface UIImageView (AFNetworking)\n@end\n',
    'Net.xcodeproj/project.pbxproj': [
      '// !$*UTF8*$!',
      '{',
      '\tobjects = {',
      object(
        1,
        `\t\t\tisa = PBXNativeTarget;\n\t\t\tbuildPhases = (\n\t\t\t\t${
          id(2)
        },\n\t\t\t);\n\t\t\tname = "Net iOS";\n\t\t\tproductType = "com.apple.product-type.framework";`,
      ),
      object(2, `\t\t\tisa = PBXSourcesBuildPhase;\n\t\t\tfiles = (\n\t\t\t\t${id(3)},\n\t\t\t\t${id(4)},\n\t\t\t);`),
      `\t\t${id(3)} = {isa = PBXBuildFile; fileRef = ${id(5)}; };`,
      `\t\t${id(4)} = {isa = PBXBuildFile; fileRef = ${id(6)}; };`,
      `\t\t${
        id(5)
      } = {isa = PBXFileReference; path = AFNetworking/AFHTTPSessionManager.m; sourceTree = SOURCE_ROOT; };`,
      `\t\t${
        id(6)
      } = {isa = PBXFileReference; path = "UIKit+AFNetworking/UIImageView+AFNetworking.m"; sourceTree = SOURCE_ROOT; };`,
      '\t};',
      '}',
    ].join('\n'),
  });
  const s = await discoverStructure(root, (await walkWorkspace(root)).files);
  assert.deepEqual(target(s, 'Net iOS').extraDirs, ['AFNetworking', 'UIKit+AFNetworking']);
});

test("manifests of a tests folder's sample inputs are no targets unless a workspace declares them (syntax-test sources); a Go tutorial module is a sample app", async () => {
  const root = tempTree({
    'Cargo.toml': '[package]\nname = "bat"\nversion = "0.1.0"\n',
    'src/lib.rs': 'pub fn run() {}\n',
    'tests/syntax-tests/source/TOML/Cargo.toml': '[package]\nname = "sample"\nversion = "0.1.0"\n',
    'tests/syntax-tests/source/Go/go.mod': 'module hugeparam\n\ngo 1.20\n',
    'tests/syntax-tests/source/Go/main.go': 'package main\n\nfunc main() {}\n',
    'go.mod': 'module example.org/tea\n\ngo 1.24\n',
    'tea.go': 'package tea\n',
    'tutorials/go.mod':
      'module tutorial\n\ngo 1.24\n\nrequire example.org/tea v0.0.0\n\nreplace example.org/tea => ../\n',
    'tutorials/basics/main.go': 'package main\n\nfunc main() {}\n',
  });
  const s = await discoverStructure(root, (await walkWorkspace(root)).files);
  // A tutorial (or example) module is a sample app, with its edge to the module it replaces with the local copy; test data is nothing.
  assert.deepEqual(s.targets.map((t) => `${t.name} ${t.kind}`).sort(), [
    'bat library',
    'example.org/tea library',
    'tutorial app',
  ]);
  assert.deepEqual(target(s, 'tutorial').dependencies.filter((d) => d.target).map((d) => `${d.target} ${d.scope}`), [
    'example.org/tea prod',
  ]);
  const declared = tempTree({
    'Cargo.toml': '[workspace]\nmembers = ["core", "tests/harness"]\n',
    'core/Cargo.toml': '[package]\nname = "core"\nversion = "0.1.0"\n',
    'core/src/lib.rs': 'pub fn run() {}\n',
    'tests/harness/Cargo.toml': '[package]\nname = "harness"\nversion = "0.1.0"\n',
    'tests/harness/src/lib.rs': 'pub fn check() {}\n',
  });
  const d = await discoverStructure(declared, (await walkWorkspace(declared)).files);
  assert.ok(d.targets.some((t) => t.name === 'harness'), d.targets.map((t) => t.name).join(', '));
});

test('Gradle: a BOM that constrains every subproject applying the publish plugin lists those projects (`rootProject.subprojects { plugins.withId(…) { api subproject } }`)', async () => {
  const root = tempTree({
    'settings.gradle':
      "rootProject.name = 'retrofit'\ninclude ':retrofit'\ninclude ':retrofit-mock'\ninclude ':samples'\ninclude ':retrofit-bom'\n",
    'retrofit/build.gradle': "apply plugin: 'java-library'\napply plugin: 'com.vanniktech.maven.publish'\n",
    'retrofit-mock/build.gradle':
      "apply plugin: 'java-library'\napply plugin: 'com.vanniktech.maven.publish'\n\ndependencies {\n  api projects.retrofit\n}\n",
    'samples/build.gradle': "apply plugin: 'java-library'\n\ndependencies {\n  implementation projects.retrofit\n}\n",
    'retrofit-bom/build.gradle':
      "apply plugin: 'java-platform'\napply plugin: 'com.vanniktech.maven.publish'\n\ndependencies {\n  constraints {\n    rootProject.subprojects { subproject ->\n      subproject.plugins.withId('com.vanniktech.maven.publish') {\n        // Exclude self project from BOM.\n        if (subproject != this.project) {\n          api subproject\n        }\n      }\n    }\n  }\n}\n",
  });
  const s = await discoverStructure(root, (await walkWorkspace(root)).files);
  assert.deepEqual(
    target(s, ':retrofit-bom').dependencies.filter((d) => d.target).map((d) => `${d.target} ${d.scope}`).sort(),
    [':retrofit prod', ':retrofit-mock prod'],
  );
});

test('npm: a package in a benchmarks folder is a test target, as the keys count benchmarks (benchmarks/jsx and its unnamed siblings)', async () => {
  const root = tempTree({
    'package.json': JSON.stringify({ name: 'hono', version: '4.0.0', main: 'dist/index.js' }),
    'src/index.ts': 'export const hono = 1;\n',
    'benchmarks/jsx/package.json': JSON.stringify({
      name: 'jsx',
      version: '1.0.0',
      main: 'index.js',
      dependencies: { hono: '^3.10.4' },
    }),
    'benchmarks/jsx/index.js': 'module.exports = 1;\n',
    'benchmarks/routers/package.json': JSON.stringify({ version: '1.0.0', scripts: { bench: 'node index.js' } }),
    'benchmarks/routers/index.js': 'module.exports = 1;\n',
  });
  const s = await discoverStructure(root, (await walkWorkspace(root)).files);
  assert.deepEqual(s.targets.map((t) => `${t.name} ${t.kind}`).sort(), [
    'benchmarks/routers test',
    'hono library',
    'jsx test',
  ]);
});

test("Xcode beside a root Swift package: the Xcode test target of a package test target's name is that target, past a line comment in the manifest (`.testTarget( // dev`)", async () => {
  const id = (n: number) => n.toString(16).toUpperCase().padStart(24, '0');
  const pbx = [
    '// !$*UTF8*$!',
    '{',
    '\tobjects = {',
    `\t\t${id(1)} /* MoyaTests */ = {`,
    '\t\t\tisa = PBXNativeTarget;',
    '\t\t\tname = MoyaTests;',
    '\t\t\tproductType = "com.apple.product-type.bundle.unit-test";',
    '\t\t};',
    '\t};',
    '}',
  ].join('\n');
  const root = tempTree({
    'Package.swift':
      '// swift-tools-version:5.3\nimport PackageDescription\nlet package = Package(\n    name: "Moya",\n    targets: [\n        .target(name: "Moya", path: "Sources/Moya"),\n        .testTarget( // dev\n            name: "MoyaTests",  // dev\n            dependencies: ["Moya"] // dev\n        ) // dev\n    ]\n)\n',
    'Sources/Moya/Moya.swift': 'public struct Moya {}\n',
    'Tests/MoyaTests/MoyaTests.swift': 'import XCTest\n',
    'Moya.xcodeproj/project.pbxproj': pbx,
  });
  const s = await discoverStructure(root, (await walkWorkspace(root)).files);
  assert.deepEqual(s.targets.map((t) => t.name).sort(), ['Moya', 'MoyaTests']);
});

test('Cargo: a package whose binary bears its name is an app even with a library beside it (bat: src/lib.rs and src/bin/bat/main.rs); a library with another tool binary stays a library', async () => {
  const kindOf = async (name: string, bin: string) => {
    const root = tempTree({
      'Cargo.toml': `[package]\nname = "${name}"\nversion = "0.1.0"\n`,
      'src/lib.rs': 'pub fn run() {}\n',
      [bin]: 'fn main() {}\n',
    });
    return target(await discoverStructure(root, (await walkWorkspace(root)).files), name).kind;
  };
  assert.equal(await kindOf('bat', 'src/bin/bat/main.rs'), 'app');
  assert.equal(await kindOf('syntect', 'src/bin/dump-syntaxes.rs'), 'library');
});

test("npm: without a workspace, a package's dependency on another package of the repository comes from the registry unless it is linked by path (benchmarks/jsx asks for the root package at ^3.10.4)", async () => {
  const root = tempTree({
    'package.json': JSON.stringify({ name: 'hono', version: '4.0.0', main: 'dist/index.js' }),
    'src/index.ts': 'export const hono = 1;\n',
    'benchmarks/jsx/package.json': JSON.stringify({ name: 'jsx', version: '1.0.0', dependencies: { hono: '^3.10.4' } }),
    'benchmarks/local/package.json': JSON.stringify({
      name: 'local',
      version: '1.0.0',
      dependencies: { hono: 'file:../..' },
    }),
  });
  const s = await discoverStructure(root, (await walkWorkspace(root)).files);
  assert.equal(target(s, 'jsx').dependencies.find((d) => d.name === 'hono')?.target, undefined);
  assert.equal(target(s, 'local').dependencies.find((d) => d.name === 'hono')?.target, 'hono');
});
