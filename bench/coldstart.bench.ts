// The cold-start evaluation on real repositories (bench/coldstart-eval.ts), when they are on this machine.
import { existsSync } from 'node:fs';
import { evaluate, reposDir } from './coldstart-eval';
import type { BenchTable } from './lib';

export async function run(): Promise<BenchTable[]> {
  if (!existsSync(reposDir())) {
    return [{
      title: 'Cold start on real repositories',
      columns: ['note'],
      rows: [[`skipped: no repositories in ${reposDir()} (set AUTOSNIPPET_EVAL_REPOS)`]],
    }];
  }
  return (await evaluate()).tables;
}
