import { describeTargets, EXPORT_TARGETS, planExport, writeExport } from '../domains/export';
import { ensureIndexFresh } from '../domains/knowledge';
import { FilePath, Input, List, Opt, Out, StringEnum, Type } from './schema';
import { type AnyTool, defineTool } from './types';

/** Where export_recipes writes: `agents`, `copilot`, `claude`, `cursor` (adapters offer these choices). */
export { EXPORT_TARGETS, type ExportTarget } from '../domains/export';

const ACTIONS = ['create', 'update', 'unchanged', 'skipped', 'refused'] as const;

export const exportRecipesTool = defineTool({
  name: 'export_recipes',
  title: 'Export recipes to agent instruction files',
  domain: 'knowledge',
  summary:
    'Write the published recipes into AGENTS.md, Copilot, Claude Code or Cursor instruction files, inside a marked block.',
  description:
    'People only. Writes the published recipes (rules as short imperative lines, patterns with trigger and summary, facts; each linking to its recipe file) into the instruction files agents read on every request: '
    + '`agents` → AGENTS.md; `copilot` → .github/copilot-instructions.md and .github/instructions/autosnippet-<language>.instructions.md (applyTo); '
    + '`claude` → CLAUDE.md and .claude/rules/autosnippet-<language>.md (paths); `cursor` → .cursor/rules/autosnippet.mdc (alwaysApply) and autosnippet-<language>.mdc (globs). '
    + 'Only the block between the autosnippet:begin and autosnippet:end markers is written; text around it is kept. '
    + 'A file that is a link, or under a folder that is one, is refused (action `refused`, its note names the link and its target), and so is a read-only file (its mode is kept); the other files are still written. Each file stays within a size budget (maxChars, default per target) and says what it left out. '
    + "dryRun: true answers every file's new text without writing.",
  inputSchema: Input({
    to: List(StringEnum(EXPORT_TARGETS), EXPORT_TARGETS.length, {
      minItems: 1,
      uniqueItems: true,
      description: 'Where to export: agents, copilot, claude, cursor.',
    }),
    dryRun: Opt(Type.Boolean({ default: false, description: "Answer the files' new text; write nothing." })),
    maxChars: Opt(
      Type.Integer({
        minimum: 500,
        maximum: 100000,
        description:
          'Size budget per file in characters (default: 12000 agents, 4000 copilot, 8000 claude, 6000 cursor).',
      }),
    ),
  }),
  outputSchema: Out({
    dryRun: Type.Boolean(),
    published: Type.Integer({ description: 'How many recipes are published.' }),
    written: Type.Array(Type.String(), { description: 'The files written (none in a dry run).' }),
    files: Type.Array(Out({
      target: StringEnum(EXPORT_TARGETS),
      path: FilePath(),
      action: StringEnum(ACTIONS),
      chars: Type.Integer(),
      budget: Type.Integer(),
      listed: Type.Integer({ description: 'Recipes the file lists.' }),
      omitted: Type.Integer({ description: 'Recipes left out to stay within the budget (the file says so).' }),
      omittedIds: Opt(Type.Array(Type.String(), { description: 'The first 20 recipes left out.' })),
      note: Opt(Type.String({ description: 'Why a file is skipped or refused.' })),
      text: Opt(Type.String({ description: 'In a dry run: the whole file as it would be written.' })),
    })),
    hint: Type.String(),
    targets: Type.Array(
      Out({ id: StringEnum(EXPORT_TARGETS), label: Type.String(), files: Type.String(), maxChars: Type.Integer() }),
    ),
  }),
  aliases: { target: 'to', targets: 'to', format: 'to' },
  access: 'review',
  maxOutputChars: 60000,
  paginate: 'files',
  async handler(ws, input) {
    await ensureIndexFresh(ws, { wait: true });
    const plan = await planExport(ws, { targets: input.to, maxChars: input.maxChars });
    const written = input.dryRun ? [] : await writeExport(ws, plan);
    const omitted = new Set(plan.files.filter((f) => f.action !== 'refused').flatMap((f) => f.omitted));
    const refused = plan.files.filter((f) => f.action === 'refused').map((f) => f.path);
    return {
      dryRun: !!input.dryRun,
      published: plan.published,
      written,
      files: plan.files.map((f) => ({
        target: f.target,
        path: f.path,
        action: f.action,
        chars: f.chars,
        budget: f.budget,
        listed: f.listed.length,
        omitted: f.omitted.length,
        ...(f.omitted.length ? { omittedIds: f.omitted.slice(0, 20) } : {}),
        ...(f.note ? { note: f.note } : {}),
        ...(input.dryRun && f.action !== 'skipped' && f.action !== 'refused' ? { text: f.text } : {}),
      })),
      hint: (refused.length ? `Refused, nothing written to them: ${refused.join(', ')} (each note says why). ` : '')
        + (plan.published === 0
          ? 'There are no published recipes: publish some first (they are drafts until a person publishes them).'
          : omitted.size
          ? `${omitted.size} recipes did not fit some files' budgets; those files say so and point agents to the MCP tools. Raise maxChars to list more.`
          : 'Every published recipe is listed.'),
      targets: describeTargets(),
    };
  },
});

export const exportTools: AnyTool[] = [exportRecipesTool];
