import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyFile, conventionPath, type FileKind, testRegions } from '../../src/core/ground/files/classify';

// Paths as they appear in public repositories (Swift, TypeScript, Python, Go, Rust, Kotlin and Objective-C projects).
const cases: [string, FileKind][] = [
  ['Source/Core/DownloadRequest.swift', 'production'],
  ['Tests/CombineTests.swift', 'test'],
  ['Example/Source/AppDelegate.swift', 'example'],
  ['docs/js/jquery.min.js', 'minified'],
  ['docs/js/jazzy.js', 'docs'],
  ['packages/server/src/adapters/fastify/fastifyRequestHandler.ts', 'production'],
  ['packages/server/src/unstable-core-do-not-import/clientish/serialize.test.ts', 'test'],
  ['packages/server/src/vendor/unpromise/index.ts', 'vendored'],
  ['packages/upgrade/test/__fixtures__/hooks/basic.snap.tsx', 'fixture'],
  ['examples/next-sse-chat/src/components/dialog.tsx', 'example'],
  ['examples/.experimental/next-app-dir/test/client.test.ts', 'test'],
  ['www/src/components/Features.tsx', 'docs'],
  ['examples/openapi-codegen/src/client/generated/client/client.gen.ts', 'generated'],
  ['packages/next/tsdown.config.ts', 'build'],
  ['httpx/_auth.py', 'production'],
  ['tests/client/test_event_hooks.py', 'test'],
  ['cobra.go', 'production'],
  ['args_test.go', 'test'],
  ['doc/man_docs.go', 'production'],
  ['doc/md_docs_test.go', 'test'],
  ['crates/core/flags/doc/help.rs', 'production'],
  ['crates/globset/benches/bench.rs', 'benchmark'],
  ['crates/grep/examples/simplegrep.rs', 'example'],
  ['tests/regression.rs', 'test'],
  ['build.rs', 'build'],
  ['okhttp/src/jvmTest/kotlin/okhttp3/RequestTest.kt', 'test'],
  ['okhttp/src/commonTest/kotlin/okhttp3/CompressionInterceptorTest.kt', 'test'],
  ['okhttp/src/commonJvmAndroid/kotlin/okhttp3/internal/dns/LookupDnsCall.kt', 'production'],
  ['samples/guide/src/main/java/okhttp3/recipes/PostString.java', 'example'],
  ['build-logic/src/main/kotlin/JavaModules.kt', 'build'],
  ['okhttp/build.gradle.kts', 'build'],
  ['SDWebImage/Core/SDWebImageDownloader.m', 'production'],
  ['Examples/SDWebImage Demo/DetailViewController.m', 'example'],
  ['Tests/Tests/SDWebImageDownloaderTests.m', 'test'],
  ['watchOS Example/watchOS Example WatchKit Extension/ContentView.swift', 'example'],
  ['Package.swift', 'build'],
  ['Package@swift-6.0.swift', 'build'],
  ['maven-tests/src/main/java/com/squareup/okhttp3/maventest/SampleHttpClient.java', 'test'],
  ['okhttp-hpacktests/src/test/java/okhttp3/internal/http2/hpackjson/Story.kt', 'test'],
  ['container-tests/src/test/java/okhttp3/containers/BasicProxyTest.kt', 'test'],
  ['okhttp-testing-support/src/main/kotlin/okhttp3/RecordingCookieJar.kt', 'test'],
  ['okhttp/src/commonJvmAndroid/kotlin/okhttp3/internal/platform/Platform.kt', 'production'],
  ['packages/server/src/adapters/latest/handler.ts', 'production'],
  ['crates/searcher/src/testutil.rs', 'test'],
  ['go.sum', 'generated'],
  ['src/latest/contest.ts', 'production'],
  ['README.md', 'docs'],
  ['okhttp-testing-support/src/main/kotlin/okhttp3/DelegatingSSLSocket.kt', 'test'],
  ['android-test/src/main/kotlin/okhttp/android/test/AndroidTest.kt', 'test'],
  ['crates/searcher/src/testutil.rs', 'test'],
  ['src/__mocks__/fs.ts', 'test'],
  ['mockwebserver/src/main/kotlin/mockwebserver3/MockWebServer.kt', 'production'],
  ['packages/attestation/src/index.ts', 'production'],
  ['src/contest-results/latest.ts', 'production'],
  ['packages/webapp-testing/src/server.ts', 'production'],
  // Applications: a Rust `#[cfg(test)] mod tests;` lives in tests.rs beside its module;
  // a Swift app keeps its build tools (a copy of Swift's gyb) in buildscripts/.
  ['alacritty_terminal/src/grid/tests.rs', 'test'],
  ['alacritty_terminal/src/grid/storage.rs', 'production'],
  ['src/contests.rs', 'production'],
  ['buildscripts/gyb.py', 'build'],
  // A stand-in OpenID provider for a project's tests.
  ['docker/dummy/oidc/app/main.go', 'test'],
  // Folders below a JVM source root are a package name, not a convention: an app's package may be
  // com.google.samples.apps.<name>, and Android's template package is com.example.
  [
    'core/data/src/main/kotlin/com/google/samples/apps/nowinandroid/core/data/OfflineFirstNewsRepository.kt',
    'production',
  ],
  ['app/src/main/java/com/example/myapp/MainActivity.kt', 'production'],
  ['app/src/test/java/com/example/myapp/ParserTest.kt', 'test'],
  [
    'feature/foryou/src/androidTest/kotlin/com/google/samples/apps/nowinandroid/feature/foryou/ForYouScreenTest.kt',
    'test',
  ],
  ['samples/guide/src/main/java/okhttp3/recipes/PostString.java', 'example'],
  ['build-scripts/release.sh', 'build'],
];

test('files are classified by the conventions of their ecosystem', () => {
  const wrong = cases.map(([rel, kind]) => ({ rel, want: kind, got: classifyFile(rel).kind })).filter((c) =>
    c.got !== c.want
  );
  assert.deepEqual(wrong, []);
});

test('a generated marker near the top makes a file generated, with the reason', () => {
  const c = classifyFile('pkg/api/types.go', '// Code generated by protoc-gen-go. DO NOT EDIT.\npackage api\n');
  assert.equal(c.kind, 'generated');
  assert.match(c.reason, /header says/);
  assert.equal(
    classifyFile('src/schema.ts', '/* eslint-disable */\n// @generated by graphql-codegen\nexport type A = 1;\n').kind,
    'generated',
  );
  assert.equal(
    classifyFile('src/schema.ts', '// This file was automatically generated from schema.json\n').kind,
    'generated',
  );
});

test('a file that only mentions generated code, or says it is kept by hand, is production code', () => {
  // Licence notice: the header of ripgrep's crates/core/flags/complete/zsh.rs (MIT / Unlicense), in essence.
  const zsh =
    "/*!\nProvides completions for ripgrep's CLI for the zsh shell.\n\nUnlike completion short for other shells (at time of writing), zsh's\ncompletions for ripgrep are maintained by hand. This is because:\n\n1. They are lovingly written by an expert in such things.\n2. Are much higher in quality than the ones below that are auto-generated.\n*/\n";
  assert.equal(classifyFile('crates/core/flags/complete/zsh.rs', zsh).kind, 'production');
  assert.equal(
    classifyFile('src/codegen.ts', '// Writes the generated client; see generate().\nexport function generate() {}\n')
      .kind,
    'production',
  );
  // Licence notice: excalidraw's fonts/ComicShanns/index.ts (MIT): generated once, then rewritten by hand (typo as written).
  const font =
    '// The following file content was generated with https://chinese-font.netlify.app/online-split,\n// but has been manully rewritten from `@font-face` rules into TS while leveraging FontFace API.\n\nimport { type Descriptor } from "../Fonts";\n\n/* Generated By cn-font-split@5.2.2 https://www.npmjs.com/package/cn-font-split\nCreateTime: Thu, 19 Dec 2024 */\n';
  assert.equal(classifyFile('packages/excalidraw/fonts/ComicShanns/index.ts', font).kind, 'production');
  // A marker far below the top does not count.
  assert.equal(classifyFile('src/a.ts', 'x\n'.repeat(40) + '// DO NOT EDIT\n').kind, 'production');
});

test('a JVM path without its package folders, for conventions that read folder names (an Android app counted 5 of its 52 test files: its package is com.google.samples)', () => {
  assert.equal(
    conventionPath('feature/foryou/src/test/kotlin/com/google/samples/apps/nowinandroid/ForYouViewModelTest.kt'),
    'feature/foryou/src/test/kotlin/ForYouViewModelTest.kt',
  );
  assert.equal(
    conventionPath('samples/guide/src/main/java/okhttp3/recipes/PostString.java'),
    'samples/guide/src/main/java/PostString.java',
  );
  assert.equal(conventionPath('src/samples/app.ts'), 'src/samples/app.ts');
});

test('minified text is recognised without a .min name', () => {
  const line = 'var a=function(b,c){return b+c};'.repeat(200);
  assert.equal(classifyFile('static/app.js', line).kind, 'minified');
  const normal = 'export function add(a: number, b: number): number {\n  return a + b;\n}\n'.repeat(60);
  assert.equal(classifyFile('src/add.ts', normal).kind, 'production');
});

test('Rust test modules and test functions are test regions of a production file', () => {
  const text = [
    'pub fn parse(s: &str) -> Option<u32> {', // 1
    '    s.parse().ok()', // 2
    '}', // 3
    '', // 4
    '#[cfg(test)]', // 5
    'mod tests {', // 6
    '    use super::*;', // 7
    '    #[test]', // 8
    '    fn parses() {', // 9
    '        let s = "}{"; // braces in strings do not count', // 10
    "        let c = '}';", // 11
    '        assert_eq!(parse("1").unwrap(), 1);', // 12
    '    }', // 13
    '}', // 14
    '', // 15
    "fn after<'a>(x: &'a str) -> &'a str { x }", // 16
  ].join('\n');
  assert.deepEqual(testRegions(text, 'rust'), [{ start: 5, end: 14 }]);
  assert.deepEqual(testRegions(text, 'go'), []);
});

test('a #[test] function outside a test module is a region of its own', () => {
  const text = ['fn a() {}', '#[test]', 'fn b() {', '    a();', '}', 'fn c() {}'].join('\n');
  assert.deepEqual(testRegions(text, 'rust'), [{ start: 2, end: 5 }]);
});

test('in-source Vitest blocks are test regions', () => {
  const text = [
    'export const x = 1;',
    'if (import.meta.vitest) {',
    '  const { it } = import.meta.vitest;',
    "  it('x', () => {});",
    '}',
  ].join('\n');
  assert.deepEqual(testRegions(text, 'typescript'), [{ start: 2, end: 5 }]);
});
