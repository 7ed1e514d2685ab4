/**
 * Whether the repository still defines what a documented command runs. Agent instructions and
 * contributor guides outlive the scripts, Makefile targets and files they name; a command whose
 * script, target or file is gone is no longer the project's, however confidently a guide states it.
 * A command of a tool alone (`cargo test`, `go vet ./...`) names nothing the repository defines and stands.
 */
import { parse as parseJsonc } from 'jsonc-parser';
import type { AnalysisContext } from './types';

/** Package-manager subcommands that are the tool's own, not a script of the project. */
const MANAGER_BUILTINS = new Set([
  'install',
  'i',
  'ci',
  'add',
  'remove',
  'rm',
  'uninstall',
  'update',
  'up',
  'upgrade',
  'exec',
  'dlx',
  'x',
  'why',
  'outdated',
  'publish',
  'pack',
  'link',
  'init',
  'create',
  'audit',
  'config',
  'version',
  'info',
  'view',
  'login',
  'logout',
  'whoami',
  'prune',
  'dedupe',
  'rebuild',
  'list',
  'ls',
  'set',
  'workspace',
  'workspaces',
  'help',
  'patch',
  'import',
  'store',
  'cache',
]);
/** Scripts npm runs by their own subcommand (`npm test`), besides `npm run NAME`. */
const NPM_LIFECYCLE = new Set(['test', 't', 'start', 'stop', 'restart']);
/** Options that run a script somewhere else than the root manifest (a workspace package): not checked here. */
const ELSEWHERE = /^(-w|--workspace|--workspaces|--filter|-F|-r|--recursive|-C|--cwd|--dir|--prefix)(=|$)/;
const INTERPRETERS = new Set([
  'sh',
  'bash',
  'zsh',
  'node',
  'python',
  'python3',
  'ruby',
  'perl',
  'pwsh',
  'deno',
  'bun',
  'tsx',
  'ts-node',
]);

export interface CommandDefinitions {
  /** Whether a file of the repository defines what the command runs (or it names nothing to check). */
  defines(command: string): boolean;
}

export async function commandDefinitions(ctx: AnalysisContext): Promise<CommandDefinitions> {
  const scripts = await packageScripts(ctx);
  const targets = await makeTargets(ctx);
  return { defines: (command) => defines(command, scripts, targets, (f) => ctx.has(f)) };
}

function defines(
  command: string,
  scripts: Set<string> | undefined,
  targets: Set<string> | undefined,
  has: (file: string) => boolean,
): boolean {
  const words = command.trim().split(/\s+/);
  const [tool, ...rest] = words;
  if (/^(npm|pnpm|yarn|bun)$/.test(tool)) {
    if (rest.some((w) => ELSEWHERE.test(w))) return true;
    const script = scriptNamed(tool, rest);
    return script === undefined || (scripts?.has(script) ?? false);
  }
  if (tool === 'make' || tool === 'gmake') {
    if (!targets) return false;
    const goals = rest.filter((w) => !w.startsWith('-') && !w.includes('='));
    return goals.every((g) => targets.has(g));
  }
  const file = INTERPRETERS.has(tool) ? rest.find((w) => !w.startsWith('-')) : tool;
  if (file && /^(\.{1,2}\/|scripts\/)|\.(sh|py|rb|pl|[cm]?js|ts)$/.test(file) && !file.includes('$')) {
    return has(file.replace(/^\.\//, ''));
  }
  return true;
}

/** The project script a package-manager command runs, or undefined when it runs the tool's own subcommand. */
function scriptNamed(tool: string, rest: string[]): string | undefined {
  const args = rest.filter((w) => !w.startsWith('-'));
  const [first, second] = args;
  if (!first) return undefined;
  if (first === 'run' || first === 'run-script') return second;
  if (tool === 'npm') return NPM_LIFECYCLE.has(first) ? (first === 't' ? 'test' : first) : undefined;
  // `bun test` is bun's own test runner; yarn and pnpm run a script by its bare name.
  if (tool === 'bun') return undefined;
  return MANAGER_BUILTINS.has(first) ? undefined : first;
}

async function packageScripts(ctx: AnalysisContext): Promise<Set<string> | undefined> {
  if (!ctx.has('package.json')) return undefined;
  const json = parseJsonc((await ctx.read('package.json')) ?? '', [], { allowTrailingComma: true }) as {
    scripts?: Record<string, unknown>;
  } | undefined;
  return new Set(Object.keys(json?.scripts ?? {}));
}

async function makeTargets(ctx: AnalysisContext): Promise<Set<string> | undefined> {
  const file = ['Makefile', 'makefile', 'GNUmakefile'].find((f) => ctx.has(f));
  if (!file) return undefined;
  const targets = new Set<string>();
  for (const line of ((await ctx.read(file)) ?? '').split('\n')) {
    const m = /^([\w./%-]+(?:\s+[\w./%-]+)*)\s*:(?!=)/.exec(line);
    if (m) { for (const t of m[1].split(/\s+/)) targets.add(t); }
  }
  return targets;
}
