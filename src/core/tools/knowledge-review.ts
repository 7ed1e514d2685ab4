import { approveCandidate, deleteRecipe, deprecateRecipe, ensureIndexFresh, promoteCandidate, publishRecipe, rejectCandidate } from '../knowledge';
import { candidateRef, recipeRef } from './knowledge-schemas';
import { defineTool, type ToolDefinition } from './types';

// ---- people only (access 'review': the catalog never offers these to agents) ----

const approve = defineTool<{ id: string; promote?: boolean; category?: string; note?: string }, unknown>({
  name: 'approve_candidate',
  title: 'Approve a candidate',
  domain: 'knowledge',
  summary: 'Approve a pending candidate; by default it becomes a draft recipe file at once.',
  description: 'Approves a pending candidate (people only). With promote (default true) it is written as a draft recipe file under .autosnippet/recipes/<category>/ and indexed; category overrides the candidate\'s.',
  inputSchema: { type: 'object', properties: { id: candidateRef, promote: { type: 'boolean', default: true }, category: { type: 'string' }, note: { type: 'string' } }, required: ['id'], additionalProperties: false },
  aliases: { candidateId: 'id' },
  access: 'review',
  maxOutputChars: 4000,
  async handler(ws, input, ctx) {
    const r = await approveCandidate(ws, input.id, ctx.actor, input);
    return { id: r.candidate.id, status: r.candidate.status, ...(r.recipe ? { recipe: r.recipe } : {}) };
  },
});

const reject = defineTool<{ id: string; reason: string }, unknown>({
  name: 'reject_candidate',
  title: 'Reject a candidate',
  domain: 'knowledge',
  summary: 'Reject a pending candidate, with the reason.',
  description: 'Rejects a pending candidate (people only). The reason is kept, and the same proposal submitted again is reported as a duplicate of the rejected one.',
  inputSchema: { type: 'object', properties: { id: candidateRef, reason: { type: 'string', minLength: 1 } }, required: ['id', 'reason'], additionalProperties: false },
  aliases: { candidateId: 'id' },
  access: 'review',
  maxOutputChars: 2000,
  async handler(ws, input, ctx) {
    const c = await rejectCandidate(ws, input.id, ctx.actor, input.reason);
    return { id: c.id, status: c.status, reason: c.rejectionReason };
  },
});

const promote = defineTool<{ id: string; category?: string }, unknown>({
  name: 'promote_candidate',
  title: 'Promote a candidate',
  domain: 'knowledge',
  summary: 'Write an approved candidate as a draft recipe file.',
  description: 'Promotes an approved candidate that is not yet a recipe (approved with promote: false, or its draft was deleted) to a draft recipe file (people only).',
  inputSchema: { type: 'object', properties: { id: candidateRef, category: { type: 'string' } }, required: ['id'], additionalProperties: false },
  aliases: { candidateId: 'id' },
  access: 'review',
  maxOutputChars: 2000,
  handler: (ws, input, ctx) => promoteCandidate(ws, input.id, ctx.actor, input),
});

const publish = defineTool<{ id: string }, unknown>({
  name: 'publish_recipe',
  title: 'Publish a recipe',
  domain: 'knowledge',
  summary: 'Publish a draft recipe.',
  description: 'Marks a draft recipe published (people only): its file\'s frontmatter gets status: published, publishedBy and publishedAt.',
  inputSchema: { type: 'object', properties: { id: recipeRef }, required: ['id'], additionalProperties: false },
  aliases: { recipeId: 'id' },
  access: 'review',
  maxOutputChars: 2000,
  async handler(ws, input, ctx) {
    await ensureIndexFresh(ws);
    return publishRecipe(ws, input.id, ctx.actor);
  },
});

const deprecate = defineTool<{ id: string; reason: string; replacedBy?: string }, unknown>({
  name: 'deprecate_recipe',
  title: 'Deprecate a recipe',
  domain: 'knowledge',
  summary: 'Deprecate a published recipe, with the reason (and its replacement).',
  description: 'Marks a published recipe deprecated (people only), with the reason and, optionally, the recipe that replaces it. Deprecated recipes leave search unless asked for.',
  inputSchema: { type: 'object', properties: { id: recipeRef, reason: { type: 'string', minLength: 1 }, replacedBy: recipeRef }, required: ['id', 'reason'], additionalProperties: false },
  aliases: { recipeId: 'id' },
  access: 'review',
  maxOutputChars: 2000,
  async handler(ws, input, ctx) {
    await ensureIndexFresh(ws);
    return deprecateRecipe(ws, input.id, ctx.actor, input.reason, input.replacedBy);
  },
});

const del = defineTool<{ id: string; confirm: boolean; reason?: string }, unknown>({
  name: 'delete_recipe',
  title: 'Delete a recipe',
  domain: 'knowledge',
  summary: 'Delete a recipe file and its index entry (needs confirm: true).',
  description: 'Deletes a recipe\'s Markdown file and its index rows and usage counts (people only). It cannot be undone from AutoSnippet (git can): pass confirm: true once the person has confirmed.',
  inputSchema: { type: 'object', properties: { id: recipeRef, confirm: { type: 'boolean', description: 'Must be true: the person confirmed the deletion.' }, reason: { type: 'string' } }, required: ['id', 'confirm'], additionalProperties: false },
  aliases: { recipeId: 'id' },
  access: 'review',
  destructive: true,
  maxOutputChars: 2000,
  async handler(ws, input, ctx) {
    await ensureIndexFresh(ws);
    return { ...(await deleteRecipe(ws, input.id, ctx.actor, input.reason)), deleted: true };
  },
});

export const reviewTools: ToolDefinition[] = [approve, reject, promote, publish, deprecate, del];
