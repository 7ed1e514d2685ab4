import { AutoSnippetError } from '../errors';
import { readRepoFile, shownPath } from '../files';
import type { Workspace } from '../workspace';
import {
  checkDuplicate, ensureIndexFresh, findRecipeRow, getCandidate, knowledgeOverview, listCandidates, listRecipes, missingFields, parseRecipeFile, readRecipe,
  recipeInsight, recordUsage, submitCandidates, syncRecipes, updateCandidate, usageOf, validateCandidate, type CandidateInput, type RecipeKind, type UsageEvent,
} from '../knowledge';
import { history } from '../knowledge/insights';
import { qualityScores } from '../knowledge/quality';
import { recipeMeta } from '../knowledge/recipes';
import { transitionsOf } from '../knowledge/transitions';
import { candidateAliases, candidateProperties, candidateRef, candidateSchema, recipeRef, usageEvents } from './knowledge-schemas';
import { searchTools } from './search';
import { reviewTools } from './knowledge-review';
import { defineTool, type ToolDefinition } from './types';

const BATCH_MAX = 50;

/** Every knowledge tool first catches the index up with the files (cheap when nothing changed). */
async function fresh(ws: Workspace): Promise<void> {
  await ensureIndexFresh(ws);
}

const submitCandidate = defineTool<CandidateInput, unknown>({
  name: 'submit_candidate',
  title: 'Submit a knowledge candidate',
  domain: 'knowledge',
  summary: 'Propose one piece of project knowledge (a rule, pattern or fact) for a person to review.',
  description:
    'Records a proposal as a pending candidate that a person approves or rejects. Only `title` is required, but a reviewer needs: summary, the code from the project, language, category, knowledgeType, ' +
    'and reasoning {whyStandard, sources as `path:line`, confidence}. The answer carries a validation (each missing or weak field) and the nearest existing recipes. ' +
    'Submitting the same thing twice does not create it twice: the answer says `duplicate` and names the existing one. Call check_duplicate first when unsure.',
  inputSchema: candidateSchema,
  aliases: candidateAliases,
  access: 'propose',
  maxOutputChars: 6000,
  confirmation: (input) => ({ title: 'Propose knowledge?', message: `Add "${input.title}" to the candidates a person reviews.` }),
  async handler(ws, input, ctx) {
    await fresh(ws);
    const validation = validateCandidate(input);
    const result = await submitCandidates(ws, [input], ctx.actor);
    const dup = result.duplicates[0];
    const near = dup ? undefined : await checkDuplicate(ws, input, 3);
    return {
      id: dup?.existing ?? result.created[0],
      status: dup ? 'duplicate' : 'created',
      ...(dup ? { hint: `It is already known as ${dup.existing}; nothing was created.` } : {}),
      validation: { ok: validation.ok, score: validation.score, missing: missingFields(validation), issues: validation.issues },
      ...(near && near.verdict !== 'unique' ? { similar: near.recipes.filter((r) => r.similarity >= 0.6), similarHint: near.hint } : {}),
    };
  },
});

const submitCandidatesTool = defineTool<{ candidates: CandidateInput[] }, unknown>({
  name: 'submit_candidates',
  title: 'Submit knowledge candidates',
  domain: 'knowledge',
  summary: `Propose up to ${BATCH_MAX} candidates at once; duplicates are reported, not created.`,
  description:
    `Records several proposals as pending candidates in one go (at most ${BATCH_MAX}). Each has the fields of submit_candidate. ` +
    'The answer lists the ids created, the inputs (by index) that duplicate an existing candidate or recipe, and per created candidate the fields still missing.',
  inputSchema: { type: 'object', properties: { candidates: { type: 'array', items: candidateSchema, minItems: 1 } }, required: ['candidates'], additionalProperties: false },
  aliases: { items: 'candidates' },
  access: 'propose',
  batch: { field: 'candidates', max: BATCH_MAX },
  maxOutputChars: 10000,
  confirmation: (input) => ({ title: 'Propose knowledge?', message: `Add ${input.candidates?.length ?? 0} candidates for a person to review.` }),
  async handler(ws, input, ctx) {
    await fresh(ws);
    const result = await submitCandidates(ws, input.candidates, ctx.actor);
    const dupIdx = new Set(result.duplicates.map((d) => d.input));
    const missing = input.candidates
      .map((c, i) => ({ i, c }))
      .filter(({ i }) => !dupIdx.has(i))
      .map(({ c }, k) => ({ id: result.created[k], missing: missingFields(validateCandidate(c)) }))
      .filter((m) => m.missing.length);
    return { ...result, missing, ...(missing.length ? { hint: 'enrich_candidates explains each missing field; fill them in with update_candidate.' } : {}) };
  },
});

const submitDraftRecipes = defineTool<{ files?: string[]; drafts?: { markdown: string; file?: string }[] }, unknown>({
  name: 'submit_draft_recipes',
  title: 'Submit draft recipe files',
  domain: 'knowledge',
  summary: 'Propose recipes written as Markdown drafts (files in the workspace, or text) as candidates.',
  description:
    'Reads recipe drafts in the recipe file format (YAML frontmatter with title, summary, language, category, knowledgeType, tags…, and a body with the code in a fenced block) ' +
    'and records each as a pending candidate. Pass `files` (workspace-relative paths of .md drafts you wrote) or `drafts` (the Markdown text). ' +
    'A draft that cannot be read is reported with the file and field at fault; the others are still submitted. Nothing is published: a person reviews every candidate.',
  inputSchema: {
    type: 'object',
    properties: {
      files: { type: 'array', items: { type: 'string' }, description: 'Workspace-relative paths of Markdown drafts.' },
      drafts: { type: 'array', items: { type: 'object', properties: { markdown: { type: 'string', minLength: 1 }, file: { type: 'string' } }, required: ['markdown'], additionalProperties: false } },
    },
    additionalProperties: false,
  },
  access: 'propose',
  batch: { field: 'files', max: BATCH_MAX },
  maxOutputChars: 10000,
  async handler(ws, input, ctx) {
    if ((input.drafts?.length ?? 0) > BATCH_MAX) throw new AutoSnippetError('BATCH_TOO_LARGE', `submit_draft_recipes takes at most ${BATCH_MAX} drafts; got ${input.drafts!.length}.`, `Split into calls of ${BATCH_MAX}.`);
    if (!input.files?.length && !input.drafts?.length) throw new AutoSnippetError('INVALID_INPUT', 'Pass `files` or `drafts`.', 'files: ["drafts/fetch-retry.md"] or drafts: [{ markdown: "---\\ntitle: …\\n---\\n…" }]');
    await fresh(ws);
    const texts: { name: string; text: string }[] = [];
    const problems: { file: string; field?: string; message: string }[] = [];
    for (const f of input.files ?? []) {
      // Only regular files whose real location is inside the workspace: a link to a file outside is refused.
      try {
        texts.push({ name: f, text: (await readRepoFile(ws.root, f, { kind: 'recipe', signal: ctx.signal })).text });
      } catch (e) {
        problems.push({ file: shownPath(f), message: (e as Error).message });
      }
    }
    (input.drafts ?? []).forEach((d, i) => texts.push({ name: d.file ?? `drafts[${i}]`, text: d.markdown }));
    const inputs: CandidateInput[] = [];
    const names: string[] = [];
    for (const t of texts) {
      const parsed = parseRecipeFile(t.text, t.name);
      if (!parsed.ok) {
        problems.push(...parsed.problems);
        continue;
      }
      const { id: _id, kind: _k, status: _s, file: _f, candidateId: _c, createdBy: _cb, createdAt: _ca, approvedBy: _ab, approvedAt: _aa, publishedBy: _pb, publishedAt: _pa, deprecatedBy: _db, deprecatedAt: _da, deprecationReason: _dr, ...content } = parsed.recipe;
      inputs.push({ ...content, origin: 'draft-file', reasoning: { sources: content.sourceFiles ?? [] } });
      names.push(t.name);
    }
    const result = inputs.length ? await submitCandidates(ws, inputs, ctx.actor) : { created: [], duplicates: [] };
    return {
      created: result.created,
      duplicates: result.duplicates.map((d) => ({ draft: names[d.input], existing: d.existing })),
      problems,
    };
  },
});

const validateCandidateTool = defineTool<{ id?: string; candidate?: CandidateInput }, unknown>({
  name: 'validate_candidate',
  title: 'Validate a candidate',
  domain: 'knowledge',
  summary: 'Names each missing, weak or invalid field of a proposal, with what to write.',
  description:
    'Checks a proposal field by field before (or after) you submit it: pass `candidate` (the fields of submit_candidate) or `id` of a submitted candidate. ' +
    'Returns ok (no missing or invalid field), a score 0..1, and one issue per field at fault with severity missing, weak or invalid and what to write instead.',
  inputSchema: { type: 'object', properties: { id: candidateRef, candidate: candidateSchema }, additionalProperties: false },
  access: 'read',
  maxOutputChars: 6000,
  handler(ws, input) {
    const c = input.id ? getCandidate(ws, input.id) : input.candidate;
    if (!c) throw new AutoSnippetError('INVALID_INPUT', 'Pass `candidate` (the fields) or `id` (a submitted candidate).', 'e.g. { "candidate": { "title": "…", "summary": "…" } }');
    const v = validateCandidate(c);
    return { ...(input.id ? { id: input.id } : {}), ok: v.ok, score: v.score, missing: missingFields(v), issues: v.issues };
  },
});

const checkDuplicateTool = defineTool<{ id?: string; title?: string; summary?: string; code?: string; trigger?: string; language?: string; limit?: number }, unknown>({
  name: 'check_duplicate',
  title: 'Check for duplicates',
  domain: 'knowledge',
  summary: 'The existing recipes nearest to a proposal, with similarity scores and a verdict.',
  description:
    'Before proposing knowledge, checks whether the project already has it: returns the nearest recipes (and pending candidates) with a similarity 0..1 and what makes them close ' +
    '(same trigger, similar title, close in meaning), and a verdict: duplicate (≥ 0.85: do not submit), similar (≥ 0.6: submit only if yours adds something) or unique. ' +
    'Pass the proposal\'s title (and summary, code when you have them), or `id` of a submitted candidate.',
  inputSchema: {
    type: 'object',
    properties: {
      id: candidateRef,
      title: candidateProperties.title,
      summary: candidateProperties.summary,
      code: candidateProperties.code,
      trigger: candidateProperties.trigger,
      language: candidateProperties.language,
      limit: { type: 'integer', minimum: 1, maximum: 20, default: 5 },
    },
    additionalProperties: false,
  },
  aliases: { description: 'summary', content: 'code' },
  access: 'read',
  maxOutputChars: 6000,
  async handler(ws, input) {
    await fresh(ws);
    const c = input.id ? getCandidate(ws, input.id) : input.title ? { ...input, title: input.title } : undefined;
    if (!c) throw new AutoSnippetError('INVALID_INPUT', 'Pass `title` (and summary, code) of the proposal, or `id` of a submitted candidate.');
    const report = await checkDuplicate(ws, c, input.limit ?? 5);
    if (input.id) report.candidates = report.candidates.filter((x) => x.id !== input.id);
    return report;
  },
});

const enrichCandidates = defineTool<{ ids?: string[]; limit?: number }, unknown>({
  name: 'enrich_candidates',
  title: 'What candidates lack',
  domain: 'knowledge',
  summary: 'Lists what each pending candidate lacks, so you can fill it in with update_candidate.',
  description:
    'For the given candidates (or the pending ones, weakest first) lists each missing or weak field with what to write. AutoSnippet calls no model here: you, the calling agent, ' +
    'read the cited sources and fill the fields in with update_candidate {id, …fields}. Candidates with nothing missing are left out.',
  inputSchema: { type: 'object', properties: { ids: { type: 'array', items: { type: 'string' } }, limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 } }, additionalProperties: false },
  access: 'read',
  maxOutputChars: 12000,
  paginate: 'candidates',
  handler(ws, input) {
    const list = input.ids?.length ? input.ids.map((id) => getCandidate(ws, id)) : listCandidates(ws, { status: 'pending', limit: 500 });
    const rows = list
      .map((c) => ({ c, v: validateCandidate(c) }))
      .filter(({ v }) => v.issues.length)
      .sort((a, b) => a.v.score - b.v.score)
      .slice(0, input.ids?.length ? undefined : input.limit ?? 20)
      .map(({ c, v }) => ({ id: c.id, title: c.title, status: c.status, score: v.score, sources: c.reasoning.sources.slice(0, 5), fill: v.issues.map((i) => ({ field: i.field, severity: i.severity, what: i.message })) }));
    return { total: rows.length, candidates: rows, next: 'For each, read its sources and call update_candidate with the fields under `fill`.' };
  },
});

const updateCandidateTool = defineTool<{ id: string } & Partial<CandidateInput>, unknown>({
  name: 'update_candidate',
  title: 'Update a pending candidate',
  domain: 'knowledge',
  summary: 'Fill in or correct fields of a pending candidate (what enrich_candidates asked for).',
  description: 'Changes fields of a pending candidate; fields you leave out keep their value. Approved and rejected candidates cannot change (INVALID_TRANSITION). Returns the new validation.',
  inputSchema: { type: 'object', properties: { id: candidateRef, ...candidateProperties, title: { ...candidateProperties.title } }, required: ['id'], additionalProperties: false },
  aliases: candidateAliases,
  access: 'propose',
  maxOutputChars: 6000,
  async handler(ws, input, ctx) {
    const { id, ...patch } = input;
    const c = await updateCandidate(ws, id, patch, ctx.actor);
    const v = validateCandidate(c);
    return { id: c.id, status: c.status, validation: { ok: v.ok, score: v.score, missing: missingFields(v), issues: v.issues } };
  },
});

const listCandidatesTool = defineTool<{ status?: 'pending' | 'approved' | 'rejected' | 'any'; origin?: string; limit?: number }, unknown>({
  name: 'list_candidates',
  title: 'List candidates',
  domain: 'knowledge',
  summary: 'Proposed knowledge waiting for review (pending first), or decided.',
  description: 'Lists candidates with their status, kind, language, category, confidence, origin and who proposed them; pending first, newest first. Filter by status or origin (e.g. "bootstrap").',
  inputSchema: {
    type: 'object',
    properties: { status: { enum: ['pending', 'approved', 'rejected', 'any'], default: 'pending' }, origin: { type: 'string' }, limit: { type: 'integer', minimum: 1, maximum: 1000, default: 200 } },
    additionalProperties: false,
  },
  access: 'read',
  maxOutputChars: 12000,
  paginate: 'candidates',
  handler(ws, input) {
    const list = listCandidates(ws, { status: input.status ?? 'pending', origin: input.origin, limit: input.limit ?? 200 });
    return {
      total: list.length,
      candidates: list.map((c) => ({
        id: c.id, title: c.title, status: c.status, kind: c.kind, knowledgeType: c.knowledgeType, language: c.language, category: c.category, summary: c.summary,
        confidence: c.reasoning.confidence, origin: c.origin, createdBy: c.createdBy, createdAt: c.createdAt, ...(c.recipeId ? { recipeId: c.recipeId } : {}), ...(c.rejectionReason ? { rejectionReason: c.rejectionReason } : {}),
      })),
    };
  },
});

const getCandidateTool = defineTool<{ id: string }, unknown>({
  name: 'get_candidate',
  title: 'Get a candidate',
  domain: 'knowledge',
  summary: 'One candidate in full: content, reasoning, status and history.',
  description: 'Returns a candidate with every field, its reasoning (whyStandard, sources, confidence), its status and the transitions recorded for it.',
  inputSchema: { type: 'object', properties: { id: candidateRef }, required: ['id'], additionalProperties: false },
  aliases: { candidateId: 'id' },
  access: 'read',
  maxOutputChars: 16000,
  handler(ws, input) {
    const c = getCandidate(ws, input.id);
    return { ...c, history: transitionsOf(ws, 'candidate', c.id) };
  },
});

function listTool(name: string, kind: RecipeKind | undefined, title: string, summary: string, description: string): ToolDefinition {
  return defineTool<{ kind?: RecipeKind; status?: 'draft' | 'published' | 'deprecated' | 'any'; category?: string; language?: string; tag?: string }, unknown>({
    name,
    title,
    domain: 'knowledge',
    summary,
    description:
      description +
      ' Each entry: id, title, trigger, kind, knowledgeType, language, category, status, summary, tags, quality. Deprecated recipes only with status "deprecated" or "any". Use get_recipe for the code.',
    inputSchema: {
      type: 'object',
      properties: {
        ...(kind ? {} : { kind: { type: 'string', enum: ['rule', 'pattern', 'fact'] } }),
        status: { type: 'string', enum: ['draft', 'published', 'deprecated', 'any'] },
        category: { type: 'string' },
        language: { type: 'string' },
        tag: { type: 'string' },
      },
      additionalProperties: false,
    },
    access: 'read',
    maxOutputChars: 12000,
    paginate: 'recipes',
    async handler(ws, input) {
      await fresh(ws);
      const recipes = listRecipes(ws, { ...input, kind: kind ?? input.kind });
      const problems = ws.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM recipe_file_problems')?.n ?? 0;
      return {
        total: recipes.length,
        recipes: recipes.map(({ updatedAt: _u, ...r }) => r),
        ...(problems ? { filesWithProblems: problems, hint: 'Some recipe files could not be read: rebuild_index lists them with the field at fault.' } : {}),
      };
    },
  });
}

const getRecipe = defineTool<{ id: string; history?: boolean }, unknown>({
  name: 'get_recipe',
  title: 'Get a recipe',
  domain: 'knowledge',
  summary: 'One recipe in full: code, usage guide, rationale, steps, constraints, quality and usage.',
  description:
    'Returns one recipe (by id, trigger such as "@fetchWithRetry", or file path) with all its fields: summary, usage guide, the code, rationale, steps, tags, relations, constraints, source files, ' +
    'status and who created, approved and published it, plus quality scores and usage counts. history: true adds the status history. An unknown id fails with RECIPE_NOT_FOUND and the closest ids.',
  inputSchema: { type: 'object', properties: { id: recipeRef, history: { type: 'boolean', default: false } }, required: ['id'], additionalProperties: false },
  aliases: { recipeId: 'id', trigger: 'id', name: 'id' },
  access: 'read',
  maxOutputChars: 20000,
  async handler(ws, input) {
    await fresh(ws);
    const recipe = await readRecipe(ws, input.id);
    const row = findRecipeRow(ws, recipe.id);
    const usage = usageOf(ws, [recipe.id]).get(recipe.id)!;
    return { ...recipe, quality: qualityScores(recipeMeta(row).quality, usage), usage, ...(input.history ? { history: history(ws, recipe) } : {}) };
  },
});

const recipeInsights = defineTool<{ id?: string }, unknown>({
  name: 'recipe_insights',
  title: 'Recipe insights',
  domain: 'knowledge',
  summary: 'Quality, usage and gaps: of one recipe, or of the whole knowledge base.',
  description:
    'With `id`: one recipe\'s quality scores (completeness, clarity, evidence, adoption) and what would raise them, its usage, status history, relations (and whether their targets exist), ' +
    'what refers to it and its nearest recipes. Without: the knowledge base at a glance — counts by status, kind and category, candidates by status, the most used and never used recipes, ' +
    'the lowest quality ones with what they lack, duplicate triggers and recipe files that could not be read.',
  inputSchema: { type: 'object', properties: { id: recipeRef }, additionalProperties: false },
  aliases: { recipeId: 'id' },
  access: 'read',
  maxOutputChars: 12000,
  async handler(ws, input) {
    await fresh(ws);
    return input.id ? recipeInsight(ws, input.id) : knowledgeOverview(ws);
  },
});

const confirmUsage = defineTool<{ id: string; event?: UsageEvent; count?: number }, unknown>({
  name: 'confirm_usage',
  title: 'Confirm a recipe was used',
  domain: 'knowledge',
  summary: 'Record that a recipe was adopted, applied, viewed, or found helpful or not.',
  description:
    'Counts a use of a recipe, which feeds its quality and its rank in context_search: `adoption` (you wrote code following it; the default), `application` (you applied its code), ' +
    '`view`, `helpful` / `unhelpful` (feedback), `guard_hit` (its guard pattern caught something). Counters only; nothing else is stored.',
  inputSchema: {
    type: 'object',
    properties: { id: recipeRef, event: { type: 'string', enum: usageEvents, default: 'adoption' }, count: { type: 'integer', minimum: 1, maximum: 1000, default: 1 } },
    required: ['id'],
    additionalProperties: false,
  },
  aliases: { recipeId: 'id', usageType: 'event', type: 'event' },
  access: 'propose',
  maxOutputChars: 2000,
  async handler(ws, input) {
    await fresh(ws);
    return recordUsage(ws, input.id, input.event ?? 'adoption', input.count ?? 1);
  },
});

const rebuildIndex = defineTool<{ force?: boolean }, unknown>({
  name: 'rebuild_index',
  title: 'Rebuild the recipe index',
  domain: 'knowledge',
  summary: 'Re-read every recipe file into the index; lists files that cannot be read and why.',
  description:
    'Brings the database in line with the recipe files under .autosnippet/recipes (they are the truth): adds, updates, renames and removes index rows, re-embeds vectors. ' +
    'force (default true) re-reads every file even when unchanged. Reports what changed and every file that could not be read, naming the file and the field at fault. Usage counts are kept.',
  inputSchema: { type: 'object', properties: { force: { type: 'boolean', default: true } }, additionalProperties: false },
  access: 'propose',
  maxOutputChars: 12000,
  async handler(ws, input, ctx) {
    const report = await syncRecipes(ws, { force: input.force ?? true, signal: ctx.signal, progress: (done, total) => ctx.progress?.({ message: 'Indexing recipes', done, total }) });
    return { ...report, added: report.added.length, updated: report.updated.length, addedIds: report.added.slice(0, 50), updatedIds: report.updated.slice(0, 50) };
  },
});

export const knowledgeTools: ToolDefinition[] = [
  submitCandidate,
  submitCandidatesTool,
  submitDraftRecipes,
  validateCandidateTool,
  checkDuplicateTool,
  enrichCandidates,
  updateCandidateTool,
  listCandidatesTool,
  getCandidateTool,
  listTool('list_recipes', undefined, 'List recipes', 'Every recipe (rules, patterns, facts) by category, without code.', 'Lists the project\'s recipes by category, filtered by kind, status, category, language or tag.'),
  getRecipe,
  listTool('list_rules', 'rule', 'List rules', 'The project\'s rules: what code here must or must not do.', 'Lists the recipes of kind rule (code standards, best practices, boundary constraints…).'),
  listTool('list_patterns', 'pattern', 'List patterns', 'The project\'s patterns: how things are done here, with code.', 'Lists the recipes of kind pattern (code patterns, architecture, solutions).'),
  listTool('list_facts', 'fact', 'List facts', 'Facts about the project: call chains, data flow, module dependencies.', 'Lists the recipes of kind fact (call chains, data and event flow, module dependencies, project profile).'),
  recipeInsights,
  confirmUsage,
  ...searchTools,
  rebuildIndex,
  ...reviewTools,
];
