/**
 * The lifecycle: candidate pending → approved | rejected; an approved candidate is promoted to a
 * recipe file in `draft` → `published` → `deprecated`. Every transition is recorded with actor and
 * time; a refused one is INVALID_TRANSITION naming what is allowed. Who may do what is the catalog's
 * and the Gateway's business (access classes), not this module's.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { readRepoFile } from '../../ground/files';
import { AutoSnippetError } from '../../ground/kernel/errors';
import type { Workspace } from '../../ground/workspace';
import { backUpCandidates } from './candidate-backup';
import { getCandidate, normalizeCandidate, stripCandidate } from './candidates';
import { computeFingerprints } from './freshness-fingerprint';
import { isSourceListing, listingSources } from './recipe-body';
import { contentHash, parseRecipeFile, patchFrontmatter, serializeRecipe, triggerFor } from './recipe-file';
import { syncRecipes } from './recipe-index';
import { assertOwnRecipe, freeRecipeLocation, resolveRecipeRow, writeFileAtomic } from './recipes';
import { recordTransition, transitionsOf } from './transitions';
import type { Actor, Candidate, CandidateStatus, KnowledgeContent, Recipe, RecipeStatus } from './types';
import { KNOWLEDGE_TYPES } from './types';

interface Step {
  to: string;
  how: string;
}

const CANDIDATE_FLOW: Record<CandidateStatus, Step[]> = {
  pending: [
    { to: 'approved', how: 'approve_candidate' },
    { to: 'rejected', how: 'reject_candidate' },
  ],
  approved: [
    { to: 'promoted', how: 'promote_candidate (once: it becomes a draft recipe)' },
    { to: 'pending', how: 'reopen_candidate, while its recipe is an unedited draft' },
  ],
  rejected: [{ to: 'pending', how: 'reopen_candidate' }],
};

const RECIPE_FLOW: Record<RecipeStatus, Step[]> = {
  draft: [{ to: 'published', how: 'publish_recipe' }],
  published: [{ to: 'deprecated', how: 'deprecate_recipe' }],
  deprecated: [],
};

function refuse(what: string, status: string, wanted: string, flow: Step[], finalHint: string): never {
  const allowed = flow.map((s) => `${s.to} (${s.how})`);
  throw new AutoSnippetError(
    'INVALID_TRANSITION',
    `${what} is ${status}; it cannot become ${wanted}. ${
      allowed.length
        ? `From ${status} it can become: ${allowed.join(', ')}.`
        : `${status[0].toUpperCase() + status.slice(1)} is final.`
    }`,
    allowed.length ? undefined : finalHint,
    { status, wanted, allowed: flow.map((s) => s.to) },
  );
}

export interface ApproveResult {
  candidate: Candidate;
  /** The draft recipe it was promoted to, when `promote` was asked for. */
  recipe?: { id: string; file: string };
}

export async function approveCandidate(
  ws: Workspace,
  id: string,
  actor: Actor,
  options: { promote?: boolean; category?: string; note?: string } = {},
): Promise<ApproveResult> {
  const c = getCandidate(ws, id);
  if (c.status !== 'pending') {
    refuse(
      `Candidate ${c.id}`,
      c.status,
      'approved',
      CANDIDATE_FLOW[c.status],
      'A decided candidate stays decided; submit a new one to propose it again.',
    );
  }
  const at = new Date().toISOString();
  await ws.store.transaction((tx) => {
    const n = tx.run(
      "UPDATE candidates SET status = 'approved', decided_by = ?, decided_at = ? WHERE id = ? AND status = 'pending'",
      [actor, at, c.id],
    ).changes;
    if (n === 0) throw decidedMeanwhile(c.id);
    recordTransition(tx, {
      entity: 'candidate',
      id: c.id,
      from: 'pending',
      to: 'approved',
      actor,
      at,
      reason: options.note,
    });
  });
  await backUpCandidates(ws);
  const approved = { ...c, status: 'approved' as const, decidedBy: actor, decidedAt: at };
  if (options.promote === false) return { candidate: approved };
  const recipe = await promoteCandidate(ws, c.id, actor, { category: options.category });
  return { candidate: { ...approved, recipeId: recipe.id }, recipe };
}

export async function rejectCandidate(ws: Workspace, id: string, actor: Actor, reason: string): Promise<Candidate> {
  const c = getCandidate(ws, id);
  if (c.status !== 'pending') {
    refuse(`Candidate ${c.id}`, c.status, 'rejected', CANDIDATE_FLOW[c.status], 'A decided candidate stays decided.');
  }
  if (!reason.trim()) {
    throw new AutoSnippetError(
      'INVALID_INPUT',
      'A rejection needs a reason.',
      'Say why in a sentence: it tells agents what not to propose again.',
    );
  }
  const at = new Date().toISOString();
  await ws.store.transaction((tx) => {
    const data = JSON.stringify({ ...stripCandidate(c), reasoning: c.reasoning, rejectionReason: reason.trim() });
    const n = tx.run(
      "UPDATE candidates SET status = 'rejected', decided_by = ?, decided_at = ?, data = ? WHERE id = ? AND status = 'pending'",
      [actor, at, data, c.id],
    ).changes;
    if (n === 0) throw decidedMeanwhile(c.id);
    recordTransition(tx, {
      entity: 'candidate',
      id: c.id,
      from: 'pending',
      to: 'rejected',
      actor,
      at,
      reason: reason.trim(),
    });
  });
  await backUpCandidates(ws);
  return { ...c, status: 'rejected', decidedBy: actor, decidedAt: at, rejectionReason: reason.trim() };
}

/**
 * Undoes a decision: the candidate is pending again, its reason dropped. An approval's draft recipe
 * is removed with it, but only while it is the draft the approval wrote: a published recipe is shared
 * knowledge (deprecate it instead), and a draft edited since (its file written after the approval, or
 * no longer the text indexed) holds a person's work that the undo would lose.
 */
export async function reopenCandidate(
  ws: Workspace,
  id: string,
  actor: Actor,
): Promise<{ candidate: Candidate; removedRecipe?: { id: string; file: string } }> {
  const c = getCandidate(ws, id);
  if (c.status === 'pending') refuse(`Candidate ${c.id}`, c.status, 'pending', CANDIDATE_FLOW.pending, '');
  let removedRecipe: { id: string; file: string } | undefined;
  const row = c.recipeId
    ? ws.store.get<{ id: string; file: string; status: string; hash: string }>(
      'SELECT id, file, status, hash FROM recipes WHERE id = ?',
      [c.recipeId],
    )
    : undefined;
  if (row) {
    if (row.status !== 'draft') {
      throw new AutoSnippetError(
        'INVALID_TRANSITION',
        `Candidate ${c.id} became recipe ${row.id}, which is ${row.status}; the approval cannot be undone.`,
        'Deprecate the recipe (deprecate_recipe) to withdraw it.',
        { recipeId: row.id, status: row.status },
      );
    }
    if (await editedSinceApproval(ws, row)) {
      throw new AutoSnippetError(
        'INVALID_TRANSITION',
        `The draft recipe ${row.file} was edited after the approval; undoing it would lose the edit.`,
        'Delete the draft yourself (delete_recipe) if you no longer want it.',
        { recipeId: row.id, file: row.file },
      );
    }
    removedRecipe = await deleteRecipe(ws, row.id, actor, `approval of ${c.id} undone`);
  }
  const at = new Date().toISOString();
  await ws.store.transaction((tx) => {
    const data = JSON.stringify({ ...stripCandidate(c), reasoning: c.reasoning });
    const n = tx.run(
      "UPDATE candidates SET status = 'pending', decided_by = NULL, decided_at = NULL, recipe_id = NULL, data = ? WHERE id = ? AND status = ?",
      [data, c.id, c.status],
    ).changes;
    if (n === 0) {
      throw new AutoSnippetError(
        'INVALID_TRANSITION',
        `Candidate ${c.id} changed meanwhile.`,
        'Refresh and look at it again.',
      );
    }
    recordTransition(tx, {
      entity: 'candidate',
      id: c.id,
      from: c.status,
      to: 'pending',
      actor,
      at,
      reason: 'decision undone',
    });
  });
  await backUpCandidates(ws);
  const { decidedBy: _db, decidedAt: _da, rejectionReason: _rr, recipeId: _ri, ...rest } = c;
  return { candidate: { ...rest, status: 'pending' }, ...(removedRecipe ? { removedRecipe } : {}) };
}

async function editedSinceApproval(ws: Workspace, row: { id: string; file: string; hash: string }): Promise<boolean> {
  let text: string;
  let mtimeMs: number;
  try {
    ({ text, mtimeMs } = await readRepoFile(ws.root, row.file, { kind: 'recipe' }));
  } catch {
    return false; // Already gone: nothing to lose.
  }
  // The draft's transition is recorded just after its file is written; a second covers coarse file-system clocks.
  const drafted = transitionsOf(ws, 'recipe', row.id).filter((t) => t.to === 'draft').pop()?.at;
  const writtenBy = drafted ? Date.parse(drafted) + 1000 : Infinity;
  return contentHash(text) !== row.hash || mtimeMs > writtenBy;
}

/** Writes an approved candidate as a draft recipe file and indexes it. */
export async function promoteCandidate(
  ws: Workspace,
  id: string,
  actor: Actor,
  options: { category?: string } = {},
): Promise<{ id: string; file: string }> {
  const c = getCandidate(ws, id);
  if (c.status !== 'approved') {
    refuse(
      `Candidate ${c.id}`,
      c.status,
      'promoted',
      c.status === 'pending'
        ? [{ to: 'approved', how: 'approve_candidate, which promotes it' }, CANDIDATE_FLOW.pending[1]]
        : [],
      'A rejected candidate is final; submit a new one.',
    );
  }
  if (c.recipeId && ws.store.get('SELECT 1 AS x FROM recipes WHERE id = ?', [c.recipeId])) {
    throw new AutoSnippetError(
      'INVALID_TRANSITION',
      `Candidate ${c.id} was already promoted to recipe ${c.recipeId}.`,
      `Open that recipe (get_recipe ${c.recipeId}); delete it first to promote again.`,
      { recipeId: c.recipeId },
    );
  }
  const at = new Date().toISOString();
  const category = options.category?.trim() || c.category;
  const { file, id: recipeId } = freeRecipeLocation(ws, category, c.title);
  const recipe: Recipe = {
    ...stripCandidate(c),
    ...recipeEvidence(c),
    category,
    id: recipeId,
    kind: KNOWLEDGE_TYPES[c.knowledgeType],
    status: 'draft',
    file,
    candidateId: c.id,
    createdBy: c.createdBy,
    createdAt: c.createdAt,
    approvedBy: c.decidedBy ?? actor,
    approvedAt: c.decidedAt ?? at,
  };
  recipe.fingerprints = await computeFingerprints(ws.root, recipe);
  await writeFileAtomic(path.join(ws.root, file), serializeRecipe(recipe), { exclusive: true });
  await syncRecipes(ws);
  await ws.store.transaction((tx) => {
    tx.run('UPDATE candidates SET recipe_id = ? WHERE id = ?', [recipeId, c.id]);
    recordTransition(tx, {
      entity: 'recipe',
      id: recipeId,
      from: null,
      to: 'draft',
      actor,
      at,
      reason: `promoted from ${c.id}`,
    });
  });
  await backUpCandidates(ws);
  return { id: recipeId, file };
}

/**
 * What a recipe keeps of a candidate's evidence: its code only when it is code (a listing of
 * `path:line` places becomes sources), the reasoning and the confidence in the Why section, every
 * source once.
 */
export function recipeEvidence(c: Candidate): Pick<Recipe, 'code' | 'rationale' | 'sourceFiles'> {
  const listing = c.code !== undefined && isSourceListing(c.code);
  const sources = [
    ...new Set([...c.reasoning.sources, ...(c.sourceFiles ?? []), ...(listing ? listingSources(c.code!) : [])]),
  ];
  const why = [
    c.rationale?.trim(),
    c.reasoning.whyStandard.trim() && c.reasoning.whyStandard.trim() !== c.rationale?.trim()
      ? c.reasoning.whyStandard.trim()
      : undefined,
  ];
  const origin = c.origin.startsWith('bootstrap:') ? 'the cold-start scan' : c.createdBy;
  why.push(`Confidence when proposed: ${c.reasoning.confidence.toFixed(2)} (${origin}).`);
  return {
    code: listing ? undefined : c.code,
    rationale: why.filter(Boolean).join('\n\n'),
    sourceFiles: sources.length ? sources : undefined,
  };
}

async function changeRecipeStatus(
  ws: Workspace,
  ref: string,
  actor: Actor,
  to: RecipeStatus,
  patch: (at: string, recipe: Recipe) => Record<string, unknown> | Promise<Record<string, unknown>>,
  reason?: string,
): Promise<{ id: string; file: string; status: RecipeStatus }> {
  const row = await resolveRecipeRow(ws, ref);
  assertOwnRecipe(row, `set to ${to}`);
  const abs = path.join(ws.root, row.file);
  const text = (await readRepoFile(ws.root, row.file, { kind: 'recipe' })).text;
  const parsed = parseRecipeFile(text, row.file);
  if (!parsed.ok) {
    throw new AutoSnippetError(
      'INVALID_RECIPE_FILE',
      `${row.file} cannot be read: ${parsed.problems.map((p) => p.message).join(' ')}`,
      'Fix the file first.',
      { problems: parsed.problems },
    );
  }
  const from = parsed.recipe.status;
  if (!RECIPE_FLOW[from].some((s) => s.to === to)) {
    refuse(
      `Recipe ${row.id}`,
      from,
      to,
      RECIPE_FLOW[from],
      'Deprecated recipes stay as a record; delete_recipe removes one for good.',
    );
  }
  const at = new Date().toISOString();
  await writeFileAtomic(abs, patchFrontmatter(text, { status: to, ...(await patch(at, parsed.recipe)) }));
  await syncRecipes(ws);
  await ws.store.transaction((tx) =>
    recordTransition(tx, { entity: 'recipe', id: row.id, from, to, actor, at, reason })
  );
  return { id: row.id, file: row.file, status: to };
}

/** Publishes a draft; sources without a fingerprint get one (recorded ones are kept: publishing is not a review of the code). */
export function publishRecipe(ws: Workspace, ref: string, actor: Actor) {
  return changeRecipeStatus(ws, ref, actor, 'published', async (at, recipe) => ({
    publishedBy: actor,
    publishedAt: at,
    fingerprints: await computeFingerprints(ws.root, recipe, recipe.fingerprints),
  }));
}

export async function deprecateRecipe(ws: Workspace, ref: string, actor: Actor, reason: string, replacedBy?: string) {
  if (!reason.trim()) {
    throw new AutoSnippetError(
      'INVALID_INPUT',
      'Deprecating a recipe needs a reason.',
      'Say why, and name the recipe that replaces it if there is one (replacedBy).',
    );
  }
  const replacement = replacedBy ? (await resolveRecipeRow(ws, replacedBy)).id : undefined;
  const text = replacement ? `${reason.trim()} (replaced by ${replacement})` : reason.trim();
  return changeRecipeStatus(
    ws,
    ref,
    actor,
    'deprecated',
    (at) => ({ deprecatedBy: actor, deprecatedAt: at, deprecationReason: text }),
    text,
  );
}

/** Removes a recipe file and its index rows, usage included. */
export async function deleteRecipe(
  ws: Workspace,
  ref: string,
  actor: Actor,
  reason?: string,
): Promise<{ id: string; file: string }> {
  const row = await resolveRecipeRow(ws, ref);
  assertOwnRecipe(row, 'deleted');
  await fsp.rm(path.join(ws.root, row.file), { force: true });
  await syncRecipes(ws);
  const at = new Date().toISOString();
  await ws.store.transaction((tx) => {
    tx.run('DELETE FROM recipe_usage WHERE recipe_id = ?', [row.id]);
    recordTransition(tx, { entity: 'recipe', id: row.id, from: row.status, to: 'deleted', actor, at, reason });
  });
  return { id: row.id, file: row.file };
}

export interface NewRecipe {
  title: string;
  category: string;
  code?: string;
  language?: string;
  summary?: string;
  trigger?: string;
  knowledgeType?: KnowledgeContent['knowledgeType'];
  tags?: string[];
  sourceFiles?: string[];
}

/**
 * The file a person's new recipe would be (a draft), without writing it: the create_recipe tool writes it
 * through the Gateway and indexes it.
 */
export async function draftRecipeFile(
  ws: Workspace,
  input: NewRecipe,
  actor: Actor,
): Promise<{ file: string; id: string; text: string }> {
  const c = normalizeCandidate({ ...input, summary: input.summary ?? '' }, actor, new Date().toISOString());
  const { file, id } = freeRecipeLocation(ws, input.category, input.title);
  const recipe: Recipe = {
    ...stripCandidate(c),
    trigger: input.trigger ? c.trigger : triggerFor(input.title),
    id,
    kind: c.kind,
    status: 'draft',
    file,
    createdBy: actor,
    createdAt: c.createdAt,
  };
  recipe.fingerprints = await computeFingerprints(ws.root, recipe);
  return { file, id, text: serializeRecipe(recipe) };
}

/** A decision whose UPDATE matched no pending row: another person or process decided first. */
function decidedMeanwhile(id: string): AutoSnippetError {
  return new AutoSnippetError(
    'INVALID_TRANSITION',
    `Candidate ${id} was decided by someone else meanwhile.`,
    'Refresh and look at it again.',
  );
}
