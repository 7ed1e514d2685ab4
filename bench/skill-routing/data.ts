// The skill routing evaluation's data (bench/data/skill-routing): 190 real skills + our 13 bundled
// ones, and requests written blind by a reviewer. Read-only: the tasks are never edited here.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SkillRegistry } from '../../src/core/skills/registry';
import type { Skill } from '../../src/core/skills/types';

export const DATA_DIR = path.join(__dirname, '..', 'data', 'skill-routing');
const BUNDLED_DIR = path.join(__dirname, '..', '..', 'skills');

export interface RoutingTask {
  id: string;
  lang: 'en' | 'zh';
  /** `catalog`: against all 203 skills; `bundled`: against the 13 bundled skills alone. */
  set: 'catalog' | 'bundled';
  query: string;
  /** The skill that fits, or null when none does. */
  expected: string | null;
  alsoAcceptable: string[];
}

/** Round 1 (`tasks.json`, folds A and B), round 2 (`tasks-round2.json`, fold C), rounds 3 and 4 (`tasks-round3.json`, `tasks-round4.json`: folds D and E). */
export function loadTasks(): RoutingTask[] {
  const read = (file: string) => (JSON.parse(readFileSync(path.join(DATA_DIR, file), 'utf8')) as { tasks: RoutingTask[] }).tasks;
  return [...read('tasks.json'), ...read('tasks-round2.json'), ...read('tasks-round3.json'), ...read('tasks-round4.json')];
}

export function bundledSkills(): Skill[] {
  return new SkillRegistry({ bundledDir: BUNDLED_DIR }).list();
}

/** The 203-skill catalog: the collections' skills (found by the same scan as a workspace's) and the bundled ones. */
export function catalogSkills(): Skill[] {
  return [...new SkillRegistry({ bundledDir: path.join(DATA_DIR, 'skills') }).list(), ...bundledSkills()];
}

/**
 * The parts of the data. Round 1 in two halves (A, B) by a hash of the task id, so the split does not
 * follow the order the reviewer wrote the requests in; rounds 2 (C, ids `r2-…`), 3 (D, `r3-…`) and 4
 * (E, `r4-…`, written in session 29), each by another blind reviewer. Every constant that ships is
 * fitted on A, B and C; D and E are the tests, read only by the benchmark.
 */
export function fold(task: Pick<RoutingTask, 'id'>): 'A' | 'B' | 'C' | 'D' | 'E' {
  if (task.id.startsWith('r2-')) return 'C';
  if (task.id.startsWith('r3-')) return 'D';
  if (task.id.startsWith('r4-')) return 'E';
  let h = 2166136261;
  for (const ch of task.id) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return (h >>> 0) % 2 === 0 ? 'A' : 'B';
}
