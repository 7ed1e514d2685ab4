import { AutoSnippetError } from '../kernel/errors';
import { readRepoFile, shownPath } from '../files';
import type { Workspace } from '../workspace';
import {
  checkDuplicate, ensureIndexFresh, findRecipeRow, getCandidate, knowledgeOverview, listCandidates, listRecipes, missingFields, parseRecipeFile, readRecipe,
  recipeInsight, recordUsage, submitCandidates, syncRecipes, updateCandidate, usageOf, validateCandidate, type CandidateInput, type RecipeKind,
} from '../knowledge';
import { history } from '../knowledge/insights';
import { qualityScores } from '../knowledge/quality';
import { recipeMeta } from '../knowledge/recipes';
import { transitionsOf } from '../knowledge/transitions';
import { candidateAliases, candidateOut, candidateProperties, candidateRef, candidateSchema, KINDS, recipeOut, recipeRef, usageEvents, validationSchema } from './knowledge-schemas';
import { searchTools } from './search';
import { reviewTools } from './knowledge-review';
import { defineTool, type AnyTool } from './types';
import type { DuplicateReport } from '../knowledge/duplicates';
import type { SyncReport } from '../knowledge/recipe-index';
import type { RecipeSummary } from '../knowledge/recipes';
import type { StatusChange, UsageStats } from '../knowledge/types';
import { Code, Domain, FilePath, Input, List, Name, Opt, Out, StringEnum, Type } from './schema';

const problemsOut = Type.Array(Out({ file: Type.String(), field: Opt(Type.String()), message: Type.String() }));
const candidateStatus = ['pending', 'approved', 'rejected'] as const;
const recipeStatus = ['draft', 'published', 'deprecated'] as const;

const BATCH_MAX = 50;

/** Every knowledge tool first catches the index up with the files (cheap when nothing changed). */
async function fresh(ws: Workspace): Promise<void> {
  await ensureIndexFresh(ws);
}

const submitCandidate = defineTool({
  name: 'submit_candidate',
  title: 'Submit a knowledge candidate',
  domain: 'knowledge',
  summary: 'Propose one piece of project knowledge (a rule, pattern or fact) for a person to review.',
  description:
    'Records a proposal as a pending candidate that a person approves or rejects. Only `title` is required, but a reviewer needs: summary, the code from the project, language, category, knowledgeType, ' +
    'and reasoning {whyStandard, sources as `path:line`, confidence}. The answer carries a validation (each missing or weak field) and the nearest existing recipes. ' +
    'Submitting the same thing twice does not create it twice: the answer says `duplicate` and names the existing one. Call check_duplicate first when unsure.',
  inputSchema: candidateSchema,
  outputSchema: Out({
    id: Type.String(),
    status: StringEnum(['created', 'duplicate']),
    hint: Opt(Type.String()),
    validation: validationSchema,
    similar: Opt(Domain<DuplicateReport['recipes']>('Existing recipes close to it (similarity ≥ 0.6).', 'array')),
    similarHint: Opt(Type.String()),
  }),
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
      status: dup ? ('duplicate' as const) : ('created' as const),
      ...(dup ? { hint: `It is already known as ${dup.existing}; nothing was created.` } : {}),
      validation: { ok: validation.ok, score: validation.score, missing: missingFields(validation), issues: validation.issues },
      ...(near && near.verdict !== 'unique' ? { similar: near.recipes.filter((r) => r.similarity >= 0.6), similarHint: near.hint } : {}),
    };
  },
});

const submitCandidatesTool = defineTool({
  name: 'submit_candidates',
  title: 'Submit knowledge candidates',
  domain: 'knowledge',
  summary: `Propose up to ${BATCH_MAX} candidates at once; duplicates are reported, not created.`,
  description:
    `Records several proposals as pending candidates in one go (at most ${BATCH_MAX}). Each has the fields of submit_candidate. ` +
    'The answer lists the ids created, the inputs (by index) that duplicate an existing candidate or recipe, and per created candidate the fields still missing.',
  inputSchema: Input({ candidates: List(candidateSchema, BATCH_MAX * 2, { minItems: 1 }) }),
  outputSchema: Out({
    created: Type.Array(Type.String()),
    duplicates: Type.Array(Out({ input: Type.Integer(), existing: Type.String() })),
    missing: Type.Array(Out({ id: Type.String(), missing: Type.Array(Type.String()) })),
    hint: Opt(Type.String()),
  }),
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

const submitDraftRecipes = defineTool({
  name: 'submit_draft_recipes',
  title: 'Submit draft recipe files',
  domain: 'knowledge',
  summary: 'Propose recipes written as Markdown drafts (files in the workspace, or text) as candidates.',
  description:
    'Reads recipe drafts in the recipe file format (YAML frontmatter with title, summary, language, category, knowledgeType, tags…, and a body with the code in a fenced block) ' +
    'and records each as a pending candidate. Pass `files` (workspace-relative paths of .md drafts you wrote) or `drafts` (the Markdown text). ' +
    'A draft that cannot be read is reported with the file and field at fault; the others are still submitted. Nothing is published: a person reviews every candidate.',
  inputSchema: Input({
    files: Opt(List(FilePath(), BATCH_MAX * 2, { description: 'Workspace-relative paths of Markdown drafts.' })),
    drafts: Opt(List(Input({ markdown: Code(undefined, { minLength: 1, maxLength: 60_000 }), file: Opt(FilePath()) }), BATCH_MAX * 2)),
  }),
  outputSchema: Out({ created: Type.Array(Type.String()), duplicates: Type.Array(Out({ draft: Type.String(), existing: Type.String() })), problems: problemsOut }),
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

const validateCandidateTool = defineTool({
  name: 'validate_candidate',
  title: 'Validate a candidate',
  domain: 'knowledge',
  summary: 'Names each missing, weak or invalid field of a proposal, with what to write.',
  description:
    'Checks a proposal field by field before (or after) you submit it: pass `candidate` (the fields of submit_candidate) or `id` of a submitted candidate. ' +
    'Returns ok (no missing or invalid field), a score 0..1, and one issue per field at fault with severity missing, weak or invalid and what to write instead.',
  inputSchema: Input({ id: Opt(candidateRef()), candidate: Opt(candidateSchema) }),
  outputSchema: Out({ id: Opt(Type.String()), ...validationSchema.properties }),
  access: 'read',
  maxOutputChars: 6000,
  handler(ws, input) {
    const c = input.id ? getCandidate(ws, input.id) : input.candidate;
    if (!c) throw new AutoSnippetError('INVALID_INPUT', 'Pass `candidate` (the fields) or `id` (a submitted candidate).', 'e.g. { "candidate": { "title": "…", "summary": "…" } }');
    const v = validateCandidate(c);
    return { ...(input.id ? { id: input.id } : {}), ok: v.ok, score: v.score, missing: missingFields(v), issues: v.issues };
  },
});

const checkDuplicateTool = defineTool({
  name: 'check_duplicate',
  title: 'Check for duplicates',
  domain: 'knowledge',
  summary: 'The existing recipes nearest to a proposal, with similarity scores and a verdict.',
  description:
    'Before proposing knowledge, checks whether the project already has it: returns the nearest recipes (and pending candidates) with a similarity 0..1 and what makes them close ' +
    '(same trigger, similar title, close in meaning), and a verdict: duplicate (≥ 0.85: do not submit), similar (≥ 0.6: submit only if yours adds something) or unique. ' +
    'Pass the proposal\'s title (and summary, code when you have them), or `id` of a submitted candidate.',
  inputSchema: Input({
    id: Opt(candidateRef()),
    title: Opt(candidateProperties.title),
    summary: candidateProperties.summary,
    code: candidateProperties.code,
    trigger: candidateProperties.trigger,
    language: candidateProperties.language,
    limit: Opt(Type.Integer({ minimum: 1, maximum: 20, default: 5 })),
  }),
  outputSchema: Domain<DuplicateReport>('The nearest recipes and candidates with similarity, reasons and a verdict.'),
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

const enrichCandidates = defineTool({
  name: 'enrich_candidates',
  title: 'What candidates lack',
  domain: 'knowledge',
  summary: 'Lists what each pending candidate lacks, so you can fill it in with update_candidate.',
  description:
    'For the given candidates (or the pending ones, weakest first) lists each missing or weak field with what to write. AutoSnippet calls no model here: you, the calling agent, ' +
    'read the cited sources and fill the fields in with update_candidate {id, …fields}. Candidates with nothing missing are left out.',
  inputSchema: Input({ ids: Opt(List(candidateRef(), 100)), limit: Opt(Type.Integer({ minimum: 1, maximum: 100, default: 20 })) }),
  outputSchema: Out({
    total: Type.Integer(),
    candidates: Type.Array(Out({
      id: Type.String(), title: Type.String(), status: StringEnum(candidateStatus), score: Type.Number(), sources: Type.Array(Type.String()),
      fill: Type.Array(Out({ field: Type.String(), severity: Type.String(), what: Type.String() })),
    })),
    next: Type.String(),
  }),
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

const updateCandidateTool = defineTool({
  name: 'update_candidate',
  title: 'Update a pending candidate',
  domain: 'knowledge',
  summary: 'Fill in or correct fields of a pending candidate (what enrich_candidates asked for).',
  description: 'Changes fields of a pending candidate; fields you leave out keep their value. Approved and rejected candidates cannot change (INVALID_TRANSITION). Returns the new validation.',
  inputSchema: Input({ id: candidateRef(), ...candidateProperties, title: Opt(candidateProperties.title) }),
  outputSchema: Out({ id: Type.String(), status: StringEnum(candidateStatus), validation: validationSchema }),
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

const listCandidatesTool = defineTool({
  name: 'list_candidates',
  title: 'List candidates',
  domain: 'knowledge',
  summary: 'Proposed knowledge waiting for review (pending first), or decided.',
  description: 'Lists candidates with their status, kind, language, category, confidence, origin and who proposed them; pending first, newest first. Filter by status or origin (e.g. "bootstrap").',
  inputSchema: Input({
    status: Opt(StringEnum([...candidateStatus, 'any'], { default: 'pending' })),
    origin: Opt(Name('Only candidates from this origin, e.g. "bootstrap" (a prefix).')),
    limit: Opt(Type.Integer({ minimum: 1, maximum: 1000, default: 200 })),
  }),
  outputSchema: Out({
    total: Type.Integer(),
    candidates: Type.Array(Out({
      id: Type.String(), title: Type.String(), status: StringEnum(candidateStatus), kind: StringEnum(KINDS), knowledgeType: Type.String(), language: Type.String(), category: Type.String(),
      summary: Type.String(), confidence: Type.Number(), origin: Type.String(), createdBy: Type.String(), createdAt: Type.String(), recipeId: Opt(Type.String()), rejectionReason: Opt(Type.String()),
    })),
  }),
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

const getCandidateTool = defineTool({
  name: 'get_candidate',
  title: 'Get a candidate',
  domain: 'knowledge',
  summary: 'One candidate in full: content, reasoning, status and history.',
  description: 'Returns a candidate with every field, its reasoning (whyStandard, sources, confidence), its status and the transitions recorded for it.',
  inputSchema: Input({ id: candidateRef() }),
  outputSchema: Type.Intersect([candidateOut, Out({ history: Domain<StatusChange[]>('Its status changes, oldest first.', 'array') })]),
  aliases: { candidateId: 'id' },
  access: 'read',
  maxOutputChars: 16000,
  handler(ws, input) {
    const c = getCandidate(ws, input.id);
    return { ...c, history: transitionsOf(ws, 'candidate', c.id) };
  },
});

const recipeListOut = Out({
  total: Type.Integer(),
  recipes: Domain<Omit<RecipeSummary, 'updatedAt'>[]>('id, title, trigger, kind, knowledgeType, language, category, status, summary, tags, quality and file of each recipe.', 'array'),
  filesWithProblems: Opt(Type.Integer()),
  hint: Opt(Type.String()),
});

const kindFilter = () => Opt(StringEnum(KINDS));

function listTool(name: string, kind: RecipeKind | undefined, title: string, summary: string, description: string) {
  return defineTool({
    name,
    title,
    domain: 'knowledge',
    summary,
    description:
      description +
      ' Each entry: id, title, trigger, kind, knowledgeType, language, category, status, summary, tags, quality. Deprecated recipes only with status "deprecated" or "any". Use get_recipe for the code.',
    inputSchema: Input({
      // list_rules, list_patterns and list_facts answer one kind; list_recipes takes it as a filter.
      ...((kind ? {} : { kind: kindFilter() }) as { kind: ReturnType<typeof kindFilter> }),
      status: Opt(StringEnum([...recipeStatus, 'any'])),
      category: Opt(Name()),
      language: Opt(Name(undefined, { maxLength: 64 })),
      tag: Opt(Name(undefined, { maxLength: 64 })),
    }),
    outputSchema: recipeListOut,
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

const getRecipe = defineTool({
  name: 'get_recipe',
  title: 'Get a recipe',
  domain: 'knowledge',
  summary: 'One recipe in full: code, usage guide, rationale, steps, constraints, quality and usage.',
  description:
    'Returns one recipe (by id, trigger such as "@fetchWithRetry", or file path) with all its fields: summary, usage guide, the code, rationale, steps, tags, relations, constraints, source files, ' +
    'status and who created, approved and published it, plus quality scores and usage counts. history: true adds the status history. An unknown id fails with RECIPE_NOT_FOUND and the closest ids.',
  inputSchema: Input({ id: recipeRef(), history: Opt(Type.Boolean({ default: false })) }),
  outputSchema: Type.Intersect([recipeOut, Out({
    quality: Domain<ReturnType<typeof qualityScores>>('Quality scores: completeness, clarity, evidence, adoption, overall.'),
    usage: Domain<UsageStats>('Usage counters.'),
    history: Opt(Domain<StatusChange[]>('Status changes, oldest first.', 'array')),
  })]),
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

const recipeInsights = defineTool({
  name: 'recipe_insights',
  title: 'Recipe insights',
  domain: 'knowledge',
  summary: 'Quality, usage and gaps: of one recipe, or of the whole knowledge base.',
  description:
    'With `id`: one recipe\'s quality scores (completeness, clarity, evidence, adoption) and what would raise them, its usage, status history, relations (and whether their targets exist), ' +
    'what refers to it and its nearest recipes. Without: the knowledge base at a glance — counts by status, kind and category, candidates by status, the most used and never used recipes, ' +
    'the lowest quality ones with what they lack, duplicate triggers and recipe files that could not be read.',
  inputSchema: Input({ id: Opt(recipeRef()) }),
  outputSchema: Domain<Awaited<ReturnType<typeof recipeInsight>> | ReturnType<typeof knowledgeOverview>>('One recipe\'s insight, or the knowledge base at a glance.'),
  aliases: { recipeId: 'id' },
  access: 'read',
  maxOutputChars: 12000,
  async handler(ws, input) {
    await fresh(ws);
    return input.id ? recipeInsight(ws, input.id) : knowledgeOverview(ws);
  },
});

const confirmUsage = defineTool({
  name: 'confirm_usage',
  title: 'Confirm a recipe was used',
  domain: 'knowledge',
  summary: 'Record that a recipe was adopted, applied, viewed, or found helpful or not.',
  description:
    'Counts a use of a recipe, which feeds its quality and its rank in context_search: `adoption` (you wrote code following it; the default), `application` (you applied its code), ' +
    '`view`, `helpful` / `unhelpful` (feedback), `guard_hit` (its guard pattern caught something). Counters only; nothing else is stored.',
  inputSchema: Input({
    id: recipeRef(),
    event: Opt(StringEnum(usageEvents, { default: 'adoption' })),
    count: Opt(Type.Integer({ minimum: 1, maximum: 1000, default: 1 })),
  }),
  outputSchema: Out({ id: Type.String(), usage: Domain<UsageStats>('The recipe\'s usage counters after this one.') }),
  aliases: { recipeId: 'id', usageType: 'event', type: 'event' },
  access: 'propose',
  maxOutputChars: 2000,
  async handler(ws, input) {
    await fresh(ws);
    return recordUsage(ws, input.id, input.event ?? 'adoption', input.count ?? 1);
  },
});

const rebuildIndex = defineTool({
  name: 'rebuild_index',
  title: 'Rebuild the recipe index',
  domain: 'knowledge',
  summary: 'Re-read every recipe file into the index; lists files that cannot be read and why.',
  description:
    'Brings the database in line with the recipe files under .autosnippet/recipes (they are the truth): adds, updates, renames and removes index rows, re-embeds vectors. ' +
    'force (default true) re-reads every file even when unchanged. Reports what changed and every file that could not be read, naming the file and the field at fault. Usage counts are kept.',
  inputSchema: Input({ force: Opt(Type.Boolean({ default: true })) }),
  outputSchema: Out({
    scanned: Type.Integer(),
    added: Type.Integer(),
    updated: Type.Integer(),
    addedIds: Type.Array(Type.String()),
    updatedIds: Type.Array(Type.String()),
    renamed: Domain<SyncReport['renamed']>('Files renamed on disk: from, to, id.', 'array'),
    removed: Type.Array(Type.String()),
    unchanged: Type.Integer(),
    problems: problemsOut,
    warnings: problemsOut,
    durationMs: Type.Number(),
  }),
  access: 'propose',
  maxOutputChars: 12000,
  async handler(ws, input, ctx) {
    const report = await syncRecipes(ws, { force: input.force ?? true, signal: ctx.signal, progress: (done, total) => ctx.progress?.({ message: 'Indexing recipes', done, total }) });
    return { ...report, added: report.added.length, updated: report.updated.length, addedIds: report.added.slice(0, 50), updatedIds: report.updated.slice(0, 50) };
  },
});

export const listRecipesTool = listTool('list_recipes', undefined, 'List recipes', 'Every recipe (rules, patterns, facts) by category, without code.', 'Lists the project\'s recipes by category, filtered by kind, status, category, language or tag.');

export { rebuildIndex as rebuildIndexTool, submitCandidate as submitCandidateTool, listCandidatesTool, getCandidateTool, getRecipe as getRecipeTool, confirmUsage as confirmUsageTool, updateCandidateTool, validateCandidateTool, checkDuplicateTool };

export const knowledgeTools: AnyTool[] = [
  submitCandidate,
  submitCandidatesTool,
  submitDraftRecipes,
  validateCandidateTool,
  checkDuplicateTool,
  enrichCandidates,
  updateCandidateTool,
  listCandidatesTool,
  getCandidateTool,
  listRecipesTool,
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
