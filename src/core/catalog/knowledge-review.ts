import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  approveCandidate,
  deleteRecipe,
  deprecateRecipe,
  ensureIndexFresh,
  promoteCandidate,
  publishRecipe,
  rejectCandidate,
  reopenCandidate,
} from '../domains/knowledge';
import { draftRecipeFile, type publishRecipe as publishRecipeStatus } from '../domains/knowledge/lifecycle';
import { sharePersonalRecipe } from '../domains/knowledge/personal-share';
import { candidateProperties, candidateRef, recipeRef } from './knowledge-schemas';
import { Code, Domain, FilePath, Input, List, Name, Opt, Out, StringEnum, Text, Type } from './schema';
import { type AnyTool, defineTool } from './types';

const recipeFileOut = Out({ id: Type.String(), file: Type.String() });
const statusChangeOut = Domain<Awaited<ReturnType<typeof publishRecipeStatus>>>(
  'The recipe id, file and its new status.',
);

// ---- people only (access 'review': the catalog never offers these to agents) ----

const approve = defineTool({
  name: 'approve_candidate',
  title: 'Approve a candidate',
  domain: 'knowledge',
  summary: 'Approve a pending candidate; by default it becomes a draft recipe file at once.',
  description:
    "Approves a pending candidate (people only). With promote (default true) it is written as a draft recipe file under .autosnippet/recipes/<category>/ and indexed; category overrides the candidate's.",
  inputSchema: Input({
    id: candidateRef(),
    promote: Opt(Type.Boolean({ default: true })),
    category: Opt(Name()),
    note: Opt(Text()),
  }),
  outputSchema: Out({
    id: Type.String(),
    status: StringEnum(['pending', 'approved', 'rejected']),
    recipe: Opt(recipeFileOut),
  }),
  aliases: { candidateId: 'id' },
  access: 'review',
  maxOutputChars: 4000,
  async handler(ws, input, ctx) {
    const r = await approveCandidate(ws, input.id, ctx.actor, input);
    return { id: r.candidate.id, status: r.candidate.status, ...(r.recipe ? { recipe: r.recipe } : {}) };
  },
});

const reject = defineTool({
  name: 'reject_candidate',
  title: 'Reject a candidate',
  domain: 'knowledge',
  summary: 'Reject a pending candidate, with the reason.',
  description:
    'Rejects a pending candidate (people only). The reason is kept, and the same proposal submitted again is reported as a duplicate of the rejected one.',
  inputSchema: Input({ id: candidateRef(), reason: Text(undefined, { minLength: 1 }) }),
  outputSchema: Out({
    id: Type.String(),
    status: StringEnum(['pending', 'approved', 'rejected']),
    reason: Opt(Type.String()),
  }),
  aliases: { candidateId: 'id' },
  access: 'review',
  maxOutputChars: 2000,
  async handler(ws, input, ctx) {
    const c = await rejectCandidate(ws, input.id, ctx.actor, input.reason);
    return { id: c.id, status: c.status, reason: c.rejectionReason };
  },
});

const reopen = defineTool({
  name: 'reopen_candidate',
  title: 'Undo a decision on a candidate',
  domain: 'knowledge',
  summary: 'Put an approved or rejected candidate back to pending (undo).',
  description:
    "Undoes approve_candidate or reject_candidate (people only): the candidate is pending again and its rejection reason is dropped. An approval's draft recipe is removed with it while it is the unedited draft the approval wrote; a published or edited recipe is refused.",
  inputSchema: Input({ id: candidateRef() }),
  outputSchema: Out({
    id: Type.String(),
    status: StringEnum(['pending', 'approved', 'rejected']),
    removedRecipe: Opt(recipeFileOut),
  }),
  aliases: { candidateId: 'id' },
  access: 'review',
  maxOutputChars: 2000,
  async handler(ws, input, ctx) {
    const r = await reopenCandidate(ws, input.id, ctx.actor);
    return {
      id: r.candidate.id,
      status: r.candidate.status,
      ...(r.removedRecipe ? { removedRecipe: r.removedRecipe } : {}),
    };
  },
});

const promote = defineTool({
  name: 'promote_candidate',
  title: 'Promote a candidate',
  domain: 'knowledge',
  summary: 'Write an approved candidate as a draft recipe file.',
  description:
    'Promotes an approved candidate that is not yet a recipe (approved with promote: false, or its draft was deleted) to a draft recipe file (people only).',
  inputSchema: Input({ id: candidateRef(), category: Opt(Name()) }),
  outputSchema: recipeFileOut,
  aliases: { candidateId: 'id' },
  access: 'review',
  maxOutputChars: 2000,
  handler: (ws, input, ctx) => promoteCandidate(ws, input.id, ctx.actor, input),
});

const publish = defineTool({
  name: 'publish_recipe',
  title: 'Publish a recipe',
  domain: 'knowledge',
  summary: 'Publish a draft recipe.',
  description:
    "Marks a draft recipe published (people only): its file's frontmatter gets status: published, publishedBy and publishedAt.",
  inputSchema: Input({ id: recipeRef() }),
  outputSchema: statusChangeOut,
  aliases: { recipeId: 'id' },
  access: 'review',
  maxOutputChars: 2000,
  async handler(ws, input, ctx) {
    await ensureIndexFresh(ws, { wait: true });
    return publishRecipe(ws, input.id, ctx.actor);
  },
});

const sharePersonal = defineTool({
  name: 'share_personal_recipe',
  title: 'Add a personal recipe to the project',
  domain: 'knowledge',
  summary: 'Copy one of your personal recipes into the project, where it is committed and exported.',
  description:
    'People only. Copies a recipe of origin "personal" (from ~/.autosnippet/recipes) into the project\'s .autosnippet/recipes/ at the same path, so it keeps its id: '
    + "the project's file then overrides the personal one and is committed, exported and reviewed like any project recipe. Personal recipes are never written into a repository otherwise.",
  inputSchema: Input({ id: recipeRef() }),
  outputSchema: Out({
    id: Type.String(),
    file: Type.String({ description: 'The project file written.' }),
    from: Type.String({ description: "The person's file it was copied from." }),
  }),
  aliases: { recipeId: 'id' },
  access: 'review',
  maxOutputChars: 2000,
  async handler(ws, input, ctx) {
    await ensureIndexFresh(ws, { wait: true });
    return sharePersonalRecipe(ws, input.id, ctx.actor);
  },
});

const deprecate = defineTool({
  name: 'deprecate_recipe',
  title: 'Deprecate a recipe',
  domain: 'knowledge',
  summary: 'Deprecate a published recipe, with the reason (and its replacement).',
  description:
    'Marks a published recipe deprecated (people only), with the reason and, optionally, the recipe that replaces it. Deprecated recipes leave search unless asked for.',
  inputSchema: Input({ id: recipeRef(), reason: Text(undefined, { minLength: 1 }), replacedBy: Opt(recipeRef()) }),
  outputSchema: statusChangeOut,
  aliases: { recipeId: 'id' },
  access: 'review',
  maxOutputChars: 2000,
  async handler(ws, input, ctx) {
    await ensureIndexFresh(ws, { wait: true });
    return deprecateRecipe(ws, input.id, ctx.actor, input.reason, input.replacedBy);
  },
});

const del = defineTool({
  name: 'delete_recipe',
  title: 'Delete a recipe',
  domain: 'knowledge',
  summary: 'Delete a recipe file and its index entry (needs confirm: true).',
  description:
    "Deletes a recipe's Markdown file and its index rows and usage counts (people only). It cannot be undone from AutoSnippet (git can): pass confirm: true once the person has confirmed.",
  inputSchema: Input({
    id: recipeRef(),
    confirm: Type.Boolean({ description: 'Must be true: the person confirmed the deletion.' }),
    reason: Opt(Text()),
  }),
  outputSchema: Out({ id: Type.String(), file: Type.String(), deleted: Type.Boolean() }),
  aliases: { recipeId: 'id' },
  access: 'review',
  destructive: true,
  maxOutputChars: 2000,
  async handler(ws, input, ctx) {
    await ensureIndexFresh(ws, { wait: true });
    return { ...(await deleteRecipe(ws, input.id, ctx.actor, input.reason)), deleted: true };
  },
});

const createRecipe = defineTool({
  name: 'create_recipe',
  title: 'Create a draft recipe',
  domain: 'knowledge',
  summary: "Write a person's new recipe (e.g. from a selection) as a draft recipe file, and index it.",
  description:
    'Writes a new draft recipe file under .autosnippet/recipes/<category>/ from a title, a category and the code (people only: agents propose with submit_candidate). '
    + 'A free file name is chosen from the title; the recipe is indexed at once. Returns its id and file.',
  inputSchema: Input({
    title: candidateProperties.title,
    category: Name('The folder it is filed under, e.g. networking.', { minLength: 1 }),
    code: Opt(Code('The code the recipe shows.', { maxLength: 20_000 })),
    language: candidateProperties.language,
    summary: candidateProperties.summary,
    sourceFiles: Opt(List(FilePath(), 50, { description: 'Where the code comes from, as `path:line`.' })),
  }),
  outputSchema: Out({ id: Type.String(), file: Type.String() }),
  access: 'review',
  maxOutputChars: 2000,
  async handler(ws, input, ctx) {
    const draft = await draftRecipeFile(ws, input, ctx.actor);
    const abs = path.join(ws.root, draft.file);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, draft.text, { flag: 'wx' });
    await ensureIndexFresh(ws, { wait: true });
    return { id: draft.id, file: draft.file };
  },
});

export const reviewTools: AnyTool[] = [
  approve,
  reject,
  reopen,
  promote,
  publish,
  sharePersonal,
  deprecate,
  del,
  createRecipe,
];
export {
  approve as approveCandidateTool,
  createRecipe as createRecipeTool,
  del as deleteRecipeTool,
  deprecate as deprecateRecipeTool,
  promote as promoteCandidateTool,
  publish as publishRecipeTool,
  reject as rejectCandidateTool,
  reopen as reopenCandidateTool,
};
