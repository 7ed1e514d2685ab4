import { ensureIndexFresh } from '../knowledge';
import { describeTargets, EXPORT_TARGETS, planExport, writeExport, type ExportTarget } from '../export';
import { defineTool, type ToolDefinition } from './types';

interface ExportInput { to: ExportTarget[]; dryRun?: boolean; maxChars?: number }

const exportRecipes = defineTool<ExportInput, unknown>({
  name: 'export_recipes',
  title: 'Export recipes to agent instruction files',
  domain: 'knowledge',
  summary: 'Write the published recipes into AGENTS.md, Copilot, Claude Code or Cursor instruction files, inside a marked block.',
  description:
    'People only. Writes the published recipes (rules as short imperative lines, patterns with trigger and summary, facts; each linking to its recipe file) into the instruction files agents read on every request: ' +
    '`agents` → AGENTS.md; `copilot` → .github/copilot-instructions.md and .github/instructions/autosnippet-<language>.instructions.md (applyTo); ' +
    '`claude` → CLAUDE.md and .claude/rules/autosnippet-<language>.md (paths); `cursor` → .cursor/rules/autosnippet.mdc (alwaysApply) and autosnippet-<language>.mdc (globs). ' +
    'Only the block between the autosnippet:begin and autosnippet:end markers is written; text around it is kept. Each file stays within a size budget (maxChars, default per target) and says what it left out. ' +
    'dryRun: true answers every file\'s new text without writing.',
  inputSchema: {
    type: 'object',
    properties: {
      to: { type: 'array', items: { type: 'string', enum: [...EXPORT_TARGETS] }, minItems: 1, uniqueItems: true, description: 'Where to export: agents, copilot, claude, cursor.' },
      dryRun: { type: 'boolean', default: false, description: 'Answer the files\' new text; write nothing.' },
      maxChars: { type: 'integer', minimum: 500, maximum: 100000, description: 'Size budget per file in characters (default: 12000 agents, 4000 copilot, 8000 claude, 6000 cursor).' },
    },
    required: ['to'],
    additionalProperties: false,
  },
  aliases: { target: 'to', targets: 'to', format: 'to' },
  access: 'review',
  maxOutputChars: 60000,
  paginate: 'files',
  async handler(ws, input) {
    await ensureIndexFresh(ws);
    const plan = await planExport(ws, { targets: input.to, maxChars: input.maxChars });
    const written = input.dryRun ? [] : await writeExport(ws, plan);
    const omitted = new Set(plan.files.flatMap((f) => f.omitted));
    return {
      dryRun: !!input.dryRun,
      published: plan.published,
      written,
      files: plan.files.map((f) => ({
        target: f.target, path: f.path, action: f.action, chars: f.chars, budget: f.budget, listed: f.listed.length, omitted: f.omitted.length,
        ...(f.omitted.length ? { omittedIds: f.omitted.slice(0, 20) } : {}),
        ...(f.note ? { note: f.note } : {}),
        ...(input.dryRun && f.action !== 'skipped' ? { text: f.text } : {}),
      })),
      hint: plan.published === 0
        ? 'There are no published recipes: publish some first (they are drafts until a person publishes them).'
        : omitted.size
          ? `${omitted.size} recipes did not fit some files' budgets; those files say so and point agents to the MCP tools. Raise maxChars to list more.`
          : 'Every published recipe is listed.',
      targets: describeTargets(),
    };
  },
});

export const exportTools: ToolDefinition[] = [exportRecipes];
