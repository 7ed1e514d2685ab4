import path from 'node:path';
import { guardEngine } from '../domains/guard';
import { MAX_REVIEW_REASON, reviewReason } from '../domains/guard/baseline';
import { changedLinesOfDiff, changedLinesOfRanges, onChangedLine } from '../domains/guard/changed-lines';
import type { ComplianceReport } from '../domains/guard/compliance';
import { complianceReport, recentScans, recordScan, summarizeScan } from '../domains/guard/compliance';
import type { ScanResult } from '../domains/guard/engine';
import { relPath } from '../domains/guard/files';
import { applyFixes } from '../domains/guard/fix';
import { type RuleProblem, type Severity, severityRank, type StoppedRule, type Violation } from '../domains/guard/rule';
import { readRepoFile } from '../ground/files';
import { AutoSnippetError } from '../ground/kernel/errors';
import { knownLanguages, languageForPath } from '../ground/kernel/languages';
import type { Workspace } from '../ground/workspace';
import { Code, Domain, FilePath, Input, List, Name, Opt, Out, StringEnum, Type } from './schema';
import { type AnyTool, defineTool, type ToolContext } from './types';

const SEVERITY_ENUM = ['error', 'warning', 'info', 'hint'] as const satisfies readonly Severity[];

const minSeverity = Opt(
  StringEnum(SEVERITY_ENUM, {
    description: 'Leave out violations less severe than this (default: hint, i.e. everything).',
  }),
);

const countsOut = Out({ error: Type.Integer(), warning: Type.Integer(), info: Type.Integer(), hint: Type.Integer() });
const violationsOut = Domain<ReturnType<typeof publicViolation>[]>(
  'Each violation: rule id, severity, path, 1-based range (end exclusive), matched text, why and the suggested fix; with a path, its fingerprint, and with a baseline its baselineState (new or unchanged) and, for a finding a person marked reviewed, `reviewed`: their reason the code is intended.',
  'array',
);
const scanOut = {
  files: Type.Integer(),
  counts: countsOut,
  newCounts: Opt(
    Out(countsOut.properties, {
      description: 'With a baseline: the counts of findings not in it (the ones that fail a CI run).',
    }),
  ),
  baseline: Opt(Out(
    {
      file: Type.String(),
      new: Type.Integer(),
      unchanged: Type.Integer(),
      absent: Type.Integer(),
      reviewed: Type.Integer({ description: 'Of the unchanged ones, those a person marked reviewed (intended code).' }),
    },
    {
      description:
        'With a baseline (.autosnippet/guard/baseline.json): findings new since it, still there, and gone. Each violation has its baselineState.',
    },
  )),
  notChecked: Domain<ScanResult['notChecked']>(
    'Files not checked for their kind, counted per kind (vendored, generated, minified by default; setting autosnippet.guard.skipKinds).',
  ),
  durationMs: Type.Number(),
  stopped: Domain<ScanResult['stopped']>('Rules stopped by their time budget, per file.', 'array'),
  skipped: Domain<ScanResult['skipped']>('Files left out, with the reason.', 'array'),
  problems: Domain<RuleProblem[]>('Rules or rule files that could not be loaded.', 'array'),
  violations: violationsOut,
};

/** A violation as tools return it: positions are 1-based; `end` is exclusive. */
function publicViolation(v: Violation) {
  const { startOffset: _s, endOffset: _e, lineText: _l, ...rest } = v;
  for (const k of Object.keys(rest) as (keyof typeof rest)[]) if (rest[k] === undefined) delete rest[k];
  return rest;
}

function atLeast(sev: Severity | undefined) {
  const limit = severityRank[sev ?? 'hint'];
  return (v: Violation) => severityRank[v.severity] <= limit;
}

function assertEnabled(ws: Workspace): void {
  if (!ws.settings.guard.enabled) {
    throw new AutoSnippetError(
      'GUARD_DISABLED',
      'Guard is turned off for this workspace.',
      'Turn it on with the autosnippet.guard.enabled setting.',
    );
  }
}

function scanBody(scan: ScanResult, min?: Severity) {
  const filter = atLeast(min);
  return {
    files: scan.files,
    counts: scan.counts,
    ...(scan.baseline
      ? {
        newCounts: scan.newCounts,
        baseline: {
          file: scan.baseline.file,
          new: scan.baseline.new,
          unchanged: scan.baseline.unchanged,
          absent: scan.baseline.absent.length,
          reviewed: scan.baseline.reviewed,
        },
      }
      : {}),
    notChecked: scan.notChecked,
    durationMs: Math.round(scan.durationMs),
    stopped: scan.stopped,
    skipped: scan.skipped.slice(0, 50),
    problems: scan.problems,
    violations: scan.violations.filter(filter).map(publicViolation),
  };
}

export const guardCheck = defineTool({
  name: 'guard_check',
  title: 'Check code against the guard rules',
  domain: 'guard',
  summary: "Checks a snippet of code against the project's guard rules and the built-in packs.",
  description:
    "Checks code (before or after you write it) against the project's guard rules — its own rules in .autosnippet/guard/*.json, rules from recipes, and the built-in packs for "
    + 'TypeScript/JavaScript, Swift, Objective-C, Python, Go, Java/Kotlin and Rust. Each violation has the rule id, severity, range (1-based line/column, end exclusive), the matched text, '
    + 'why it matters and the suggested fix; `fixedCode` is the code with every automatic fix applied, when a rule has one. Pass `path` (workspace-relative) when the code belongs to a file, '
    + "so path-scoped rules and exclusions apply. Comments and strings are not matched unless a rule asks for them. Use guard_explain for a rule's rationale and examples. "
    + 'After an edit, pass `diff` (the unified diff of this file) or `changedLines` to get only the findings on the lines you added or changed (`outsideChanges` counts the others).',
  inputSchema: Input({
    code: Code('The source text to check.', { maxLength: 2_000_000 }),
    language: Name(`VS Code language id or common alias: ${knownLanguages().join(', ')} (ts, py, objc… also work).`, {
      minLength: 1,
      maxLength: 64,
    }),
    path: Opt(FilePath('Workspace-relative path of the file the code belongs to (optional).')),
    diff: Opt(
      Code(
        'A unified diff (git diff) that produced `code`: only findings on its added lines are reported. With several files, the one named `path`.',
        { maxLength: 2_000_000 },
      ),
    ),
    changedLines: Opt(
      List(Input({ start: Type.Integer({ minimum: 1 }), end: Opt(Type.Integer({ minimum: 1 })) }), 1000, {
        description:
          'Line ranges (1-based, inclusive) you added or changed in `code`: only findings there are reported.',
      }),
    ),
  }),
  outputSchema: Out({
    clean: Type.Boolean(),
    counts: countsOut,
    incomplete: Opt(Type.Boolean()),
    stopped: Domain<StoppedRule[]>('Rules stopped by their time budget.', 'array'),
    fixedCode: Opt(Type.String()),
    fixesApplied: Opt(Type.Integer()),
    outsideChanges: Opt(
      Type.Integer({ description: 'With `diff` or `changedLines`: findings on lines you did not change, not listed.' }),
    ),
    violations: violationsOut,
  }),
  access: 'read',
  maxOutputChars: 24_000,
  paginate: 'violations',
  async handler(ws, input) {
    assertEnabled(ws);
    const rel = input.path !== undefined ? toRel(ws, input.path) : undefined;
    const engine = guardEngine(ws);
    await engine.refreshSources();
    const res = await engine.check(input.code, input.language, { path: rel });
    const changed = input.diff !== undefined
      ? changedLinesOfDiff(input.diff, rel ?? input.path)
      : input.changedLines
      ? changedLinesOfRanges(input.changedLines)
      : undefined;
    const shown = changed ? res.violations.filter((v) => onChangedLine(v, changed)) : res.violations;
    const fixed = applyFixes(input.code, shown);
    return {
      clean: shown.length === 0,
      counts: countBySeverity(shown),
      incomplete: res.incomplete,
      stopped: res.stopped,
      ...(fixed.applied ? { fixedCode: fixed.text, fixesApplied: fixed.applied } : {}),
      ...(changed ? { outsideChanges: res.violations.length - shown.length } : {}),
      violations: shown.map(publicViolation),
    };
  },
});

export const guardAuditFiles = defineTool({
  name: 'guard_audit_files',
  title: 'Audit files with the guard rules',
  domain: 'guard',
  summary: 'Checks files or folders of the workspace (as saved on disk) against the guard rules.',
  description:
    'Checks the given files or folders (workspace-relative or absolute, inside the workspace) against the guard rules, on worker threads. Folders are walked respecting .gitignore and the guard excludes; '
    + 'a file named explicitly is checked even if .gitignore lists it. Returns counts per severity and the violations (rule id, severity, path, range, matched text, why, suggested fix). '
    + 'Use it after editing files; use scan_project for the whole workspace and its compliance trend.',
  inputSchema: Input({
    paths: List(FilePath(undefined, { minLength: 1 }), 500, { minItems: 1, description: 'Files or folders to check.' }),
    minSeverity,
  }),
  outputSchema: Out(scanOut),
  access: 'read',
  maxOutputChars: 40_000,
  paginate: 'violations',
  async handler(ws, input, ctx) {
    assertEnabled(ws);
    const scan = await guardEngine(ws).scan({ paths: input.paths, signal: ctx.signal, progress: progressOf(ctx) });
    return scanBody(scan, input.minSeverity);
  },
});

export const scanProject = defineTool({
  name: 'scan_project',
  title: 'Scan the workspace with the guard rules',
  domain: 'guard',
  summary: 'Scans the whole workspace with the guard rules; records the result for compliance trends.',
  description:
    'Scans every source file of the workspace (respecting .gitignore and the guard excludes) on worker threads, with progress notifications, and records a summary in the database so '
    + 'compliance_report can show the trend. Returns counts per severity, the compliance score (share of files without errors or warnings) and its trend, and the violations, paged: pass the '
    + '`nextCursor` you get back as `cursor` for the next page (files unchanged since the last scan are not re-read). Use minSeverity: "warning" to see only what blocks a build.',
  inputSchema: Input({ minSeverity }),
  outputSchema: Out({
    ...scanOut,
    compliance: Out({ score: Type.Number(), previousScore: Opt(Type.Number()), trend: Type.String() }),
  }),
  // It records the scan for compliance trends: a write, so it passes the Gateway and is audited.
  access: 'propose',
  derivedWrite: true,
  confirmation: () => ({
    title: 'Scan the workspace?',
    message: 'Check every source file against the guard rules and record the result for the compliance trend.',
  }),
  maxOutputChars: 40_000,
  paginate: 'violations',
  async handler(ws, input, ctx) {
    assertEnabled(ws);
    const { scan, report } = await scanAndRecord(ws, ctx);
    const body = scanBody(scan, input.minSeverity);
    return {
      ...body,
      compliance: { score: report.score, previousScore: report.previousScore, trend: report.trend },
      violations: body.violations,
    };
  },
});

export const listRules = defineTool({
  name: 'guard_rules',
  title: 'List guard rules',
  domain: 'guard',
  summary: 'Every guard rule: id, severity, languages, message, where it comes from, whether it runs.',
  description:
    "Lists the guard rules of this workspace: the built-in packs, the project's rules (.autosnippet/guard/*.json) and rules from recipes, with id, severity (after overrides), languages, message, "
    + 'origin, source and whether it has an automatic fix. Inactive rules (turned off, refused as unsafe, or project rules in an untrusted workspace) are listed with the reason when '
    + 'includeInactive is true. `problems` lists rule files or rules that could not be loaded. Use guard_explain for one rule in full.',
  inputSchema: Input({
    language: Opt(Name('Only rules for this language id (rules for every language included).', { maxLength: 64 })),
    origin: Opt(
      StringEnum(['builtin', 'project', 'recipe', 'pack', 'external'], { description: 'Only rules from this origin.' }),
    ),
    includeInactive: Opt(
      Type.Boolean({ default: false, description: 'Also list rules that do not run, with the reason.' }),
    ),
  }),
  outputSchema: Out({
    total: Type.Integer(),
    trusted: Type.Boolean(),
    problems: Domain<RuleProblem[]>('Rules or rule files that could not be loaded.', 'array'),
    rules: Type.Array(Out({
      id: Type.String(),
      severity: Type.String(),
      languages: Type.Array(Type.String()),
      message: Type.String(),
      origin: StringEnum(['builtin', 'project', 'recipe', 'pack', 'external']),
      source: Type.String({
        description:
          "Where it is defined: the built-in pack, the rule file (.autosnippet/guard/x.json), or recipe:<id> for a recipe's guard constraint.",
      }),
      kind: Type.String(),
      hasFix: Type.Boolean(),
      tags: Type.Array(Type.String()),
      active: Type.Boolean(),
      reason: Opt(Type.String()),
    })),
  }),
  access: 'read',
  maxOutputChars: 30_000,
  paginate: 'rules',
  async handler(ws, input) {
    const engine = guardEngine(ws);
    await engine.refreshSources();
    const all = await engine.rules();
    const lang = input.language?.toLowerCase();
    const rules = all.filter((s) =>
      (input.includeInactive || s.active) && (!input.origin || s.rule.origin === input.origin)
      && (!lang || s.rule.languages.includes('*') || s.rule.languages.includes(lang))
    );
    return {
      total: rules.length,
      trusted: ws.settings.trusted,
      problems: await engine.problems(),
      rules: rules.map((s) => ({
        id: s.rule.id,
        severity: s.severity,
        languages: s.rule.languages,
        message: s.rule.message,
        origin: s.rule.origin,
        source: s.rule.source,
        kind: s.rule.pattern.kind,
        hasFix: s.rule.fix !== undefined,
        tags: s.rule.tags ?? [],
        active: s.active,
        ...(s.reason ? { reason: s.reason } : {}),
      })),
    };
  },
});

export const complianceReportTool = defineTool({
  name: 'compliance_report',
  title: 'Guard compliance report',
  domain: 'guard',
  summary: 'Compliance per rule and per file, with the trend against the previous scan.',
  description:
    'Reports how well the workspace follows its guard rules: the score (share of files without errors or warnings), counts per severity, violations per rule and for the files with the most, '
    + 'each with the change since the previous scan, and the rules that stopped firing. Reads the last recorded scan; scans first when there is none or when rescan is true.',
  inputSchema: Input({
    rescan: Opt(
      Type.Boolean({ default: false, description: 'Scan the workspace now instead of using the last recorded scan.' }),
    ),
  }),
  outputSchema: Domain<ComplianceReport>(
    'Score, counts, per rule and per file with the change since the previous scan, and the trend.',
  ),
  // It records a scan when there is none or when asked to rescan: a write, audited by the Gateway.
  access: 'propose',
  derivedWrite: true,
  confirmation: (input) => ({
    title: 'Guard compliance report',
    message: input.rescan
      ? 'Scan the workspace now and record the result for the compliance trend.'
      : 'Report the last recorded scan (scanning and recording one if there is none).',
  }),
  maxOutputChars: 24_000,
  async handler(ws, input, ctx) {
    assertEnabled(ws);
    let scans = recentScans(ws.store, 2);
    if (input.rescan || scans.length === 0) {
      await scanAndRecord(ws, ctx);
      scans = recentScans(ws.store, 2);
    }
    return complianceReport(scans[0], scans[1]);
  },
});

export const writeGuardBaseline = defineTool({
  name: 'write_guard_baseline',
  title: 'Write the guard baseline',
  domain: 'guard',
  summary:
    "Records today's guard findings in .autosnippet/guard/baseline.json, so later scans report only new ones (people only).",
  description:
    'Scans the workspace (or only the given files or folders, whose entries alone are replaced) and records every finding in .autosnippet/guard/baseline.json, by fingerprints '
    + 'that survive moved lines. From then on scans, the CLI (its exit code) and the Problems panel report only findings that are not in it; commit the file. People only: '
    + "accepting today's findings is the team's decision, so an agent's call is refused and audited.",
  inputSchema: Input({
    paths: Opt(
      List(FilePath(undefined, { minLength: 1 }), 500, {
        description:
          'Only these files or folders (workspace-relative or absolute); their entries are replaced, the others kept.',
      }),
    ),
  }),
  outputSchema: Out({
    file: Type.String({ description: 'The baseline file, workspace-relative.' }),
    findings: Type.Integer({ description: 'Findings recorded by this write.' }),
    files: Type.Integer({ description: 'Files checked.' }),
  }),
  access: 'review',
  maxOutputChars: 2000,
  async handler(ws, input, ctx) {
    assertEnabled(ws);
    const written = await guardEngine(ws).writeBaseline({
      paths: input.paths,
      signal: ctx.signal,
      progress: progressOf(ctx),
    });
    return {
      file: relPath(ws.root, written.file) ?? written.file,
      findings: written.findings,
      files: written.scan.files,
    };
  },
});

export const markGuardFindingReviewed = defineTool({
  name: 'mark_guard_finding_reviewed',
  title: 'Mark a guard finding reviewed',
  domain: 'guard',
  summary:
    'Records that a person reviewed one guard finding and judged the code intended, with the reason (people only).',
  description:
    'Marks one finding (its rule, at a line of a file) as reviewed: the code is right as it is, for the reason given. The mark is kept in .autosnippet/guard/baseline.json by a fingerprint '
    + 'that survives moved lines (commit it); from then on scans, the CLI and the Problems panel do not report the finding, SARIF reports it as suppressed with the reason, and a new baseline '
    + "keeps it. Without `code`, the file is read from disk; pass `code` to mark a finding in unsaved text. People only: judging code intended is the team's decision, so an agent's call is refused and audited.",
  inputSchema: Input({
    path: FilePath('The file, workspace-relative or absolute.', { minLength: 1 }),
    line: Type.Integer({ minimum: 1, description: 'The 1-based line the finding starts on.' }),
    ruleId: Name('The rule id, e.g. ts/no-empty-catch.', { minLength: 1, maxLength: 200 }),
    reason: Type.String({
      minLength: 1,
      maxLength: MAX_REVIEW_REASON,
      description: 'Why the code is right as it is (shown in reports and SARIF).',
    }),
    code: Opt(
      Code("The file's current text, when it differs from disk (an unsaved editor).", { maxLength: 4_000_000 }),
    ),
  }),
  outputSchema: Out({
    file: Type.String({ description: 'The baseline file, workspace-relative.' }),
    path: Type.String(),
    line: Type.Integer(),
    ruleId: Type.String(),
    reason: Type.String(),
    replaced: Type.Boolean({ description: 'The finding was already marked reviewed: its reason was replaced.' }),
  }),
  aliases: { rule: 'ruleId', file: 'path', justification: 'reason' },
  access: 'review',
  maxOutputChars: 2000,
  async handler(ws, input, ctx) {
    assertEnabled(ws);
    const rel = toRel(ws, input.path);
    const language = languageForPath(rel);
    if (!language) {
      throw new AutoSnippetError('INVALID_INPUT', `Guard does not check ${rel}: no rules for its language.`);
    }
    const text = input.code ?? (await readRepoFile(ws.root, rel, { kind: 'source', signal: ctx.signal })).text;
    const engine = guardEngine(ws);
    const res = await engine.check(text, language, { path: rel });
    const atLine = res.violations.filter((v) => v.start.line === input.line);
    const v = atLine.find((x) => x.ruleId === input.ruleId);
    if (!v?.fingerprint) {
      const here = atLine.map((x) => x.ruleId);
      throw new AutoSnippetError(
        'NOT_FOUND',
        `Guard reports no ${input.ruleId} finding on line ${input.line} of ${rel}.`,
        here.length
          ? `That line has: ${[...new Set(here)].join(', ')}.`
          : 'Check the line number against a fresh guard_audit_files result.',
      );
    }
    const file = engine.markReviewed(
      { path: rel, rule: v.ruleId, fingerprint: v.fingerprint, line: v.start.line, lineText: v.lineText ?? '' },
      input.reason,
      { alreadyReviewed: v.reviewed !== undefined },
    );
    return {
      file: relPath(ws.root, file) ?? file,
      path: rel,
      line: v.start.line,
      ruleId: v.ruleId,
      reason: reviewReason(input.reason),
      replaced: v.reviewed !== undefined,
    };
  },
});

export const guardExplain = defineTool({
  name: 'guard_explain',
  title: 'Explain a guard rule',
  domain: 'guard',
  summary: "A guard rule's rationale, suggested fix, pattern and examples.",
  description:
    'Explains one guard rule: what it reports, why it matters, what to write instead, its pattern (regex or tree-sitter query), its automatic fix if any, examples of code it reports and '
    + 'the corrected code, where it comes from, whether it runs here, and how to silence it on one line. An unknown id fails with RULE_NOT_FOUND and the closest ids.',
  inputSchema: Input({
    ruleId: Name('Rule id, e.g. ts/no-eval or project/no-direct-fetch.', { minLength: 1, maxLength: 200 }),
  }),
  outputSchema: Out({
    id: Type.String(),
    message: Type.String(),
    severity: Type.String(),
    languages: Type.Array(Type.String()),
    why: Type.String(),
    suggestion: Type.String(),
    pattern: Domain<Record<string, unknown>>('The regex (with flags and where it looks) or the tree-sitter query.'),
    fix: Opt(Type.String()),
    examples: Domain<unknown[]>('Code it reports and the corrected code.', 'array'),
    tags: Type.Array(Type.String()),
    scope: Type.String(),
    origin: Type.String(),
    source: Type.String(),
    active: Type.Boolean(),
    reason: Opt(Type.String()),
    disableOnce: Type.String(),
  }),
  aliases: { id: 'ruleId', rule: 'ruleId' },
  access: 'read',
  maxOutputChars: 12_000,
  async handler(ws, input) {
    const s = await guardEngine(ws).rule(input.ruleId.trim());
    const r = s.rule;
    return {
      id: r.id,
      message: r.message,
      severity: s.severity,
      languages: r.languages,
      why: r.why,
      suggestion: r.suggestion,
      pattern: r.pattern.kind === 'regex'
        ? { kind: 'regex', regex: r.pattern.regex, flags: r.pattern.flags ?? '', in: r.pattern.scope ?? 'code' }
        : { kind: 'structural', query: r.pattern.query },
      fix: r.fix,
      examples: r.examples ?? [],
      tags: r.tags ?? [],
      scope: r.scope ?? 'file',
      origin: r.origin,
      source: r.source,
      active: s.active,
      ...(s.reason ? { reason: s.reason } : {}),
      disableOnce: `autosnippet-guard-disable-next-line ${r.id}  (in a comment on the line above)`,
    };
  },
});

export const guardTools: AnyTool[] = [
  guardCheck,
  guardAuditFiles,
  scanProject,
  listRules,
  complianceReportTool,
  guardExplain,
  writeGuardBaseline,
  markGuardFindingReviewed,
];

/** A scan of the whole workspace, recorded for compliance trends (an identical scan within a minute is not recorded twice). */
export async function scanAndRecord(
  ws: Workspace,
  ctx: Pick<ToolContext, 'signal' | 'progress'>,
): Promise<{ scan: ScanResult; report: ReturnType<typeof complianceReport> }> {
  const engine = guardEngine(ws);
  const scan = await engine.scan({ signal: ctx.signal, progress: progressOf(ctx) });
  const active = (await engine.rules()).filter((s) => s.active).length;
  const now = new Date();
  const summary = summarizeScan(scan, active, now.toISOString());
  const [last, beforeLast] = recentScans(ws.store, 2);
  const same = last && now.getTime() - Date.parse(last.finishedAt) < 60_000
    && JSON.stringify([last.counts, last.rules, last.files])
      === JSON.stringify([summary.counts, summary.rules, summary.files]);
  if (same) return { scan, report: complianceReport(last, beforeLast) };
  summary.id = await recordScan(ws.store, summary);
  return { scan, report: complianceReport(summary, last) };
}

function progressOf(ctx: Pick<ToolContext, 'progress'>) {
  return ctx.progress
    ? (p: { done: number; total: number; message?: string }) =>
      ctx.progress!({ done: p.done, total: p.total, message: p.message })
    : undefined;
}

function countBySeverity(vs: Violation[]): Record<Severity, number> {
  const c: Record<Severity, number> = { error: 0, warning: 0, info: 0, hint: 0 };
  for (const v of vs) c[v.severity]++;
  return c;
}

function toRel(ws: Workspace, p: string): string {
  const rel = relPath(ws.root, path.resolve(ws.root, p));
  if (rel === undefined) {
    throw new AutoSnippetError(
      'PATH_OUTSIDE_WORKSPACE',
      `${p} is outside the workspace.`,
      'Give a path inside the workspace, relative to its root.',
    );
  }
  return rel;
}
