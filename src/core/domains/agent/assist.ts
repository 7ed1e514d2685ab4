/**
 * What the AI-assisted tools do. Each one has three ways in: the caller supplies the answer itself
 * (applied and checked), a model is on the ToolContext (asked, answer checked, applied), or neither
 * (diagnostic mode: the prompt goes back to the caller). Writes go through the knowledge domain's
 * functions; the Gateway has already passed the tool call that got here.
 */
import type { Actor } from '../../ground/kernel/actors';
import { AutoSnippetError, ErrorCode } from '../../ground/kernel/errors';
import type { Workspace } from '../../ground/workspace';
import { getCandidate, listCandidates, updateCandidate } from '../knowledge/candidates';
import { answeredVerdict, assessCandidate } from '../knowledge/source-check';
import type { Candidate, CandidateInput } from '../knowledge/types';
import { RELATION_TYPES } from '../knowledge/types';
import { validateCandidate } from '../knowledge/validate';
import { diagnosticAnswer } from './diagnostic';
import {
  assistantText,
  type ChatMessage,
  type ChatModel,
  completeJson,
  extractJson,
  isCancellation,
  throwIfAborted,
  userText,
} from './model';
import { checkRuleAgainstExamples, type RuleCheck, toGuardRule } from './rule-check';
import {
  candidateBrief,
  candidateForPrompt,
  checkCodeSummary,
  checkEnrichment,
  checkGuardRuleAnswer,
  checkRefinements,
  checkRelations,
  type CodeSummary,
  type DiscoveredRelation,
  ENRICH_FIELDS,
  type EnrichField,
  enrichPrompt,
  guardRulePrompt,
  type ProposedRegexRule,
  type Refinement,
  refinePrompt,
  relationsPrompt,
  summarizeCodePrompt,
} from './tasks';

/** What an AI-assisted step needs of its caller (a tool's context has it): who asks, the model if any, cancellation. */
export interface AssistContext {
  actor: Actor;
  model?: ChatModel;
  signal?: AbortSignal;
  progress?(p: { message?: string; done?: number; total?: number }): void;
}

// ------------------------------------------------------------------ summarize_code

export async function summarizeCode(input: { code: string; language: string; maxWords?: number }, ctx: AssistContext) {
  const prompt = summarizeCodePrompt(input.code, input.language, input.maxWords ?? 80);
  const outline = outlineOf(input.code);
  if (!ctx.model) {
    return diagnosticAnswer(prompt, 'Run the prompt yourself; its JSON answer is the summary.', { outline });
  }
  const summary = await completeJson<CodeSummary>(ctx.model, prompt.user, checkCodeSummary, {
    system: prompt.system,
    signal: ctx.signal,
    purpose: 'summarize_code',
    maxOutputTokens: 600,
  });
  return { mode: 'model' as const, language: input.language, ...summary, outline };
}

/** Lines and the names a reader looks for first, found without a parser. */
function outlineOf(code: string): { lines: number; declarations: string[] } {
  const names = new Set<string>();
  const re =
    /\b(?:function|class|struct|interface|enum|protocol|extension|def|func|fn|type|trait|impl)\s+([A-Za-z_$][\w$]*)/g;
  for (let m = re.exec(code); m && names.size < 20; m = re.exec(code)) names.add(m[1]);
  return { lines: code.split('\n').length, declarations: [...names] };
}

// ------------------------------------------------------------------ enrich_candidate

export type EnrichFields = Partial<Pick<CandidateInput, EnrichField>>;

/** What the caller may set through `fields`: every field validation can name, code and sources included. */
export type SuppliedFields = Partial<Pick<CandidateInput, EnrichField | 'code' | 'language' | 'reasoning'>>;

export async function enrichCandidate(
  ws: Workspace,
  input: { id: string; fields?: SuppliedFields; overwrite?: boolean },
  ctx: AssistContext,
) {
  const candidate = getCandidate(ws, input.id);
  requirePending(candidate);
  if (input.fields) return applyEnrichment(ws, candidate, input.fields, 'applied', ctx);
  const before = await assessCandidate(ws, candidate, ctx.signal);
  const gaps = before.issues.filter((i) => (ENRICH_FIELDS as readonly string[]).includes(i.field));
  if (!ctx.model) {
    // The caller has the record (it proposed or listed it): the answer names the gaps, not the record again.
    const prompt = enrichPrompt(candidateBrief(candidate), before.issues);
    return diagnosticAnswer(
      prompt,
      `Read the cited sources, then call update_candidate {"id": "${candidate.id}", …the fields} (get_candidate gives the whole record).`,
      { id: candidate.id, validation: answeredVerdict(before) },
    );
  }
  const prompt = enrichPrompt(candidateForPrompt(candidate), gaps);
  const answer = await completeJson<EnrichFields>(ctx.model, prompt.user, checkEnrichment, {
    system: prompt.system,
    signal: ctx.signal,
    purpose: 'enrich_candidate',
    maxOutputTokens: 1200,
  });
  // Without overwrite, only what is missing or weak is filled: a person's or the scan's wording stays.
  const wanted = new Set(gaps.map((g) => g.field));
  const fields = Object.fromEntries(
    Object.entries(answer).filter(([k]) =>
      (ENRICH_FIELDS as readonly string[]).includes(k)
      && (input.overwrite || wanted.has(k) || isEmpty(candidate[k as keyof Candidate]))
    ),
  ) as EnrichFields;
  return applyEnrichment(ws, candidate, fields, 'model', ctx);
}

async function applyEnrichment(
  ws: Workspace,
  candidate: Candidate,
  fields: SuppliedFields,
  mode: 'applied' | 'model',
  ctx: AssistContext,
) {
  const patch = Object.fromEntries(Object.entries(fields).filter(([, v]) => !isEmpty(v))) as SuppliedFields;
  const changed = Object.keys(patch);
  const updated = changed.length ? await updateCandidate(ws, candidate.id, patch, ctx.actor) : candidate;
  return {
    mode,
    id: candidate.id,
    changed,
    validation: answeredVerdict(await assessCandidate(ws, updated, ctx.signal)),
  };
}

// ------------------------------------------------------------------ refine_bootstrap_candidates

export interface RefineInput {
  candidateIds?: string[];
  limit?: number;
  languageGuide?: string;
  refinements?: Refinement[];
  batchSize?: number;
}

export async function refineCandidates(ws: Workspace, input: RefineInput, ctx: AssistContext) {
  const skipped: { id: string; reason: string }[] = [];
  const known = listCandidates(ws, { status: 'pending', limit: 500 }).map((c) => ({ id: c.id, title: c.title }));
  const knownIds = new Set(known.map((k) => k.id));
  if (input.refinements) {
    return { mode: 'applied' as const, ...(await applyRefinements(ws, input.refinements, knownIds, ctx)), skipped };
  }

  const targets = selectCandidates(ws, input.candidateIds, input.limit ?? 20, skipped);
  if (targets.length === 0) {
    return {
      mode: ctx.model ? ('model' as const) : ('diagnostic' as const),
      refined: [],
      failed: [],
      skipped,
      note: 'No pending candidates to refine.',
    };
  }

  const size = Math.min(10, Math.max(1, input.batchSize ?? 5));
  const batches: Candidate[][] = [];
  for (let i = 0; i < targets.length; i += size) batches.push(targets.slice(i, i + size));

  if (!ctx.model) {
    const rest = batches.slice(1).flat().map((c) => c.id);
    return diagnosticAnswer(
      refinePrompt(batches[0], known, input.languageGuide, lacksOf(batches[0]), candidateBrief),
      `Read each candidate (get_candidate {id}) and its sources, then call refine_bootstrap_candidates {"refinements": <the JSON array>}.${
        rest.length
          ? ` Then do the same for the remaining candidates: refine_bootstrap_candidates {"candidateIds": ${
            JSON.stringify(rest)
          }}.`
          : ''
      }`,
      { candidates: batches[0].map((c) => c.id), remaining: rest, skipped },
    );
  }
  const refined: { id: string; changed: string[] }[] = [];
  const failed: { id: string; error: string }[] = [];
  for (let b = 0; b < batches.length; b++) {
    throwIfAborted(ctx.signal, 'Refining the candidates');
    ctx.progress?.({
      message: `Refining candidates ${b * size + 1}–${b * size + batches[b].length} of ${targets.length}`,
      done: b,
      total: batches.length,
    });
    const prompt = refinePrompt(batches[b], known, input.languageGuide, lacksOf(batches[b]));
    let answer: Refinement[];
    try {
      answer = await completeJson<Refinement[]>(ctx.model, prompt.user, checkRefinements, {
        system: prompt.system,
        signal: ctx.signal,
        purpose: 'refine_bootstrap_candidates',
        maxOutputTokens: 2500,
      });
    } catch (e) {
      if (isCancellation(e, ctx.signal)) throw e;
      for (const c of batches[b]) failed.push({ id: c.id, error: (e as Error).message });
      continue;
    }
    const inBatch = new Set(batches[b].map((c) => c.id));
    const result = await applyRefinements(ws, answer.filter((r) => inBatch.has(r.id)), knownIds, ctx);
    refined.push(...result.refined);
    failed.push(...result.failed);
  }
  ctx.progress?.({ message: 'Candidates refined', done: batches.length, total: batches.length });
  return { mode: 'model' as const, refined, failed, skipped, requests: batches.length };
}

/** Fields validation finds missing or weak, per candidate: the refine prompt asks for those. */
function lacksOf(candidates: readonly Candidate[]): Record<string, string[]> {
  return Object.fromEntries(
    candidates.map((c) => [c.id, [...new Set(validateCandidate(c).issues.map((i) => i.field))]]),
  );
}

function selectCandidates(
  ws: Workspace,
  ids: string[] | undefined,
  limit: number,
  skipped: { id: string; reason: string }[],
): Candidate[] {
  if (!ids) return listCandidates(ws, { status: 'pending', origin: 'bootstrap', limit });
  const out: Candidate[] = [];
  for (const id of ids.slice(0, limit)) {
    try {
      const c = getCandidate(ws, id);
      if (c.status === 'pending') out.push(c);
      else skipped.push({ id, reason: `it is ${c.status}` });
    } catch (e) {
      skipped.push({ id, reason: (e as Error).message });
    }
  }
  for (const id of ids.slice(limit)) skipped.push({ id, reason: `over the limit of ${limit}` });
  return out;
}

async function applyRefinements(
  ws: Workspace,
  refinements: readonly Refinement[],
  knownIds: Set<string>,
  ctx: AssistContext,
) {
  const refined: { id: string; changed: string[] }[] = [];
  const failed: { id: string; error: string }[] = [];
  for (const r of refinements) {
    try {
      const current = getCandidate(ws, r.id);
      const patch: Partial<CandidateInput> = {};
      if (r.summary?.trim()) patch.summary = r.summary.trim();
      if (r.insight?.trim()) patch.rationale = r.insight.trim();
      if (
        r.usageGuide?.trim() && (!current.usageGuide?.trim() || lacksOf([current])[current.id]?.includes('usageGuide'))
      ) patch.usageGuide = r.usageGuide.trim();
      if (r.tags?.length) {
        patch.tags = [...new Set([...current.tags, ...r.tags.map((t) => t.trim().toLowerCase()).filter(Boolean)])];
      }
      const relations = cleanRelations(r.relations, r.id, knownIds);
      if (relations) patch.relations = mergeRelations(current.relations, relations);
      if (typeof r.confidence === 'number') patch.reasoning = { confidence: Math.min(1, Math.max(0, r.confidence)) };
      const changed = Object.keys(patch).map((
        k,
      ) => (k === 'reasoning' ? 'confidence' : k === 'rationale' ? 'insight' : k));
      if (changed.length) await updateCandidate(ws, r.id, patch, ctx.actor);
      refined.push({ id: r.id, changed });
    } catch (e) {
      if (isCancellation(e, ctx.signal)) throw e;
      failed.push({ id: r.id, error: (e as Error).message });
    }
  }
  return { refined, failed };
}

function cleanRelations(
  relations: Refinement['relations'],
  self: string,
  known: Set<string>,
): NonNullable<Candidate['relations']> | undefined {
  if (!relations) return undefined;
  const out: NonNullable<Candidate['relations']> = {};
  for (const type of RELATION_TYPES) {
    const ids = (relations[type] ?? []).filter((id) => typeof id === 'string' && id !== self && known.has(id));
    if (ids.length) out[type] = [...new Set(ids)];
  }
  return Object.keys(out).length ? out : undefined;
}

function mergeRelations(
  a: Candidate['relations'],
  b: NonNullable<Candidate['relations']>,
): NonNullable<Candidate['relations']> {
  const out: NonNullable<Candidate['relations']> = { ...(a ?? {}) };
  for (const type of RELATION_TYPES) if (b[type]) out[type] = [...new Set([...(out[type] ?? []), ...b[type]!])];
  return out;
}

// ------------------------------------------------------------------ discover_relations

export async function discoverRelations(
  ws: Workspace,
  input: { candidateIds?: string[]; limit?: number },
  ctx: AssistContext,
) {
  const skipped: { id: string; reason: string }[] = [];
  const limit = input.limit ?? 25;
  const items = input.candidateIds
    ? selectCandidates(ws, input.candidateIds, limit, skipped)
    : listCandidates(ws, { status: 'pending', limit });
  const list = items.map((c) => ({ id: c.id, title: c.title, summary: c.summary, knowledgeType: c.knowledgeType }));
  const next =
    'To record relations on pending candidates, call refine_bootstrap_candidates {"refinements": [{"id": from, "relations": {relation: [to]}}]}.';
  if (list.length < 2) {
    return {
      mode: ctx.model ? ('model' as const) : ('diagnostic' as const),
      relations: [],
      skipped,
      note: 'Fewer than two candidates: there is nothing to relate.',
    };
  }
  const prompt = relationsPrompt(list);
  if (!ctx.model) {
    return diagnosticAnswer(prompt, `Run the prompt; its answer is the list of relations. ${next}`, {
      candidates: list.map((c) => c.id),
      skipped,
    });
  }
  const answer = await completeJson<DiscoveredRelation[]>(ctx.model, prompt.user, checkRelations, {
    system: prompt.system,
    signal: ctx.signal,
    purpose: 'discover_relations',
    maxOutputTokens: 2000,
  });
  const ids = new Set(list.map((c) => c.id));
  const seen = new Set<string>();
  const relations = answer.filter((r) => {
    const key = `${r.from}|${r.relation}|${r.to}`;
    if (r.from === r.to || !ids.has(r.from) || !ids.has(r.to) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { mode: 'model' as const, relations, dropped: answer.length - relations.length, skipped, next };
}

// ------------------------------------------------------------------ generate_guard_rule

export interface GuardRuleInput {
  description: string;
  language: string;
  badExamples: string[];
  goodExamples?: string[];
  rule?: ProposedRegexRule;
  maxAttempts?: number;
}

export async function generateGuardRule(input: GuardRuleInput, ctx: AssistContext) {
  const good = input.goodExamples ?? [];
  const next = (check: RuleCheck) =>
    check.passes
      ? 'The rule reports every bad example and no good one. Propose it for review: submit_candidate with knowledgeType "code-standard" and constraints.guards [{pattern, message, in, include, examples: {bad, good}}] (the rule format of .autosnippet/guard/*.json), or add it to .autosnippet/guard/ through a person.'
      : 'The rule does not pass its examples yet: fix the regex and call generate_guard_rule again with rule set.';
  if (input.rule) {
    const rule = toGuardRule(input.rule, input.language);
    const check = checkRuleAgainstExamples(rule, input.language, input.badExamples, good);
    return { mode: 'checked' as const, rule, check, proposed: check.passes, next: next(check) };
  }
  const prompt = guardRulePrompt({
    description: input.description,
    language: input.language,
    badExamples: input.badExamples,
    goodExamples: good,
  });
  if (!ctx.model) {
    return diagnosticAnswer(
      prompt,
      'Run the prompt, then call generate_guard_rule again with the same input plus "rule": <the JSON answer>; it is checked against the examples before it is proposed.',
    );
  }

  const messages: ChatMessage[] = [userText(prompt.user)];
  const attempts = Math.min(3, Math.max(1, input.maxAttempts ?? 3));
  let last: { rule: ReturnType<typeof toGuardRule>; check: RuleCheck } | undefined;
  let lastProblem = '';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const response = await ctx.model.send({
      system: prompt.system,
      messages,
      purpose: 'generate_guard_rule',
      maxOutputTokens: 800,
      temperature: 0,
    }, ctx.signal);
    messages.push(assistantText(response.text));
    const parsed = extractJson(response.text);
    const problems = parsed.ok ? checkGuardRuleAnswer(parsed.value) : [parsed.error];
    if (!parsed.ok || problems.length) {
      lastProblem = problems.join('; ');
      messages.push(userText(`That answer cannot be used: ${lastProblem}. Answer again with only the JSON object.`));
      continue;
    }
    const rule = toGuardRule(parsed.value as ProposedRegexRule, input.language);
    const check = checkRuleAgainstExamples(rule, input.language, input.badExamples, good);
    last = { rule, check };
    if (check.passes) {
      return { mode: 'model' as const, attempts: attempt, rule, check, proposed: true, next: next(check) };
    }
    messages.push(
      userText(
        `The rule fails its examples: ${
          check.problems.join('; ')
        }. Fix the regex and answer again with the whole JSON object.`,
      ),
    );
  }
  if (!last) {
    throw new AutoSnippetError(
      'MODEL_BAD_ANSWER',
      `The model gave no usable rule in ${attempts} attempts: ${lastProblem}.`,
      'Describe the rule more precisely, add examples, or write the rule and pass it as `rule` to have it checked.',
    );
  }
  return {
    mode: 'model' as const,
    attempts,
    rule: last.rule,
    check: last.check,
    proposed: false,
    next: next(last.check),
  };
}

// ------------------------------------------------------------------ helpers

function requirePending(c: Candidate): void {
  if (c.status !== 'pending') {
    throw new AutoSnippetError(
      ErrorCode.InvalidInput,
      `Candidate ${c.id} is ${c.status}; only pending candidates are enriched.`,
      'Pick a pending candidate.',
    );
  }
}

function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === 'string' && !v.trim()) || (Array.isArray(v) && v.length === 0);
}
