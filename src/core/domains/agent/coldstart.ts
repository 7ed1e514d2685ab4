/**
 * The cold start with a model: the scan's evidence packs go to the model, which writes and checks the
 * cards; every card's sources are then checked against the evidence and opened in the files. A card
 * citing a line the scan did not show, but that exists, is kept and flagged for the person reviewing it, with the
 * line; a card whose sources do not hold (no such file or line, quoted code absent) is sent back once
 * and refused if it still does not hold. Dimensions the model could not answer keep the scan's own
 * cards, as does the whole run when no model is lent (the caller runs bootstrap_knowledge then).
 */
import type { Workspace } from '../../ground/workspace';
import { citableLines, type EvidencePack, type EvidenceScan, type PackOptions, scanEvidence } from '../bootstrap/packs';
import { type BootstrapOptions, type BootstrapResult, recordScan } from '../bootstrap/run';
import type { CandidateDraft } from '../bootstrap/types';
import { type SourceFiles, sourceIssues } from '../knowledge/source-check';
import type { KnowledgeType } from '../knowledge/types';
import type { TokenCounter } from '../skills/tokens';
import type { AssistContext } from './assist';
import {
  CARDS_OUTPUT_TOKENS,
  cardsOf,
  checkCardsAnswer,
  coldstartPrompt,
  groupPacks,
  type ModelCard,
  REQUEST_EVIDENCE_TOKENS,
} from './coldstart-prompt';
import { completeJson, isCancellation, throwIfAborted } from './model';

export interface ColdstartCardsReport {
  mode: 'model';
  model: string;
  requests: number;
  /** Cards the model wrote that passed the checks and were handed to the store. */
  written: number;
  flagged: { title: string; note: string }[];
  refused: { title: string; problem: string }[];
  /** Dimensions whose request failed: the scan's own cards were recorded for them. */
  fallback: { dimensions: string[]; reason: string }[];
  result: BootstrapResult;
}

/** Everything the run needs besides the workspace: the assist context (with its model) and the token counter. */
export interface ColdstartRun extends AssistContext {
  counter: TokenCounter;
}

/** Scans, has the model write the cards from the packs, checks them and records them. */
export async function writeColdstartCards(
  ws: Workspace,
  options: BootstrapOptions & PackOptions,
  ctx: ColdstartRun,
): Promise<ColdstartCardsReport> {
  const model = ctx.model!;
  const run = { actor: ctx.actor, signal: ctx.signal, progress: progressOf(ctx) };
  const evidence = await scanEvidence(ws, options, run, ctx.counter);
  const budget = Math.min(REQUEST_EVIDENCE_TOKENS, Math.floor((model.maxInputTokens ?? 128_000) * 0.4));
  const groups = groupPacks(evidence.packs, budget);
  const citable = citableLines(evidence.packs);
  const files: SourceFiles = new Map();
  const report: Omit<ColdstartCardsReport, 'result'> = {
    mode: 'model',
    model: model.name,
    requests: 0,
    written: 0,
    flagged: [],
    refused: [],
    fallback: [],
  };
  const drafts: CandidateDraft[] = [];
  for (const [i, group] of groups.entries()) {
    throwIfAborted(ctx.signal, 'The cold start');
    ctx.progress?.({
      message: `Writing cards from the evidence: ${group.map((p) => p.dimension).join(', ')}`,
      done: i,
      total: groups.length,
    });
    try {
      const cards = await askForCards(ws, evidence, group, citable, files, ctx, report);
      drafts.push(...cards);
    } catch (e) {
      if (isCancellation(e, ctx.signal)) throw e;
      const dims = group.map((p) => p.dimension);
      report.fallback.push({ dimensions: dims, reason: (e as Error).message });
      drafts.push(...evidence.scan.proposals.filter((d) => dims.includes(d.dimension)));
    }
  }
  throwIfAborted(ctx.signal, 'The cold start');
  // Dimensions without a pack have no evidence; a scan card there (one without sources) never reaches this far.
  report.written = drafts.filter((d) => d.tags.includes('model-written')).length;
  const result = await recordScan(ws, evidence.scan, drafts, run);
  return { ...report, result };
}

/** One request (and at most one repair of refused cards): the group's cards as drafts. */
async function askForCards(
  ws: Workspace,
  evidence: EvidenceScan,
  group: EvidencePack[],
  citable: Set<string>,
  files: SourceFiles,
  ctx: ColdstartRun,
  report: Omit<ColdstartCardsReport, 'result'>,
): Promise<CandidateDraft[]> {
  const prompt = coldstartPrompt(group, {
    primaryLanguage: evidence.scan.primaryLanguage,
    files: evidence.scan.scanned.files,
  });
  const dims = group.map((p) => p.dimension);
  const ask = async (user: string) => {
    report.requests++;
    return completeJson<unknown>(ctx.model!, user, checkCardsAnswer, {
      system: prompt.system,
      signal: ctx.signal,
      purpose: 'coldstart_cards',
      maxOutputTokens: CARDS_OUTPUT_TOKENS,
    });
  };
  const first = cardsOf(await ask(prompt.user), dims);
  const checked = await Promise.all(first.cards.map((c) => checkCard(ws, c, citable, files, ctx.signal)));
  let kept = checked.filter((c) => !c.problem);
  const refused = checked.filter((c) => c.problem);
  if (refused.length) {
    const retry = cardsOf(await ask(repairPrompt(prompt.user, refused)), dims);
    const again = await Promise.all(retry.cards.map((c) => checkCard(ws, c, citable, files, ctx.signal)));
    kept = [...kept, ...again.filter((c) => !c.problem)];
    for (const c of again.filter((x) => x.problem)) report.refused.push({ title: c.card.title, problem: c.problem! });
    // A card the model dropped on the repair is refused with its first problem.
    for (const c of refused) {
      if (!retry.cards.some((r) => r.title === c.card.title)) {
        report.refused.push({ title: c.card.title, problem: c.problem! });
      }
    }
  }
  for (const d of first.dropped) report.refused.push({ title: d.title ?? `card ${d.index + 1}`, problem: d.problem });
  for (const c of kept) if (c.note) report.flagged.push({ title: c.card.title, note: c.note });
  return kept.map((c) => toDraft(c.card, c.note, group, evidence.scan.primaryLanguage));
}

interface CheckedCard {
  card: ModelCard;
  /** Why the card is refused. */
  problem?: string;
  /** What the person reviewing the card must check: cited lines the scan did not show, as the file has them. */
  note?: string;
}

/** A card's sources against the evidence and the files (the candidate source checks open every one). */
export async function checkCard(
  ws: Workspace,
  card: ModelCard,
  citable: ReadonlySet<string>,
  files: SourceFiles,
  signal?: AbortSignal,
): Promise<CheckedCard> {
  const issues = await sourceIssues(
    ws,
    {
      title: card.title,
      code: card.code,
      knowledgeType: card.knowledgeType as KnowledgeType,
      reasoning: { sources: card.sources },
    },
    signal,
    files,
  );
  if (issues.length) return { card, problem: issues.map((i) => i.message).join(' ') };
  const outside = card.sources.filter((s) => !citable.has(s.replace(/-\d+$/, '')));
  if (!outside.length) return { card };
  const shown = await Promise.all(outside.map(async (s) => {
    const [, path, line] = /^(.+?):(\d+)/.exec(s)!;
    const text = (await files.get(path))?.[Number(line) - 1]?.trim() ?? '';
    return `${s} \`${text.length > 120 ? `${text.slice(0, 117)}…` : text}\``;
  }));
  return {
    card,
    note: `Check before approving: ${shown.join('; ')} ${
      outside.length === 1 ? 'is' : 'are'
    } not among the lines the scan found; the model cited ${outside.length === 1 ? 'it' : 'them'} on its own.`,
  };
}

function repairPrompt(user: string, refused: CheckedCard[]): string {
  return [
    user,
    '',
    'You answered these cards, and their sources do not hold:',
    ...refused.map((c) => `- "${c.card.title}": ${c.problem}`),
    'Answer again with only these cards, fixed: cite lines from the evidence and copy code as the files have it; leave out a card you cannot support.',
  ].join('\n');
}

function toDraft(card: ModelCard, note: string | undefined, group: EvidencePack[], language?: string): CandidateDraft {
  const pack = group.find((p) => p.dimension === card.dimension);
  const rests = pack?.findings.filter((f) => card.evidence.includes(f.id)) ?? [];
  const draft = rests.find((f) => f.draft)?.draft;
  return {
    title: card.title,
    knowledgeType: card.knowledgeType as KnowledgeType,
    dimension: card.dimension,
    language: draft?.language ?? language ?? 'text',
    category: draft?.category ?? card.dimension,
    summary: card.summary,
    code: card.code,
    ...(note ? { details: note } : {}),
    reasoning: {
      whyStandard: `Written by a model from the scan's evidence${
        rests.length ? ` (${rests.map((f) => f.id).join(', ')})` : ''
      } and checked against the cited files.`,
      sources: card.sources,
      confidence: card.confidence,
    },
    tags: [
      'model-written',
      ...(note ? ['unverified-source'] : []),
      ...(draft?.tags.filter((t) => t === 'policy') ?? []),
    ],
    ...(draft?.target ? { target: draft.target } : {}),
  };
}

function progressOf(ctx: AssistContext) {
  return ctx.progress ? (p: { message: string; done?: number; total?: number }) => ctx.progress!(p) : undefined;
}
