import { statSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { declaredKinds, looksBinary, readRepoFileSync, RealPathCache } from '../../ground/files';
import type { Actor } from '../../ground/kernel/actors';
import { AutoSnippetError, ErrorCode, isAutoSnippetError } from '../../ground/kernel/errors';
import { slicer } from '../../ground/kernel/slices';
import { lookup } from '../../ground/kernel/tables';
import type { Workspace } from '../../ground/workspace';
import { type GraphEdge, nodeKey, replaceEdges } from '../graph';
import { submitCandidates } from '../knowledge/candidates';
import { triggerFor } from '../knowledge/recipe-file';
import type { CandidateInput } from '../knowledge/types';
import { ownedDirs, projectSnapshot, structureEdges } from '../structure';
import { type CardRule, draftCardRules } from './card-rules';
import { CodeDetectors } from './code-detectors';
import { codeLanguageOf } from './code-language';
import { ArchitectureAnalyzer } from './dimensions/architecture';
import { FlowAnalyzer } from './dimensions/flow';
import { FormattingAnalyzer } from './dimensions/formatting';
import { AgentGuidelinesAnalyzer } from './dimensions/guidelines';
import { LanguageAnalyzer } from './dimensions/language';
import { CodePatternAnalyzer } from './dimensions/patterns';
import { BestPracticeAnalyzer } from './dimensions/practices';
import { ProjectProfileAnalyzer } from './dimensions/profile';
import { CodeStandardAnalyzer, languageOf } from './dimensions/standards';
import { excerptFrom } from './evidence';
import { fit, fitSummary, MAX_SUMMARY, MAX_TITLE } from './form';
import { dimensionGuides } from './guides';
import { RepositoryDetectors } from './repository-detectors';
import { selectFiles } from './select';
import { sourceFile } from './source';
import { TOOL_CONFIGS } from './tool-knowledge';
import type { AnalysisContext, Analyzer, CandidateDraft, Family, SourceFile } from './types';

export interface BootstrapOptions {
  /** At most this many source files are read (default 2,000). */
  maxFiles?: number;
  /** Larger files are skipped (default 256 KiB). */
  maxFileBytes?: number;
  /** The scan stops reading after this many bytes in total (default 48 MiB). */
  maxTotalBytes?: number;
  /** Only these dimensions propose candidates (ids as in the result). */
  dimensions?: string[];
}

export interface BootstrapRun {
  actor: Actor;
  signal?: AbortSignal;
  progress?(p: { message: string; done?: number; total?: number }): void;
  /** Sees each scanned file once, before the analysers (the file's text is dropped after the visit). */
  visit?(file: SourceFile): void;
}

export interface DimensionResult {
  id: string;
  created: string[];
  existing: string[];
  /** What to look for by reading, from the coldstart or reference skill. */
  guide: string;
  guideFrom: string;
}

export interface BootstrapResult {
  scanned: {
    files: number;
    bytes: number;
    eligible: number;
    capped: boolean;
    skipped: { tooLarge: number; binary: number; unreadable: number; overBudget: number };
    ignoredByGitignore: number;
    languages: Record<string, number>;
  };
  targets: { count: number; ecosystems: Record<string, number> };
  /** Files that could not be read or listed (a FIFO `.gitignore`, an unreadable manifest…), at most 10. */
  problems?: { file: string; message: string }[];
  /** The language of most scanned production files (VS Code id), when there is one. */
  primaryLanguage?: string;
  candidates: { proposed: number; created: number; existing: number; weak: number };
  /**
   * Guard rules drafted from the cards that state one (stored with the card, pending): drafted and
   * passing their examples, refused, and reporting places in the repository today.
   */
  rules: { drafted: number; refused: number; withFindings: number };
  /**
   * The project's own rules for agents and contributors (AI_POLICY.md, AGENTS.md, CLAUDE.md, Copilot
   * instructions, CONTRIBUTING.md), agent files first: the candidate to read before anything else.
   */
  policies?: { file: string; candidate: string; rule: string }[];
  dimensions: DimensionResult[];
  graph: { fileImports: number; targetFiles: number; targetDependencies: number };
  durationMs: number;
  next: string;
}

export const DEFAULTS = { maxFiles: 2000, maxFileBytes: 256 * 1024, maxTotalBytes: 48 * 1024 * 1024 };
/** Progress and the cancel check every this many files. */
const PROGRESS_EVERY = 16;
const SUBMIT_BATCH = 50;

/**
 * Cold start without AI: the scan below, then what it found recorded as pending candidates.
 * Idempotent: the same project gives the same candidates, and `submitCandidates` reports the ones
 * that exist as duplicates instead of creating them again.
 */
export async function bootstrapKnowledge(
  ws: Workspace,
  options: BootstrapOptions,
  run: BootstrapRun,
): Promise<BootstrapResult> {
  const scan = await scanProject(ws, options, run);
  return recordScan(ws, scan, scan.proposals, run);
}

/** What one scan found, before anything is recorded: the drafts that meet the bar and the ones that do not. */
export interface ProjectScan {
  t0: number;
  ctx: AnalysisContext;
  /** Drafts with sources and a confidence of 0.5 or more, one per title, in the analysers' order. */
  proposals: CandidateDraft[];
  /** Drafts below that bar: evidence a reader may still weigh, never candidates on their own. */
  weakDrafts: CandidateDraft[];
  wanted?: Set<string>;
  familyCounts: Partial<Record<Family, number>>;
  primary: Family | undefined;
  /** The language of most scanned production files (VS Code id), when there is one. */
  primaryLanguage?: string;
  targetEdges: GraphEdge[];
  fileEdges: GraphEdge[];
  containment: GraphEdge[];
  scanned: BootstrapResult['scanned'];
  total: number;
}

/**
 * Lists the workspace (respecting .gitignore), reads the targets, scans a bounded, representative set
 * of source files in slices and analyses the nine dimensions. Records nothing: `recordScan` does.
 */
export async function scanProject(
  ws: Workspace,
  options: BootstrapOptions,
  run: BootstrapRun,
): Promise<ProjectScan> {
  const t0 = performance.now();
  const maxFiles = options.maxFiles ?? DEFAULTS.maxFiles;
  const maxFileBytes = options.maxFileBytes ?? DEFAULTS.maxFileBytes;
  const maxTotalBytes = options.maxTotalBytes ?? DEFAULTS.maxTotalBytes;
  const progress = throttle(run.progress);
  const cancelled = (scanned: number, total: number) => {
    if (run.signal?.aborted) {
      throw new AutoSnippetError(
        ErrorCode.Cancelled,
        `Bootstrap was cancelled after scanning ${scanned} of ${total} files; no candidates were created.`,
        'Run bootstrap_knowledge again when ready: it starts over and creates no duplicates.',
        { scanned, total },
      );
    }
  };

  progress({ message: 'Listing the workspace and reading build manifests' }, true);
  const { listing, structure } = await projectSnapshot(ws, { refresh: true, signal: run.signal });
  cancelled(0, 0);
  const targetEdges = structureEdges(structure.targets);

  const selection = selectFiles(listing.files, maxFiles, declaredKinds(ws.root));
  const total = selection.files.length;
  const analyzers = {
    'code-standard': new CodeStandardAnalyzer(),
    formatting: new FormattingAnalyzer(),
    'code-pattern': new CodePatternAnalyzer(),
    architecture: new ArchitectureAnalyzer(),
    'best-practice': new BestPracticeAnalyzer(),
    'event-data-flow': new FlowAnalyzer(),
    'project-profile': new ProjectProfileAnalyzer(),
    'agent-guidelines': new AgentGuidelinesAnalyzer(),
    language: new LanguageAnalyzer(),
    code: new CodeDetectors(),
    repository: new RepositoryDetectors(),
  } satisfies Record<string, Analyzer>;
  const all: Analyzer[] = Object.values(analyzers);
  const targetDirs = structure.targets.flatMap((t) =>
    ownedDirs(t).map((dir) => ({ dir, name: t.name, ecosystem: t.ecosystem }))
  ).sort((a, b) => b.dir.length - a.dir.length);
  // The deepest target folder holding the file; of targets sharing that folder (a root package.json
  // beside a pyproject.toml), the one whose ecosystem builds the file's language.
  // The others that compile the same folder in the same ecosystem are where the file is too (an Xcode folder in two apps).
  const targetsOf = (p: string, language: string): { target?: string; alsoIn: string[] } => {
    const holds = (t: (typeof targetDirs)[number]) => t.dir === '' || p.startsWith(t.dir + '/');
    const first = targetDirs.findIndex(holds);
    if (first < 0) return { alsoIn: [] };
    // The deepest folder holding the file: the targets that own it (one folder, so the same length).
    const level = targetDirs.filter((t) => t.dir.length === targetDirs[first].dir.length && holds(t));
    const own = level.find((t) => lookup(BUILDS, t.ecosystem)?.test(language)) ?? level[0];
    return {
      target: own.name,
      alsoIn: [
        ...new Set(level.filter((t) => t.ecosystem === own.ecosystem && t.name !== own.name).map((t) => t.name)),
      ],
    };
  };

  const skipped = { tooLarge: 0, binary: 0, unreadable: 0, overBudget: 0 };
  const languages: Record<string, number> = {};
  const familyCounts: Partial<Record<Family, number>> = {};
  const containment: GraphEdge[] = [];
  let bytes = 0;
  let scanned = 0;
  const checkpoint = slicer();
  // Read synchronously, as guard's workers do: an awaited read is seven round trips through the event
  // loop (realpath, lstat, open, fstat, reads), which the analysis keeps busy, so they were a third of a scan.
  const realPaths = new RealPathCache();
  progress({ message: `Scanning ${total} source files`, done: 0, total }, true);
  for (let i = 0; i < total; i++) {
    if (i % PROGRESS_EVERY === 0) {
      cancelled(scanned, total);
      if (i > 0) progress({ message: `Scanning source files (${scanned} of ${total})`, done: i, total });
    }
    const { path: rel, language } = selection.files[i];
    const r = readSource(ws.root, rel, maxFileBytes, realPaths);
    await checkpoint();
    if (typeof r !== 'string') {
      skipped[r.skipped]++;
      continue;
    }
    if (bytes + r.length > maxTotalBytes) {
      skipped.overBudget++;
      continue;
    }
    bytes += r.length;
    const at = targetsOf(rel, language);
    const file = sourceFile(rel, language, r, at.target, at.alsoIn);
    run.visit?.(file);
    // A large file can take several slices: the event loop gets a turn between analysers too.
    for (const a of all) {
      a.visit(file);
      await checkpoint();
    }
    scanned++;
    if (file.target !== undefined) {
      containment.push({
        from: nodeKey('target', file.target),
        to: nodeKey('file', file.path),
        relation: 'contains',
        weight: 0.5,
      });
    }
    languages[file.language] = (languages[file.language] ?? 0) + 1;
    if (file.kind === 'production') familyCounts[file.family] = (familyCounts[file.family] ?? 0) + 1;
  }
  progress({ message: `Scanning source files (${scanned} of ${total})`, done: total, total });
  cancelled(scanned, total);

  progress({ message: 'Analysing the nine dimensions', done: total, total }, true);
  const primary = (Object.entries(familyCounts) as [Family, number][]).filter(([f]) => f !== 'other').sort((a, b) =>
    b[1] - a[1]
  )[0]?.[0];
  const ctx = analysisContext(ws.root, structure, withRootToolConfigs(ws.root, listing.files), familyCounts, primary);
  const drafts: CandidateDraft[] = [];
  for (const a of all) {
    cancelled(scanned, total);
    drafts.push(...(await a.finish(ctx)));
    await yieldToEventLoop();
  }
  cancelled(scanned, total);

  const wanted = options.dimensions?.length ? new Set(options.dimensions) : undefined;
  const seenTitles = new Set<string>();
  const weakDrafts: CandidateDraft[] = [];
  const proposals = drafts.filter((d) => {
    if (wanted && !wanted.has(d.dimension)) return false;
    const key = d.title.toLowerCase();
    if (seenTitles.has(key)) return false;
    seenTitles.add(key);
    if (d.reasoning.sources.length === 0 || d.reasoning.confidence < 0.5) {
      weakDrafts.push(d);
      return false;
    }
    return true;
  });
  for (const d of proposals) if (d.code) d.language = await codeLanguageOf(d, ctx.read);
  return {
    t0,
    ctx,
    proposals,
    weakDrafts,
    ...(wanted ? { wanted } : {}),
    familyCounts,
    primary,
    ...(primary ? { primaryLanguage: languageOf(primary, ctx) } : {}),
    targetEdges,
    // Files join the graph through their imports and the target that contains them.
    fileEdges: analyzers.architecture.fileEdges(),
    containment,
    scanned: {
      files: scanned,
      bytes,
      eligible: selection.eligible,
      capped: selection.capped || skipped.overBudget > 0,
      skipped,
      ignoredByGitignore: listing.ignored,
      languages,
    },
    total,
  };
}

/**
 * Records a scan: `drafts` (the scan's own proposals, or cards written from its evidence) as pending
 * candidates with the guard rules they state, the graph edges it found, and the summary per dimension.
 */
export async function recordScan(
  ws: Workspace,
  scan: ProjectScan,
  drafts: readonly CandidateDraft[],
  run: BootstrapRun,
): Promise<BootstrapResult> {
  const { t0, ctx, wanted, familyCounts, targetEdges, fileEdges, containment, total } = scan;
  const { structure } = ctx;
  const proposals = drafts;
  const weak = scan.weakDrafts.length;
  const progress = throttle(run.progress);
  progress({ message: 'Drafting the guard rules the cards state', done: total, total }, true);
  const cardRules = await draftCardRules(ws, proposals, run.signal);
  if (run.signal?.aborted) {
    throw new AutoSnippetError(
      ErrorCode.Cancelled,
      'Bootstrap was cancelled while drafting guard rules; no candidates were created.',
      'Run bootstrap_knowledge again when ready: it starts over and creates no duplicates.',
    );
  }
  await replaceEdges(ws, 'structure', targetEdges);
  progress({ message: `Recording ${proposals.length} candidates`, done: total, total }, true);
  const byDimension = new Map<string, { created: string[]; existing: string[] }>();
  const policies: NonNullable<BootstrapResult['policies']> = [];
  for (let i = 0; i < proposals.length; i += SUBMIT_BATCH) {
    const batch = proposals.slice(i, i + SUBMIT_BATCH);
    // The scan is the author; the audit log records who started it.
    const result = await submitCandidates(ws, batch.map((d) => toCandidateInput(d, cardRules.rules.get(d))), 'system');
    // `created` lists the new ids in input order, skipping the inputs reported as duplicates.
    const dupByInput = new Map(result.duplicates.map((d) => [d.input, d.existing]));
    let next = 0;
    batch.forEach((d, k) => {
      const entry = byDimension.get(d.dimension) ?? { created: [], existing: [] };
      const existing = dupByInput.get(k);
      const id = existing ?? (next < result.created.length ? result.created[next++] : undefined);
      if (existing) entry.existing.push(existing);
      else if (id) entry.created.push(id);
      byDimension.set(d.dimension, entry);
      const file = d.tags.includes('policy') ? d.reasoning.sources[0]?.replace(/:\d+$/, '') : undefined;
      if (file && id) policies.push({ file, candidate: id, rule: d.title.replace(/^[^:]*:\s*/, '') });
    });
  }

  await replaceEdges(ws, 'bootstrap', [...fileEdges, ...containment]);

  const families = (Object.keys(familyCounts) as Family[]).filter((f) => (familyCounts[f] ?? 0) > 0);
  const guides = dimensionGuides(ws, families);
  const dimensions: DimensionResult[] = guides
    .filter((g) => !wanted || wanted.has(g.id))
    .map((g) => ({
      id: g.id,
      created: byDimension.get(g.id)?.created ?? [],
      existing: byDimension.get(g.id)?.existing ?? [],
      guide: g.lookFor,
      guideFrom: g.from,
    }));
  for (const [id, r] of byDimension) {
    if (!dimensions.some((d) => d.id === id)) dimensions.push({ id, ...r, guide: '', guideFrom: 'built-in' });
  }

  const created = dimensions.reduce((n, d) => n + d.created.length, 0);
  const existing = dimensions.reduce((n, d) => n + d.existing.length, 0);
  progress({ message: `Done: ${created} new candidates, ${existing} already known`, done: total, total }, true);
  return {
    scanned: scan.scanned,
    targets: { count: structure.targets.length, ecosystems: structure.ecosystems as Record<string, number> },
    ...(structure.problems.length
      ? { problems: structure.problems.slice(0, 10).map((p) => ({ file: p.manifest, message: p.message })) }
      : {}),
    ...(scan.primaryLanguage ? { primaryLanguage: scan.primaryLanguage } : {}),
    candidates: { proposed: proposals.length, created, existing, weak },
    rules: { drafted: cardRules.drafted, refused: cardRules.refused, withFindings: cardRules.withFindings },
    ...(policies.length ? { policies } : {}),
    dimensions,
    graph: { fileImports: fileEdges.length, targetFiles: containment.length, targetDependencies: targetEdges.length },
    durationMs: Math.round(performance.now() - t0),
    next: readFirst(policies) + (created
      ? 'Call enrich_candidates with the created ids to see what each lacks, confirm each claim at its file:line sources, then add what a scan cannot see (call chains, layering rules, agent guidelines). A person reviews them in the Candidates view.'
      : existing
      ? 'Nothing new: every finding is already a candidate or a recipe. Improve the existing candidates instead of running the scan again.'
      : 'The scan found no evidence strong enough to propose. Check get_targets for the detected languages, and draft candidates by reading the code.'),
  };
}

/** The project's own rules for agents come before anything the scan inferred. */
function readFirst(policies: NonNullable<BootstrapResult['policies']>): string {
  if (!policies.length) return '';
  const files = [...new Set(policies.map((p) => p.file))];
  return `Read ${files.join(', ')} first: the project's own rules for agents and contributors (candidates ${
    policies.map((p) => p.candidate).join(', ')
  }; ${policies[0].file}: "${policies[0].rule}"). `;
}

/** The candidate as recorded: a title and summary within the reviewer's bounds, a short kebab-case trigger. */
export function toCandidateInput(d: CandidateDraft, rule?: CardRule): CandidateInput {
  const title = fit(d.title, MAX_TITLE);
  return {
    title,
    trigger: triggerFor(d.trigger ?? title),
    knowledgeType: d.knowledgeType,
    language: d.language,
    category: d.category,
    summary: fitSummary(d.summary, MAX_SUMMARY),
    ...(d.code ? { code: d.code } : {}),
    ...(d.details ? { rationale: d.details } : {}),
    reasoning: d.reasoning,
    tags: [...new Set(['bootstrap', d.dimension, ...d.tags])],
    scope: d.target ? 'target' : 'project',
    ...(d.target ? { target: d.target } : {}),
    origin: `bootstrap:${d.dimension}`,
    ...(d.ruleSeed ? { ruleSeed: d.ruleSeed } : {}),
    ...(rule ? { constraints: { guards: rule.guards }, guardReport: rule.report } : {}),
  };
}

/**
 * Tool configurations read by name at the root. One that exists is part of the project even when a
 * broad `.gitignore` pattern covers it (`.*` ignored, `.pre-commit-config.yaml` tracked):
 * git ignores only untracked files, and a checkout holds what was tracked.
 */
const ROOT_TOOL_CONFIGS = TOOL_CONFIGS.map((c) => c.file);

function withRootToolConfigs(root: string, listing: readonly string[]): readonly string[] {
  const have = new Set(listing);
  const extra = ROOT_TOOL_CONFIGS.filter((f) => !have.has(f) && isFile(path.join(root, f)));
  return extra.length ? [...listing, ...extra].sort() : listing;
}

function isFile(abs: string): boolean {
  try {
    return statSync(abs).isFile();
  } catch {
    return false;
  }
}

function analysisContext(
  root: string,
  structure: AnalysisContext['structure'],
  listing: readonly string[],
  familyCounts: AnalysisContext['familyCounts'],
  primary: Family | undefined,
): AnalysisContext {
  const cache = new Map<string, Promise<string | undefined>>();
  const realPaths = new RealPathCache();
  const listed = new Set(listing);
  const read = (rel: string) => {
    let p = cache.get(rel);
    if (!p) {
      // A turn of the event loop before each read: an analyser that reads many files must not hold it.
      p = yieldToEventLoop().then(() => {
        const r = readSource(root, rel, 1024 * 1024, realPaths);
        return typeof r === 'string' ? r : undefined;
      });
      cache.set(rel, p);
    }
    return p;
  };
  return {
    root,
    structure,
    listing,
    has: (rel) => listed.has(rel),
    familyCounts,
    primary,
    read,
    excerpt: async (rel, line, maxLines = 14) => {
      const text = await read(rel);
      return text === undefined ? '' : excerptFrom(text, line, maxLines, rel.endsWith('.py'));
    },
  };
}

function readSource(
  root: string,
  rel: string,
  maxBytes: number,
  realPaths?: RealPathCache,
): string | { skipped: 'tooLarge' | 'binary' | 'unreadable' } {
  try {
    const text = readRepoFileSync(root, rel, { kind: 'source', maxBytes, realPaths }).text;
    if (looksBinary(text)) return { skipped: 'binary' };
    return text.replace(/\r\n/g, '\n');
  } catch (e) {
    return { skipped: isAutoSnippetError(e) && e.code === ErrorCode.FileTooLarge ? 'tooLarge' : 'unreadable' };
  }
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Progress at most every 100 ms, except phase changes (`force`). */
function throttle(
  report: BootstrapRun['progress'],
): (p: { message: string; done?: number; total?: number }, force?: boolean) => void {
  let last = 0;
  return (p, force = false) => {
    if (!report) return;
    const now = performance.now();
    if (!force && now - last < 100) return;
    last = now;
    report(p);
  };
}

/** The languages each ecosystem's targets compile (language ids of the scan: `python`, `typescriptreact`…). */
const BUILDS: Readonly<Record<string, RegExp>> = {
  npm: /^(java|type)script/,
  pnpm: /^(java|type)script/,
  yarn: /^(java|type)script/,
  typescript: /^(java|type)script/,
  python: /^python$/,
  cargo: /^rust$/,
  go: /^go$/,
  swift: /^(swift|objective-c)/,
  xcode: /^(swift|objective-c)/,
  gradle: /^(kotlin|java)$/,
  maven: /^(kotlin|java)$/,
};
