// `autosnippet export --to agents|copilot|claude|cursor`: the published recipes into the instruction
// files agents read, inside a marked block. Writes only what a person asks for; --dry-run writes nothing.
import { existsSync } from 'node:fs';
import { createCatalog } from '../core/catalog';
import { EXPORT_TARGETS, exportRecipesTool, type ExportTarget } from '../core/catalog/export';
import { DATA_DIR, type Workspace } from '../core/ground/workspace';
import { parse, UsageError, wholeNumber } from './args';

export const EXPORT_USAGE =
  `Usage: autosnippet export --to agents|copilot|claude|cursor[,…] [--max-chars N] [--dry-run] [--json]

Writes the published recipes into the instruction files agents read on every request, inside a block
between <!-- autosnippet:begin --> and <!-- autosnippet:end --> markers (text around it is kept):
  agents    AGENTS.md
  copilot   .github/copilot-instructions.md, .github/instructions/autosnippet-<language>.instructions.md
  claude    CLAUDE.md, .claude/rules/autosnippet-<language>.md
  cursor    .cursor/rules/autosnippet.mdc, .cursor/rules/autosnippet-<language>.mdc
--to may be repeated or take a comma-separated list.
--max-chars N   size budget per file (default: agents 12000, copilot 4000, claude 8000, cursor 6000)
--dry-run       print what would change; write nothing
`;

interface Out {
  stdout(s: string): void;
  stderr(s: string): void;
}

const OPTIONS = {
  to: { type: 'string', multiple: true },
  'max-chars': { type: 'string' },
  'dry-run': { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function exportCommand(args: string[], ws: () => Promise<Workspace>, out: Out): Promise<number> {
  const { values } = parse(args, OPTIONS, false);
  if (values.help) {
    out.stdout(EXPORT_USAGE);
    return 0;
  }
  const targets: ExportTarget[] = [];
  for (
    const t of ((values.to as string[] | undefined) ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(
      Boolean,
    )
  ) {
    if (!(EXPORT_TARGETS as readonly string[]).includes(t)) {
      throw new UsageError(`--to takes ${EXPORT_TARGETS.join(', ')}; got "${t}"`);
    }
    if (!targets.includes(t as ExportTarget)) targets.push(t as ExportTarget);
  }
  const maxChars = wholeNumber(values['max-chars'] as string | undefined, '--max-chars', 500);
  const dryRun = values['dry-run'] === true;
  const json = values.json === true;
  if (targets.length === 0) {
    throw new UsageError(`export needs --to, e.g. autosnippet export --to agents\n\n${EXPORT_USAGE}`);
  }
  const workspace = await ws();
  // Recipes live in .autosnippet/: without it there is nothing to export, and the audited write would create the folder.
  if (!existsSync(workspace.dataDir)) {
    out.stderr(`Nothing to export: ${workspace.root} has no ${DATA_DIR}/ folder, so no published recipes.\n`);
    return 0;
  }
  const result = await createCatalog().call(
    workspace,
    exportRecipesTool,
    { to: targets, dryRun, ...(maxChars ? { maxChars } : {}) },
    { actor: 'human', channel: 'cli' },
  );
  if (!result.ok) {
    if (json) out.stdout(JSON.stringify(result, null, 2) + '\n');
    out.stderr(`${result.error.code}: ${result.error.message}${result.error.hint ? `\n${result.error.hint}` : ''}\n`);
    return 1;
  }
  if (result.notice) out.stderr(`${result.notice}\n`);
  const data = result.data;
  // A refused file is one the person asked for and did not get: scripts must see it in the exit code.
  const refused = data.files.filter((f) => f.action === 'refused').map((f) => f.path);
  const code = refused.length ? 1 : 0;
  if (json) {
    out.stdout(JSON.stringify(data, null, 2) + '\n');
    return code;
  }
  const verb: Record<string, string> = dryRun
    ? { create: 'would create', update: 'would update' }
    : { create: 'created', update: 'updated' };
  for (const f of data.files) {
    const told = f.action === 'skipped' || f.action === 'refused';
    out.stdout(
      `${(verb[f.action] ?? f.action).padEnd(13)} ${f.path}${
        told
          ? `: ${f.note}`
          : `  ${f.listed} recipes, ${f.chars}/${f.budget} characters${f.omitted ? `, ${f.omitted} left out` : ''}`
      }\n`,
    );
  }
  if (data.files.length === 0) out.stdout('Nothing to export.\n');
  if (result.truncated) out.stderr(`${result.truncated.hint}\n`);
  if (refused.length) out.stderr(`${refusedLine(refused, dryRun)}\n`);
  else out.stderr(`${data.hint}\n`);
  return code;
}

function refusedLine(refused: string[], dryRun: boolean): string {
  const files = `${refused.length} ${refused.length === 1 ? 'file' : 'files'}`;
  return dryRun
    ? `${files} would be refused (${refused.join(', ')}): nothing would be written to them.`
    : `${files} ${refused.length === 1 ? 'was' : 'were'} refused (${
      refused.join(', ')
    }): nothing was written to them; the other files were written.`;
}
