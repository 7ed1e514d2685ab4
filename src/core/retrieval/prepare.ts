import { ensureIndexFresh } from '../knowledge';
import { searchIndex } from '../search/index-cache';
import type { Workspace } from '../workspace';
import { searchKnowledge } from './results';

/**
 * Gets recipe search ready before anyone asks, in the background once the store has opened: the index
 * (when the workspace has a database) is brought in line with the files, the in-memory search index is
 * built (in slices, so the thread stays responsive), and one query runs, so the first real one does not
 * pay for compiling the search code either. A server calls it at start, so its first `search` answers
 * about as fast as the next; a search that comes meanwhile waits for the same work instead of starting
 * its own. Never rejects: when it fails, the first search does the work and reports the problem.
 */
export async function prepareRecipeSearch(ws: Workspace): Promise<void> {
  try {
    await ws.storeReady;
    // No database yet (a new workspace, a fresh clone): starting a server creates none; the first search indexes.
    if (!ws.store.state.created) return;
    await ensureIndexFresh(ws);
    await searchIndex(ws);
    await searchKnowledge(ws, { query: 'prepare search', limit: 1 });
  } catch (e) {
    ws.log.debug('preparing recipe search in the background failed; the first search will try again', e);
  }
}
