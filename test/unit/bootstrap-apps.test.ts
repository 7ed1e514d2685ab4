// The cold start on the shapes the blind reviewers of the application round (session 22) judged:
// small workspaces written here in the image of what they saw, one test per finding.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { bootstrapKnowledge } from '../../src/core/domains/bootstrap';
import { type Candidate, listCandidates } from '../../src/core/domains/knowledge';
import { closeWorkspaces, workspaceWith } from './structure-helpers';

after(closeWorkspaces);

async function coldStart(files: Record<string, string>): Promise<{ candidates: Candidate[]; titles: string[] }> {
  const ws = await workspaceWith(files);
  await bootstrapKnowledge(ws, {}, { actor: 'human' });
  const candidates = listCandidates(ws, { status: 'any' });
  return { candidates, titles: candidates.map((c) => c.title) };
}

/** A Go service whose audit helpers (one file, one family) are called from several packages. */
function goService(): Record<string, string> {
  const files: Record<string, string> = { 'go.mod': 'module example.com/photos\n\ngo 1.22\n' };
  const level = ['Err', 'Warn', 'Info', 'Debug'];
  files['internal/event/audit.go'] = `package event\n\nimport "strings"\n\n${
    level
      .map((l) =>
        `// Audit${l} records a security-relevant event at ${l.toLowerCase()} level.\nfunc Audit${l}(parts []string) {\n\tmsg := strings.Join(parts, " > ")\n\tif msg == "" {\n\t\treturn\n\t}\n\tlog("${l.toLowerCase()}", msg)\n}\n`
      )
      .join('\n')
  }\nfunc log(level, msg string) {\n\t_ = level\n\t_ = msg\n}\n`;
  for (const pkg of ['api', 'auth', 'photos', 'workers', 'session']) {
    for (const n of [1, 2]) {
      files[`internal/${pkg}/${pkg}_${n}.go`] =
        `package ${pkg}\n\nimport "example.com/photos/internal/event"\n\n// Handle${n} does ${pkg} work.\nfunc Handle${n}(id string) error {\n\tif id == "" {\n\t\tevent.AuditWarn([]string{"${pkg}", "empty id"})\n\t\treturn nil\n\t}\n\tevent.AuditInfo([]string{"${pkg}", id})\n\tevent.AuditErr([]string{"${pkg}", "failed"})\n\treturn nil\n}\n`;
    }
  }
  return files;
}

test('helpers of one file that share their first word are one candidate for the family, listing every member (AuditErr, AuditWarn, AuditInfo, AuditDebug)', async () => {
  const { candidates, titles } = await coldStart(goService());
  const audit = candidates.filter((c) => /Audit/.test(c.title));
  assert.equal(audit.length, 1, titles.join('\n'));
  assert.match(audit[0].title, /^Reuse the internal `Audit…\(\)` helpers of internal\/event\/audit\.go$/);
  for (const name of ['AuditErr', 'AuditWarn', 'AuditInfo', 'AuditDebug']) {
    assert.ok(audit[0].summary.includes(`\`${name}()\``), audit[0].summary);
  }
});

test('a file whose every function is a shared helper is one candidate (bytesconv.go: StringToBytes and BytesToString), said as used where it is used, not where it is defined', async () => {
  const files: Record<string, string> = { 'go.mod': 'module example.com/web\n\ngo 1.22\n' };
  files['internal/bytesconv/bytesconv.go'] =
    'package bytesconv\n\nimport "unsafe"\n\n// StringToBytes converts a string to a byte slice without a memory allocation.\nfunc StringToBytes(s string) []byte {\n\tif s == "" {\n\t\treturn nil\n\t}\n\treturn unsafe.Slice(unsafe.StringData(s), len(s))\n}\n\n// BytesToString converts a byte slice to a string without a memory allocation.\nfunc BytesToString(b []byte) string {\n\tif len(b) == 0 {\n\t\treturn ""\n\t}\n\treturn unsafe.String(unsafe.SliceData(b), len(b))\n}\n';
  for (const pkg of ['render', 'binding', 'auth']) {
    for (const n of [1, 2]) {
      files[`${pkg}/${pkg}_${n}.go`] =
        `package ${pkg}\n\nimport "example.com/web/internal/bytesconv"\n\n// Write${n} does ${pkg} work.\nfunc Write${n}(s string) string {\n\tb := bytesconv.StringToBytes(s)\n\treturn bytesconv.BytesToString(b)\n}\n`;
    }
  }
  const { candidates, titles } = await coldStart(files);
  const conv = candidates.filter((c) => /ToBytes|ToString/.test(c.title));
  assert.equal(conv.length, 1, titles.join('\n'));
  assert.equal(conv[0].title, 'Reuse the internal helpers of bytesconv.go: `BytesToString()` and `StringToBytes()`');
  assert.match(
    conv[0].summary,
    /^`BytesToString\(\)`, `StringToBytes\(\)` \(internal\/bytesconv\/bytesconv\.go\) are used from 6 files across auth, binding and render\./,
  );
  assert.match(conv[0].code ?? '', /func StringToBytes[\s\S]*func BytesToString/, 'both helpers are shown');
});

test('an annotation the project puts on declarations is said as one (an internal-API opt-in, @MainThread), not as a helper to reuse instead of a local variant', async () => {
  const files: Record<string, string> = {
    'settings.gradle.kts': 'rootProject.name = "img"\ninclude(":core")\ninclude(":network")\n',
    'core/build.gradle.kts': 'plugins { kotlin("jvm") }\n',
    'network/build.gradle.kts': 'plugins { kotlin("jvm") }\ndependencies { implementation(project(":core")) }\n',
  };
  files['core/src/main/kotlin/img/annotation/annotations.kt'] =
    'package img.annotation\n\n/**\n * Marks declarations that should only be called from the main thread.\n */\n@MustBeDocumented\n@Retention(value = AnnotationRetention.SOURCE)\ninternal annotation class MainThread\n';
  for (const [mod, n] of [['core', 1], ['core', 2], ['network', 3], ['network', 4]] as const) {
    files[`${mod}/src/main/kotlin/img/${mod}/Loader${n}.kt`] =
      `package img.${mod}\n\nimport img.annotation.MainThread\n\nclass Loader${n} {\n    @MainThread\n    fun start(): Int {\n        val a = ${n}\n        val b = a * 2\n        return a + b\n    }\n}\n`;
  }
  const { candidates, titles } = await coldStart(files);
  const card = candidates.find((c) => /MainThread/.test(c.title));
  assert.ok(card, titles.join('\n'));
  assert.equal(card.title, 'Mark declarations with the internal `@MainThread` annotation');
  assert.match(
    card.summary,
    /^`@MainThread` \(.*annotations\.kt:8\) — marks declarations that should only be called from the main thread — is used from 4 files across .*\. New declarations of the same kind carry `@MainThread` too\.$/,
  );
  assert.doesNotMatch(card.summary, /local variant/);
  assert.equal(
    card.code?.split('\n// Used in')[0],
    '@MustBeDocumented\n@Retention(value = AnnotationRetention.SOURCE)\ninternal annotation class MainThread\n',
    'the annotation, not what follows it',
  );

  // An opt-in requirement (an internal-API annotation): code that uses what it marks opts in.
  files['core/src/main/kotlin/img/annotation/annotations.kt'] =
    'package img.annotation\n\n/**\n * Marks declarations that should only be called from the main thread.\n */\n@RequiresOptIn(level = RequiresOptIn.Level.ERROR)\n@Retention(value = AnnotationRetention.BINARY)\ninternal annotation class MainThread\n';
  const optIn = (await coldStart(files)).candidates.find((c) => /MainThread/.test(c.title));
  assert.match(optIn?.summary ?? '', / Code that uses what it marks needs `@OptIn\(MainThread::class\)`\./);
  // The build opts the project's modules in (its JVM conventions plugin): said, with its line.
  files['build-logic/src/main/kotlin/img.conventions.gradle.kts'] =
    'kotlin {\n  compilerOptions {\n    optIn.add("img.annotation.MainThread")\n  }\n}\n';
  const built = (await coldStart(files)).candidates.find((c) => /MainThread/.test(c.title));
  assert.match(
    built?.summary ?? '',
    / Outside the modules the build opts in, code that uses what it marks needs `@OptIn\(MainThread::class\)`\./,
  );
  assert.ok(built?.reasoning.sources.includes('build-logic/src/main/kotlin/img.conventions.gradle.kts:3'));
});

test('a license header the build has Spotless write says so, with the command and the line (licenseHeaderFile in a build-logic plugin)', async () => {
  const header = (year: number) =>
    `/*\n * Copyright ${year} The Reader Authors\n *\n * Licensed under the Apache License, Version 2.0.\n */\n\n`;
  const files: Record<string, string> = {
    'settings.gradle.kts': 'rootProject.name = "reader"\n',
    'gradlew': '#!/bin/sh\n',
    'build.gradle.kts': 'plugins { kotlin("jvm") }\n',
    'build-logic/convention/src/main/kotlin/Spotless.kt':
      'fun Project.configureSpotless() {\n  spotless {\n    format("xml") {\n      licenseHeaderFile(rootDir.resolve("spotless/copyright.xml"), "(<[^!?])")\n    }\n    kotlin {\n      ktlint()\n      licenseHeaderFile(rootDir.resolve("spotless/copyright.kt"))\n    }\n  }\n}\n',
  };
  for (let i = 0; i < 6; i++) {
    files[`src/main/kotlin/reader/Part${i}.kt`] = `${
      header(2020 + i)
    }package reader\n\nfun part${i}(n: Int): Int = n + ${i}\n`;
  }
  const { candidates, titles } = await coldStart(files);
  const card = candidates.find((c) => /license header/.test(c.title));
  assert.ok(card, titles.join('\n'));
  assert.match(card.summary, / Spotless checks it and `\.\/gradlew spotlessApply` writes it\.$/);
  assert.equal(
    card.reasoning.sources[0],
    'build-logic/convention/src/main/kotlin/Spotless.kt:8',
    'the Kotlin rule, not the XML one above it',
  );
  assert.match(card.summary, /^6 of the 6 production Kotlin files scanned \(100 %\) open with/);
  assert.match(card.code ?? '', /Copyright <year> The Reader Authors/);

  // A rule for another language's files (XML only) says nothing about the Kotlin header.
  files['build-logic/convention/src/main/kotlin/Spotless.kt'] =
    'fun Project.configureSpotless() {\n  spotless {\n    format("xml") {\n      licenseHeaderFile(rootDir.resolve("spotless/copyright.xml"), "(<[^!?])")\n    }\n  }\n}\n';
  const xmlOnly = (await coldStart(files)).candidates.find((c) => /license header/.test(c.title));
  assert.ok(xmlOnly && !/Spotless/.test(xmlOnly.summary), xmlOnly?.summary);
});

test('.editorconfig is indentation editors apply, not a formatter; prettier run only on other files is not the TypeScript formatter, and nothing claims "no formatter" then', async () => {
  const files: Record<string, string> = {
    '.editorconfig': 'root = true\n\n[*]\nindent_style = space\nindent_size = 2\n',
    'package.json': JSON.stringify(
      {
        name: 'board',
        private: true,
        prettier: '@board/prettier-config',
        scripts: {
          prettier: 'prettier "**/*.{css,json,md}"',
          'test:other': 'yarn prettier --list-different',
          'fix:other': 'yarn prettier --write',
          fix: 'yarn fix:other && eslint --fix .',
        },
        devDependencies: { prettier: '2.6.2' },
      },
      null,
      2,
    ),
    '.github/workflows/lint.yml':
      'name: lint\non: push\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - run: yarn test:other\n',
  };
  for (let i = 0; i < 10; i++) {
    files[`src/module${i}.ts`] =
      `export function run${i}(value: number): number {\n  if (value > ${i}) {\n    return value - ${i};\n  }\n  return value;\n}\n`;
  }
  const { candidates, titles } = await coldStart(files);
  assert.ok(
    !candidates.some((c) => c.category === 'formatting' && /TypeScript|JavaScript/.test(c.title)),
    titles.join('\n'),
  );
  assert.ok(
    !candidates.some((c) => /No formatter configuration was found|keep it by hand/.test(c.summary)),
    titles.join('\n'),
  );

  // Without prettier, .editorconfig is said as what it is.
  delete files['package.json'];
  const plain = await coldStart(files);
  const editor = plain.candidates.find((c) => /\.editorconfig/.test(c.title));
  assert.ok(editor, plain.titles.join('\n'));
  assert.match(
    editor.title,
    /^TypeScript\/JavaScript indentation follows \.editorconfig \(indent_style = space, indent_size = 2\)$/,
  );
  assert.match(editor.summary, /Editors apply it as you type; no formatter checks it/);
  assert.doesNotMatch(editor.summary, /Format changed files with it/);
});

test('a JS/TS linter configured (xo, ESLint) leaves no claim that nothing checks the layout', async () => {
  const base: Record<string, string> = {};
  for (let i = 0; i < 10; i++) {
    base[`source/module${i}.ts`] =
      `export function run${i}(value: number): number {\n\tif (value > ${i}) {\n\t\treturn value - ${i};\n\t}\n\treturn value;\n}\n`;
  }
  const pkg = (extra: Record<string, unknown>) =>
    JSON.stringify({ name: 'lib', version: '1.0.0', scripts: { test: 'xo && ava' }, ...extra }, null, 2);
  const absence = /no formatter checks it|No formatter configuration was found|keep it by hand/;

  // Tabs, no formatter, no linter: the measured layout is the card, and it says nothing checks it.
  const bare = await coldStart({ ...base, 'package.json': pkg({}) });
  assert.ok(bare.candidates.some((c) => absence.test(c.summary)), bare.titles.join('\n'));

  // xo as a development dependency, or an ESLint configuration file: the linter may set the layout.
  for (const linted of [
    { ...base, 'package.json': pkg({ devDependencies: { xo: '^1.0.0' } }) },
    { ...base, 'package.json': pkg({}), 'eslint.config.js': 'export default [];\n' },
    {
      ...base,
      'package.json': pkg({ devDependencies: { eslint: '^9.0.0' } }),
      '.editorconfig': 'root = true\n\n[*]\nindent_style = tab\n',
    },
  ]) {
    const r = await coldStart(linted);
    assert.ok(!r.candidates.some((c) => absence.test(c.summary)), r.titles.join('\n'));
  }
});

test("a CI step that only fetches or compares a formatter's config file does not run the formatter", async () => {
  const files: Record<string, string> = {
    'Package.swift':
      '// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: "Algo", targets: [.target(name: "Algo")])\n',
    '.swift-format': '{ "version": 1, "indentation": { "spaces": 2 } }\n',
    '.github/workflows/pr.yml': [
      'name: pr',
      'on: pull_request',
      'jobs:',
      '  config:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - run: |',
      '          curl -sL https://example.com/upstream/.swift-format -o .swift-format-upstream',
      '          diff .swift-format .swift-format-upstream',
      '',
    ].join('\n'),
  };
  for (let i = 0; i < 10; i++) {
    files[`Sources/Algo/Part${i}.swift`] = `public func part${i}(_ x: Int) -> Int {\n  x + ${i}\n}\n`;
  }
  const { candidates, titles } = await coldStart(files);
  const card = candidates.find((c) => /swift-format/.test(c.title));
  assert.ok(card, titles.join('\n'));
  assert.doesNotMatch(card.summary, /curl|CI runs/, card.summary);
  assert.match(card.summary, /no CI step, script or hook runs it/);
});

test('a formatter with no visible runner: CI that calls a shared reusable workflow is never said to run nothing', async () => {
  const files: Record<string, string> = {
    'Cargo.toml': '[package]\nname = "term"\nversion = "0.1.0"\nedition = "2021"\n',
    'rustfmt.toml': 'max_width = 100\n',
    'src/lib.rs': 'pub mod a;\n',
  };
  for (let i = 0; i < 10; i++) files[`src/m${i}.rs`] = `pub fn f${i}(x: u32) -> u32 {\n    x + ${i}\n}\n`;
  const own = '.github/workflows/ci.yml';
  const ci = (uses: string) => `name: ci\non: push\njobs:\n  checks:\n    ${uses}\n`;

  const local = await coldStart({ ...files, [own]: ci('runs-on: ubuntu-latest\n    steps:\n      - run: cargo test') });
  const plain = local.candidates.find((c) => /rustfmt/.test(c.title));
  assert.match(plain?.summary ?? '', /no CI step, script or hook runs it/, local.titles.join('\n'));

  const shared = await coldStart({ ...files, [own]: ci('uses: acme/actions/.github/workflows/soundness.yml@main') });
  const card = shared.candidates.find((c) => /rustfmt/.test(c.title));
  assert.ok(card, shared.titles.join('\n'));
  assert.doesNotMatch(card.summary, /no CI step/);
  assert.match(
    card.summary,
    /its CI calls shared workflows \(`acme\/actions\/soundness\.yml`\) whose steps are not in the repository/,
  );
  assert.ok(card.reasoning.sources.includes(`${own}:5`), card.reasoning.sources.join(', '));
});

test('SwiftLint run strictly in CI is stated as the check Swift code must pass; rustfmt uses the toolchain CI formats with', async () => {
  const swift: Record<string, string> = {
    'Package.swift':
      '// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: "Reader", targets: [.target(name: "Reader")])\n',
    '.swiftlint.yml': 'disabled_rules:\n  - todo\n',
    '.github/workflows/ci.yml':
      'name: ci\non: push\njobs:\n  swiftlint:\n    runs-on: macos-latest\n    steps:\n      - run: brew install swiftlint\n      - run: swiftlint lint --strict --reporter github-actions-logging\n',
  };
  for (let i = 0; i < 10; i++) {
    swift[`Sources/Reader/Feed${i}.swift`] =
      `import Foundation\n\nfinal class Feed${i} {\n\tvar title = ""\n\tfunc update(_ value: String) {\n\t\ttitle = value\n\t}\n}\n`;
  }
  const s = await coldStart(swift);
  const lint = s.candidates.find((c) => /SwiftLint/.test(c.title));
  assert.ok(lint, s.titles.join('\n'));
  assert.equal(lint.title, 'Swift code must pass SwiftLint (CI runs `swiftlint lint --strict`)');
  assert.match(lint.summary, /so any warning fails the build/);
  assert.match(lint.summary, /`swiftlint --fix` corrects what it can/);
  assert.ok(lint.reasoning.sources.includes('.github/workflows/ci.yml:8'), lint.reasoning.sources.join(', '));

  const rust: Record<string, string> = {
    'Cargo.toml': '[package]\nname = "term"\nversion = "0.1.0"\nedition = "2021"\n',
    'rustfmt.toml': 'imports_granularity = "Module"\nwrap_comments = true\n',
    '.builds/linux.yml':
      'image: archlinux\ntasks:\n  - rustfmt: |\n      cd term\n      cargo +nightly fmt -- --check\n',
  };
  for (let i = 0; i < 8; i++) {
    rust[`src/part${i}.rs`] =
      `pub fn part${i}(value: u32) -> u32 {\n    if value > ${i} {\n        return value - ${i};\n    }\n    value\n}\n`;
  }
  rust['src/main.rs'] = 'mod part0;\nfn main() {}\n';
  const r = await coldStart(rust);
  const fmt = r.candidates.find((c) => /rustfmt/.test(c.title));
  assert.ok(fmt, r.titles.join('\n'));
  assert.equal(fmt.title, 'Rust formatting is enforced by rustfmt: run `cargo +nightly fmt`');
});

test('"SQL is written only in …" counts Django migrations that run SQL; a naming habit of one folder is not the project\'s', async () => {
  const py: Record<string, string> = { 'pyproject.toml': '[project]\nname = "shop"\nversion = "1.0"\n' };
  py['shop/core/locks.py'] =
    'from django.db import connection\n\n\ndef advisory_lock(key):\n    with connection.cursor() as cursor:\n        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])\n';
  py['shop/core/sequences.py'] =
    'from django.db import connection\n\n\ndef next_number():\n    with connection.cursor() as cursor:\n        cursor.execute("SELECT nextval(\'order_number_seq\')")\n        return cursor.fetchone()[0]\n';
  for (let i = 1; i <= 5; i++) {
    py[`shop/order/migrations/000${i}_index.py`] =
      `from django.db import migrations\n\n\nclass Migration(migrations.Migration):\n    operations = [\n        migrations.RunSQL("ALTER TABLE order_order ADD COLUMN c${i} int", reverse_sql=migrations.RunSQL.noop),\n    ]\n`;
  }
  for (let i = 0; i < 10; i++) py[`shop/app${i}/views.py`] = `def view_${i}(request):\n    return request\n`;
  const s = await coldStart(py);
  assert.ok(!s.titles.some((t) => /SQL statements are written only in/.test(t)), s.titles.join('\n'));

  // Twelve PascalCase functions, eleven of them in one folder of option lists; camelCase elsewhere.
  const js: Record<string, string> = {};
  for (let i = 0; i < 11; i++) js[`src/options/list${i}.js`] = `export function Options${i}() {\n  return [${i}];\n}\n`;
  js['src/common/util.js'] = 'export function Clamp(v) {\n  return v;\n}\n';
  for (const dir of ['model', 'common', 'page']) {
    js[`src/${dir}/helpers.js`] = `export function load${dir}() {\n  return 1;\n}\n`;
  }
  const j = await coldStart(js);
  assert.ok(!j.titles.some((t) => /functions are named in PascalCase/.test(t)), j.titles.join('\n'));
});

test('actors are not "the guard of shared state" where locks are more common; DispatchQueue.main hops that are not rare contradict "not DispatchQueue.main"', async () => {
  const files: Record<string, string> = {
    'Package.swift':
      '// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: "Reader", targets: [.target(name: "Reader")])\n',
  };
  for (const name of ['ErrorLog', 'MetadataStore', 'SyncStore']) {
    files[`Sources/Reader/${name}.swift`] =
      `actor ${name} {\n\tvar lines: [String] = []\n\tfunc add(_ line: String) {\n\t\tlines.append(line)\n\t}\n}\n`;
  }
  for (let i = 0; i < 6; i++) {
    files[`Sources/Reader/Cache${i}.swift`] =
      `import os\n\nfinal class Cache${i} {\n\tprivate let lock = OSAllocatedUnfairLock()\n\tfunc get() {}\n}\n`;
  }
  // 24 annotations and 3 main-queue hops (one of them a delay): 11 % of the two.
  for (let i = 0; i < 6; i++) {
    files[`Sources/Reader/Screen${i}.swift`] =
      `import Foundation\n\n@MainActor final class Screen${i} {\n\t@MainActor func a() {}\n\t@MainActor func b() {}\n\t@MainActor func c() {}\n\tfunc reload() {\n\t\t${
        i < 2
          ? 'DispatchQueue.main.async { self.draw() }'
          : i === 2
          ? 'DispatchQueue.main.asyncAfter(deadline: .now() + 1) { self.draw() }'
          : 'draw()'
      }\n\t}\n\tfunc draw() {}\n}\n`;
  }
  const { titles } = await coldStart(files);
  assert.ok(!titles.some((t) => /guarded by actors/.test(t)), titles.join('\n'));
  assert.ok(!titles.some((t) => /not `DispatchQueue\.main`/.test(t)), titles.join('\n'));
});

test('"log through a logger, not print()" is said with how the files get their logger and the lint rule that bans printing, and not at all without either', async () => {
  const py: Record<string, string> = {
    'pyproject.toml': '[project]\nname = "shop"\nversion = "1.0"\n\n[tool.ruff.lint]\nselect = ["E", "F", "T20"]\n',
  };
  for (let i = 0; i < 6; i++) {
    py[`shop/app${i}/tasks.py`] =
      `import logging\n\nlogger = logging.getLogger(__name__)\n\n\ndef run_${i}(order):\n    logger.info("running %s", order)\n    if not order:\n        logger.warning("empty order")\n`;
  }
  const withSetup = await coldStart(py);
  const log = withSetup.candidates.find((c) => c.category === 'logging');
  assert.ok(log, withSetup.titles.join('\n'));
  assert.equal(log.title, 'Python code logs through `logging.getLogger(__name__)` loggers, not print()');
  assert.match(log.summary, /^6 files get their logger with `logger = logging\.getLogger\(__name__\)`\./);
  assert.match(log.summary, /The linter's T20 rules ban print\(\) \(pyproject\.toml:6\)\./);

  // The same calls on loggers made every which way, and no lint rule: only the language's advice is left.
  const bare: Record<string, string> = { 'pyproject.toml': '[project]\nname = "shop"\nversion = "1.0"\n' };
  for (let i = 0; i < 6; i++) {
    bare[`shop/app${i}/tasks.py`] =
      `def run_${i}(order, log):\n    log.info("running %s", order)\n    if not order:\n        log.warning("empty order")\n`;
  }
  const generic = await coldStart(bare);
  assert.ok(!generic.candidates.some((c) => c.category === 'logging'), generic.titles.join('\n'));
});

test('a Rust type used through references (`&SizeInfo`, `&mut SizeInfo`) counts in every file that takes one', async () => {
  const files: Record<string, string> = {
    'Cargo.toml': '[package]\nname = "term"\nversion = "0.1.0"\nedition = "2021"\n',
  };
  files['src/display.rs'] =
    "/// The window's pixel and cell geometry, owned by the display.\npub struct SizeInfo {\n    pub width: f32,\n    pub height: f32,\n    pub cell_width: f32,\n    pub cell_height: f32,\n}\n\nimpl SizeInfo {\n    pub fn columns(&self) -> usize {\n        (self.width / self.cell_width) as usize\n    }\n}\n";
  const users = ['renderer', 'cursor', 'damage', 'input', 'message_bar'];
  files['src/main.rs'] = `mod display;\n${users.map((u) => `mod ${u};`).join('\n')}\n\nfn main() {}\n`;
  users.forEach((u, i) => {
    files[`src/${u}.rs`] = `use crate::display::SizeInfo;\n\npub fn draw_${u}(size: ${
      i % 2 ? '&mut ' : '&'
    }SizeInfo, x: usize) -> usize {\n    let columns = size.columns();\n    if x > columns {\n        return columns;\n    }\n    x\n}\n`;
  });
  const { candidates, titles } = await coldStart(files);
  const helper = candidates.find((c) => /`SizeInfo`/.test(c.title));
  assert.ok(helper, titles.join('\n'));
  assert.match(helper.summary, /is used from 5 files/);
});

test('agent instructions lead with a rule that names the code, not with chat manners; a typographic apostrophe ("Don’t") still makes a rule', async () => {
  const files: Record<string, string> = {
    'CLAUDE.md':
      '# Working here\n\nAvoid providing explanations unless asked.\n\nPrefer short answers in the chat.\n\n## Code\n\nPrefer idiomatic modern Swift.\n\nDon’t use `...` or `…` in Logger messages.\n\nDon’t do force unwrapping of optionals.\n',
    'Package.swift':
      '// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: "Reader", targets: [.target(name: "Reader")])\n',
  };
  for (let i = 0; i < 4; i++) files[`Sources/Reader/Feed${i}.swift`] = `final class Feed${i} {\n\tvar title = ""\n}\n`;
  const { candidates, titles } = await coldStart(files);
  const agent = candidates.find((c) => c.knowledgeType === 'agent-guideline');
  assert.ok(agent, titles.join('\n'));
  assert.equal(agent.title, 'Agent instructions (`CLAUDE.md`): Don’t use `...` or `…` in Logger messages');
  assert.match(agent.rationale ?? '', /Don’t do force unwrapping of optionals/);
});

test('a Python service beside a root package.json of release scripts: its files belong to the Python target, and no candidate names the npm manifest or an ecosystem prefix', async () => {
  const files: Record<string, string> = {
    'package.json': JSON.stringify(
      {
        name: 'shop',
        version: '3.24.0',
        devDependencies: { 'release-it': '^19.0.4' },
        scripts: { release: 'release-it' },
      },
      null,
      2,
    ),
    'pyproject.toml': '[project]\nname = "shop"\nversion = "3.24.0"\ndependencies = ["django>=5"]\n',
    'manage.py':
      'import os\nimport sys\n\nif __name__ == "__main__":\n    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shop.settings")\n',
    'shop/__init__.py': '',
    'shop/core/__init__.py': '',
    'shop/core/ids.py':
      'def from_global_id_or_error(global_id, only_type=None):\n    """Resolve a global ID or raise a validation error."""\n    kind, _, pk = global_id.partition(":")\n    if only_type and kind != only_type:\n        raise ValueError(f"Must receive a {only_type} id")\n    return kind, pk\n',
  };
  for (const app of ['checkout', 'orders', 'payments', 'products', 'accounts']) {
    files[`shop/${app}/__init__.py`] = '';
    files[`shop/${app}/mutations.py`] =
      `from shop.core.ids import from_global_id_or_error\n\n\ndef resolve_${app}(global_id):\n    _, pk = from_global_id_or_error(global_id, "${app}")\n    return pk\n`;
  }
  const { candidates, titles } = await coldStart(files);
  const helper = candidates.find((c) => /from_global_id_or_error/.test(c.title));
  assert.ok(helper, titles.join('\n'));
  const named = candidates.filter((c) => /npm:|python:/.test(`${c.title} ${c.summary}`));
  assert.deepEqual(named.map((c) => `${c.title} | ${c.summary}`), []);
  // Named apart, the helper's module is still the Python project, not the release manifest that sits in the same folder.
  const apart = await coldStart({
    ...files,
    'package.json': JSON.stringify(
      { name: 'shop-release', version: '3.24.0', devDependencies: { 'release-it': '^19.0.4' } },
      null,
      2,
    ),
  });
  const summary = apart.candidates.find((c) => /from_global_id_or_error/.test(c.title))?.summary ?? '';
  assert.match(summary, /used from 5 files across shop\./);
});

test('Go: no "imports point one way" or "never imports its users" between packages (the compiler refuses cycles); a Rust binary in its crate\'s src/main.rs is Cargo\'s default, not an entry-point candidate', async () => {
  const go: Record<string, string> = { 'go.mod': 'module example.com/web\n\ngo 1.22\n' };
  go['internal/fs/fs.go'] = 'package fs\n\n// Open opens a file.\nfunc Open(name string) string { return name }\n';
  go['internal/bytesconv/bytesconv.go'] =
    'package bytesconv\n\n// ToBytes converts.\nfunc ToBytes(s string) []byte { return []byte(s) }\n';
  go['codec/json.go'] = 'package codec\n\n// Marshal encodes.\nfunc Marshal(v any) []byte { return nil }\n';
  for (const [dir, n] of [['binding', 3], ['render', 3]] as const) {
    for (let i = 1; i <= n; i++) {
      go[`${dir}/${dir}${i}.go`] =
        `package ${dir}\n\nimport (\n\t"example.com/web/codec"\n\t"example.com/web/internal/bytesconv"\n\t"example.com/web/internal/fs"\n)\n\n// Do${i} works.\nfunc Do${i}(s string) []byte {\n\t_ = fs.Open(s)\n\t_ = codec.Marshal(s)\n\treturn bytesconv.ToBytes(s)\n}\n`;
    }
  }
  const { titles } = await coldStart(go);
  assert.ok(!titles.some((t) => /Folders import only|never imports the folders/.test(t)), titles.join('\n'));

  const rust = await coldStart({
    'Cargo.toml':
      '[package]\nname = "fd-find"\nversion = "10.0.0"\nedition = "2021"\n\n[[bin]]\nname = "fd"\npath = "src/main.rs"\n',
    'src/main.rs': 'mod walk;\n\nfn main() {\n    walk::run();\n}\n',
    'src/walk.rs': 'pub fn run() {}\n',
  });
  assert.ok(!rust.titles.some((t) => /^Entry point/.test(t)), rust.titles.join('\n'));
});

test('formatters the build or CI runs are found: Spotless in a Maven pom (no "keep it by hand"), golangci-lint run by its GitHub action (not "no CI step runs it")', async () => {
  const java: Record<string, string> = {
    'pom.xml':
      '<project>\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>com.google.code.gson</groupId>\n  <artifactId>gson-parent</artifactId>\n  <version>2.14</version>\n  <build>\n    <plugins>\n      <plugin>\n        <groupId>com.diffplug.spotless</groupId>\n        <artifactId>spotless-maven-plugin</artifactId>\n        <configuration>\n          <java>\n            <googleJavaFormat>\n              <style>GOOGLE</style>\n            </googleJavaFormat>\n          </java>\n        </configuration>\n        <executions><execution><goals><goal>check</goal></goals></execution></executions>\n      </plugin>\n    </plugins>\n  </build>\n</project>\n',
    '.github/workflows/build.yml':
      'name: build\non: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - name: Build\n        run: mvn verify javadoc:jar\n',
  };
  for (let i = 1; i <= 6; i++) {
    java[`gson/src/main/java/com/google/gson/C${i}.java`] =
      `package com.google.gson;\n\npublic final class C${i} {\n  private final int v;\n\n  public C${i}(int v) {\n    this.v = v;\n  }\n\n  public int get() {\n    if (v > 0) {\n      return v;\n    }\n    return 0;\n  }\n}\n`;
  }
  const j = await coldStart(java);
  const spotless = j.candidates.find((c) =>
    /formatting is enforced by Spotless with google-java-format: run `mvn spotless:apply`/.test(c.title)
  );
  assert.ok(spotless, j.titles.join('\n'));
  assert.match(spotless.summary, /CI checks with `mvn verify javadoc:jar`/);
  assert.ok(!j.candidates.some((c) => /keep it by hand/.test(c.summary)), j.titles.join('\n'));

  const go: Record<string, string> = {
    'go.mod': 'module example.com/gin\n\ngo 1.22\n',
    '.golangci.yml': 'version: "2"\nformatters:\n  enable:\n    - gofmt\n    - gofumpt\n    - goimports\n',
    '.github/workflows/gin.yml':
      'name: Run Tests\non: push\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - name: Setup golangci-lint\n        uses: golangci/golangci-lint-action@v9\n        with:\n          version: v2.11\n          args: --verbose\n',
  };
  for (let i = 1; i <= 4; i++) {
    go[`ctx${i}.go`] =
      `package gin\n\n// Handler${i} handles.\nfunc Handler${i}(s string) string {\n\tif s == "" {\n\t\treturn "none"\n\t}\n\treturn s\n}\n`;
  }
  const g = await coldStart(go);
  const fmt = g.candidates.find((c) => /Go formatting/.test(c.title));
  assert.ok(fmt, g.titles.join('\n'));
  assert.match(fmt.summary, /CI checks with `golangci-lint run --verbose`/);
  assert.doesNotMatch(fmt.summary, /no CI step/);
  // Three formatters and the command fit in the title, which was cut before the command.
  assert.equal(fmt.title, 'Go formatting is enforced by gofmt, gofumpt and goimports: run `golangci-lint fmt`');
});

test('Kotlin multiplatform source sets (commonMain, jsMain, …) are not sibling folders that "do not import each other": they share one package without imports', async () => {
  const files: Record<string, string> = {
    'settings.gradle.kts': 'rootProject.name = "coil"\ninclude(":coil-core")\ninclude(":coil-network-ktor3")\n',
    'coil-core/build.gradle.kts': 'plugins {\n    id("kotlin-multiplatform")\n}\n',
    'coil-core/src/commonMain/kotlin/coil3/Image.kt': 'package coil3\n\n/** An image. */\nclass Image(val size: Int)\n',
    'coil-network-ktor3/build.gradle.kts':
      'plugins {\n    id("kotlin-multiplatform")\n}\nkotlin {\n    sourceSets {\n        commonMain.dependencies {\n            api(projects.coilCore)\n        }\n    }\n}\n',
  };
  for (
    const set of ['commonMain', 'jsMain', 'jvmCommonMain', 'nativeMain', 'nonJvmCommonMain', 'wasmJsMain', 'appleMain']
  ) {
    for (const n of [1, 2]) {
      files[`coil-network-ktor3/src/${set}/kotlin/coil3/network/ktor3/${set}${n}.kt`] =
        `package coil3.network.ktor3\n\nimport coil3.Image\n\n/** Loads on ${set}. */\ninternal fun load${set}${n}(size: Int): Image = Image(size)\n`;
    }
  }
  const { titles } = await coldStart(files);
  assert.ok(!titles.some((t) => /do not import each other/.test(t)), titles.join('\n'));
});

test('a base type whose own documentation discourages new subclasses is not an extension point (a JsonElement); a call through a JVM HTTP client library and a Ktor client are HTTP places too', async () => {
  const java = (doc: string): Record<string, string> => {
    const files: Record<string, string> = {
      'pom.xml':
        '<project><modelVersion>4.0.0</modelVersion><groupId>com.google.code.gson</groupId><artifactId>gson</artifactId><version>2.14</version></project>\n',
      'src/main/java/com/google/gson/JsonElement.java':
        `package com.google.gson;\n\n/** A class representing an element of Json. */\npublic abstract class JsonElement {\n  /**\n   * ${doc}\n   */\n  @Deprecated\n  public JsonElement() {}\n\n  public abstract JsonElement deepCopy();\n}\n`,
    };
    for (const name of ['JsonArray', 'JsonNull', 'JsonObject', 'JsonPrimitive']) {
      files[`src/main/java/com/google/gson/${name}.java`] =
        `package com.google.gson;\n\npublic final class ${name} extends JsonElement {\n  @Override\n  public ${name} deepCopy() {\n    return this;\n  }\n}\n`;
    }
    return files;
  };
  const closed = await coldStart(
    java(
      '@deprecated Creating custom {@code JsonElement} subclasses is highly discouraged and can lead to undefined behavior.',
    ),
  );
  assert.ok(!closed.titles.some((t) => /extend `JsonElement`/.test(t)), closed.titles.join('\n'));
  const open = await coldStart(java('Creates an element.'));
  assert.ok(open.titles.some((t) => /extend `JsonElement`/.test(t)), open.titles.join('\n'));

  const kotlin: Record<string, string> = {
    'settings.gradle.kts': 'rootProject.name = "coil"\n',
    'build.gradle.kts': 'plugins {\n    kotlin("jvm")\n}\n',
  };
  kotlin['src/main/kotlin/coil3/network/okhttp/OkHttpNetworkFetcher.kt'] =
    'package coil3.network.okhttp\n\nimport okhttp3.OkHttpClient\n\nfun okHttpFactory(): OkHttpClient = OkHttpClient()\n\nfun okHttpBuilder(): OkHttpClient.Builder = OkHttpClient.Builder()\n';
  kotlin['src/main/kotlin/coil3/network/okhttp/CallFactoryNetworkClient.kt'] =
    'package coil3.network.okhttp\n\nimport okhttp3.Call\nimport okhttp3.Request\n\nclass CallFactoryNetworkClient(private val callFactory: Call.Factory) {\n    fun execute(request: Request) = callFactory.newCall(request).execute()\n}\n';
  kotlin['src/main/kotlin/coil3/network/ktor/KtorNetworkFetcher.kt'] =
    'package coil3.network.ktor\n\nimport io.ktor.client.HttpClient\n\nfun ktorFactory() = HttpClient()\n';
  for (let i = 1; i <= 14; i++) {
    kotlin[`src/main/kotlin/coil3/util/Util${i}.kt`] = `package coil3.util\n\nfun util${i}(x: Int): Int = x + ${i}\n`;
  }
  const k = await coldStart(kotlin);
  const http = k.candidates.find((c) => /^HTTP requests are made only in/.test(c.title));
  assert.ok(http, k.titles.join('\n'));
  for (const f of ['OkHttpNetworkFetcher.kt', 'CallFactoryNetworkClient.kt', 'KtorNetworkFetcher.kt']) {
    assert.ok(`${http.title} ${http.summary}`.includes(f), `${http.title} | ${http.summary}`);
  }
});

test(".editorconfig's indentation for a language comes from the sections that apply to its files, not from a section for data files", async () => {
  const files: Record<string, string> = {
    '.editorconfig': 'root = true\n\n[*]\nindent_style = tab\n\n[*.yml]\nindent_style = space\nindent_size = 2\n',
  };
  for (let i = 0; i < 10; i++) {
    files[`source/module${i}.js`] =
      `export function run${i}(value) {\n\tif (value > ${i}) {\n\t\treturn value - ${i};\n\t}\n\treturn value;\n}\n`;
  }
  const { candidates, titles } = await coldStart(files);
  const editor = candidates.find((c) => /\.editorconfig/.test(c.title));
  assert.ok(editor, titles.join('\n'));
  assert.match(editor.title, /\(indent_style = tab\)$/);
  assert.doesNotMatch(`${editor.title} ${editor.summary}`, /space|indent_size/);
});
