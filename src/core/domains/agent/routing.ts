/**
 * Skill routing with a model: the BM25 top candidates re-ranked by the model
 * (`search_skills {mode: "llm"}`). The skills tool calls `rerankSkills`; with no model, or when the
 * model's answer cannot be used, the BM25 order stands.
 */
import { type ChatModel, completeJson } from './model';
import { checkSkillRouting, routedNames, skillRoutingPrompt } from './tasks';

export interface SkillCandidate {
  name: string;
  description: string;
}

export interface RerankedSkills {
  matched_skills: SkillCandidate[];
  /** `llm`: the model chose; `bm25`: the model was missing or failed, the BM25 order is returned. */
  ranking: 'llm' | 'bm25';
  /** Why the BM25 order was kept, when it was. */
  note?: string;
}

export async function rerankSkills(
  model: ChatModel | undefined,
  query: string,
  candidates: readonly SkillCandidate[],
  options: { limit?: number; signal?: AbortSignal } = {},
): Promise<RerankedSkills> {
  const limit = options.limit ?? 3;
  const bm25 = (note: string): RerankedSkills => ({
    matched_skills: candidates.slice(0, limit).map(pick),
    ranking: 'bm25',
    note,
  });
  if (!model) return bm25('No language model is available here; the BM25 ranking is returned.');
  if (candidates.length === 0) return { matched_skills: [], ranking: 'llm' };
  const names = candidates.map((c) => c.name);
  const prompt = skillRoutingPrompt(query, candidates, limit);
  try {
    const answer = await completeJson<unknown>(model, prompt.user, checkSkillRouting(names), {
      system: prompt.system,
      signal: options.signal,
      purpose: 'search_skills',
      maxOutputTokens: 200,
    });
    const byName = new Map(candidates.map((c) => [c.name, c]));
    const chosen = [...new Set(routedNames(answer) as string[])].slice(0, limit).map((n) => pick(byName.get(n)!));
    return { matched_skills: chosen, ranking: 'llm' };
  } catch (e) {
    if (options.signal?.aborted) throw e;
    return bm25(`The model's ranking could not be used (${(e as Error).message}); the BM25 ranking is returned.`);
  }
}

const pick = (c: SkillCandidate): SkillCandidate => ({ name: c.name, description: c.description });
