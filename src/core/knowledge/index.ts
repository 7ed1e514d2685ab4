// The knowledge domain's public face: what tools, adapters and other domains call.
export * from './types';
export { submitCandidates, listCandidates, countCandidates, getCandidate, updateCandidate, normalizeCandidate, fingerprintOf, type SubmitResult, type CandidateFilter } from './candidates';
export { approveCandidate, rejectCandidate, reopenCandidate, promoteCandidate, publishRecipe, deprecateRecipe, deleteRecipe, draftRecipeFile, type NewRecipe } from './lifecycle';
export { syncRecipes, type SyncReport, type SyncOptions } from './recipe-index';
export { ensureIndexFresh, recipeWalkSettled, type IndexFreshness } from './index-freshness';
export { listRecipes, readRecipe, findRecipeRow, resolveRecipeRow, knowledgeCounts, type RecipeSummary, type RecipeFilter } from './recipes';
export { parseRecipeFile, serializeRecipe, patchFrontmatter, slugify, triggerFor, recipeFilePath, RECIPES_DIR } from './recipe-file';
export { validateCandidate, validationReport, missingFields, isPlaceholder, type Validation, type ValidationReport, type FieldIssue } from './validate';
export { answeredVerdict, assessCandidate, sourceIssues, verdictWith } from './source-check';
export { reviewChecklist, REVIEW_FORM_FIELDS, type ChecklistItem, type ReviewFormField } from './checklist';
export { checkDuplicate, type DuplicateReport } from './duplicates';
export { recordUsage, usageOf } from './usage';
export { recipeInsight, knowledgeOverview } from './insights';

import type { Workspace } from '../workspace';
import { knowledgeCounts } from './recipes';

/** The `health` counter: recipes (not deprecated) and pending candidates, from the index. */
export function knowledgeHealthCounter(ws: Workspace): { recipes: number; candidates: number } {
  const c = knowledgeCounts(ws);
  return { recipes: c.recipes, candidates: c.pendingCandidates };
}
