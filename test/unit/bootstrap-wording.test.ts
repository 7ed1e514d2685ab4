// The cold start's candidates said so a person reviewing them can act: a type with the
// methods its callers use, an extension point with its purpose and its list (not an import line),
// counts of what was counted, the crates a lint is in, no advice the build tool gives itself.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { bootstrapKnowledge } from '../../src/core/domains/bootstrap';
import { onePerFile } from '../../src/core/domains/bootstrap/dimensions/architecture';
import { listedTogether, onlyTypeChecks } from '../../src/core/domains/bootstrap/dimensions/extension-points';
import { statedRules } from '../../src/core/domains/bootstrap/dimensions/guidelines';
import { nameList } from '../../src/core/domains/bootstrap/form';
import { outlineOf } from '../../src/core/domains/bootstrap/members';
import type { Definition } from '../../src/core/domains/bootstrap/symbols';
import { type Candidate, listCandidates } from '../../src/core/domains/knowledge';
import { closeWorkspaces, workspaceWith } from './structure-helpers';

after(closeWorkspaces);

async function coldStart(files: Record<string, string>): Promise<Candidate[]> {
  const ws = await workspaceWith(files);
  await bootstrapKnowledge(ws, {}, { actor: 'human' });
  return listCandidates(ws, { status: 'any' });
}

/** The cold start's project profile of these files. */
async function profileOf(files: Record<string, string>): Promise<Candidate | undefined> {
  return (await coldStart(files)).find((c) => c.origin === 'bootstrap:project-profile');
}

const find = (cs: Candidate[], re: RegExp): Candidate => {
  const c = cs.find((x) => re.test(x.title));
  assert.ok(c, `no title matches ${re}:\n${cs.map((x) => x.title).join('\n')}`);
  return c;
};

test('a helper type is said and shown with the methods other files call on it (Protected: write, read), not "instead of a local variant"', async () => {
  const files: Record<string, string> = {
    'Package.swift':
      '// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: "Net", targets: [.target(name: "Net", path: "Sources")])\n',
    'Sources/Core/Protected.swift':
      '/// A thread-safe wrapper around a value.\nfinal class Protected<Value> {\n    private var value: Value\n    init(_ value: Value) {\n        self.value = value\n    }\n\n    func read<U>(_ closure: (Value) -> U) -> U {\n        closure(value)\n    }\n\n    func write<U>(_ closure: (inout Value) -> U) -> U {\n        closure(&value)\n    }\n\n    func mutate(_ closure: (inout Value) -> Void) {\n        closure(&value)\n    }\n}\n',
  };
  for (const [i, dir] of ['Core', 'Features', 'Extensions', 'Core', 'Features'].entries()) {
    files[`Sources/${dir}/User${i}.swift`] =
      `final class User${i} {\n    private let state = Protected<Int>(0)\n    private let log = Journal()\n\n    func bump() {\n        state.write { $0 += ${i} }\n        state.write { $0 += 1 }\n        log.write("bump")\n        log.mutate { _ in }\n        log.mutate { _ in }\n    }\n\n    var current: Int {\n        state.read { $0 }\n    }\n}\n`;
  }
  const c = find(await coldStart(files), /Reuse the internal `Protected`/);
  // `log.mutate { }` on a Journal is another type's method of the same name: not counted.
  assert.match(c.summary, /Other files call its `write` and `read`\.$/);
  assert.doesNotMatch(c.summary, /instead of writing a local variant/);
  // The code shows those two signatures, not the initialiser and the private state a 16-line excerpt began with.
  assert.match(
    c.code ?? '',
    /^final class Protected<Value> \{\n    \/\/ …\n    func write<U>\(_ closure: \(inout Value\) -> U\) -> U \{ … \}\n    func read<U>\(_ closure: \(Value\) -> U\) -> U \{ … \}\n\}/,
  );
  assert.doesNotMatch(c.code ?? '', /init\(|private var value/);
});

test('a protocol used across files is said with its implementations (an account delegate protocol)', async () => {
  const files: Record<string, string> = {
    'Package.swift':
      '// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: "Sync", targets: [.target(name: "Sync", path: "Sources")])\n',
    'Sources/Account/AccountDelegate.swift': 'protocol AccountDelegate {\n    func refresh(_ id: String)\n}\n',
  };
  for (const name of ['Local', 'Feedbin', 'Feedly']) {
    files[`Sources/Account/${name}/${name}AccountDelegate.swift`] =
      `final class ${name}AccountDelegate: AccountDelegate {\n    func refresh(_ id: String) {\n        print(id)\n    }\n}\n`;
  }
  for (const dir of ['Timeline', 'Sidebar', 'Settings']) {
    files[`Sources/${dir}/Use.swift`] =
      `struct ${dir}Use {\n    let delegate: AccountDelegate\n    func go() {\n        delegate.refresh("${dir}")\n    }\n}\n`;
  }
  const c = find(await coldStart(files), /Reuse the internal `AccountDelegate`/);
  assert.match(
    c.summary,
    /It is implemented by `\w+AccountDelegate`, `\w+AccountDelegate` and `\w+AccountDelegate`; a new variant implements it too\./,
  );
});

test('an extension point says what its base is for (its doc comment), names every implementation that fits, and cites where they are listed, not the import lines above', async () => {
  const files: Record<string, string> = {
    'src/platform/platform.ts':
      '/** Access to platform-specific features such as TLS and logging. */\nexport abstract class Platform {\n  abstract name(): string;\n}\n',
    'src/platform/registry.ts':
      "import { AndroidPlatform } from './android';\nimport { JdkPlatform } from './jdk';\nimport { ConscryptPlatform } from './conscrypt';\nimport { BouncyPlatform } from './bouncy';\n\nexport function log(message: string): void {\n  console.log(message);\n}\n\nexport function findPlatform() {\n  return [AndroidPlatform, JdkPlatform, ConscryptPlatform, BouncyPlatform].map((P) => new P());\n}\n",
  };
  for (const [file, name] of [
    ['android', 'AndroidPlatform'],
    ['jdk', 'JdkPlatform'],
    ['conscrypt', 'ConscryptPlatform'],
    ['bouncy', 'BouncyPlatform'],
  ]) {
    files[`src/platform/${file}.ts`] =
      `import { Platform } from './platform';\n\nexport class ${name} extends Platform {\n  name(): string {\n    return '${file}';\n  }\n}\n`;
  }
  const c = (await coldStart(files)).find((x) => x.knowledgeType === 'inheritance');
  assert.ok(c);
  assert.match(
    c.summary,
    /^`Platform` \(platform\.ts:2\) — access to platform-specific features such as TLS and logging — is the base of 4 production types: AndroidPlatform, BouncyPlatform, ConscryptPlatform and JdkPlatform\./,
  );
  assert.match(c.summary, /added where the others are listed: `registry\.ts:11`\.$/);
  // Import lines name types without listing them.
  assert.equal(
    listedTogether(['import { A } from "./a";', 'import { B } from "./b";', '', 'const all = [A, B];'], ['A', 'B']),
    4,
  );
});

test('module dependencies: each ecosystem\'s unit (SwiftPM targets), no "declare a dependency first" (the build says so), one source per manifest first; four packages are read at a glance', async () => {
  const manifest = (targets: string[]) =>
    `// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(\n    name: "Reader",\n    targets: [\n${
      targets.map((t, i) =>
        `        .target(name: "${t}", dependencies: [${
          targets.slice(0, i).map((d) => `"${d}"`).join(', ')
        }], path: "Sources/${t}"),`
      ).join('\n')
    }\n    ]\n)\n`;
  const workspace = (targets: string[]) => {
    const files: Record<string, string> = { 'Package.swift': manifest(targets) };
    for (const t of targets) {
      for (const i of [1, 2]) {
        files[`Sources/${t}/${t}${i}.swift`] = `public struct ${t}${i} {\n    public init() {}\n}\n`;
      }
    }
    return files;
  };
  const cs = await coldStart(workspace(['Base', 'Parser', 'Store', 'Sync', 'Views']));
  const c = cs.find((x) => x.knowledgeType === 'module-dependency');
  assert.ok(c, cs.map((x) => x.title).join('\n'));
  assert.match(c.summary, /^5 SwiftPM targets of the product/);
  assert.doesNotMatch(c.summary, /Declare a dependency/);
  assert.ok(
    !(await coldStart(workspace(['Base', 'Parser', 'Store', 'Sync']))).some((x) =>
      x.knowledgeType === 'module-dependency'
    ),
  );
  assert.deepEqual(onePerFile(['a/Package.swift:3', 'a/Package.swift:4', 'b/Package.swift:2', 'a/Package.swift:5']), [
    'a/Package.swift:3',
    'b/Package.swift:2',
    'a/Package.swift:4',
    'a/Package.swift:5',
  ]);
});

test('agent instructions: each rule ends its sentence, no count of "rules" (the files hold commands too), a policy\'s permission is said with its ban', async () => {
  const base: Record<string, string> = {};
  for (let i = 0; i < 3; i++) {
    base[`src/part${i}.ts`] = `export function part${i}(n: number): number {\n  return n + ${i};\n}\n`;
  }
  const claude = find(
    await coldStart({
      ...base,
      'CLAUDE.md':
        '# Notes\n\n## Commands\n\n- `yarn test:typecheck` checks types\n\n## Testing\n\n- **Always run `yarn test:update` before committing**\n',
    }),
    /CLAUDE\.md/,
  );
  assert.match(
    claude.summary,
    /before committing\. CLAUDE\.md is the project's instructions for coding agents, with its build and test commands: read it whole before changing anything\.$/,
  );
  assert.doesNotMatch(claude.summary, /\(\d+ rules?\)/);

  const policy = find(
    await coldStart({
      ...base,
      'AI_POLICY.md':
        '# AI policy\n\nUsing AI as a tool for coding is welcome.\n\n**Autonomous agents are not allowed to be used for contributing to this project.**\n\nAI should not be used to write comments to maintainers.\n',
    }),
    /AI_POLICY\.md/,
  );
  assert.match(
    policy.summary,
    /^Autonomous agents are not allowed to be used for contributing to this project\. Using AI as a tool for coding is welcome\./,
  );
});

test('crate lints say which crate roots set them and how many lints, and `cfg_attr(clippy, deny(warnings))` counts as a Clippy lint', async () => {
  const files: Record<string, string> = {
    'Cargo.toml': '[workspace]\nmembers = ["core", "config", "term"]\n',
    'core/Cargo.toml': '[package]\nname = "core"\nversion = "0.1.0"\n',
    'core/src/lib.rs': '#![deny(missing_docs)]\n\n//! Core.\n\n/// Adds.\npub fn add(a: u32) -> u32 {\n    a + 1\n}\n',
    'term/Cargo.toml': '[package]\nname = "term"\nversion = "0.1.0"\n',
    'term/src/lib.rs':
      '#![deny(missing_docs)]\n\n//! Term.\n\n/// Subtracts.\npub fn sub(a: u32) -> u32 {\n    a - 1\n}\n',
    'config/Cargo.toml': '[package]\nname = "config"\nversion = "0.1.0"\n',
    'config/src/lib.rs': 'pub fn read(a: u32) -> u32 {\n    a * 2\n}\n',
  };
  const c = find(await coldStart(files), /Crate-level lints/);
  assert.match(
    c.summary,
    /^2 of 3 crate roots \(core and term; not config\) deny this lint; code that triggers it does not compile\.$/,
  );

  const clippy = find(
    await coldStart({
      'Cargo.toml': '[package]\nname = "app"\nversion = "0.1.0"\n',
      'src/main.rs':
        '#![deny(clippy::all, clippy::if_not_else)]\n#![cfg_attr(clippy, deny(warnings))]\n\nfn main() {}\n',
    }),
    /Crate-level lints/,
  );
  assert.match(
    clippy.summary,
    /^The crate root denies these lints, and every warning under Clippy \(`cfg_attr\(clippy, deny\(warnings\)\)`\)\.$/,
  );
  // Titled by what the attributes do, not by the attributes cut at 100 characters.
  assert.equal(clippy.title, 'Crate-level lints: every warning fails `cargo clippy` (and `clippy::all` and 1 more)');
  assert.equal(c.title, 'Crate-level lints: `missing_docs` fails the build');
});

test('crate lints name the Clippy command CI runs, and ask for every warning fixed when warnings are denied', async () => {
  const files: Record<string, string> = {
    'Cargo.toml': '[package]\nname = "term"\nversion = "0.1.0"\n',
    'src/main.rs':
      '#![deny(clippy::all, clippy::if_not_else, clippy::enum_glob_use)]\n#![cfg_attr(clippy, deny(warnings))]\n\nfn main() {}\n',
    '.github/workflows/ci.yml':
      'name: ci\non: push\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - run: cargo clippy --all-targets\n',
  };
  const c = find(await coldStart(files), /Crate-level lints/);
  assert.match(c.summary, /CI runs `cargo clippy --all-targets`: fix every warning before pushing\.$/);
  assert.ok(c.reasoning.sources.includes('.github/workflows/ci.yml:7'), c.reasoning.sources.join(', '));
});

test('a formatter run that only reports (`gofmt -l`) checks; it is not said to format', async () => {
  const files: Record<string, string> = {
    'go.mod': 'module example.com/cli\n\ngo 1.22\n',
    '.golangci.yml': 'version: "2"\nformatters:\n  enable:\n    - gofmt\n',
    Makefile:
      'SRC := $(shell find . -name "*.go")\n\nfmt:\n\t@test -z $(shell gofmt -l $(SRC)) || (gofmt -d $(SRC); exit 1)\n',
    '.github/workflows/ci.yml':
      'name: ci\non: push\njobs:\n  fmt:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make fmt\n',
  };
  for (let i = 0; i < 4; i++) files[`cmd${i}.go`] = `package cli\n\nfunc Run${i}(n int) int {\n\treturn n + ${i}\n}\n`;
  const c = find(await coldStart(files), /Go formatting/);
  assert.match(c.summary, /CI checks with `make fmt`/);
  assert.doesNotMatch(c.summary, /the code follows it/);
});

test('boundaries count the places that read the environment, not "variables"; the profile names each test framework a quarter of the tests use', async () => {
  const files: Record<string, string> = { 'pyproject.toml': '[project]\nname = "client"\nversion = "1.0"\n' };
  files['client/_config.py'] =
    'import os\n\n\ndef cert_file():\n    return os.environ.get("SSL_CERT_FILE")\n\n\ndef cert_dir():\n    return os.environ.get("SSL_CERT_DIR")\n\n\ndef proxy():\n    return os.getenv("HTTP_PROXY")\n';
  for (let i = 0; i < 10; i++) files[`client/part${i}.py`] = `def part${i}(n):\n    return n + ${i}\n`;
  const env = find(await coldStart(files), /^Environment variables are read only in/);
  assert.match(
    env.summary,
    /^Of the 11 scanned production Python files, only one holds the 3 places that read environment variables: client\/_config\.py/,
  );

  const swift: Record<string, string> = {
    'Package.swift':
      '// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: "Feeds", targets: [.target(name: "Feeds", path: "Sources"), .testTarget(name: "FeedsTests", dependencies: ["Feeds"], path: "Tests")])\n',
  };
  for (let i = 0; i < 3; i++) swift[`Sources/Feed${i}.swift`] = `public struct Feed${i} {\n    public init() {}\n}\n`;
  for (let i = 0; i < 3; i++) {
    swift[`Tests/Old${i}Tests.swift`] =
      `import XCTest\n\nfinal class Old${i}Tests: XCTestCase {\n    func testIt() {}\n}\n`;
  }
  for (let i = 0; i < 2; i++) swift[`Tests/New${i}Tests.swift`] = `import Testing\n\n@Test func new${i}() {}\n`;
  const profile = await profileOf(swift);
  assert.ok(profile);
  assert.match(profile.summary, /Tests: XCTest and Swift Testing, 5 test files\./);
});

test("an extension point lists what its protocol requires (not what an extension adds, not a nested type's methods); a real implementation with stand-ins (NoOp, Stub) is a seam for tests, not an extension point", async () => {
  const swift: Record<string, string> = {
    'Package.swift':
      '// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: "Feeds", targets: [.target(name: "Feeds", path: "Sources")])\n',
    'Sources/Fetch/ArticleFetcher.swift':
      'protocol ArticleFetcher {\n    func fetchArticles() -> [String]\n    func fetchUnread() -> [String]\n\n    struct Options {\n        func describe() -> String { "" }\n    }\n}\n\nextension ArticleFetcher {\n    func fetchAll() -> [String] {\n        fetchArticles()\n    }\n}\n',
  };
  for (const name of ['Feed', 'Folder', 'SmartFeed']) {
    swift[`Sources/${name}/${name}.swift`] =
      `final class ${name}: ArticleFetcher {\n    func fetchArticles() -> [String] { [] }\n    func fetchUnread() -> [String] { [] }\n}\n`;
  }
  const c = (await coldStart(swift)).find((x) => x.knowledgeType === 'inheritance');
  assert.ok(c);
  assert.match(
    c.summary,
    /A new type in the same role implements it too, with `fetchArticles\(\)` and `fetchUnread\(\)`\.$/,
  );

  const kotlin: Record<string, string> = {
    'settings.gradle.kts': 'rootProject.name = "news"\n',
    'build.gradle.kts': 'plugins { kotlin("jvm") }\n',
  };
  const dir = 'src/main/kotlin/news/analytics';
  kotlin[`${dir}/AnalyticsHelper.kt`] =
    'package news.analytics\n\ninterface AnalyticsHelper {\n    fun logEvent(name: String)\n}\n';
  for (const name of ['NoOpAnalyticsHelper', 'StubAnalyticsHelper', 'FirebaseAnalyticsHelper']) {
    kotlin[`${dir}/${name}.kt`] =
      `package news.analytics\n\nclass ${name} : AnalyticsHelper {\n    override fun logEvent(name: String) {\n        println(name)\n    }\n}\n`;
  }
  const cs = await coldStart(kotlin);
  assert.ok(!cs.some((x) => x.knowledgeType === 'inheritance'), cs.map((x) => x.title).join('\n'));
});

test("an extension point says which of its members have defaults (a Kotlin interface, a Swift protocol's extension), so a new implementation defines only what it must", async () => {
  const kotlin: Record<string, string> = {
    'settings.gradle.kts': 'rootProject.name = "img"\n',
    'build.gradle.kts': 'plugins { kotlin("jvm") }\n',
  };
  kotlin['src/main/kotlin/img/target/Target.kt'] =
    'package img.target\n\ninterface Target {\n    /**\n     * Called when the request starts.\n     */\n    fun onStart(placeholder: String?) {}\n\n    fun onError(error: String?) {}\n\n    fun onSuccess(\n        result: String,\n    ) {}\n}\n';
  for (const [dir, name, method] of [
    ['view', 'ViewTarget', 'onStart'],
    ['compose', 'PainterTarget', 'onError'],
    ['widget', 'WidgetTarget', 'onSuccess'],
  ]) {
    kotlin[`src/main/kotlin/img/${dir}/${name}.kt`] =
      `package img.${dir}\n\nimport img.target.Target\n\nclass ${name} : Target {\n    override fun ${method}(value: String?) {\n        println(value)\n    }\n}\n`;
  }
  const k = (await coldStart(kotlin)).find((x) => x.knowledgeType === 'inheritance');
  assert.ok(k);
  assert.match(
    k.summary,
    /A new type in the same role implements it too, and `onStart\(\)`, `onError\(\)` and `onSuccess\(\)` have defaults, so it defines only what it needs\.$/,
  );

  const swift: Record<string, string> = {
    'Package.swift':
      '// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: "Feeds", targets: [.target(name: "Feeds", path: "Sources")])\n',
    'Sources/Counts/UnreadCountProvider.swift':
      '@MainActor public protocol UnreadCountProvider {\n\tvar unreadCount: Int { get }\n\n\tfunc postUnreadCountDidChange()\n}\n\npublic extension UnreadCountProvider {\n\n\tfunc postUnreadCountDidChange() {\n\t\tprint(unreadCount)\n\t}\n}\n',
  };
  for (const name of ['Feed', 'Folder', 'Account']) {
    swift[`Sources/${name}/${name}.swift`] =
      `final class ${name}: UnreadCountProvider {\n\tvar unreadCount: Int { 0 }\n}\n`;
  }
  const s = (await coldStart(swift)).find((x) => x.knowledgeType === 'inheritance');
  assert.ok(s);
  assert.match(
    s.summary,
    /A new type in the same role implements it too, with `unreadCount` \(`postUnreadCountDidChange\(\)` has a default\)\.$/,
  );
  // The code shows the property a new type must provide (an excerpt had left out `var identifier: String { get }`).
  assert.equal(
    s.code,
    '@MainActor public protocol UnreadCountProvider {\n\t// …\n\tvar unreadCount: Int { get }\n\tfunc postUnreadCountDidChange()\n}',
  );
});

test("an extension point says what a new subclass defines: the base's stub that raises NotImplementedError (Python transports), a Swift method that stops at preconditionFailure (a `run()`), with the base's own implementations first", async () => {
  const python: Record<string, string> = {
    'pyproject.toml': '[project]\nname = "client"\nversion = "1.0"\n',
    'client/base.py':
      'class BaseTransport:\n    def handle_request(self, request: str) -> str:\n        raise NotImplementedError\n\n\nclass AsyncBaseTransport:\n    async def handle_async_request(\n        self,\n        request: str,\n    ) -> str:\n        """\n        Send a single HTTP request and return a response.\n        """\n        raise NotImplementedError("The handle_async_request method must be implemented.")\n\n    @abstractmethod\n    def _check_open(self) -> None:\n        pass\n\n    def _helper(self) -> int:\n        return 1\n\n    async def aclose(self) -> None:\n        if self.closed:\n            raise NotImplementedError\n        self.closed = True\n',
  };
  for (const name of ['http', 'wsgi', 'mock']) {
    python[`client/${name}/transport.py`] =
      `from client.base import BaseTransport\n\n\nclass ${name.toUpperCase()}Transport(BaseTransport):\n    def handle_request(self, request: str) -> str:\n        return request\n`;
  }
  for (const name of ['asgi', 'pool', 'replay']) {
    python[`client/${name}/transport.py`] =
      `from client.base import AsyncBaseTransport\n\n\nclass ${name.toUpperCase()}Transport(AsyncBaseTransport):\n    async def handle_async_request(self, request: str) -> str:\n        return request\n`;
  }
  // The sync and the async base are one extension point: one card, naming the twin.
  const cards = (await coldStart(python)).filter((x) => x.knowledgeType === 'inheritance');
  assert.equal(cards.length, 1, cards.map((x) => x.title).join('\n'));
  assert.match(cards[0].summary, /^`AsyncBaseTransport` \(client\/base\.py:6\)/);
  // A private method counts when a subclass must define it (`_check_setup_finished`); a private helper does not.
  assert.match(
    cards[0].summary,
    /A new type in the same role extends it too, with `handle_async_request\(\)` and `_check_open\(\)`\. Its sync twin is `BaseTransport` \(:1\)\.$/,
  );
  // The code is those signatures, decorators included, not the class's first lines.
  assert.equal(
    cards[0].code,
    'class AsyncBaseTransport:\n    async def handle_async_request(\n        self,\n        request: str,\n    ) -> str: ...\n    @abstractmethod\n    def _check_open(self) -> None: ...',
  );

  const swift: Record<string, string> = {
    'Package.swift':
      '// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: "Ops", targets: [.target(name: "Ops", path: "Sources")])\n',
    'Sources/Ops/MainThreadOperation.swift':
      'open class MainThreadOperation {\n\tpublic init() {}\n\n\topen func run() {\n\t\tpreconditionFailure("run must be overridden")\n\t}\n\n\tpublic func cancel() {}\n}\n\nfinal class BlockOperation: MainThreadOperation {\n\toverride func run() {}\n}\n',
    // A throwaway subclass far from the base sorts before it by path; it is not the example to lead with.
    'Sources/Cache/Cache.swift':
      'final class Cache {\n\tfunc clean() {\n\t\tfinal class AOperation: MainThreadOperation {\n\t\t\toverride func run() {}\n\t\t}\n\t\tAOperation().run()\n\t}\n}\n',
  };
  for (const name of ['Sync', 'Fetch']) {
    swift[`Sources/${name}/${name}Operation.swift`] =
      `final class ${name}Operation: MainThreadOperation {\n\toverride func run() {\n\t\tcancel()\n\t}\n}\n`;
  }
  const o = (await coldStart(swift)).find((x) => x.knowledgeType === 'inheritance');
  assert.ok(o);
  assert.match(o.summary, /is the base of 4 production types: BlockOperation, /);
  // The base's run() stops at preconditionFailure: a subclass must define it.
  assert.match(o.summary, /A new type in the same role extends it too, with `run\(\)`\.$/);
});

test('the profile gives the agent file\'s own commands (a CLAUDE.md naming build_and_test.sh), not "follow them"', async () => {
  const files: Record<string, string> = {
    // What the guide names exists: a documented command counts only when the repository defines what it runs.
    'package.json': JSON.stringify(
      { name: 'reader', private: true, scripts: { build: 'tsc', test: 'vitest', typecheck: 'tsc --noEmit' } },
      null,
      2,
    ),
    'buildscripts/build_and_test.sh': '#!/bin/sh\nset -e\nnpm run build\nnpm test\n',
    'CLAUDE.md':
      '# CLAUDE.md\n\n## Commands\n\n- **Full build and test**: `./buildscripts/build_and_test.sh` - builds and runs all tests\n- **Types**: `npm run typecheck`\n',
  };
  for (let i = 0; i < 3; i++) {
    files[`src/part${i}.ts`] = `export function part${i}(n: number): number {\n  return n + ${i};\n}\n`;
  }
  const profile = await profileOf(files);
  assert.ok(profile);
  assert.match(
    profile.summary,
    /Commands from CLAUDE\.md: `\.\/buildscripts\/build_and_test\.sh`, `npm run typecheck`\.$/,
  );
  assert.ok(profile.reasoning.sources.includes('CLAUDE.md:5'), profile.reasoning.sources.join(', '));
  // The generic script commands are not offered beside the agent file's own.
  assert.doesNotMatch(profile.rationale ?? '', /^- (Build|Test): /m);
  assert.match(profile.rationale ?? '', /^- CLAUDE\.md gives: /m);
});

test("the stack of a Kotlin app is what its files import most (Compose, Hilt, Room), never the project's own packages (a library's imports of its own package)", async () => {
  const files: Record<string, string> = {
    'settings.gradle.kts': 'rootProject.name = "news"\n',
    'build.gradle.kts': 'plugins { kotlin("jvm") }\n',
  };
  const dir = 'src/main/kotlin/okhttp3/news';
  for (let i = 0; i < 4; i++) {
    files[`${dir}/Screen${i}.kt`] =
      `package okhttp3.news\n\nimport androidx.compose.runtime.Composable\nimport dagger.hilt.android.lifecycle.HiltViewModel\nimport okhttp3.news.model.Item\n\n@Composable\nfun Screen${i}(item: Item) {\n    println(item)\n}\n`;
  }
  files[`${dir}/Store.kt`] =
    'package okhttp3.news\n\nimport androidx.room.Dao\n\n@Dao\ninterface Store {\n    fun all(): List<String>\n}\n';
  const profile = await profileOf(files);
  assert.ok(profile);
  assert.match(profile.summary, /Uses Jetpack Compose, Hilt, Room\./);
  assert.doesNotMatch(profile.summary, /OkHttp/);
});

test('a boundary says the project interface its files implement, declared elsewhere: other code depends on that (a network data source interface)', async () => {
  const files: Record<string, string> = {
    'settings.gradle.kts': 'rootProject.name = "news"\n',
    'build.gradle.kts': 'plugins { kotlin("jvm") }\n',
  };
  const dir = 'core/network/src/main/kotlin/com/example/news/core/network';
  files[`${dir}/NewsDataSource.kt`] =
    'package com.example.news.core.network\n\ninterface NewsDataSource {\n    suspend fun topics(): List<String>\n}\n';
  files[`${dir}/retrofit/RetrofitNews.kt`] =
    'package com.example.news.core.network.retrofit\n\nimport com.example.news.core.network.NewsDataSource\nimport okhttp3.OkHttpClient\nimport retrofit2.Retrofit\n\ninternal class RetrofitNews @Inject constructor(\n    json: String,\n) : NewsDataSource {\n    private val client = OkHttpClient()\n    private val other = OkHttpClient()\n    private val api = Retrofit.Builder().build()\n\n    override suspend fun topics(): List<String> = listOf(json)\n}\n';
  for (let i = 0; i < 10; i++) {
    files[`feature/f${i}/src/main/kotlin/com/example/news/feature/f${i}/View${i}.kt`] =
      `package com.example.news.feature.f${i}\n\nimport com.example.news.core.network.NewsDataSource\n\nsuspend fun view${i}(source: NewsDataSource): Int = source.topics().size + ${i}\n`;
  }
  const c = find(await coldStart(files), /^HTTP requests are made only in/);
  assert.match(
    c.summary,
    /: RetrofitNews\.kt\. New code goes through `NewsDataSource` \(implemented by `RetrofitNews`\), not through these files directly\.$/,
  );
});

test('the module graph says how many of its edges convention plugins add, and cites a plugin first', async () => {
  const files: Record<string, string> = {
    'settings.gradle.kts': 'pluginManagement {\n    includeBuild("build-logic")\n}\nrootProject.name = "nia"\n'
      + ['core:ui', 'core:model', 'core:data', 'feature:a', 'feature:b', 'feature:c'].map((p) => `include(":${p}")`)
        .join('\n')
      + '\n',
    'build-logic/convention/build.gradle.kts':
      'gradlePlugin {\n    plugins {\n        register("feature") {\n            id = "nia.feature"\n            implementationClass = "FeatureConventionPlugin"\n        }\n    }\n}\n',
    'build-logic/convention/src/main/kotlin/FeatureConventionPlugin.kt':
      'class FeatureConventionPlugin : Plugin<Project> {\n    override fun apply(target: Project) {\n        dependencies {\n            "implementation"(project(":core:ui"))\n        }\n    }\n}\n',
    'core/ui/build.gradle.kts':
      'plugins {\n    id("com.android.library")\n}\ndependencies {\n    implementation(project(":core:model"))\n}\n',
    'core/model/build.gradle.kts': 'plugins {\n    id("com.android.library")\n}\n',
    'core/data/build.gradle.kts':
      'plugins {\n    id("com.android.library")\n}\ndependencies {\n    implementation(project(":core:model"))\n}\n',
  };
  for (const f of ['a', 'b', 'c']) {
    files[`feature/${f}/build.gradle.kts`] =
      'plugins {\n    id("nia.feature")\n}\ndependencies {\n    implementation(project(":core:data"))\n}\n';
  }
  for (const p of ['core/ui', 'core/model', 'core/data', 'feature/a', 'feature/b', 'feature/c']) {
    files[`${p}/src/main/kotlin/com/example/${p.replace('/', '')}/Part.kt`] = `package com.example.${
      p.replace('/', '')
    }\n\nclass Part\n`;
  }
  const c = (await coldStart(files)).find((x) => x.knowledgeType === 'module-dependency');
  assert.ok(c);
  assert.match(
    c.summary,
    /with 8 dependencies between them; 3 of them are added by convention plugins \(`FeatureConventionPlugin`\)\./,
  );
  assert.equal(c.reasoning.sources[0], 'build-logic/convention/src/main/kotlin/FeatureConventionPlugin.kt:4');
});

test('entry points: a Django site starts at its ASGI application and its Celery app, not manage.py; a Go generator built only by go generate is not one', async () => {
  const django: Record<string, string> = {
    'pyproject.toml': '[project]\nname = "shop"\nversion = "1.0"\n',
    'manage.py':
      '#!/usr/bin/env python\nimport sys\n\nif __name__ == "__main__":\n    from django.core.management import execute_from_command_line\n    execute_from_command_line(sys.argv)\n',
    'shop/asgi/__init__.py':
      'from django.core.asgi import get_asgi_application\n\napplication = get_asgi_application()\n',
    'shop/celeryconf.py': 'from celery import Celery\n\napp = Celery("shop")\n',
  };
  for (let i = 0; i < 4; i++) django[`shop/part${i}.py`] = `def part${i}(n):\n    return n + ${i}\n`;
  const site = find(await coldStart(django), /^Entry point/);
  assert.equal(site.title, 'Entry points: `shop/asgi/__init__.py` and `shop/celeryconf.py`');
  // An ASGI site is said as one, with no WSGI module it does not have; one app at the root is not named at each start.
  assert.equal(
    site.summary,
    'Execution starts in shop/asgi/__init__.py (ASGI application); shop/celeryconf.py (Celery app).',
  );

  // Several applications: each start says whose it is (a macOS app, an iOS app and a widget).
  const apps: Record<string, string> = {
    'settings.gradle.kts': 'rootProject.name = "tools"\ninclude(":cli")\ninclude(":server")\n',
  };
  for (const name of ['cli', 'server']) {
    apps[`${name}/build.gradle.kts`] = 'plugins {\n    kotlin("jvm")\n    application\n}\n';
    apps[`${name}/src/main/kotlin/tools/${name}/Main.kt`] =
      `package tools.${name}\n\nfun main() {\n    println("${name}")\n}\n`;
  }
  const starts = find(await coldStart(apps), /^Entry point/);
  assert.equal(
    starts.summary,
    'Execution starts in cli/src/main/kotlin/tools/cli/Main.kt (Kotlin main, the app :cli); server/src/main/kotlin/tools/server/Main.kt (Kotlin main, the app :server).',
  );

  const go: Record<string, string> = {
    'go.mod': 'module example.com/photos\n\ngo 1.22\n',
    'cmd/photos/main.go': 'package main\n\nfunc main() {}\n',
    'internal/ai/gen.go': '//go:build ignore\n\npackage main\n\nfunc main() {}\n',
  };
  for (let i = 0; i < 4; i++) go[`internal/p${i}/p.go`] = `package p${i}\n\nfunc Run() int { return ${i} }\n`;
  const app = find(await coldStart(go), /^Entry point/);
  assert.equal(app.title, 'Entry point: `cmd/photos/main.go`');
});

test("type checks are not where implementations are listed (a read filter's exceptions), a registry is; a protocol of one property is not an extension point", async () => {
  assert.equal(
    onlyTypeChecks(
      [
        'func exceptions(_ item: SidebarItem?) {',
        'if item is SmartFeed {',
        '} else if let f = item as? Folder {',
        '  return f is Feed',
      ],
      ['SidebarItem', 'SmartFeed', 'Folder', 'Feed'],
    ),
    true,
  );
  assert.equal(
    onlyTypeChecks(
      ['let all: [Platform] = [Jdk9Platform(), ConscryptPlatform()]'],
      ['Jdk9Platform', 'ConscryptPlatform'],
    ),
    false,
  );
  assert.equal(onlyTypeChecks(['if (x instanceof A || isinstance(y, (B, C))) {'], ['A', 'B', 'C']), true);
  // A switch that dispatches on each (Session.perform) is where they are listed.
  assert.equal(
    onlyTypeChecks(
      [
        'switch request {',
        'case let r as UploadRequest: self.performUpload(r)',
        'case let r as DataRequest: self.performData(r)',
      ],
      ['UploadRequest', 'DataRequest'],
    ),
    false,
  );

  const files: Record<string, string> = {
    'Package.swift':
      '// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: "Feeds", targets: [.target(name: "Feeds", path: "Sources")])\n',
    'Sources/Fetch/ArticleFetcher.swift': 'protocol ArticleFetcher {\n    func fetchArticles() -> [String]\n}\n',
    'Sources/Fetch/DisplayNameProvider.swift':
      'protocol DisplayNameProvider {\n    var nameForDisplay: String { get }\n}\n',
    'Sources/Timeline/Filter.swift':
      'func exceptions(_ f: Any) -> Bool {\n    if f is SmartFeed { return true }\n    if f is Folder { return true }\n    return f is Feed\n}\n',
  };
  for (const name of ['Feed', 'Folder', 'SmartFeed']) {
    files[`Sources/${name}/${name}.swift`] =
      `final class ${name}: ArticleFetcher, DisplayNameProvider {\n    var nameForDisplay: String { "${name}" }\n    func fetchArticles() -> [String] { [] }\n}\n`;
  }
  const cs = await coldStart(files);
  const fetcher = cs.find((x) => x.knowledgeType === 'inheritance' && /ArticleFetcher/.test(x.title));
  assert.ok(fetcher, cs.map((x) => x.title).join('\n'));
  assert.doesNotMatch(fetcher.summary, /where the others are listed/);
  assert.ok(
    !cs.some((x) => x.knowledgeType === 'inheritance' && /DisplayNameProvider/.test(x.title)),
    cs.map((x) => x.title).join('\n'),
  );
});

test('the profile cites the line of a manifest that shows the target or the build, not line 1 under a licence header (a build.gradle.kts, a package.json)', async () => {
  const licence = '/*\n * Copyright (C) 2024 Example\n *\n * Licensed under the Apache License, Version 2.0\n */\n';
  const gradle: Record<string, string> = {
    'settings.gradle.kts': `${licence}rootProject.name = "net"\ninclude(":core")\n`,
    'build.gradle.kts': `${licence}plugins {\n  kotlin("jvm") version "2.0.0" apply false\n}\n`,
    'core/build.gradle.kts': `${licence}plugins {\n  kotlin("jvm")\n}\n`,
  };
  for (let i = 0; i < 3; i++) {
    gradle[`core/src/main/kotlin/net/Part${i}.kt`] = `package net\n\nclass Part${i} {\n    fun run(): Int = ${i}\n}\n`;
  }
  const kotlin = await profileOf(gradle);
  assert.ok(kotlin);
  const cited = kotlin.reasoning.sources.filter((s) => /gradle\.kts:/.test(s));
  assert.ok(cited.length > 0, kotlin.reasoning.sources.join(', '));
  for (const s of cited) {
    assert.match(s, /gradle\.kts:(6|7)$/, `past the licence header: ${kotlin.reasoning.sources.join(', ')}`);
  }

  const npm: Record<string, string> = {
    'package.json': JSON.stringify(
      {
        private: true,
        description: 'a web app',
        name: 'web',
        scripts: { build: 'tsc' },
        dependencies: { react: '^18.0.0' },
      },
      null,
      2,
    ),
  };
  for (let i = 0; i < 3; i++) {
    npm[`src/part${i}.tsx`] =
      `import React from 'react';\nexport function Part${i}() {\n  return <div>{${i}}</div>;\n}\n`;
  }
  const web = await profileOf(npm);
  assert.ok(web);
  assert.ok(!web.reasoning.sources.includes('package.json:1'), web.reasoning.sources.join(', '));
  assert.ok(web.reasoning.sources.includes('package.json:4'), `the "name" line: ${web.reasoning.sources.join(', ')}`);
});

test('the profile lists the application first, then the biggest packages (an Android :app was fifth, after four libraries), but not a small tool beside a library', async () => {
  const files: Record<string, string> = {
    'settings.gradle.kts': 'rootProject.name = "news"\ninclude(":app")\ninclude(":core:data")\n',
    'build.gradle.kts': 'plugins {\n  id("com.android.application") version "8.5.0" apply false\n}\n',
    'app/build.gradle.kts':
      'plugins {\n  id("com.android.application")\n}\ndependencies {\n  implementation(project(":core:data"))\n}\n',
    'core/data/build.gradle.kts': 'plugins {\n  id("com.android.library")\n}\n',
    'app/src/main/kotlin/news/MainActivity.kt': 'package news\n\nclass MainActivity {\n    fun start(): Int = 1\n}\n',
    'app/src/main/kotlin/news/NewsApp.kt': 'package news\n\nclass NewsApp {\n    fun create(): Int = 2\n}\n',
  };
  for (let i = 0; i < 6; i++) {
    files[`core/data/src/main/kotlin/news/data/Repo${i}.kt`] =
      `package news.data\n\nclass Repo${i} {\n    fun load(): Int = ${i}\n}\n`;
  }
  const profile = await profileOf(files);
  assert.ok(profile);
  assert.match(profile.rationale ?? '', /^- Targets: :app \(app\), :core:data \(library\)/m);

  // A command-line tool with a few files beside the library it demonstrates.
  for (let i = 6; i < 12; i++) {
    files[`core/data/src/main/kotlin/news/data/Repo${i}.kt`] =
      `package news.data\n\nclass Repo${i} {\n    fun load(): Int = ${i}\n}\n`;
  }
  const library = await profileOf(files);
  assert.match(library?.rationale ?? '', /^- Targets: :core:data \(library\), :app \(app\)/m);
});

test("an outline of a type keeps each called method's whole signature and elides its body: Kotlin expression bodies and companion members, Python methods; a method the file lacks gives no outline", () => {
  const kotlin =
    'open class Platform {\n  open fun log(\n    message: String,\n    level: Int = INFO,\n  ) {\n    println(message)\n  }\n\n  companion object {\n    @Volatile private var platform = findPlatform()\n\n    fun get(): Platform = platform\n  }\n}\n';
  const def = { name: 'Platform', family: 'kotlin', line: 1, path: 'Platform.kt', kind: 'type' } as Definition;
  assert.equal(
    outlineOf(kotlin, def, ['get', 'log']),
    'open class Platform {\n  // …\n  fun get(): Platform = …\n  open fun log(\n    message: String,\n    level: Int = INFO,\n  ) { … }\n}',
  );
  assert.equal(outlineOf(kotlin, def, ['get', 'missing']), undefined);
  const python =
    'class Headers(typing.MutableMapping[str, str]):\n    """HTTP headers."""\n\n    def get_list(self, key: str, split_commas: bool = False) -> list[str]:\n        """Return a list of all header values."""\n        return []\n\n    def update(\n        self,\n        headers: HeaderTypes | None = None,\n    ) -> None:  # type: ignore\n        pass\n';
  const py = { name: 'Headers', family: 'python', line: 1, path: 'h.py', kind: 'type' } as Definition;
  assert.equal(
    outlineOf(python, py, ['update', 'get_list']),
    'class Headers(typing.MutableMapping[str, str]):\n    def update(\n        self,\n        headers: HeaderTypes | None = None,\n    ) -> None: ...\n    def get_list(self, key: str, split_commas: bool = False) -> list[str]: ...',
  );
});

test("the error model is each module's own error type when the thrown types live in different modules (AccountError, WebserviceError), and a nested `Error` is said as such", async () => {
  const files: Record<string, string> = {
    'Package.swift':
      '// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: "Reader", targets: [.target(name: "Account", path: "Sources/Account"), .target(name: "Web", path: "Sources/Web")])\n',
    'Sources/Account/AccountError.swift': 'public enum AccountError: Error {\n    case invalid\n}\n',
    'Sources/Web/WebserviceError.swift': 'public enum WebserviceError: Error {\n    case offline\n}\n',
    'Sources/Web/Socket.swift':
      'final class Socket {\n    enum Error: Swift.Error {\n        case closed\n    }\n\n    func send() throws {\n        throw Error.closed\n    }\n}\n',
  };
  for (let i = 0; i < 4; i++) {
    files[`Sources/Account/Sync${i}.swift`] =
      `struct Sync${i} {\n    func run(_ ok: Bool) throws {\n        if !ok {\n            throw AccountError.invalid\n        }\n    }\n}\n`;
  }
  for (let i = 0; i < 3; i++) {
    files[`Sources/Web/Fetch${i}.swift`] =
      `struct Fetch${i} {\n    func run(_ ok: Bool) throws {\n        if !ok {\n            throw WebserviceError.offline\n        }\n    }\n}\n`;
  }
  const c = find(await coldStart(files), /error type/);
  assert.match(c.title, /^Throw each module's own error type \(`AccountError` and `WebserviceError`\), not /);
  assert.match(
    c.summary,
    /^8 of 8 throw sites \(100 %\) use project error types, each module its own \(AccountError ×4 in Account, WebserviceError ×3 in Web, nested `Error` types ×1 in Web\)\./,
  );
});

test('an agent file\'s long first rule is said in whole sentences, title and summary ("Never block a request/worker thread."); a contributor guide\'s long first rule by its binding sentence (a generative-AI rule)', async () => {
  const long =
    '**Never block a request/worker thread.** No `time.sleep()` and no unbounded `while True` retry loops\n  in request-handling code — a blocked thread wastes a finite pod worker slot and starves every other request\n  that the same worker would have served. Use bounded retries and background tasks.';
  const files: Record<string, string> = {
    'AGENTS.md': `# Agents\n\n## Rules\n\n- ${long}\n- Prefer small pull requests.\n`,
    'src/app.py': 'def run():\n    return 1\n',
  };
  const cs = await coldStart(files);
  const agents = find(cs, /AGENTS\.md/);
  assert.match(agents.title, /`AGENTS\.md`\)?: Never block a request\/worker thread\.?$/);
  assert.match(agents.summary, /^Never block a request\/worker thread\. AGENTS\.md is the project's instructions/);
  const guide: Record<string, string> = {
    'CONTRIBUTING.md':
      "## Contributing\n\n## Pull Request Expectations\n\n1. Your contribution should be high quality, and best effort. In particular, please don't make a Pull Request\n   that was created using generative AI unless you have reviewed it yourself and understand what it does, and be\n   able to meaningfully answer questions and make changes to it as needed.\n2. Your code should successfully compile and pass tests before publishing a Pull Request. It's understandable\n   if tests fail on one or two specific targets.\n3. If an AI coding assistant or other LLM tool was used, you must indicate that an AI tool was used, and to what extent it was used.\n",
    'src/app.py': 'def run():\n    return 1\n',
  };
  const contributing = find(await coldStart(guide), /Rules stated in `CONTRIBUTING\.md`/);
  // Up to the clause that binds, without "In particular, ".
  assert.match(
    contributing.summary,
    /^CONTRIBUTING\.md \("Pull Request Expectations"\): Please don't make a Pull Request that was created using generative AI unless you have reviewed it yourself and understand what it does \(and 1 more\)\.$/,
  );
  assert.doesNotMatch(contributing.summary, /…/);
});

test("the profile lists a package script CI runs as a check even when the contributor guide's commands are shown instead of the scripts (a typecheck-packages script)", async () => {
  const files: Record<string, string> = {
    'package.json': JSON.stringify(
      {
        name: 'rpc',
        private: true,
        scripts: {
          build: 'tsc -b',
          test: 'vitest',
          'typecheck-packages': 'pnpm run --parallel --filter=./packages/* typecheck',
          'typecheck-www': 'turbo --filter www typecheck',
        },
      },
      null,
      2,
    ),
    'CONTRIBUTING.md':
      '# Contributing\n\n## Development workflow\n\n```bash\npnpm install\npnpm build\n```\n\n## Testing\n\n```bash\npnpm test\n```\n',
    '.github/workflows/main.yml':
      'on: [pull_request]\njobs:\n  build:\n    steps:\n      - run: pnpm build\n  typecheck:\n    steps:\n      - run: pnpm typecheck-packages\n  typecheck-www:\n    steps:\n      - run: pnpm typecheck-www\n  test:\n    steps:\n      - run: pnpm test --coverage\n',
    'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
    'src/index.ts': 'export const x = 1;\n',
  };
  const profile = await profileOf(files);
  assert.ok(profile);
  assert.match(
    profile.rationale ?? '',
    /- CI checks \(a change must pass them\): `pnpm typecheck-packages` \(\.github\/workflows\/main\.yml:8\), `pnpm typecheck-www`/,
  );
});

test("the module graph's base and top are those of the code: not a lint jar published with a library nor a BOM's constraints (a `-lint` and a `-bom` project)", async () => {
  const projects = ['coil-core', 'coil-lint', 'coil-bom', 'coil-compose', 'coil-gif', 'coil-svg'];
  const files: Record<string, string> = {
    'settings.gradle.kts': 'rootProject.name = "coil"\n' + projects.map((p) => `include(":${p}")`).join('\n') + '\n',
    'coil-core/build.gradle.kts':
      'plugins {\n    id("com.android.library")\n}\ndependencies {\n    lintPublish(project(":coil-lint"))\n}\n',
    'coil-lint/build.gradle.kts': 'plugins {\n    kotlin("jvm")\n}\n',
    'coil-bom/build.gradle.kts':
      'plugins {\n    id("java-platform")\n}\ndependencies {\n    constraints {\n        api(project(":coil-core"))\n        api(project(":coil-compose"))\n        api(project(":coil-gif"))\n        api(project(":coil-svg"))\n    }\n}\n',
  };
  for (const p of ['coil-compose', 'coil-gif', 'coil-svg']) {
    files[`${p}/build.gradle.kts`] =
      'plugins {\n    id("com.android.library")\n}\ndependencies {\n    api(project(":coil-core"))\n}\n';
  }
  for (const p of projects) {
    files[`${p}/src/main/kotlin/coil/${p.replace(/-/g, '')}/Part.kt`] = `package coil.${
      p.replace(/-/g, '')
    }\n\nclass Part\n`;
  }
  const c = (await coldStart(files)).find((x) => x.knowledgeType === 'module-dependency');
  assert.ok(c);
  assert.match(c.summary, /At the base: :coil-core; on top: :coil-compose, :coil-gif and :coil-svg\./);
});

test("a Swift conformance added by an extension makes a project type an implementation (`extension Feed: ArticleFetcher`), not a platform type's (an extension of a cross-platform image alias); a one-property protocol with an attribute is still a label", async () => {
  const swift: Record<string, string> = {
    'Package.swift':
      '// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: "Feeds", targets: [.target(name: "Feeds", path: "Sources")])\n',
    'Sources/Fetch/ArticleFetcher.swift':
      'public protocol ArticleFetcher {\n    func fetchArticles() -> [String]\n}\n\nextension Feed: ArticleFetcher {\n    public func fetchArticles() -> [String] { [] }\n}\n\nextension Folder: ArticleFetcher {\n    public func fetchArticles() -> [String] { [] }\n}\n\nextension UIImage: ArticleFetcher {\n    public func fetchArticles() -> [String] { [] }\n}\n',
    'Sources/Icons/SmallIconProvider.swift':
      'protocol SmallIconProvider {\n\t@MainActor var smallIcon: String? { get }\n}\n\n@MainActor extension Feed: SmallIconProvider {\n\tvar smallIcon: String? { nil }\n}\n\n@MainActor extension Folder: SmallIconProvider {\n\tvar smallIcon: String? { nil }\n}\n\n@MainActor extension SmartFeed: SmallIconProvider {\n\tvar smallIcon: String? { nil }\n}\n',
    'Sources/Smart/SmartFeed.swift':
      'final class SmartFeed: ArticleFetcher {\n    func fetchArticles() -> [String] { [] }\n}\n',
    'Sources/Model/Feed.swift': 'public final class Feed {\n    public init() {}\n}\n',
    'Sources/Tree/Folder.swift': 'public final class Folder {\n    public init() {}\n}\n',
  };
  const cards = (await coldStart(swift)).filter((x) => x.knowledgeType === 'inheritance');
  assert.deepEqual(cards.map((c) => c.title), ['Swift `Feed`, `SmartFeed` and `Folder` implement `ArticleFetcher`']);
  assert.match(
    cards[0].summary,
    /is the base of 3 production types: Feed, SmartFeed and Folder\. A new type in the same role implements it too, with `fetchArticles\(\)`\.$/,
  );
});

test('an agent file\'s headline rule comes from its general rules section, not from one narrow workflow\'s bold rule ("## Rules" over "Iterating on a contributor PR")', async () => {
  const files: Record<string, string> = {
    'AGENTS.md':
      '# AGENTS.md\n\n## Rules\n\n- Any change to `packages/core/src` must be benchmarked before it is merged.\n- Never bump versions in `package.json` by hand.\n\n## TypeScript Guidelines\n\n- Prefer immutable data (const, readonly).\n\n## Iterating on a contributor PR in a worktree\n\n- **Preserve contributor commits.** Never `git reset --hard` a contributor branch.\n',
    'src/app.ts': 'export const x = 1;\n',
  };
  const c = find(await coldStart(files), /AGENTS\.md/);
  assert.match(c.title, /\): Never bump versions in `package\.json` by hand$/);
});

test('a helper type whose nested types other files reach through it is said with them (Assets.Images and Assets.Colors)', async () => {
  const files: Record<string, string> = {
    'Package.swift':
      '// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: "Reader", targets: [.target(name: "Reader", path: "Sources")])\n',
    'Sources/Shared/Assets.swift':
      'struct Assets {\n    struct Images {\n        static let star = "star"\n    }\n\n    struct Colors {\n        static let accent = "blue"\n    }\n\n    static func accountImage(_ kind: Int) -> String {\n        "account\\(kind)"\n    }\n}\n',
  };
  for (const [i, dir] of ['Timeline', 'Sidebar', 'Settings', 'Timeline', 'Sidebar'].entries()) {
    files[`Sources/${dir}/View${i}.swift`] =
      `struct View${i} {\n    func draw() -> [String] {\n        [Assets.Images.star, Assets.Colors.accent, Assets.accountImage(${i}), Assets.accountImage(1)]\n    }\n}\n`;
  }
  const c = find(await coldStart(files), /`Assets`/);
  assert.match(c.summary, /Other files call its `accountImage` and use its `Colors` and `Images`\.$/);
});

test('defaults that call each other are not defaults: a new type implements one of them (data() and data(handler:)); a nested type conforming by extension counts (KF.Builder)', async () => {
  const swift: Record<string, string> = {
    'Package.swift':
      '// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: "Images", targets: [.target(name: "Images", path: "Sources")])\n',
    'Sources/Source/ImageDataProvider.swift':
      'public protocol ImageDataProvider {\n    var cacheKey: String { get }\n    func data() async throws -> Data\n    func data(handler: @escaping @Sendable (Result<Data, any Error>) -> Void)\n}\n\npublic extension ImageDataProvider {\n    func data() async throws -> Data {\n        try await withCheckedThrowingContinuation { continuation in\n            data(handler: { continuation.resume(with: $0) })\n        }\n    }\n\n    func data(handler: @escaping @Sendable (Result<Data, any Error>) -> Void) {\n        Task { handler(.success(try await data())) }\n    }\n}\n\nextension KF.Builder: ImageDataProvider {\n    public var cacheKey: String { "builder" }\n}\n',
    'Sources/General/KF.swift': 'public enum KF {\n    public class Builder {\n        public init() {}\n    }\n}\n',
  };
  for (const [dir, name] of [['Local', 'LocalFileImageDataProvider'], ['Raw', 'RawImageDataProvider']]) {
    swift[`Sources/${dir}/${name}.swift`] =
      `public struct ${name}: ImageDataProvider {\n    public var cacheKey: String { "${name}" }\n}\n`;
  }
  const c = (await coldStart(swift)).find((x) => x.knowledgeType === 'inheritance');
  assert.ok(c);
  assert.match(
    c.summary,
    /is the base of 3 production types: KF\.Builder, LocalFileImageDataProvider and RawImageDataProvider\./,
  );
  assert.match(
    c.summary,
    /implements it too, with `cacheKey` and one of `data\(\)` or `data\(handler:\)` \(each defaults to the other\)\.$/,
  );
});

test('two implementations of one name in two modules are two (a ServiceLoader target in a ktor2 and a ktor3 module), said once with how many', async () => {
  const projects = ['core', 'okhttp', 'ktor2', 'ktor3', 'blob'];
  const kotlin: Record<string, string> = {
    'settings.gradle.kts': 'rootProject.name = "img"\n' + projects.map((p) => `include(":${p}")`).join('\n') + '\n',
  };
  kotlin['core/build.gradle.kts'] = 'plugins {\n    kotlin("jvm")\n}\n';
  kotlin['core/src/main/kotlin/img/util/FetcherTarget.kt'] =
    'package img.util\n\ninterface FetcherTarget {\n    fun factory(): String\n}\n';
  for (const [p, name] of [
    ['okhttp', 'OkHttpFetcherTarget'],
    ['ktor2', 'KtorFetcherTarget'],
    ['ktor3', 'KtorFetcherTarget'],
    ['blob', 'BlobFetcherTarget'],
  ]) {
    kotlin[`${p}/build.gradle.kts`] = 'plugins {\n    kotlin("jvm")\n}\ndependencies {\n    api(project(":core"))\n}\n';
    kotlin[`${p}/src/main/kotlin/img/${p}/${name}.kt`] =
      `package img.${p}\n\nimport img.util.FetcherTarget\n\nclass ${name} : FetcherTarget {\n    override fun factory(): String = "${p}"\n}\n`;
  }
  const c = (await coldStart(kotlin)).find((x) => x.knowledgeType === 'inheritance');
  assert.ok(c);
  assert.match(
    c.summary,
    /is the base of 4 production types: BlobFetcherTarget, KtorFetcherTarget \(×2\) and OkHttpFetcherTarget\./,
  );
  assert.equal(c.title, 'Kotlin `BlobFetcherTarget`, `KtorFetcherTarget` and 1 more implement `FetcherTarget`');
  // One class copied into a second module is not a third kind of implementation (a cookie jar).
  delete kotlin['blob/src/main/kotlin/img/blob/BlobFetcherTarget.kt'];
  assert.ok(!(await coldStart(kotlin)).some((x) => x.knowledgeType === 'inheritance'));
});

test('a contributor guide\'s rules: not a maintainers\' release checklist, an over-long list item read by its sentences with the AI rules first, a generic heading named by its parent and a reason not taken for the rule, a lowercase list entry not a rule for its "only"', async () => {
  const httpx = await coldStart({
    '.github/CONTRIBUTING.md':
      '# Contributing\n\n## Releasing\n\n- Things that must go in the changelog: added or removed features.\n- Things that should not go in the changelog: changes to tests.\n',
    'src/app.py': 'def run():\n    return 1\n',
  });
  assert.equal(httpx.filter((c) => /^Rules stated/.test(c.title)).length, 0, httpx.map((c) => c.title).join('\n'));

  const fifth =
    'AI should not be used to generate comments when communicating with maintainers. We expect communication with the maintainers, including PR descriptions and comments, to be from humans, not from an AI. Using an AI to assist with grammar, spelling, and proofreading or translating is acceptable, as long as the content and voice of the message is your own.';
  const fd = find(
    await coldStart({
      'CONTRIBUTING.md':
        `# Contributing\n\n## Pull Request Expectations\n\n1. Your code must compile and pass tests before publishing a Pull Request.\n2. Never push to a branch that someone else opened.\n3. ${fifth}\n`,
      'src/app.py': 'def run():\n    return 1\n',
    }),
    /Rules stated/,
  );
  assert.match(
    fd.summary,
    /\): AI should not be used to generate comments when communicating with maintainers; Your code must compile/,
  );

  const saleor = find(
    await coldStart({
      'CONTRIBUTING.md':
        '# Contributing\n\n## Tips\n\n### Models\n\n- The new models should have a default sorting value set. It ensures that data is always returned in the same order.\n\n### Locking Objects\n\n#### General Guidelines\n\n- When locking multiple objects, always lock them in a consistent order to avoid deadlocks.\n\n### What is considered a breaking change?\n\n- changing signatures of plugins functions - breaking only for existing plugins\n',
      'src/app.py': 'def run():\n    return 1\n',
    }),
    /Rules stated/,
  );
  assert.equal(saleor.title, 'Rules stated in `CONTRIBUTING.md` (Models and Locking Objects)');
  assert.match(
    saleor.summary,
    /\): The new models should have a default sorting value set; When locking multiple objects, always lock them in a consistent order to avoid deadlocks\.$/,
  );
});

test('strict mypy names the modules an override lets go unannotated and what runs mypy', async () => {
  const c = find(
    await coldStart({
      'pyproject.toml':
        '[project]\nname = "net"\n\n[tool.mypy]\nstrict = true\n\n[[tool.mypy.overrides]]\nmodule = "tests.*"\ndisallow_untyped_defs = false\n',
      'scripts/check': '#!/bin/sh -e\nexport SOURCE_FILES="net tests"\nmypy $SOURCE_FILES\n',
      'net/app.py': 'def run() -> int:\n    return 1\n',
    }),
    /strict mypy/,
  );
  assert.equal(
    c.summary,
    'pyproject.toml configures mypy with `strict = true`: every function needs annotations, except in `tests.*` (an override sets `disallow_untyped_defs = false`). `scripts/check` runs it.',
  );
  assert.deepEqual(c.reasoning.sources, ['pyproject.toml:5', 'pyproject.toml:7', 'scripts/check:3']);
});

test('a formatter is cited at the line that configures it, with its plugins; Biome is checked by `biome check`, not `biome lint`; a CI job that commits the fixes says so', async () => {
  const src: Record<string, string> = {};
  for (let i = 0; i < 4; i++) {
    src[`src/part${i}.ts`] = `export function part${i}(n: number): number {\n  return n + ${i};\n}\n`;
  }
  const zod = find(
    await coldStart({
      ...src,
      'package.json': JSON.stringify(
        {
          name: 'z',
          scripts: { format: 'biome check --write .', 'format:check': 'biome check .', 'lint:check': 'biome lint .' },
        },
        null,
        2,
      ),
      'biome.jsonc':
        '{\n  "$schema": "https://biomejs.dev/schemas/1.9.4/schema.json",\n\n  "formatter": {\n    "enabled": true,\n    "indentStyle": "space",\n    "lineWidth": 120\n  }\n}\n',
      '.github/workflows/test.yml':
        'name: test\non: push\njobs:\n  check:\n    runs-on: ubuntu-latest\n    steps:\n      - run: pnpm format:check\n      - run: pnpm lint:check\n',
    }),
    /formatting is enforced by Biome/,
  );
  assert.match(
    zod.summary,
    /^Biome is configured in the repository \(indentStyle: space, lineWidth: 120\); `npm run format` formats; CI checks with `pnpm format:check`\./,
  );
  assert.deepEqual(zod.reasoning.sources, ['biome.jsonc:4', '.github/workflows/test.yml:7']);

  const trpc = find(
    await coldStart({
      ...src,
      'package.json': JSON.stringify({ name: 't', scripts: { 'format-fix': 'prettier --write .' } }, null, 2),
      'prettier.config.js':
        "/** @typedef {import('prettier').Config} PrettierConfig */\n\n/** @type {PrettierConfig} */\nexport default {\n  printWidth: 80,\n  singleQuote: true,\n  plugins: [\n    '@ianvs/prettier-plugin-sort-imports',\n    // last\n    'prettier-plugin-tailwindcss',\n  ],\n};\n",
      '.github/workflows/lint.yml':
        'name: autofix.ci\non: pull_request\njobs:\n  autofix:\n    runs-on: ubuntu-latest\n    steps:\n      - run: pnpm format-fix\n      - uses: autofix-ci/action@v1\n',
    }),
    /formatting is enforced by prettier/,
  );
  assert.match(
    trpc.summary,
    /\(printWidth: 80, singleQuote: true, plugins: @ianvs\/prettier-plugin-sort-imports, prettier-plugin-tailwindcss\); `npm run format-fix` formats; CI runs `pnpm format-fix` and commits what it changes \(autofix\.ci\)\./,
  );
  assert.equal(trpc.reasoning.sources[0], 'prettier.config.js:5');
});

test('file names enforced by ESLint `unicorn/filename-case` say so, with its exceptions; measured names cite the biggest package, not fixtures', async () => {
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'mono', private: true }),
    'eslint.config.js':
      "export default [\n  {\n    rules: {\n      'unicorn/filename-case': [\n        'error',\n        {\n          case: 'camelCase',\n          ignore: ['TRPC', '\\\\.d\\\\.ts$'],\n        },\n      ],\n    },\n  },\n];\n",
  };
  for (let i = 0; i < 8; i++) {
    files[`packages/core/src/createThing${i}.ts`] =
      `export function make${i}(n: number): number {\n  return n + ${i};\n}\n`;
  }
  for (let i = 0; i < 2; i++) {
    files[`packages/treeshake/runCase${i}.ts`] =
      `export function run${i}(n: number): number {\n  return n * ${i};\n}\n`;
  }
  const c = find(await coldStart(files), /file names use camelCase/);
  assert.equal(c.title, 'TypeScript/JavaScript file names use camelCase (ESLint `unicorn/filename-case`)');
  assert.match(
    c.summary,
    /^ESLint's `unicorn\/filename-case` requires camelCase file names, except names matching `TRPC` and `\\\.d\\\.ts\$`; 10 of 10 multi-word file names \(100 %\) follow it\./,
  );
  assert.equal(c.reasoning.sources[0], 'eslint.config.js:4');
  assert.ok(c.reasoning.sources.slice(1).every((s) => s.startsWith('packages/core/')), c.reasoning.sources.join(', '));
});

test('the module graph counts each kind of unit ("20 SwiftPM targets and 6 Xcode targets"), and its sources show one line of each kind of manifest first', () => {
  assert.deepEqual(
    onePerFile(['A/Package.swift:3', 'A/Package.swift:5', 'B/Package.swift:2', 'App.xcodeproj/project.pbxproj:10']),
    ['A/Package.swift:3', 'App.xcodeproj/project.pbxproj:10', 'B/Package.swift:2', 'A/Package.swift:5'],
  );
});

test("the functions said to hold a boundary's sites are the ones the lines are in: a property's `didSet` by the property, not the function above it, and through a multi-line signature", async () => {
  const files: Record<string, string> = {
    'Package.swift':
      '// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: "Img", targets: [.target(name: "Img", path: "Sources")])\n',
    'Sources/Net/Downloader.swift': [
      'import Foundation',
      '',
      'open class Downloader {',
      '    func cancel() {',
      '        session.invalidateAndCancel()',
      '    }',
      '',
      '    open var configuration = URLSessionConfiguration.ephemeral {',
      '        didSet {',
      '            session = URLSession(configuration: configuration)',
      '        }',
      '    }',
      '',
      '    private func addTask(',
      '        url: URL,',
      '        priority: Float',
      '    ) -> URLSessionDataTask',
      '    {',
      '        if url.isFileURL {',
      '            return session.dataTask(with: url)',
      '        } else {',
      '            let task = session.dataTask(with: url)',
      '            task.priority = priority',
      '            return task',
      '        }',
      '    }',
      '}',
      '',
    ].join('\n'),
  };
  for (let i = 0; i < 9; i++) {
    files[`Sources/Views/View${i}.swift`] = `struct View${i} {\n    func render() -> Int {\n        ${i}\n    }\n}\n`;
  }
  const c = find(await coldStart(files), /HTTP requests are made only in/);
  // The observer is named as the property's, not as the function above it.
  assert.match(c.summary, /, in `configuration\.didSet` and `addTask\(\)`\. New code goes through it/);
  assert.deepEqual(c.reasoning.sources, [
    'Sources/Net/Downloader.swift:10',
    'Sources/Net/Downloader.swift:20',
    'Sources/Net/Downloader.swift:22',
  ]);
});

test('export style: exceptions a tool requires say which tool (jscodeshift transforms); "each module" only when nearly all do, exceptions by folder', async () => {
  const named: Record<string, string> = { 'package.json': JSON.stringify({ name: 'lib' }) };
  for (let i = 0; i < 10; i++) {
    named[`src/part${i}.ts`] = `export function part${i}(n: number): number {\n  return n + ${i};\n}\n`;
  }
  named['src/transforms/provider.ts'] =
    "import type { API, FileInfo } from 'jscodeshift';\n\nexport default function transform(file: FileInfo, api: API) {\n  return api.jscodeshift(file.source).toSource();\n}\n";
  const trpc = find(await coldStart(named), /named exports/);
  assert.match(
    trpc.summary,
    /Exceptions: src\/transforms\/provider\.ts \(jscodeshift transforms, which must export their transform by default\)\.$/,
  );

  const defaults: Record<string, string> = { 'package.json': JSON.stringify({ name: 'app' }) };
  for (let i = 0; i < 12; i++) {
    defaults[`src/model/thing${i}.js`] = `export class Thing${i} {}\n\nexport default Thing${i};\n`;
  }
  for (let i = 0; i < 3; i++) defaults[`src/options/opt${i}.js`] = `export const opt${i} = ${i};\n`;
  const photoprism = find(await coldStart(defaults), /default export/);
  assert.equal(photoprism.title, 'Most modules have a default export (80 %)');
  assert.match(photoprism.summary, /Exceptions: src\/options\/ opt0\.js, opt1\.js, opt2\.js\.$/);
});

test('"and N more" counts what the hidden names stand for: a name shared by two implementations is two ("and 3 more" of five had read as four)', () => {
  assert.equal(
    nameList(['BlobTarget', 'KtorTarget', 'OkHttpTarget', 'VideoTarget'], 12, false, [1, 2, 1, 1]),
    'BlobTarget and 4 more',
  );
  assert.equal(nameList(['BlobTarget', 'KtorTarget'], 12, false), 'BlobTarget and 1 more');
});

test('a file that names the implementations one per method (image processor shorthands) or only in doc comments is not where they are listed; one function that names them all is', async () => {
  const names = ['Blur', 'Tint', 'Overlay', 'Crop'];
  const swift: Record<string, string> = {
    'Package.swift':
      '// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: "Img", targets: [.target(name: "Img", path: "Sources")])\n',
    'Sources/Processing/Processor.swift':
      'public protocol Processor {\n    var identifier: String { get }\n    func process(_ value: Int) -> Int\n}\n',
  };
  for (const n of names) {
    swift[`Sources/Processing/${n}Processor.swift`] =
      `public struct ${n}Processor: Processor {\n    public var identifier: String { "${n}" }\n    public func process(_ value: Int) -> Int {\n        value + ${n.length}\n    }\n}\n`;
  }
  swift['Sources/General/Options.swift'] = `public struct Options {\n    var processors: [any Processor] = []\n${
    names.map((n) =>
      `\n    /// Appends a \`\`${n}Processor\`\` and the others: \`\`BlurProcessor\`\`, \`\`TintProcessor\`\`.\n    public func ${n.toLowerCase()}() -> Options {\n        var o = self\n        o.processors.append(${n}Processor())\n        return o\n    }\n`
    ).join('')
  }}\n`;
  const shorthands = (await coldStart(swift)).find((x) => x.knowledgeType === 'inheritance');
  assert.ok(shorthands);
  assert.doesNotMatch(shorthands.summary, /where the others are listed/);
  swift['Sources/General/Registry.swift'] = `enum Registry {\n    static func all() -> [any Processor] {\n        [${
    names.map((n) => `${n}Processor()`).join(', ')
  }]\n    }\n}\n`;
  const registry = (await coldStart(swift)).find((x) => x.knowledgeType === 'inheritance');
  assert.match(registry?.summary ?? '', /where the others are listed: `Registry\.swift:3`/);
});

test('shared instances: the most used first, and an Objective-C class accessor with a setter is a replaceable default, not a singleton (UIKit categories)', async () => {
  const swift: Record<string, string> = {
    'Package.swift':
      '// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: "Reader", targets: [.target(name: "Reader", path: "Sources")])\n',
  };
  for (const n of ['Archive', 'Clock', 'Ledger']) {
    swift[`Sources/Core/${n}.swift`] =
      `public final class ${n} {\n    public static let shared = ${n}()\n    public func run() -> Int {\n        1\n    }\n}\n`;
  }
  for (let i = 0; i < 4; i++) {
    swift[`Sources/Views/View${i}.swift`] =
      `struct View${i} {\n    func render() -> Int {\n        Ledger.shared.run()${
        i < 2 ? ' + Clock.shared.run()' : ''
      }\n    }\n}\n`;
  }
  const c = find(await coldStart(swift), /^Shared instances/);
  assert.match(c.summary, /^3 types publish a shared instance \(Ledger\.shared, Clock\.shared and Archive\.shared\)/);

  const objc: Record<string, string> = {};
  for (const n of ['AFCache', 'AFReachability', 'AFActivity']) {
    objc[`AF/${n}.h`] =
      `#import <Foundation/Foundation.h>\n\n@interface ${n} : NSObject\n+ (instancetype)sharedManager;\n@end\n`;
    objc[`AF/${n}.m`] =
      `#import "${n}.h"\n\n@implementation ${n}\n+ (instancetype)sharedManager {\n    return [[self alloc] init];\n}\n@end\n`;
  }
  objc['UIKit/UIButton+AF.h'] =
    '#import <UIKit/UIKit.h>\n\n@interface UIButton (AF)\n+ (void)setSharedImageDownloader:(id)imageDownloader;\n+ (id)sharedImageDownloader;\n@end\n';
  objc['UIKit/UIButton+AF.m'] =
    '#import "UIButton+AF.h"\n\n@implementation UIButton (AF)\n+ (id)sharedImageDownloader {\n    return nil;\n}\n+ (void)setSharedImageDownloader:(id)imageDownloader {\n}\n@end\n';
  const af = find(await coldStart(objc), /^Shared instances/);
  assert.match(
    af.summary,
    /^3 types publish a shared instance \([^)]*\)\. Use these, not new instances; `UIButton` code goes through its settable `sharedImageDownloader` instead\.$/,
  );
});

test('an app extension without `@main` starts at the class its Info.plist names (a share extension)', async () => {
  const id = (n: number) => n.toString(16).toUpperCase().padStart(24, '0');
  const object = (n: number, body: string) => `\t\t${id(n)} = {\n${body}\n\t\t};`;
  const target = (n: number, name: string, type: string, plist: string) => [
    object(
      n,
      `\t\t\tisa = PBXNativeTarget;\n\t\t\tbuildConfigurationList = ${
        id(n + 1)
      };\n\t\t\tname = "${name}";\n\t\t\tproductType = "com.apple.product-type.${type}";`,
    ),
    object(n + 1, `\t\t\tisa = XCConfigurationList;\n\t\t\tbuildConfigurations = (\n\t\t\t\t${id(n + 2)},\n\t\t\t);`),
    object(
      n + 2,
      `\t\t\tisa = XCBuildConfiguration;\n\t\t\tbuildSettings = {\n\t\t\t\tINFOPLIST_FILE = "${plist}";\n\t\t\t};\n\t\t\tname = Debug;`,
    ),
  ];
  const files: Record<string, string> = {
    'Reader.xcodeproj/project.pbxproj': [
      '// !$*UTF8*$!',
      '{',
      '\tobjects = {',
      ...target(0x10, 'Reader', 'application', 'Mac/Info.plist'),
      ...target(0x20, 'Share Extension', 'app-extension', 'Mac/ShareExtension/Info.plist'),
      '\t};',
      '}',
    ].join('\n'),
    'Mac/Info.plist': '<plist version="1.0">\n<dict>\n</dict>\n</plist>\n',
    'Mac/AppDelegate.swift':
      'import Cocoa\n\n@main\nfinal class AppDelegate: NSObject, NSApplicationDelegate {\n    func applicationDidFinishLaunching(_ note: Notification) {}\n}\n',
    'Mac/ShareExtension/ShareViewController.swift':
      'import Cocoa\n\nfinal class ShareViewController: NSViewController {\n    func send() {}\n}\n',
    'Mac/ShareExtension/Info.plist':
      '<plist version="1.0">\n<dict>\n\t<key>NSExtension</key>\n\t<dict>\n\t\t<key>NSExtensionPrincipalClass</key>\n\t\t<string>$(PRODUCT_MODULE_NAME).ShareViewController</string>\n\t</dict>\n</dict>\n</plist>\n',
  };
  for (let i = 0; i < 4; i++) {
    files[`Mac/Views/View${i}.swift`] =
      `import Cocoa\n\nfinal class View${i}: NSView {\n    func draw() -> Int {\n        ${i}\n    }\n}\n`;
  }
  const c = find(await coldStart(files), /^Entry points/);
  assert.match(
    c.summary,
    /Mac\/ShareExtension\/Info\.plist \(NSExtensionPrincipalClass ShareViewController, the app extension Share Extension\)/,
  );
  assert.ok(c.reasoning.sources.includes('Mac/ShareExtension/Info.plist:5'), c.reasoning.sources.join(', '));
});

test("the profile says what CI's test matrix runs over (Go versions × systems × build tags; a list of tox configurations) and the coverage floor a script enforces", async () => {
  const go: Record<string, string> = {
    'go.mod': 'module example.com/web\n\ngo 1.25\n',
    Makefile: 'test:\n\tgo test $(TESTTAGS) ./...\n',
    '.github/workflows/gin.yml': [
      'name: Run Tests',
      'on: [push, pull_request]',
      'jobs:',
      '  test:',
      '    strategy:',
      '      matrix:',
      '        os: [ubuntu-latest, macos-latest]',
      '        go: ["1.25", "1.26"]',
      '        test-tags: ["", "-tags nomsgpack", "-race"]',
      '        include:',
      '          - os: ubuntu-latest',
      '            go-build: ~/.cache/go-build',
      '    runs-on: ${{ matrix.os }}',
      '    steps:',
      '      - uses: actions/checkout@v4',
      '      - name: Run Tests',
      '        run: make test',
      '',
    ].join('\n'),
  };
  for (let i = 0; i < 4; i++) go[`part${i}.go`] = `package web\n\nfunc Part${i}() int {\n\treturn ${i}\n}\n`;
  const gin = await profileOf(go);
  assert.match(
    gin?.rationale ?? '',
    /- CI runs the tests on every combination of os `ubuntu-latest` and `macos-latest` × go `1\.25` and `1\.26` × test-tags `""`, `-tags nomsgpack` and `-race` \(\.github\/workflows\/gin\.yml:17\)/,
  );

  const py: Record<string, string> = {
    'pyproject.toml': '[project]\nname = "web"\nrequires-python = ">=3.10"\n\n[dependency-groups]\ndev = ["pytest"]\n',
    'scripts/coverage':
      '#!/bin/sh -e\n\nexport PREFIX=""\ncoverage report --show-missing --skip-covered --fail-under=100\n',
    '.github/workflows/tests.yaml': [
      'name: Tests',
      'on: [push, pull_request]',
      'jobs:',
      '  tests:',
      '    strategy:',
      '      matrix:',
      '        include:',
      "          - {python: '3.14'}",
      "          - {name: Windows, python: '3.14', os: windows-latest}",
      "          - {python: '3.13'}",
      "          - {name: Minimum Versions, python: '3.14', tox: tests-min}",
      "    runs-on: ${{ matrix.os || 'ubuntu-latest' }}",
      '    steps:',
      '      - uses: actions/checkout@v4',
      '      - run: pytest',
      '      - run: scripts/coverage',
      '',
    ].join('\n'),
  };
  for (let i = 0; i < 4; i++) py[`web/part${i}.py`] = `def part${i}():\n    return ${i}\n`;
  py['tests/test_part.py'] = 'from web.part0 import part0\n\n\ndef test_part():\n    assert part0() == 0\n';
  const flask = await profileOf(py);
  // One system other than the default is no axis; a display name is none either.
  assert.match(
    flask?.rationale ?? '',
    /- CI runs the tests in 4 configurations, over python `3\.14` and `3\.13` \(\.github\/workflows\/tests\.yaml:15\)/,
  );
  assert.match(
    flask?.rationale ?? '',
    /- Coverage must stay at 100 %: `scripts\/coverage` fails below it \(scripts\/coverage:4\)/,
  );
});

test("a Swift class's method whose body is `fatalError` is what a subclass must define, named by its selector (Request.task(for:using:), not the `task` property)", async () => {
  const swift: Record<string, string> = {
    'Package.swift':
      '// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: "Net", targets: [.target(name: "Net", path: "Sources")])\n',
    'Sources/Core/Request.swift':
      'public class Request {\n    public var task: URLSessionTask? { nil }\n\n    func reset() {\n        print("reset")\n    }\n\n    func task(for request: URLRequest, using session: URLSession) -> URLSessionTask {\n        fatalError("Subclasses must override.")\n    }\n}\n',
  };
  for (const n of ['Data', 'Download', 'Upload']) {
    swift[`Sources/Features/${n}Request.swift`] =
      `public final class ${n}Request: Request {\n    override func task(for request: URLRequest, using session: URLSession) -> URLSessionTask {\n        session.dataTask(with: request)\n    }\n}\n`;
  }
  const c = (await coldStart(swift)).find((x) => x.knowledgeType === 'inheritance');
  assert.match(c?.summary ?? '', /extends it too, with `task\(for:using:\)`\.$/);
});

test('entry points that do not fit the summary whole are counted, said shorter, and all listed in the details (six were cut mid-sentence)', async () => {
  const id = (n: number) => n.toString(16).toUpperCase().padStart(24, '0');
  const object = (n: number, body: string) => `\t\t${id(n)} = {\n${body}\n\t\t};`;
  const names = [
    'Reader Mac App',
    'Reader iOS App',
    'Reader Widget Extension',
    'Reader Share Extension',
    'Reader Safari Extension',
    'Reader Intents Extension',
  ];
  const dirs = [
    'Platforms/Mac/Application',
    'Platforms/iOS/Application',
    'Extensions/Widget/Sources',
    'Extensions/Share/Sources',
    'Extensions/Safari/Sources',
    'Extensions/Intents/Sources',
  ];
  const objects = names.flatMap((name, i) => {
    const n = 0x10 * (i + 1);
    return [
      object(
        n,
        `\t\t\tisa = PBXNativeTarget;\n\t\t\tbuildConfigurationList = ${
          id(n + 1)
        };\n\t\t\tname = "${name}";\n\t\t\tproductType = "com.apple.product-type.${
          i < 2 ? 'application' : 'app-extension'
        }";`,
      ),
      object(n + 1, `\t\t\tisa = XCConfigurationList;\n\t\t\tbuildConfigurations = (\n\t\t\t\t${id(n + 2)},\n\t\t\t);`),
      object(
        n + 2,
        `\t\t\tisa = XCBuildConfiguration;\n\t\t\tbuildSettings = {\n\t\t\t\tINFOPLIST_FILE = "${
          dirs[i]
        }/Info.plist";\n\t\t\t};\n\t\t\tname = Debug;`,
      ),
    ];
  });
  const files: Record<string, string> = {
    'Reader.xcodeproj/project.pbxproj': ['// !$*UTF8*$!', '{', '\tobjects = {', ...objects, '\t};', '}'].join('\n'),
  };
  dirs.forEach((d, i) => {
    files[`${d}/Info.plist`] = '<plist version="1.0">\n<dict>\n</dict>\n</plist>\n';
    files[`${d}/Main${i}.swift`] =
      `import SwiftUI\n\n@main\nstruct Main${i}: App {\n    var body: some Scene {\n        WindowGroup { Text("${i}") }\n    }\n}\n`;
  });
  const c = find(await coldStart(files), /^Entry points/);
  assert.ok(c.summary.length <= 300, c.summary);
  assert.match(c.summary, /; and \d more\.$/);
  assert.equal(c.rationale?.split('\n').length, 6, c.rationale);
});

test('a helper type most files reach through its shared instance is said so, with the members they use on it (`IconCache.shared`)', async () => {
  const files: Record<string, string> = {
    'Package.swift':
      '// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: "Reader", targets: [.target(name: "Reader", path: "Sources")])\n',
    'Sources/Shared/IconCache.swift':
      '/// Icons for feeds, cached.\nfinal class IconCache {\n    static let shared = IconCache()\n    var currentSize = 16\n\n    func imageForFeed(_ id: Int) -> Int {\n        id\n    }\n\n    func prefetch(_ ids: [Int]) {\n        _ = ids\n    }\n}\n',
  };
  for (const [i, dir] of ['Timeline', 'Sidebar', 'Article', 'Timeline'].entries()) {
    files[`Sources/${dir}/View${i}.swift`] =
      `final class View${i} {\n    func icon() -> Int {\n        IconCache.shared.prefetch([${i}])\n        return IconCache.shared.imageForFeed(IconCache.shared.currentSize) + IconCache.shared.imageForFeed(1)\n    }\n}\n`;
  }
  const c = find(await coldStart(files), /IconCache/);
  // A property read on the shared instance is part of how it is used (`currentTheme` of the shared manager).
  assert.match(
    c.summary,
    /Other files reach it as `IconCache\.shared` \(4 of 4\) and use its `imageForFeed`, `currentSize` and `prefetch`\.$/,
  );
  // A static method called on the type is said apart from the shared instance.
  files['Sources/Shared/IconCache.swift'] = files['Sources/Shared/IconCache.swift'].replace(
    '    func prefetch(',
    '    static func prefetch(',
  );
  for (const [i, dir] of ['Timeline', 'Sidebar', 'Article', 'Timeline'].entries()) {
    files[`Sources/${dir}/View${i}.swift`] = files[`Sources/${dir}/View${i}.swift`].replace(
      'IconCache.shared.prefetch',
      'IconCache.prefetch',
    );
  }
  const mixed = find(await coldStart(files), /IconCache/);
  assert.match(
    mixed.summary,
    /Other files reach it as `IconCache\.shared` \(4 of 4\) and use its `imageForFeed` and `currentSize`; they also call `prefetch`\.$/,
  );
  // Where only some files use the shared instance, it is not said to be how the type is reached.
  for (const i of [1, 2, 3]) {
    files[`Sources/${['Timeline', 'Sidebar', 'Article', 'Timeline'][i]}/View${i}.swift`] =
      `final class View${i} {\n    let cache = IconCache()\n    func icon() -> Int {\n        IconCache.prefetch([${i}])\n        return cache.imageForFeed(${i}) + cache.imageForFeed(1)\n    }\n}\n`;
  }
  const owned = find(await coldStart(files), /IconCache/);
  assert.doesNotMatch(owned.summary, /reach it as/);
  assert.match(owned.summary, /Other files call its `imageForFeed` and `prefetch`\.$/);
});

test('a JVM extension point its modules register through ServiceLoader says so: a new implementation is listed in META-INF/services', async () => {
  const projects = ['core', 'okhttp', 'ktor', 'video'];
  const kotlin: Record<string, string> = {
    'settings.gradle.kts': 'rootProject.name = "img"\n' + projects.map((p) => `include(":${p}")`).join('\n') + '\n',
  };
  kotlin['core/build.gradle.kts'] = 'plugins {\n    kotlin("jvm")\n}\n';
  kotlin['core/src/main/kotlin/img/util/FetcherTarget.kt'] =
    'package img.util\n\ninterface FetcherTarget {\n    fun factory(): String\n}\n';
  for (const [p, name] of [
    ['okhttp', 'OkHttpFetcherTarget'],
    ['ktor', 'KtorFetcherTarget'],
    ['video', 'VideoFetcherTarget'],
  ]) {
    kotlin[`${p}/build.gradle.kts`] = 'plugins {\n    kotlin("jvm")\n}\ndependencies {\n    api(project(":core"))\n}\n';
    kotlin[`${p}/src/main/kotlin/img/${p}/${name}.kt`] =
      `package img.${p}\n\nimport img.util.FetcherTarget\n\nclass ${name} : FetcherTarget {\n    override fun factory(): String = "${p}"\n}\n`;
    kotlin[`${p}/src/main/resources/META-INF/services/img.util.FetcherTarget`] = `img.${p}.${name}\n`;
  }
  const c = (await coldStart(kotlin)).find((x) => x.knowledgeType === 'inheritance');
  assert.match(c?.summary ?? '', /and is listed in its module's `META-INF\/services\/img\.util\.FetcherTarget`\.$/);
  assert.ok(
    c?.reasoning.sources.some((s) =>
      /^\w+\/src\/main\/resources\/META-INF\/services\/img\.util\.FetcherTarget:1$/.test(s)
    ),
    c?.reasoning.sources.join(', '),
  );
});

test("file-name exceptions that all sit in one folder are said as that folder's (camelCase names all in v3/)", async () => {
  const files: Record<string, string> = { 'package.json': JSON.stringify({ name: 'z' }) };
  for (const n of [
    'deep-partial',
    'in-out',
    'from-json',
    'to-json',
    'json-schema',
    'error-map',
    'parse-util',
    'core-types',
    'api-docs',
    'mini-core',
    'json-mode',
    'type-guards',
  ]) files[`src/v4/${n}.ts`] = `export const x${n.length} = ${n.length};\n`;
  for (const n of ['enumUtil', 'errorUtil', 'parseUtil']) files[`src/v3/helpers/${n}.ts`] = `export const ${n} = 1;\n`;
  files['src/v3/standard-schema.ts'] = 'export const s = 1;\n';
  const c = find(await coldStart(files), /file names use kebab-case/);
  assert.match(c.summary, /; the 3 exceptions are all in src\/v3\/helpers\/ \(enumUtil\.ts, errorUtil\.ts…\)\./);
});

test('a Python extension point says what most subclasses set in their `class Meta` (input types: doc_category)', async () => {
  const files: Record<string, string> = {
    'pyproject.toml': '[project]\nname = "shop"\n',
    'shop/core/base.py':
      'class BaseInput:\n    """Base of the input types."""\n\n    @classmethod\n    def build(cls, **options):\n        return cls()\n',
  };
  for (const [i, n] of ['Customer', 'Order', 'Product', 'Voucher'].entries()) {
    files[`shop/${n.toLowerCase()}/inputs.py`] =
      `from shop.core.base import BaseInput\n\n\nclass ${n}Input(BaseInput):\n    name = "${n}"\n\n    class Meta:\n        doc_category = "${n.toUpperCase()}"${
        i < 2 ? '\n        description = "x"' : ''
      }\n`;
  }
  const c = (await coldStart(files)).find((x) => x.knowledgeType === 'inheritance');
  assert.match(
    c?.summary ?? '',
    /extends it too, setting `class Meta`'s `doc_category` and `description` as most of the others do\.$/,
  );
});

test('the profile cites a manifest past its licence comment (a pom.xml) and a script at a line that runs something (past a `PREFIX=` assignment)', async () => {
  const java: Record<string, string> = {
    'pom.xml':
      '<?xml version="1.0" encoding="UTF-8"?>\n<!--\n  Copyright 2008 Google LLC\n\n  Licensed under the Apache License.\n-->\n<project>\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>com.example</groupId>\n  <artifactId>lib</artifactId>\n  <version>1.0</version>\n</project>\n',
  };
  for (let i = 0; i < 4; i++) {
    java[`src/main/java/com/example/Part${i}.java`] =
      `package com.example;\n\npublic class Part${i} {\n    public int value() {\n        return ${i};\n    }\n}\n`;
  }
  const gson = await profileOf(java);
  assert.ok(gson?.reasoning.sources.includes('pom.xml:10'), gson?.reasoning.sources.join(', '));
  assert.ok(!gson?.reasoning.sources.some((s) => /^pom\.xml:[1-6]$/.test(s)), gson?.reasoning.sources.join(', '));

  const py: Record<string, string> = {
    'pyproject.toml': '[project]\nname = "web"\nrequires-python = ">=3.10"\n',
    'scripts/build':
      '#!/bin/sh -e\n\nif [ -d \'venv\' ] ; then\n    PREFIX="venv/bin/"\nelse\n    PREFIX=""\nfi\n\nset -x\n\n${PREFIX}python -m build\n',
  };
  for (let i = 0; i < 4; i++) py[`web/part${i}.py`] = `def part${i}():\n    return ${i}\n`;
  const httpx = await profileOf(py);
  assert.ok(httpx?.reasoning.sources.includes('scripts/build:11'), httpx?.reasoning.sources.join(', '));
});

test('a Swift 5 package whose Xcode project checks concurrency completely says so, not "strict concurrency is not on"', async () => {
  const files: Record<string, string> = {
    'Package.swift':
      '// swift-tools-version:6.0\nimport PackageDescription\nlet package = Package(name: "Net", targets: [.target(name: "Net", path: "Sources", swiftSettings: [.enableUpcomingFeature("ExistentialAny")])], swiftLanguageModes: [.v5])\n',
    'Net.xcodeproj/project.pbxproj':
      '// !$*UTF8*$!\n{\n\tobjects = {\n\t\tAA = {\n\t\t\tisa = XCBuildConfiguration;\n\t\t\tbuildSettings = {\n\t\t\t\tSWIFT_STRICT_CONCURRENCY_XCODE_1600 = complete;\n\t\t\t};\n\t\t};\n\t};\n}\n',
  };
  for (let i = 0; i < 4; i++) {
    files[`Sources/Part${i}.swift`] = `public struct Part${i} {\n    public let value = ${i}\n}\n`;
  }
  const c = find(await coldStart(files), /ExistentialAny/);
  assert.match(
    c.summary,
    /Swift 5 language mode \(data races are not errors; Net\.xcodeproj checks concurrency with SWIFT_STRICT_CONCURRENCY = complete under Xcode 16, as warnings: keep new code Sendable-clean\)/,
  );
  assert.ok(c.reasoning.sources.includes('Net.xcodeproj/project.pbxproj:7'), c.reasoning.sources.join(', '));
});

test("an agent file's rules about how the assistant talks are left out, and the rules naming the project's code come first (copilot instructions)", async () => {
  const files: Record<string, string> = {
    '.github/copilot-instructions.md':
      '# Project coding standards\n\n## Generic Communication Guidelines\n\n- Avoid providing explanations, trying to teach unless asked for\n- Prefer code unless asked for explanation\n\n## TypeScript Guidelines\n\n- Prefer immutable data (const, readonly)\n\n## Testing\n\n- Always offer to run `yarn test:app` after modifications are complete\n',
    'src/app.ts': 'export const app = 1;\n',
  };
  const c = find(await coldStart(files), /copilot-instructions/);
  assert.equal(
    c.rationale,
    '- Always offer to run `yarn test:app` after modifications are complete (line 14)\n- Prefer immutable data (const, readonly) (line 10)',
  );
});

test('a Java extension point counts its anonymous implementations too (`new TypeAdapter<…>() {`)', async () => {
  const java: Record<string, string> = {
    'pom.xml':
      '<project>\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>com.example</groupId>\n  <artifactId>json</artifactId>\n  <version>1.0</version>\n</project>\n',
    'src/main/java/com/example/Adapter.java':
      'package com.example;\n\npublic abstract class Adapter<T> {\n  public abstract void write(StringBuilder out, T value);\n  public abstract T read(String in);\n}\n',
    'src/main/java/com/example/Adapters.java':
      'package com.example;\n\nfinal class Adapters {\n  static final Adapter<Integer> INT = new Adapter<Integer>() {\n    @Override public void write(StringBuilder out, Integer v) { out.append(v); }\n    @Override public Integer read(String in) { return Integer.valueOf(in); }\n  };\n  static final Adapter<Boolean> BOOL = new Adapter<Boolean>() {\n    @Override public void write(StringBuilder out, Boolean v) { out.append(v); }\n    @Override public Boolean read(String in) { return Boolean.valueOf(in); }\n  };\n}\n',
  };
  for (const n of ['Array', 'Date', 'Number']) {
    java[`src/main/java/com/example/bind/${n}Adapter.java`] =
      `package com.example.bind;\n\nimport com.example.Adapter;\n\npublic final class ${n}Adapter extends Adapter<Object> {\n  @Override public void write(StringBuilder out, Object v) { out.append(v); }\n  @Override public Object read(String in) { return in; }\n}\n`;
  }
  const c = (await coldStart(java)).find((x) => x.knowledgeType === 'inheritance');
  assert.match(
    c?.summary ?? '',
    /is the base of 3 production types: [^.]*, and of 2 anonymous ones \(in Adapters\.java\)\./,
  );
});

test("thiserror derives are counted as derives, not as their `#[error]` lines, and \"the other crates\" means crates with production code (bat's one enum was '16 derives')", async () => {
  const variants = Array.from({ length: 8 }, (_, i) => `    #[error("failure ${i}")]\n    Failure${i},\n`).join('');
  const one: Record<string, string> = {
    'Cargo.toml': '[package]\nname = "cat"\nversion = "0.1.0"\n\n[dependencies]\nthiserror = "1"\n',
    'src/error.rs': `use thiserror::Error;\n\n#[derive(Error, Debug)]\npub enum Error {\n${variants}}\n`,
    'src/lib.rs': 'pub mod error;\n',
    // A crate in test data is no crate of the product.
    'tests/syntax-tests/source/TOML/Cargo.toml': '[package]\nname = "sample"\nversion = "0.1.0"\n',
  };
  assert.equal(
    (await coldStart(one)).filter((c) => /thiserror/.test(c.title)).length,
    0,
    'one derived error type is no pattern',
  );
  const more: Record<string, string> = { ...one };
  for (const m of ['config', 'input', 'output', 'theme']) {
    more[`src/${m}.rs`] =
      `use thiserror::Error;\n\n#[derive(Debug, Error)]\npub enum ${m}Error {\n    #[error("bad")]\n    Bad,\n}\n\n#[derive(Debug, Error)]\n#[error("missing {0}")]\npub struct ${m}Missing(String);\n`;
  }
  const c = find(await coldStart(more), /thiserror/);
  assert.equal(c.summary, '9 error types derive it in 5 files of cat.');
});

test("a Bun project's scripts are run with `bun run`, a long check command is not spelled out, and `cargo fmt -- --check` is applied as `cargo fmt`", async () => {
  const check =
    'prettier --check --cache "src/**/*.{js,ts,tsx}" "runtime-tests/**/*.{js,ts,tsx}" "build/**/*.{js,ts,tsx}" "benchmarks/**/*.{js,ts,tsx}"';
  const ts: Record<string, string> = {
    'package.json': JSON.stringify(
      {
        name: 'web',
        packageManager: 'bun@1.2.20',
        scripts: { format: check, 'format:fix': check.replace('--check', '--write') },
      },
      null,
      2,
    ),
    '.prettierrc': '{\n  "printWidth": 100,\n  "semi": false\n}\n',
  };
  for (let i = 0; i < 4; i++) {
    ts[`src/part${i}.ts`] = `export function part${i}(n: number): number {\n  return n + ${i}\n}\n`;
  }
  const p = find(await coldStart(ts), /formatting is enforced by prettier/);
  assert.match(p.title, /run `bun run format:fix`$/);
  assert.match(p.summary, /; `bun run format` checks it\. /);
  const rust: Record<string, string> = {
    'Cargo.toml': '[package]\nname = "cat"\nversion = "0.1.0"\n',
    'rustfmt.toml': '# defaults\n',
    '.github/workflows/ci.yml':
      'on: pull_request\njobs:\n  fmt:\n    runs-on: ubuntu-latest\n    steps:\n      - run: cargo fmt -- --check\n',
  };
  for (let i = 0; i < 4; i++) rust[`src/part${i}.rs`] = `pub fn part${i}() -> u8 {\n    ${i}\n}\n`;
  const r = find(await coldStart(rust), /rustfmt/);
  assert.match(r.title, /run `cargo fmt`$/);
});

test('a contributor guide\'s list of reasons ("…because they:") and an item that introduces a command ("If you only built the binaries with:") are not rules (bat\'s CONTRIBUTING.md)', () => {
  const text = [
    '# Contributing',
    '',
    '## Regression tests',
    '',
    'You are **strongly encouraged** to add regression tests. Regression tests are great,',
    'not least because they:',
    '',
    '* ensure that your contribution will never completely stop working.',
    '',
    '* makes code reviews easier, because it becomes very clear what the code is',
    '  supposed to do.',
    '',
    '### Ensuring bat is available for Syntax tests',
    '',
    '- If you only built the binaries with:',
    '  ```bash',
    '  cargo build --bins',
    '  ```',
    '',
    '## Themes',
    '',
    '- New default themes are not accepted; never add one to `assets/themes`.',
  ].join('\n');
  assert.deepEqual(statedRules(text, false).map((r) => r.text), [
    'New default themes are not accepted; never add one to `assets/themes`.',
  ]);
});

test('Spotless formatting both Java and Kotlin is said of both, the bigger first, with each formatter it runs (google-java-format and ktlint, Java 97 %)', async () => {
  const files: Record<string, string> = {
    'settings.gradle': "rootProject.name = 'retrofit'\ninclude ':retrofit'\n",
    'gradlew': '#!/bin/sh\n',
    'build.gradle':
      "subprojects {\n  plugins.withId('java') {\n    plugins.apply('com.diffplug.spotless')\n    spotless {\n      java {\n        googleJavaFormat(libs.googleJavaFormat.get().version)\n        target 'src/*/java*/**/*.java'\n      }\n      kotlin {\n        ktlint(libs.ktlint.get().version)\n        target 'src/**/*.kt'\n      }\n    }\n  }\n}\n",
    'retrofit/build.gradle': "apply plugin: 'java-library'\n",
    '.github/workflows/build.yml':
      'on: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: ./gradlew build --stacktrace\n',
    'retrofit/src/main/kotlin/retrofit2/KotlinExtensions.kt':
      'package retrofit2\n\nfun <T> Call<T>.awaitNothing(): Int {\n  return 1\n}\n',
  };
  for (let i = 0; i < 6; i++) {
    files[`retrofit/src/main/java/retrofit2/Part${i}.java`] =
      `package retrofit2;\n\nfinal class Part${i} {\n  int value() {\n    return ${i};\n  }\n}\n`;
  }
  const c = find(await coldStart(files), /formatting is enforced by Spotless/);
  assert.equal(c.title, 'Java and Kotlin formatting is enforced by Spotless: run `./gradlew spotlessApply`');
  assert.match(c.summary, /^Spotless with google-java-format and ktlint is configured in the repository/);
  assert.equal(c.reasoning.sources[0], 'build.gradle:6');
  // Configured for Kotlin only (`kotlin { }` and `kotlinGradle { }`; its Java goes through Checkstyle), it is said of Kotlin only.
  files['build.gradle'] =
    "subprojects {\n  java {\n    toolchain {\n      languageVersion = JavaLanguageVersion.of(8)\n    }\n  }\n  plugins.withId('java') {\n    plugins.apply('com.diffplug.spotless')\n    spotless {\n      kotlin {\n        target 'src/**/*.kt'\n        ktlint()\n      }\n      kotlinGradle {\n        target '*.kts'\n        ktlint()\n      }\n    }\n  }\n}\n";
  const k = find(await coldStart(files), /formatting is enforced by Spotless/);
  assert.equal(k.title, 'Kotlin formatting is enforced by Spotless with ktlint: run `./gradlew spotlessApply`');
  // Its Java is checked by Checkstyle: no "Java indentation follows .editorconfig, nothing checks it" (contradicted in round 50).
  files['.editorconfig'] = 'root = true\n\n[*]\nindent_size = 2\n';
  files['build.gradle'] = files['build.gradle'].replace(
    "plugins.apply('com.diffplug.spotless')",
    "plugins.apply('com.diffplug.spotless')\n    plugins.apply('checkstyle')",
  );
  const checked = await coldStart(files);
  assert.ok(!checked.some((c) => /^Java indentation/.test(c.title)), checked.map((c) => c.title).join('\n'));
  files['build.gradle'] = files['build.gradle'].replace("\n    plugins.apply('checkstyle')", '');
  assert.ok(
    (await coldStart(files)).some((c) => /^Java indentation follows \.editorconfig/.test(c.title)),
    'without Checkstyle, .editorconfig is what Java follows',
  );
});

test("a type other files only name (no purpose in its doc, no method they call, no shared instance) is no card: 'use it instead of a local variant' says nothing the compiler does not (OpenedInput, StyleComponents, OwnerFilter, RealImageLoader)", async () => {
  const files: Record<string, string> = {
    'Cargo.toml': '[package]\nname = "cat"\nversion = "0.1.0"\n',
    'src/lib.rs': 'pub mod style;\npub mod config;\npub mod printer;\npub mod controller;\n',
    'src/style.rs': 'pub(crate) struct StyleComponents {\n    pub numbers: bool,\n    pub grid: bool,\n}\n',
  };
  for (const m of ['config', 'printer', 'controller']) {
    files[`src/${m}.rs`] =
      `use crate::style::StyleComponents;\n\npub(crate) struct ${m}Holder {\n    pub style: StyleComponents,\n}\n\npub(crate) fn ${m}_grid(s: &StyleComponents) -> bool {\n    s.grid\n}\n`;
  }
  assert.ok(!(await coldStart(files)).some((c) => /StyleComponents/.test(c.title)));
  // With its purpose in a doc comment, the card says what it is for.
  files['src/style.rs'] = '/// The parts of the output frame a user turned on (numbers, grid, header).\n'
    + files['src/style.rs'];
  assert.ok((await coldStart(files)).some((c) => /StyleComponents/.test(c.title)));
});
