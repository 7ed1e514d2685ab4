import type { Workspace } from '../../ground/workspace';
import { ensureIndexFresh, recipeWalkSettled } from '../knowledge';
import { searchIndex } from '../search/index-cache';
import { searchKnowledge } from './results';

/**
 * Gets recipe search ready before anyone asks, in the background once the store has opened: the recipe
 * files are checked against the index (when the workspace has a database) by a walk no answer waits
 * for, the in-memory search index is loaded or built (in slices, so the thread stays responsive), and
 * one query runs, so the first real one does not pay for compiling the search code either; it settles
 * once the walk is done too. A server calls it at start, so its first `search` answers about as fast as
 * the next; a search that comes meanwhile shares the index load, and answers from the index as stored
 * (saying so) while the walk runs. Never rejects: when it fails, the first search does the work and
 * reports the problem.
 */
export async function prepareRecipeSearch(ws: Workspace): Promise<void> {
  try {
    await ws.storeReady;
    // No database yet (a new workspace, a fresh clone): starting a server creates none; the first search indexes.
    if (!ws.store.state.created) return;
    await ensureIndexFresh(ws);
    await searchIndex(ws);
    await searchKnowledge(ws, { query: 'prepare search', limit: 1 });
    await recipeWalkSettled(ws);
  } catch (e) {
    ws.log.debug('preparing recipe search in the background failed; the first search will try again', e);
  }
}
