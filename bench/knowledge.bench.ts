// Recipe search at 1,000 / 10,000 / 100,000 generated recipes: keyword (BM25 from FTS4 matchinfo),
// semantic (offline vectors), hybrid (RRF) and context_search, side by side with minisearch indexing
// the same documents in the same run; plus duplicate-check latency. Sizes: BENCH_RECIPES (default
// 1000,10000: indexing 100,000 recipes takes minutes, so that size is asked for explicitly, e.g.
// `BENCH_RECIPES=1000,10000,100000 npm run bench -- knowledge`).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import MiniSearch from 'minisearch';
import { Workspace } from '../src/core/workspace';
import { indexRecipeTexts } from '../src/core/knowledge/recipe-index';
import { checkDuplicate } from '../src/core/knowledge/duplicates';
import { recipeRowsByRid } from '../src/core/knowledge/recipes';
import { keywordSearch, semanticSearch } from '../src/core/search';
import { searchKnowledge, contextSearch } from '../src/core/retrieval';
import { type BenchTable, ms, percentile, printTable, sample } from './lib';

const DOMAINS = ['network', 'auth', 'database', 'cache', 'logging', 'ui', 'navigation', 'storage', 'payment', 'search', 'upload', 'analytics', 'config', 'testing', 'security', 'session', 'queue', 'sync', 'media', 'notification'];
const VERBS = ['retry', 'validate', 'parse', 'render', 'cache', 'log', 'fetch', 'store', 'encrypt', 'paginate', 'debounce', 'throttle', 'serialize', 'migrate', 'inject', 'observe', 'dispatch', 'schedule', 'compress', 'sanitize', 'authorize', 'refresh', 'index', 'stream', 'batch'];
const NOUNS = ['request', 'response', 'token', 'user', 'profile', 'order', 'invoice', 'image', 'video', 'message', 'event', 'record', 'query', 'schema', 'form', 'list', 'table', 'route', 'screen', 'button', 'error', 'timeout', 'header', 'cookie', 'payload', 'job', 'worker', 'file', 'chunk', 'report', 'metric', 'span', 'locale', 'theme', 'setting', 'flag', 'device', 'account', 'cart', 'coupon'];
const ADJ = ['failed', 'stale', 'large', 'nested', 'optional', 'concurrent', 'expired', 'partial', 'cached', 'encrypted', 'remote', 'local', 'pending', 'duplicate', 'invalid'];
const LANGS = ['typescript', 'swift', 'kotlin', 'python', 'go'];
const ROLES = ['Service', 'Client', 'Store', 'Manager', 'Repository', 'Provider', 'Gateway', 'Adapter'];
const TYPES = ['code-pattern', 'code-standard', 'best-practice', 'architecture', 'data-flow', 'call-chain'];

interface Doc { file: string; text: string; id: string; title: string; trigger: string; summary: string; body: string; language: string }

/** A deterministic pseudo-random generator (mulberry32), so every run indexes the same recipes. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generate(n: number): Doc[] {
  const r = rng(42);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
  const cap = (s: string) => s[0].toUpperCase() + s.slice(1);
  const docs: Doc[] = [];
  for (let i = 0; i < n; i++) {
    const [verb, adj, noun, domain, noun2] = [pick(VERBS), pick(ADJ), pick(NOUNS), pick(DOMAINS), pick(NOUNS)];
    const title = `${cap(verb)} ${adj} ${noun} in the ${domain} layer`;
    const trigger = `@${verb}${cap(adj)}${cap(noun)}${i}`;
    const role = pick(ROLES);
    const summary = `Always ${verb} ${adj} ${noun}s through ${cap(domain)}${cap(noun2)}${role} before the ${pick(NOUNS)} reaches the ${pick(DOMAINS)} module.`;
    const body = `Use it when a ${noun2} ${pick(VERBS)}s a ${adj} ${noun}. Do not ${pick(VERBS)} the ${pick(NOUNS)} directly; the ${domain} layer owns it.`;
    const language = pick(LANGS);
    const fn = `${verb}${cap(adj)}${cap(noun)}`;
    const code = `export async function ${fn}(${noun}: ${cap(noun)}) {\n  const ${noun2} = await ${domain}${cap(noun2)}${role}.${pick(VERBS)}(${noun});\n  if (!${noun2}.ok) throw new ${cap(domain)}Error('${adj} ${noun}');\n  return ${noun2};\n}`;
    const file = `.autosnippet/recipes/${domain}/r${i}.md`;
    const text = `---\ntitle: ${title}\ntrigger: "${trigger}"\nlanguage: ${language}\nknowledgeType: ${pick(TYPES)}\nsummary: "${summary}"\ntags: [${domain}, ${verb}, ${noun}]\n---\n\n## When to use\n\n${body}\n\n## Code\n\n\`\`\`${language}\n${code}\n\`\`\`\n`;
    docs.push({ file, text, id: `${domain}/r${i}`, title, trigger, summary, body: `${body}\n${code}`, language });
  }
  return docs;
}

/** Queries with a known answer: words of one recipe's title and summary, as a person would type them. */
function queries(docs: Doc[], count: number): { q: string; expect: string }[] {
  const r = rng(7);
  return Array.from({ length: count }, () => {
    const d = docs[Math.floor(r() * docs.length)];
    const words = d.title.toLowerCase().split(' ').filter((w) => !['in', 'the', 'layer'].includes(w));
    const service = /through (\w+)/.exec(d.summary)![1];
    return { q: `${words.join(' ')} ${service}`, expect: d.id };
  });
}

const hitAt = (ranked: string[], expect: string, k: number) => (ranked.slice(0, k).includes(expect) ? 1 : 0);

export async function run(): Promise<BenchTable[]> {
  const sizes = (process.env.BENCH_RECIPES ?? '1000,10000').split(',').map((s) => Number(s.trim())).filter((n) => n > 0);
  const search: BenchTable = {
    title: 'Recipe search: p50 / p95 per query, and hit@10 for queries with a known answer',
    columns: ['recipes', 'engine', 'index time', 'p50', 'p95', 'hit@10'],
    rows: [],
    notes: [
      'Index time: ours = parse + embed + write the FTS4 rows, vectors and metadata into the sql.js store (journaled, as in the extension), excluding reading files from disk; minisearch = addAll in memory.',
      'keyword = field-weighted BM25 from FTS4 matchinfo (trigger 8 > title 4 > summary 2 > rest 1); semantic = 256-dim hashed n-gram vectors, int8, brute force up to 20,000 recipes and a sign-bit shortlist of 2,000 above; hybrid = both fused by RRF plus the metadata of the results (the `search` tool); context = the context_search funnel. minisearch: same four fields, same boosts, prefix search.',
    ],
  };
  const other: BenchTable = { title: 'Duplicate check and vector load', columns: ['recipes', 'check_duplicate p50', 'check_duplicate p95', 'vector matrix load', 'database image'], rows: [] };

  for (const n of sizes) {
    const docs = generate(n);
    const qs = queries(docs, 40);
    const root = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-bench-knowledge-'));
    const ws = await Workspace.open(root);
    try {
      let t0 = performance.now();
      const report = await indexRecipeTexts(ws, docs, { sliceSize: 2000 });
      const ourIndex = performance.now() - t0;
      if (report.problems.length) throw new Error(`generated recipes failed to parse: ${report.problems[0].message}`);
      const idOf = (rids: number[]) => {
        const rows = recipeRowsByRid(ws, rids);
        return rids.map((rid) => rows.get(rid)?.id ?? '');
      };

      t0 = performance.now();
      await semanticSearch(ws, 'warm up the vector matrix');
      const vectorLoad = performance.now() - t0;

      const measure = async (engine: string, index: number | undefined, fn: (q: string) => Promise<string[]> | string[]) => {
        let hits = 0;
        const times = await sample(qs.length, async (i) => {
          const ranked = await fn(qs[Math.max(0, i)].q);
          if (i >= 0) hits += hitAt(ranked, qs[i].expect, 10);
        });
        search.rows.push([n.toLocaleString('en'), engine, index === undefined ? '' : ms(index), ms(percentile(times, 50)), ms(percentile(times, 95)), `${Math.round((hits / qs.length) * 100)}%`]);
      };
      await measure('ours: keyword', ourIndex, async (q) => idOf((await keywordSearch(ws, q, {}, 10)).map((h) => h.rid)));
      await measure('ours: semantic', undefined, async (q) => idOf((await semanticSearch(ws, q, {}, 10)).map((h) => h.rid)));
      await measure('ours: hybrid', undefined, async (q) => (await searchKnowledge(ws, { query: q, limit: 10 })).groups.flatMap((g) => g.results.map((r) => r.id)));
      await measure('ours: context', undefined, async (q) => (await contextSearch(ws, { query: q, limit: 10, currentFile: 'src/a.ts' })).results.map((r) => r.id));

      t0 = performance.now();
      const mini = new MiniSearch<Doc>({ fields: ['trigger', 'title', 'summary', 'body'], storeFields: ['id'], idField: 'id' });
      mini.addAll(docs);
      const miniIndex = performance.now() - t0;
      await measure('minisearch', miniIndex, (q) => mini.search(q, { prefix: true, boost: { trigger: 8, title: 4, summary: 2 } }).slice(0, 10).map((r) => r.id as string));

      const proposals = docs.slice(0, 20).map((d, i) => ({ title: i % 2 ? d.title : `${d.title} variant`, summary: d.summary }));
      const dup = await sample(proposals.length, (i) => checkDuplicate(ws, proposals[Math.max(0, i)], 5));
      other.rows.push([n.toLocaleString('en'), ms(percentile(dup, 50)), ms(percentile(dup, 95)), ms(vectorLoad), `${((ws.store.state.imageBytes + ws.store.state.journalBytes) / 2 ** 20).toFixed(1)} MiB`]);
    } finally {
      await ws.dispose();
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
