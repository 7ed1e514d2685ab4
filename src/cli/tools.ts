// `autosnippet tools approve|revoke|custom`: a person reads a custom tool file of .autosnippet/tools/
// and lets it run (its SHA-256 is remembered in ~/.autosnippet, never in the repository).
import path from 'node:path';
import { createCatalog } from '../core/catalog';
import type { Workspace } from '../core/ground/workspace';
import { parse, UsageError } from './args';
import { askOnTerminal, type Confirm } from './remember';

export const TOOLS_USAGE = `Usage: autosnippet tools [domain]              the tool catalog, one line per tool
       autosnippet tools custom                the folder's own tools (.autosnippet/tools) and their state
       autosnippet tools approve FILE [--yes]  read a custom tool file and let it run (asks once)
       autosnippet tools revoke FILE           take that back

A custom tool is one file, .autosnippet/tools/NAME.mjs (or .js), run by AutoSnippet when an agent calls
NAME, with your rights, on a worker thread with time and memory limits, in a trusted folder only.
Approving shows the file and its SHA-256; the hash is kept in ~/.autosnippet/tool-approvals.json, and a
changed file needs approving again. FILE is the path, the file name or the tool name.
`;

interface Out {
  stdout(s: string): void;
  stderr(s: string): void;
}

const TOOLS_DIR = '.autosnippet/tools';

/** The subcommands about custom tools; `undefined` when `args` asks for the catalog listing instead. */
export async function customToolsCommand(
  args: string[],
  ws: () => Promise<Workspace>,
  out: Out,
  confirm: Confirm = askOnTerminal,
): Promise<number | undefined> {
  const [sub, ...rest] = args;
  if (sub === '-h' || sub === '--help') {
    out.stdout(TOOLS_USAGE);
    return 0;
  }
  if (sub === 'custom') return listCustom(await ws(), out);
  if (sub !== 'approve' && sub !== 'revoke') return undefined;
  const { values, positionals } = parse(rest, { yes: { type: 'boolean', short: 'y' } });
  if (positionals.length !== 1) throw new UsageError(`tools ${sub} takes one file: autosnippet tools ${sub} FILE`);
  const w = await ws();
  const file = shownFile(positionals[0]);
  const catalog = createCatalog();
  const person = { actor: 'human', channel: 'cli' } as const;
  if (sub === 'revoke') {
    const r = await catalog.invoke(w, 'approve_custom_tool', { file, revoke: true }, person);
    if (!r.ok) return failed(out, r.error);
    const revoked = (r.data as { revoked?: boolean }).revoked;
    out.stderr(revoked ? `${file} no longer runs until approved again.\n` : `${file} was not approved.\n`);
    return 0;
  }
  const shown = await catalog.invoke(w, 'approve_custom_tool', { file, dryRun: true }, person);
  if (!shown.ok) return failed(out, shown.error);
  const { sha256, text, file: found } = shown.data as { sha256: string; text: string; file: string };
  if (!values.yes) {
    out.stderr(`${found} (sha256 ${sha256}):\n${indent(text)}\n`);
    const asked = `Let ${found} run when an agent calls it, with your rights (sha256 ${sha256.slice(0, 12)}…)?`;
    if (!(await confirm(asked))) {
      out.stderr(
        process.stdin.isTTY
          ? 'Nothing was approved.\n'
          : 'Nothing was approved: there is no terminal to ask on. Read the file, then run it again with --yes.\n',
      );
      return 1;
    }
  }
  const r = await catalog.invoke(w, 'approve_custom_tool', { file: found, sha256 }, person);
  if (!r.ok) return failed(out, r.error);
  const d = r.data as { name: string; state: string; problem?: string };
  out.stdout(`Approved ${found} (sha256 ${sha256}): the tool ${d.name} is ${d.state}.\n`);
  if (d.problem) out.stderr(`${d.problem}\n`);
  return d.state === 'ready' ? 0 : 1;
}

async function listCustom(w: Workspace, out: Out): Promise<number> {
  const r = await createCatalog().invoke(w, 'list_tools', { domain: 'custom' }, { actor: 'human', channel: 'cli' });
  if (!r.ok) {
    if (r.error.code === 'DOMAIN_NOT_FOUND') {
      out.stderr(`No custom tools: put them in ${TOOLS_DIR}/NAME.mjs.\n`);
      return 0;
    }
    return failed(out, r.error);
  }
  const tools = (r.data as { domains: { tools: { name: string; state: string; file: string; summary: string }[] }[] })
    .domains[0].tools;
  for (const t of tools) out.stdout(`  ${t.name.padEnd(28)} ${t.state.padEnd(15)} ${t.summary}\n`);
  return 0;
}

/** The tool finds the file from its path, its file name or the tool name. */
function shownFile(given: string): string {
  return given.split(path.sep).join('/');
}

function failed(out: Out, error: { code: string; message: string; hint?: string }): number {
  out.stderr(`${error.code}: ${error.message}${error.hint ? `\n${error.hint}` : ''}\n`);
  return 1;
}

function indent(text: string): string {
  return text.split('\n').map((l) => `  │ ${l}`).join('\n');
}
