/**
 * BM25F over documents held in memory (Robertson & Zaragoza): each field's term frequency is
 * normalised by that field's length, weighted and summed into one pseudo-frequency per term, which is
 * saturated once with k1 and multiplied by the term's idf over whole documents. Unlike a sum of
 * per-field BM25s, a term repeated in several fields cannot score past the saturation, and a rare term
 * in a heavy field (a name, a description) is not drowned by a long body.
 */

export interface Bm25fField {
  /** How much a term in this field counts against one in a field of weight 1. */
  weight: number;
  /** Length normalisation in [0, 1]: 0 ignores the field's length, 1 divides by it fully. */
  b: number;
}

export interface Bm25fMatch {
  /** Index of the document, as given to the constructor. */
  doc: number;
  score: number;
  /** The query terms found in this document. */
  terms: string[];
}

export class Bm25fIndex<F extends string> {
  private readonly fieldNames: F[];
  private readonly tf: Map<string, number>[][];
  private readonly lengths: number[][];
  private readonly avgLength: number[];
  private readonly postings = new Map<string, number[]>();
  readonly size: number;

  /** `docs[i][field]` is the analysed terms of that field of document i. */
  constructor(
    private readonly fields: Record<F, Bm25fField>,
    docs: readonly Record<F, readonly string[]>[],
    private readonly k1 = 1.2,
  ) {
    this.fieldNames = Object.keys(fields) as F[];
    this.size = docs.length;
    const totals = this.fieldNames.map(() => 0);
    this.tf = [];
    this.lengths = [];
    docs.forEach((doc, i) => {
      const seen = new Set<string>();
      const perField = this.fieldNames.map((f, k) => {
        const m = new Map<string, number>();
        for (const t of doc[f]) {
          m.set(t, (m.get(t) ?? 0) + 1);
          if (!seen.has(t)) {
            seen.add(t);
            let list = this.postings.get(t);
            if (!list) this.postings.set(t, (list = []));
            list.push(i);
          }
        }
        totals[k] += doc[f].length;
        return m;
      });
      this.tf.push(perField);
      this.lengths.push(this.fieldNames.map((f) => doc[f].length));
    });
    this.avgLength = totals.map((t) => Math.max(1, t / Math.max(1, docs.length)));
  }

  /** How many documents contain the term in any field. */
  documentFrequency(term: string): number {
    return this.postings.get(term)?.length ?? 0;
  }

  /** Robertson–Spärck Jones idf, never negative. */
  idf(term: string): number {
    const df = this.documentFrequency(term);
    return Math.log(1 + (this.size - df + 0.5) / (df + 0.5));
  }

  /** Every document that contains at least one term, with its score; unsorted. */
  score(terms: readonly string[], weights?: ReadonlyMap<string, number>): Bm25fMatch[] {
    const acc = new Map<number, Bm25fMatch>();
    for (const term of new Set(terms)) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = this.idf(term) * (weights?.get(term) ?? 1);
      for (const i of list) {
        let pseudo = 0;
        this.fieldNames.forEach((f, k) => {
          const tf = this.tf[i][k].get(term);
          if (!tf) return;
          const { weight, b } = this.fields[f];
          pseudo += (weight * tf) / (1 - b + (b * this.lengths[i][k]) / this.avgLength[k]);
        });
        if (pseudo === 0) continue;
        let m = acc.get(i);
        if (!m) acc.set(i, (m = { doc: i, score: 0, terms: [] }));
        m.score += (idf * pseudo * (this.k1 + 1)) / (pseudo + this.k1);
        m.terms.push(term);
      }
    }
    return [...acc.values()];
  }

  /** The best `limit` documents, highest score first (ties by document order). */
  search(terms: readonly string[], limit: number): Bm25fMatch[] {
    return this.score(terms)
      .sort((a, b) => b.score - a.score || a.doc - b.doc)
      .slice(0, Math.max(0, limit));
  }

  /** The most a document could score on these terms: every term present, saturated. For normalising scores. */
  maxScore(terms: readonly string[]): number {
    return [...new Set(terms)].reduce((s, t) => s + (this.postings.has(t) ? this.idf(t) * (this.k1 + 1) : 0), 0);
  }
}
