/**
 * `context_search`: what an agent should know before it writes code here. A funnel:
 *   1. recall   — keyword and semantic lists, fused (RRF), wide;
 *   2. rerank   — relevance from the fused rank, term coverage on the strong fields and similarity;
 *   3. signals  — relevance, quality, usage, freshness, language match with the current file;
 *   4. session  — what the conversation already touched is not repeated, only listed.
 * A recipe scoped to folders (`paths`) is left out for a current file outside them.
 * A recipe whose cited code changed since it was recorded (stale, see knowledge/freshness) ranks lower
 * and says so. Every result says why it ranked where it did. Results are compact; code only on request, bounded.
 */
import path from 'node:path';
import { languageForPath, normalizeLanguage, ruleLanguagesFor } from '../../ground/kernel/languages';
import type { Workspace } from '../../ground/workspace';
import { inFolderScope } from '../knowledge/folder-scope';
import { freshnessTracker } from '../knowledge/freshness';
import { adoptionScore } from '../knowledge/quality';
import { readRecipe, type RecipeRow, recipeRowsByRid, toSummary } from '../knowledge/recipes';
import type { RecipeKind } from '../knowledge/types';
import { usageOf } from '../knowledge/usage';
import { type RankedHit, rankRecipes } from '../search/hybrid';

export interface ContextRequest {
  query: string;
  /** The file being edited: its language steers the ranking. */
  currentFile?: string;
  language?: string;
  kind?: RecipeKind;
  /** Recipe ids the conversation already saw: listed, not repeated. */
  touched?: string[];
  limit?: number;
  includeCode?: boolean;
  /** Per result, when code is included. */
  maxCodeChars?: number;
}

export interface ContextResult {
  rank: number;
  id: string;
  trigger: string;
  title: string;
  summary: string;
  kind: RecipeKind;
  language: string;
  status: string;
  /** `personal` (the person's own) or `pack` when the recipe is not the project's. */
  origin?: 'personal' | 'pack';
  score: number;
  signals: { relevance: number; quality: number; usage: number; freshness: number; language: number };
  why: string[];
  /** Set when the code the recipe cites changed since it was recorded: what changed. Check the code before following it. */
  stale?: string;
  code?: string;
}

export interface ContextAnswer {
  query: string;
  language?: string;
  results: ContextResult[];
  alreadySeen: { id: string; title: string }[];
  /** How wide each stage was, so a caller can tell a thin knowledge base from a bad query. */
  funnel: { recalled: number; reranked: number; returned: number; skippedTouched: number };
  hint?: string;
}

const WEIGHTS = { relevance: 0.55, quality: 0.15, usage: 0.1, freshness: 0.08, language: 0.12 };
/** A stale recipe keeps its place only against much weaker matches. */
const STALE_FACTOR = 0.7;
const RECALL_DEPTH = 40;
const YEAR_MS = 365 * 24 * 3600 * 1000;

/** A recipe scoped to folders (`paths`) applies to the file being edited only when the file is inside them. */
function appliesToFile(meta: string, file: string | undefined): boolean {
  if (!file || !meta.includes('"paths"')) return true;
  return inFolderScope((JSON.parse(meta) as { paths?: string[] }).paths, file);
}

/** The edited file relative to the workspace, with forward slashes (an absolute path inside it is made relative). */
function relativeToWorkspace(root: string, file: string): string {
  const rel = path.isAbsolute(file) ? path.relative(root, file) : file;
  return rel.split(path.sep).join('/').replace(/\\/g, '/').replace(/^\.\//, '');
}

export async function contextSearch(ws: Workspace, req: ContextRequest, now = Date.now()): Promise<ContextAnswer> {
  const limit = Math.min(20, req.limit ?? 5);
  const language = req.language
    ? normalizeLanguage(req.language) ?? req.language.toLowerCase()
    : req.currentFile
    ? languageForPath(req.currentFile)
    : undefined;
  const touched = new Set(req.touched ?? []);
  const editing = req.currentFile ? relativeToWorkspace(ws.root, req.currentFile) : undefined;

  // 1. recall
  const recalled = await rankRecipes(ws, req.query, 'hybrid', { kind: req.kind }, RECALL_DEPTH);
  const rows = recipeRowsByRid(ws, recalled.map((h) => h.rid));
  const usage = usageOf(ws, [...rows.values()].map((r) => r.id));
  // The last verdicts; a check runs in the background so the request never waits for it.
  const tracker = freshnessTracker(ws);
  tracker.refreshSoon();

  // 2. rerank + 3. signals
  const topFused = recalled[0]?.score ?? 1;
  const topKeyword = Math.max(0, ...recalled.map((h) => h.keyword?.score ?? 0));
  const scored = recalled
    .filter((h) => rows.has(h.rid) && appliesToFile(rows.get(h.rid)!.meta, editing))
    .map((hit) => {
      const row = rows.get(hit.rid)!;
      const relevance = rerank(hit, topFused, topKeyword);
      const quality = row.quality;
      const use = adoptionScore(usage.get(row.id));
      const freshness = Math.exp(-Math.max(0, now - Date.parse(row.updated_at || '1970-01-01')) / YEAR_MS);
      const lang = languageMatch(row, language);
      let score = WEIGHTS.relevance * relevance + WEIGHTS.quality * quality + WEIGHTS.usage * use
        + WEIGHTS.freshness * freshness + WEIGHTS.language * lang;
      if (row.status === 'draft') score *= 0.9;
      const stale = tracker.get(row.id)?.freshness === 'stale' ? tracker.get(row.id)!.reason : undefined;
      if (stale) score *= STALE_FACTOR;
      const signals = {
        relevance: r2(relevance),
        quality: r2(quality),
        usage: r2(use),
        freshness: r2(freshness),
        language: r2(lang),
      };
      return { hit, row, score, signals, stale };
    })
    .sort((a, b) => b.score - a.score || a.row.id.localeCompare(b.row.id));

  // 4. session
  const alreadySeen = scored.filter((s) => touched.has(s.row.id)).map((s) => ({ id: s.row.id, title: s.row.title }));
  const fresh = scored.filter((s) => !touched.has(s.row.id)).slice(0, limit);

  const results: ContextResult[] = [];
  for (const [i, s] of fresh.entries()) {
    const sum = toSummary(s.row);
    const result: ContextResult = {
      rank: i + 1,
      id: sum.id,
      trigger: sum.trigger,
      title: sum.title,
      summary: sum.summary,
      kind: sum.kind,
      language: sum.language,
      status: sum.status,
      ...(sum.origin ? { origin: sum.origin } : {}),
      score: r2(s.score),
      signals: s.signals,
      why: explain(s.hit, s.signals, s.row, language, usage.get(s.row.id)?.adoptions ?? 0, s.stale),
      ...(s.stale ? { stale: s.stale } : {}),
    };
    if (req.includeCode) result.code = await boundedCode(ws, sum.id, req.maxCodeChars ?? 1200);
    results.push(result);
  }
  return {
    query: req.query,
    ...(language ? { language } : {}),
    results,
    alreadySeen,
    funnel: {
      recalled: recalled.length,
      reranked: scored.length,
      returned: results.length,
      skippedTouched: alreadySeen.length,
    },
    ...(results.length === 0
      ? {
        hint: alreadySeen.length
          ? 'Everything relevant was already seen in this conversation.'
          : 'Nothing in the knowledge base matches; if the project has a way of doing this, propose it with submit_candidate.',
      }
      : req.includeCode
      ? {}
      : { hint: 'Call again with includeCode: true, or get_recipe with an id, for the code.' }),
  };
}

/**
 * Relevance 0..1: the fused rank, the BM25 score relative to the best one (rank fusion alone flattens
 * a large lead), how many query terms hit the strong fields, and the similarity.
 */
function rerank(hit: RankedHit, topFused: number, topKeyword: number): number {
  const fused = topFused > 0 ? hit.score / topFused : 0;
  const keyword = hit.keyword && topKeyword > 0 ? hit.keyword.score / topKeyword : 0;
  const strongFields = hit.keyword ? hit.keyword.fields.filter((f) => f !== 'body').length / 3 : 0;
  const coverage = hit.keyword ? hit.keyword.coverage * (0.5 + 0.5 * Math.min(1, strongFields * 1.5)) : 0;
  const similarity = hit.semantic ? Math.max(0, Math.min(1, hit.semantic.similarity / 0.6)) : 0;
  return Math.min(1, 0.35 * fused + 0.25 * keyword + 0.2 * coverage + 0.2 * similarity);
}

function languageMatch(row: RecipeRow, language: string | undefined): number {
  if (!language) return 0.5;
  const lang = row.language.toLowerCase();
  if (lang === language || ruleLanguagesFor(language).includes(lang)) return 1;
  if (lang === 'text' || lang === 'markdown' || row.scope === 'universal') return 0.6;
  return 0;
}

function explain(
  hit: RankedHit,
  s: ContextResult['signals'],
  row: RecipeRow,
  language: string | undefined,
  adoptions: number,
  stale: string | undefined,
): string[] {
  const why: string[] = [];
  if (hit.keyword) {
    why.push(
      `matched ${hit.keyword.fields.join(', ')} (keyword #${hit.keyword.rank}, ${
        Math.round(hit.keyword.coverage * 100)
      }% of the terms)`,
    );
  }
  if (hit.semantic) {
    why.push(`close in meaning (#${hit.semantic.rank}, similarity ${hit.semantic.similarity.toFixed(2)})`);
  }
  if (language) {
    why.push(
      s.language === 1
        ? `same language as the current file (${language})`
        : s.language === 0
        ? `other language (${row.language}) than the current file (${language}): ranked lower`
        : `language-neutral`,
    );
  }
  why.push(`quality ${s.quality.toFixed(2)}`);
  if (adoptions > 0) why.push(`adopted ${adoptions}×`);
  if (s.freshness < 0.5) why.push('not updated for over 8 months');
  if (row.status === 'draft') why.push('draft: not yet published');
  if (stale) {
    why.push(
      'stale: the code it cites changed since it was recorded (ranked lower; check_recipe_freshness has the details)',
    );
  }
  return why;
}

async function boundedCode(ws: Workspace, id: string, maxChars: number): Promise<string | undefined> {
  try {
    const code = (await readRecipe(ws, id)).code;
    if (!code || code.length <= maxChars) return code;
    const cut = code.slice(0, maxChars);
    const at = cut.lastIndexOf('\n');
    const head = at > maxChars / 2 ? cut.slice(0, at) : cut;
    return `${head}\n… (${code.split('\n').length - head.split('\n').length} more lines: get_recipe ${id})`;
  } catch {
    return undefined;
  }
}

const r2 = (x: number) => Math.round(x * 100) / 100;
