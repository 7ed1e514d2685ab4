import type { Workspace } from '../../ground/workspace';
import { draftFromSeed, tryDraftRules } from '../guard/rule-draft-check';
import type { GuardDraftReport } from '../knowledge/rule-seed';
import type { GuardPattern } from '../knowledge/types';
import type { CandidateDraft } from './types';

/** A card's drafted rule, tried on its examples and on the repository. */
export interface CardRule {
  guards: GuardPattern[];
  report: GuardDraftReport;
}

export interface CardRules {
  rules: Map<CandidateDraft, CardRule>;
  /** Cards whose seed gave a rule that passed its own examples. */
  drafted: number;
  /** Seeds that gave no rule, or a rule its examples refused: the card is recorded without one. */
  refused: number;
  /** Drafted rules that report something in the repository today (listed for the person). */
  withFindings: number;
}

/**
 * The guard rules the cards state, drafted from their seeds and tried together in one pass over the
 * workspace. A rule that fails its examples is not offered; one that reports places today keeps
 * them in its report, for the person who approves the card.
 */
export async function draftCardRules(
  ws: Workspace,
  cards: readonly CandidateDraft[],
  signal?: AbortSignal,
): Promise<CardRules> {
  const out: CardRules = { rules: new Map(), drafted: 0, refused: 0, withFindings: 0 };
  const trials = [];
  const byKey = new Map<string, CandidateDraft>();
  for (const card of cards) {
    if (!card.ruleSeed) continue;
    const d = draftFromSeed(ws, card.ruleSeed, card.summary);
    if (!d.guard) {
      out.refused++;
      continue;
    }
    const key = String(byKey.size);
    byKey.set(key, card);
    trials.push({ key, title: card.title, language: card.language, summary: card.summary, guards: [d.guard] });
  }
  if (!trials.length) return out;
  for (const [key, t] of await tryDraftRules(ws, trials, { signal })) {
    if (!t.guards.length || !t.report || beyondExceptions(byKey.get(key)!, t.report)) {
      out.refused++;
      continue;
    }
    out.drafted++;
    if (t.report.rules.some((r) => r.total > 0)) out.withFindings++;
    out.rules.set(byKey.get(key)!, { guards: t.guards, report: t.report });
  }
  return out;
}

/**
 * A seed that counted the places breaking it today (the declarations without the annotation): a
 * drafted rule reporting more than those finds what the seed did not mean, so it is not offered.
 */
function beyondExceptions(card: CandidateDraft, report: GuardDraftReport): boolean {
  const seed = card.ruleSeed;
  if (seed?.kind !== 'require-annotation' || seed.exceptions === undefined) return false;
  return report.rules.some((r) => r.total > seed.exceptions! || report.incomplete === true);
}
