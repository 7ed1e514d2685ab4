// The project map on excerpts of real repositories (test/fixtures/real, each with its licence and
// commit): every gap found by running the structure reader on them has a test here.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { discoverStructure, type ProjectStructure } from '../../src/core/domains/structure';
import { walkWorkspace } from '../../src/core/ground/files';
import { assertEvidence, target } from './structure-helpers';

export const REAL_FIXTURES = path.join(__dirname, '..', 'fixtures', 'real');

async function discoverReal(name: string): Promise<ProjectStructure> {
  const root = path.join(REAL_FIXTURES, name);
  const listing = await walkWorkspace(root);
  return discoverStructure(root, listing.files);
}

const edges = (s: ProjectStructure, from: string) =>
  target(s, from)
    .dependencies.filter((d) => d.target)
    .map((d) => `${d.target} (${d.scope})`)
    .sort();

test('pnpm: globs over dot-folders (examples/.test/*, examples/.experimental/*) find their packages', async () => {
  const s = await discoverReal('trpc');
  const dirs = s.targets.map((t) => t.dir).sort();
  assert.ok(dirs.includes('examples/.test/ssg'), dirs.join(', '));
  assert.ok(dirs.includes('examples/.test/monotest-api'));
  assert.ok(dirs.includes('examples/.experimental/next-app-dir'));
  assert.deepEqual(edges(s, 'examples-test-ssg'), ['@trpc/client (prod)', '@trpc/server (prod)']);
  assert.equal(s.targets.length, 12, 'every package.json but the root one');
});

test('pnpm monorepo: a package is a library when it has an entry point, whatever its bin; a CLI, a site and test packages are not', async () => {
  const s = await discoverReal('trpc');
  assert.equal(target(s, '@trpc/client').kind, 'library', 'bin beside main/exports: still a library');
  assert.equal(target(s, '@trpc/server').kind, 'library');
  assert.equal(target(s, '@trpc/upgrade').kind, 'app', 'a bin and only sub-path exports: the codemod CLI');
  assert.equal(target(s, '@trpc/tests').kind, 'test');
  assert.equal(target(s, 'examples-test-ssg').kind, 'test', 'under examples/.test');
  assert.equal(target(s, 'www').kind, 'app', 'a private Docusaurus site is an app, not a library');
  assert.equal(target(s, '@www/og-image').kind, 'app');
  assert.equal(target(s, 'examples-minimal-react-client').kind, 'app');
  assert.equal(target(s, 'examples-lambda-url').kind, 'app', 'a private example that exports its handler');
  assertEvidence(
    path.join(REAL_FIXTURES, 'trpc'),
    target(s, '@trpc/client').dependencies.find((d) => d.scope === 'peer')?.evidence,
    '"@trpc/server"',
  );
});

test('Gradle: renames, type-safe accessors to renamed projects, quoted configurations', async () => {
  const s = await discoverReal('okhttp');
  const byDir = (dir: string) => s.targets.find((t) => t.dir === dir && t.ecosystem === 'gradle')?.name;
  assert.equal(byDir('mockwebserver'), ':mockwebserver3', 'project(":mockwebserver").name = "mockwebserver3"');
  assert.equal(byDir('mockwebserver-deprecated'), ':mockwebserver');
  assert.equal(byDir('okhttp-logging-interceptor'), ':logging-interceptor');
  // The deprecated mock web server: "friendsApi" on the main library, api on mockwebserver3, test deps.
  assert.deepEqual(edges(s, ':mockwebserver'), [
    ':mockwebserver3 (prod)',
    ':okhttp (prod)',
    ':okhttp-testing-support (test)',
    ':okhttp-tls (test)',
  ]);
  assert.deepEqual(edges(s, ':mockwebserver3'), [
    ':mockwebserver3-junit5 (test)',
    ':okhttp (prod)',
    ':okhttp-testing-support (test)',
    ':okhttp-tls (test)',
  ]);
  assertEvidence(
    path.join(REAL_FIXTURES, 'okhttp'),
    target(s, ':mockwebserver').dependencies.find((d) => d.target === ':okhttp')?.evidence,
    '"friendsApi"(projects.okhttp)',
  );
  assert.deepEqual(edges(s, ':okhttp-testing-support'), [
    ':mockwebserver3 (prod)',
    ':okhttp (prod)',
    ':okhttp-dnsoverhttps (prod)',
    ':okhttp-tls (prod)',
  ]);
});

test('Gradle: Kotlin multiplatform source sets scope dependencies; version catalogs name external libraries', async () => {
  const s = await discoverReal('okhttp');
  const okhttp = edges(s, ':okhttp');
  assert.ok(okhttp.includes(':okhttp-testing-support (test)'), okhttp.join(', '));
  assert.ok(okhttp.includes(':mockwebserver (test)'), 'jvmTest: projects.mockwebserver is the deprecated module');
  assert.ok(okhttp.includes(':okhttp-idna-mapping-table (build)'), 'a code-generation classpath is a build dependency');
  assert.ok(!okhttp.some((e) => e.endsWith('(prod)')), okhttp.join(', '));
  const okio = target(s, ':okhttp').dependencies.find((d) => d.name === 'com.squareup.okio:okio');
  assert.equal(okio?.version, '3.18.0', 'libs.square.okio from gradle/libs.versions.toml');
  assert.equal(okio?.scope, 'prod');
  assert.equal(
    target(s, ':okcurl').dependencies.find((d) => d.name === 'com.github.ajalt.clikt:clikt')?.version,
    '5.1.0',
  );
});

test('Gradle: target kinds and languages from what each project is', async () => {
  const s = await discoverReal('okhttp');
  const kind = (name: string) => target(s, name).kind;
  assert.equal(kind(':okcurl'), 'app', 'a jar with a Main-Class');
  assert.equal(kind(':samples:crawler'), 'app', 'the application plugin');
  assert.equal(kind(':android-test-app'), 'app', 'com.android.application');
  assert.equal(kind(':okhttp-hpacktests'), 'test');
  assert.equal(kind(':samples:compare'), 'test', 'only test sources');
  assert.equal(kind(':regression-test'), 'test');
  assert.equal(kind(':okhttp'), 'library');
  assert.equal(kind(':okhttp-testing-support'), 'test', "support code for tests, as nowinandroid's :core:testing");
  assert.equal(target(s, 'build-logic').kind, 'plugin', 'kotlin-dsl convention plugins');
  assert.equal(target(s, ':samples:crawler').language, 'java');
  assert.equal(target(s, ':mockwebserver3').language, 'kotlin');
  assert.equal(target(s, 'maven-tests').kind, 'test', 'a Maven project that tests the published artifacts');
});

test('SwiftPM: package targets with only .h/.m sources are Objective-C; an example package is not a target', async () => {
  const s = await discoverReal('sdwebimage');
  assert.deepEqual(s.targets.map((t) => `${t.name}:${t.kind}:${t.language}`).sort(), [
    'SDWebImage:library:objective-c',
    'SDWebImageMapKit:library:objective-c',
  ]);
  assert.deepEqual(edges(s, 'SDWebImageMapKit'), ['SDWebImage (prod)']);
});

test('Python: environment markers are conditions, not versions; a console script behind an optional extra keeps a library a library', async () => {
  const s = await discoverReal('httpx');
  const httpx = target(s, 'httpx');
  assert.equal(httpx.kind, 'library');
  const brotli = httpx.dependencies.find((d) => d.name === 'brotli')!;
  assert.equal(brotli.version, undefined, JSON.stringify(brotli));
  assert.equal(brotli.condition, "platform_python_implementation == 'CPython'");
  assert.equal(brotli.scope, 'optional');
  assert.equal(httpx.dependencies.find((d) => d.name === 'httpcore')?.version, '==1.*');
  assert.equal(httpx.dependencies.find((d) => d.name === 'rich')?.version, '>=10,<15');
});

test('Cargo: optional (feature-gated) and target-specific dependencies; a cargo-fuzz crate is a test', async () => {
  const s = await discoverReal('ripgrep');
  assert.deepEqual(edges(s, 'ripgrep'), ['grep (prod)', 'grep-index (optional)', 'ignore (prod)']);
  assert.ok(edges(s, 'grep').includes('grep-pcre2 (optional)'));
  const cli = target(s, 'grep-cli');
  const winapi = cli.dependencies.find((d) => d.name === 'winapi-util');
  assert.equal(winapi?.condition, 'cfg(windows)', JSON.stringify(cli.dependencies));
  assert.equal(winapi?.version, '0.1.6');
  assertEvidence(path.join(REAL_FIXTURES, 'ripgrep'), winapi?.evidence, 'winapi-util');
  assert.equal(cli.dependencies.find((d) => d.name === 'libc')?.condition, 'cfg(unix)');
  assert.equal(target(s, 'fuzz').kind, 'test');
  assert.equal(target(s, 'ripgrep').kind, 'app');
});

test('Go: a module without a main package is a library', async () => {
  const s = await discoverReal('cobra');
  assert.equal(target(s, 'github.com/spf13/cobra').kind, 'library');
});
