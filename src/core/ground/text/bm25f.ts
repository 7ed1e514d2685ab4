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
  /**
   * term → the documents that contain it, each with the term's weighted, length-normalised frequency
   * summed over the fields. Fields and weights are fixed, so this is computed once and a query is a
   * tight loop over postings.
   */
  private readonly postings = new Map<string, { docs: number[]; pseudo: number[] }>();
  readonly size: number;

  /** `docs[i][field]` is the analysed terms of that field of document i. */
  constructor(
    fields: Record<F, Bm25fField>,
    docs: readonly Record<F, readonly string[]>[],
    private readonly k1 = 1.2,
  ) {
    const names = Object.keys(fields) as F[];
    this.size = docs.length;
    const avg = names.map((f) => Math.max(1, docs.reduce((n, d) => n + d[f].length, 0) / Math.max(1, docs.length)));
    docs.forEach((doc, i) => {
      const pseudo = new Map<string, number>();
      names.forEach((f, k) => {
        const { weight, b } = fields[f];
        if (weight === 0 || doc[f].length === 0) return;
        const unit = weight / (1 - b + (b * doc[f].length) / avg[k]);
        for (const t of doc[f]) pseudo.set(t, (pseudo.get(t) ?? 0) + unit);
      });
      for (const [t, p] of pseudo) {
        let list = this.postings.get(t);
        if (!list) this.postings.set(t, list = { docs: [], pseudo: [] });
        list.docs.push(i);
        list.pseudo.push(p);
      }
    });
  }

  /** How many documents contain the term in a field of non-zero weight. */
  documentFrequency(term: string): number {
    return this.postings.get(term)?.docs.length ?? 0;
  }

  /** Robertson–Spärck Jones idf, never negative. */
  idf(term: string): number {
    const df = this.documentFrequency(term);
    return Math.log(1 + (this.size - df + 0.5) / (df + 0.5));
  }

  /** Every document that contains at least one term, with its score; unsorted. */
  score(terms: readonly string[], weights?: ReadonlyMap<string, number>): Bm25fMatch[] {
    const acc = new Map<number, Bm25fMatch>();
    const k1 = this.k1;
    for (const term of new Set(terms)) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = this.idf(term) * (weights?.get(term) ?? 1);
      const { docs, pseudo } = list;
      for (let j = 0; j < docs.length; j++) {
        let m = acc.get(docs[j]);
        if (!m) acc.set(docs[j], m = { doc: docs[j], score: 0, terms: [] });
        m.score += (idf * pseudo[j] * (k1 + 1)) / (pseudo[j] + k1);
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
