// Recipe search at 1,000 / 10,000 (/ 100,000) generated recipes plus the real recipes of the cold-start
// evaluation: keyword, semantic, hybrid (the `search` tool) and context_search, side by side with
// minisearch and flexsearch indexing the same documents in the same run, with hit@1 and hit@10 on
// known-answer queries and on intent-phrased questions; plus duplicate-check latency. Sizes:
// BENCH_RECIPES (default 1000,10000,100000; e.g. `BENCH_RECIPES=1000 npm run bench -- knowledge`).
import { Document as FlexDocument, Index as FlexIndex } from 'flexsearch';
import MiniSearch from 'minisearch';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { checkDuplicate } from '../src/core/domains/knowledge/duplicates';
import { indexRecipeTexts } from '../src/core/domains/knowledge/recipe-index';
import { recipeRowsByRid } from '../src/core/domains/knowledge/recipes';
import { contextSearch, searchKnowledge } from '../src/core/domains/retrieval';
import { keywordSearch, semanticSearch } from '../src/core/domains/search';
import { searchIndexFile } from '../src/core/domains/search/index-cache';
import { Workspace } from '../src/core/ground/workspace';
import { type BenchTable, median, ms, percentile, printTable, sample } from './lib';
import { benchCorpus, type BenchRecipe, intentQuestions, type KnownAnswer, knownAnswerQueries } from './recipe-corpus';

/** CPU time of this process so far (all its threads, so garbage collection is counted), in ms. */
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const hitAt = (ranked: string[], expect: string, k: number) => (ranked.slice(0, k).includes(expect) ? 1 : 0);
const pct = (x: number, n: number) => `${Math.round((x / n) * 100)}%`;

type Engine = (q: string) => Promise<string[]> | string[];
const ROUNDS = 3;

export async function run(): Promise<BenchTable[]> {
  const sizes = (process.env.BENCH_RECIPES ?? '1000,10000,100000').split(',').map((s) => Number(s.trim())).filter((n) =>
    n > 0
  );
  const search: BenchTable = {
    title:
      'Recipe search: p50 / p95 per query (known-answer and intent queries together), hit@1 / hit@10 per query set',
    columns: [
      'recipes',
      'engine',
      'index time',
      'index CPU',
      'p50',
      'p95',
      'known-answer hit@1',
      'hit@10',
      'intent hit@1',
      'hit@10',
    ],
    rows: [],
    notes: [
      "Corpus: N generated recipes plus the 52 real recipes of the cold-start evaluation (seven public repositories). Known-answer: 40 queries made of one generated recipe's title and summary words. Intent: the 50 questions of bench/data/recipe-search/questions.json about the real recipes, written before the index was tuned.",
      'Index CPU: the CPU time of the process while it indexed (process.cpuUsage, every thread, so garbage collection and the journal write count), comparable when the machine is loaded where wall time is not.',
      'Index time: ours = parse + embed + write rows and vectors into the sql.js store (journaled, as in the extension) + the in-memory search index, excluding reading files from disk; minisearch / flexsearch = add in memory.',
      "Timing: three rounds; in each, every engine runs all the queries in a block (engines alternate, so machine load falls on all alike, and one engine's garbage is not collected inside another's timings); p50 / p95 over all rounds, on the shared 2-core machine.",
      'keyword = BM25F (trigger 8 > title 4 > summary 2 > rest 1); semantic = hashed n-gram vectors; hybrid = both fused by RRF plus the metadata of the results (the `search` tool); context = the context_search funnel. minisearch: same four fields, same boosts, prefix search; flexsearch (four fields): Document index over the four fields, forward tokenizer, suggest (any word may match), fields merged in order (its merge ranks by field, not by relevance across fields); flexsearch (one field): an Index over the four fields as one text, same options.',
    ],
  };
  const other: BenchTable = {
    title: 'Duplicate check, first search, database size',
    columns: [
      'recipes',
      'check_duplicate p50',
      'check_duplicate p95',
      'first search after indexing',
      'first search, fresh open (saved index)',
      'first search, fresh open (no saved index)',
      'minisearch: first search, fresh open (loadJSON)',
      'saved index',
      'database image',
    ],
    rows: [],
    notes: [
      'First search after indexing: in the process that indexed (the in-memory index built from the rows the sync wrote, then saved). Fresh open: a new Workspace on the same folder, as a new MCP server or a reloaded window, median of 3; with the index saved beside the database by the last process, and with that file removed (the index built from the database rows). Minisearch, the peer: its index saved as JSON by the process that built it, then read from disk, loaded (MiniSearch.loadJSON) and searched once, median of 3.',
    ],
  };

  for (const n of sizes) {
    const docs = benchCorpus(n);
    const known = knownAnswerQueries(docs, 40);
    const intent = intentQuestions();
    const root = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-bench-knowledge-'));
    const ws = await Workspace.open(root);
    let disposed = false;
    try {
      let c0 = cpuMs();
      let t0 = performance.now();
      const report = await indexRecipeTexts(ws, docs, { sliceSize: 2000 });
      if (report.problems.length) throw new Error(`generated recipes failed to parse: ${report.problems[0].message}`);
      t0 = performance.now() - t0;
      const t1 = performance.now();
      await keywordSearch(ws, 'warm up the index');
      const firstSearch = performance.now() - t1;
      const ourIndex = t0 + firstSearch;
      const ourCpu = cpuMs() - c0;
      const idOf = (rids: number[]) => {
        const rows = recipeRowsByRid(ws, rids);
        return rids.map((rid) => rows.get(rid)?.id ?? '');
      };

      c0 = cpuMs();
      let ti = performance.now();
      const mini = new MiniSearch<BenchRecipe>({
        fields: ['trigger', 'title', 'summary', 'body'],
        storeFields: ['id'],
        idField: 'id',
      });
      mini.addAll(docs);
      const miniIndex = performance.now() - ti;
      const miniCpu = cpuMs() - c0;
      c0 = cpuMs();
      ti = performance.now();
      const flex = new FlexDocument(
        { tokenize: 'forward', document: { id: 'id', index: ['trigger', 'title', 'summary', 'body'] } } as never,
      ) as unknown as { add(d: object): void; search(q: string, o: object): { id: string }[] };
      for (const d of docs) {
        flex.add({ id: d.id, trigger: d.trigger.replace(/^@/, ''), title: d.title, summary: d.summary, body: d.body });
      }
      const flexIndex = performance.now() - ti;
      const flexCpu = cpuMs() - c0;
      // The same documents as one text field: flexsearch's Document merge orders by field, not by relevance across fields.
      c0 = cpuMs();
      ti = performance.now();
      const flatDocs = docs.map((d) => `${d.trigger.replace(/^@/, '')} ${d.title} ${d.summary} ${d.body}`);
      const flat = new FlexIndex({ tokenize: 'forward' } as never) as unknown as {
        add(id: number, text: string): void;
        search(q: string, o: object): number[];
      };
      for (const [i, text] of flatDocs.entries()) flat.add(i, text);
      const flatIndex = performance.now() - ti;
      const flatCpu = cpuMs() - c0;

      const engines: [string, [number, number] | undefined, Engine][] = [
        [
          'ours: keyword',
          [ourIndex, ourCpu],
          async (q) => idOf((await keywordSearch(ws, q, {}, 10)).map((h) => h.rid)),
        ],
        ['ours: semantic', undefined, async (q) => idOf((await semanticSearch(ws, q, {}, 10)).map((h) => h.rid))],
        [
          'ours: hybrid (search)',
          undefined,
          async (q) =>
            (await searchKnowledge(ws, { query: q, limit: 10 })).groups.flatMap((g) => g.results.map((r) => r.id)),
        ],
        [
          'ours: context_search',
          undefined,
          async (q) => (await contextSearch(ws, { query: q, limit: 10 })).results.map((r) => r.id),
        ],
        [
          'minisearch',
          [miniIndex, miniCpu],
          (q) =>
            mini.search(q, { prefix: true, boost: { trigger: 8, title: 4, summary: 2 } }).slice(0, 10).map((r) =>
              r.id as string
            ),
        ],
        [
          'flexsearch (four fields)',
          [flexIndex, flexCpu],
          (q) => flex.search(q, { limit: 10, suggest: true, merge: true }).map((r) => r.id),
        ],
        [
          'flexsearch (one field)',
          [flatIndex, flatCpu],
          (q) => flat.search(q, { limit: 10, suggest: true }).map((i) => docs[i].id),
        ],
      ];
      // Rounds of blocks: every engine runs all queries in turn, three times over, so machine load falls
      // on all of them alike, while one engine's garbage is not collected inside another's timings (query
      // by query, minisearch's allocations made the other engines' p95). Hits are counted in the first round.
      const all: (KnownAnswer & { set: 'known' | 'intent' })[] = [
        ...known.map((k) => ({ ...k, set: 'known' as const })),
        ...intent.map((k) => ({ ...k, set: 'intent' as const })),
      ];
      const times = engines.map(() => [] as number[]);
      const hits = engines.map(() => ({ known1: 0, known10: 0, intent1: 0, intent10: 0 }));
      for (let round = 0; round < ROUNDS; round++) {
        for (const [e, [, , fn]] of engines.entries()) {
          await fn('warm up');
          for (const query of all) {
            const s = performance.now();
            const ranked = await fn(query.q);
            times[e].push(performance.now() - s);
            if (round > 0) continue;
            hits[e][`${query.set}1`] += hitAt(ranked, query.expect, 1);
            hits[e][`${query.set}10`] += hitAt(ranked, query.expect, 10);
          }
        }
      }
      for (const [e, [name, index]] of engines.entries()) {
        const h = hits[e];
        search.rows.push([
          n.toLocaleString('en'),
          name,
          index === undefined ? '' : ms(index[0]),
          index === undefined ? '' : ms(index[1]),
          ms(median(times[e])),
          ms(percentile(times[e], 95)),
          pct(h.known1, known.length),
          pct(h.known10, known.length),
          pct(h.intent1, intent.length),
          pct(h.intent10, intent.length),
        ]);
      }

      const proposals = docs.slice(0, 20).map((d, i) => ({
        title: i % 2 ? d.title : `${d.title} variant`,
        summary: d.summary,
      }));
      const dup = await sample(proposals.length, (i) => checkDuplicate(ws, proposals[Math.max(0, i)], 5));
      const image = `${((ws.store.state.imageBytes + ws.store.state.journalBytes) / 2 ** 20).toFixed(1)} MiB`;
      const saved = searchIndexFile(ws);
      const miniFile = path.join(root, 'minisearch.json');
      writeFileSync(miniFile, JSON.stringify(mini));
      const miniOptions = { fields: ['trigger', 'title', 'summary', 'body'], storeFields: ['id'], idField: 'id' };
      const miniFresh: number[] = [];
      for (let i = 0; i < 3; i++) {
        const s = performance.now();
        MiniSearch.loadJSON(readFileSync(miniFile, 'utf8'), miniOptions).search('warm up the index', {
          prefix: true,
          boost: { trigger: 8, title: 4, summary: 2 },
        });
        miniFresh.push(performance.now() - s);
      }
      await ws.dispose();
      disposed = true;
      // A fresh open of the same workspace, as a new MCP server or a reloaded window does: the first
      // search loads the index saved by the last process, or (file removed) builds it from the rows.
      const fresh = async (keepSaved: boolean) => {
        if (!keepSaved) rmSync(saved, { force: true });
        const again = await Workspace.open(root);
        try {
          const s = performance.now();
          await keywordSearch(again, 'warm up the index');
          return performance.now() - s;
        } finally {
          await again.dispose();
        }
      };
      const loaded: number[] = [];
      const rebuilt: number[] = [];
      for (let i = 0; i < 3; i++) {
        loaded.push(await fresh(true));
        rebuilt.push(await fresh(false));
      }
      other.rows.push([
        n.toLocaleString('en'),
        ms(percentile(dup, 50)),
        ms(percentile(dup, 95)),
        ms(firstSearch),
        ms(median(loaded)),
        ms(median(rebuilt)),
        ms(median(miniFresh)),
        `${(statSync(saved).size / 2 ** 20).toFixed(1)} MiB`,
        image,
      ]);
    } finally {
      if (!disposed) await ws.dispose();
      rmSync(root, { recursive: true, force: true });
    }
  }
  return [search, other];
}

if (require.main === module) {
  void run().then(async (tables) => {
    tables.forEach(printTable);
  });
}
