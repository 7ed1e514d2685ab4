import { analyze, Bm25fIndex, cosine, englishGlosses, HashedNgramEmbedder, isGeneralTechnology, isStopword, mentionsTechnology, stem, technologiesIn, tokenize, wordVectors, type Bm25fField } from '../../ground/text';
import type { Skill } from './types';

/**
 * Field weights and length normalisation of skill search (BM25F). The description and `use-when`
 * lines are the author's own routing text; the name is short and telling; headings and chunk
 * descriptions say what the body covers; the body is long and weighs least (headings add nothing the
 * chunks do not). Tuned on the tuning split of the routing evaluation (bench/skill-routing.bench.ts).
 */
export const SKILL_FIELDS = {
  name: { weight: 3, b: 0.3 },
  description: { weight: 1, b: 0.5 },
  useWhen: { weight: 1, b: 0.5 },
  headings: { weight: 0, b: 0.5 },
  chunks: { weight: 1, b: 0.5 },
  body: { weight: 0.3, b: 0.75 },
} satisfies Record<string, Bm25fField>;
export type SkillField = keyof typeof SKILL_FIELDS;

/**
 * Calibration of the confidence: a logistic function of a match's features (`ConfidenceFeatures`),
 * fitted on the evaluation's tuning rounds (1 and 2) to "the best match is the right skill"
 * (bench/skill-routing/tune.ts). `techMissing` weighs nothing here: it is computed for the best match
 * only, so a confidence that used it would not compare across the matches of one answer.
 */
export const CONFIDENCE_MODEL: ConfidenceModel = { bias: -14.01, coverage: 4.14, routingCoverage: 5.58, strength: 5.83, gap: 8.92, similarity: 8.15, meaning: 11.63, meaningGap: -13.01, techMissing: 0 };

/**
 * The semantic signal: offline hashed word and character-trigram vectors with a small table of
 * programming synonyms (the recipe index's embedder) over each skill's name, description and
 * `use-when` lines, fused with BM25F by reciprocal rank (constant `k`, weight of the semantic list).
 * Fitted on the evaluation's tuning split, its list adds nothing to the ranking (weight 0); its
 * similarity still tells the confidence how close a skill's wording is.
 */
export const SEMANTIC = { dimensions: 1024, k: 10, weight: 0, shortlist: 50, floor: 0.1 };
const embedder = new HashedNgramEmbedder(SEMANTIC.dimensions);

/**
 * The meaning signal: GloVe word vectors (src/core/ground/text/meaning.ts) of the skill's routing text
 * against the request's, a third ranking fused by reciprocal rank with its own weight; it re-orders
 * the skills the words found (requests that say the same thing in other words).
 */
export const MEANING = { weight: 0.1, shortlist: 50 };
/**
 * "No skill fits": a second logistic function, of the best match's features that tell "fits" from
 * "shares words" — how much of the request the skill's own routing text (name, description, use-when)
 * covers, how close the request's meaning is to that text, and whether a Chinese request names
 * products a skill about other products never mentions (`techMissing`) — fitted on the tuning rounds
 * (1 to 4) to "some skill fits this request" with both classes weighted equally. `NO_MATCH_BELOW` is
 * the tuner's threshold: the most off-topic requests recognised with at most 5% of the answerable
 * ones refused in each language. Checked on the validation rounds (5 and 6) and on requests to the
 * bundled skills that name the user's stack (`tasks-stack.json`), where counting every technology
 * against every skill had refused 12 of 52.
 */
export const FIT_MODEL: Partial<ConfidenceModel> & { bias: number } = { bias: -8.96, routingCoverage: 6.79, meaning: 10.99, techMissing: -2.47 };
export const NO_MATCH_BELOW = 0.23;

export interface SkillMatch {
  skill: Skill;
  /** The fused rank score against the best possible one, in (0, 1]; comparable within one query only. */
  score: number;
  /** How sure the ranking is that this skill fits the task, in [0, 1]; comparable across queries. */
  confidence: number;
  /** The words of the query that matched, as the query wrote them. */
  matchedTerms: string[];
}

export interface SkillRouting {
  matches: SkillMatch[];
  /** No skill's confidence clears the threshold: no skill fits this task. */
  noMatch: boolean;
  nearest?: SkillMatch;
}

/**
 * Skill search over one snapshot of the registry: BM25F over name, description, `use-when`, headings,
 * chunk descriptions and body, with the shared analyser (Unicode words, CJK bigrams, stopwords,
 * Porter2 stems, English glosses of Chinese words), fused with the semantic signal. Built once per
 * snapshot; a query costs a pass over the postings of its terms and one sparse dot product per skill.
 */
export class SkillSearchIndex {
  private readonly index: Bm25fIndex<SkillField>;
  /** The routing text's vector of each skill, `embedder.dimensions` per skill; absent when the semantic signal is off. */
  private readonly semantic?: Float32Array;
  /** The meaning vector of each skill's routing text (undefined where no word is known); absent when the signal is off. */
  private readonly meanings?: (Float32Array | undefined)[];
  /** The analysed terms of each skill's routing text (name, description, use-when). */
  private readonly routingTerms: Set<string>[];
  /** Whether each skill's routing text names a product (see `missesTechnologies`), computed when first needed. */
  private readonly techSpecific: (boolean | undefined)[] = [];

  constructor(
    readonly skills: readonly Skill[],
    fields: Record<SkillField, Bm25fField> = SKILL_FIELDS,
    options: { semantic?: boolean; meaning?: boolean } = {},
  ) {
    this.index = new Bm25fIndex(fields, skills.map(skillTerms));
    if (options.semantic ?? true) {
      this.semantic = new Float32Array(skills.length * embedder.dimensions);
      skills.forEach((s, i) => this.semantic!.set(embedder.embedOne(routingText(s)), i * embedder.dimensions));
    }
    this.routingTerms = skills.map((s) => new Set(analyze(routingText(s))));
    const vectors = (options.meaning ?? true) ? wordVectors() : null;
    if (vectors) this.meanings = skills.map((s) => vectors.meaningOf(routingText(s)));
  }

  search(query: string, limit = 5): SkillMatch[] {
    return this.rank(query).slice(0, Math.max(0, limit));
  }

  /**
   * The answer a caller acts on: the best `limit` matches, each with its confidence, when some skill's
   * confidence clears `threshold`; else `noMatch` (and `nearest`, the best there was, to say how far
   * off it is).
   */
  route(query: string, limit = 5, threshold = NO_MATCH_BELOW): SkillRouting {
    const scored = this.scored(query);
    if (!scored.length || fitOf(scored[0].features) < threshold) return { matches: [], noMatch: true, nearest: scored[0]?.match };
    return { matches: scored.slice(0, Math.max(0, limit)).map((s) => s.match), noMatch: false };
  }

  /** Every skill that shares a term with the query, best first, each with its confidence. */
  rank(query: string): SkillMatch[] {
    return this.scored(query).map(({ match }) => match);
  }

  /** The ranking with the features the confidence is computed from (for the evaluation's tuning). */
  explain(query: string): ({ name: string } & ConfidenceFeatures)[] {
    return this.scored(query).map(({ match, features }) => ({ name: match.skill.name, ...features }));
  }

  private scored(query: string): { match: SkillMatch; features: ConfidenceFeatures }[] {
    const { terms, originals, weights, glosses } = skillQuery(query);
    if (terms.length === 0) return [];
    const lexical = this.index.score(terms, weights).sort((a, b) => b.score - a.score || a.doc - b.doc);
    const semantic = this.semantic ? this.similarities(glosses.length ? `${query}\n${glosses.join(' ')}` : query) : [];
    const meaning = this.meaningSimilarities(query);
    if (lexical.length === 0 && semantic.length === 0 && (MEANING.weight === 0 || !meaning)) return [];

    // Reciprocal rank fusion of the two rankings; a skill only one of them finds still ranks.
    const fused = new Map<number, { rrf: number; lexical?: (typeof lexical)[number]; similarity: number }>();
    const similarity = new Map(semantic.map((s) => [s.doc, s.similarity]));
    const entry = (doc: number) => {
      let e = fused.get(doc);
      if (!e) fused.set(doc, (e = { rrf: 0, similarity: similarity.get(doc) ?? 0 }));
      return e;
    };
    lexical.forEach((m, r) => {
      const e = entry(m.doc);
      e.rrf += 1 / (SEMANTIC.k + r + 1);
      e.lexical = m;
    });
    semantic.slice(0, SEMANTIC.shortlist).forEach((s, r) => (entry(s.doc).rrf += SEMANTIC.weight / (SEMANTIC.k + r + 1)));
    // The meaning list re-orders the skills the words found; on its own it would list every skill.
    if (meaning && MEANING.weight > 0) {
      meaning.ranked().slice(0, MEANING.shortlist).forEach((doc, r) => {
        const e = fused.get(doc);
        if (e) e.rrf += MEANING.weight / (SEMANTIC.k + r + 1);
      });
    }
    // Equal fused scores (skills only the letters found: typos, when the semantic list has no weight) by similarity.
    const ranked = [...fused.entries()].sort((a, b) => b[1].rrf - a[1].rrf || b[1].similarity - a[1].similarity || a[0] - b[0]);
    const idf = new Map(terms.map((t) => [t, this.unknownAwareIdf(t) * (weights.get(t) ?? 1)]));
    // When Chinese words were translated, the skills are read through the translation: the Chinese
    // terms themselves, which English skills lack, do not count against the coverage.
    const totalIdf = [...idf.entries()].reduce((a, [t, v]) => a + (glosses.length && HAN.test(t) && !this.index.documentFrequency(t) ? 0 : v), 0) || 1;
    const ceiling = this.index.maxScore(terms) || 1;
    // A Chinese request reaches English skills through translated words, which are loose; the
    // technologies it names (Jira, Redis, 钉钉) are what pin it down.
    const named = HAN.test(query) ? [...technologiesIn(query)] : [];
    const bestFused = (1 + (this.semantic ? SEMANTIC.weight : 0) + (this.meanings ? MEANING.weight : 0)) / (SEMANTIC.k + 1);
    // The confidence shown never rises down the list: a skill the ranking puts below another is no
    // likelier to fit. Ordering the list by the confidence instead would let one signal (the
    // no-match model's) overrule the fused ranking it was not fitted to order by.
    let ceilingConfidence = 1;
    return ranked.map(([doc, e], i) => {
      // Coverage: the idf-weighted share of the query the skill has. Strength: its BM25F score against
      // the most any skill could score on these terms. Gap: how far its fused score stands above the
      // best other skill's. Similarity: how close its description is to the query, word-shape-wise.
      const other = ranked[i === 0 ? 1 : 0]?.[1].rrf ?? 0;
      const features: ConfidenceFeatures = {
        coverage: (e.lexical?.terms ?? []).reduce((s, t) => s + (idf.get(t) ?? 0), 0) / totalIdf,
        routingCoverage: (e.lexical?.terms ?? []).reduce((s, t) => s + (this.routingTerms[doc].has(t) ? idf.get(t) ?? 0 : 0), 0) / totalIdf,
        strength: (e.lexical?.score ?? 0) / ceiling,
        gap: Math.max(0, (e.rrf - other) / bestFused),
        similarity: Math.max(0, e.similarity),
        meaning: meaning?.of[doc] ?? 0,
        meaningGap: meaning ? meaning.of[doc] - (doc === meaning.best ? meaning.second : meaning.of[meaning.best]) : 0,
        techMissing: i === 0 ? this.missesTechnologies(doc, named) : 0,
      };
      const match: SkillMatch = {
        skill: this.skills[doc],
        score: Math.round((e.rrf / bestFused) * 1000) / 1000,
        confidence: (ceilingConfidence = Math.min(ceilingConfidence, confidenceOf(features))),
        matchedTerms: [...new Set((e.lexical?.terms ?? []).map((t) => originals.get(t) ?? t))],
      };
      return { match, features };
    });
  }

  /** Cosine similarity of the query with every skill's routing text, highest first (those above the floor). */
  private similarities(query: string): { doc: number; similarity: number }[] {
    const q = embedder.embedOne(query);
    // The query's vector is sparse (a few hundred features of its words): loop over those only.
    const nonZero: number[] = [];
    for (let d = 0; d < q.length; d++) if (q[d] !== 0) nonZero.push(d);
    const vectors = this.semantic!;
    const dims = embedder.dimensions;
    const out: { doc: number; similarity: number }[] = [];
    for (let doc = 0, offset = 0; doc < this.skills.length; doc++, offset += dims) {
      let dot = 0;
      for (const d of nonZero) dot += q[d] * vectors[offset + d];
      if (dot >= SEMANTIC.floor) out.push({ doc, similarity: dot });
    }
    return out.sort((a, b) => b.similarity - a.similarity || a.doc - b.doc);
  }

  /**
   * Cosine of the query's meaning with every skill's (0 where a skill has no known word), the best
   * skill and the runner-up's cosine; sorting them all is left to the fusion, which needs it only when
   * the meaning list has a weight.
   */
  private meaningSimilarities(query: string): { of: Float32Array; best: number; second: number; ranked(): number[] } | undefined {
    const q = this.meanings && wordVectors()?.meaningOf(query);
    if (!q) return undefined;
    const of = new Float32Array(this.skills.length);
    let best = 0;
    let second = -Infinity;
    this.meanings!.forEach((m, doc) => {
      of[doc] = m ? cosine(q, m) : 0;
      if (doc === 0) return;
      if (of[doc] > of[best]) [best, second] = [doc, of[best]];
      else if (of[doc] > second) second = of[doc];
    });
    return { of, best, second: Number.isFinite(second) ? second : 0, ranked: () => [...of.keys()].sort((a, b) => of[b] - of[a] || a - b) };
  }

  /** The skills whose routing text is near the query in meaning (cosine above 0), nearest first; none without word vectors. */
  nearestInMeaning(query: string): Skill[] {
    const m = this.meaningSimilarities(query);
    return m ? m.ranked().filter((doc) => m.of[doc] > 0).map((doc) => this.skills[doc]) : [];
  }

  /**
   * 1 when the skill is about particular technologies and the request names others: its name,
   * description or use-when lines name a product not every code base uses (Azure, Notion, Markdown),
   * the request names such a product too (Jira, Redis, 钉钉), and the skill mentions none of the
   * request's technologies anywhere. A skill for any code base (a review, a project's rules, the
   * bundled skills) is never refused this way, nor a request that names only its language, code
   * host, CI or operating system.
   */
  private missesTechnologies(doc: number, named: readonly string[]): number {
    if (!named.some((n) => !isGeneralTechnology(n))) return 0;
    const specific = (this.techSpecific[doc] ??= [...technologiesIn(routingText(this.skills[doc]))].some((n) => !isGeneralTechnology(n)));
    return specific && !named.some((n) => mentionsTechnology(this.skills[doc].text, n)) ? 1 : 0;
  }

  /** A term no skill uses still counts in the query's total: it is what the skills lack. */
  private unknownAwareIdf(term: string): number {
    return this.index.documentFrequency(term) ? this.index.idf(term) : Math.log(1 + (this.index.size + 0.5) / 0.5);
  }
}

export interface ConfidenceFeatures {
  /** The idf-weighted share of the query's terms the skill has anywhere (name to body). */
  coverage: number;
  /** The same share over the skill's routing text only (name, description, use-when): what it says it is for. */
  routingCoverage: number;
  strength: number;
  gap: number;
  similarity: number;
  /** Cosine of the request's meaning (word vectors) with the skill's routing text. */
  meaning: number;
  /** How far that cosine stands above the best other skill's (negative when another is closer). */
  meaningGap: number;
  /**
   * 1 when a Chinese request names products (`technologiesIn`) that a skill about other products
   * never mentions: it was found through translated words alone (`missesTechnologies`). Computed for
   * the best match only, the one the "no match" decision reads; 0 for the others.
   */
  techMissing: number;
}

export type ConfidenceModel = { bias: number } & Record<keyof ConfidenceFeatures, number>;
export const CONFIDENCE_FEATURES = ['coverage', 'routingCoverage', 'strength', 'gap', 'similarity', 'meaning', 'meaningGap', 'techMissing'] as const satisfies readonly (keyof ConfidenceFeatures)[];

/** The calibrated probability that a skill fits, from its features (logistic model fitted on the evaluation). */
export function confidenceOf(f: ConfidenceFeatures, model: ConfidenceModel = CONFIDENCE_MODEL): number {
  let z = model.bias;
  for (const k of CONFIDENCE_FEATURES) z += model[k] * clampFeature(f[k]);
  return Math.round(1000 / (1 + Math.exp(-z))) / 1000;
}

/** How likely it is that some skill fits the request, from its best match's features (`FIT_MODEL`). */
export function fitOf(f: ConfidenceFeatures, model: Partial<ConfidenceModel> & { bias: number } = FIT_MODEL): number {
  let z = model.bias;
  for (const k of CONFIDENCE_FEATURES) z += (model[k] ?? 0) * clampFeature(f[k]);
  return 1 / (1 + Math.exp(-z));
}

/** Features enter the model within [-1, 1]: a score ratio past 1 says no more than 1. */
export const clampFeature = (v: number) => Math.max(-1, Math.min(1, v));

// One index per snapshot of the registry's skill list (the array is replaced when anything changes).
const indexes = new WeakMap<readonly Skill[], SkillSearchIndex>();

export function skillSearchIndex(skills: readonly Skill[]): SkillSearchIndex {
  let index = indexes.get(skills);
  if (!index) indexes.set(skills, (index = new SkillSearchIndex(skills)));
  return index;
}

/**
 * The most of each field the index reads. What routes is the start of a body (purpose, steps); the
 * rest of a long body adds cost, not signal. A description is at most 1,024 characters by the Agent
 * Skills rules; one far longer is not the author's routing text, and reading all of it would make
 * one skill's file cost every search the time of its length.
 */
const FIELD_CHARS = 4000;
const HAN = /\p{Script=Han}/u;
const head = (text: string) => (text.length > FIELD_CHARS ? text.slice(0, FIELD_CHARS) : text);

/** The text of each field of a skill, as the index sees it. */
function skillFieldText(skill: Skill): Record<SkillField, string> {
  return {
    name: head(skill.name),
    description: head(skill.description),
    useWhen: head(useWhenLines(skill).join('\n')),
    headings: head(skill.sections.map((s) => s.heading).join('\n')),
    chunks: head(skill.chunks.map((c) => `${c.id} ${c.description}`).join('\n')),
    body: head(skill.level2Body),
  };
}

/** What the semantic signal compares a task with: the skill's own routing text. */
function routingText(skill: Skill): string {
  const useWhen = useWhenLines(skill);
  return [head(skill.name).replace(/-/g, ' '), head(skill.description), ...(useWhen.length ? [head(useWhen.join('\n'))] : [])].join('\n');
}

function skillTerms(skill: Skill): Record<SkillField, string[]> {
  const text = skillFieldText(skill);
  return Object.fromEntries(Object.entries(text).map(([f, t]) => [f, analyze(t)])) as Record<SkillField, string[]>;
}

/** `metadata.use-when` as lines (a list or one string). */
function useWhenLines(skill: Pick<Skill, 'metadata'>): string[] {
  const v = skill.metadata['use-when'];
  if (Array.isArray(v)) return v.map(String);
  return typeof v === 'string' ? [v] : [];
}

/**
 * The query's terms, plus adjacent words joined ("cold start" also looks for "coldstart"), and for
 * each term the word the query wrote.
 */
export function skillQuery(query: string): { terms: string[]; originals: Map<string, string>; weights: Map<string, number>; glosses: string[] } {
  const originals = new Map<string, string>();
  const weights = new Map<string, number>();
  const words = tokenize(query).filter((w) => !isStopword(w));
  words.forEach((w, i) => {
    const t = stem(w);
    if (!originals.has(t)) originals.set(t, w);
    const next = words[i + 1];
    if (next && /^[a-z]+$/.test(w + next)) {
      const joined = stem(w + next);
      if (!originals.has(joined)) originals.set(joined, `${w} ${next}`);
    }
  });
  // Chinese words also look for their English glosses, at a lower weight: the skills are mostly English.
  const glosses = englishGlosses(query);
  for (const g of glosses) {
    const t = stem(g);
    if (isStopword(g) || originals.has(t)) continue;
    originals.set(t, g);
    weights.set(t, GLOSSES.weight);
  }
  return { terms: [...originals.keys()].slice(0, 64), originals, weights, glosses };
}

/**
 * How much a term that came from translating a Chinese word counts against one the query wrote. The
 * glossary was written from the tuning split's misses, so its glosses fit those requests better than
 * new ones: a higher weight raised Chinese top-1 on the tuning split and lowered it on the held-out
 * split (bench/skill-routing.bench.ts), so it stays low.
 */
export const GLOSSES = { weight: 0.3 };

/** Token budget of the catalog a model chooses from in `search_skills {mode: "llm"}`. */
export const LLM_CATALOG_TOKENS = 6000;
export const LLM_SHORTLIST = 30;

/**
 * The skills a model chooses from: the whole level-1 catalog when it fits `LLM_CATALOG_TOKENS`, else
 * the 30 best by the ranking, topped up by meaning (the skills whose routing text is nearest the
 * request's in word vectors) when the ranking finds fewer, so a request in words the skills do not use
 * still reaches the skills it means. Without word vectors the model is offered fewer.
 */
export function llmCandidates(skills: readonly Skill[], query: string, counter: { count(text: string): number }, budget = LLM_CATALOG_TOKENS): Skill[] {
  const catalogTokens = skills.reduce((n, s) => n + counter.count(`- ${s.name}: ${s.description}`) + 1, 0);
  if (catalogTokens <= budget) return [...skills];
  const index = skillSearchIndex(skills);
  const chosen = new Set(index.rank(query).slice(0, LLM_SHORTLIST).map((m) => m.skill));
  for (const s of index.nearestInMeaning(query)) {
    if (chosen.size >= LLM_SHORTLIST) break;
    chosen.add(s);
  }
  return [...chosen];
}
