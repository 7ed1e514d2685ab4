/**
 * Rules drawn from knowledge: an agent proposes the guard rule a candidate states, and the rule waits
 * with the candidate. A person approves it with the candidate (it goes into the recipe's
 * `constraints.guards`) and it runs once the recipe is published; the agent never writes a rule file.
 */
import { draftFromSeed, tryDraftRules } from '../domains/guard/rule-draft-check';
import { getCandidate, updateCandidate } from '../domains/knowledge';
import { type RuleSeed, SEED_CONSTRUCTS, SEED_KINDS } from '../domains/knowledge/rule-seed';
import type { GuardPattern } from '../domains/knowledge/types';
import { AutoSnippetError, ErrorCode } from '../ground/kernel/errors';
import { candidateRef, guardRuleInput } from './knowledge-schemas';
import { Domain, FilePath, Input, List, Name, Opt, Out, StringEnum, Text, Type } from './schema';
import { type AnyTool, defineTool } from './types';

const seedInput = Input({
  kind: StringEnum(SEED_KINDS, {
    description:
      'no-direct-output (library code logs, never prints), prefer-helper (the project helper instead of a standard call), forbid-import (a folder never imports others), forbid-construct (a construct the project avoids).',
  }),
  instead: Opt(Text('no-direct-output: what the code logs through (`logger`, `log.Printf`).', { maxLength: 200 })),
  standard: Opt(
    List(Name(undefined, { maxLength: 100 }), 10, {
      description: 'prefer-helper: the standard calls, as written (`fetch`, `time.Now`).',
    }),
  ),
  helper: Opt(Name('prefer-helper: the helper, as called.', { maxLength: 100 })),
  definedIn: Opt(FilePath('prefer-helper: the file defining the helper (it may make the standard call).')),
  files: Opt(FilePath('forbid-import: the folder whose files must not import `modules`.')),
  modules: Opt(List(FilePath(), 20, { description: 'forbid-import: workspace-relative folders.' })),
  construct: Opt(StringEnum(SEED_CONSTRUCTS)),
  goodAt: Opt(List(FilePath(), 8, { description: 'Lines that follow the rule, as `path:line`: its good examples.' })),
});

const reportOut = Out({
  files: Type.Integer({ description: "Files of the rule's languages checked." }),
  rules: Domain<{ id: string; total: number; findings: unknown[] }[]>(
    'Per rule: its id, how many findings the repository has today, and the first ones (path, line, column, text).',
    'array',
  ),
  incomplete: Opt(Type.Boolean()),
});

export const proposeGuardRule = defineTool({
  name: 'propose_guard_rule',
  title: 'Propose the guard rule a candidate states',
  domain: 'guard',
  summary: 'Draft the guard rule a pending candidate states; it waits with the candidate for a person.',
  description:
    'Drafts the guard rule a pending candidate states ("reuse the helper instead of the standard call", "this folder never imports that one", "library code does not print") and stores it with the candidate, pending. '
    + 'Give `rule` in the rule format (pattern or query, in, include/exclude, languages, message, severity, fix, examples {bad, good} from this repository), or `seed` to have it drafted, or neither to draft from what the scan recorded on the candidate. '
    + 'The rule runs on its examples first: one that misses a bad example or reports a good one is refused with the field and the fix, and nothing is stored. '
    + 'Then it runs on the repository as it is: `report` lists what it would report today, which is empty when the code follows the rule, or real violations for the person to see. '
    + "A person approves the rule with the candidate (it goes into the recipe's constraints.guards) and it runs once the recipe is published.",
  inputSchema: Input({
    candidateId: candidateRef(),
    rule: Opt(guardRuleInput),
    seed: Opt(seedInput),
  }),
  outputSchema: Out({
    candidateId: Type.String(),
    rules: Domain<GuardPattern[]>("The candidate's guards as stored (pending until it is approved).", 'array'),
    report: reportOut,
    next: Type.String(),
  }),
  access: 'propose',
  maxOutputChars: 16_000,
  confirmation: (input) => ({
    title: 'Propose a guard rule?',
    message: `Attach a drafted guard rule to candidate ${input.candidateId}, for a person to review.`,
  }),
  async handler(ws, input, ctx) {
    const c = getCandidate(ws, input.candidateId);
    if (c.status !== 'pending') {
      throw new AutoSnippetError(
        'INVALID_TRANSITION',
        `Candidate ${c.id} is ${c.status}; a rule is proposed with a pending candidate.`,
        c.recipeId
          ? `Its recipe is ${c.recipeId}: a person adds the rule to the recipe file's constraints.guards.`
          : 'Submit a new candidate that states the rule.',
      );
    }
    const guard = input.rule ? (input.rule as GuardPattern) : drafted(ws, c.id, seedOf(input.seed, c), c.summary);
    const guards = [...(c.constraints?.guards ?? []).filter((g) => !guard.id || g.id !== guard.id), guard];
    const outcome =
      (await tryDraftRules(ws, [{ key: c.id, title: c.title, language: c.language, summary: c.summary, guards }], {
        signal: ctx.signal,
      })).get(c.id)!;
    if (outcome.problems.length) {
      const p = outcome.problems[0];
      throw new AutoSnippetError(
        ErrorCode.InvalidInput,
        `The rule was refused, nothing was stored: ${p.message}`,
        p.hint ?? 'Correct the rule and propose it again.',
        { field: p.field, problems: outcome.problems.map(({ field, message, hint }) => ({ field, message, hint })) },
      );
    }
    await updateCandidate(ws, c.id, {
      constraints: { ...c.constraints, guards: outcome.guards },
      ...(outcome.report ? { guardReport: outcome.report } : {}),
    }, ctx.actor);
    const found = outcome.report?.rules.reduce((n, r) => n + r.total, 0) ?? 0;
    return {
      candidateId: c.id,
      rules: outcome.guards,
      report: {
        files: outcome.report?.files ?? 0,
        rules: outcome.report?.rules ?? [],
        ...(outcome.report?.incomplete ? { incomplete: true } : {}),
      },
      next: outcome.report?.incomplete
        ? `The check of today's files stopped early (a file took longer than the time budget allows): ${outcome.report.files} files checked, ${found} place${
          found === 1 ? '' : 's'
        } found so far. The rule is stored; narrow its include globs or propose it again to check every file.`
        : found
        ? `The rule reports ${found} place${
          found === 1 ? '' : 's'
        } in the repository today: check that each is a real violation (else narrow the rule and propose it again); a person sees them with the candidate.`
        : 'The repository follows the rule today. A person approves it with the candidate in the Candidates view.',
    };
  },
});

/** The seed given, or the one the scan recorded on the candidate, in the candidate's language. */
function seedOf(
  given: Record<string, unknown> | undefined,
  c: { id: string; language: string; ruleSeed?: RuleSeed },
): RuleSeed {
  if (given) return { language: c.language, ...given } as RuleSeed;
  if (c.ruleSeed) return c.ruleSeed;
  throw new AutoSnippetError(
    ErrorCode.InvalidInput,
    `Candidate ${c.id} records no rule to draft from.`,
    'Give `rule` (pattern, message, examples {bad, good} from this repository) or `seed` ({kind, …}).',
    { field: 'rule' },
  );
}

function drafted(ws: Parameters<typeof draftFromSeed>[0], id: string, seed: RuleSeed, why: string): GuardPattern {
  const out = draftFromSeed(ws, seed, why || undefined);
  if (out.guard) return out.guard;
  throw new AutoSnippetError(
    ErrorCode.InvalidInput,
    `No rule could be drafted for candidate ${id}: ${out.problem}`,
    'Give the rule yourself in `rule` (pattern, message, examples {bad, good} from this repository).',
    { field: 'seed' },
  );
}

export const guardDraftTools: AnyTool[] = [proposeGuardRule];
