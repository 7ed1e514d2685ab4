// Guard on real code (issue 13's evaluation): runs the guard with default settings over public
// repositories, and prints per repository and per rule the findings, the kind of code they sit in
// (files/classify.ts), and the precision labelled by a reviewer who has not seen the rules' code;
// then recall on a labelled set of real-code excerpts with known problems (test/fixtures/guard-real).
// It also writes a review packet of the findings that have no label yet, with code context, so a
// reviewer can label them. Packets and saved findings quote the repositories' code: they are written
// outside this repository (only the labels are kept here, in bench/data/guard-eval).
//
//   npx tsx bench/guard-eval.ts                    # /work/repos, this tree's engine
//   npx tsx bench/guard-eval.ts --repos DIR --packet /work/team/eval/guard/review-packet.json
//   npx tsx bench/guard-eval.ts --all-rules        # also the rules that are off by default
//   npx tsx bench/guard-eval.ts --engine OTHER/src/core/domains/guard/engine.ts --save /tmp/findings.json
//   npx tsx bench/guard-eval.ts --findings /tmp/findings.json
//
// `--engine` runs another source tree's engine (the `before` figures come from main before issue 13);
// `--findings` evaluates saved findings instead of scanning.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { headerLanguage } from '../src/core/domains/guard/header-language';
import { builtinRules } from '../src/core/domains/guard/packs';
import { RuleRunner } from '../src/core/domains/guard/runner';
import { classifyFile, type FileKind, testRegions } from '../src/core/ground/files/classify';
import { languageForPath } from '../src/core/ground/kernel/languages';
import { mergeSettings } from '../src/core/ground/settings';
import { type BenchTable, printTable } from './lib';

const DATA = path.join(__dirname, 'data/guard-eval');
const FIXTURES = path.join(__dirname, '../test/fixtures/guard-real');

/** The repositories of the evaluation, as `owner/name` with the commit they were judged at. */
const REPOSITORIES: Record<string, string> =
  JSON.parse(readFileSync(path.join(DATA, 'repositories.json'), 'utf8')).repositories;

export interface Finding {
  repo: string;
  path: string;
  line: number;
  column: number;
  rule: string;
  severity: string;
  matched: string;
}

export type Label = 'real-problem' | 'test-or-example' | 'intended' | 'suppressed' | 'vendored' | 'wrong-match';

interface LabelRecord {
  id: string;
  repo: string;
  path: string;
  line: number;
  rule: string;
  label: Label;
  note?: string;
}

const labelKey = (x: { repo: string; path: string; line: number; rule: string }) =>
  `${x.repo}|${x.path}|${x.line}|${x.rule}`;

function readLabels(): Map<string, LabelRecord> {
  const out = new Map<string, LabelRecord>();
  for (const f of readdirSync(DATA).filter((n) => /^labels-.*\.json$/.test(n)).sort()) {
    for (const l of (JSON.parse(readFileSync(path.join(DATA, f), 'utf8')) as { labels: LabelRecord[] }).labels) {
      out.set(labelKey(l), l);
    }
  }
  return out;
}

const quietLog = { debug() {}, info() {}, warn() {}, error() {} };

/** Every rule that is off by default, turned on (for `--all-rules` and for recall). */
function everyRuleOn(): Record<string, string> {
  return Object.fromEntries(builtinRules().filter((r) => r.disabledByDefault).map((r) => [r.id, r.severity]));
}

async function scanRepositories(
  reposDir: string,
  enginePath: string | undefined,
  allRules: boolean,
): Promise<{ findings: Finding[]; notChecked: Record<string, Record<string, number>>; files: Record<string, number> }> {
  const { GuardEngine } = (await import(
    enginePath ?? '../src/core/domains/guard/engine'
  )) as typeof import('../src/core/domains/guard/engine');
  const findings: Finding[] = [];
  const notChecked: Record<string, Record<string, number>> = {};
  const files: Record<string, number> = {};
  for (const repo of Object.keys(REPOSITORIES)) {
    const root = path.join(reposDir, repo.replace('/', '+'));
    if (!existsSync(root)) {
      console.error(`guard-eval: ${root} is missing; fetch ${repo} at ${REPOSITORIES[repo]} there`);
      continue;
    }
    const settings = mergeSettings({ trusted: true, guard: { severityOverrides: allRules ? everyRuleOn() : {} } });
    const engine = new GuardEngine({ root, settings, log: quietLog });
    try {
      const scan = await engine.scan({});
      files[repo] = scan.files;
      notChecked[repo] = (scan as { notChecked?: Record<string, number> }).notChecked ?? {};
      for (const v of scan.violations) {
        findings.push({
          repo,
          path: v.path!,
          line: v.start.line,
          column: v.start.column,
          rule: v.ruleId,
          severity: v.severity,
          matched: v.matchedText.slice(0, 120),
        });
      }
    } finally {
      await engine.dispose();
    }
  }
  return { findings, notChecked, files };
}

/** The kind of code a finding sits in: its file's kind, or `test` inside an in-file test region. */
function kindOf(
  reposDir: string,
  f: Finding,
  cache: Map<string, { kind: FileKind; regions: { start: number; end: number }[] }>,
): FileKind {
  const abs = path.join(reposDir, f.repo.replace('/', '+'), f.path);
  let c = cache.get(abs);
  if (!c) {
    let text = '';
    try {
      text = readFileSync(abs, 'utf8');
    } catch {
      /* the file is gone: classify by path */
    }
    c = {
      kind: classifyFile(f.path, text.slice(0, 4096)).kind,
      regions: testRegions(text, languageForPath(f.path) ?? ''),
    };
    cache.set(abs, c);
  }
  return c.kind === 'production' && c.regions.some((r) => f.line >= r.start && f.line <= r.end) ? 'test' : c.kind;
}

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(0)}%` : '-');

function report(
  reposDir: string,
  findings: Finding[],
  labels: Map<string, LabelRecord>,
  notChecked: Record<string, Record<string, number>>,
): { tables: BenchTable[]; summary: Record<string, unknown> } {
  const cache = new Map<string, { kind: FileKind; regions: { start: number; end: number }[] }>();
  // Two matches on one line share a label: a label counts once, on the first of them.
  const seen = new Set<string>();
  const rows = findings.map((f) => {
    const key = labelKey(f);
    const label = seen.has(key) ? undefined : labels.get(key)?.label;
    if (label) seen.add(key);
    return { ...f, kind: kindOf(reposDir, f, cache), label };
  });
  const perRepo: BenchTable = {
    title: 'Guard on real repositories: findings per repository (default settings)',
    columns: [
      'repository',
      'findings',
      'errors',
      'in production',
      'errors outside production',
      'not checked (kind: files)',
      'labelled',
      'real problems',
      'precision',
    ],
    rows: [],
  };
  const perRule: BenchTable = {
    title: 'Guard on real repositories: findings per rule and where they sit',
    columns: ['repository', 'rule', 'findings', 'where (kind: n)', 'labelled', 'labels', 'precision'],
    rows: [],
  };
  for (const repo of Object.keys(REPOSITORIES)) {
    const mine = rows.filter((r) => r.repo === repo);
    const labelled = mine.filter((r) => r.label);
    const real = labelled.filter((r) => r.label === 'real-problem').length;
    const skipped = Object.entries(notChecked[repo] ?? {}).map(([k, n]) => `${k}: ${n}`).join(', ') || '-';
    perRepo.rows.push([
      repo,
      mine.length,
      mine.filter((r) => r.severity === 'error').length,
      pct(mine.filter((r) => r.kind === 'production').length, mine.length),
      mine.filter((r) => r.severity === 'error' && r.kind !== 'production').length,
      skipped,
      labelled.length,
      real,
      pct(real, labelled.length),
    ]);
    for (const rule of [...new Set(mine.map((r) => r.rule))].sort()) {
      const of = mine.filter((r) => r.rule === rule);
      const where = countBy(of.map((r) => r.kind));
      const ls = of.filter((r) => r.label);
      perRule.rows.push([
        repo,
        rule,
        of.length,
        Object.entries(where).map(([k, n]) => `${k}: ${n}`).join(', '),
        ls.length,
        Object.entries(countBy(ls.map((r) => r.label!))).map(([k, n]) => `${k}: ${n}`).join(', ') || '-',
        pct(ls.filter((r) => r.label === 'real-problem').length, ls.length),
      ]);
    }
  }
  const labelled = rows.filter((r) => r.label);
  const real = labelled.filter((r) => r.label === 'real-problem').length;
  // The same lines, judged by two blind reviewers: not a real problem in the findings' sample, a known
  // problem in the recall set. No rule change can satisfy both labels.
  const known = knownProblemLines();
  const contested = labelled.filter((r) =>
    r.label !== 'real-problem' && known.has(`${r.repo}|${r.path}|${r.line}|${r.rule}`)
  );
  // A third blind reviewer settles a contested line (bench/data/guard-eval/adjudication-*.json): the majority of the three labels.
  const tieBreaks = adjudications();
  const settled = contested.map((r) => tieBreaks.get(`${r.repo}|${r.path}|${r.line}|${r.rule}`)).filter((
    l,
  ): l is string => !!l);
  const summary = {
    contested: contested.length,
    contestedSettledNotReal: settled.filter((l) => l !== 'real-problem').length,
    findings: rows.length,
    errors: rows.filter((r) => r.severity === 'error').length,
    errorsOutsideProduction: rows.filter((r) => r.severity === 'error' && r.kind !== 'production').length,
    inProduction: rows.filter((r) => r.kind === 'production').length,
    labelled: labelled.length,
    realProblems: real,
    unlabelled: rows.length - labelled.length,
  };
  perRepo.rows.push([
    'all',
    summary.findings,
    summary.errors,
    pct(summary.inProduction, summary.findings),
    summary.errorsOutsideProduction,
    '',
    summary.labelled,
    real,
    pct(real, summary.labelled),
  ]);
  perRepo.notes = [
    `Contested: ${contested.length} of the ${
      labelled.length - real
    } findings labelled other than a real problem sit on lines the recall set (test/fixtures/guard-real) labels a known problem of that rule, by another blind reviewer: ${
      contested.map((r) => `${r.repo.split('/')[1]} ${r.path}:${r.line} ${r.rule}`).join('; ') || 'none'
    }.${
      settled.length
        ? ` A third blind reviewer, shown neither label, judged ${settled.length} of them: ${
          Object.entries(countBy(settled)).map(([k, n]) => `${k} ${n}`).join(', ')
        }; so by two labels of three, ${summary.contestedSettledNotReal} of these lines are not real problems and the recall set's label is the odd one out.`
        : ''
    }`,
    `Labels: ${
      [...labels.values()].length
    } in ${DATA}/labels-*.json; ${summary.unlabelled} current findings have none yet (see the review packet).`,
  ];
  return { tables: [perRepo, perRule], summary };
}

/** The tie-breakers' labels of contested lines, by `repo|path|line|rule`. */
function adjudications(): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of readdirSync(DATA).filter((n) => /^adjudication-.*\.json$/.test(n)).sort()) {
    for (
      const l of (JSON.parse(readFileSync(path.join(DATA, f), 'utf8')) as {
        labels: { repo: string; path: string; line: number; rule: string; label: string }[];
      }).labels
    ) out.set(`${l.repo}|${l.path}|${l.line}|${l.rule}`, l.label);
  }
  return out;
}

function countBy(xs: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of xs) out[x] = (out[x] ?? 0) + 1;
  return out;
}

/** `repository|path|line|rule` of every known problem in the recall set, at its line in the repository. */
function knownProblemLines(): Set<string> {
  const out = new Set<string>();
  for (const repo of existsSync(FIXTURES) ? readdirSync(FIXTURES) : []) {
    const casesFile = path.join(FIXTURES, repo, 'cases.json');
    if (!existsSync(casesFile)) continue;
    const data = JSON.parse(readFileSync(casesFile, 'utf8')) as { repository: string; cases: RecallCase[] };
    for (const c of data.cases) for (const e of c.expect) out.add(lineKey(data.repository, c, e));
  }
  return out;
}

/** `repository|path|line|rule` of a case's `rule@line`, at its line in the repository's file. */
function lineKey(repository: string, c: RecallCase, expected: string): string {
  const [rule, at] = expected.split('@');
  return `${repository}|${c.path}|${Number(/^(\d+)/.exec(c.lines)?.[1] ?? 1) + Number(at) - 1}|${rule}`;
}

interface RecallCase {
  /** The excerpt, relative to its repository folder under test/fixtures/guard-real. */
  file: string;
  /** Its path in the repository (guard classifies it by this path). */
  path: string;
  /** The lines of the repository's file it holds, `first-last`. */
  lines: string;
  /** Known problems, as `rule@line` of the excerpt. */
  expect: string[];
  /** Checked as production code (an excerpt from tests, to see what the matcher finds). */
  asProduction?: boolean;
  /** Where guard knowingly differs from the label, and why (see test/unit/guard-real-code.test.ts). */
  disagree?: { missed?: string[]; byDesign?: string; extra?: string[]; why: string };
}

/**
 * Recall on the labelled excerpts: every rule on (default-off ones too), each excerpt checked as the
 * file it came from. Reports per rule what was expected, found, missed, and found beyond the labels.
 */
async function recall(): Promise<{ table: BenchTable; recall: number; recallAsked: number; extra: number }> {
  const runner = new RuleRunner(builtinRules(), { severityOverrides: everyRuleOn(), ruleExclusions: [] });
  const per = new Map<string, { expected: number; found: number; extra: number }>();
  const bump = (rule: string, k: 'expected' | 'found' | 'extra') => {
    const e = per.get(rule) ?? { expected: 0, found: 0, extra: 0 };
    e[k]++;
    per.set(rule, e);
  };
  const missed: string[] = [];
  let disagreements = 0;
  /** Labelled problems the issue asks guard to stay silent on (a team suppression, a justification, out of scope). */
  let silentByDesign = 0;
  // Known problems a tie-breaker outvoted (two blind labels of three say the line is not a real problem), and how many of them guard reports.
  const tieBreaks = adjudications();
  const outvoted = { known: 0, found: 0 };
  for (const repo of existsSync(FIXTURES) ? readdirSync(FIXTURES).sort() : []) {
    const casesFile = path.join(FIXTURES, repo, 'cases.json');
    if (!existsSync(casesFile)) continue;
    const { repository, cases } = JSON.parse(readFileSync(casesFile, 'utf8')) as {
      repository: string;
      cases: RecallCase[];
    };
    for (const c of cases) {
      const abs = path.join(FIXTURES, repo, c.file);
      const text = readFileSync(abs, 'utf8');
      const pathLanguage = languageForPath(c.path);
      const language = pathLanguage && headerLanguage(abs, text, pathLanguage);
      if (language) await runner.prepare(language);
      // A file of no language (a `.pem`) is read by no rule: its labelled problems count as missed.
      const got = new Set(
        language
          ? runner.checkText(text, language, {
            path: c.path,
            budgetMs: 10_000,
            ...(c.asProduction ? { kind: 'production' as const } : {}),
          }).violations.map((v) => `${v.ruleId}@${v.start.line}`)
          : [],
      );
      if (c.disagree) disagreements++;
      // Outvoted labels are counted apart (below), from the tie-breakers' labels themselves.
      if (c.disagree?.byDesign && c.disagree.byDesign !== 'outvoted') silentByDesign += c.disagree.missed?.length ?? 0;
      for (const e of c.expect) {
        const verdict = tieBreaks.get(lineKey(repository, c, e));
        if (verdict && verdict !== 'real-problem') {
          outvoted.known++;
          if (got.has(e)) outvoted.found++;
        }
        bump(e.split('@')[0], 'expected');
        if (got.has(e)) bump(e.split('@')[0], 'found');
        else missed.push(`${repo}/${c.file}: ${e}`);
      }
      for (const g of got) if (!c.expect.includes(g)) bump(g.split('@')[0], 'extra');
    }
  }
  const rules = builtinRules().map((r) => r.id);
  const table: BenchTable = {
    title: 'Guard recall on labelled real-code excerpts (every rule on; test/fixtures/guard-real)',
    columns: ['rule', 'known problems', 'found', 'recall', 'reported beyond the labels'],
    rows: rules.map((id) => {
      const e = per.get(id) ?? { expected: 0, found: 0, extra: 0 };
      return [id, e.expected, e.found, e.expected ? (e.found / e.expected).toFixed(2) : '-', e.extra];
    }),
  };
  const expected = [...per.values()].reduce((a, e) => a + e.expected, 0);
  const found = [...per.values()].reduce((a, e) => a + e.found, 0);
  const extra = [...per.values()].reduce((a, e) => a + e.extra, 0);
  table.rows.push(['all', expected, found, expected ? (found / expected).toFixed(3) : '-', extra]);
  // What the issue asks guard to find: the known problems but those it asks it to stay silent on, and those outvoted.
  const asked = expected - silentByDesign - outvoted.known;
  const foundAsked = found - outvoted.found;
  table.notes = [
    `Cases where guard knowingly differs from the blind label (cases.json \`disagree\`, with the reason): ${disagreements}. Recall counts them against the label.`,
    ...(outvoted.known
      ? [
        `By the majority of three blind labels, ${outvoted.known} of the known problems are not real (a tie-breaker sided with the findings' reviewer: bench/data/guard-eval/adjudication-*.json); guard reports ${outvoted.found} of them. Without them: ${
          found - outvoted.found
        } of ${expected - outvoted.known}, recall ${
          (expected - outvoted.known ? (found - outvoted.found) / (expected - outvoted.known) : NaN).toFixed(3)
        }.`,
      ]
      : []),
    `Of the labelled problems, ${silentByDesign} are ones issue 13 asks guard not to report (disagree.byDesign: the team's own suppression, an accepted justification such as // SAFETY: or a catch variable named ignored, hygiene rules outside production code, keys in tests); on the other ${asked}${
      outvoted.known ? ' (the outvoted ones left out too)' : ''
    }, guard finds ${foundAsked}: recall ${asked ? (foundAsked / asked).toFixed(3) : '-'}.`,
    `Rules with fewer than 3 known problems: ${
      rules.filter((id) => (per.get(id)?.expected ?? 0) < 3).join(', ') || 'none'
    }.`,
    ...(missed.length ? [`Missed: ${missed.join('; ')}`] : []),
  ];
  return { table, recall: expected ? found / expected : NaN, recallAsked: asked ? foundAsked / asked : NaN, extra };
}

/** The findings without a label, with the code around them, for a reviewer who has not seen the rules' code. */
function writePacket(file: string, reposDir: string, findings: Finding[], labels: Map<string, LabelRecord>): number {
  const rules = new Map(builtinRules().map((r) => [r.id, r]));
  const todo = findings.filter((f) => !labels.has(labelKey(f)));
  const items = todo.map((f, i) => {
    const abs = path.join(reposDir, f.repo.replace('/', '+'), f.path);
    const lines = existsSync(abs) ? readFileSync(abs, 'utf8').split('\n') : [];
    const from = Math.max(1, f.line - 8);
    const to = Math.min(lines.length, f.line + 8);
    const rule = rules.get(f.rule);
    return {
      id: `a${String(i + 1).padStart(3, '0')}`,
      repo: f.repo,
      commit: REPOSITORIES[f.repo],
      path: f.path,
      line: f.line,
      rule: f.rule,
      claim: rule ? `${rule.message} ${rule.why}` : f.rule,
      matched: f.matched,
      context: lines.slice(from - 1, to).map((l, k) =>
        `${String(from + k).padStart(5)}${from + k === f.line ? ' >' : '  '} ${l}`
      ).join('\n'),
      label: null,
      note: null,
    };
  });
  writeFileSync(
    file,
    JSON.stringify(
      {
        about:
          'Guard findings on public repositories that have no label yet. Label each as a senior engineer on that project would, from the code and the repository only.',
        rubric: {
          'real-problem': 'A problem in production code worth fixing.',
          'test-or-example':
            'The construct the rule names, but in tests, examples, docs, benchmarks or build scripts, where it is fine.',
          intended:
            'Production code that does this on purpose (an invariant, a documented choice), a reviewer would keep it.',
          suppressed:
            'The code already says it is deliberate (a lint suppression, a SAFETY comment, a named ignored exception).',
          vendored: 'Vendored, generated or minified code the project does not maintain.',
          'wrong-match': 'The code is not what the rule claims (a type, not an unwrap; a header string, not a key).',
        },
        repositories: REPOSITORIES,
        items,
      },
      null,
      1,
    ) + '\n',
  );
  return items.length;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      repos: { type: 'string', default: '/work/repos' },
      engine: { type: 'string' },
      findings: { type: 'string' },
      save: { type: 'string' },
      packet: { type: 'string' },
      'all-rules': { type: 'boolean', default: false },
      'no-recall': { type: 'boolean', default: false },
    },
  });
  const reposDir = values.repos!;
  const packetInRepo = values.packet && path.relative(path.join(__dirname, '..'), path.resolve(values.packet));
  if (packetInRepo && !packetInRepo.startsWith('..') && !path.isAbsolute(packetInRepo)) {
    throw new Error(`--packet ${values.packet}: a packet quotes third-party code; write it outside this repository`);
  }
  let findings: Finding[];
  let notChecked: Record<string, Record<string, number>> = {};
  if (values.findings) {
    const saved = JSON.parse(readFileSync(values.findings, 'utf8')) as {
      findings: Finding[];
      notChecked?: typeof notChecked;
    };
    findings = saved.findings;
    notChecked = saved.notChecked ?? {};
  } else {
    const scanned = await scanRepositories(
      reposDir,
      values.engine && path.resolve(values.engine),
      values['all-rules']!,
    );
    findings = scanned.findings;
    notChecked = scanned.notChecked;
  }
  if (values.save) {
    writeFileSync(
      values.save,
      JSON.stringify({
        about: 'Guard findings on the evaluation repositories (bench/guard-eval.ts --save).',
        notChecked,
        findings,
      }) + '\n',
    );
  }
  const labels = readLabels();
  const { tables, summary } = report(reposDir, findings, labels, notChecked);
  for (const t of tables) printTable(t);
  if (!values['no-recall']) {
    const r = await recall();
    printTable(r.table);
    Object.assign(summary, {
      recall: Number(r.recall.toFixed(3)),
      recallOnWhatTheIssueAsks: Number(r.recallAsked.toFixed(3)),
      beyondLabels: r.extra,
    });
  }
  if (values.packet) {
    const n = writePacket(values.packet, reposDir, findings, labels);
    console.log(`\nReview packet: ${n} findings without a label written to ${values.packet}`);
  }
  console.log(`\nSummary: ${JSON.stringify(summary)}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
