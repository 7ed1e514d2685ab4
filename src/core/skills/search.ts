import { analyze, Bm25fIndex, isStopword, stem, tokenize, type Bm25fField } from '../text';
import type { Skill } from './types';

/**
 * Field weights and length normalisation of skill search (BM25F). The description and `use-when`
 * lines are the author's own routing text; the name is short and telling; headings and chunk
 * descriptions say what the body covers; the body is long and weighs least. Measured on the routing
 * evaluation (bench/skill-routing.bench.ts), tuned on its tuning half.
 */
export const SKILL_FIELDS = {
  name: { weight: 3, b: 0.3 },
  description: { weight: 2, b: 0.5 },
  useWhen: { weight: 2, b: 0.5 },
  headings: { weight: 1, b: 0.5 },
  chunks: { weight: 1, b: 0.5 },
  body: { weight: 0.3, b: 0.75 },
} satisfies Record<string, Bm25fField>;
export type SkillField = keyof typeof SKILL_FIELDS;

/**
 * Calibration of the confidence: a logistic function of how much of the query the best skill covers
 * (idf-weighted) and of its score against the best possible one. Fitted on the evaluation's tuning
 * half; `NO_MATCH_BELOW` is the threshold chosen there.
 */
export const CONFIDENCE_MODEL = { bias: -4.2, coverage: 5.0, strength: 3.5 };
export const NO_MATCH_BELOW = 0.35;

export interface SkillMatch {
  skill: Skill;
  /** BM25F score; higher is better, comparable within one query only. */
  score: number;
  /** How sure the ranking is that this skill fits the task, in [0, 1]; comparable across queries. */
  confidence: number;
  /** The words of the query that matched, as the query wrote them. */
  matchedTerms: string[];
}

export interface SkillSearchOptions {
  limit?: number;
  /** Field weights to use instead of `SKILL_FIELDS` (for the evaluation's tuning). */
  fields?: Record<SkillField, Bm25fField>;
}

/**
 * Skill search over one snapshot of the registry: BM25F over name, description, `use-when`, headings,
 * chunk descriptions and body, with the shared analyser (Unicode words, CJK bigrams, stopwords,
 * Porter2 stems). Built once per snapshot; a query costs a pass over the skills that contain one of
 * its terms.
 */
export class SkillSearchIndex {
  private readonly index: Bm25fIndex<SkillField>;

  constructor(
    readonly skills: readonly Skill[],
    fields: Record<SkillField, Bm25fField> = SKILL_FIELDS,
  ) {
    this.index = new Bm25fIndex(fields, skills.map(skillTerms));
  }

  search(query: string, limit = 5): SkillMatch[] {
    return this.rank(query).slice(0, Math.max(0, limit));
  }

  /** Every skill that shares a term with the query, best first, each with its confidence. */
  rank(query: string): SkillMatch[] {
    const { terms, originals } = skillQuery(query);
    if (terms.length === 0) return [];
    const matches = this.index.score(terms);
    if (matches.length === 0) return [];
    const idf = new Map(terms.map((t) => [t, this.unknownAwareIdf(t)]));
    const totalIdf = [...idf.values()].reduce((a, b) => a + b, 0) || 1;
    const best = Math.max(...matches.map((m) => m.score));
    const ceiling = this.index.maxScore(terms) || 1;
    return matches
      .map((m) => {
        const coverage = m.terms.reduce((s, t) => s + (idf.get(t) ?? 0), 0) / totalIdf;
        return {
          skill: this.skills[m.doc],
          score: Math.round(m.score * 1000) / 1000,
          confidence: confidenceOf(coverage, m.score / ceiling, m.score / best),
          matchedTerms: [...new Set(m.terms.map((t) => originals.get(t) ?? t))],
        };
      })
      .sort((a, b) => b.score - a.score || a.skill.name.localeCompare(b.skill.name));
  }

  /** A term no skill uses still counts in the query's total: it is what the skills lack. */
  private unknownAwareIdf(term: string): number {
    return this.index.documentFrequency(term) ? this.index.idf(term) : Math.log(1 + (this.index.size + 0.5) / 0.5);
  }
}

/**
 * Confidence in [0, 1]. `relative` (score against the best of this query) only lowers the runners-up:
 * the best match's confidence depends on the query's coverage and strength alone.
 */
export function confidenceOf(coverage: number, strength: number, relative: number): number {
  const z = CONFIDENCE_MODEL.bias + CONFIDENCE_MODEL.coverage * coverage + CONFIDENCE_MODEL.strength * Math.min(1, strength);
  const p = 1 / (1 + Math.exp(-z));
  return Math.round(p * Math.min(1, relative) * 1000) / 1000;
}

// One index per snapshot of the registry's skill list (the array is replaced when anything changes).
const indexes = new WeakMap<readonly Skill[], SkillSearchIndex>();

export function skillSearchIndex(skills: readonly Skill[]): SkillSearchIndex {
  let index = indexes.get(skills);
  if (!index) indexes.set(skills, (index = new SkillSearchIndex(skills)));
  return index;
}

export function searchSkills(skills: readonly Skill[], query: string, limit = 5): SkillMatch[] {
  return skillSearchIndex(skills).search(query, limit);
}

/** The text of each field of a skill, as the index sees it. */
export function skillFieldText(skill: Skill): Record<SkillField, string> {
  return {
    name: skill.name,
    description: skill.description,
    useWhen: useWhenLines(skill).join('\n'),
    headings: skill.sections.map((s) => s.heading).join('\n'),
    chunks: skill.chunks.map((c) => `${c.id} ${c.description}`).join('\n'),
    body: skill.level2Body,
  };
}

function skillTerms(skill: Skill): Record<SkillField, string[]> {
  const text = skillFieldText(skill);
  return Object.fromEntries(Object.entries(text).map(([f, t]) => [f, analyze(t)])) as Record<SkillField, string[]>;
}

/** `metadata.use-when` as lines (a list or one string). */
export function useWhenLines(skill: Pick<Skill, 'metadata'>): string[] {
  const v = skill.metadata['use-when'];
  if (Array.isArray(v)) return v.map(String);
  return typeof v === 'string' ? [v] : [];
}

/**
 * The query's terms, plus adjacent words joined ("cold start" also looks for "coldstart"), and for
 * each term the word the query wrote.
 */
export function skillQuery(query: string): { terms: string[]; originals: Map<string, string> } {
  const originals = new Map<string, string>();
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
  return { terms: [...originals.keys()].slice(0, 48), originals };
}
