// The skills' `health` counter: counts stored by the last process that read the skill folders, so a
// first answer does not wait for every SKILL.md to be read.
import { skillRegistry } from '../domains/skills/registry';
import type { Workspace } from '../ground/workspace';
import type { HealthCounter } from './types';

/**
 * What `health` counts for skills: the ones in effect, and the shadowed and skipped ones when there
 * are any. Counting means reading every SKILL.md (1,000 took 0.7 s), so before the skills were read
 * in this process the counts the last process stored answer, and the skills are read after the answer.
 */
export const skillsHealthCounter: HealthCounter = (ws) => {
  const registry = skillRegistry(ws);
  const stored = registry.read || ws.oneShot ? undefined : storedSkillCounts(ws);
  if (stored) {
    setTimeout(() => {
      try {
        countAndStore(ws);
      } catch (e) {
        ws.log.debug('reading the skills after health answered failed', e);
      }
    }, 0).unref();
    return {
      counts: stored,
      pending: 'skills: counted when the skill folders were last read; they are being read again.',
    };
  }
  return countAndStore(ws);
};

const SKILL_COUNTS_KEY = 'skills.counts';

function countAndStore(ws: Workspace): Record<string, number> {
  const { skills, shadowed, skipped } = skillRegistry(ws).counts();
  const counts = {
    skills,
    ...(shadowed ? { skillsShadowed: shadowed } : {}),
    ...(skipped ? { skillsSkipped: skipped } : {}),
  };
  const value = JSON.stringify(counts);
  // Stored only where a database exists: reading creates no files.
  if (storeCreated(ws) && storedValue(ws) !== value) {
    void ws.store.transaction((tx) =>
      tx.run('INSERT OR REPLACE INTO workspace_meta (key, value) VALUES (?, ?)', [SKILL_COUNTS_KEY, value])
    ).catch((e) => ws.log.debug('storing the skill counts failed', e));
  }
  return counts;
}

const storedValue = (ws: Workspace) =>
  ws.store.get<{ value: string }>('SELECT value FROM workspace_meta WHERE key = ?', [SKILL_COUNTS_KEY])?.value;

function storeCreated(ws: Workspace): boolean {
  try {
    return ws.store.state.created;
  } catch {
    return false;
  }
}

function storedSkillCounts(ws: Workspace): Record<string, number> | undefined {
  try {
    const value = storedValue(ws);
    return value ? (JSON.parse(value) as Record<string, number>) : undefined;
  } catch {
    return undefined; // no store: counted from the files
  }
}
