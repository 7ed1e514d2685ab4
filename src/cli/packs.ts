// `autosnippet packs …`: knowledge packs, a team's recipes, guard rules and skills shared through the
// npm registry or git, pinned by hash in .autosnippet/packs.json. Each subcommand is a catalog tool.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createCatalog } from '../core/catalog';
import type { Workspace } from '../core/ground/workspace';
import { parse, UsageError } from './args';

export const PACKS_USAGE = `Usage: autosnippet packs <command> [arguments] [--json]

Knowledge packs: recipes, guard rules and skills shared as an npm package or a git repository,
pinned by hash in .autosnippet/packs.json (commit it) and cached in ~/.autosnippet/packs
(AUTOSNIPPET_HOME moves it) for offline use.

  add <name[@version] | file.tgz | git-url[#ref] | repo-folder>
                                fetch a pack, pin its version and hash, load it
  list                          the pinned packs, what each holds, whether it loaded
  update [name] [source] [--dry-run]
                                fetch what each pin follows (or SOURCE for NAME), show the recipes,
                                skills and rules added, removed or changed, and pin it
  remove <name>                 unpin a pack (its cache stays)
  install                       fetch the pinned packs this machine lacks; refuse any whose hash differs
  disable <id> | enable <id>    switch a pack recipe, skill or guard rule off (or on) for this project
  create --out DIR [--name NAME] [--version V] [--description TEXT] [--rules] [--skill NAME]…
         [recipe ids…]         write a pack folder from published recipes (default: all), the guard
                                rule files (--rules) and named skills, for npm pack

A project recipe with the same id as a pack recipe wins. Pack guard rules run only in a trusted
folder, as the project's own rules do (autosnippet trust). Pack recipes are read-only here and are
not exported into AGENTS.md and the other instruction files.
`;

interface Out {
  stdout(s: string): void;
  stderr(s: string): void;
}

const OPTIONS = {
  json: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  out: { type: 'string' },
  name: { type: 'string' },
  version: { type: 'string' },
  description: { type: 'string' },
  rules: { type: 'boolean' },
  skill: { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const;

/** A local path is given relative to where the person is; the tools read paths relative to the workspace. */
function localSource(source: string): string {
  if (/^(git\+|[a-z]+:\/\/|git@)/.test(source)) return source;
  const [base, ref] = source.split('#');
  const looksLocal = /^[./\\~]/.test(base) || path.isAbsolute(base) || /\.(tgz|tar\.gz)$/i.test(base)
    || existsSync(base.replace(/@[^/@]*$/, ''));
  return looksLocal ? path.resolve(base) + (ref !== undefined ? `#${ref}` : '') : source;
}

export async function packsCommand(args: string[], ws: () => Promise<Workspace>, out: Out): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub || sub === '-h' || sub === '--help' || sub === 'help') {
    out.stdout(PACKS_USAGE);
    return sub ? 0 : 2;
  }
  const { values, positionals } = parse(rest, OPTIONS);
  if (values.help) {
    out.stdout(PACKS_USAGE);
    return 0;
  }
  const one = (what: string) => {
    if (positionals.length !== 1) throw new UsageError(`packs ${sub} takes one ${what}\n\n${PACKS_USAGE}`);
    return positionals[0];
  };
  let tool: string;
  let input: Record<string, unknown>;
  switch (sub) {
    case 'add':
      tool = 'add_pack';
      input = { source: localSource(one('source (an npm name, a .tgz file or a git URL)')) };
      break;
    case 'list':
      tool = 'list_packs';
      input = {};
      break;
    case 'update':
      if (positionals.length > 2) throw new UsageError(`packs update takes a pack name and a source at most`);
      tool = 'update_packs';
      input = {
        ...(positionals[0] ? { name: positionals[0] } : {}),
        ...(positionals[1] ? { source: localSource(positionals[1]) } : {}),
        ...(values['dry-run'] ? { dryRun: true } : {}),
      };
      break;
    case 'remove':
      tool = 'remove_pack';
      input = { name: one('pack name') };
      break;
    case 'install':
      tool = 'install_packs';
      input = {};
      break;
    case 'disable':
    case 'enable':
      tool = 'disable_pack_item';
      input = {
        id: one('item id (recipe id, skill name or guard rule id)'),
        ...(sub === 'enable' ? { enable: true } : {}),
      };
      break;
    case 'create':
      if (!values.out) throw new UsageError(`packs create needs --out DIR\n\n${PACKS_USAGE}`);
      tool = 'create_pack';
      input = {
        out: path.resolve(values.out as string),
        ids: positionals,
        ...(values.rules ? { rules: true } : {}),
        ...(Array.isArray(values.skill) && values.skill.length ? { skills: values.skill } : {}),
        ...(values.name ? { name: values.name } : {}),
        ...(values.version ? { version: values.version } : {}),
        ...(values.description ? { description: values.description } : {}),
      };
      break;
    default:
      throw new UsageError(`unknown packs command "${sub}"\n\n${PACKS_USAGE}`);
  }
  const result = await createCatalog().invoke(await ws(), tool, input, { actor: 'human', channel: 'cli' });
  if (!result.ok) {
    out.stderr(`${result.error.code}: ${result.error.message}${result.error.hint ? `\n${result.error.hint}` : ''}\n`);
    return 1;
  }
  const data = result.data as Record<string, unknown>;
  if (values.json) out.stdout(JSON.stringify(data, null, 2) + '\n');
  else out.stdout(describe(sub, { ...data, dryRun: values['dry-run'] === true }));
  const problems = (data.problems ?? []) as { code: string; message: string; hint?: string }[];
  for (const p of problems) out.stderr(`${p.code}: ${p.message}${p.hint ? `\n${p.hint}` : ''}\n`);
  return problems.length ? 1 : 0;
}

type Pack = {
  name: string;
  version: string;
  kind: string;
  source: string;
  integrity?: string;
  commit?: string;
  tree: string;
  recipes: number;
  skills: number;
  rules: number;
};

const counted = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

function pinLine(p: Pack): string {
  return `${p.name}@${p.version} (${p.kind} ${p.source}; ${counted(p.recipes, 'recipe')}, ${
    counted(p.skills, 'skill')
  }, ${counted(p.rules, 'guard rule')})\n`
    + `  ${p.commit ? `commit ${p.commit}` : `integrity ${p.integrity}`}\n  tree ${p.tree}\n`;
}

/** What a person reads after each command; --json prints the data instead. */
function describe(sub: string, data: Record<string, unknown>): string {
  switch (sub) {
    case 'add': {
      const warnings = data.warnings as string[];
      return `Added ${pinLine(data.pack as Pack)}${warnings.map((w) => `  not loaded: ${w}\n`).join('')}`;
    }
    case 'list': {
      const packs = data.packs as (Pack & { loaded: boolean })[];
      const disabled = data.disabled as string[];
      if (!packs.length) return 'No packs are pinned in .autosnippet/packs.json; autosnippet packs add adds one.\n';
      return packs.map((p) => `${p.loaded ? '' : '[not loaded] '}${pinLine(p)}`).join('')
        + (disabled.length ? `Switched off: ${disabled.join(', ')}\n` : '');
    }
    case 'update':
      return (data.updates as { name: string; from: string; to: string; changed: boolean; summary: string[] }[])
        .map((u) =>
          u.changed
            ? `${u.name}: ${u.from} → ${u.to}${data.dryRun ? ' (dry run: not pinned)' : ''}\n${
              (u.summary.length ? u.summary : ['same items; their files changed']).map((l) => `  ${l}\n`).join('')
            }`
            : `${u.name}: ${u.from}, unchanged\n`
        ).join('') || 'No packs to update.\n';
    case 'remove':
      return `Removed ${(data.removed as Pack).name}@${
        (data.removed as Pack).version
      }; its cache stays for offline use.\n`;
    case 'install':
      return (data.installed as { name: string; version: string; action: string }[])
        .map((i) => `${i.name}@${i.version}: ${i.action}\n`).join('') || 'No packs are pinned.\n';
    case 'disable':
    case 'enable':
      return `Switched off for this project: ${(data.disabled as string[]).join(', ') || 'nothing'}\n`;
    case 'create':
      return `Wrote ${(data.files as string[]).length} files to ${data.out} (${
        [
          ...(data.recipes as string[]),
          ...(data.rules as string[]).map((r) => `rule ${r}`),
          ...(data.skills as string[]).map((s) => `skill ${s}`),
        ].join(', ')
      }).\n${data.next}\n`;
    default:
      return JSON.stringify(data, null, 2) + '\n';
  }
}
