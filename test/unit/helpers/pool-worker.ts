// A worker entry for the pool's own tests: one job that holds ever more memory, one that answers.
import { serveJobs } from '../../../src/core/ground/workers/serve';

const held: string[][] = [];
serveJobs({
  grow: () => {
    for (;;) held.push(Array.from({ length: 100_000 }, (_, i) => `${i}-${held.length}`));
  },
  echo: (p: unknown) => p,
});
