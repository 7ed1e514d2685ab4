import { looksBinary, readRepoFileSync, workspaceFiles } from '../../ground/files';
import { languageForPath } from '../../ground/kernel/languages';
import { SLICE_MS, slicer } from '../../ground/kernel/slices';
import type { Workspace } from '../../ground/workspace';
import type { RuleSeed } from '../knowledge/rule-seed';
import { type DraftFinding, type GuardDraftReport, MAX_DRAFT_FINDINGS } from '../knowledge/rule-seed';
import type { GuardPattern } from '../knowledge/types';
import { TimeBudget } from './budget';
import { listWorkspaceFiles } from './files';
import { GlobSet } from './filters';
import { guardEngine } from './index';
import { recipeGuardRules } from './recipe-rules';
import type { CheckResult, GuardRule, RuleProblem } from './rule';
import { draftRuleFromSeed } from './rule-draft';
import type { RuleRunner } from './runner';

/**
 * A drafted rule checked before a person sees it: vetted and run on its own examples as loading would
 * (a rule that reports a good example is refused, never offered), then run over the repository as it
 * is today, with the semantics it will have once its recipe is published (recipe-rules.ts: production
 * code, the guard's excludes). What it finds there is listed for the person: either real violations
 * of the rule the card states, or a sign the rule is wrong.
 */

/** One card's rules to try: the guards it would carry, in its language. */
export interface DraftTrial {
  key: string;
  title: string;
  language: string;
  summary: string;
  guards: GuardPattern[];
}

export interface TrialOutcome {
  /** Problems that refused one of the guards: the card is offered without them. */
  problems: RuleProblem[];
  /** The guards that passed, in order, and their report. */
  guards: GuardPattern[];
  report?: GuardDraftReport;
}

export interface TrialOptions {
  signal?: AbortSignal;
  /** At most this many files are read (default 5,000). */
  maxFiles?: number;
  /** Per file and rule set (default 250 ms). */
  budgetMs?: number;
}

const DEFAULT_MAX_FILES = 5000;
const MAX_FILE_BYTES = 1 << 20;

/** Drafts the rule a seed describes; undefined with the reason when the seed gives no rule. */
export function draftFromSeed(
  ws: Workspace,
  seed: RuleSeed,
  why?: string,
): { guard?: GuardPattern; problem?: string } {
  const read = (rel: string) => {
    try {
      return readRepoFileSync(ws.root, rel, { kind: 'source', maxBytes: MAX_FILE_BYTES }).text;
    } catch {
      return undefined;
    }
  };
  const out = draftRuleFromSeed(seed, { read, why });
  return 'guard' in out ? { guard: out.guard } : { problem: out.problem };
}

/**
 * Tries every card's guards in one pass over the workspace: the files are listed and read once for all
 * of them, whatever their number.
 */
export async function tryDraftRules(
  ws: Workspace,
  trials: readonly DraftTrial[],
  opts: TrialOptions = {},
): Promise<Map<string, TrialOutcome>> {
  const out = new Map<string, TrialOutcome>();
  const all: { trial: DraftTrial; rule: GuardRule; guard: GuardPattern }[] = [];
  trials.forEach((t, i) => {
    const rules = recipeGuardRules([{
      recipeId: `draft-${i + 1}`,
      title: t.title,
      trigger: '',
      language: t.language,
      summary: t.summary,
      file: '',
      guards: t.guards,
    }]);
    rules.forEach((rule, k) => all.push({ trial: t, rule: { ...rule, source: `draft:${t.key}` }, guard: t.guards[k] }));
  });
  const engine = guardEngine(ws);
  const { problems, runner } = await engine.trial(all.map((a) => a.rule));
  try {
    const passing = new Set(runner.rules.map((r) => r.id));
    const findings = new Map<string, DraftFinding[]>();
    const totals = new Map<string, number>();
    const scan = await scanWith(ws, runner, opts, (ruleId, f) => {
      totals.set(ruleId, (totals.get(ruleId) ?? 0) + 1);
      const list = findings.get(ruleId) ?? [];
      if (list.length < MAX_DRAFT_FINDINGS) list.push(f);
      findings.set(ruleId, list);
    });
    const checkedAt = new Date().toISOString();
    for (const t of trials) {
      const mine = all.filter((a) => a.trial === t);
      const kept = mine.filter((a) => passing.has(a.rule.id));
      out.set(t.key, {
        problems: problems.filter((p) => mine.some((a) => a.rule.id === p.ruleId)).map((p) => ({
          ...p,
          message: p.message.replace(/^recipe\/draft-\d+(?:\/[\w-]+|#\d+)?: /, ''),
        })),
        guards: kept.map((a) => a.guard),
        ...(kept.length
          ? {
            report: {
              checkedAt,
              files: scan.files,
              rules: kept.map((a) => ({
                id: a.guard.id ?? a.rule.id,
                total: totals.get(a.rule.id) ?? 0,
                findings: findings.get(a.rule.id) ?? [],
              })),
              ...(scan.incomplete ? { incomplete: true } : {}),
            },
          }
          : {}),
      });
    }
    return out;
  } finally {
    runner.dispose();
  }
}

/** Every workspace file of the rules' languages, checked once with all of them. */
async function scanWith(
  ws: Workspace,
  runner: RuleRunner,
  opts: TrialOptions,
  found: (ruleId: string, f: DraftFinding) => void,
): Promise<{ files: number; incomplete: boolean }> {
  if (!runner.rules.length) return { files: 0, incomplete: false };
  const engine = guardEngine(ws);
  // Today's files, not the listing's last look within its freshness window: a file just written counts.
  await workspaceFiles(ws).list({ refresh: true, signal: opts.signal });
  const listing = await listWorkspaceFiles(ws, { exclude: new GlobSet([]), signal: opts.signal });
  const max = opts.maxFiles ?? DEFAULT_MAX_FILES;
  const budgetMs = opts.budgetMs ?? 250;
  const budget = new TimeBudget();
  const checkpoint = slicer();
  let files = 0;
  let incomplete = false;
  let pending: Pending[] = [];
  const drain = async () => {
    const results: CheckResult[] = [];
    for (let at = 0; at < pending.length;) {
      at = checkSlice(runner, pending, at, budget, budgetMs, results);
      await yieldToEventLoop();
    }
    results.forEach((res, i) => {
      if (res.incomplete) incomplete = true;
      for (const v of res.violations) {
        found(v.ruleId, {
          path: pending[i].rel,
          line: v.start.line,
          column: v.start.column,
          text: v.matchedText.slice(0, 120),
        });
      }
    });
    pending = [];
  };
  for (const f of listing.files) {
    if (opts.signal?.aborted) return { files, incomplete: true };
    if (runner.rulesFor(f.language).length === 0 || (await engine.isExcluded(f.rel))) continue;
    if (files >= max) {
      incomplete = true;
      break;
    }
    let text: string;
    try {
      text = readRepoFileSync(ws.root, f.rel, { kind: 'source', maxBytes: MAX_FILE_BYTES }).text;
    } catch {
      continue;
    }
    if (looksBinary(text)) continue;
    files++;
    const language = languageForPath(f.rel) ?? f.language;
    await runner.prepare(language);
    runner.compiledFor(language);
    pending.push({ rel: f.rel, text, language });
    if (pending.length >= BATCH_FILES) await drain();
    else await checkpoint();
  }
  await drain();
  return { files, incomplete };
}

/** Files read ahead of their check: a bound on the texts held at once. */
const BATCH_FILES = 64;

interface Pending {
  rel: string;
  text: string;
  language: string;
}

/**
 * Checks files from `from` on, as many as fit in one slice of the event loop, under one watchdog call
 * rather than one per file (the watchdog is a thread per call; on a busy machine that thread was most
 * of a trial's time). A rule not proven linear still cannot run away: the call stops at the per-file
 * budget, and the file it stopped in is checked again alone under its own watchdog, which stops the
 * slow rule and reports the check incomplete. Returns where the next slice starts.
 */
function checkSlice(
  runner: RuleRunner,
  files: readonly Pending[],
  from: number,
  budget: TimeBudget,
  budgetMs: number,
  out: CheckResult[],
): number {
  const start = performance.now();
  let at = from;
  const finished = budget.run(() => {
    for (; at < files.length && (at === from || performance.now() - start < SLICE_MS); at++) {
      const f = files[at];
      out[at] = runner.checkText(f.text, f.language, { path: f.rel, budgetMs, guarded: false });
    }
  }, budgetMs);
  if (finished) return at;
  const f = files[at];
  out[at] = runner.checkText(f.text, f.language, { path: f.rel, budgetMs });
  return at + 1;
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
