import { ensureIndexFresh, findRecipeRow, readRecipe, type RecipeStatus } from '../domains/knowledge';
import { freshnessTracker, type RecipeFreshnessEntry } from '../domains/knowledge/freshness';
import { acceptFreshnessUpdate, checkRecipeNow, describeChanges } from '../domains/knowledge/freshness-review';
import { recipeRef } from './knowledge-schemas';
import { Input, Opt, Out, StringEnum, Type } from './schema';
import { type AnyTool, defineTool } from './types';

const FRESHNESS = ['fresh', 'stale', 'moved', 'untracked'] as const;
const SOURCE_STATES = ['fresh', 'moved', 'changed', 'deleted', 'untracked', 'unreadable'] as const;
const STATUSES = ['draft', 'published', 'deprecated'] as const;

/** One recipe's verdict, as both freshness tools answer it. */
const recipeVerdict = Out({
  id: Type.String(),
  title: Type.String(),
  status: StringEnum(STATUSES),
  file: Type.String(),
  freshness: StringEnum(FRESHNESS, {
    description:
      'stale: cited lines changed or their file is gone; moved: the same lines are elsewhere; untracked: nothing recorded to compare.',
  }),
  reason: Type.String({ description: 'The first thing to know, in one line.' }),
  sources: Type.Array(Out({
    source: Type.String({ description: 'The cited `path:line` as the recipe writes it.' }),
    state: StringEnum(SOURCE_STATES),
    message: Type.String(),
    movedTo: Opt(Type.String({ description: 'Where the same lines are now: what accepting the update writes.' })),
  })),
  excerpt: Opt(
    Out({ state: StringEnum(['fresh', 'changed', 'untracked']), message: Type.String(), foundAt: Opt(Type.String()) }),
  ),
});

const changeSide = Out({
  origin: Type.String({ description: 'A file path, `recipe excerpt`, or `git <commit>`.' }),
  startLine: Type.Integer(),
  text: Type.String(),
});

export const checkRecipeFreshnessTool = defineTool({
  name: 'check_recipe_freshness',
  title: 'Check recipes against their code',
  domain: 'knowledge',
  summary: 'Which recipes no longer match the code they cite (changed, moved, deleted), with reasons.',
  description:
    'Compares recipes with the code they cite. Each recipe records a hash of every cited `path:line` and of its code excerpt; a recipe is `stale` when cited lines changed or their file is gone, '
    + '`moved` when the same lines are elsewhere (other lines, or a file git saw renamed: `movedTo` is the proposed reference, which a person accepts), `untracked` when nothing was recorded, else `fresh`. '
    + 'Pass `id` for one recipe (checked now; details: true adds the cited lines then and now), or nothing for every draft and published recipe, stale first. '
    + 'Before relying on a stale recipe, read the code it cites; tell the person rather than following it blindly.',
  inputSchema: Input({
    id: Opt(recipeRef()),
    status: Opt(
      StringEnum(['draft', 'published', 'any'], {
        default: 'any',
        description: 'Which recipes when no id is given (deprecated ones are not tracked).',
      }),
    ),
    problemsOnly: Opt(Type.Boolean({ default: false, description: 'Only recipes that are stale or moved.' })),
    details: Opt(
      Type.Boolean({ default: false, description: 'With id: the cited lines as recorded and as they are now.' }),
    ),
  }),
  outputSchema: Out({
    counts: Opt(
      Out(
        { fresh: Type.Integer(), stale: Type.Integer(), moved: Type.Integer(), untracked: Type.Integer() },
        { description: 'Without id: how many recipes are in each state.' },
      ),
    ),
    checkedAt: Opt(
      Type.String({ description: 'Without id: when the verdicts were last brought up to date (ISO 8601).' }),
    ),
    recipes: Type.Array(recipeVerdict),
    changes: Opt(Type.Array(
      Out({
        source: Type.String(),
        state: StringEnum([...SOURCE_STATES, 'excerpt']),
        message: Type.String(),
        then: Opt(changeSide),
        now: Opt(changeSide),
      }),
      {
        description:
          'With id and details: the cited lines then (as recorded) and now, for every source that is not fresh.',
      },
    )),
    hint: Type.String(),
  }),
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
      const changes = input.details && verdict.freshness !== 'fresh'
        ? await describeChanges(ws, recipe, verdict)
        : undefined;
      return { recipes: [view(entry)], ...(changes ? { changes } : {}), hint: hintFor([entry]) };
    }
    await tracker.refresh();
    const status = input.status ?? 'any';
    const wanted = (e: RecipeFreshnessEntry) =>
      (status === 'any' || e.status === status)
      && (!input.problemsOnly || e.freshness === 'stale' || e.freshness === 'moved');
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
    sources: e.sources.map((s) => ({
      source: s.source,
      state: s.state,
      message: s.message,
      ...(s.movedTo ? { movedTo: s.movedTo } : {}),
    })),
    ...(e.excerpt ? { excerpt: e.excerpt } : {}),
  };
}

function hintFor(entries: { freshness: string; status: RecipeStatus }[]): string {
  const stale = entries.filter((e) => e.freshness === 'stale').length;
  const moved = entries.filter((e) => e.freshness === 'moved').length;
  if (!stale && !moved) return 'Every checked recipe matches the code it cites (or records nothing to compare).';
  return `${stale ? `${stale} stale: the code they cite changed — check it before following them. ` : ''}${
    moved ? `${moved} moved: the same lines are elsewhere. ` : ''
  }A person reviews the change (check_recipe_freshness with id and details: true) and accepts the update (accept_recipe_freshness), or edits the recipe.`;
}

export const acceptRecipeFreshnessTool = defineTool({
  name: 'accept_recipe_freshness',
  title: 'Accept the code a recipe cites as it is now',
  domain: 'knowledge',
  summary: 'After reviewing a stale or moved recipe: point it at where the lines are now and record fresh hashes.',
  description:
    "People only. Rewrites the recipe's moved references (frontmatter `sources` and the body's source list) to where the cited lines are now, and records new hashes of the cited lines and of the code excerpt, "
    + 'so the recipe is fresh again. Use it after reviewing the change (check_recipe_freshness with details: true) when the recipe still holds; edit or deprecate the recipe when it does not.',
  inputSchema: Input({ id: recipeRef() }),
  outputSchema: Out({
    id: Type.String(),
    file: Type.String(),
    moved: Type.Array(Out({ from: Type.String(), to: Type.String() }), {
      description: 'References rewritten to where the lines are now.',
    }),
    recorded: Type.Array(Type.String(), { description: 'Sources whose hashes were recorded (again).' }),
    excerptTracked: Type.Boolean({ description: 'Whether the code excerpt is tracked after the update.' }),
    freshness: StringEnum(FRESHNESS),
  }),
  aliases: { recipeId: 'id' },
  access: 'review',
  maxOutputChars: 4000,
  async handler(ws, input) {
    await ensureIndexFresh(ws);
    return acceptFreshnessUpdate(ws, input.id);
  },
});

export const freshnessTools: AnyTool[] = [checkRecipeFreshnessTool, acceptRecipeFreshnessTool];
