import type { Workspace } from '../../ground/workspace';
import { resolveRecipeRow } from './recipes';
import type { UsageEvent, UsageStats } from './types';

const COLUMN: Record<UsageEvent, string> = {
  view: 'views',
  adoption: 'adoptions',
  application: 'applications',
  guard_hit: 'guard_hits',
  helpful: 'helpful',
  unhelpful: 'unhelpful',
};

interface UsageRow {
  recipe_id: string;
  views: number;
  adoptions: number;
  applications: number;
  guard_hits: number;
  helpful: number;
  unhelpful: number;
  last_used_at: string | null;
}

/** Counts a use of a recipe. Counters only: no event log that grows without bound. */
export async function recordUsage(
  ws: Workspace,
  ref: string,
  event: UsageEvent,
  count = 1,
): Promise<{ id: string; usage: UsageStats }> {
  const { id } = await resolveRecipeRow(ws, ref);
  const col = COLUMN[event];
  const at = new Date().toISOString();
  const n = Math.max(1, Math.min(1000, Math.floor(count)));
  await ws.store.transaction((tx) => {
    tx.run('INSERT OR IGNORE INTO recipe_usage (recipe_id) VALUES (?)', [id]);
    tx.run(`UPDATE recipe_usage SET ${col} = ${col} + ?, last_used_at = ? WHERE recipe_id = ?`, [n, at, id]);
  });
  return { id, usage: usageOf(ws, [id]).get(id)! };
}

export function usageOf(ws: Workspace, ids: string[]): Map<string, UsageStats> {
  const out = new Map<string, UsageStats>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    for (const r of ws.store.all<UsageRow>(
      `SELECT * FROM recipe_usage WHERE recipe_id IN (${chunk.map(() => '?').join(',')})`,
      chunk,
    )) out.set(r.recipe_id, toStats(r));
  }
  for (const id of ids) if (!out.has(id)) out.set(id, emptyUsage());
  return out;
}

export function allUsage(ws: Workspace): Map<string, UsageStats> {
  return new Map(ws.store.all<UsageRow>('SELECT * FROM recipe_usage').map((r) => [r.recipe_id, toStats(r)]));
}

export function emptyUsage(): UsageStats {
  return { views: 0, adoptions: 0, applications: 0, guardHits: 0, helpful: 0, unhelpful: 0 };
}

function toStats(r: UsageRow): UsageStats {
  return {
    views: r.views,
    adoptions: r.adoptions,
    applications: r.applications,
    guardHits: r.guard_hits,
    helpful: r.helpful,
    unhelpful: r.unhelpful,
    ...(r.last_used_at ? { lastUsedAt: r.last_used_at } : {}),
  };
}
