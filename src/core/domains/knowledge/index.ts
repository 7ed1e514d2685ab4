// The knowledge domain's public face: what tools, adapters and other domains call.
export {
  type CandidateFilter,
  countCandidates,
  fingerprintOf,
  getCandidate,
  listCandidates,
  normalizeCandidate,
  submitCandidates,
  type SubmitResult,
  updateCandidate,
} from './candidates';
export { type ChecklistItem, REVIEW_FORM_FIELDS, reviewChecklist, type ReviewFormField } from './checklist';
export { checkDuplicate, type DuplicateReport } from './duplicates';
export { ensureIndexFresh, type IndexFreshness, recipeWalkSettled } from './index-freshness';
export { knowledgeOverview, recipeInsight } from './insights';
export {
  approveCandidate,
  deleteRecipe,
  deprecateRecipe,
  draftRecipeFile,
  type NewRecipe,
  promoteCandidate,
  publishRecipe,
  rejectCandidate,
  reopenCandidate,
} from './lifecycle';
export {
  parseRecipeFile,
  patchFrontmatter,
  recipeFilePath,
  RECIPES_DIR,
  serializeRecipe,
  slugify,
  triggerFor,
} from './recipe-file';
export { type SyncOptions, syncRecipes, type SyncReport } from './recipe-index';
export {
  findRecipeRow,
  knowledgeCounts,
  listRecipes,
  readRecipe,
  type RecipeFilter,
  type RecipeSummary,
  resolveRecipeRow,
} from './recipes';
export { answeredVerdict, assessCandidate, sourceIssues, verdictWith } from './source-check';
export * from './types';
export { recordUsage, usageOf } from './usage';
export {
  type FieldIssue,
  isPlaceholder,
  missingFields,
  TITLE_MAX,
  validateCandidate,
  type Validation,
  type ValidationReport,
  validationReport,
} from './validate';

import type { Workspace } from '../../ground/workspace';
import { knowledgeCounts } from './recipes';

/** The `health` counter: recipes (not deprecated) and pending candidates, from the index. */
export function knowledgeHealthCounter(ws: Workspace): { recipes: number; candidates: number } {
  const c = knowledgeCounts(ws);
  return { recipes: c.recipes, candidates: c.pendingCandidates };
}
