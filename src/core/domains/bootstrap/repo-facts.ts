// Facts about the repository's own files besides its sources: what CI and the other files run, CI
// actions, changelogs, contributor documents, tool configurations, version pins, API dumps; and,
// per source file, the markers the repository-level detectors read (deprecations, test fixtures).
// Extracted once; detectors read these facts and nothing else.
import { classifyFile, isProduction } from '../../ground/files/classify';
import { commandSources, type ProjectCommand } from './commands';
import { statedRules } from './dimensions/guidelines';
import { factsOf } from './facts';
import {
  API_CHECKERS,
  CHANGELOG_FILE,
  CHANGELOG_FORMATS,
  CI_SYSTEMS,
  DEPRECATION_MARKERS,
  TOOL_CONFIGS,
  VERSION_PINS,
} from './tool-knowledge';
import type { AnalysisContext, CandidateDraft, Family, SourceFile } from './types';

/** A deprecation marker in the code: where, which construct, its message, and the declaration it marks. */
export interface DeprecationFact {
  line: number;
  construct: string;
  message?: string;
  /** The marker's line and the declaration line after it (or the marker's own line), trimmed. */
  text: string;
  declaration: string;
}

/** What the repository-level detectors keep of one scanned source file. */
export interface FileRecord {
  path: string;
  family: Family;
  kind: SourceFile['kind'];
  deprecations: DeprecationFact[];
  /** Names the file declares with their lines: every one in a test file, the top-level types of a production file. */
  decls: { name: string; line: number; kind: 'function' | 'type' | 'constant'; member: boolean }[];
  /** Names the file uses (calls, types) and the modules it imports. */
  uses: ReadonlyMap<string, number>;
  qualifiedUses: ReadonlyMap<string, number>;
  imports: readonly { spec: string; line: number }[];
  /** pytest fixtures the file declares (`@pytest.fixture` then `def name`). */
  fixtures: { name: string; line: number }[];
  /** Parameters of the file's test functions (`def test_x(client, tmp_path)`): the fixtures they ask for. */
  fixtureParams: ReadonlyMap<string, number>;
  /** Test functions or test cases the file declares. */
  tests: number;
}

export function fileRecord(file: SourceFile): FileRecord {
  const f = factsOf(file);
  const test = file.kind === 'test';
  return {
    path: file.path,
    family: file.family,
    kind: file.kind,
    deprecations: file.kind === 'production' ? deprecationsIn(file) : [],
    // Of production files, the top-level types (stand-ins the tests use); of test files, every declaration.
    decls: f.decls.filter((d) => test || (!d.member && d.kind === 'type')).map((d) => ({
      name: d.name,
      line: d.line,
      kind: d.kind,
      member: d.member,
    })),
    // What a file uses matters for the tests' shared setup only: production files keep none (5,000 files' names add up).
    uses: test ? f.uses : EMPTY,
    // `pkg.Name` is another module's member: a stand-in the product exports (`mylib.MockTransport`), never a local helper.
    qualifiedUses: test ? new Map([...f.qualified.values()].flatMap((m) => [...m])) : EMPTY,
    imports: test ? f.imports.map((i) => ({ spec: i.spec, line: i.line })) : [],
    ...(file.family === 'python' ? pytestFacts(file) : { fixtures: [], fixtureParams: EMPTY }),
    tests: test ? testCount(file) : 0,
  };
}

const EMPTY: ReadonlyMap<string, number> = new Map();
const DEPRECATED_WORD = /deprecat/i;

function deprecationsIn(file: SourceFile): DeprecationFact[] {
  // Most files say nothing of deprecation: one test spares them the per-line patterns.
  if (!DEPRECATED_WORD.test(file.text)) return [];
  const markers = DEPRECATION_MARKERS.filter((m) => m.families.includes(file.family));
  const out: DeprecationFact[] = [];
  const codeLines = file.code.split('\n');
  file.lines.forEach((line, i) => {
    if (!DEPRECATED_WORD.test(line) || out.length >= 200) return;
    for (const m of markers) {
      const hit = m.pattern.exec(line);
      if (!hit) continue;
      // A marker in a string or a comment is not one, except where the language marks in comments.
      const code = codeLines[i] ?? '';
      if (!m.inComment && !DEPRECATED_WORD.test(code)) continue;
      const message = m.message !== undefined ? (hit[m.message] ?? hit[m.message + 1])?.trim() : undefined;
      out.push({
        line: i + 1,
        construct: m.construct,
        ...(message ? { message: message.slice(0, 200) } : {}),
        text: line.trim().slice(0, 200),
        declaration: declarationAfter(file.lines, i),
      });
      break;
    }
  });
  return out;
}

/** The first line after a marker that is not a comment, an attribute or blank: the declaration it marks. */
function declarationAfter(lines: readonly string[], at: number): string {
  for (let i = at + 1; i < Math.min(lines.length, at + 12); i++) {
    const t = lines[i].trim();
    if (!t || /^(\/\/|\/\*|\*|#\[|@|"""|''')/.test(t)) continue;
    return t.slice(0, 160);
  }
  return lines[at].trim().slice(0, 160);
}

function pytestFacts(file: SourceFile): Pick<FileRecord, 'fixtures' | 'fixtureParams'> {
  const fixtures: FileRecord['fixtures'] = [];
  const params = new Map<string, number>();
  const { lines } = file;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (/^\s*@pytest\.fixture\b/.test(l)) {
      for (let j = i + 1; j < Math.min(lines.length, i + 6); j++) {
        const d = /^\s*(?:async\s+)?def\s+(\w+)/.exec(lines[j]);
        if (d) {
          fixtures.push({ name: d[1], line: j + 1 });
          break;
        }
      }
    }
    const t = /^\s*(?:async\s+)?def\s+test\w*\s*\(([^)]*)\)?/.exec(l);
    if (t) {
      for (const p of t[1].split(',')) {
        const name = p.split(/[:=]/)[0].trim();
        if (name && name !== 'self' && !params.has(name)) params.set(name, i + 1);
      }
    }
  }
  return { fixtures, fixtureParams: params };
}

/** Test functions or cases, by each ecosystem's way of declaring one. */
const TEST_DECL =
  /^\s*(?:(?:async\s+)?def\s+test|func\s+Test[A-Z_]|#\[(?:tokio::)?test\]|@Test\b|(?:it|test)\s*\(|func\s+test[A-Z_]|fun\s+`)/;

function testCount(file: SourceFile): number {
  let n = 0;
  for (const l of file.lines) if (TEST_DECL.test(l)) n++;
  return n;
}

/** Facts about the repository's files that are not sources. */
export interface RepoFacts {
  /** Every command a file of the repository runs (CI steps, package scripts, Makefile targets, scripts, hooks). */
  commands: ProjectCommand[];
  /** Actions CI workflows use (`uses: owner/name@ref`), with their lines. */
  ciActions: { action: string; ref: string; source: string }[];
  /** CI lines that build with a version floor read from its manifest, by the pin's language. */
  ciReadsPin: { language: string; source: string }[];
  ciSystems: { name: string; files: string[] }[];
  /** Changelog files, with their headings and their first lines (where the newest entries are). */
  changelogs: { file: string; headings: { text: string; line: number }[]; head: string[] }[];
  /** Files that say a changelog format is used, by format id (a config file, or the changelog's own text). */
  changelogFormats: { id: string; source: string }[];
  contributorDocs: {
    file: string;
    rules: ReturnType<typeof statedRules>;
    commands: { command: string; line: number }[];
  }[];
  configs: { file: string; tool: string; kind: string }[];
  pins: { language: string; value: string; say: string; source: string; families: readonly Family[] }[];
  /** Files of API checkers: their configuration or the API dumps they keep. */
  apiFiles: { checker: string; file: string; role: 'dump' | 'config'; source: string }[];
  /** Commit-message checkers configured (commitlint), with their file. */
  commitCheckers: { file: string }[];
}

/** All a repository-level detector reads: the records of the scanned files and the repository's facts. */
export interface DetectorFacts {
  files: readonly FileRecord[];
  repo: RepoFacts;
  primary?: Family;
  /** The VS Code language id a family's cards are written in (`typescript` or `javascript` for jsts). */
  languageOf(family: Family): string;
}

/** A card a detector proposes; `excerptAt` (`path:line`) asks for the code there as the card's excerpt. */
export type DetectedCard = CandidateDraft & { excerptAt?: string };

/** A detector: one construct, stated from facts, with no reading of its own. */
export type Detector = (facts: DetectorFacts) => DetectedCard[];

const CONTRIBUTOR_DOC =
  /^(CONTRIBUTING|DEVELOPMENT|DEVELOPING|HACKING)\.(md|rst)$|^(\.github|docs)\/(CONTRIBUTING|contributing|development|DEVELOPMENT)\.(md|rst)$/;
const COMMIT_CHECKER = /^(commitlint\.config\.[cm]?[jt]s|\.commitlintrc(\.(json|ya?ml|js|cjs))?)$/;
const BUILD_FILE = /(^|\/)(build\.gradle(\.kts)?|libs\.versions\.toml|pom\.xml)$/;

const cache = new WeakMap<AnalysisContext, Promise<RepoFacts>>();

export function repoFacts(ctx: AnalysisContext): Promise<RepoFacts> {
  let p = cache.get(ctx);
  if (!p) {
    p = extractRepoFacts(ctx);
    cache.set(ctx, p);
  }
  return p;
}

async function extractRepoFacts(ctx: AnalysisContext): Promise<RepoFacts> {
  const commands = await commandSources(ctx);
  const ciActions: RepoFacts['ciActions'] = [];
  const ciReadsPin: RepoFacts['ciReadsPin'] = [];
  for (const wf of ctx.listing.filter((f) => CI_SYSTEMS[0].files.test(f)).sort()) {
    ((await ctx.read(wf)) ?? '').split('\n').forEach((l, i) => {
      for (const pin of VERSION_PINS) {
        if (pin.ciReads?.test(l) && !ciReadsPin.some((x) => x.language === pin.language)) {
          ciReadsPin.push({ language: pin.language, source: `${wf}:${i + 1}` });
        }
      }
      const m = /^\s*(?:-\s*)?uses:\s*['"]?([\w.-]+\/[\w./-]+)@([\w.-]+)/.exec(l);
      if (m) ciActions.push({ action: m[1], ref: m[2], source: `${wf}:${i + 1}` });
    });
  }
  const ciSystems = CI_SYSTEMS.map((s) => ({ name: s.name, files: ctx.listing.filter((f) => s.files.test(f)) }))
    .filter((s) => s.files.length);

  const changelogs: RepoFacts['changelogs'] = [];
  const changelogFormats: RepoFacts['changelogFormats'] = [];
  for (
    const file of ctx.listing.filter((f) => CHANGELOG_FILE.test(f)).sort((a, b) => a.length - b.length).slice(0, 3)
  ) {
    const text = (await ctx.read(file)) ?? '';
    const lines = text.split('\n');
    const headings: { text: string; line: number }[] = [];
    lines.forEach((l, i) => {
      const h = /^(#{1,4})\s+(.+?)\s*$/.exec(l) ?? (/^[=-]{3,}\s*$/.test(l) && i > 0 ? [l, '#', lines[i - 1]] : null);
      if (h && headings.length < 60) headings.push({ text: h[2].trim(), line: /^[=-]{3,}/.test(l) ? i : i + 1 });
    });
    changelogs.push({ file, headings, head: lines.slice(0, 150) });
    for (const f of CHANGELOG_FORMATS) {
      const m = f.text?.exec(text.slice(0, 4000));
      if (m) changelogFormats.push({ id: f.id, source: `${file}:${text.slice(0, m.index).split('\n').length}` });
    }
  }
  for (const f of CHANGELOG_FORMATS) {
    const file = f.files && ctx.listing.find((x) => f.files!.test(x));
    if (file) changelogFormats.push({ id: f.id, source: `${file}:1` });
    // A format configured inside another file (`[tool.towncrier]` in pyproject.toml, a release action in CI).
    for (const cfg of f.text ? ['pyproject.toml', ...ctx.listing.filter((x) => CI_SYSTEMS[0].files.test(x))] : []) {
      if (!ctx.has(cfg) || changelogFormats.some((c) => c.id === f.id)) continue;
      const text = (await ctx.read(cfg)) ?? '';
      const m = f.text!.exec(text);
      if (m && !CHANGELOG_FILE.test(cfg)) {
        changelogFormats.push({ id: f.id, source: `${cfg}:${text.slice(0, m.index).split('\n').length}` });
      }
    }
  }

  const contributorDocs: RepoFacts['contributorDocs'] = [];
  for (const file of ctx.listing.filter((f) => CONTRIBUTOR_DOC.test(f)).sort()) {
    const text = (await ctx.read(file)) ?? '';
    contributorDocs.push({ file, rules: statedRules(text, false), commands: docCommands(text) });
  }

  const pins: RepoFacts['pins'] = [];
  const apiFiles: RepoFacts['apiFiles'] = [];
  // The product's manifests, the shallowest first: a test, sample or vendored project's pin is not the
  // floor new code is written against, and the root manifest's pin wins over a module's.
  const depth = (f: string) => f.split('/').length;
  const manifests = ctx.listing.filter((f) => VERSION_PINS.some((p) => p.manifest.test(f)) || BUILD_FILE.test(f))
    .filter((f) => depth(f) <= 3 && isProduction(classifyFile(f).kind))
    .sort((x, y) => depth(x) - depth(y))
    .slice(0, 40);
  for (const m of manifests) {
    const text = (await ctx.read(m)) ?? '';
    const lineOf = (index: number) => text.slice(0, index).split('\n').length;
    for (const pin of VERSION_PINS.filter((p) => p.manifest.test(m))) {
      const hit = pin.pattern.exec(text);
      if (hit) {
        pins.push({
          language: pin.language,
          value: hit[1],
          say: pin.say.replace('{v}', hit[1]),
          source: `${m}:${lineOf(hit.index + hit[0].indexOf(hit[1]))}`,
          families: pin.families,
        });
      }
    }
    for (const c of API_CHECKERS) {
      for (const cfg of c.configured ?? []) {
        const hit = cfg.file.test(m) && cfg.text ? cfg.text.exec(text) : null;
        if (hit) apiFiles.push({ checker: c.id, file: m, role: 'config', source: `${m}:${lineOf(hit.index)}` });
      }
    }
  }
  for (const c of API_CHECKERS) {
    for (const f of ctx.listing) {
      if (c.dumps?.test(f)) apiFiles.push({ checker: c.id, file: f, role: 'dump', source: `${f}:1` });
      else if (c.configured?.some((x) => !x.text && x.file.test(f))) {
        apiFiles.push({ checker: c.id, file: f, role: 'config', source: `${f}:1` });
      }
    }
  }

  return {
    commands,
    ciActions,
    ciReadsPin,
    ciSystems,
    changelogs,
    changelogFormats,
    contributorDocs,
    configs: TOOL_CONFIGS.filter((c) => ctx.has(c.file)),
    pins,
    apiFiles,
    commitCheckers: ctx.listing.filter((f) => COMMIT_CHECKER.test(f)).map((file) => ({ file })),
  };
}

/** The commands a document shows: inline code and lines of shell blocks that start with a runner or a script. */
function docCommands(text: string): { command: string; line: number }[] {
  const out: { command: string; line: number }[] = [];
  let fence = false;
  text.split('\n').forEach((l, i) => {
    if (/^\s*(```|~~~)/.test(l)) {
      fence = !fence;
      return;
    }
    const found = fence ? [l.trim().replace(/^\$\s+/, '')] : [...l.matchAll(/`([^`\n]+)`/g)].map((m) => m[1].trim());
    for (const c of found) {
      if (COMMAND_START.test(c) && out.length < 40) out.push({ command: c.replace(/\s+#.*$/, ''), line: i + 1 });
    }
  });
  return out;
}

const COMMAND_START =
  /^(?:\.\/[\w./-]+|scripts\/[\w.-]+|make|just|task|npm|pnpm|yarn|npx|bun|cargo|go|swift|xcodebuild|pytest|python3?|uv|poetry|tox|nox|hatch|\.\/gradlew|gradle|mvn|\.\/mvnw|bundle|rake|deno)(?:\s|$)/;
