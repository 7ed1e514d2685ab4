import type { Tx } from '../../ground/store/types';
import type { Workspace } from '../../ground/workspace';
import type { StatusChange } from './types';

export type Entity = 'candidate' | 'recipe';

/** Every status change, with actor and time. Bounded: a handful per candidate or recipe. */
export function recordTransition(
  tx: Tx,
  t: { entity: Entity; id: string; from: string | null; to: string; actor: string; at: string; reason?: string },
): void {
  tx.run(
    'INSERT INTO knowledge_transitions (entity, entity_id, from_status, to_status, actor, at, reason) VALUES (?, ?, ?, ?, ?, ?, ?)',
    [
      t.entity,
      t.id,
      t.from,
      t.to,
      t.actor,
      t.at,
      t.reason ?? null,
    ],
  );
}

export function transitionsOf(ws: Workspace, entity: Entity, id: string): StatusChange[] {
  return ws.store
    .all<{ from_status: string | null; to_status: string; actor: string; at: string; reason: string | null }>(
      'SELECT from_status, to_status, actor, at, reason FROM knowledge_transitions WHERE entity = ? AND entity_id = ? ORDER BY seq',
      [entity, id],
    )
    .map((r) => ({
      from: r.from_status,
      to: r.to_status,
      actor: r.actor,
      at: r.at,
      ...(r.reason ? { reason: r.reason } : {}),
    }));
}
