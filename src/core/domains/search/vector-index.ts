/**
 * The semantic side of recipe search, held in memory: one int8 vector per document (1 byte per
 * dimension), stored by dimension (column-major) so that a query reads only the columns of its
 * non-zero dimensions, each once, adding into one score per document. A short query has a few dozen
 * non-zero dimensions of the embedder's 256, so the pass costs a fraction of a full scan and stays
 * exact (no shortlist to miss the best match).
 */

export interface VectorHit {
  slot: number;
  /** Cosine similarity, -1..1. */
  similarity: number;
}

export class VectorIndex {
  private columns: Int8Array;
  private capacity: number;
  private has: Uint8Array;
  private scores: Float32Array;
  /** Slots in use (one past the highest slot set). */
  private slots = 0;

  constructor(readonly dims: number, capacity = 1024) {
    this.capacity = capacity;
    this.columns = new Int8Array(dims * capacity);
    this.has = new Uint8Array(capacity);
    this.scores = new Float32Array(capacity);
  }

  /** Stores a document's vector (int8 values, as `quantize` gives them). */
  set(slot: number, bytes: Uint8Array): void {
    if (slot >= this.capacity) this.grow(Math.max(slot + 1, this.capacity * 2));
    const v = new Int8Array(bytes.buffer, bytes.byteOffset, Math.min(this.dims, bytes.byteLength));
    for (let d = 0; d < v.length; d++) this.columns[d * this.capacity + slot] = v[d];
    this.has[slot] = 1;
    if (slot >= this.slots) this.slots = slot + 1;
  }

  clear(slot: number): void {
    if (slot >= this.capacity || !this.has[slot]) return;
    for (let d = 0; d < this.dims; d++) this.columns[d * this.capacity + slot] = 0;
    this.has[slot] = 0;
  }

  /** The accepted documents most similar to `q` (a unit vector), at least `minSimilarity`, best first. */
  nearest(q: Float32Array, limit: number, minSimilarity: number, accept: (slot: number) => boolean): VectorHit[] {
    const n = this.slots;
    const scores = this.scores.subarray(0, n);
    scores.fill(0);
    const cap = this.capacity;
    for (let d = 0; d < this.dims; d++) {
      const w = q[d];
      if (w === 0) continue;
      const col = this.columns.subarray(d * cap, d * cap + n);
      for (let i = 0; i < n; i++) scores[i] += w * col[i];
    }
    const top: VectorHit[] = [];
    let floor = minSimilarity * 127;
    for (let i = 0; i < n; i++) {
      const s = scores[i];
      if (s < floor || !this.has[i] || !accept(i)) continue;
      let at = top.length;
      while (at > 0 && top[at - 1].similarity < s) at--;
      top.splice(at, 0, { slot: i, similarity: s });
      if (top.length > limit) {
        top.pop();
        floor = Math.max(floor, top[top.length - 1].similarity);
      }
    }
    for (const h of top) h.similarity /= 127;
    return top;
  }

  /** The vectors as copies: per dimension the first `slots` values (column-major), and which slots have one. */
  image(): VectorIndexImage {
    const n = this.slots;
    const columns = new Int8Array(this.dims * n);
    for (let d = 0; d < this.dims; d++) {
      columns.set(this.columns.subarray(d * this.capacity, d * this.capacity + n), d * n);
    }
    return { dims: this.dims, slots: n, columns, has: this.has.slice(0, n) };
  }

  /** An index over the image's arrays, used in place (the first vector added past them copies them into room to grow). */
  static restore(img: VectorIndexImage): VectorIndex {
    const ix = new VectorIndex(img.dims, 0);
    ix.capacity = img.slots;
    ix.columns = img.columns;
    ix.has = img.has;
    ix.scores = new Float32Array(img.slots);
    ix.slots = img.slots;
    return ix;
  }

  private grow(capacity: number): void {
    const next = new Int8Array(this.dims * capacity);
    for (let d = 0; d < this.dims; d++) {
      next.set(this.columns.subarray(d * this.capacity, (d + 1) * this.capacity), d * capacity);
    }
    const has = new Uint8Array(capacity);
    has.set(this.has);
    this.columns = next;
    this.has = has;
    this.scores = new Float32Array(capacity);
    this.capacity = capacity;
  }
}

/** What `VectorIndex.image` gives and `VectorIndex.restore` takes. */
export interface VectorIndexImage {
  dims: number;
  slots: number;
  columns: Int8Array<ArrayBuffer>;
  has: Uint8Array<ArrayBuffer>;
}
