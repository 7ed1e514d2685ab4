// `autosnippet bootstrap`: the cold start from the command line, through the same catalog tool.
import { createCatalog, type ToolCatalog } from '../core/catalog';
import type { BootstrapResult } from '../core/catalog/adapters';
import type { Workspace } from '../core/ground/workspace';
import { parse, wholeNumber } from './args';

export const BOOTSTRAP_USAGE =
  `Usage: autosnippet bootstrap [--max-files N] [--max-file-bytes N] [--dimension ID]... [--json]

Scans the project (respecting .gitignore), analyses the nine knowledge dimensions and records what it
finds as pending candidates for review. Running it again creates no duplicates.

Options:
  --max-files N        read at most N source files (default 2000)
  --max-file-bytes N   skip files larger than N bytes (default 262144)
  --dimension ID       only this dimension (repeatable), e.g. architecture, jsts-async
  --json               print the result envelope as JSON on stdout
  -h, --help           this help

Progress goes to stderr; Ctrl-C cancels (nothing is recorded). Exit codes: 0 done, 1 failed or
cancelled, 2 usage error.
`;

export interface CommandOutput {
  stdout(s: string): void;
  stderr(s: string): void;
}

class BootstrapUsageError extends Error {}

/** `catalog` defaults to the full catalog; tests pass one of their own. */
export async function bootstrapCommand(
  args: string[],
  ws: () => Promise<Workspace>,
  out: CommandOutput,
  catalog: ToolCatalog = createCatalog(),
): Promise<number> {
  let input: Record<string, unknown>;
  let json: boolean;
  try {
    if (args.includes('-h') || args.includes('--help')) {
      out.stdout(BOOTSTRAP_USAGE);
      return 0;
    }
    ({ input, json } = parseArgs(args));
  } catch (e) {
    if (!(e instanceof BootstrapUsageError)) throw e;
    out.stderr(`autosnippet bootstrap: ${e.message}\n\n${BOOTSTRAP_USAGE}`);
    return 2;
  }

  const controller = new AbortController();
  const onSigint = () => {
    out.stderr('\ncancelling…\n');
    controller.abort();
  };
  process.once('SIGINT', onSigint);
  let lastMessage = '';
  try {
    const result = await catalog.invoke(await ws(), 'bootstrap_knowledge', input, {
      actor: 'human',
      channel: 'cli',
      signal: controller.signal,
      progress: (p) => {
        const message = p.message ?? '';
        const line = p.total ? `${message} [${p.done ?? 0}/${p.total}]` : message;
        if (message && line !== lastMessage) out.stderr(`${line}\n`);
        lastMessage = line;
      },
    });
    if (json) out.stdout(JSON.stringify(result, null, 2) + '\n');
    else if (result.notice) out.stderr(`${result.notice}\n`);
    if (!result.ok) {
      out.stderr(`${result.error.code}: ${result.error.message}${result.error.hint ? `\n${result.error.hint}` : ''}\n`);
      return 1;
    }
    if (!json) out.stdout(renderSummary(result.data as BootstrapResult));
    return 0;
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}

function parseArgs(args: string[]): { input: Record<string, unknown>; json: boolean } {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parse(args, {
      json: { type: 'boolean' },
      'max-files': { type: 'string' },
      'max-file-bytes': { type: 'string' },
      dimension: { type: 'string', multiple: true },
    }, false));
  } catch (e) {
    throw new BootstrapUsageError((e as Error).message);
  }
  const integer = (flag: string) => {
    try {
      return wholeNumber(values[flag] as string | undefined, `--${flag}`, 0);
    } catch (e) {
      throw new BootstrapUsageError((e as Error).message);
    }
  };
  const input: Record<string, unknown> = {};
  const maxFiles = integer('max-files');
  const maxFileBytes = integer('max-file-bytes');
  if (maxFiles !== undefined) input.maxFiles = maxFiles;
  if (maxFileBytes !== undefined) input.maxFileBytes = maxFileBytes;
  const dimensions = values.dimension as string[] | undefined;
  if (dimensions?.length) input.dimensions = dimensions;
  return { input, json: values.json === true };
}

/** A few lines a person reads: what was scanned, what was created per dimension, what to do next. */
export function renderSummary(r: BootstrapResult): string {
  const mb = (r.scanned.bytes / 1024 / 1024).toFixed(1);
  const ecosystems = Object.keys(r.targets.ecosystems).join(', ') || 'no build manifest';
  const lines = [
    `Scanned ${r.scanned.files} of ${r.scanned.eligible} source files (${mb} MB) in ${
      (r.durationMs / 1000).toFixed(1)
    } s${r.scanned.capped ? ' (capped: raise --max-files to scan more)' : ''}; ${r.targets.count} target${
      r.targets.count === 1 ? '' : 's'
    } (${ecosystems}).`,
    `Created ${r.candidates.created} candidate${
      r.candidates.created === 1 ? '' : 's'
    }, ${r.candidates.existing} already known.`,
  ];
  const width = Math.max(...r.dimensions.map((d) => d.id.length));
  for (const d of r.dimensions) {
    const ids = d.created.length ? `  ${d.created.slice(0, 4).join(', ')}${d.created.length > 4 ? ', …' : ''}` : '';
    lines.push(
      `  ${d.id.padEnd(width)}  ${String(d.created.length).padStart(3)} new  ${
        String(d.existing.length).padStart(3)
      } known${ids}`,
    );
  }
  lines.push('', `Next: ${r.next}`);
  return lines.join('\n') + '\n';
}
