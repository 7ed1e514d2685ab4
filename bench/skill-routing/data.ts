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

export function loadTasks(): RoutingTask[] {
  return (JSON.parse(readFileSync(path.join(DATA_DIR, 'tasks.json'), 'utf8')) as { tasks: RoutingTask[] }).tasks;
}

export function bundledSkills(): Skill[] {
  return new SkillRegistry({ bundledDir: BUNDLED_DIR }).list();
}

/** The 203-skill catalog: the collections' skills (found by the same scan as a workspace's) and the bundled ones. */
export function catalogSkills(): Skill[] {
  return [...new SkillRegistry({ bundledDir: path.join(DATA_DIR, 'skills') }).list(), ...bundledSkills()];
}

/**
 * The two halves of the data: tuning (A) and held out (B), by a hash of the task id, so the split does
 * not follow the order the reviewer wrote the requests in. Choices are made on A; figures reported on B.
 */
export function fold(task: Pick<RoutingTask, 'id'>): 'A' | 'B' {
  let h = 2166136261;
  for (const ch of task.id) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return (h >>> 0) % 2 === 0 ? 'A' : 'B';
}
