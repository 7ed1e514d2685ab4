// `autosnippet sync | search | candidates | recipes`: thin commands over the catalog's knowledge tools,
// run as a person (actor 'human', channel 'cli'). Text for people by default, --json for programs.
import { createCatalog, type ToolResult } from '../core/catalog';
import type { Workspace } from '../core/ground/workspace';
import { parse } from './args';
import { recipesAccept, recipesCheck } from './freshness';

export interface KnowledgeOutput {
  stdout(s: string): void;
  stderr(s: string): void;
}

export const KNOWLEDGE_USAGE = `Knowledge commands:
  sync [--json]                             re-read the recipe files into the index; exit 1 when a file cannot be read
  search "<query>" [--kind rule|pattern|fact] [--language L] [--limit N] [--mode hybrid|keyword|semantic] [--json]
  candidates [list] [--status pending|approved|rejected|any] [--json]
  candidates show ID | approve ID [--no-promote] [--category C] | reject ID --reason "…"
  recipes [list] [--kind K] [--status draft|published|deprecated|any] [--json]
  recipes show ID | publish ID | deprecate ID --reason "…" [--replaced-by ID]
  recipes check [ID] [--status draft|published|any] [--all] [--json]
                                            recipes whose cited code changed; exit 1 when a published one is stale
  recipes accept ID                         after review: point the recipe at its code as it is now
`;

const OPTIONS = {
  json: { type: 'boolean' },
  force: { type: 'boolean' },
  'no-promote': { type: 'boolean' },
  all: { type: 'boolean' },
  kind: { type: 'string' },
  language: { type: 'string' },
  limit: { type: 'string' },
  mode: { type: 'string' },
  status: { type: 'string' },
  category: { type: 'string' },
  reason: { type: 'string' },
  'replaced-by': { type: 'string' },
} as const;

export async function knowledgeCommand(
  command: string,
  args: string[],
  ws: () => Promise<Workspace>,
  out: KnowledgeOutput,
): Promise<number> {
  const usage = (message: string) => {
    out.stderr(`autosnippet ${command}: ${message}\n\n${KNOWLEDGE_USAGE}`);
    return 2;
  };
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args, OPTIONS);
  } catch (e) {
    return usage((e as Error).message);
  }
  const { positionals: positional, values: flags } = parsed;
  const json = flags.json === true;
  const str = (k: keyof typeof OPTIONS) => (typeof flags[k] === 'string' ? (flags[k] as string) : undefined);
  const catalog = createCatalog();
  const call = async (tool: string, input: Record<string, unknown>): Promise<ToolResult> =>
    catalog.invoke(await ws(), tool, input, { actor: 'human', channel: 'cli' });
  // These commands call their tools by name, so each formatter states the shape it reads.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the formatter's own parameter type is the check
  const finish = (result: ToolResult, text: (data: any) => string): number => {
    if (!result.ok) {
      if (json) out.stdout(JSON.stringify(result, null, 2) + '\n');
      out.stderr(`${result.error.code}: ${result.error.message}${result.error.hint ? `\n${result.error.hint}` : ''}\n`);
      return 1;
    }
    if (result.notice) out.stderr(`${result.notice}\n`);
    out.stdout(json ? JSON.stringify(result.data, null, 2) + '\n' : text(result.data));
    return 0;
  };

  switch (command) {
    case 'sync': {
      const result = await call('rebuild_index', { force: flags.force === true });
      const code = finish(
        result,
        (r) =>
          `${r.scanned} recipe files: ${r.added} added, ${r.updated} updated, ${r.renamed.length} renamed, ${r.removed.length} removed (${r.durationMs} ms)\n`,
      );
      if (result.ok) {
        const problems = (result.data as { problems: { file: string; field?: string; message: string }[] }).problems;
        for (const p of problems) out.stderr(`${p.file}${p.field ? ` (${p.field})` : ''}: ${p.message}\n`);
        if (problems.length) return 1;
      }
      return code;
    }
    case 'search': {
      const query = positional.join(' ').trim();
      if (!query) return usage('search needs a query: autosnippet search "retry http calls"');
      const limit = str('limit') ? Number(str('limit')) : undefined;
      if (limit !== undefined && !Number.isInteger(limit)) return usage('--limit takes a whole number');
      const mode = str('mode') ?? 'hybrid';
      const tool = mode === 'keyword'
        ? 'keyword_search'
        : mode === 'semantic'
        ? 'semantic_search'
        : mode === 'hybrid'
        ? 'search'
        : undefined;
      if (!tool) return usage(`--mode is hybrid, keyword or semantic, not "${mode}"`);
      return finish(
        await call(tool, {
          query,
          ...(str('kind') ? { kind: str('kind') } : {}),
          ...(str('language') ? { language: str('language') } : {}),
          ...(limit ? { limit } : {}),
        }),
        (r) => {
          if (!r.total) return `Nothing found for "${query}".\n`;
          return r.groups
            .map((
              g: {
                kind: string;
                results: { id: string; trigger: string; title: string; summary: string; status: string }[];
              },
            ) =>
              `${g.kind}s\n`
              + g.results.map((x) =>
                `  ${x.trigger.padEnd(24)} ${x.title}${x.status !== 'published' ? ` [${x.status}]` : ''}\n  ${
                  ' '.repeat(24)
                } ${x.summary.slice(0, 100)}  (${x.id})\n`
              ).join('')
            )
            .join('');
        },
      );
    }
    case 'candidates': {
      const [sub = 'list', id] = positional;
      switch (sub) {
        case 'list':
          return finish(
            await call('list_candidates', { status: str('status') ?? 'pending' }),
            (r) =>
              r.total
                ? r.candidates.map((
                  c: { id: string; status: string; kind: string; title: string; confidence: number },
                ) => `${c.id}  ${c.status.padEnd(8)} ${c.kind.padEnd(7)} ${c.title}  (confidence ${c.confidence})\n`)
                  .join('')
                : 'No candidates.\n',
          );
        case 'show':
          if (!id) return usage('candidates show needs an id');
          return finish(await call('get_candidate', { id }), (c) => JSON.stringify(c, null, 2) + '\n');
        case 'approve':
          if (!id) return usage('candidates approve needs an id');
          return finish(
            await call('approve_candidate', {
              id,
              promote: flags['no-promote'] !== true,
              ...(str('category') ? { category: str('category') } : {}),
            }),
            (r) =>
              r.recipe
                ? `Approved ${r.id}; draft recipe ${r.recipe.id} written to ${r.recipe.file}\n`
                : `Approved ${r.id}.\n`,
          );
        case 'reject':
          if (!id) return usage('candidates reject needs an id');
          if (!str('reason')) return usage('candidates reject needs --reason "why"');
          return finish(await call('reject_candidate', { id, reason: str('reason') }), (r) => `Rejected ${r.id}.\n`);
        default:
          return usage(`unknown subcommand "${sub}"`);
      }
    }
    case 'recipes': {
      const [sub = 'list', id] = positional;
      switch (sub) {
        case 'list':
          return finish(
            await call('list_recipes', {
              ...(str('kind') ? { kind: str('kind') } : {}),
              ...(str('status') ? { status: str('status') } : {}),
            }),
            (r) =>
              r.total
                ? r.recipes.map((x: { id: string; status: string; kind: string; trigger: string; title: string }) =>
                  `${x.id.padEnd(40)} ${x.status.padEnd(10)} ${x.kind.padEnd(7)} ${x.trigger}  ${x.title}\n`
                ).join('')
                : 'No recipes.\n',
          );
        case 'show':
          if (!id) return usage('recipes show needs an id');
          return finish(await call('get_recipe', { id, history: true }), (r) => JSON.stringify(r, null, 2) + '\n');
        case 'publish':
          if (!id) return usage('recipes publish needs an id');
          return finish(await call('publish_recipe', { id }), (r) => `Published ${r.id} (${r.file}).\n`);
        case 'deprecate':
          if (!id) return usage('recipes deprecate needs an id');
          if (!str('reason')) return usage('recipes deprecate needs --reason "why"');
          return finish(
            await call('deprecate_recipe', {
              id,
              reason: str('reason'),
              ...(str('replaced-by') ? { replacedBy: str('replaced-by') } : {}),
            }),
            (r) => `Deprecated ${r.id}.\n`,
          );
        case 'check': {
          const status = str('status');
          if (status !== undefined && status !== 'draft' && status !== 'published' && status !== 'any') {
            return usage('--status is draft, published or any');
          }
          return recipesCheck(catalog, await ws(), out, { id, status, json, all: flags.all === true });
        }
        case 'accept':
          if (!id) return usage('recipes accept needs an id');
          return recipesAccept(catalog, await ws(), out, id, json);
        default:
          return usage(`unknown subcommand "${sub}"`);
      }
    }
    default:
      return usage(`unknown command "${command}"`);
  }
}
