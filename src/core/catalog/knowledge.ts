import {
  type CandidateInput,
  checkDuplicate,
  ensureIndexFresh,
  findRecipeRow,
  getCandidate,
  knowledgeOverview,
  listRecipes,
  parseRecipeFile,
  readRecipe,
  recipeInsight,
  type RecipeKind,
  recordUsage,
  sourceIssues,
  submitCandidates,
  syncRecipes,
  usageOf,
} from '../domains/knowledge';
import type { DuplicateReport } from '../domains/knowledge/duplicates';
import { history } from '../domains/knowledge/insights';
import { qualityScores } from '../domains/knowledge/quality';
import type { SyncReport } from '../domains/knowledge/recipe-index';
import type { RecipeSummary } from '../domains/knowledge/recipes';
import { recipeMeta } from '../domains/knowledge/recipes';
import type { SourceFiles } from '../domains/knowledge/source-check';
import type { StatusChange, UsageStats } from '../domains/knowledge/types';
import { readRepoFile, shownPath } from '../ground/files';
import { AutoSnippetError } from '../ground/kernel/errors';
import type { Workspace } from '../ground/workspace';
import {
  BATCH_MAX,
  enrichCandidatesTool,
  getCandidateTool,
  listCandidatesTool,
  submitCandidatesTool,
  submitCandidateTool,
  updateCandidatesTool,
  updateCandidateTool,
  validateCandidateTool,
} from './candidates';
import { reviewTools } from './knowledge-review';
import { candidateProperties, candidateRef, KINDS, recipeOut, recipeRef, usageEvents } from './knowledge-schemas';
import { Code, Domain, FilePath, Input, List, Name, Opt, Out, StringEnum, Type } from './schema';
import { searchTools } from './search';
import { type AnyTool, defineTool } from './types';

const problemsOut = Type.Array(Out({ file: Type.String(), field: Opt(Type.String()), message: Type.String() }));
const recipeStatus = ['draft', 'published', 'deprecated'] as const;

/** Every knowledge tool first catches the index up with the files (cheap when nothing changed). */
async function fresh(ws: Workspace): Promise<void> {
  await ensureIndexFresh(ws);
}

const submitDraftRecipes = defineTool({
  name: 'submit_draft_recipes',
  title: 'Submit draft recipe files',
  domain: 'knowledge',
  summary: 'Propose recipes written as Markdown drafts (files in the workspace, or text) as candidates.',
  description:
    'Reads recipe drafts in the recipe file format (YAML frontmatter with title, summary, language, category, knowledgeType, tags…, and a body with the code in a fenced block) '
    + 'and records each as a pending candidate. Pass `files` (workspace-relative paths of .md drafts you wrote) or `drafts` (the Markdown text). '
    + 'A draft that cannot be read, or whose cited `path:line` sources do not hold (as submit_candidate checks them), is reported with the file and field at fault; the others are still submitted. Nothing is published: a person reviews every candidate.',
  inputSchema: Input({
    files: Opt(List(FilePath(), BATCH_MAX * 2, { description: 'Workspace-relative paths of Markdown drafts.' })),
    drafts: Opt(
      List(
        Input({ markdown: Code(undefined, { minLength: 1, maxLength: 60_000 }), file: Opt(FilePath()) }),
        BATCH_MAX * 2,
      ),
    ),
  }),
  outputSchema: Out({
    created: Type.Array(Type.String()),
    duplicates: Type.Array(Out({ draft: Type.String(), existing: Type.String() })),
    problems: problemsOut,
  }),
  access: 'propose',
  batch: { field: 'files', max: BATCH_MAX },
  maxOutputChars: 10000,
  async handler(ws, input, ctx) {
    if ((input.drafts?.length ?? 0) > BATCH_MAX) {
      throw new AutoSnippetError(
        'BATCH_TOO_LARGE',
        `submit_draft_recipes takes at most ${BATCH_MAX} drafts; got ${input.drafts!.length}.`,
        `Split into calls of ${BATCH_MAX}.`,
      );
    }
    if (!input.files?.length && !input.drafts?.length) {
      throw new AutoSnippetError(
        'INVALID_INPUT',
        'Pass `files` or `drafts`.',
        'files: ["drafts/fetch-retry.md"] or drafts: [{ markdown: "---\\ntitle: …\\n---\\n…" }]',
      );
    }
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
    const opened: SourceFiles = new Map();
    for (const t of texts) {
      const parsed = parseRecipeFile(t.text, t.name);
      if (!parsed.ok) {
        problems.push(...parsed.problems);
        continue;
      }
      const {
        id: _id,
        kind: _k,
        status: _s,
        file: _f,
        candidateId: _c,
        createdBy: _cb,
        createdAt: _ca,
        approvedBy: _ab,
        approvedAt: _aa,
        publishedBy: _pb,
        publishedAt: _pa,
        deprecatedBy: _db,
        deprecatedAt: _da,
        deprecationReason: _dr,
        ...content
      } = parsed.recipe;
      const input: CandidateInput = {
        ...content,
        origin: 'draft-file',
        reasoning: { sources: content.sourceFiles ?? [] },
      };
      // A draft is a card like any other: one whose cited lines do not hold is not recorded.
      const refused = await sourceIssues(ws, input, ctx.signal, opened);
      if (refused.length) {
        problems.push({
          file: t.name,
          field: refused[0].field,
          message: `Not recorded: its sources do not hold. ${refused.map((i) => i.message).join(' ')}`,
        });
        continue;
      }
      inputs.push(input);
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

const checkDuplicateTool = defineTool({
  name: 'check_duplicate',
  title: 'Check for duplicates',
  domain: 'knowledge',
  summary: 'The existing recipes nearest to a proposal, with similarity scores and a verdict.',
  description:
    'Before proposing knowledge, checks whether the project already has it: returns the nearest recipes (and pending candidates) with a similarity 0..1 and what makes them close '
    + '(same trigger, similar title, close in meaning), and a verdict: duplicate (≥ 0.85: do not submit), similar (≥ 0.6: submit only if yours adds something) or unique. '
    + "Pass the proposal's title (and summary, code when you have them), or `id` of a submitted candidate.",
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
    if (!c) {
      throw new AutoSnippetError(
        'INVALID_INPUT',
        'Pass `title` (and summary, code) of the proposal, or `id` of a submitted candidate.',
      );
    }
    const report = await checkDuplicate(ws, c, input.limit ?? 5);
    if (input.id) report.candidates = report.candidates.filter((x) => x.id !== input.id);
    return report;
  },
});

const recipeListOut = Out({
  total: Type.Integer(),
  recipes: Domain<Omit<RecipeSummary, 'updatedAt'>[]>(
    'id, title, trigger, kind, knowledgeType, language, category, status, summary, tags, quality and file of each recipe.',
    'array',
  ),
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
    description: description
      + ' Each entry: id, title, trigger, kind, knowledgeType, language, category, status, summary, tags, quality. Deprecated recipes only with status "deprecated" or "any". Use get_recipe for the code.',
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
        ...(problems
          ? {
            filesWithProblems: problems,
            hint: 'Some recipe files could not be read: rebuild_index lists them with the field at fault.',
          }
          : {}),
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
    'Returns one recipe (by id, trigger such as "@fetchWithRetry", or file path) with all its fields: summary, usage guide, the code, rationale, steps, tags, relations, constraints, source files, '
    + 'status and who created, approved and published it, plus quality scores and usage counts. history: true adds the status history. An unknown id fails with RECIPE_NOT_FOUND and the closest ids.',
  inputSchema: Input({ id: recipeRef(), history: Opt(Type.Boolean({ default: false })) }),
  outputSchema: Type.Intersect([
    recipeOut,
    Out({
      quality: Domain<ReturnType<typeof qualityScores>>(
        'Quality scores: completeness, clarity, evidence, adoption, overall.',
      ),
      usage: Domain<UsageStats>('Usage counters.'),
      history: Opt(Domain<StatusChange[]>('Status changes, oldest first.', 'array')),
    }),
  ]),
  aliases: { recipeId: 'id', trigger: 'id', name: 'id' },
  access: 'read',
  maxOutputChars: 20000,
  async handler(ws, input) {
    await fresh(ws);
    const recipe = await readRecipe(ws, input.id);
    const row = findRecipeRow(ws, recipe.id);
    const usage = usageOf(ws, [recipe.id]).get(recipe.id)!;
    return {
      ...recipe,
      quality: qualityScores(recipeMeta(row).quality, usage),
      usage,
      ...(input.history ? { history: history(ws, recipe) } : {}),
    };
  },
});

const recipeInsights = defineTool({
  name: 'recipe_insights',
  title: 'Recipe insights',
  domain: 'knowledge',
  summary: 'Quality, usage and gaps: of one recipe, or of the whole knowledge base.',
  description:
    "With `id`: one recipe's quality scores (completeness, clarity, evidence, adoption) and what would raise them, its usage, status history, relations (and whether their targets exist), "
    + 'what refers to it and its nearest recipes. Without: the knowledge base at a glance — counts by status, kind and category, candidates by status, the most used and never used recipes, '
    + 'the lowest quality ones with what they lack, duplicate triggers and recipe files that could not be read.',
  inputSchema: Input({ id: Opt(recipeRef()) }),
  outputSchema: Domain<Awaited<ReturnType<typeof recipeInsight>> | ReturnType<typeof knowledgeOverview>>(
    "One recipe's insight, or the knowledge base at a glance.",
  ),
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
    'Counts a use of a recipe, which feeds its quality and its rank in context_search: `adoption` (you wrote code following it; the default), `application` (you applied its code), '
    + '`view`, `helpful` / `unhelpful` (feedback), `guard_hit` (its guard pattern caught something). Counters only; nothing else is stored.',
  inputSchema: Input({
    id: recipeRef(),
    event: Opt(StringEnum(usageEvents, { default: 'adoption' })),
    count: Opt(Type.Integer({ minimum: 1, maximum: 1000, default: 1 })),
  }),
  outputSchema: Out({ id: Type.String(), usage: Domain<UsageStats>("The recipe's usage counters after this one.") }),
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
    'Brings the database in line with the recipe files under .autosnippet/recipes (they are the truth): adds, updates, renames and removes index rows, re-embeds vectors. '
    + 'force (default true) re-reads every file even when unchanged. Reports what changed and every file that could not be read, naming the file and the field at fault. Usage counts are kept.',
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
    const report = await syncRecipes(ws, {
      force: input.force ?? true,
      signal: ctx.signal,
      progress: (done, total) => ctx.progress?.({ message: 'Indexing recipes', done, total }),
    });
    return {
      ...report,
      added: report.added.length,
      updated: report.updated.length,
      addedIds: report.added.slice(0, 50),
      updatedIds: report.updated.slice(0, 50),
    };
  },
});

export const listRecipesTool = listTool(
  'list_recipes',
  undefined,
  'List recipes',
  'Every recipe (rules, patterns, facts) by category, without code.',
  "Lists the project's recipes by category, filtered by kind, status, category, language or tag.",
);

export {
  checkDuplicateTool,
  confirmUsage as confirmUsageTool,
  getCandidateTool,
  getRecipe as getRecipeTool,
  listCandidatesTool,
  rebuildIndex as rebuildIndexTool,
  submitCandidateTool,
  updateCandidateTool,
  validateCandidateTool,
};

export const knowledgeTools: AnyTool[] = [
  submitCandidateTool,
  submitCandidatesTool,
  submitDraftRecipes,
  validateCandidateTool,
  checkDuplicateTool,
  enrichCandidatesTool,
  updateCandidateTool,
  updateCandidatesTool,
  listCandidatesTool,
  getCandidateTool,
  listRecipesTool,
  getRecipe,
  listTool(
    'list_rules',
    'rule',
    'List rules',
    "The project's rules: what code here must or must not do.",
    'Lists the recipes of kind rule (code standards, best practices, boundary constraints…).',
  ),
  listTool(
    'list_patterns',
    'pattern',
    'List patterns',
    "The project's patterns: how things are done here, with code.",
    'Lists the recipes of kind pattern (code patterns, architecture, solutions).',
  ),
  listTool(
    'list_facts',
    'fact',
    'List facts',
    'Facts about the project: call chains, data flow, module dependencies.',
    'Lists the recipes of kind fact (call chains, data and event flow, module dependencies, project profile).',
  ),
  recipeInsights,
  confirmUsage,
  ...searchTools,
  rebuildIndex,
  ...reviewTools,
];
