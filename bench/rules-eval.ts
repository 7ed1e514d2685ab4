// Rules drawn from knowledge, judged on real repositories (issue 34's evaluation). Two steps:
//
//   npx tsx bench/rules-eval.ts draft REPO [--out FILE]
//     Runs the cold start on a copy of REPO and writes, per card that carries a drafted guard rule,
//     the rule and what it reports on the repository today, with `verdict: null` for a reviewer who
//     has not seen our code to set to "accept" or "refuse" (and `why`).
//
//   npx tsx bench/rules-eval.ts plant REPO --drafts FILE --plants FILE [--out FILE]
//     Copies REPO, writes the planted files, runs the accepted rules (all of them when none has a
//     verdict) and reports, per plant, what was caught at the expected line and column, what was
//     missed, and any finding where none was expected (controls: a comment, a string, an excluded test).
//
// A plants file is a list of { rule, from, to, after, lines, expect }: `rule` a drafted rule's id (or
// its candidate id), `from` a file of REPO copied to `to` with `lines` inserted after line `after`
// (0: at the top), and `expect` the [line, column] pairs (in `to`) the rule must report; [] for a control.
// Nothing here runs in the tests; the repository itself is never written.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { bootstrapKnowledge } from '../src/core/domains/bootstrap';
import { tryDraftRules } from '../src/core/domains/guard/rule-draft-check';
import { listCandidates } from '../src/core/domains/knowledge';
import type { GuardDraftReport } from '../src/core/domains/knowledge/rule-seed';
import type { GuardPattern } from '../src/core/domains/knowledge/types';
import { Workspace } from '../src/core/ground/workspace';

interface DraftEntry {
  candidate: string;
  title: string;
  summary: string;
  language: string;
  sources: string[];
  rule: GuardPattern;
  report: { files: number; total: number; findings: GuardDraftReport['rules'][number]['findings'] };
  verdict: 'accept' | 'refuse' | null;
  why?: string;
}

interface Plant {
  rule: string;
  from: string;
  to: string;
  after: number;
  lines: string[];
  expect: [number, number][];
}

const SKIPPED = new Set(['.git', 'node_modules', '.autosnippet', '.venv', 'target', 'build', 'dist']);

function copyRepo(repo: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rules-eval-'));
  cpSync(repo, dir, { recursive: true, filter: (src) => !SKIPPED.has(path.basename(src)) });
  return dir;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
}

async function draft(repo: string): Promise<void> {
  const dir = copyRepo(repo);
  const ws = await Workspace.open(dir);
  try {
    const t0 = performance.now();
    const result = await bootstrapKnowledge(ws, {}, { actor: 'human' });
    const entries: DraftEntry[] = [];
    for (const c of listCandidates(ws)) {
      (c.constraints?.guards ?? []).forEach((rule, i) => {
        const r = c.guardReport?.rules[i];
        entries.push({
          candidate: c.id,
          title: c.title,
          summary: c.summary,
          language: c.language,
          sources: c.reasoning.sources,
          rule,
          report: { files: c.guardReport?.files ?? 0, total: r?.total ?? 0, findings: r?.findings ?? [] },
          verdict: null,
        });
      });
    }
    const out = {
      repo: path.basename(repo),
      seconds: Math.round(performance.now() - t0) / 1000,
      candidates: result.candidates.created,
      rules: result.rules,
      drafts: entries,
    };
    const file = arg('--out') ?? `rules-drafts-${path.basename(repo)}.json`;
    writeFileSync(file, JSON.stringify(out, null, 2) + '\n');
    console.log(
      `${out.repo}: ${out.candidates} cards, ${entries.length} drafted rules (${result.rules.refused} seeds refused), ${result.rules.withFindings} reporting places today; ${out.seconds} s → ${file}`,
    );
    for (const e of entries) console.log(`  ${e.rule.id}  ${e.report.total} today  ${e.title}`);
  } finally {
    await ws.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function plant(repo: string): Promise<void> {
  const drafts = JSON.parse(readFileSync(arg('--drafts')!, 'utf8')) as { drafts: DraftEntry[] };
  const plants = JSON.parse(readFileSync(arg('--plants')!, 'utf8')) as Plant[];
  const judged = drafts.drafts.some((d) => d.verdict);
  const accepted = drafts.drafts.filter((d) => (judged ? d.verdict === 'accept' : true));
  const dir = copyRepo(repo);
  for (const p of plants) {
    const text = readFileSync(path.join(dir, p.from), 'utf8').split('\n');
    text.splice(p.after, 0, ...p.lines);
    mkdirSync(path.dirname(path.join(dir, p.to)), { recursive: true });
    writeFileSync(path.join(dir, p.to), text.join('\n'));
  }
  const ws = await Workspace.open(dir);
  try {
    const outcome = await tryDraftRules(
      ws,
      accepted.map((d, i) => ({
        key: String(i),
        title: d.title,
        language: d.language,
        summary: d.summary,
        guards: [d.rule],
      })),
    );
    const rows = [];
    let caught = 0;
    let expected = 0;
    let falseAlarms = 0;
    for (const [i, d] of accepted.entries()) {
      const o = outcome.get(String(i));
      const findings = o?.report?.rules[0]?.findings ?? [];
      const mine = plants.filter((p) => p.rule === d.rule.id || p.rule === d.candidate);
      for (const p of mine) {
        const got = findings.filter((f) => f.path === p.to).map((f) => [f.line, f.column] as [number, number]);
        const hit = p.expect.filter(([l, c]) => got.some(([gl, gc]) => gl === l && gc === c));
        const extra = got.filter(([l, c]) => !p.expect.some(([el, ec]) => el === l && ec === c));
        caught += hit.length;
        expected += p.expect.length;
        falseAlarms += extra.length;
        rows.push({
          rule: d.rule.id,
          file: p.to,
          expected: p.expect,
          found: got,
          missed: p.expect.length - hit.length,
        });
      }
      const planted = new Set(mine.map((p) => p.to));
      const untouched = findings.filter((f) => !planted.has(f.path)).length;
      rows.push({ rule: d.rule.id, untouchedFindings: untouched, refused: o?.problems.map((p) => p.message) ?? [] });
    }
    const summary = { accepted: accepted.length, expected, caught, missed: expected - caught, falseAlarms, rows };
    const file = arg('--out');
    if (file) writeFileSync(file, JSON.stringify(summary, null, 2) + '\n');
    console.log(
      `${accepted.length} rules, ${plants.length} plants: caught ${caught}/${expected} at line and column, ${falseAlarms} findings where none was expected`,
    );
    for (const r of rows) console.log(`  ${JSON.stringify(r)}`);
  } finally {
    await ws.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

const [step, repo] = process.argv.slice(2);
if (!repo || (step !== 'draft' && step !== 'plant') || (step === 'plant' && (!arg('--drafts') || !arg('--plants')))) {
  console.error('usage: rules-eval.ts draft REPO [--out FILE] | plant REPO --drafts FILE --plants FILE [--out FILE]');
  process.exit(2);
}
void (step === 'draft' ? draft(path.resolve(repo)) : plant(path.resolve(repo))).then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
