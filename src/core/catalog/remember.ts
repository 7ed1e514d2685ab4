import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { EXPORT_TARGETS, type ExportTarget, planExport, writeExport } from '../domains/export';
import { findBlock } from '../domains/export/block';
import { filesFor } from '../domains/export/formats';
import { ensureIndexFresh, publishRecipe, submitCandidates } from '../domains/knowledge';
import { draftRecipeFile } from '../domains/knowledge/lifecycle';
import { freePersonalLocation, publishedPersonalText, writePersonalRecipe } from '../domains/knowledge/personal-share';
import { writeFileAtomic } from '../domains/knowledge/recipes';
import { readRepoFileSync } from '../ground/files';
import { languageForPath } from '../ground/kernel/languages';
import { Code, FilePath, Input, Name, Opt, Out, StringEnum, Text, Type } from './schema';
import { type AnyTool, defineTool } from './types';

/** The category a remembered rule is filed under unless the person names one. */
export const REMEMBER_CATEGORY = 'conventions';
const TITLE_CHARS = 80;

/**
 * A title from a person's sentence: its first sentence, cut at a word boundary, without the final
 * stop (the recipe's summary keeps the whole text).
 */
export function titleOf(text: string): string {
  const first = text.trim().split(/(?<=[.!?])\s|(?<=[。！？])/u)[0].replace(/[.!?。！？]+$/u, '').replace(/\s+/g, ' ');
  if (first.length <= TITLE_CHARS) return first;
  const cut = first.slice(0, TITLE_CHARS + 1);
  const space = cut.lastIndexOf(' ');
  return (space > TITLE_CHARS / 2 ? cut.slice(0, space) : cut.slice(0, TITLE_CHARS)).replace(/[\s,;:—-]+$/u, '') + '…';
}

/** Targets whose instruction file already holds our block (the person chose them before), else AGENTS.md. */
export function rememberTargets(root: string): ExportTarget[] {
  const chosen = EXPORT_TARGETS.filter((t) => {
    const main = mainFile(t);
    try {
      // Through the safe reader: an instruction file can be a FIFO or a link out of the workspace.
      return findBlock(readRepoFileSync(root, main, { kind: 'config', maxBytes: 1024 * 1024 }).text, main)
        !== undefined;
    } catch {
      return false;
    }
  });
  return chosen.length ? chosen : ['agents'];
}

/** The file of a target that every export writes (AGENTS.md, CLAUDE.md, …). */
function mainFile(target: ExportTarget): string {
  return filesFor(target, [])[0].path;
}

export const rememberTool = defineTool({
  name: 'remember',
  title: 'Remember a project rule',
  domain: 'knowledge',
  summary:
    "Turn a person's sentence (and code) into a published recipe in one step; an agent's call proposes a candidate instead.",
  description:
    "Records a rule or fact a person states (\"we wrap fetch in apiClient\"), with optional code, as a recipe. Called by a person (the CLI's `autosnippet remember`, VS Code's Remember as Project Rule…, `@autosnippet /remember`), it writes the recipe file under .autosnippet/recipes/<category>/, publishes it and updates the agent instruction files that already carry the AutoSnippet block (AGENTS.md when none does); with `personal: true` it writes it under ~/.autosnippet/recipes/<category>/ instead, for this person in every workspace, and exports nothing; `dryRun: true` answers the file it would write, for the person's one confirmation. "
    + 'Called by an agent, it only proposes: the same content becomes a pending candidate for review.',
  inputSchema: Input({
    text: Text("The rule or fact, in the person's words.", { minLength: 3, maxLength: 4000 }),
    code: Opt(Code('Code that shows it (e.g. the selection).', { maxLength: 20_000 })),
    language: Opt(Name('Language of the code; default from `path`.', { maxLength: 64 })),
    path: Opt(FilePath('Workspace-relative file the code comes from (its language, and a source line).')),
    category: Opt(Name('Folder it is filed under (default conventions).', { minLength: 1 })),
    export: Opt(Type.Boolean({ default: true, description: 'Update the agent instruction files after publishing.' })),
    personal: Opt(Type.Boolean({
      default: false,
      description:
        'Remember it for this person, in ~/.autosnippet/recipes/<category>/ (every workspace they open sees it), not in the project; never exported.',
    })),
    dryRun: Opt(Type.Boolean({ default: false, description: 'Answer what would be written; write nothing.' })),
  }),
  outputSchema: Out({
    status: StringEnum(['published', 'proposed', 'preview'] as const),
    title: Type.String(),
    recipe: Opt(Out({ id: Type.String(), file: Type.String() })),
    candidate: Opt(Type.String({ description: "The candidate an agent's call created (or the one it duplicates)." })),
    text: Opt(Type.String({ description: 'In a preview: the recipe file as it would be written.' })),
    exported: Type.Array(Type.String(), {
      description: 'Instruction files written (or, in a preview, to be written).',
    }),
    personal: Opt(Type.Boolean({ description: "Remembered in the person's own folder: `recipe.file` is that file." })),
  }),
  aliases: { sentence: 'text', rule: 'text', file: 'path' },
  access: 'propose',
  maxOutputChars: 30_000,
  async handler(ws, input, ctx) {
    const title = titleOf(input.text);
    const language = input.language ?? (input.path ? languageForPath(input.path) : undefined);
    const content = {
      title,
      summary: input.text.trim(),
      code: input.code,
      language,
      knowledgeType: 'code-standard' as const,
      sourceFiles: input.path ? [input.path] : undefined,
    };
    if (ctx.actor !== 'human') {
      // The review gate is there to stop agents: their "remember" is a proposal like any other.
      const r = await submitCandidates(ws, [content], ctx.actor);
      return { status: 'proposed' as const, title, candidate: r.created[0] ?? r.duplicates[0]?.existing, exported: [] };
    }
    const category = input.category ?? REMEMBER_CATEGORY;
    if (input.personal) {
      // The person's own folder: published at once, read by every workspace, written into none.
      const at = freePersonalLocation(ws, category, title);
      const drafted = await draftRecipeFile(ws, { ...content, category }, ctx.actor);
      const text = publishedPersonalText(drafted.text, ctx.actor);
      if (!input.dryRun) await writePersonalRecipe(ws, at.abs, text, ctx.actor, at.id);
      return {
        status: input.dryRun ? 'preview' as const : 'published' as const,
        title,
        recipe: { id: at.id, file: at.abs },
        ...(input.dryRun ? { text } : {}),
        exported: [],
        personal: true,
      };
    }
    const draft = await draftRecipeFile(ws, { ...content, category }, ctx.actor);
    const targets = input.export === false ? [] : rememberTargets(ws.root);
    const exportFiles = targets.map(mainFile);
    if (input.dryRun) {
      return {
        status: 'preview' as const,
        title,
        recipe: { id: draft.id, file: draft.file },
        text: draft.text,
        exported: exportFiles,
      };
    }
    const abs = path.join(ws.root, draft.file);
    mkdirSync(path.dirname(abs), { recursive: true });
    await writeFileAtomic(abs, draft.text, { exclusive: true });
    await ensureIndexFresh(ws);
    await publishRecipe(ws, draft.id, ctx.actor);
    const written = targets.length ? await writeExport(ws, await planExport(ws, { targets })) : [];
    return { status: 'published' as const, title, recipe: { id: draft.id, file: draft.file }, exported: written };
  },
});

export const rememberTools: AnyTool[] = [rememberTool];
