/**
 * Guards an agent writes into a candidate's `constraints.guards` get the trial propose_guard_rule
 * gives a drafted one: they run on their own examples and on the repository as it is. A guard that
 * fails its examples refuses the card with the field at fault, so no rule reaches a person unchecked;
 * one that passes is stored with what it reports today, for the person who reviews it.
 */
import { tryDraftRules } from '../domains/guard/rule-draft-check';
import type { FieldIssue } from '../domains/knowledge';
import type { CandidateInput } from '../domains/knowledge/types';
import type { Workspace } from '../ground/workspace';

export interface GuardTrialResult {
  /** The inputs as they will be recorded: guards as the trial kept them, with their report. */
  inputs: CandidateInput[];
  /** Per input index, why its guards were refused (the input is not recorded). */
  refused: Map<number, FieldIssue[]>;
}

export async function trialCandidateGuards(
  ws: Workspace,
  inputs: readonly CandidateInput[],
  signal?: AbortSignal,
): Promise<GuardTrialResult> {
  const withGuards = inputs.flatMap((c, i) => (c.constraints?.guards?.length ? [i] : []));
  const refused = new Map<number, FieldIssue[]>();
  if (!withGuards.length) return { inputs: [...inputs], refused };
  const outcomes = await tryDraftRules(
    ws,
    withGuards.map((i) => ({
      key: String(i),
      title: inputs[i].title,
      language: inputs[i].language ?? '',
      summary: inputs[i].summary ?? '',
      guards: inputs[i].constraints!.guards!,
    })),
    { signal },
  );
  const out = inputs.map((c, i) => {
    const outcome = outcomes.get(String(i));
    if (!outcome) return c;
    if (outcome.problems.length) {
      refused.set(
        i,
        outcome.problems.map((p) => ({
          field: `constraints.guards${p.field ? `.${p.field}` : ''}`,
          severity: 'invalid' as const,
          message: `${p.message}${p.hint ? ` ${p.hint}` : ''}`,
        })),
      );
      return c;
    }
    return {
      ...c,
      constraints: { ...c.constraints, guards: outcome.guards },
      ...(outcome.report ? { guardReport: outcome.report } : {}),
    };
  });
  return { inputs: out, refused };
}
