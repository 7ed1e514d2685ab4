// The rankers compared by the routing evaluation: ours, and what a user would reach for instead.
import MiniSearch from 'minisearch';
import { type SkillField, SkillSearchIndex } from '../../src/core/domains/skills/search';
import type { Skill } from '../../src/core/domains/skills/types';
import { type Bm25fField, Bm25fIndex } from '../../src/core/ground/text';
import type { Ranker } from './evaluate';

/** AutoSnippet's search_skills: BM25F over the shared analyser, with its confidence and "no match". */
export function oursRanker(
  skills: readonly Skill[],
  options: { fields?: Record<SkillField, Bm25fField>; threshold?: number; semantic?: boolean } = {},
): Ranker {
  // `semantic: false` leaves BM25F alone: neither the n-gram similarity nor the word-vector meaning.
  const index = new SkillSearchIndex(skills, options.fields, { semantic: options.semantic, meaning: options.semantic });
  return (query) => {
    const r = index.route(query, 5, options.threshold);
    return { ranked: (r.noMatch ? index.search(query, 5) : r.matches).map((m) => m.skill.name), noMatch: r.noMatch };
  };
}

/** Plain BM25 (k1 1.2, b 0.75) over name + description + body as one field, lower-cased words, no stemming or stopwords. */
export function plainBm25Ranker(skills: readonly Skill[]): Ranker {
  const words = (t: string) => t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const index = new Bm25fIndex(
    { all: { weight: 1, b: 0.75 } },
    skills.map((s) => ({ all: words(`${s.name} ${s.description} ${s.body}`) })),
  );
  return (query) => {
    const ranked = index.search(words(query), 5).map((m) => skills[m.doc].name);
    return { ranked, noMatch: ranked.length === 0 };
  };
}

/** MiniSearch 7 (BM25+) with the fields and boosts a user would set: name, description, body. */
export function miniSearchRanker(skills: readonly Skill[]): Ranker {
  const mini = new MiniSearch({
    fields: ['name', 'description', 'body'],
    storeFields: ['name'],
    searchOptions: { boost: { name: 2, description: 3 } },
  });
  mini.addAll(
    skills.map((s, id) => ({ id, name: s.name.replace(/-/g, ' '), description: s.description, body: s.body })),
  );
  return (query) => {
    const ranked = mini.search(query).slice(0, 5).map((r) => skills[Number(r.id)].name);
    return { ranked, noMatch: ranked.length === 0 };
  };
}

/**
 * `search_skills {mode: "llm"}` with answers a model gave earlier to the exact prompts it sends
 * (recorded: no model runs here). An empty choice is "no match".
 */
export function recordedRanker(answers: ReadonlyMap<string, readonly string[]>): Ranker {
  return (query) => {
    const chosen = answers.get(query);
    if (!chosen) throw new Error(`no recorded answer for: ${query}`);
    return { ranked: [...chosen], noMatch: chosen.length === 0 };
  };
}
