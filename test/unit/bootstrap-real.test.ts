// The cold start on excerpts of real repositories (test/fixtures/real, each with its licence and
// commit): every wrong or useless candidate a blind reviewer found on them has a test here.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { bootstrapKnowledge, type BootstrapResult } from '../../src/core/domains/bootstrap';
import { type Candidate, listCandidates } from '../../src/core/domains/knowledge';
import { Workspace } from '../../src/core/ground/workspace';

const REAL = path.join(__dirname, '..', 'fixtures', 'real');
const opened: { ws: Workspace; dir: string }[] = [];
after(async () => {
  for (const { ws, dir } of opened.splice(0)) {
    await ws.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});

async function coldStart(
  name: string,
): Promise<{ ws: Workspace; candidates: Candidate[]; titles: string[]; result: BootstrapResult }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `as-real-${name}-`));
  cpSync(path.join(REAL, name), dir, { recursive: true });
  const ws = await Workspace.open(dir);
  opened.push({ ws, dir });
  const result = await bootstrapKnowledge(ws, {}, { actor: 'human' });
  const candidates = listCandidates(ws, { status: 'any' });
  return { ws, candidates, titles: candidates.map((c) => c.title), result };
}

const lineAt = (ws: Workspace, source: string) => {
  const [, file, line] = /^(.+):(\d+)$/.exec(source)!;
  return readFileSync(path.join(ws.root, file), 'utf8').split('\n')[Number(line) - 1];
};

function every(candidates: Candidate[], ws: Workspace) {
  for (const c of candidates) {
    assert.ok(c.title.length <= 100, c.title);
    assert.ok(c.summary.length <= 300, c.summary);
    assert.equal(c.createdBy, 'system');
    for (const s of c.reasoning.sources) {
      assert.ok(lineAt(ws, s) !== undefined, `${c.title}: ${s} is not a line of the file`);
    }
  }
}

test('TypeScript monorepo: packages that import each other by name are not "independent"; no RxJS or React-context claim from the project\'s own observable and createContext; the internal isObject() helper is found through the package import', async () => {
  const { ws, candidates, titles } = await coldStart('trpc');
  every(candidates, ws);
  assert.ok(!titles.some((t) => /Folders under `packages` do not import each other/.test(t)), titles.join('\n'));
  assert.ok(!titles.some((t) => /RxJS|React context/.test(t)), titles.join('\n'));
  const helper = candidates.find((c) => /`isObject\(\)`/.test(c.title));
  assert.ok(helper, titles.join('\n'));
  assert.match(helper.title, /^Reuse the internal `isObject\(\)`/);
  assert.ok(
    helper.reasoning.sources.some((s) =>
      s.startsWith('packages/client/src/TRPCClientError.ts:') && lineAt(ws, s).includes('isObject(')
    ),
    'the client imports it from @trpc/server/unstable-core-do-not-import',
  );
  assert.ok(!titles.some((t) => /examples?-|examples\//.test(t)), 'nothing from the example apps');
  // The client's signal helpers are the client's rule: the server cannot import them (blind review).
  const cancel = candidates.find((c) => /^Cancellation/.test(c.title));
  assert.ok(cancel, titles.join('\n'));
  assert.match(
    cancel.title,
    /^Cancellation in `@trpc\/client`: combine signals with `allAbortSignals\(\)` and `raceAbortSignals\(\)`$/,
  );
  assert.ok(
    cancel.reasoning.sources.every((s) => s.startsWith('packages/client/')),
    cancel.reasoning.sources.join(', '),
  );
});

test('Rust CLI: enum variants (WalkEvent::File, PatternSource::File) are not uses of a type File; a file maintained by hand is not "generated"; a `fn main` in a string is not an entry point', async () => {
  const { ws, candidates, titles } = await coldStart('ripgrep');
  every(candidates, ws);
  assert.ok(!titles.some((t) => /`File`|`Bytes`|`Candidate`/.test(t)), titles.join('\n'));
  assert.ok(!titles.some((t) => /Generated files/.test(t)), 'zsh.rs says its completions are maintained by hand');
  const entry = candidates.find((c) => /^Entry point/.test(c.title));
  assert.ok(entry, titles.join('\n'));
  assert.deepEqual(entry.reasoning.sources.map((s) => s.split(':')[0]), ['crates/core/main.rs']);
  const fmt = candidates.find((c) => /rustfmt/.test(c.title));
  assert.ok(
    fmt && /max_width = 79/.test(fmt.summary),
    'the project\'s rustfmt.toml settings, not "4-space indentation"',
  );
  assert.ok(
    !titles.some((t) => /snake_case|4-space|naming/.test(t)),
    'rustc and rustfmt defaults are not project knowledge',
  );
});

test('Rust CLI: AI_POLICY.md becomes an agent-policy candidate with its rules at their lines, and the bootstrap answer names it first', async () => {
  const { ws, candidates, titles, result } = await coldStart('ripgrep');
  const policy = candidates.find((c) => c.reasoning.sources.some((s) => s.startsWith('AI_POLICY.md:')));
  // The rule in full: the label gives way when both do not fit in 100 characters.
  assert.equal(
    policy?.title,
    '`AI_POLICY.md`: Autonomous agents are not allowed to be used for contributing to this project',
  );
  assert.ok(policy, titles.join('\n'));
  assert.equal(policy.knowledgeType, 'agent-guideline');
  assert.match(policy.title, /Autonomous agents are not allowed/);
  assert.match(policy.summary, /Autonomous agents are not allowed/);
  assert.ok(
    policy.reasoning.sources.some((s) => lineAt(ws, s).includes('Autonomous agents are not allowed')),
    policy.reasoning.sources.join(', '),
  );
  assert.match(policy.rationale ?? '', /Do not copy responses from the AI/);
  assert.ok(
    !/uv's AI policy|https?:/.test(policy.rationale ?? ''),
    'the link to where the policy was adapted from is not a rule',
  );
  assert.deepEqual(result.policies?.map((p) => [p.file, p.candidate]), [['AI_POLICY.md', policy.id]]);
  assert.match(result.next, /^Read AI_POLICY\.md first/);
  const again = await bootstrapKnowledge(ws, {}, { actor: 'human' });
  assert.equal(again.candidates.created, 0);
  assert.deepEqual(again.policies?.map((p) => p.candidate), [policy.id], 'a second run still names the policy');
});

test('Python HTTP library: sync and async APIs side by side, not "I/O is asynchronous"; ruff format found, not "no formatter"; request() methods are not uses of _api.request()', async () => {
  const { ws, candidates, titles } = await coldStart('httpx');
  every(candidates, ws);
  assert.ok(!titles.some((t) => /asynchronous/.test(t)), titles.join('\n'));
  const twins = candidates.find((c) => /Sync and async APIs are kept in pairs/.test(c.title));
  assert.ok(twins, titles.join('\n'));
  assert.match(twins.summary, /Client \/ AsyncClient/);
  const fmt = candidates.find((c) => /formatting is enforced by ruff/.test(c.title));
  assert.ok(fmt, titles.join('\n'));
  assert.match(fmt.title, /run `scripts\/lint`/, 'the script that formats, not the one that only checks');
  assert.ok(!candidates.some((c) => /No formatter configuration/.test(c.summary)));
  assert.ok(!titles.some((t) => /`request\(\)`|`Response`/.test(t)), 'public API and name clashes are not helpers');
  const helper = candidates.find((c) => /primitive_value_to_str/.test(c.title));
  assert.ok(helper, titles.join('\n'));
  assert.ok(helper.reasoning.sources.slice(1).every((s) => lineAt(ws, s).includes('primitive_value_to_str(')));
});

test('Go library: gofmt/goimports enforced by golangci-lint, not "no formatter"; public getters of Command are not helpers; no generic Go conventions', async () => {
  const { ws, candidates, titles } = await coldStart('cobra');
  every(candidates, ws);
  const fmt = candidates.find((c) => /golangci-lint/.test(c.title));
  assert.ok(fmt, titles.join('\n'));
  assert.ok(fmt.reasoning.sources.includes('.golangci.yml:9'), fmt.reasoning.sources.join(', '));
  // golangci-lint version 2 applies the formatters it configures; goimports is not installed on its own.
  assert.match(fmt.title, /run `golangci-lint fmt`/);
  assert.ok(
    !titles.some((t) => /`(Commands|Name|HasParent|CommandPath|IsAvailableCommand)\(\)`/.test(t)),
    titles.join('\n'),
  );
  assert.ok(!titles.some((t) => /snake_case|defer|tab indentation/.test(t)), titles.join('\n'));
  const header = candidates.find((c) => /license header/.test(c.title));
  assert.match(header?.code ?? '', /Copyright 2013-2023 The Cobra Authors/);
});

test('Swift package: Swift 5 language mode is not strict concurrency; the ExistentialAny setting is; no SwiftUI claim from the watchOS example; the internal Protected helper with its purpose', async () => {
  const { ws, candidates, titles } = await coldStart('alamofire');
  every(candidates, ws);
  assert.ok(!titles.some((t) => /strict concurrency|complete concurrency/i.test(t)), titles.join('\n'));
  assert.ok(titles.includes('The package turns on Swift feature `ExistentialAny`'), titles.join('\n'));
  assert.ok(!titles.some((t) => /SwiftUI/.test(t)));
  assert.ok(
    !candidates.some((c) => c.reasoning.sources.some((s) => s.startsWith('watchOS Example/'))),
    'nothing from the example app',
  );
  const helper = candidates.find((c) => /`Protected`/.test(c.title));
  assert.equal(helper?.title, 'Reuse the internal `Protected`: a thread-safe wrapper around a value');
  const header = candidates.find((c) => /license header/.test(c.title));
  assert.ok(
    header && !/swift-tools-version/.test(header.code ?? ''),
    'the header of a source file, not of Package.swift',
  );
  // Its second line names each file: the template says so instead of copying one file's name.
  assert.match(
    header.code ?? '',
    /^\/\/\n\/\/  <file name>\n\/\/\n\/\/  Copyright \(c\) <year> Alamofire Software Foundation/,
  );
  assert.match(
    header.summary,
    /Start new files with it, the file's own name in it, with the current year for <year>\./,
  );
  assert.ok(!titles.some((t) => /PascalCase|camelCase|4-space|\[weak self\]|defer/.test(t)), titles.join('\n'));
});

test("Objective-C library: a category on UIColor is not a project type; demo apps are not entry points; blocks capture self with the project's own macros", async () => {
  const { ws, candidates, titles } = await coldStart('sdwebimage');
  every(candidates, ws);
  assert.ok(!titles.some((t) => /UIColor/.test(t)), titles.join('\n'));
  assert.ok(!titles.some((t) => /Entry point/.test(t)), titles.join('\n'));
  const weak = candidates.find((c) => /@weakify/.test(c.title));
  assert.ok(weak, titles.join('\n'));
  assert.equal(
    weak.reasoning.sources[0],
    'SDWebImage/Private/SDInternalMacros.h:90',
    'cites the macro the project defines',
  );
  assert.ok(
    !titles.some((t) => /Swift file names|Swift code uses/.test(t)),
    'Package.swift is a build file, not Swift code',
  );
});

test('Kotlin library: nothing mined from samples, testing support or the Maven test project; the header is cited from the library', async () => {
  const { ws, candidates, titles } = await coldStart('okhttp');
  every(candidates, ws);
  for (const c of candidates) {
    for (const s of c.reasoning.sources) {
      assert.ok(
        !/^(samples|okhttp-testing-support|maven-tests|module-tests)\//.test(s) || c.knowledgeType === 'project-profile'
          || c.knowledgeType === 'module-dependency',
        `${c.title}: ${s}`,
      );
    }
  }
  assert.ok(!titles.some((t) => /Catch specific|\.use \{|try-with-resources|naming/.test(t)), titles.join('\n'));
  const header = candidates.find((c) => /Kotlin source files start with/.test(c.title));
  assert.ok(header, titles.join('\n'));
  assert.ok(
    header.reasoning.sources.every((s) => /^(okhttp|okcurl|mockwebserver)[/-]/.test(s)),
    header.reasoning.sources.join(', '),
  );
  // Projects renamed in settings.gradle.kts: a dependency on :mockwebserver is the mockwebserver-deprecated/ folder (blind review).
  const modules = candidates.find((c) => c.knowledgeType === 'module-dependency');
  assert.match(
    modules?.summary ?? '',
    /project names differ from their folders \(such as :mockwebserver is mockwebserver-deprecated\/\)/,
  );
  assert.match(modules?.rationale ?? '', /:mockwebserver3 is mockwebserver\//);
  // The base of the code's graph, not the code generator on a build-time classpath (blind review: "at the base misleads").
  assert.match(modules?.summary ?? '', /At the base: :okhttp;/);
});

const profileOf = (candidates: Candidate[]) => candidates.find((c) => c.knowledgeType === 'project-profile')!;

test('profiles: the commands CI runs, not the ecosystem defaults, what the tests need first (pods, a local test server), and every test file counted', async () => {
  const rg = await coldStart('ripgrep');
  const rgProfile = profileOf(rg.candidates);
  assert.match(rgProfile.rationale ?? '', /^- Test: `cargo test --workspace`$/m);
  assert.match(rgProfile.rationale ?? '', /^- Build: `cargo build --workspace`$/m);
  assert.match(rgProfile.rationale ?? '', /CI also tests with `cargo test --workspace --features pcre2`/);
  assert.ok(
    rgProfile.reasoning.sources.some((s) =>
      s.startsWith('.github/workflows/ci.yml:')
      && /CARGO \}\} test --verbose --workspace \$\{\{ env\.TARGET_FLAGS/.test(lineAt(rg.ws, s))
    ),
    rgProfile.reasoning.sources.join(', '),
  );

  const ok = profileOf((await coldStart('okhttp')).candidates);
  assert.match(ok.rationale ?? '', /^- Test: `\.\/gradlew test allTests`$/m);
  // The library's core dependency is named (a profile that said "none detected" had missed it).
  assert.match(ok.rationale ?? '', /^- Frameworks and libraries: .*\bOkio\b/m);

  const sd = profileOf((await coldStart('sdwebimage')).candidates);
  assert.match(
    sd.rationale ?? '',
    /^- Test: `xcodebuild test -workspace "SDWebImage\.xcworkspace" -scheme "Tests iOS" -destination "platform=iOS Simulator,name=iPhone 16 Pro Max"/m,
  );
  assert.match(sd.summary, /The tests need `pod install` first/);
  // Swift package targets holding Objective-C are not "swift targets" (blind review).
  assert.match(sd.summary, /\d SwiftPM targets?\b/);
  assert.doesNotMatch(sd.summary, /swift targets?\b/);
  // The blind reviewer: the profile should say the oldest iOS it must run on.
  assert.match(
    sd.rationale ?? '',
    /^- Platforms, oldest supported: macOS 10\.11, iOS 9, tvOS 9, watchOS 2 \(Package\.swift\)$/m,
  );

  const af = profileOf((await coldStart('alamofire')).candidates);
  assert.match(af.summary, /The tests need `firewalk` running first/);
  assert.match(
    af.rationale ?? '',
    /^- Test: `xcodebuild -project "Alamofire\.xcodeproj" -scheme "Alamofire macOS" -destination "platform=macOS" -testPlan macOS clean test`$/m,
  );

  const trpc = profileOf((await coldStart('trpc')).candidates);
  assert.match(
    trpc.rationale ?? '',
    /^- Tests: Vitest, 3 test files/m,
    "two of the three use Vitest's globals and import nothing",
  );
  assert.match(trpc.summary, /Tests: Vitest, 3 test files\./);
  // The blind reviewer: `pnpm test` is bare vitest, which keeps watching in a terminal; CI also typechecks.
  assert.match(
    trpc.rationale ?? '',
    /^- `pnpm test` starts Vitest in watch mode in a terminal; `pnpm test --run` runs the tests once$/m,
  );
  assert.match(trpc.rationale ?? '', /^- Typecheck: `pnpm typecheck-packages`$/m);
  assert.match(trpc.rationale ?? '', /^- Language version: Node \^24\.0\.0 \(package\.json:6\)$/m);
});

test('profiles: with no well-known framework, the runtime dependencies (httpcore, anyio; pflag) and the language floor the manifest sets (Go 1.15, Python >=3.9)', async () => {
  const httpx = await coldStart('httpx');
  const hp = profileOf(httpx.candidates);
  assert.match(
    hp.rationale ?? '',
    /^- Frameworks and libraries: none of the well-known ones; it depends on certifi, httpcore, anyio, idna$/m,
  );
  assert.match(hp.rationale ?? '', /^- Language version: Python >=3\.9 \(pyproject\.toml:9\)$/m);
  assert.ok(hp.reasoning.sources.includes('pyproject.toml:9'), hp.reasoning.sources.join(', '));
  const cobra = profileOf((await coldStart('cobra')).candidates);
  assert.match(
    cobra.rationale ?? '',
    /^- Frameworks and libraries: none of the well-known ones; it depends on .*github\.com\/spf13\/pflag/m,
  );
  assert.match(
    cobra.rationale ?? '',
    /^- Language version: Go 1\.15 or newer \(the code must build with it\) \(go\.mod:3\)$/m,
  );
});

test('formatters: "enforced" only where CI, a script or a hook runs the tool (cargo fmt --check), else "configured" (SwiftFormat); Spotless cited where the conventions plugin applies it', async () => {
  const rg = await coldStart('ripgrep');
  const rustfmt = rg.candidates.find((c) => /rustfmt/.test(c.title))!;
  assert.match(rustfmt.title, /^Rust formatting is enforced by rustfmt/);
  assert.match(rustfmt.summary, /CI checks with `cargo fmt --all --check`/);
  assert.ok(
    rustfmt.reasoning.sources.some((s) => lineAt(rg.ws, s).includes('cargo fmt --all --check')),
    rustfmt.reasoning.sources.join(', '),
  );

  const af = (await coldStart('alamofire')).candidates.find((c) => /SwiftFormat/.test(c.title))!;
  assert.match(af.title, /^Swift formatting is configured with SwiftFormat/);
  assert.match(af.summary, /no CI step, script or hook runs it/);

  const ok = await coldStart('okhttp');
  const spotless = ok.candidates.find((c) => /Spotless/.test(c.title))!;
  assert.match(spotless.title, /^Kotlin formatting is enforced by Spotless with ktlint/);
  assert.match(
    spotless.reasoning.sources[0],
    /^build-logic\/src\/main\/kotlin\/okhttp\.quality-conventions\.gradle\.kts:\d+$/,
  );
  // The line that applies ktlint, not the plugin's id (the blind reviewer: "the cited line doesn't show ktlint").
  assert.match(lineAt(ok.ws, spotless.reasoning.sources[0]), /ktlint\(\)/);
});

test('TypeScript monorepo: AnyRouter, defined in an internal folder but documented for users, is not an "internal" helper to reuse; isObject, which no documentation names, is', async () => {
  const { candidates, titles } = await coldStart('trpc');
  assert.ok(!titles.some((t) => /AnyRouter/.test(t)), titles.join('\n'));
  const helper = candidates.find((c) => /^Reuse the internal `isObject\(\)`/.test(c.title))!;
  assert.match(helper.reasoning.whyStandard, /no documentation of the project names it/);
});

test('TypeScript monorepo: an error helper in an internal folder that the server package exports through a barrel file is not "internal"; helpers other packages import say from where', async () => {
  const { ws, candidates, titles } = await coldStart('trpc');
  const error = candidates.find((c) => /`getTRPCErrorFromUnknown\(\)`/.test(c.title));
  assert.ok(error, titles.join('\n'));
  assert.doesNotMatch(error.title, /internal/);
  assert.match(error.title, /from `@trpc\/server`/);
  assert.match(
    error.reasoning.whyStandard,
    /exports it publicly \(packages\/server\/src\/@trpc\/server\/index\.ts:\d+\)/,
  );
  assert.ok(
    error.reasoning.sources.some((s) =>
      s.startsWith('packages/server/src/@trpc/server/index.ts:') && /getTRPCErrorFromUnknown/.test(lineAt(ws, s))
    ),
    error.reasoning.sources.join(', '),
  );
  // Imported through the server package's index, which passes it on from the barrel that passes on error/TRPCError.ts.
  assert.ok(
    error.reasoning.sources.some((s) => s.startsWith('packages/server/src/adapters/next-app-dir/nextAppDirCaller.ts:')),
    error.reasoning.sources.join(', '),
  );
  const helper = candidates.find((c) => /`isObject\(\)`/.test(c.title))!;
  assert.match(helper.summary, /Other packages import it from `@trpc\/server\/unstable-core-do-not-import`/);
  // How it is called, a whole statement from another folder (blind review: "show how it is called").
  assert.match(error.code ?? '', /\n\/\/ Used in packages\/[\w/.-]+\.ts:\d+:\n.*getTRPCErrorFromUnknown\(\w+\);?$/);
});

test("license headers: a one year range is copied as it is; the header shown is the newest file's", async () => {
  const cobra = await coldStart('cobra');
  const header = cobra.candidates.find((c) => /license header/.test(c.title));
  assert.ok(header, cobra.titles.join('\n'));
  assert.match(header.summary, /years as they are: every one says 2013-2023\./);
  assert.match(header.code ?? '', /^\/\/ Copyright 2013-2023 The Cobra Authors$/m);
});

test('TypeScript monorepo: prettier is enforced because CI runs `pnpm format-fix`, the script that calls `pnpm format`, which runs prettier', async () => {
  const { ws, candidates, titles } = await coldStart('trpc');
  const prettier = candidates.find((c) => /prettier/.test(c.title));
  assert.ok(prettier, titles.join('\n'));
  assert.match(prettier.title, /^TypeScript\/JavaScript formatting is enforced by prettier/);
  assert.match(prettier.summary, /CI runs `pnpm format-fix`/);
  assert.ok(
    prettier.reasoning.sources.some((s) =>
      s.startsWith('.github/workflows/lint.yml:') && lineAt(ws, s).includes('pnpm format-fix')
    ),
    prettier.reasoning.sources.join(', '),
  );
});

test("extension points list every conforming type: all of a Swift type's conformances (`@unchecked Sendable, RequestInterceptor`), Kotlin supertypes after a constructor (Android17SocketAdapter), and the refining protocol new types adopt rather than the one it refines", async () => {
  const af = await coldStart('alamofire');
  const interceptor = af.candidates.find((c) => /implement `RequestInterceptor`/.test(c.title));
  assert.ok(interceptor, af.titles.join('\n'));
  for (const t of ['Adapter', 'Interceptor', 'OfflineRetrier', 'Retrier', 'RetryPolicy']) {
    assert.ok(interceptor.summary.includes(t), `${t}: ${interceptor.summary}`);
  }
  assert.ok(
    !af.titles.some((t) => /implement `RequestAdapter`/.test(t)),
    'RequestInterceptor refines RequestAdapter: one candidate, for the protocol new interceptors adopt',
  );
  assert.match(interceptor.summary, /refines `RequestAdapter`/);

  const ok = await coldStart('okhttp');
  const adapter = ok.candidates.find((c) => /implement `SocketAdapter`/.test(c.title));
  assert.ok(adapter, ok.titles.join('\n'));
  assert.match(adapter.summary, /Android17SocketAdapter/);
});

test("Kotlin library: the main() of a side CLI in a library project is not the project's entry point", async () => {
  const { titles } = await coldStart('okhttp');
  assert.ok(!titles.some((t) => /^Entry point/.test(t)), titles.join('\n'));
  assert.ok(
    (await coldStart('ripgrep')).titles.some((t) => /^Entry point/.test(t)),
    "ripgrep's root package is the rg binary",
  );
});

test('Swift package: an `@_spi(WebSocket)` class is declared too (WebSocketRequest extends Request), and a type reached through another is named with it (UploadRequest via DataRequest)', async () => {
  const { candidates, titles } = await coldStart('alamofire');
  const request = candidates.find((c) => /extend `Request`/.test(c.title));
  assert.ok(request, titles.join('\n'));
  assert.match(request.summary, /WebSocketRequest/);
  assert.match(request.summary, /UploadRequest \(via DataRequest\)/);
});

test('Objective-C library: Objective-C headers count as Objective-C in the profile, not as C', async () => {
  const profile = profileOf((await coldStart('sdwebimage')).candidates);
  assert.match(profile.summary, /^objective-c 100 %/);
  assert.ok(!/(^|, )c \d+ %/.test(profile.summary), profile.summary);
});
