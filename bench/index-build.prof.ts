// The knowledge bench's indexing step alone, for profiling and A/B runs of one size:
// `N=10000 node --cpu-prof --import tsx bench/index-build.prof.ts` (MINI=1 adds minisearch's addAll).
// Prints wall and CPU time (process.cpuUsage, every thread) of indexRecipeTexts + the first keyword search.
import MiniSearch from 'minisearch';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { indexRecipeTexts } from '../src/core/domains/knowledge/recipe-index';
import { keywordSearch } from '../src/core/domains/search';
import { Workspace } from '../src/core/ground/workspace';
import { benchCorpus } from './recipe-corpus';

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function main() {
  const n = Number(process.env.N ?? 10000);
  const docs = benchCorpus(n);
  const root = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-index-build-'));
  const ws = await Workspace.open(root);
  const c0 = cpu();
  const t0 = performance.now();
  await indexRecipeTexts(ws, docs, { sliceSize: 2000 });
  await keywordSearch(ws, 'warm up the index');
  const ours = [performance.now() - t0, cpu() - c0];
  await ws.dispose();
  rmSync(root, { recursive: true, force: true });
  let mini = [0, 0];
  if (process.env.MINI) {
    const c1 = cpu();
    const t1 = performance.now();
    const m = new MiniSearch({ fields: ['trigger', 'title', 'summary', 'body'], storeFields: ['id'], idField: 'id' });
    m.addAll(docs);
    mini = [performance.now() - t1, cpu() - c1];
  }
  const r = Math.round;
  console.log(
    JSON.stringify({ n, oursWall: r(ours[0]), oursCpu: r(ours[1]), miniWall: r(mini[0]), miniCpu: r(mini[1]) }),
  );
}
void main();
