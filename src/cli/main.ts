// `autosnippet`: the command line. Every command is a call on the same catalog the MCP server and
// VS Code use; output is JSON on stdout where a program reads it, messages on stderr.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type AnyTool, createCatalog } from '../core/catalog';
import { settingsOutsideEditor, VERSION } from '../core/catalog/adapters';
import { stderrLogger } from '../core/ground/kernel/log';
import { Workspace } from '../core/ground/workspace';
import { MCP_USAGE, parseMcpArgs, UsageError as McpUsageError } from '../mcp/args';
import { toolInput, toolOfCommand, toolUsage, UsageError } from './args';
import { bootstrapCommand } from './bootstrap';
import { exportCommand } from './export';
import { guardCommand } from './guard';
import { KNOWLEDGE_USAGE, knowledgeCommand } from './knowledge';
import { packsCommand } from './packs';
import { rememberCommand } from './remember';
import { skillsCommand } from './skills';
import { customToolsCommand } from './tools';
import { TRUST_USAGE, trustCommand } from './trust';

const USAGE = `autosnippet ${VERSION}: your project's patterns, rules and skills for AI coding agents and people.

Usage: autosnippet [--workspace DIR] <command> [arguments]

Commands:
  mcp [options]             run the MCP server (stdio, or --http PORT); autosnippet mcp -h for options
  health                    version, workspace, database state and counts (JSON)
  tools [domain]            the tool catalog, one line per tool
  tools approve FILE        read a custom tool (.autosnippet/tools) and let it run; autosnippet tools -h
  <tool> [--field value…]   any catalog tool as a person, flags from its input (autosnippet <tool> -h),
                            e.g. autosnippet list-recipes --status any; --json prints the envelope
  call <tool> [json]        call a catalog tool as a person, with JSON arguments (default {})
  skills <command>          validate, list, load and search skills; autosnippet skills -h
  bootstrap [--max-files N] cold start: scan the project and propose candidates for review
  guard [paths…]            check code against the guard rules (text, json, sarif); autosnippet guard -h
  export --to TARGETS       write the published recipes into AGENTS.md, Copilot, Claude or Cursor instruction files; autosnippet export -h
  remember "<rule>"         publish a rule in your words as a recipe (asks once; --yes does not); autosnippet remember -h
  packs <command>           knowledge packs shared through npm or git: add, list, update, remove, create; autosnippet packs -h
  trust [DIR] | --list      trust a folder (kept in ~/.autosnippet/trust.json): its project guard rules may run
  untrust [DIR]             take that back

Options:
  --workspace DIR, -w DIR   the project folder (default: the current folder)
  --trust                   trust the folder for this run only (CI: project guard rules run)
  -h, --help                this help;  --version  the version

Exit codes: 0 success, 1 the command failed, 2 usage error.
`;

export interface Output {
  stdout(s: string): void;
  stderr(s: string): void;
}

const bundledSkillsDir = path.join(__dirname, '..', 'skills');

/** Options before the command (`autosnippet -w DIR guard src`), and the command with its own arguments. */
function splitGlobal(argv: string[]): { workspaceDir: string; trust: boolean; command?: string; args: string[] } {
  const { tokens } = parseArgs({
    args: argv,
    options: { workspace: { type: 'string', short: 'w' }, trust: { type: 'boolean' } },
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  const first = tokens.find((t) =>
    t.kind === 'positional' || (t.kind === 'option' && t.name !== 'workspace' && t.name !== 'trust')
  );
  const globalTokens = tokens.filter((t) => first === undefined || t.index < first.index);
  const ws = globalTokens.find((t) => t.kind === 'option' && t.name === 'workspace');
  if (ws && ws.kind === 'option' && ws.value === undefined) throw new UsageError('--workspace needs a folder');
  const rest = first === undefined ? [] : argv.slice(first.index);
  const trust = globalTokens.some((t) => t.kind === 'option' && t.name === 'trust');
  return {
    workspaceDir: path.resolve(ws?.kind === 'option' ? ws.value ?? '.' : process.cwd()),
    trust,
    command: rest[0],
    args: rest.slice(1),
  };
}

export async function main(argv: string[], out: Output): Promise<number> {
  let split: ReturnType<typeof splitGlobal>;
  try {
    split = splitGlobal(argv);
  } catch (e) {
    out.stderr(`autosnippet: ${(e as Error).message}\nRun autosnippet --help for usage.\n`);
    return 2;
  }
  const { workspaceDir, trust, command, args } = split;
  let opened: Workspace | undefined;
  const ws = async () => {
    const log = stderrLogger('warn');
    return (opened ??= await Workspace.open(workspaceDir, {
      log,
      bundledSkillsDir,
      oneShot: true,
      settings: settingsOutsideEditor(workspaceDir, log, { trust }),
    }));
  };
  try {
    switch (command) {
      case undefined:
      case '-h':
      case '--help':
      case 'help':
        out.stdout(USAGE + '\n' + KNOWLEDGE_USAGE);
        return command === undefined ? 2 : 0;
      case '--version':
        out.stdout(VERSION + '\n');
        return 0;
      case 'mcp':
        if (args.includes('-h') || args.includes('--help')) {
          out.stdout(MCP_USAGE);
          return 0;
        }
        // A --workspace after `mcp` wins over one before it.
        // The MCP server (the SDK, its schemas) is loaded for this command only: 20 ms of every other command's start.
        const { runMcp } = require('../mcp/run') as typeof import('../mcp/run');
        await runMcp(
          parseMcpArgs(['--workspace', workspaceDir, ...(trust ? ['--trust'] : []), ...args]),
          bundledSkillsDir,
        );
        return 0;
      case 'tools': {
        const custom = await customToolsCommand(args, ws, out);
        if (custom !== undefined) return custom;
        const domains = createCatalog().capabilities();
        for (const [domain, tools] of Object.entries(domains)) {
          if (args[0] && args[0] !== domain) continue;
          out.stdout(`${domain}\n`);
          for (const t of tools) out.stdout(`  ${t.name.padEnd(28)} ${t.access.padEnd(8)} ${t.summary}\n`);
        }
        return 0;
      }
      case 'sync':
      case 'search':
      case 'candidates':
      case 'recipes':
        return await knowledgeCommand(command, args, ws, out);
      case 'bootstrap':
        return await bootstrapCommand(args, ws, out);
      case 'guard':
        return await guardCommand(args, ws, out);
      case 'export':
        return await exportCommand(args, ws, out);
      case 'remember':
        return await rememberCommand(args, ws, out);
      case 'packs':
        return await packsCommand(args, ws, out);
      case 'trust':
      case 'untrust':
        if (args.includes('-h') || args.includes('--help')) {
          out.stdout(TRUST_USAGE);
          return 0;
        }
        return trustCommand(command, args, workspaceDir, out);
      case 'skills':
        return await skillsCommand(args, ws, out);
      case 'call': {
        if (!args[0]) throw new UsageError('call needs a tool name: autosnippet call <tool> [json]');
        let input: unknown = {};
        if (args[1] !== undefined) {
          try {
            input = JSON.parse(args[1]);
          } catch {
            throw new UsageError(`the arguments must be JSON, e.g. '{"name": "x"}'; got: ${args[1]}`);
          }
        }
        return await callTool(await ws(), args[0], input, out);
      }
      default: {
        const tool = toolOfCommand(createCatalog(), command);
        if (!tool) throw new UsageError(`unknown command "${command}"`);
        return await toolCommand(tool, args, ws, out);
      }
    }
  } catch (e) {
    if (e instanceof UsageError || e instanceof McpUsageError) {
      out.stderr(`autosnippet: ${e.message}\nRun autosnippet --help for usage.\n`);
      return 2;
    }
    out.stderr(`autosnippet: ${(e as Error).message}\n`);
    return 1;
  } finally {
    await opened?.dispose();
  }
}

/** A catalog tool as a command: flags from its schema, the result's data as JSON (the envelope with --json). */
async function toolCommand(tool: AnyTool, args: string[], ws: () => Promise<Workspace>, out: Output): Promise<number> {
  const catalog = createCatalog();
  const { input, json, help } = toolInput(catalog, tool, args);
  if (help) {
    out.stdout(toolUsage(catalog, tool));
    return 0;
  }
  const result = await catalog.invoke(await ws(), tool.name, input, { actor: 'human', channel: 'cli' });
  if (json) out.stdout(JSON.stringify(result, null, 2) + '\n');
  else if (result.ok) out.stdout(JSON.stringify(result.data, null, 2) + '\n');
  if (!result.ok) {
    out.stderr(`${result.error.code}: ${result.error.message}${result.error.hint ? `\n${result.error.hint}` : ''}\n`);
  } else if (result.truncated) out.stderr(`${result.truncated.hint}\n`);
  if (result.notice && !json) out.stderr(`${result.notice}\n`);
  return result.ok ? 0 : 1;
}

async function callTool(ws: Workspace, name: string, input: unknown, out: Output): Promise<number> {
  const result = await createCatalog().invoke(ws, name, input, { actor: 'human', channel: 'cli' });
  out.stdout(JSON.stringify(result, null, 2) + '\n');
  if (!result.ok) {
    out.stderr(`${result.error.code}: ${result.error.message}${result.error.hint ? `\n${result.error.hint}` : ''}\n`);
  }
  return result.ok ? 0 : 1;
}
