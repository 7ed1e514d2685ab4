// The cold start judged on real repositories nobody here wrote: for each one, runs bootstrap on a
// copy, prints the approval rates from a blind reviewer's labels, checks the project map against
// targets and module edges read from the manifests by hand (bench/data/coldstart-structure), and
// writes a review packet of the candidates that have no label yet.
//
//   npx tsx bench/coldstart-eval.ts [--repos DIR] [--only NAME,…] [--packet FILE [--all]] [--dump DIR]
//
// `--all` puts every candidate in the packet, labelled or not, for a fresh round of judgement; a
// later round's label of the same candidate (repository, title, summary) wins over an earlier one.
//
// `npm run bench -- coldstart` runs the same evaluation (without writing the packet) when the
// repositories are present. Repositories: AUTOSNIPPET_EVAL_REPOS or /work/repos, one folder each,
// named `owner+name`.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { bootstrapKnowledge } from '../src/core/domains/bootstrap';
import { type Candidate, listCandidates } from '../src/core/domains/knowledge';
import { projectStructure, type Target } from '../src/core/domains/structure';
import { Workspace } from '../src/core/ground/workspace';
import { coverageTables } from './coldstart-essentials';
import { type BenchTable, printTable } from './lib';

const DATA = path.join(__dirname, 'data');
const STRUCTURE_DIR = path.join(DATA, 'coldstart-structure');
const LABELS_DIR = path.join(DATA, 'coldstart-eval');
const SKILLS = path.join(__dirname, '..', 'skills');

/** Seven libraries since issue 15 was filed, and six applications added in session 21 (commits in bench/data/guard-eval/repositories.json). */
export const EVAL_REPOS = [
  'Alamofire+Alamofire',
  'trpc+trpc',
  'encode+httpx',
  'spf13+cobra',
  'BurntSushi+ripgrep',
  'square+okhttp',
  'SDWebImage+SDWebImage',
  'excalidraw+excalidraw',
  'Ranchero-Software+NetNewsWire',
  'saleor+saleor',
  'photoprism+photoprism',
  'alacritty+alacritty',
  'android+nowinandroid',
  'coil-kt+coil',
  'colinhacks+zod',
  'google+gson',
  'sharkdp+fd',
  'pallets+flask',
  'gin-gonic+gin',
  'onevcat+Kingfisher',
  'AFNetworking+AFNetworking',
];

/**
 * Repositories the cold start was never tuned on, chosen before scanning them: they are judged once and
 * reported apart (`held out` row), so the approval rate shows how the scan does on code it has not seen.
 */
const HELD_OUT_FILE = path.join(LABELS_DIR, 'held-out.json');
export const HELD_OUT = repositorySet(HELD_OUT_FILE);

/**
 * The test set: repositories chosen before the product ran on them and never tuned on; their figures
 * are reported apart (`test` row), from before any change made from their labels.
 */
export const TEST_SET = repositorySet(path.join(LABELS_DIR, 'test-set.json'));

/**
 * The second test set, pinned before the product ran on it: the first set's labels had been read by
 * the time the detectors next changed, so figures after that change come from this set.
 */
export const TEST_SET_2 = repositorySet(path.join(LABELS_DIR, 'test-set-2.json'));

const inTestSet = (repo: string) => repo in TEST_SET || repo in TEST_SET_2;

/** `owner+name` → commit, from a file of the form `{ repositories: { "owner/name": commit } }`. */
function repositorySet(file: string): Record<string, string> {
  if (!existsSync(file)) return {};
  const { repositories } = JSON.parse(readFileSync(file, 'utf8')) as { repositories: Record<string, string> };
  return Object.fromEntries(Object.entries(repositories).map(([r, c]) => [r.replace('/', '+'), c]));
}

/** What the reviewer said about one candidate. */
export type Verdict = 'approve' | 'edit' | 'reject';

export interface Label {
  repo: string;
  title: string;
  /** The summary that was judged: a label applies to the same claim, not to a new one under the same title. */
  summary?: string;
  verdict: Verdict;
  /** The claim is false in this code base. */
  contradicted?: boolean;
  /** Language or tool knowledge, not knowledge about this project. */
  generic?: boolean;
  note?: string;
}

interface ExpectedStructure {
  repo: string;
  commit: string;
  targets: { name: string; dir: string; kind: string; language?: string }[];
  edges: { from: string; to: string; scope: string }[];
}

export interface RepoRun {
  repo: string;
  ms: number;
  secondRunCreated: number;
  candidates: Candidate[];
  targets: Target[];
}

/** Runs the cold start twice on a throw-away copy of the repository. */
export async function runRepo(reposDir: string, repo: string): Promise<RepoRun> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'as-eval-'));
  try {
    cpSync(path.join(reposDir, repo), dir, { recursive: true });
    const ws = await Workspace.open(dir, { bundledSkillsDir: SKILLS });
    try {
      const t0 = performance.now();
      await bootstrapKnowledge(ws, {}, { actor: 'human' });
      const ms = performance.now() - t0;
      const again = await bootstrapKnowledge(ws, {}, { actor: 'human' });
      const candidates = listCandidates(ws, { status: 'any' }).sort((
        a,
        b,
      ) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0));
      const targets = (await projectStructure(ws)).targets;
      return { repo, ms, secondRunCreated: again.candidates.created, candidates, targets };
    } finally {
      await ws.dispose();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Labels from every JSON file under bench/data/coldstart-eval (arrays of labels, or `{ labels: [...] }`). */
export function loadLabels(dir = LABELS_DIR): Label[] {
  if (!existsSync(dir)) return [];
  const out: Label[] = [];
  // Oldest first, so that a later round's judgement of the same candidate wins (labels-before, then labels-after-1, -2, …).
  const files = readdirSync(dir).filter((x) => x.endsWith('.json') && !x.startsWith('review-packet'));
  const round = (f: string) => (/before/.test(f) ? -1 : Number(/(\d+)\.json$/.exec(f)?.[1] ?? 0));
  for (const f of files.sort((a, b) => round(a) - round(b) || (a < b ? -1 : 1))) {
    const data = JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as unknown;
    const list = Array.isArray(data)
      ? data
      : Array.isArray((data as { labels?: unknown }).labels)
      ? (data as { labels: unknown[] }).labels
      : [];
    for (const raw of list as Record<string, unknown>[]) {
      const verdict = verdictOf(raw.verdict ?? raw.label ?? raw.decision);
      if (typeof raw.title !== 'string' || typeof raw.repo !== 'string' || !verdict) continue;
      // `owner/name` or `owner+name`; a rejection's reason says whether the claim was false or generic.
      const repo = raw.repo.replace('/', '+');
      const contradicted = raw.contradicted === true || raw.reason === 'false';
      const generic = raw.generic === true || raw.reason === 'generic';
      out.push({
        repo,
        title: raw.title,
        ...(typeof raw.summary === 'string' ? { summary: raw.summary } : {}),
        verdict,
        contradicted,
        generic,
        ...(typeof raw.note === 'string' ? { note: raw.note } : {}),
      });
    }
  }
  return out;
}

function verdictOf(v: unknown): Verdict | undefined {
  if (typeof v !== 'string') return undefined;
  const s = v.toLowerCase();
  if (/edit/.test(s)) return 'edit';
  if (/^(approve|approved|as[- ]?is|yes|accept)/.test(s)) return 'approve';
  if (/^(reject|rejected|no)/.test(s)) return 'reject';
  return undefined;
}

const norm = (s: string | undefined) => (s ?? '').trim().toLowerCase().replace(/\s+/g, ' ');
/** A label matches a candidate of the same repository with the same title and, when the label has one, the same summary. */
const key = (repo: string, title: string, summary?: string) => `${repo}\u0000${norm(title)}\u0000${norm(summary)}`;
const labelKey = (l: Label) => key(l.repo, l.title, l.summary);
function labelOf(labels: Map<string, Label>, repo: string, c: { title: string; summary: string }): Label | undefined {
  return labels.get(key(repo, c.title, c.summary)) ?? labels.get(key(repo, c.title));
}

export interface ApprovalRow {
  repo: string;
  candidates: number;
  labelled: number;
  approve: number;
  edit: number;
  reject: number;
  contradicted: number;
  generic: number;
  longTitles: number;
  longSummaries: number;
  secondRun: number;
  ms: number;
}

export function approval(run: RepoRun, labels: Map<string, Label>): ApprovalRow {
  const row: ApprovalRow = {
    repo: run.repo,
    candidates: run.candidates.length,
    labelled: 0,
    approve: 0,
    edit: 0,
    reject: 0,
    contradicted: 0,
    generic: 0,
    longTitles: 0,
    longSummaries: 0,
    secondRun: run.secondRunCreated,
    ms: run.ms,
  };
  for (const c of run.candidates) {
    if (c.title.length > 100) row.longTitles++;
    if (c.summary.length > 300) row.longSummaries++;
    const l = labelOf(labels, run.repo, c);
    if (!l) continue;
    row.labelled++;
    row[l.verdict]++;
    if (l.contradicted) row.contradicted++;
    if (l.generic) row.generic++;
  }
  return row;
}

export interface StructureRow {
  repo: string;
  targetsExpected: number;
  targetsFound: number;
  targetsRight: number;
  targetsExtra: number;
  edgesExpected: number;
  edgesRight: number;
  edgesWrong: number;
  problems: string[];
  /** The same counts per ecosystem: a target by the ecosystem of what was found for it (a missing one by the repository's most common), an edge by its source's. */
  byEcosystem: Record<string, { targets: number; targetsRight: number; edges: number; edgesRight: number }>;
}

/** Targets match by folder; a target is right when its name, kind and (when given) language match too. */
export function structureAccuracy(expected: ExpectedStructure, found: Target[]): StructureRow {
  const problems: string[] = [];
  // Several targets may share a folder (an Xcode project's targets, npm and Python manifests side by side): the same name first.
  // A target is in its folder, or in one of the folders it owns besides (an Xcode target's sources beside its project).
  const byDir = new Map<string, Target[]>();
  for (const t of found) {
    for (const d of new Set([t.dir, ...(t.extraDirs ?? [])])) byDir.set(d, [...(byDir.get(d) ?? []), t]);
  }
  const used = new Set<Target>();
  const nameOf = new Map<string, string>();
  let right = 0;
  let matched = 0;
  for (const e of expected.targets) {
    const here = (byDir.get(e.dir) ?? []).filter((x) => !used.has(x));
    const t = here.find((x) => x.name === e.name)
      ?? here.find((x) => !expected.targets.some((o) => o.dir === e.dir && o.name === x.name));
    if (t) used.add(t);
    if (!t) {
      problems.push(`missing target ${e.name} (${e.dir || '.'})`);
      continue;
    }
    matched++;
    nameOf.set(t.name, e.name);
    const wrong = [
      t.name !== e.name ? `name ${t.name}` : '',
      t.kind !== e.kind ? `kind ${t.kind} (expected ${e.kind})` : '',
      e.language && t.language !== e.language ? `language ${t.language} (expected ${e.language})` : '',
    ].filter(Boolean);
    if (wrong.length) problems.push(`${e.name}: ${wrong.join(', ')}`);
    else right++;
  }
  const expectedDirs = new Set(expected.targets.map((t) => t.dir));
  const extra = found.filter((t) => !used.has(t) && ![t.dir, ...(t.extraDirs ?? [])].some((d) => expectedDirs.has(d)));
  for (const t of extra) problems.push(`extra target ${t.name} (${t.dir || '.'})`);
  const want = new Set(expected.edges.map((e) => `${e.from} → ${e.to} (${e.scope})`));
  const got = new Set<string>();
  for (const t of found) {
    for (const d of t.dependencies) {
      if (!d.target || d.target === t.name) continue;
      got.add(`${nameOf.get(t.name) ?? t.name} → ${nameOf.get(d.target) ?? d.target} (${d.scope})`);
    }
  }
  const edgesRight = [...want].filter((e) => got.has(e)).length;
  const wrongEdges = [...got].filter((e) => !want.has(e));
  for (const e of [...want].filter((x) => !got.has(x))) problems.push(`missing edge ${e}`);
  for (const e of wrongEdges) problems.push(`wrong edge ${e}`);
  // Per ecosystem: what each expected target was found as, else the repository's most common ecosystem.
  const counts = new Map<string, number>();
  for (const t of found) counts.set(t.ecosystem, (counts.get(t.ecosystem) ?? 0) + 1);
  const usual = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'none';
  const ecosystemOf = new Map<string, string>();
  for (const [foundName, expectedName] of nameOf) {
    ecosystemOf.set(expectedName, found.find((t) => t.name === foundName)?.ecosystem ?? usual);
  }
  const byEcosystem: StructureRow['byEcosystem'] = {};
  const slot = (eco: string) => (byEcosystem[eco] ??= { targets: 0, targetsRight: 0, edges: 0, edgesRight: 0 });
  for (const e of expected.targets) {
    const x = slot(ecosystemOf.get(e.name) ?? usual);
    x.targets++;
    if (
      !problems.some((p) => p.startsWith(`${e.name}: `) || p.startsWith(`missing target ${e.name} (`))
      && ecosystemOf.has(e.name)
    ) x.targetsRight++;
  }
  for (const e of expected.edges) {
    const x = slot(ecosystemOf.get(e.from) ?? usual);
    x.edges++;
    if (got.has(`${e.from} → ${e.to} (${e.scope})`)) x.edgesRight++;
  }
  return {
    repo: expected.repo,
    targetsExpected: expected.targets.length,
    targetsFound: matched,
    targetsRight: right,
    targetsExtra: extra.length,
    edgesExpected: want.size,
    edgesRight,
    edgesWrong: wrongEdges.length,
    problems,
    byEcosystem,
  };
}

export function loadExpected(repo: string): ExpectedStructure | undefined {
  const f = path.join(STRUCTURE_DIR, `${repo}.json`);
  return existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as ExpectedStructure) : undefined;
}

const RUBRIC = [
  'You are a senior engineer on this project. For each candidate, open every cited file:line in the repository at the given commit and judge the claim as knowledge an AI coding agent should be given about this project.',
  'label: "approve" (true, specific to this project, useful, sources show it; would merge as is), "approve-after-edit" (right idea, needs a small edit to title, summary, code or sources), "reject" (false, generic, trivial, not from production code, wrong sources, unreadable, or a duplicate).',
  'Reply with one object per candidate, in the form of labels-before.json: { "repo", "title", "label": "approve" | "approve-after-edit" | "reject", "reason" (for a rejection: false, generic, trivial, not-production, wrong-sources, unreadable, duplicate), "note" }.',
];

/** A packet for a reviewer who has not seen our code: the claim, and the cited lines with context. */
export function reviewPacket(reposDir: string, runs: RepoRun[], labels: Map<string, Label>, all = false): unknown {
  const items = [];
  for (const run of runs) {
    const commit = loadExpected(run.repo)?.commit ?? HELD_OUT[run.repo] ?? TEST_SET[run.repo] ?? TEST_SET_2[run.repo];
    for (const c of run.candidates) {
      if (!all && labelOf(labels, run.repo, c)) continue;
      items.push({
        repo: run.repo,
        commit,
        title: c.title,
        knowledgeType: c.knowledgeType,
        language: c.language,
        summary: c.summary,
        ...(c.code ? { code: c.code } : {}),
        ...(c.rationale ? { details: c.rationale } : {}),
        whyStandard: c.reasoning.whyStandard,
        confidence: c.reasoning.confidence,
        sources: c.reasoning.sources.map((s) => ({ ref: s, lines: citedLines(path.join(reposDir, run.repo), s) })),
      });
    }
  }
  return { rubric: RUBRIC, candidates: items };
}

/** The cited line with two lines of context either side, each prefixed by its number. */
function citedLines(repoDir: string, ref: string): string[] {
  const m = /^(.*):(\d+)$/.exec(ref);
  if (!m) return [];
  const file = path.join(repoDir, m[1]);
  if (!file.startsWith(repoDir + path.sep) || !existsSync(file)) return ['(file not found)'];
  const lines = readFileSync(file, 'utf8').split('\n');
  const at = Number(m[2]);
  const out: string[] = [];
  for (let i = Math.max(1, at - 2); i <= Math.min(lines.length, at + 2); i++) {
    out.push(`${i === at ? '>' : ' '}${String(i).padStart(5)}  ${lines[i - 1].slice(0, 200)}`);
  }
  return out;
}

const pct = (n: number, d: number) => (d ? `${Math.round((n / d) * 100)} %` : '-');

export function tables(runs: RepoRun[], labels: Label[]): BenchTable[] {
  const byKey = new Map(labels.map((l) => [labelKey(l), l]));
  const rows = runs.map((r) => approval(r, byKey));
  const totalOf = (repo: string, of: ApprovalRow[]) =>
    of.reduce(
      (t, r) => {
        for (const k of Object.keys(t) as (keyof ApprovalRow)[]) {
          if (typeof r[k] === 'number') (t[k] as number) += r[k] as number;
        }
        return t;
      },
      {
        repo,
        candidates: 0,
        labelled: 0,
        approve: 0,
        edit: 0,
        reject: 0,
        contradicted: 0,
        generic: 0,
        longTitles: 0,
        longSummaries: 0,
        secondRun: 0,
        ms: 0,
      } as ApprovalRow,
    );
  const heldOut = rows.filter((r) => r.repo in HELD_OUT);
  const test = rows.filter((r) => r.repo in TEST_SET);
  const test2 = rows.filter((r) => r.repo in TEST_SET_2);
  const tuned = rows.filter((r) => !(r.repo in HELD_OUT) && !inTestSet(r.repo));
  const totals = heldOut.length || test.length || test2.length
    ? [
      totalOf('all', rows),
      totalOf(`tuned on (${tuned.length})`, tuned),
      ...(heldOut.length ? [totalOf(`held out (${heldOut.length}, validation)`, heldOut)] : []),
      ...(test.length ? [totalOf(`test (${test.length}, never tuned on)`, test)] : []),
      ...(test2.length ? [totalOf(`test 2 (${test2.length}, never tuned on)`, test2)] : []),
    ]
    : [totalOf('all', rows)];
  const structure = runs.map((r) => {
    const e = loadExpected(r.repo);
    return e ? structureAccuracy(e, r.targets) : undefined;
  }).filter((x): x is StructureRow => !!x);
  const sum = (k: keyof StructureRow) => structure.reduce((n, s) => n + (s[k] as number), 0);
  return [
    {
      title: 'Cold start on real repositories: approval by a blind reviewer',
      columns: [
        'repository',
        'candidates',
        'labelled',
        'approve as is',
        'approve after edit',
        'rejected',
        'contradicted',
        'generic',
        'titles > 100',
        'summaries > 300',
        '2nd run adds',
        'time',
      ],
      rows: [...rows, ...totals].map((
        r,
      ) => [
        r.repo,
        r.candidates,
        r.labelled,
        pct(r.approve, r.labelled),
        pct(r.approve + r.edit, r.labelled),
        pct(r.reject, r.labelled),
        r.contradicted,
        r.generic,
        r.longTitles,
        r.longSummaries,
        r.secondRun,
        `${Math.round(r.ms)} ms`,
      ]),
      notes: [
        `Labels: ${labels.length} in bench/data/coldstart-eval (matched by repository, title and summary: a new claim under an old title is not judged by the old label). Rates are over the labelled candidates of this run; unlabelled ones go to the review packet (npx tsx bench/coldstart-eval.ts --packet FILE).`,
      ],
    },
    {
      title: 'Project map on real repositories: targets and module edges vs the manifests',
      columns: ['repository', 'targets expected', 'found', 'right', 'extra', 'edges expected', 'right', 'wrong'],
      rows: [
        ...structure.map((
          s,
        ) => [
          s.repo,
          s.targetsExpected,
          s.targetsFound,
          `${s.targetsRight} (${pct(s.targetsRight, s.targetsExpected)})`,
          s.targetsExtra,
          s.edgesExpected,
          `${s.edgesRight} (${pct(s.edgesRight, s.edgesExpected)})`,
          s.edgesWrong,
        ]),
        [
          'all',
          sum('targetsExpected'),
          sum('targetsFound'),
          `${sum('targetsRight')} (${pct(sum('targetsRight'), sum('targetsExpected'))})`,
          sum('targetsExtra'),
          sum('edgesExpected'),
          `${sum('edgesRight')} (${pct(sum('edgesRight'), sum('edgesExpected'))})`,
          sum('edgesWrong'),
        ],
      ],
      notes: [
        'Expected lists: bench/data/coldstart-structure/<repo>.json, read from the manifests by hand. A target is right when found in its folder with the expected name, kind and language; an edge is right when the same (from, to, scope) is found.',
      ],
    },
    {
      title: 'Project map by ecosystem (the goal: 95 % of targets and of edges right in each)',
      columns: ['ecosystem', 'repositories', 'targets', 'right', 'edges', 'right'],
      rows: ecosystemRows(structure),
      notes: [
        "A target counts under the ecosystem of what was found for it (a missing one under its repository's most common ecosystem); an edge under its source target's.",
      ],
    },
  ];
}

function ecosystemRows(structure: readonly StructureRow[]): (string | number)[][] {
  const all = new Map<
    string,
    { repos: Set<string>; targets: number; targetsRight: number; edges: number; edgesRight: number }
  >();
  for (const s of structure) {
    for (const [eco, x] of Object.entries(s.byEcosystem)) {
      const a = all.get(eco) ?? { repos: new Set<string>(), targets: 0, targetsRight: 0, edges: 0, edgesRight: 0 };
      a.repos.add(s.repo);
      a.targets += x.targets;
      a.targetsRight += x.targetsRight;
      a.edges += x.edges;
      a.edgesRight += x.edgesRight;
      all.set(eco, a);
    }
  }
  return [...all].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map((
    [eco, a],
  ) => [
    eco,
    a.repos.size,
    a.targets,
    `${a.targetsRight} (${pct(a.targetsRight, a.targets)})`,
    a.edges,
    `${a.edgesRight} (${pct(a.edgesRight, a.edges)})`,
  ]);
}

export function reposDir(): string {
  return process.env.AUTOSNIPPET_EVAL_REPOS ?? '/work/repos';
}

/** For `npm run bench`: the evaluation tables when the repositories are on this machine. */
export async function evaluate(only?: string[]): Promise<{ runs: RepoRun[]; tables: BenchTable[] }> {
  const dir = reposDir();
  const repos = [...EVAL_REPOS, ...Object.keys(HELD_OUT), ...Object.keys(TEST_SET), ...Object.keys(TEST_SET_2)].filter((
    r,
  ) => existsSync(path.join(dir, r)) && (!only?.length || only.some((o) => r.toLowerCase().includes(o.toLowerCase()))));
  const runs: RepoRun[] = [];
  for (const r of repos) runs.push(await runRepo(dir, r));
  return { runs, tables: [...tables(runs, loadLabels()), ...coverageTables()] };
}

async function main() {
  const args = process.argv.slice(2);
  const opt = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  if (opt('--repos')) process.env.AUTOSNIPPET_EVAL_REPOS = opt('--repos');
  const { runs, tables: ts } = await evaluate(opt('--only')?.split(','));
  for (const t of ts) printTable(t);
  const labels = new Map(loadLabels().map((l) => [labelKey(l), l]));
  for (const r of runs) {
    const e = loadExpected(r.repo);
    const s = e ? structureAccuracy(e, r.targets) : undefined;
    if (s?.problems.length) {
      console.log(
        `\n${r.repo} map: ${s.problems.slice(0, process.env.ALL_PROBLEMS ? undefined : 12).join('; ')}${
          !process.env.ALL_PROBLEMS && s.problems.length > 12 ? `; … ${s.problems.length - 12} more` : ''
        }`,
      );
    }
  }
  const packet = opt('--packet');
  if (packet) {
    mkdirSync(path.dirname(packet), { recursive: true });
    const all = args.includes('--all');
    const p = reviewPacket(reposDir(), runs, labels, all) as { candidates: unknown[] };
    writeFileSync(packet, JSON.stringify(p, null, 2) + '\n');
    console.log(`\nReview packet: ${p.candidates.length} ${all ? '' : 'unlabelled '}candidates → ${packet}`);
  }
  const dump = opt('--dump');
  if (dump) {
    mkdirSync(dump, { recursive: true });
    for (const r of runs) {
      writeFileSync(
        path.join(dump, `${r.repo}.json`),
        JSON.stringify({ candidates: r.candidates, targets: r.targets }, null, 1),
      );
    }
  }
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
