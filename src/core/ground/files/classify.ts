/**
 * What kind of code a file is, by the conventions of its ecosystem: production code, or tests,
 * fixtures, examples, docs, benchmarks, build scripts, generated, vendored or minified files.
 * Guard uses it to decide where a rule applies; the cold start mines conventions from production
 * code only. Pure: it looks at the path and, when given, the first part of the text.
 */

export const FILE_KINDS = [
  'production',
  'test',
  'fixture',
  'example',
  'docs',
  'benchmark',
  'build',
  'generated',
  'vendored',
  'minified',
] as const;

export type FileKind = (typeof FILE_KINDS)[number];

export interface FileClass {
  kind: FileKind;
  /** Why, in words a person can check: "folder tests/", "name *_test.go", "header says @generated". */
  reason: string;
}

/** A range of lines (1-based, inclusive) inside a file that is test code, such as Rust's `#[cfg(test)] mod tests`. */
export interface LineRegion {
  start: number;
  end: number;
}

/** How much of a file's start the text checks read. */
export const CLASSIFY_HEAD_CHARS = 4096;

type FolderRule = { kind: FileKind; test: (segment: string, depth: number, lower: string) => boolean };

const lower = (names: string) => new Set(names.split(' '));

const VENDORED = lower(
  'vendor vendors vendored third_party third-party thirdparty node_modules bower_components pods carthage external_libs',
);
const FIXTURE = lower(
  'fixtures fixture __fixtures__ testdata test-data test_data __snapshots__ snapshots testfixtures test-fixtures test_fixtures',
);
const TEST = lower(
  'test tests __tests__ __test__ spec specs e2e testing dummy dummies testutil testutils test-utils test_utils testhelpers test-helpers integration-tests integration_tests androidtest uitests unittests __mocks__ mocks',
);
const EXAMPLE = lower(
  'example examples _examples sample samples demo demos playground playgrounds showcase tutorial tutorials',
);
const BENCHMARK = lower('bench benches benchmark benchmarks jmh perf-tests');
const DOCS = lower('docs documentation website www site _site docsite');
const SHALLOW_ONLY = lower('site www');
const BUILD = lower(
  'scripts script buildscripts build-scripts build_scripts buildsrc build-logic gradle xtask ci hack .github .circleci .gitlab .buildkite tools-build fastlane',
);

/**
 * Checked in this order: a test folder inside an examples folder is a test, fixtures inside tests are fixtures.
 * `lower` is the segment in lower case, computed once per path. Each rule's patterns all contain one of a few
 * words (`test`, `spec`, `e2e`; `example`, `sample`, `demo`; `bench`), so a folder name without any of them is
 * only looked up in the sets: most folders are not a test or an example, and the patterns cost more than the
 * rest of classifying a file, which every scan does for every path several times.
 */
const FOLDER_RULES: FolderRule[] = [
  { kind: 'vendored', test: (_s, _d, l) => VENDORED.has(l) },
  { kind: 'fixture', test: (_s, _d, l) => FIXTURE.has(l) },
  // `NetworkTests`, `jvmTest`, `commonTest`: the capital T keeps `latest` and `contest` out.
  // `container-tests`, `client-hpacktests`, `regression-test`: a test project; `client-testing-support`,
  // `test-utils-core`: its helpers.
  {
    kind: 'test',
    test: (s, _d, l) =>
      TEST.has(l)
      || ((l.includes('test') || l.includes('spec') || l.includes('e2e'))
        && (/[a-z0-9](Tests?|Specs?)$/.test(s) || /^(Tests?|Specs?)[A-Z_-]/.test(s)
          || /[-_](tests?|\w+tests|specs?|e2e)$/i.test(s)
          || /(^|[-_])(testing|test)[-_](support|utils?|helpers?|kit|common)$/i.test(s)
          || /(?:^|[-_.])(?:test(?:ing)?-?support|test-?utils?|testkit|test-?helpers?|test)(?:[-_.]|$)/i.test(s))),
  },
  // `watchOS Example`, `ImageKit Vision Demo`: Xcode sample folders have spaces in their names.
  {
    kind: 'example',
    test: (s, _d, l) =>
      EXAMPLE.has(l)
      || ((l.includes('example') || l.includes('sample') || l.includes('demo'))
        && (/^(examples?|samples?|demos?)[-_ ]/i.test(s) || /[-_. ](examples?|samples?|demos?)$/i.test(s)))
      || s.endsWith('.playground'),
  },
  {
    kind: 'benchmark',
    test: (s, _d, l) => BENCHMARK.has(l) || (l.includes('bench') && /[-_]bench(marks?)?$/i.test(s)),
  },
  // `site` and `www` are also app folders: only near the top are they docs. (`doc` is a Go and Rust module name, never a docs marker.)
  { kind: 'docs', test: (s, d, l) => (DOCS.has(l) && (d <= 1 || !SHALLOW_ONLY.has(l))) || s.endsWith('.docc') },
  { kind: 'build', test: (s, d, l) => BUILD.has(l) && (d <= 2 || s.startsWith('.')) },
];

const FILE_RULES: { kind: FileKind; pattern: RegExp; reason: string }[] = [
  { kind: 'minified', pattern: /[.-]min\.(js|mjs|cjs|css)$/i, reason: 'name *.min.js' },
  {
    kind: 'generated',
    pattern:
      /\.(generated|gen|g)\.[^./]+$|\.pb\.(go|swift|cc|h|c)$|_pb2(_grpc)?\.pyi?$|\.designer\.cs$|\.freezed\.dart$/,
    reason: 'generated file name',
  },
  {
    kind: 'generated',
    pattern:
      /(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|Cargo\.lock|Gemfile\.lock|poetry\.lock|uv\.lock|Podfile\.lock|Package\.resolved|go\.sum|composer\.lock|gradle\.lockfile)$/,
    reason: 'lock file',
  },
  { kind: 'test', pattern: /_test\.go$/, reason: 'name *_test.go' },
  { kind: 'test', pattern: /(^|\/)tests\.rs$/, reason: 'name tests.rs (a #[cfg(test)] module file)' },
  { kind: 'test', pattern: /(^|\/)(test_[^/]+|[^/]+_test|conftest)\.py$/, reason: 'name test_*.py / *_test.py' },
  { kind: 'test', pattern: /\.(test|spec|e2e|e2e-spec|test-d)\.[cm]?[jt]sx?$/, reason: 'name *.test.* / *.spec.*' },
  {
    kind: 'test',
    pattern: /[a-z0-9](Tests?|Spec|IT)\.(java|kt|kts|scala|swift|m|mm)$/,
    reason: 'name *Test / *Tests / *Spec',
  },
  { kind: 'test', pattern: /_(spec|test)\.rb$/, reason: 'name *_spec.rb' },
  {
    kind: 'test',
    pattern: /(^|\/)(test_?utils?|test_?helpers?|test_?support|testing_?utils?)\.[a-z]+$/i,
    reason: 'test helper file name',
  },
  { kind: 'example', pattern: /\.stories\.[cm]?[jt]sx?$|(^|\/)example_[^/]+\.go$/, reason: 'story or example file' },
  {
    kind: 'benchmark',
    pattern: /_bench\.(go|rs)$|\.bench\.[cm]?[jt]s$|(^|\/)bench_[^/]+\.py$/,
    reason: 'benchmark file name',
  },
  { kind: 'docs', pattern: /\.(md|mdx|markdown|rst|adoc|asciidoc|txt)$/i, reason: 'documentation file' },
  {
    kind: 'build',
    pattern:
      /(^|\/)(build\.gradle(\.kts)?|settings\.gradle(\.kts)?|Package(@swift-[\d.]+)?\.swift|gradlew|Makefile|makefile|GNUmakefile|CMakeLists\.txt|Dangerfile(\.swift)?|Fastfile|Appfile|Matchfile|Pluginfile|Gemfile|Podfile|Rakefile|Gruntfile\.[cm]?js|gulpfile\.[cm]?js|noxfile\.py|setup\.py|build\.rs|Justfile|justfile|Taskfile\.ya?ml)$|\.podspec$|(^|\/)[^/]+\.config\.[cm]?[jt]s$/,
    reason: 'build or tool configuration',
  },
];

/**
 * Statements, near the top, that this very file is generated. Loose words ("auto-generated" in a
 * sentence about other files) do not count, and a header that says the file is kept by hand wins.
 */
const GENERATED_MARKERS: RegExp[] = [
  /@generated\b/,
  /\bDO NOT EDIT\b/,
  /\b(this|the) (file|code|source|module)( is| was| has been)? (auto-?generated|automatically generated|machine[- ]generated|generated)\b/i,
  /^[\s/*#!<>-]*(auto-?generated|automatically generated|generated) (by|from|with|using)\b/im,
  /\bautogenerated (file|code|source)\b/i,
];
const MAINTAINED_BY_HAND =
  /\b(by hand|maintained manually|manually maintained|hand-?written|hand-?maintained|(?:manually|manully) (?:rewritten|edited|maintained|written))\b/i;

/** Classifies one file by its workspace-relative, `/`-separated path and, when given, the start of its text. */
export function classifyFile(rel: string, head?: string): FileClass {
  const folders = conventionFolders(rel.split('/').slice(0, -1));
  // Only the folders some folder rule can match are tested by the rules: most paths have none.
  const lowered: string[] = [];
  const marked: number[] = [];
  for (let i = 0; i < folders.length; i++) {
    const l = folders[i].toLowerCase();
    lowered.push(l);
    if (
      FOLDER_NAMES.has(l) || FOLDER_WORDS.test(l) || folders[i].endsWith('.playground') || folders[i].endsWith('.docc')
    ) marked.push(i);
  }
  const noFolder = marked.length === 0;
  return (
    (noFolder ? undefined : byFolder(folders, lowered, marked, FOLDERS_FIRST))
      ?? byName(rel, NAMES_FIRST)
      ?? (head !== undefined ? classifyText(head) : undefined)
      ?? (noFolder ? undefined : byFolder(folders, lowered, marked, FOLDERS_TEST))
      ?? byName(rel, NAMES_TEST)
      ?? (noFolder ? undefined : byFolder(folders, lowered, marked, FOLDERS_REST))
      ?? byName(rel, NAMES_REST)
      ?? { kind: 'production', reason: 'no test, example, docs, build, generated or vendored convention applies' }
  );
}

// The rules of each step, in their order, chosen once: classifyFile runs for every path several times per scan,
// and closures made per call (named, so tsx's keepNames defines their name each time) were a third of its cost.
const foldersOf = (kinds: FileKind[]) => FOLDER_RULES.filter((r) => kinds.includes(r.kind));
const namesOf = (kinds: FileKind[]) => FILE_RULES.filter((r) => kinds.includes(r.kind));
const FOLDERS_FIRST = foldersOf(['vendored', 'fixture']);
const FOLDERS_TEST = foldersOf(['test']);
const FOLDERS_REST = foldersOf(['example', 'benchmark', 'docs', 'build']);
const NAMES_FIRST = namesOf(['minified', 'generated']);
const NAMES_TEST = namesOf(['test']);
const NAMES_REST = namesOf(['example', 'benchmark', 'docs', 'build']);

/**
 * What a folder must be or hold, in lower case, for a folder rule to match it (besides a `.playground`
 * or `.docc` ending): a name of one of the rules' sets, or a word one of their patterns needs.
 */
const FOLDER_NAMES = new Set([...VENDORED, ...FIXTURE, ...TEST, ...EXAMPLE, ...BENCHMARK, ...DOCS, ...BUILD]);
const FOLDER_WORDS = /test|spec|e2e|example|sample|demo|bench/;

/** The first rule, in order, that the first matching folder satisfies; `marked`: the folders any rule can match, in order. */
function byFolder(folders: string[], lowered: string[], marked: number[], rules: FolderRule[]): FileClass | undefined {
  for (const rule of rules) {
    const i = marked.find((d) => rule.test(folders[d], d, lowered[d]));
    if (i !== undefined && folders[i]) return { kind: rule.kind, reason: `folder ${folders[i]}/` };
  }
  return undefined;
}

function byName(rel: string, rules: typeof FILE_RULES): FileClass | undefined {
  const rule = rules.find((r) => r.pattern.test(rel));
  return rule && { kind: rule.kind, reason: rule.reason };
}

/** A path without the package folders below a JVM source root: `app/src/main/kotlin/Foo.kt` for `app/src/main/kotlin/com/example/Foo.kt`. */
export function conventionPath(rel: string): string {
  const parts = rel.split('/');
  return [...conventionFolders(parts.slice(0, -1)), parts[parts.length - 1]].join('/');
}

/**
 * The folders whose names can follow a convention: below a JVM source root (`src/main/kotlin`,
 * `src/test/java`) the folders are a package name (`com/example/app`, `com/google/samples/…`).
 */
function conventionFolders(folders: string[]): string[] {
  const root = folders.findIndex((f, i) => i >= 2 && folders[i - 2] === 'src' && JVM_SOURCE_ROOTS.has(f));
  return root < 0 ? folders : folders.slice(0, root + 1);
}
const JVM_SOURCE_ROOTS = new Set(['java', 'kotlin', 'scala', 'groovy']);

/** Generated or minified, judged from the start of the text. */
function classifyText(head: string): FileClass | undefined {
  const text = head.length > CLASSIFY_HEAD_CHARS ? head.slice(0, CLASSIFY_HEAD_CHARS) : head;
  // A generated marker counts only in the first comment lines, where generators put it.
  const top = text.split('\n', 12).join('\n');
  if (!MAINTAINED_BY_HAND.test(top)) {
    for (const re of GENERATED_MARKERS) {
      const marker = re.exec(top);
      if (marker) {
        return {
          kind: 'generated',
          reason: `header says "${marker[0].replace(/^[\s/*#!<>-]+/, '').trim().slice(0, 40)}"`,
        };
      }
    }
  }
  if (looksMinified(text)) return { kind: 'minified', reason: 'long lines with almost no whitespace' };
  return undefined;
}

function looksMinified(text: string): boolean {
  if (text.length < 1000) return false;
  // Line lengths first, with the native search for line breaks: most files fail here, cheaply.
  let lines = 1;
  let longest = 0;
  let start = 0;
  for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
    if (nl - start > longest) longest = nl - start;
    start = nl + 1;
    lines++;
  }
  longest = Math.max(longest, text.length - start);
  if (longest < 500 || text.length / lines < 200) return false;
  let spaces = lines - 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 13) spaces++;
  }
  return spaces / text.length < 0.12;
}

/** True for every kind but production code. */
export function isProduction(kind: FileKind): boolean {
  return kind === 'production';
}

/**
 * Test code inside a production file: Rust `#[cfg(test)]` items and `#[test]` functions, in-source
 * Vitest blocks (`if (import.meta.vitest) { … }`). Other languages keep tests in their own files,
 * which `classifyFile` already recognises.
 */
export function testRegions(text: string, language: string): LineRegion[] {
  // Most files have none: a substring test spares splitting them into lines.
  if (language === 'rust') return text.includes('#[') ? rustTestRegions(text) : [];
  if (
    language === 'typescript' || language === 'typescriptreact' || language === 'javascript'
    || language === 'javascriptreact'
  ) {
    return text.includes('import.meta.vitest') ? blockRegions(text, /^\s*if\s*\(\s*import\.meta\.vitest\s*\)/) : [];
  }
  return [];
}

function rustTestRegions(text: string): LineRegion[] {
  const lines = text.split('\n');
  const regions: LineRegion[] = [];
  for (let i = 0; i < lines.length; i++) {
    // Test items, and items compiled only for the documentation (`#[cfg(docsrs)]`): neither is production code.
    if (!/^\s*#\[(cfg\(test\)|test|tokio::test|cfg\(all\(test\b[^\]]*\)|cfg\(docsrs\))\]/.test(lines[i])) continue;
    // Not closed (a file being edited, an excerpt): the test item runs to the end of the text.
    const end = itemEnd(lines, i) ?? lines.length - 1;
    regions.push({ start: i + 1, end: end + 1 });
    i = end;
  }
  return regions;
}

/** Regions that start on a line matching `opener` and run to the end of the block it opens. */
function blockRegions(text: string, opener: RegExp): LineRegion[] {
  const lines = text.split('\n');
  const regions: LineRegion[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!opener.test(lines[i])) continue;
    const end = itemEnd(lines, i);
    if (end === undefined) continue;
    regions.push({ start: i + 1, end: end + 1 });
    i = end;
  }
  return regions;
}

/**
 * The last line (0-based) of the item that starts at `from`: the line where the first `{` opened at
 * or after `from` is closed, or the line of a `;` that ends the item before any brace opens.
 * Braces inside strings, chars and comments do not count.
 */
function itemEnd(lines: string[], from: number): number | undefined {
  let depth = 0;
  let opened = false;
  let inBlockComment = false;
  for (let i = from; i < lines.length; i++) {
    const line = lines[i];
    // Attribute lines such as `#[cfg(test)]` hold brackets only; skip to the item they decorate.
    if (!opened && /^\s*#\[.*\]\s*$/.test(line)) continue;
    let quote: string | undefined;
    for (let j = 0; j < line.length; j++) {
      const c = line[j];
      const next = line[j + 1];
      if (inBlockComment) {
        if (c === '*' && next === '/') {
          inBlockComment = false;
          j++;
        }
        continue;
      }
      if (quote) {
        if (c === '\\') j++;
        else if (c === quote) quote = undefined;
        continue;
      }
      if (c === '/' && next === '/') break;
      if (c === '/' && next === '*') {
        inBlockComment = true;
        j++;
        continue;
      }
      // A Rust lifetime (`'a`) is not a char literal: only treat `'x'` and `'\n'` as chars.
      if (c === "'" && !(line[j + 2] === "'" || (next === '\\' && line.indexOf("'", j + 2) > j))) continue;
      if (c === '"' || c === "'" || c === '`') {
        quote = c;
        continue;
      }
      if (c === '{') {
        depth++;
        opened = true;
      } else if (c === '}') {
        depth--;
        if (opened && depth === 0) return i;
      } else if (c === ';' && !opened && depth === 0) {
        return i;
      }
    }
  }
  return undefined;
}
