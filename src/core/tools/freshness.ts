import { ensureIndexFresh, findRecipeRow, readRecipe, type RecipeStatus } from '../knowledge';
import { freshnessTracker, type RecipeFreshnessEntry } from '../knowledge/freshness';
import { acceptFreshnessUpdate, checkRecipeNow, describeChanges } from '../knowledge/freshness-review';
import { recipeRef } from './knowledge-schemas';
import { defineTool, type ToolDefinition } from './types';

interface CheckInput { id?: string; status?: 'draft' | 'published' | 'any'; problemsOnly?: boolean; details?: boolean }

const checkFreshness = defineTool<CheckInput, unknown>({
  name: 'check_recipe_freshness',
  title: 'Check recipes against their code',
  domain: 'knowledge',
  summary: 'Which recipes no longer match the code they cite (changed, moved, deleted), with reasons.',
  description:
    'Compares recipes with the code they cite. Each recipe records a hash of every cited `path:line` and of its code excerpt; a recipe is `stale` when cited lines changed or their file is gone, ' +
    '`moved` when the same lines are elsewhere (other lines, or a file git saw renamed: `movedTo` is the proposed reference, which a person accepts), `untracked` when nothing was recorded, else `fresh`. ' +
    'Pass `id` for one recipe (checked now; details: true adds the cited lines then and now), or nothing for every draft and published recipe, stale first. ' +
    'Before relying on a stale recipe, read the code it cites; tell the person rather than following it blindly.',
  inputSchema: {
    type: 'object',
    properties: {
      id: recipeRef,
      status: { type: 'string', enum: ['draft', 'published', 'any'], default: 'any', description: 'Which recipes when no id is given (deprecated ones are not tracked).' },
      problemsOnly: { type: 'boolean', default: false, description: 'Only recipes that are stale or moved.' },
      details: { type: 'boolean', default: false, description: 'With id: the cited lines as recorded and as they are now.' },
    },
    additionalProperties: false,
  },
  aliases: { recipeId: 'id', recipe: 'id' },
  access: 'read',
  maxOutputChars: 16000,
  paginate: 'recipes',
  async handler(ws, input) {
    await ensureIndexFresh(ws);
    const tracker = freshnessTracker(ws);
    if (input.id) {
      const row = findRecipeRow(ws, input.id);
      const recipe = await readRecipe(ws, row.id);
      const verdict = await checkRecipeNow(ws, recipe);
      const entry = { ...verdict, title: recipe.title, status: recipe.status, file: recipe.file };
      const changes = input.details && verdict.freshness !== 'fresh' ? await describeChanges(ws, recipe, verdict) : undefined;
      return { recipes: [view(entry)], ...(changes ? { changes } : {}), hint: hintFor([entry]) };
    }
    await tracker.refresh();
    const status = input.status ?? 'any';
    const wanted = (e: RecipeFreshnessEntry) => (status === 'any' || e.status === status) && (!input.problemsOnly || e.freshness === 'stale' || e.freshness === 'moved');
    const entries = tracker.entries().filter(wanted);
    return {
      counts: tracker.counts((e) => status === 'any' || e.status === status),
      checkedAt: new Date(tracker.checkedAt).toISOString(),
      recipes: entries.map(view),
      hint: hintFor(entries),
    };
  },
});

function view(e: RecipeFreshnessEntry) {
  return {
    id: e.id,
    title: e.title,
    status: e.status,
    file: e.file,
    freshness: e.freshness,
    reason: e.reason,
    sources: e.sources.map((s) => ({ source: s.source, state: s.state, message: s.message, ...(s.movedTo ? { movedTo: s.movedTo } : {}) })),
    ...(e.excerpt ? { excerpt: e.excerpt } : {}),
  };
}

function hintFor(entries: { freshness: string; status: RecipeStatus }[]): string {
  const stale = entries.filter((e) => e.freshness === 'stale').length;
  const moved = entries.filter((e) => e.freshness === 'moved').length;
  if (!stale && !moved) return 'Every checked recipe matches the code it cites (or records nothing to compare).';
  return `${stale ? `${stale} stale: the code they cite changed — check it before following them. ` : ''}${moved ? `${moved} moved: the same lines are elsewhere. ` : ''}A person reviews the change (check_recipe_freshness with id and details: true) and accepts the update (accept_recipe_freshness), or edits the recipe.`;
}

const acceptFreshness = defineTool<{ id: string }, unknown>({
  name: 'accept_recipe_freshness',
  title: 'Accept the code a recipe cites as it is now',
  domain: 'knowledge',
  summary: 'After reviewing a stale or moved recipe: point it at where the lines are now and record fresh hashes.',
  description:
    'People only. Rewrites the recipe\'s moved references (frontmatter `sources` and the body\'s source list) to where the cited lines are now, and records new hashes of the cited lines and of the code excerpt, ' +
    'so the recipe is fresh again. Use it after reviewing the change (check_recipe_freshness with details: true) when the recipe still holds; edit or deprecate the recipe when it does not.',
  inputSchema: { type: 'object', properties: { id: recipeRef }, required: ['id'], additionalProperties: false },
  aliases: { recipeId: 'id' },
  access: 'review',
  maxOutputChars: 4000,
  async handler(ws, input) {
    await ensureIndexFresh(ws);
    return acceptFreshnessUpdate(ws, input.id);
  },
});

export const freshnessTools: ToolDefinition[] = [checkFreshness, acceptFreshness];
