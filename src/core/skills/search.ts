import type { Skill } from './types';

/** Field weights: the description is the author's own routing text, so it weighs most; the body least. */
export const FIELD_WEIGHTS = { name: 2, description: 3, chunks: 2, headings: 2, body: 1 } as const;
type Field = keyof typeof FIELD_WEIGHTS;
const FIELDS = Object.keys(FIELD_WEIGHTS) as Field[];
const LENGTH_NORMALIZATION: Record<Field, number> = { name: 0.3, description: 0.6, chunks: 0.6, headings: 0.6, body: 0.75 };
const K1 = 1.2;

export interface SkillMatch {
  skill: Skill;
  /** BM25 score (field-weighted); higher is better, comparable within one query only. */
  score: number;
  /** The words of the query that matched, as the query wrote them. */
  matchedTerms: string[];
}

interface DocStats {
  skill: Skill;
  tf: Record<Field, Map<string, number>>;
  len: Record<Field, number>;
}

/**
 * Field-weighted BM25 over a set of skills: each field (name, description, chunk descriptions,
 * headings, body) is scored as its own BM25 with its own document frequencies, and the scores are
 * summed with the field weights. Per-field frequencies matter here: a word every skill's body uses
 * ("candidates") is still rare, and telling, in names. Built once per registry snapshot; a query
 * costs a pass over the documents that contain one of its terms.
 */
export class SkillSearchIndex {
  private readonly docs: DocStats[];
  private readonly df = {} as Record<Field, Map<string, number>>;
  private readonly postings = new Map<string, number[]>();
  private readonly avgLen: Record<Field, number>;

  constructor(skills: readonly Skill[]) {
    this.docs = skills.map(statsOf);
    const totals = Object.fromEntries(FIELDS.map((f) => [f, 0])) as Record<Field, number>;
    for (const f of FIELDS) this.df[f] = new Map();
    this.docs.forEach((d, i) => {
      const terms = new Set<string>();
      for (const f of FIELDS) {
        totals[f] += d.len[f];
        for (const t of d.tf[f].keys()) {
          terms.add(t);
          this.df[f].set(t, (this.df[f].get(t) ?? 0) + 1);
        }
      }
      for (const t of terms) {
        let list = this.postings.get(t);
        if (!list) this.postings.set(t, (list = []));
        list.push(i);
      }
    });
    const n = Math.max(1, this.docs.length);
    this.avgLen = Object.fromEntries(FIELDS.map((f) => [f, Math.max(1, totals[f] / n)])) as Record<Field, number>;
  }

  search(query: string, limit = 5): SkillMatch[] {
    const terms = queryTerms(query);
    if (terms.length === 0) return [];
    const n = this.docs.length;
    const scores = new Map<number, { score: number; matched: Set<string> }>();
    for (const { term, original } of terms) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = FIELDS.map((f) => {
        const df = this.df[f].get(term) ?? 0;
        return Math.log(1 + (n - df + 0.5) / (df + 0.5));
      });
      for (const i of list) {
        const d = this.docs[i];
        let score = 0;
        FIELDS.forEach((f, k) => {
          const tf = d.tf[f].get(term);
          if (!tf) return;
          const b = LENGTH_NORMALIZATION[f];
          score += FIELD_WEIGHTS[f] * idf[k] * ((tf * (K1 + 1)) / (tf + K1 * (1 - b + (b * d.len[f]) / this.avgLen[f])));
        });
        if (score === 0) continue;
        let entry = scores.get(i);
        if (!entry) scores.set(i, (entry = { score: 0, matched: new Set() }));
        entry.score += score;
        entry.matched.add(original);
      }
    }
    return [...scores.entries()]
      .map(([i, e]) => ({ skill: this.docs[i].skill, score: Math.round(e.score * 1000) / 1000, matchedTerms: [...e.matched] }))
      .sort((a, b) => b.score - a.score || a.skill.name.localeCompare(b.skill.name))
      .slice(0, Math.max(0, limit));
  }
}

// One index per snapshot of the registry's skill list (the array is replaced when anything changes).
const indexes = new WeakMap<readonly Skill[], SkillSearchIndex>();

export function searchSkills(skills: readonly Skill[], query: string, limit = 5): SkillMatch[] {
  let index = indexes.get(skills);
  if (!index) indexes.set(skills, (index = new SkillSearchIndex(skills)));
  return index.search(query, limit);
}

function statsOf(skill: Skill): DocStats {
  const text: Record<Field, string> = {
    name: skill.name,
    description: skill.description,
    chunks: skill.chunks.map((c) => `${c.id} ${c.description}`).join('\n'),
    headings: skill.sections.map((s) => s.heading).join('\n'),
    body: skill.level2Body,
  };
  const tf = {} as Record<Field, Map<string, number>>;
  const len = {} as Record<Field, number>;
  for (const f of FIELDS) {
    const m = new Map<string, number>();
    const tokens = tokenize(text[f]);
    for (const t of tokens) m.set(t, (m.get(t) ?? 0) + 1);
    tf[f] = m;
    len[f] = tokens.length;
  }
  return { skill, tf, len };
}

const STOPWORDS = new Set(
  'a an and are as at be by can do does for from how i in into is it its me my of on or our please should so that the their then there these this to us use using want we what when where which while who why will with you your'.split(' '),
);

/** Lowercase words with a light suffix stemmer, stopwords removed. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (!raw || STOPWORDS.has(raw)) continue;
    out.push(stem(raw));
  }
  return out;
}

/** The query's terms, plus adjacent pairs joined ("cold start" also looks for "coldstart"). */
function queryTerms(query: string): { term: string; original: string }[] {
  const words = query.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w && !STOPWORDS.has(w));
  const out = new Map<string, string>();
  words.forEach((w, i) => {
    out.set(stem(w), out.get(stem(w)) ?? w);
    const next = words[i + 1];
    if (next) {
      const joined = stem(w + next);
      if (!out.has(joined)) out.set(joined, `${w} ${next}`);
    }
  });
  return [...out.entries()].map(([term, original]) => ({ term, original }));
}

/** Strips common English endings, then a final "e", so write/writes/writing/written… meet at "writ". */
function stem(w: string): string {
  if (w.length <= 3 || /\d/.test(w)) return w;
  let s = w;
  if (s.endsWith('ies') && s.length > 4) s = s.slice(0, -3) + 'y';
  else if (s.endsWith('ing') && s.length > 5) s = undouble(s.slice(0, -3));
  else if (s.endsWith('ed') && s.length > 4) s = undouble(s.slice(0, -2));
  else if (/(ss|x|ch|sh)es$/.test(s)) s = s.slice(0, -2);
  else if (s.endsWith('s') && !s.endsWith('ss') && !s.endsWith('us') && !s.endsWith('is')) s = s.slice(0, -1);
  return s.length > 3 && s.endsWith('e') ? s.slice(0, -1) : s;
}

function undouble(w: string): string {
  return /([^aeiouls])\1$/.test(w) ? w.slice(0, -1) : w;
}
