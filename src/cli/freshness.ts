// `autosnippet recipes check | accept`: freshness from the command line. `check` exits 1 when a
// published recipe is stale, so CI can keep the knowledge base true to the code.
import type { OutputOf, ToolCatalog, ToolResult } from '../core/catalog';
import { acceptRecipeFreshnessTool, checkRecipeFreshnessTool } from '../core/catalog/freshness';
import type { Workspace } from '../core/ground/workspace';

interface Out {
  stdout(s: string): void;
  stderr(s: string): void;
}

type CheckedRecipe = OutputOf<typeof checkRecipeFreshnessTool>['recipes'][number];

const person = { actor: 'human', channel: 'cli' } as const;
const LABEL: Record<CheckedRecipe['freshness'], string> = {
  stale: 'STALE',
  moved: 'MOVED',
  untracked: 'UNTRACKED',
  fresh: 'fresh',
};

export async function recipesCheck(
  catalog: ToolCatalog,
  ws: Workspace,
  out: Out,
  options: { id?: string; status?: 'draft' | 'published' | 'any'; json: boolean; all: boolean },
): Promise<number> {
  const input = options.id
    ? { id: options.id, details: options.json }
    : { ...(options.status ? { status: options.status } : {}) };
  const recipes: CheckedRecipe[] = [];
  let data: OutputOf<typeof checkRecipeFreshnessTool> | undefined;
  for (let cursor: number | undefined = 0; cursor !== undefined;) {
    const result: ToolResult<OutputOf<typeof checkRecipeFreshnessTool>> = await catalog.call(
      ws,
      checkRecipeFreshnessTool,
      { ...input, ...(cursor ? { cursor } : {}) },
      person,
    );
    if (!result.ok) return failed(result, out, options.json, 2);
    data ??= result.data;
    recipes.push(...result.data.recipes);
    cursor = result.truncated?.nextCursor;
  }
  const stalePublished = recipes.filter((r) => r.freshness === 'stale' && r.status === 'published');
  if (options.json) {
    out.stdout(JSON.stringify({ ...data, recipes }, null, 2) + '\n');
  } else {
    for (const r of recipes) {
      if ((r.freshness === 'fresh' || r.freshness === 'untracked') && !options.all && !options.id) continue;
      out.stdout(
        `${LABEL[r.freshness].padEnd(9)} ${r.id}${
          r.status === 'published' ? '' : ` [${r.status}]`
        }\n          ${r.reason}\n`,
      );
      if (r.freshness === 'moved') out.stdout(`          accept with: autosnippet recipes accept ${r.id}\n`);
    }
    const count = (f: CheckedRecipe['freshness']) => recipes.filter((r) => r.freshness === f).length;
    out.stdout(
      `${recipes.length} recipes checked: ${count('stale')} stale (${stalePublished.length} published), ${
        count('moved')
      } moved, ${count('untracked')} untracked, ${count('fresh')} fresh.\n`,
    );
    const n = stalePublished.length;
    if (n) {
      out.stderr(
        `${n} published recipe${
          n === 1 ? ' cites' : 's cite'
        } code that changed: review each (autosnippet recipes check ID --json shows the lines then and now), then edit it or run autosnippet recipes accept ID.\n`,
      );
    }
  }
  return stalePublished.length ? 1 : 0;
}

export async function recipesAccept(
  catalog: ToolCatalog,
  ws: Workspace,
  out: Out,
  id: string,
  json: boolean,
): Promise<number> {
  const result = await catalog.call(ws, acceptRecipeFreshnessTool, { id }, person);
  if (!result.ok) return failed(result, out, json, 1);
  if (result.notice) out.stderr(`${result.notice}\n`);
  const r = result.data;
  if (json) out.stdout(JSON.stringify(r, null, 2) + '\n');
  else {
    for (const m of r.moved) out.stdout(`${m.from} → ${m.to}\n`);
    out.stdout(`${r.id}: ${r.recorded.length} sources recorded in ${r.file}; now ${r.freshness}.\n`);
  }
  return 0;
}

function failed(result: Extract<ToolResult, { ok: false }>, out: Out, json: boolean, code: number): number {
  if (json) out.stdout(JSON.stringify(result, null, 2) + '\n');
  out.stderr(`${result.error.code}: ${result.error.message}${result.error.hint ? `\n${result.error.hint}` : ''}\n`);
  return code;
}
