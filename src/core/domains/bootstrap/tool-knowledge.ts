// What the cold start knows about tools, as data: the checkers CI runs, the API and compatibility
// checkers and the files they keep, changelog formats, deprecation markers, version pins, CI
// systems, configuration files. Detectors read these tables; a tool the scan learns about is a row
// added here, not a branch added to a detector.
import type { Family } from './types';

/** What a checker guards. */
export type CheckKind = 'linter' | 'formatter' | 'type-checker' | 'api-checker' | 'dependency-guard' | 'hook-runner';

/** A tool that checks code and changes nothing, by what a command that runs it looks like. */
export interface CheckTool {
  tool: string;
  kind: CheckKind;
  /** Matched against a command's text with the project scripts it calls spelled out. */
  runs: RegExp;
}

export const CHECK_TOOLS: readonly CheckTool[] = [
  { tool: 'clippy', kind: 'linter', runs: /\bcargo(?:\s+\+\S+)?\s+clippy\b/ },
  { tool: 'rustfmt', kind: 'formatter', runs: /\bcargo(?:\s+\+\S+)?\s+fmt\b[^\n]*--check|\brustfmt\b[^\n]*--check/ },
  { tool: 'rustdoc', kind: 'linter', runs: /\bcargo(?:\s+\+\S+)?\s+doc\b/ },
  { tool: 'gofmt', kind: 'formatter', runs: /\bgofmt\s+-[ld]/ },
  { tool: 'go vet', kind: 'linter', runs: /\bgo\s+vet\b/ },
  { tool: 'golangci-lint', kind: 'linter', runs: /\bgolangci-lint\s+run\b/ },
  { tool: 'staticcheck', kind: 'linter', runs: /\bstaticcheck\b/ },
  { tool: 'swiftlint', kind: 'linter', runs: /\bswiftlint\b/ },
  { tool: 'swiftformat', kind: 'formatter', runs: /\bswiftformat\b[^\n]*--lint/ },
  { tool: 'ktlint', kind: 'linter', runs: /\bktlint\b/ },
  { tool: 'detekt', kind: 'linter', runs: /\bdetekt\b/ },
  { tool: 'spotless', kind: 'formatter', runs: /\bspotless(?:Check|:check)\b/ },
  { tool: 'binary-compatibility-validator', kind: 'api-checker', runs: /\b(?:checkKotlinAbi|apiCheck)\b/ },
  { tool: 'dependency-guard', kind: 'dependency-guard', runs: /\bdependencyGuard\b/ },
  { tool: 'eslint', kind: 'linter', runs: /\beslint\b/ },
  { tool: 'prettier', kind: 'formatter', runs: /\bprettier\b[^\n]*(?:--check|--list-different|\s-[cl]\b)/ },
  { tool: 'biome', kind: 'linter', runs: /\bbiome\s+(?:check|lint|ci|format)\b/ },
  { tool: 'tsc', kind: 'type-checker', runs: /\b(?:vue-)?tsc\b[^\n]*--noEmit/ },
  { tool: 'ruff', kind: 'linter', runs: /\bruff\s+(?:check\b|format\b[^\n]*--check)/ },
  { tool: 'black', kind: 'formatter', runs: /\b(?:black|isort)\b[^\n]*--check/ },
  { tool: 'flake8', kind: 'linter', runs: /\b(?:flake8|pylint)\b/ },
  { tool: 'mypy', kind: 'type-checker', runs: /\b(?:mypy|pyright)\b/ },
  { tool: 'pre-commit', kind: 'hook-runner', runs: /\bpre-commit\s+run\b/ },
];

/** One pattern for "runs a checker", built from the table (a command is tested once, not once per tool). */
export const CHECK_TOOL_PATTERN = new RegExp(CHECK_TOOLS.map((t) => t.runs.source).join('|'));

/**
 * A public-API or compatibility checker: how CI runs it, the configuration that sets it up, and the
 * API dumps it keeps beside the code (a change to the API shows as a change to the dump, reviewed).
 */
export interface ApiChecker {
  id: string;
  name: string;
  ecosystem: 'npm' | 'cargo' | 'gradle' | 'maven' | 'swift' | 'go' | 'python' | 'android';
  /** A command (or CI step) that runs the check. */
  runs: RegExp;
  /** A command that rewrites the dump after an intended change, as a person types it. */
  update?: string;
  /** Configuration or build-file text that applies the checker (a plugin id, a config file's name). */
  configured?: { file: RegExp; text?: RegExp }[];
  /** The API dump files it keeps in the repository. */
  dumps?: RegExp;
}

export const API_CHECKERS: readonly ApiChecker[] = [
  {
    id: 'api-extractor',
    name: 'API Extractor',
    ecosystem: 'npm',
    runs: /\bapi-extractor\s+run\b/,
    update: 'api-extractor run --local',
    configured: [{ file: /(^|\/)api-extractor\.json$/ }],
    dumps: /(^|\/)[^/]+\.api\.md$/,
  },
  {
    id: 'attw',
    name: 'Are the types wrong?',
    ecosystem: 'npm',
    runs: /\b(?:attw|@arethetypeswrong\/cli)\b/,
  },
  {
    id: 'cargo-semver-checks',
    name: 'cargo-semver-checks',
    ecosystem: 'cargo',
    runs: /\bcargo\s+semver-checks\b|cargo-semver-checks-action/,
  },
  {
    id: 'binary-compatibility-validator',
    name: 'Kotlin binary-compatibility-validator',
    ecosystem: 'gradle',
    runs: /\b(?:apiCheck|checkKotlinAbi|checkLegacyAbi)\b/,
    update: './gradlew apiDump',
    configured: [{
      file: /(^|\/)(build\.gradle(\.kts)?|libs\.versions\.toml)$/,
      text: /binary-compatibility-validator|kotlinx\.binary-compatibility|abiValidation\s*\{/,
    }],
    dumps: /(^|\/)api\/[^/]+\.(api|klib\.api)$/,
  },
  {
    id: 'japicmp',
    name: 'japicmp',
    ecosystem: 'maven',
    runs: /\bjapicmp(?::cmp|Check)?\b/,
    configured: [{ file: /(^|\/)(pom\.xml|build\.gradle(\.kts)?)$/, text: /japicmp/ }],
  },
  {
    id: 'metalava',
    name: 'Metalava',
    ecosystem: 'android',
    runs: /\b(?:metalavaCheckCompatibility|checkApi|metalava)\b/,
    update: './gradlew updateApi',
    dumps: /(^|\/)api\/(current|restricted_current)\.txt$/,
  },
  {
    id: 'swift-api-digester',
    name: "Swift's API digester",
    ecosystem: 'swift',
    runs: /\bdiagnose-api-breaking-changes\b|\bswift-api-digester\b/,
  },
  {
    id: 'apidiff',
    name: 'apidiff / gorelease',
    ecosystem: 'go',
    runs: /\b(?:apidiff|gorelease)\b/,
  },
  {
    id: 'griffe',
    name: 'griffe check',
    ecosystem: 'python',
    runs: /\bgriffe\s+check\b/,
  },
];

/**
 * The oldest language or runtime version a manifest supports: code must build and run on it, so an
 * agent must not write past it. `say` puts the value in words; `{v}` is the version.
 */
export interface VersionPin {
  language: string;
  manifest: RegExp;
  pattern: RegExp;
  say: string;
  /** The families whose code it binds. */
  families: readonly Family[];
  /** CI text that builds with the floor read from the manifest (a toolchain taken from `rust-version`). */
  ciReads?: RegExp;
}

export const VERSION_PINS: readonly VersionPin[] = [
  {
    language: 'Go',
    manifest: /(^|\/)go\.mod$/,
    pattern: /^go[ \t]+(\d+\.\d+(?:\.\d+)?)[ \t]*$/m,
    say: 'Go {v} or newer (the code must build with it)',
    families: ['go'],
    ciReads: /go-version-file:\s*['"]?go\.mod/,
  },
  {
    language: 'Python',
    manifest: /(^|\/)pyproject\.toml$/,
    pattern: /^requires-python[ \t]*=[ \t]*["']([^"'\n]+)["']/m,
    say: 'Python {v}',
    families: ['python'],
    ciReads: /python-version-file:\s*['"]?pyproject\.toml/,
  },
  {
    language: 'Rust',
    manifest: /(^|\/)Cargo\.toml$/,
    pattern: /^rust-version[ \t]*=[ \t]*"([^"\n]+)"/m,
    say: 'Rust {v} or newer',
    families: ['rust'],
    ciReads: /\brust[-_]version\b|\bmsrv\b/i,
  },
  {
    language: 'Swift',
    manifest: /(^|\/)Package(@swift-[\d.]+)?\.swift$/,
    pattern: /swift-tools-version:[ \t]*([\d.]+)/,
    say: 'swift-tools-version {v}',
    families: ['swift', 'objc'],
  },
  {
    language: 'Node',
    manifest: /(^|\/)package\.json$/,
    pattern: /"engines"\s*:\s*\{[^}]*?"node"\s*:\s*"([^"\n]+)"/,
    say: 'Node {v}',
    families: ['jsts'],
  },
  {
    language: 'Java',
    manifest: /(^|\/)build\.gradle(\.kts)?$/,
    pattern: /\b(?:jvmToolchain\s*\(\s*|JavaLanguageVersion\.of\s*\(\s*)(\d+)/,
    say: 'a Java {v} toolchain',
    families: ['kotlin', 'java'],
  },
  {
    language: 'Java',
    manifest: /(^|\/)pom\.xml$/,
    pattern: /<(?:maven\.compiler\.release|maven\.compiler\.source|release|javaVersion)>\s*(\d+(?:\.\d+)?)\s*</,
    say: 'Java {v} (the compiler release)',
    families: ['java', 'kotlin'],
  },
];

/** How a changelog is kept: what marks the format, where an entry goes, who writes it. */
export interface ChangelogFormat {
  id: string;
  name: string;
  /** A file whose presence says the format is used. */
  files?: RegExp;
  /** Text in the changelog itself, or in a configuration file, that names the format. */
  text?: RegExp;
  /** Where an entry for a change goes, in words. */
  entry: string;
  /** Whether entries are written by hand (`hand`), as files per change (`fragment`), or from commits (`commits`). */
  written: 'hand' | 'fragment' | 'commits';
}

export const CHANGELOG_FORMATS: readonly ChangelogFormat[] = [
  {
    id: 'changesets',
    name: 'Changesets',
    files: /^\.changeset\/config\.json$/,
    entry: 'a Markdown file under `.changeset/` per change (`npx changeset`), naming the packages and the bump',
    written: 'fragment',
  },
  {
    id: 'towncrier',
    name: 'towncrier',
    files: /^(towncrier\.toml|newsfragments\/|changes\/[^/]+\.(feature|bugfix|doc|removal|misc)(\.md|\.rst)?$)/,
    text: /^\[tool\.towncrier\]/m,
    entry: 'a news fragment file per change (`<issue>.<type>`) in the fragments folder; towncrier builds the changelog',
    written: 'fragment',
  },
  {
    id: 'reno',
    name: 'reno',
    files: /^releasenotes\/notes\//,
    entry: 'a YAML note under `releasenotes/notes/` per change (`reno new`)',
    written: 'fragment',
  },
  {
    id: 'changie',
    name: 'Changie',
    files: /^\.changie\.ya?ml$/,
    entry: 'a change file under `.changes/unreleased/` (`changie new`)',
    written: 'fragment',
  },
  {
    id: 'release-please',
    name: 'release-please',
    files: /^(release-please-config\.json|\.release-please-manifest\.json)$/,
    text: /release-please-action|googleapis\/release-please/,
    entry: 'nothing by hand: release-please writes the changelog from Conventional Commit messages',
    written: 'commits',
  },
  {
    id: 'semantic-release',
    name: 'semantic-release',
    files: /^\.releaserc(\.(json|ya?ml|js|cjs))?$|^release\.config\.[cm]?js$/,
    entry: 'nothing by hand: semantic-release writes the release notes from Conventional Commit messages',
    written: 'commits',
  },
  {
    id: 'git-cliff',
    name: 'git-cliff',
    files: /^cliff\.toml$/,
    entry: 'nothing by hand: git-cliff writes the changelog from commit messages',
    written: 'commits',
  },
  {
    id: 'keep-a-changelog',
    name: 'Keep a Changelog',
    text: /keepachangelog\.com|^##\s*\[?unreleased\]?\s*$/im,
    entry: 'a bullet under the `Unreleased` heading, in its section (Added, Changed, Fixed, Removed…)',
    written: 'hand',
  },
];

/** Changelog files a person edits, by name. */
export const CHANGELOG_FILE =
  /^(?:[^/]+\/)?(CHANGELOG|CHANGES|HISTORY|NEWS|RELEASES?|RELEASE[-_]NOTES)(\.(md|rst|txt|markdown|adoc))?$/i;

/**
 * How code marks a declaration deprecated, per language: the marker and the group holding its
 * message (when the marker carries one).
 */
export interface DeprecationMarker {
  families: readonly Family[];
  /** The construct, in the language's own words. */
  construct: string;
  /** Matched per line of the original text (the marker may live in a comment). */
  pattern: RegExp;
  message?: number;
  /** Matched in comments (JSDoc, Javadoc, Go doc comments) rather than in code. */
  inComment?: boolean;
}

export const DEPRECATION_MARKERS: readonly DeprecationMarker[] = [
  {
    families: ['jsts'],
    construct: '`@deprecated` JSDoc tag',
    pattern: /^\s*(?:\/\*\*|\*)?\s*@deprecated\b\s*(.*?)\s*(?:\*\/)?$/,
    message: 1,
    inComment: true,
  },
  {
    families: ['rust'],
    construct: '`#[deprecated]` attribute',
    pattern: /^\s*#\[deprecated\b(?:\s*\(\s*(.*?)\)\s*)?\]/,
    message: 1,
  },
  {
    families: ['swift'],
    construct: '`@available(*, deprecated…)` attribute',
    pattern: /@available\s*\([^)]*\bdeprecated\b[^)]*?(?:message:\s*"([^"]*)"|renamed:\s*"([^"]*)")?[^)]*\)/,
    message: 1,
  },
  {
    families: ['python'],
    construct: '`warnings.warn(…, DeprecationWarning)`',
    pattern: /\bwarn(?:ings\.warn)?\s*\(\s*(?:f?["']([^"']*)["'])?.*\b(?:Pending)?DeprecationWarning\b/,
    message: 1,
  },
  {
    families: ['python'],
    construct: '`@deprecated(…)` decorator',
    pattern: /^\s*@(?:typing_extensions\.|warnings\.)?deprecated\s*\(\s*(?:["']([^"']*)["'])?/,
    message: 1,
  },
  {
    families: ['go'],
    construct: '`// Deprecated:` doc comment',
    pattern: /^\s*\/\/\s*Deprecated:\s*(.*)$/,
    message: 1,
    inComment: true,
  },
  {
    families: ['java', 'kotlin'],
    construct: '`@Deprecated` annotation',
    pattern: /^\s*@Deprecated\b(?:\s*\(\s*(?:message\s*=\s*)?"([^"]*)")?/,
    message: 1,
  },
  {
    families: ['java', 'kotlin'],
    construct: '`@deprecated` Javadoc tag',
    pattern: /^\s*\*\s*@deprecated\b\s*(.*)$/,
    message: 1,
    inComment: true,
  },
  {
    families: ['objc'],
    construct: '`API_DEPRECATED` / `__deprecated_msg` attribute',
    pattern:
      /\b(?:API_DEPRECATED(?:_WITH_REPLACEMENT)?|__deprecated_msg|DEPRECATED_MSG_ATTRIBUTE)\s*\(\s*"([^"]*)"|\bDEPRECATED_ATTRIBUTE\b|__attribute__\s*\(\s*\(\s*deprecated/,
    message: 1,
  },
];

/** CI systems, by the files that configure them. */
export const CI_SYSTEMS: readonly { name: string; files: RegExp }[] = [
  { name: 'GitHub Actions', files: /^\.github\/workflows\/[^/]+\.ya?ml$/ },
  { name: 'GitLab CI', files: /^\.gitlab-ci\.yml$/ },
  { name: 'CircleCI', files: /^\.circleci\/config\.ya?ml$/ },
  { name: 'sourcehut builds', files: /^(\.builds\/[^/]+|\.build)\.ya?ml$/ },
  { name: 'Azure Pipelines', files: /^azure-pipelines\.ya?ml$/ },
  { name: 'Travis CI', files: /^\.travis\.ya?ml$/ },
  { name: 'Buildkite', files: /^\.buildkite\/[^/]+\.ya?ml$/ },
  { name: 'Jenkins', files: /^Jenkinsfile$/ },
];

/** Configuration files of formatters, linters and type checkers, read by name at the root. */
export const TOOL_CONFIGS: readonly { file: string; tool: string; kind: CheckKind | 'changelog' }[] = [
  { file: '.pre-commit-config.yaml', tool: 'pre-commit', kind: 'hook-runner' },
  { file: '.pre-commit-config.yml', tool: 'pre-commit', kind: 'hook-runner' },
  { file: 'lefthook.yml', tool: 'lefthook', kind: 'hook-runner' },
  { file: 'lefthook.yaml', tool: 'lefthook', kind: 'hook-runner' },
  { file: '.editorconfig', tool: 'EditorConfig', kind: 'formatter' },
  { file: '.prettierrc', tool: 'prettier', kind: 'formatter' },
  { file: '.prettierrc.json', tool: 'prettier', kind: 'formatter' },
  { file: '.prettierrc.yaml', tool: 'prettier', kind: 'formatter' },
  { file: '.prettierrc.yml', tool: 'prettier', kind: 'formatter' },
  { file: '.swiftlint.yml', tool: 'swiftlint', kind: 'linter' },
  { file: '.swiftformat', tool: 'swiftformat', kind: 'formatter' },
  { file: '.swift-format', tool: 'swift-format', kind: 'formatter' },
  { file: 'rustfmt.toml', tool: 'rustfmt', kind: 'formatter' },
  { file: '.rustfmt.toml', tool: 'rustfmt', kind: 'formatter' },
  { file: '.golangci.yml', tool: 'golangci-lint', kind: 'linter' },
  { file: '.golangci.yaml', tool: 'golangci-lint', kind: 'linter' },
  { file: '.clang-format', tool: 'clang-format', kind: 'formatter' },
  // CI files with dotted names that broad `.gitignore` patterns cover.
  { file: '.gitlab-ci.yml', tool: 'GitLab CI', kind: 'hook-runner' },
  { file: '.build.yml', tool: 'sourcehut builds', kind: 'hook-runner' },
  // Changelog tools configured in dot folders a listing may skip.
  { file: '.changeset/config.json', tool: 'Changesets', kind: 'changelog' },
  { file: '.changie.yaml', tool: 'Changie', kind: 'changelog' },
];

/**
 * What a contributor rule is about. Rules on code, commits and tests bind every change; a
 * `generic` rule (how to use git or GitHub, where the docs live) tells a teammate nothing about
 * this project and is dropped.
 */
export const CONTRIBUTOR_CONCERNS: readonly { concern: 'commits' | 'tests' | 'code' | 'generic'; about: RegExp }[] = [
  {
    concern: 'generic',
    about:
      /\b(fork (the|this) repo|clone (the|your|this)|git (add|clone|checkout|push|pull|fetch|remote)\b|stage (your|the) changes|create a (new )?branch|open (a|an) (issue|discussion)|search (the )?(existing )?issues|code of conduct|be (kind|respectful|nice)|sign (the|our) CLA|docs? repository|thank you|star the)/i,
  },
  {
    concern: 'commits',
    about:
      /\b(conventional commits?|commit messages?|commit titles?|squash|rebase|sign[- ]off|signed-off-by|DCO|PR titles?|pull request titles?|one (logical )?change per (commit|PR|pull request))\b|\b(feat|fix|chore)\(|\bfeat:|\bfix:/i,
  },
  {
    concern: 'tests',
    about: /\b(tests?|testing|failing test|regression test|coverage|test suite|unit tests?|spec)\b/i,
  },
  {
    concern: 'code',
    about:
      /\b(lint|format(ted|ting)?|style|type[- ]?check|public API|breaking change|changelog|docstrings?|doc comments?|dependenc(y|ies)|deprecat\w*|backward[s]? compat\w*|naming|API)\b/i,
  },
];
