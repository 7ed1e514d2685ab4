import { analyze } from '../../ground/text';
import type { Workspace } from '../../ground/workspace';
import { embeddingText } from '../search/documents';
import { keywordSearch } from '../search/keyword';
import { embedQuery, semanticSearch } from '../search/semantic';
import { fingerprintOf, normalizeCandidate } from './candidates';
import { recipeRowsByRid } from './recipes';
import type { CandidateInput } from './types';

export interface DuplicateMatch {
  id: string;
  title: string;
  trigger: string;
  status: string;
  /** 0..1 */
  similarity: number;
  reasons: string[];
}

export interface DuplicateReport {
  verdict: 'duplicate' | 'similar' | 'unique';
  /** The nearest recipes, most similar first. */
  recipes: DuplicateMatch[];
  /** Pending candidates that propose the same thing. */
  candidates: { id: string; title: string; similarity: number }[];
  hint: string;
}

export const DUPLICATE_AT = 0.85;
export const SIMILAR_AT = 0.6;

/**
 * The existing recipes nearest to a proposal, each with a similarity score and what makes them
 * close: same trigger, same or similar title, close in meaning.
 */
export async function checkDuplicate(ws: Workspace, input: CandidateInput, limit = 5): Promise<DuplicateReport> {
  const c = normalizeCandidate(input, 'human', '');
  const text = embeddingText(c);
  const vector = await embedQuery(ws, text);
  const semantic = await semanticSearch(ws, vector, { includeDeprecated: true }, 50, 0.05);
  const keyword = await keywordSearch(ws, `${c.title} ${c.trigger.slice(1)}`, { includeDeprecated: true }, 10);
  const cosine = new Map(semantic.map((h) => [h.rid, h.similarity]));
  const rids = [...new Set([...semantic.slice(0, 15).map((h) => h.rid), ...keyword.map((h) => h.rid)])];
  const rows = recipeRowsByRid(ws, rids);
  const titleWords = words(c.title);

  const recipes: DuplicateMatch[] = [];
  for (const rid of rids) {
    const row = rows.get(rid);
    if (!row) continue;
    const cos = Math.max(0, cosine.get(rid) ?? 0);
    const titleSim = dice(titleWords, words(row.title));
    const reasons: string[] = [];
    let sim = 0.65 * cos + 0.35 * titleSim;
    if (row.trigger === c.trigger) {
      sim = Math.max(sim, 0.95);
      reasons.push(`same trigger ${row.trigger}`);
    }
    if (row.title.trim().toLowerCase() === c.title.trim().toLowerCase()) {
      sim = Math.max(sim, 0.9);
      reasons.push('same title');
    } else if (titleSim >= 0.5) reasons.push(`similar title (${titleSim.toFixed(2)})`);
    if (cos >= 0.5) reasons.push(`close in meaning (${cos.toFixed(2)})`);
    recipes.push({
      id: row.id,
      title: row.title,
      trigger: row.trigger,
      status: row.status,
      similarity: Math.round(Math.min(1, sim) * 100) / 100,
      reasons,
    });
  }
  recipes.sort((a, b) => b.similarity - a.similarity || a.id.localeCompare(b.id));

  const fp = fingerprintOf(c);
  const candidates = ws.store
    .all<{ id: string; title: string; fingerprint: string }>(
      "SELECT id, title, fingerprint FROM candidates WHERE status = 'pending' ORDER BY created_at DESC LIMIT 500",
    )
    .map((r) => ({
      id: r.id,
      title: r.title,
      similarity: r.fingerprint === fp ? 1 : Math.round(dice(titleWords, words(r.title)) * 100) / 100,
    }))
    .filter((r) => r.similarity >= 0.6)
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, limit);

  const best = Math.max(recipes[0]?.similarity ?? 0, candidates[0]?.similarity ?? 0);
  const verdict = best >= DUPLICATE_AT ? 'duplicate' : best >= SIMILAR_AT ? 'similar' : 'unique';
  const hint = verdict === 'duplicate'
    ? `This is already known as ${
      recipes[0]?.similarity === best ? recipes[0].id : candidates[0].id
    }: do not submit it again; confirm_usage or suggest an edit instead.`
    : verdict === 'similar'
    ? 'Something close exists: submit only if yours says something the nearest one does not, and say how it differs in reasoning.whyStandard.'
    : 'Nothing close exists: it is new knowledge.';
  return { verdict, recipes: recipes.slice(0, limit), candidates, hint };
}

function words(text: string): Set<string> {
  return new Set(analyze(text));
}

/** Dice coefficient of two word sets. */
function dice(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let both = 0;
  for (const w of a) if (b.has(w)) both++;
  return (2 * both) / (a.size + b.size);
}
