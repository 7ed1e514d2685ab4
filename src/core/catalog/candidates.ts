/**
 * The candidate tools an agent proposes through. They share one verdict on a proposal
 * (assessCandidate: its fields and whether its cited sources hold), and write tools answer with the
 * id, the status and what is missing, never the record back: the agent sent it, and get_candidate
 * gives it in full.
 */
import {
  answeredVerdict,
  assessCandidate,
  checkDuplicate,
  countCandidates,
  ensureIndexFresh,
  type FieldIssue,
  getCandidate,
  listCandidates,
  sourceIssues,
  submitCandidates,
  updateCandidate,
  verdictWith,
} from '../domains/knowledge';
import type { DuplicateReport } from '../domains/knowledge/duplicates';
import type { GuardDraftReport } from '../domains/knowledge/rule-seed';
import type { SourceFiles } from '../domains/knowledge/source-check';
import { transitionsOf } from '../domains/knowledge/transitions';
import type { StatusChange } from '../domains/knowledge/types';
import { AutoSnippetError, ErrorCode } from '../ground/kernel/errors';
import { trialCandidateGuards } from './candidate-guards';
import {
  candidateAliases,
  candidateOut,
  candidateProperties,
  candidateRef,
  candidateSchema,
  KINDS,
  validationSchema,
} from './knowledge-schemas';
import { Domain, Input, List, Name, Opt, Out, StringEnum, Type } from './schema';
import { defineTool } from './types';

/** Candidates per submit_candidates call: the Gateway, the schema, the description and the skills all use this one number. */
export const BATCH_MAX = 50;

const candidateStatus = ['pending', 'approved', 'rejected'] as const;
const FILL_HINT =
  'Fill the fields under `missing` (and improve `weak`) with update_candidate {id, …fields}, or update_candidates {updates} for several; enrich_candidates says what to write for each.';

function sourcesRefused(issues: FieldIssue[]): AutoSnippetError {
  return new AutoSnippetError(
    ErrorCode.InvalidInput,
    `Not recorded: its sources do not hold. ${issues.map((i) => i.message).join(' ')}`,
    'Open each cited file at the line, cite the line that shows the claim and quote the code as the file has it; then submit again.',
    { field: issues[0].field, sources: issues },
  );
}

const guardTotals = Type.Array(Out({ id: Type.String(), total: Type.Integer() }), {
  description:
    'What each guard rule of constraints.guards reports in the repository today: 0 when the code follows it, else real violations for the person to see.',
});

function totalsOf(report: GuardDraftReport): { id: string; total: number }[] {
  return report.rules.map((r) => ({ id: r.id, total: r.total }));
}

function guardsRefused(issues: FieldIssue[]): AutoSnippetError {
  return new AutoSnippetError(
    ErrorCode.InvalidInput,
    `Not recorded: a guard rule in constraints.guards does not hold. ${issues.map((i) => i.message).join(' ')}`,
    'Correct the rule (or leave constraints.guards out and draft it with propose_guard_rule), then submit again.',
    { field: issues[0].field, problems: issues },
  );
}

const submitCandidate = defineTool({
  name: 'submit_candidate',
  title: 'Submit a knowledge candidate',
  domain: 'knowledge',
  summary: 'Propose one piece of project knowledge (a rule, pattern or fact) for a person to review.',
  description:
    'Records a proposal as a pending candidate that a person approves or rejects. Only `title` is required, but approving it takes: summary, the code from the project, language, category, knowledgeType, '
    + 'and reasoning {whyStandard, sources as `path:line`, confidence}. Every cited `path:line` is opened: a file that does not exist, a line past its end, or code quoted from none of the cited files '
    + 'refuses the card (INVALID_INPUT, with what the file holds). Guard rules in constraints.guards run on their own examples (refused with the field at fault) and on the repository, and are stored with what they report today. The answer is the id, the status, the validation (fields missing or weak) and the nearest existing recipes. '
    + 'Submitting the same thing twice does not create it twice: the answer says `duplicate` and names the existing one. Call check_duplicate first when unsure.',
  inputSchema: candidateSchema,
  outputSchema: Out({
    id: Type.String(),
    status: StringEnum(['created', 'duplicate']),
    hint: Opt(Type.String()),
    validation: validationSchema,
    guards: Opt(guardTotals),
    similar: Opt(Domain<DuplicateReport['recipes']>('Existing recipes close to it (similarity ≥ 0.6).', 'array')),
    similarHint: Opt(Type.String()),
  }),
  aliases: candidateAliases,
  access: 'propose',
  maxOutputChars: 6000,
  confirmation: (input) => ({
    title: 'Propose knowledge?',
    message: `Add "${input.title}" to the candidates a person reviews.`,
  }),
  async handler(ws, input, ctx) {
    await ensureIndexFresh(ws);
    const sources = await sourceIssues(ws, input, ctx.signal);
    if (sources.length) throw sourcesRefused(sources);
    const trial = await trialCandidateGuards(ws, [input], ctx.signal);
    const guardIssues = trial.refused.get(0);
    if (guardIssues) throw guardsRefused(guardIssues);
    // Nearest neighbours are looked up before the card is recorded, so the new card is never among them.
    const near = await checkDuplicate(ws, input, 3);
    const result = await submitCandidates(ws, trial.inputs, ctx.actor);
    const dup = result.duplicates[0];
    // The verdict is on the candidate as recorded (defaults filled), the one validate_candidate {id} sees.
    const validation = verdictWith(dup ? input : getCandidate(ws, result.created[0]), sources);
    return {
      id: dup?.existing ?? result.created[0],
      status: dup ? ('duplicate' as const) : ('created' as const),
      ...(dup
        ? { hint: `It is already known as ${dup.existing}; nothing was created.` }
        : validation.ok
        ? {}
        : { hint: FILL_HINT }),
      validation: answeredVerdict(validation),
      ...(!dup && trial.inputs[0].guardReport ? { guards: totalsOf(trial.inputs[0].guardReport) } : {}),
      ...(!dup && near.verdict !== 'unique'
        ? { similar: near.recipes.filter((r) => r.similarity >= 0.6), similarHint: near.hint }
        : {}),
    };
  },
});

const submitCandidatesTool = defineTool({
  name: 'submit_candidates',
  title: 'Submit knowledge candidates',
  domain: 'knowledge',
  summary: `Propose up to ${BATCH_MAX} candidates at once; duplicates are reported, not created.`,
  description:
    `Records several proposals as pending candidates in one go (at most ${BATCH_MAX}). Each has the fields of submit_candidate, and each cited \`path:line\` is opened: `
    + 'an input whose sources do not hold, or whose constraints.guards fail their own examples, is listed under `refused` (by index, with the field at fault) and not created; the others are. '
    + 'The answer lists the ids created, the inputs that duplicate an existing candidate or recipe, and per created candidate the fields still missing.',
  inputSchema: Input({ candidates: List(candidateSchema, BATCH_MAX, { minItems: 1 }) }),
  outputSchema: Out({
    created: Type.Array(Type.String()),
    duplicates: Type.Array(Out({ input: Type.Integer(), existing: Type.String() })),
    refused: Type.Array(
      Out({
        input: Type.Integer(),
        issues: Type.Array(Out({ field: Type.String(), severity: Type.String(), message: Type.String() })),
      }),
    ),
    missing: Type.Array(
      Out({ id: Type.String(), missing: Type.Array(Type.String()), weak: Type.Array(Type.String()) }),
    ),
    guards: Opt(Type.Array(Out({ id: Type.String(), rules: guardTotals }), {
      description: 'Per created candidate with constraints.guards: what each rule reports in the repository today.',
    })),
    hint: Opt(Type.String()),
  }),
  aliases: { items: 'candidates' },
  access: 'propose',
  batch: { field: 'candidates', max: BATCH_MAX },
  maxOutputChars: 10000,
  confirmation: (input) => ({
    title: 'Propose knowledge?',
    message: `Add ${input.candidates?.length ?? 0} candidates for a person to review.`,
  }),
  async handler(ws, input, ctx) {
    await ensureIndexFresh(ws);
    const files: SourceFiles = new Map();
    const assessed = await Promise.all(
      input.candidates.map(async (c, i) => ({ i, c, v: await assessCandidate(ws, c, ctx.signal, files) })),
    );
    const sourced = assessed.filter((a) => !a.v.sourceIssues.length);
    const trial = await trialCandidateGuards(ws, sourced.map((a) => a.c), ctx.signal);
    const accepted = sourced.map((a, k) => ({ ...a, c: trial.inputs[k] })).filter((_, k) => !trial.refused.has(k));
    const refused = [
      ...assessed.filter((a) => a.v.sourceIssues.length).map((a) => ({ input: a.i, issues: a.v.sourceIssues })),
      ...[...trial.refused].map(([k, issues]) => ({ input: sourced[k].i, issues })),
    ].sort((a, b) => a.input - b.input);
    const result = accepted.length
      ? await submitCandidates(ws, accepted.map((a) => a.c), ctx.actor)
      : { created: [], duplicates: [] };
    const missing = result.created
      .map((id) => ({ id, v: verdictWith(getCandidate(ws, id), []) }))
      .map(({ id, v }) => ({ id, missing: v.missing, weak: v.weak }))
      .filter((m) => m.missing.length || m.weak.length);
    const duplicates = result.duplicates.map((d) => ({ input: accepted[d.input].i, existing: d.existing }));
    const hint = [
      refused.length ? 'Fix what `refused` names (the sources, or a guard rule) and submit those inputs again.' : '',
      missing.length ? FILL_HINT : '',
    ].filter(Boolean).join(' ');
    const guards = result.created.flatMap((id) => {
      const report = getCandidate(ws, id).guardReport;
      return report ? [{ id, rules: totalsOf(report) }] : [];
    });
    return {
      created: result.created,
      duplicates,
      refused,
      missing,
      ...(guards.length ? { guards } : {}),
      ...(hint ? { hint } : {}),
    };
  },
});

const validateCandidateTool = defineTool({
  name: 'validate_candidate',
  title: 'Validate a candidate',
  domain: 'knowledge',
  summary: 'Names each missing, weak or invalid field of a proposal, and checks that its cited sources hold.',
  description:
    'Checks a proposal field by field before (or after) you submit it: pass `candidate` (the fields of submit_candidate) or `id` of a submitted candidate. '
    + 'Opens every cited `path:line`: a file that does not exist, a line past its end or code quoted from none of the cited files is an invalid issue that says what the file holds. '
    + 'Returns ok (nothing missing or invalid), a score 0..1, `missing` and `weak` (the same lists every candidate tool answers with) and one issue per field at fault with what to write instead.',
  inputSchema: Input({ id: Opt(candidateRef()), candidate: Opt(candidateSchema) }),
  outputSchema: Out({ id: Opt(Type.String()), ...validationSchema.properties }),
  access: 'read',
  maxOutputChars: 6000,
  async handler(ws, input, ctx) {
    const c = input.id ? getCandidate(ws, input.id) : input.candidate;
    if (!c) {
      throw new AutoSnippetError(
        ErrorCode.InvalidInput,
        'Pass `candidate` (the fields) or `id` (a submitted candidate).',
        'e.g. { "candidate": { "title": "…", "summary": "…" } }',
      );
    }
    return { ...(input.id ? { id: input.id } : {}), ...answeredVerdict(await assessCandidate(ws, c, ctx.signal)) };
  },
});

const enrichCandidates = defineTool({
  name: 'enrich_candidates',
  title: 'What candidates lack',
  domain: 'knowledge',
  summary: 'Lists what each pending candidate lacks, so you can fill it in with update_candidate.',
  description:
    'For the given candidates (or the pending ones, weakest first) lists each missing, invalid or weak field with what to write, from the same check as validate_candidate (cited sources included). '
    + 'AutoSnippet calls no model here: you, the calling agent, read the cited sources and fill the fields in with update_candidate {id, …fields}. Candidates with nothing to fill are left out.',
  inputSchema: Input({
    ids: Opt(List(candidateRef(), 100)),
    limit: Opt(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  }),
  outputSchema: Out({
    total: Type.Integer(),
    candidates: Type.Array(Out({
      id: Type.String(),
      title: Type.String(),
      status: StringEnum(candidateStatus),
      score: Type.Number(),
      sources: Type.Array(Type.String()),
      missing: Type.Array(Type.String()),
      weak: Type.Array(Type.String()),
      fill: Type.Array(Out({ field: Type.String(), severity: Type.String(), what: Type.String() })),
    })),
    next: Type.String(),
  }),
  access: 'read',
  maxOutputChars: 12000,
  paginate: 'candidates',
  async handler(ws, input, ctx) {
    const list = input.ids?.length
      ? input.ids.map((id) => getCandidate(ws, id))
      : listCandidates(ws, { status: 'pending', limit: 500 });
    const files: SourceFiles = new Map();
    const assessed = await Promise.all(
      list.map(async (c) => ({ c, v: await assessCandidate(ws, c, ctx.signal, files) })),
    );
    const rows = assessed
      .filter(({ v }) => v.issues.length)
      .sort((a, b) => a.v.score - b.v.score)
      .slice(0, input.ids?.length ? undefined : input.limit ?? 20)
      .map(({ c, v }) => ({
        id: c.id,
        title: c.title,
        status: c.status,
        score: v.score,
        sources: c.reasoning.sources.slice(0, 5),
        missing: v.missing,
        weak: v.weak,
        fill: v.issues.map((i) => ({ field: i.field, severity: i.severity, what: i.message })),
      }));
    return {
      total: rows.length,
      candidates: rows,
      next:
        'For each, read its sources and set the fields under `fill` with update_candidate {id, …fields}, or with update_candidates {updates} for several at once.',
    };
  },
});

const updateCandidateTool = defineTool({
  name: 'update_candidate',
  title: 'Update a pending candidate',
  domain: 'knowledge',
  summary: 'Fill in or correct any field of a pending candidate (what enrich_candidates asked for).',
  description:
    'Changes fields of a pending candidate (any field of submit_candidate, code and sources included); fields you leave out keep their value. Approved and rejected candidates cannot change (INVALID_TRANSITION). '
    + 'Returns the id, the status and the new validation (the cited sources are opened again); get_candidate gives the record.',
  inputSchema: Input({ id: candidateRef(), ...candidateProperties, title: Opt(candidateProperties.title) }),
  outputSchema: Out({ id: Type.String(), status: StringEnum(candidateStatus), validation: validationSchema }),
  aliases: candidateAliases,
  access: 'propose',
  maxOutputChars: 6000,
  async handler(ws, input, ctx) {
    const { id, ...patch } = input;
    const c = await updateCandidate(ws, id, patch, ctx.actor);
    return { id: c.id, status: c.status, validation: answeredVerdict(await assessCandidate(ws, c, ctx.signal)) };
  },
});

const updateCandidatesTool = defineTool({
  name: 'update_candidates',
  title: 'Update several pending candidates',
  domain: 'knowledge',
  summary: `Fill in or correct fields of up to ${BATCH_MAX} pending candidates in one call.`,
  description:
    `Changes fields of several pending candidates at once (at most ${BATCH_MAX}): each item is an \`id\` with the fields of update_candidate to change; fields left out keep their value. `
    + 'Items are applied in order; one that cannot be (an unknown id, a candidate already decided) is listed under `failed` with its error, and the others are applied. '
    + 'The answer lists per updated id the fields still missing or weak (the cited sources are opened again).',
  inputSchema: Input({
    updates: List(
      Input({ id: candidateRef(), ...candidateProperties, title: Opt(candidateProperties.title) }),
      BATCH_MAX,
      { minItems: 1 },
    ),
  }),
  outputSchema: Out({
    updated: Type.Array(
      Out({ id: Type.String(), missing: Type.Array(Type.String()), weak: Type.Array(Type.String()) }),
    ),
    failed: Type.Array(
      Out({ input: Type.Integer(), id: Type.String(), code: Type.String(), message: Type.String() }),
    ),
  }),
  aliases: { items: 'updates', candidates: 'updates' },
  access: 'propose',
  batch: { field: 'updates', max: BATCH_MAX },
  maxOutputChars: 12_000,
  async handler(ws, input, ctx) {
    const files: SourceFiles = new Map();
    const updated: { id: string; missing: string[]; weak: string[] }[] = [];
    const failed: { input: number; id: string; code: string; message: string }[] = [];
    for (const [i, { id, ...patch }] of input.updates.entries()) {
      try {
        const c = await updateCandidate(ws, id, patch, ctx.actor);
        const v = answeredVerdict(await assessCandidate(ws, c, ctx.signal, files));
        updated.push({ id: c.id, missing: v.missing, weak: v.weak });
      } catch (e) {
        if (!(e instanceof AutoSnippetError)) throw e;
        failed.push({ input: i, id, code: e.code, message: e.message });
      }
    }
    return { updated, failed };
  },
});

const listCandidatesTool = defineTool({
  name: 'list_candidates',
  title: 'List candidates',
  domain: 'knowledge',
  summary: 'Proposed knowledge waiting for review (pending first), or decided.',
  description:
    'Lists candidates with their status, kind, language, category, confidence, origin and who proposed them; pending first, newest first. Filter by status or origin (e.g. "bootstrap"). '
    + '`total` counts every match; while `hasMore` is true, call again with `cursor: nextCursor` (both in the answer) for the next page. get_candidate gives one in full.',
  inputSchema: Input({
    status: Opt(StringEnum([...candidateStatus, 'any'], { default: 'pending' })),
    origin: Opt(Name('Only candidates from this origin, e.g. "bootstrap" (a prefix).')),
    limit: Opt(
      Type.Integer({
        minimum: 1,
        maximum: 1000,
        default: 1000,
        description: 'List at most this many (pages follow the answer bound).',
      }),
    ),
  }),
  outputSchema: Out({
    total: Type.Integer(),
    candidates: Type.Array(Out({
      id: Type.String(),
      title: Type.String(),
      status: StringEnum(candidateStatus),
      kind: StringEnum(KINDS),
      knowledgeType: Type.String(),
      language: Type.String(),
      category: Type.String(),
      summary: Type.String(),
      confidence: Type.Number(),
      origin: Type.String(),
      createdBy: Type.String(),
      createdAt: Type.String(),
      recipeId: Opt(Type.String()),
      rejectionReason: Opt(Type.String()),
    })),
  }),
  access: 'read',
  maxOutputChars: 12000,
  paginate: 'candidates',
  handler(ws, input) {
    const filter = { status: input.status ?? 'pending', origin: input.origin };
    const list = listCandidates(ws, { ...filter, limit: input.limit ?? 1000 });
    return {
      total: countCandidates(ws, filter),
      candidates: list.map((c) => ({
        id: c.id,
        title: c.title,
        status: c.status,
        kind: c.kind,
        knowledgeType: c.knowledgeType,
        language: c.language,
        category: c.category,
        summary: c.summary,
        confidence: c.reasoning.confidence,
        origin: c.origin,
        createdBy: c.createdBy,
        createdAt: c.createdAt,
        ...(c.recipeId ? { recipeId: c.recipeId } : {}),
        ...(c.rejectionReason ? { rejectionReason: c.rejectionReason } : {}),
      })),
    };
  },
});

const getCandidateTool = defineTool({
  name: 'get_candidate',
  title: 'Get a candidate',
  domain: 'knowledge',
  summary: 'One candidate in full: content, reasoning, status and history.',
  description:
    'Returns a candidate with every field, its reasoning (whyStandard, sources, confidence), its status and the transitions recorded for it.',
  inputSchema: Input({ id: candidateRef() }),
  outputSchema: Type.Intersect([
    candidateOut,
    Out({ history: Domain<StatusChange[]>('Its status changes, oldest first.', 'array') }),
  ]),
  aliases: { candidateId: 'id' },
  access: 'read',
  maxOutputChars: 16000,
  handler(ws, input) {
    const c = getCandidate(ws, input.id);
    return { ...c, history: transitionsOf(ws, 'candidate', c.id) };
  },
});

export {
  enrichCandidates as enrichCandidatesTool,
  getCandidateTool,
  listCandidatesTool,
  submitCandidate as submitCandidateTool,
  submitCandidatesTool,
  updateCandidatesTool,
  updateCandidateTool,
  validateCandidateTool,
};
