// The skill routing evaluation's data (bench/data/skill-routing): 190 real skills + our 13 bundled
// ones, and requests written blind by a reviewer. Read-only: the tasks are never edited here.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SkillRegistry } from '../../src/core/domains/skills/registry';
import type { Skill } from '../../src/core/domains/skills/types';

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

/** Round 1 (`tasks.json`, folds A and B), round 2 (`tasks-round2.json`, fold C), rounds 3 to 7 (`tasks-round3.json` to `tasks-round7.json`: folds D to H). */
export function loadTasks(): RoutingTask[] {
  const read = (file: string) =>
    (JSON.parse(readFileSync(path.join(DATA_DIR, file), 'utf8')) as { tasks: RoutingTask[] }).tasks;
  return [
    ...read('tasks.json'),
    ...read('tasks-round2.json'),
    ...read('tasks-round3.json'),
    ...read('tasks-round4.json'),
    ...read('tasks-round5.json'),
    ...read('tasks-round6.json'),
    ...read('tasks-round7.json'),
    ...read('tasks-stack.json'),
  ];
}

export function bundledSkills(): Skill[] {
  return new SkillRegistry({ bundledDir: BUNDLED_DIR }).list();
}

/** The 203-skill catalog: the collections' skills (found by the same scan as a workspace's) and the bundled ones. */
export function catalogSkills(): Skill[] {
  return [...new SkillRegistry({ bundledDir: path.join(DATA_DIR, 'skills') }).list(), ...bundledSkills()];
}

export type Fold = 'A' | 'B' | 'C' | 'D' | 'E' | 'F' | 'G' | 'H' | 'S';
const ROUND_FOLDS: Record<number, Fold> = { 2: 'C', 3: 'D', 4: 'E', 5: 'F', 6: 'G', 7: 'H' };
/** What the tuner fits on (bench/skill-routing/tune.ts). */
export const TUNING_FOLDS = 'ABCDE';
/** Where a refit is checked before it ships; read in session 32 to keep or reject one. */
export const VALIDATION_FOLDS = 'FG';
/** Requests to the bundled skills that name the user's stack (ids `s-…`, session 32): read to keep or reject a change. */
export const STACK_FOLDS = 'S';
/** The test: read only by the benchmark, never for a choice. */
export const TEST_FOLDS = 'H';

/**
 * The parts of the data. Round 1 in two halves (A, B) by a hash of the task id, so the split does not
 * follow the order the reviewer wrote the requests in; rounds 2 to 7 (C to H, ids `r2-…` to `r7-…`),
 * each by another blind reviewer. The ranking constants were fitted on A to C (sessions 21 to 29),
 * when D and E were the tests. Since session 32 the tuner fits on A to E (the "no match" model that
 * ships was fitted there); F and G (rounds 5 and 6) validate a refit before it ships, and H (round 7)
 * is the test. S: 52 everyday requests to the bundled skills that each name the user's stack (a
 * language, a framework, a CI), by another blind writer, also for validation.
 */
export function fold(task: Pick<RoutingTask, 'id'>): Fold {
  if (task.id.startsWith('s-')) return 'S';
  const round = /^r(\d)-/.exec(task.id)?.[1];
  if (round) return ROUND_FOLDS[Number(round)];
  let h = 2166136261;
  for (const ch of task.id) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return (h >>> 0) % 2 === 0 ? 'A' : 'B';
}

/**
 * A model's answers to the prompts `search_skills {mode: "llm"}` sent for the requests of rounds 5 to 7
 * (`llm-answers.json`), and the skills each prompt offered, by request text; undefined when the file
 * is absent.
 */
export function recordedLlmAnswers():
  | { model: string; answers: Map<string, string[]>; offered: Map<string, string[]> }
  | undefined
{
  let data: { model: string; answers: { id: string; matched_skills: string[]; offered: string[] }[] };
  try {
    data = JSON.parse(readFileSync(path.join(DATA_DIR, 'llm-answers.json'), 'utf8')) as typeof data;
  } catch {
    return undefined;
  }
  const byId = new Map(loadTasks().map((t) => [t.id, t.query]));
  return {
    model: data.model,
    answers: new Map(data.answers.map((a) => [byId.get(a.id)!, a.matched_skills])),
    offered: new Map(data.answers.map((a) => [byId.get(a.id)!, a.offered])),
  };
}
