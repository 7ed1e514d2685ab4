import { ByteWriter, decodePostings, encodePostings } from './postings-codec';
import { grow, keysOf, MAX_SLOTS_IN_KEYS, pack, type Postings, slotOf, unpack } from './term-keys';

/**
 * The keyword side of recipe search, held in memory: an inverted index scored with BM25F and built
 * for top-k (see ARCHITECTURE.md, "Search").
 *
 * - Each document has weighted fields (trigger 8, title 4, summary 2, rest 1). A term's frequencies
 *   in the fields are length-normalised, weighted and summed into one pseudo-frequency per document
 *   (BM25F), saturated once with k1 and multiplied by the term's idf at query time.
 * - Postings are impact-ordered: each term's list runs from the highest pseudo-frequency down, packed
 *   as one float64 per posting (the float32 bits of the pseudo-frequency above a 22-bit slot), so a
 *   list sorts natively and reads without objects. A restored list is held as its slots and impacts
 *   until it changes (see term-keys.ts).
 * - Top-k uses the threshold algorithm over those lists: take postings from the list whose next
 *   impact is highest, score each new document fully from its forward entry, and stop once the
 *   impacts still ahead in all lists together cannot beat the k-th score. A query touches the head of
 *   its lists, not every matching document. When impacts are flat (many documents alike, so the
 *   threshold falls slowly) and a few hundred documents were scored without reaching it, the query
 *   finishes term at a time instead: one sequential pass over its lists into score accumulators,
 *   whose cost is bounded by the lists' lengths. Both give the exact BM25F top-k.
 * - Documents are added and removed one at a time (a slot each; an update is a removal and an add).
 *   An add writes the document's forward entry only; the postings of the documents added since the
 *   lists were last used are appended in one counting pass when they are next needed, so a build of
 *   many documents sizes every list once instead of growing each a posting at a time.
 *   Lengths are normalised against the average lengths frozen when the index was built, so adding a
 *   document never rescores the others; the owner rebuilds when the corpus has grown or shrunk enough
 *   for those averages to be off (see `drift`).
 */

export interface TermField {
  /** How much a term here counts against one in a field of weight 1. */
  weight: number;
  /** Length normalisation in [0, 1]. */
  b: number;
}

export interface TermHit {
  slot: number;
  score: number;
  /** Bit i set when query terms matched field i. */
  fieldMask: number;
  /** How many of the query's terms (a prefix counts as one) matched. */
  termsMatched: number;
}

export interface TermQuery {
  terms: string[];
  /** The last term also matches as a prefix (the query was typed so far). */
  prefixLast: boolean;
  limit: number;
  /** Slots that may be returned (filters: kind, language, deprecated). */
  accept(slot: number): boolean;
}

/** Slots are recycled only by a rebuild; past this many the owner must rebuild. */
export const MAX_SLOTS = MAX_SLOTS_IN_KEYS;
/** A prefix stands for at most this many terms: the exact term first, then the shortest completions. */
const MAX_EXPANSIONS = 24;
/** Completions of a prefix count half: a finished word more likely means itself. */
const EXPANSION_WEIGHT = 0.5;
/** Documents the threshold algorithm scores before the query is finished term at a time. */
const TA_BUDGET = 64;

export class TermIndex {
  /** Term → id; a restored index's own terms are found by binary search instead (see `idOf`). */
  private readonly termIds = new Map<string, number>();
  private terms: string[] = [];
  /** By term id; a restored index fills it on first use of each term (see `list`). */
  private readonly postings: Postings[] = [];
  /**
   * A restored index's lists, encoded one after another (see postings-codec.ts): where each term's
   * bytes start (one more entry than terms), how many postings each holds, and the term order.
   */
  private restored?: { bytes: Uint8Array; offsets: Float64Array; counts: Int32Array; order: Int32Array };
  /** Term ids in code-point order of their terms, for prefix lookup; ids of terms added since are in `unsortedIds`. */
  private sortedIds: Int32Array | number[] = [];
  private unsortedIds: number[] = [];
  // Forward entries: per slot, a range of (term id, pseudo-frequency, field mask) in shared pools.
  private fwdStart = new Int32Array(1024);
  private fwdLength = new Int32Array(1024);
  private fwdTerm = new Int32Array(16384);
  private fwdPseudo = new Float32Array(16384);
  private fwdFields = new Uint8Array(16384);
  private fwdUsed = 0;
  private alive = new Uint8Array(1024);
  private seen = new Uint32Array(1024);
  private stamp = 0;
  // Accumulators of the term-at-a-time pass, per slot; `touched` lists the slots in use.
  private accScore = new Float64Array(1024);
  private accGroups = new Int32Array(1024);
  private touched = new Int32Array(1024);
  private listOfTerm = new Int32Array(1024).fill(-1);
  // Per term id while a document is added: the document (slot + 1) it was last seen in, its
  // pseudo-frequency and field mask so far; `docIds` lists the document's distinct terms.
  private docMark = new Int32Array(1024);
  private docPseudo = new Float64Array(1024);
  private docFields = new Uint8Array(1024);
  private docIds = new Int32Array(256);
  private slots = 0;
  /** Slots from here on have forward entries but are not yet in the posting lists (see `flush`). */
  private pendingFrom = 0;
  /** Documents in the index now. */
  live = 0;
  /** Documents when the average lengths were frozen. */
  readonly builtWith: number;
  private readonly avg: Float64Array;

  /**
   * `sample` gives the field lengths the averages are frozen from (usually every document about to
   * be added); `fields` the weights and length normalisation, in field order.
   */
  constructor(
    private readonly fields: readonly TermField[],
    sample: readonly (readonly number[])[],
    private readonly k1 = 1.2,
  ) {
    this.builtWith = sample.length;
    this.avg = new Float64Array(fields.length);
    for (let f = 0; f < fields.length; f++) {
      let sum = 0;
      for (const lengths of sample) sum += lengths[f];
      this.avg[f] = Math.max(1, sample.length ? sum / sample.length : 1);
    }
  }

  /** How far the corpus has moved from the one the averages were frozen on, as a share of it. */
  get drift(): number {
    return Math.abs(this.live - this.builtWith) / Math.max(1, this.builtWith);
  }

  /** Share of the slots and postings held by removed documents. */
  get garbage(): number {
    return this.slots === 0 ? 0 : 1 - this.live / this.slots;
  }

  get slotCount(): number {
    return this.slots;
  }

  /** Adds a document (its fields' analysed terms) under a fresh slot and returns the slot. */
  add(fieldTerms: readonly (readonly string[])[]): number {
    const slot = this.slots++;
    if (slot >= MAX_SLOTS) throw new Error('search index full: rebuild it');
    this.ensureSlots(this.slots);
    const mark = slot + 1;
    let distinct = 0;
    for (let f = 0; f < this.fields.length; f++) {
      const words = fieldTerms[f] ?? [];
      if (words.length === 0) continue;
      const { weight, b } = this.fields[f];
      const unit = weight / (1 - b + (b * words.length) / this.avg[f]);
      const bit = 1 << f;
      for (const word of words) {
        const id = this.termId(word);
        if (this.docMark[id] !== mark) {
          this.docMark[id] = mark;
          this.docPseudo[id] = 0;
          this.docFields[id] = 0;
          if (distinct === this.docIds.length) this.docIds = grow(this.docIds, distinct * 2);
          this.docIds[distinct++] = id;
        }
        this.docPseudo[id] += unit;
        this.docFields[id] |= bit;
      }
    }
    this.ensureForward(this.fwdUsed + distinct);
    this.fwdStart[slot] = this.fwdUsed;
    this.fwdLength[slot] = distinct;
    for (let k = 0; k < distinct; k++) {
      const id = this.docIds[k];
      const at = this.fwdUsed++;
      this.fwdTerm[at] = id;
      this.fwdPseudo[at] = this.docPseudo[id];
      this.fwdFields[at] = this.docFields[id];
    }
    this.alive[slot] = 1;
    this.live++;
    return slot;
  }

  /** Removes a document; its postings are skipped from now on and dropped when their list is next sorted. */
  remove(slot: number): void {
    if (!this.alive[slot]) return;
    this.flush();
    this.alive[slot] = 0;
    this.live--;
    const start = this.fwdStart[slot];
    for (let i = start; i < start + this.fwdLength[slot]; i++) {
      const list = this.list(this.fwdTerm[i]);
      list.live--;
      if (list.live < list.length / 2) list.dirty = true;
    }
  }

  /** Sorts every list into impact order; every `yieldEvery` postings it awaits `pause` (a slicer), so a large build does not block. */
  async sortAll(pause?: () => Promise<void> | undefined, yieldEvery = 2_000): Promise<void> {
    this.flush();
    let since = 0;
    for (let id = 0; id < this.postings.length; id++) {
      since += this.prepare(id).length;
      if (pause && since >= yieldEvery) {
        since = 0;
        await pause();
      }
    }
  }

  /** Whether a slot holds a document (not removed). */
  isAlive(slot: number): boolean {
    return this.alive[slot] === 1;
  }

  /**
   * Everything the index holds, as copies in flat typed arrays (the posting lists encoded, see
   * postings-codec.ts), to be saved and restored by `TermIndex.restore` without re-analysing a
   * document. Lists are sorted (and compacted) first. Every few thousand lists it awaits `pause` (a
   * slicer that may also throw to abandon the copy): the index must not change meanwhile.
   */
  async image(pause: () => Promise<void> | undefined = () => undefined): Promise<TermIndexImage> {
    this.flush();
    this.sortTerms();
    const n = this.terms.length;
    const restored = this.restored;
    const counts = new Int32Array(n);
    const offsets = new Float64Array(n + 1);
    const out = new ByteWriter();
    let total = 0;
    for (let id = 0; id < n; id++) {
      if (restored !== undefined && this.postings[id] === undefined) {
        // A restored list never touched since is copied as it was read, without decoding it.
        counts[id] = restored.counts[id];
        out.raw(restored.bytes.subarray(restored.offsets[id], restored.offsets[id + 1]));
      } else {
        const list = this.prepare(id);
        const { slots, impacts } = list.slots && list.impacts ? list as Required<Postings> : unpack(list);
        counts[id] = list.length;
        encodePostings(slots, impacts, list.length, out);
      }
      total += counts[id];
      offsets[id + 1] = out.length;
      if ((id & 4095) === 4095) await pause();
    }
    await pause();
    const used = this.fwdUsed;
    return {
      meta: {
        k1: this.k1,
        fields: this.fields.map((f) => ({ ...f })),
        avg: [...this.avg],
        builtWith: this.builtWith,
        live: this.live,
        slots: this.slots,
        forward: used,
        terms: this.terms.length,
        postings: total,
        postingBytes: out.length,
      },
      terms: this.terms.slice(),
      sorted: Int32Array.from(this.sortedIds),
      counts,
      offsets,
      postings: out.result(),
      fwdStart: this.fwdStart.slice(0, this.slots),
      fwdLength: this.fwdLength.slice(0, this.slots),
      fwdTerm: this.fwdTerm.slice(0, used),
      fwdPseudo: this.fwdPseudo.slice(0, used),
      fwdFields: this.fwdFields.slice(0, used),
      alive: this.alive.slice(0, this.slots),
    };
  }

  /**
   * An index from an image (see `image`); its arrays are used as they are, not copied, and a list is
   * decoded on its first use. The caller has checked the image's sizes (and its checksum): a list
   * that does not decode reads as empty, a forward entry naming no term is skipped.
   */
  static restore(img: TermIndexImage): TermIndex {
    const m = img.meta;
    const ix = new TermIndex(m.fields, [], m.k1);
    (ix as { builtWith: number }).builtWith = m.builtWith;
    ix.avg.set(m.avg);
    ix.live = m.live;
    ix.slots = ix.pendingFrom = m.slots;
    ix.ensureSlots(Math.max(1024, m.slots));
    ix.fwdStart.set(img.fwdStart);
    ix.fwdLength.set(img.fwdLength);
    ix.alive.set(img.alive);
    ix.fwdTerm = img.fwdTerm;
    ix.fwdPseudo = img.fwdPseudo;
    ix.fwdFields = img.fwdFields;
    ix.fwdUsed = m.forward;
    const n = img.terms.length;
    ix.terms = img.terms;
    ix.postings.length = n;
    ix.restored = { bytes: img.postings, offsets: img.offsets, counts: img.counts, order: img.sorted };
    ix.sortedIds = img.sorted;
    const size = Math.max(1024, n);
    ix.listOfTerm = new Int32Array(size).fill(-1);
    ix.docMark = new Int32Array(size);
    ix.docPseudo = new Float64Array(size);
    ix.docFields = new Uint8Array(size);
    return ix;
  }

  /** The best `limit` accepted documents, highest score first (ties: lower slot first). */
  search(q: TermQuery): TermHit[] {
    this.flush();
    const lists = this.queryLists(q.terms, q.prefixLast);
    if (lists.length === 0 || q.limit <= 0) return [];
    this.stamp++;
    if (this.stamp === 0xffffffff) {
      this.seen.fill(0);
      this.stamp = 1;
    }
    for (let l = 0; l < lists.length; l++) this.listOfTerm[lists[l].term] = l;
    try {
      return this.thresholdTopK(lists, q) ?? this.termAtATime(lists, q);
    } finally {
      for (const l of lists) this.listOfTerm[l.term] = -1;
    }
  }

  /** The threshold algorithm; undefined when it scored TA_BUDGET documents without finishing. */
  private thresholdTopK(lists: QueryList[], q: TermQuery): TermHit[] | undefined {
    const k1 = this.k1;
    const impact = (l: QueryList, pseudo: number) => (l.idf * pseudo * (k1 + 1)) / (pseudo + k1);
    const pos = new Int32Array(lists.length);
    const head = new Float64Array(lists.length);
    for (let l = 0; l < lists.length; l++) head[l] = lists[l].length ? impact(lists[l], lists[l].impacts[0]) : 0;
    const top: TermHit[] = [];
    let scored = 0;
    for (;;) {
      let best = -1;
      let bound = 0;
      for (let l = 0; l < lists.length; l++) {
        bound += head[l];
        if (head[l] > 0 && (best < 0 || head[l] > head[best])) best = l;
      }
      if (best < 0 || (top.length >= q.limit && bound <= top[top.length - 1].score)) break;
      if (scored >= TA_BUDGET) return undefined;
      const list = lists[best];
      // A few postings at a time from the chosen list before looking at the heads again.
      const end = Math.min(list.length, pos[best] + 8);
      for (; pos[best] < end; pos[best]++) {
        const slot = list.slots[pos[best]];
        if (this.seen[slot] === this.stamp || !this.alive[slot]) continue;
        this.seen[slot] = this.stamp;
        if (!q.accept(slot)) continue;
        scored++;
        const hit = this.scoreSlot(slot, lists);
        insertTop(top, hit, q.limit);
      }
      head[best] = pos[best] < list.length ? impact(list, list.impacts[pos[best]]) : 0;
    }
    return top;
  }

  /** Every posting of every list, added into per-document accumulators; then the best `limit`. */
  private termAtATime(lists: QueryList[], q: TermQuery): TermHit[] {
    const k1 = this.k1;
    const { accScore, accGroups, alive } = this;
    let used = 0;
    for (const list of lists) {
      const bit = 1 << list.group;
      const { slots, impacts } = list;
      for (let j = 0; j < list.length; j++) {
        const slot = slots[j];
        if (!alive[slot]) continue;
        const p = impacts[j];
        if (accGroups[slot] === 0) {
          if (used === this.touched.length) this.touched = grow(this.touched, used * 2);
          this.touched[used++] = slot;
        }
        accScore[slot] += (list.idf * p * (k1 + 1)) / (p + k1);
        accGroups[slot] |= bit;
      }
    }
    // Field masks only for the documents that will be returned: from their forward entries.
    const top: TermHit[] = [];
    const touched = this.touched;
    for (let i = 0; i < used; i++) {
      const slot = touched[i];
      const score = accScore[slot];
      if ((top.length < q.limit || score >= top[top.length - 1].score) && q.accept(slot)) {
        let termsMatched = 0;
        for (let g = accGroups[slot]; g; g &= g - 1) termsMatched++;
        insertTop(top, { slot, score, fieldMask: 0, termsMatched }, q.limit);
      }
      accScore[slot] = 0;
      accGroups[slot] = 0;
    }
    for (const hit of top) hit.fieldMask = this.fieldMaskOf(hit.slot);
    return top;
  }

  /** Which fields of a document the query's terms matched (the query's lists must be marked in `listOfTerm`). */
  private fieldMaskOf(slot: number): number {
    let mask = 0;
    const start = this.fwdStart[slot];
    for (let i = start; i < start + this.fwdLength[slot]; i++) {
      if (this.listOfTerm[this.fwdTerm[i]] >= 0) mask |= this.fwdFields[i];
    }
    return mask;
  }

  /** A document's full score on the query's lists, from its forward entry. */
  private scoreSlot(slot: number, lists: QueryList[]): TermHit {
    const k1 = this.k1;
    let score = 0;
    let fieldMask = 0;
    let groups = 0;
    const start = this.fwdStart[slot];
    for (let i = start; i < start + this.fwdLength[slot]; i++) {
      const l = this.listOfTerm[this.fwdTerm[i]];
      if (!(l >= 0)) continue;
      const p = this.fwdPseudo[i];
      score += (lists[l].idf * p * (k1 + 1)) / (p + k1);
      fieldMask |= this.fwdFields[i];
      groups |= 1 << lists[l].group;
    }
    let termsMatched = 0;
    for (let g = groups; g; g &= g - 1) termsMatched++;
    return { slot, score, fieldMask, termsMatched };
  }

  /** One list per query term, and per completion of the prefix, each with its idf (times its weight). */
  private queryLists(terms: string[], prefixLast: boolean): QueryList[] {
    const out: QueryList[] = [];
    const n = Math.max(1, this.live);
    const push = (id: number, group: number, weight: number) => {
      const list = this.prepare(id);
      if (list.live === 0) return;
      const idf = Math.log(1 + (n - list.live + 0.5) / (list.live + 0.5)) * weight;
      const { slots, impacts } = this.decoded(list);
      out.push({ term: id, group, idf, slots, impacts, length: list.length });
    };
    terms.slice(0, 31).forEach((t, group) => {
      const last = group === terms.length - 1;
      if (last && prefixLast) {
        for (const word of this.completions(t)) {
          if (word === t || !terms.includes(word)) push(this.idOf(word)!, group, word === t ? 1 : EXPANSION_WEIGHT);
        }
        return;
      }
      const id = this.idOf(t);
      if (id !== undefined) push(id, group, 1);
    });
    return out;
  }

  /** The term itself if indexed, then its shortest completions, at most MAX_EXPANSIONS in all. */
  private completions(prefix: string): string[] {
    this.sortTerms();
    const { sortedIds: sorted, terms } = this;
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (terms[sorted[mid]] < prefix) lo = mid + 1;
      else hi = mid;
    }
    const found: string[] = [];
    for (let i = lo; i < sorted.length && terms[sorted[i]].startsWith(prefix); i++) {
      if (this.liveOf(sorted[i]) > 0) found.push(terms[sorted[i]]);
    }
    found.sort((a, b) => a.length - b.length || byCodePoint(a, b));
    return found.slice(0, MAX_EXPANSIONS);
  }

  private sortTerms(): void {
    if (this.unsortedIds.length === 0) return;
    // Terms added since the last sort are in the map (only a restored index's own terms are not):
    // sorted as strings (the engine's native order, UTF-16 code units like byCodePoint), then merged.
    const { terms, termIds, sortedIds } = this;
    const fresh = this.unsortedIds.map((id) => terms[id]).sort().map((t) => termIds.get(t)!);
    this.unsortedIds = [];
    if (sortedIds.length === 0) {
      this.sortedIds = fresh;
      return;
    }
    const merged = new Array<number>(sortedIds.length + fresh.length);
    let i = 0;
    let j = 0;
    for (let k = 0; k < merged.length; k++) {
      merged[k] = j >= fresh.length || (i < sortedIds.length && terms[sortedIds[i]] < terms[fresh[j]])
        ? sortedIds[i++]
        : fresh[j++];
    }
    this.sortedIds = merged;
  }

  /** A term's list in impact order, without removed documents. */
  private prepare(id: number): Postings {
    const list = this.list(id);
    if (!list.dirty) return list;
    let keys = keysOf(list).subarray(0, list.length);
    if (list.live < list.length) keys = keys.filter((key) => this.alive[slotOf(key)] === 1);
    keys.sort();
    keys.reverse();
    list.keys = keys.length === list.keys!.length ? keys : Float64Array.from(keys);
    list.length = keys.length;
    list.dirty = false;
    list.slots = list.impacts = undefined;
    return list;
  }

  /**
   * A clean list's slots and pseudo-frequencies in two plain arrays, made on its first query and kept
   * until it changes: unpacking each key (a float modulo, a floor, a float32 reinterpretation) cost
   * about ten times the rest of a term-at-a-time pass.
   */
  private decoded(list: Postings): { slots: Int32Array; impacts: Float32Array } {
    if (!list.slots || !list.impacts) {
      const { slots, impacts } = unpack(list);
      list.slots = slots;
      list.impacts = impacts;
    }
    return { slots: list.slots, impacts: list.impacts };
  }

  /**
   * Appends the postings of the documents added since the lists were last used: one pass counts each
   * term's new postings, so every list grows once, then one pass fills them. Documents removed
   * meanwhile never reach this (`remove` flushes first).
   */
  private flush(): void {
    const from = this.pendingFrom;
    const to = this.slots;
    if (from === to) return;
    this.pendingFrom = to;
    const { fwdTerm, fwdPseudo, postings } = this;
    const first = this.fwdStart[from];
    const counts = new Int32Array(this.terms.length);
    for (let i = first; i < this.fwdUsed; i++) counts[fwdTerm[i]]++;
    for (let id = 0; id < counts.length; id++) {
      const c = counts[id];
      if (c === 0) continue;
      const list = this.list(id);
      const keys = keysOf(list);
      if (list.length + c > keys.length) {
        list.keys = grow(keys, list.length === 0 ? c : Math.max(list.length + c, keys.length * 2));
      }
      list.slots = list.impacts = undefined;
      list.live += c;
      list.dirty = true;
    }
    for (let slot = from; slot < to; slot++) {
      const start = this.fwdStart[slot];
      for (let i = start; i < start + this.fwdLength[slot]; i++) {
        const list = postings[fwdTerm[i]];
        list.keys![list.length++] = pack(fwdPseudo[i], slot);
      }
    }
  }

  /** A term's live postings, without decoding a restored list. */
  private liveOf(id: number): number {
    const list = this.postings[id];
    if (list) return list.live;
    return this.restored ? Math.max(0, this.restored.counts[id]) : 0;
  }

  /** A term's id: a restored index's terms by binary search over their code-point order (no map of every term to build on load), later ones from the map. */
  private idOf(word: string): number | undefined {
    const found = this.termIds.get(word);
    if (found !== undefined || !this.restored) return found;
    const { order } = this.restored;
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.terms[order[mid]] < word) lo = mid + 1;
      else hi = mid;
    }
    return lo < order.length && this.terms[order[lo]] === word ? order[lo] : undefined;
  }

  private list(id: number): Postings {
    let list = this.postings[id];
    if (!list) {
      const { bytes, offsets, counts } = this.restored!;
      const d = decodePostings(bytes, offsets[id], offsets[id + 1], counts[id]);
      const length = d ? counts[id] : 0;
      list = this.postings[id] = d
        ? { slots: d.slots, impacts: d.impacts, length, live: length, dirty: false }
        : { keys: new Float64Array(0), length: 0, live: 0, dirty: false };
    }
    return list;
  }

  private termId(word: string): number {
    let id = this.idOf(word);
    if (id === undefined) {
      id = this.terms.length;
      this.termIds.set(word, id);
      this.terms.push(word);
      this.postings.push({ keys: new Float64Array(4), length: 0, live: 0, dirty: false });
      this.unsortedIds.push(id);
      if (id >= this.listOfTerm.length) {
        const size = this.listOfTerm.length * 2;
        const next = new Int32Array(size).fill(-1);
        next.set(this.listOfTerm);
        this.listOfTerm = next;
        this.docMark = grow(this.docMark, size);
        this.docPseudo = grow(this.docPseudo, size);
        this.docFields = grow(this.docFields, size);
      }
    }
    return id;
  }

  private ensureSlots(n: number): void {
    if (n <= this.alive.length) return;
    const size = Math.max(n, this.alive.length * 2);
    this.fwdStart = grow(this.fwdStart, size);
    this.fwdLength = grow(this.fwdLength, size);
    this.alive = grow(this.alive, size);
    this.seen = grow(this.seen, size);
    this.accScore = grow(this.accScore, size);
    this.accGroups = grow(this.accGroups, size);
  }

  private ensureForward(n: number): void {
    if (n <= this.fwdTerm.length) return;
    const size = Math.max(n, this.fwdTerm.length * 2);
    this.fwdTerm = grow(this.fwdTerm, size);
    this.fwdPseudo = grow(this.fwdPseudo, size);
    this.fwdFields = grow(this.fwdFields, size);
  }
}

/** What `TermIndex.image` gives and `TermIndex.restore` takes. */
export interface TermIndexImage {
  meta: {
    k1: number;
    fields: TermField[];
    avg: number[];
    builtWith: number;
    live: number;
    slots: number;
    forward: number;
    terms: number;
    postings: number;
    /** Bytes of the encoded lists. */
    postingBytes: number;
  };
  /** By term id. */
  terms: string[];
  /** Term ids in code-point order of their terms. */
  sorted: Int32Array<ArrayBuffer>;
  /** Per term id, the number of postings in its list. */
  counts: Int32Array<ArrayBuffer>;
  /** Per term id, where its encoded list starts in `postings` (one more entry than terms). */
  offsets: Float64Array<ArrayBuffer>;
  /** The lists encoded one after another (see postings-codec.ts). */
  postings: Uint8Array<ArrayBuffer>;
  fwdStart: Int32Array<ArrayBuffer>;
  fwdLength: Int32Array<ArrayBuffer>;
  fwdTerm: Int32Array<ArrayBuffer>;
  fwdPseudo: Float32Array<ArrayBuffer>;
  fwdFields: Uint8Array<ArrayBuffer>;
  alive: Uint8Array<ArrayBuffer>;
}

interface QueryList {
  term: number;
  /** Index of the query term this list stands for (completions of a prefix share one). */
  group: number;
  idf: number;
  /** The list in impact order: each posting's slot, and its pseudo-frequency. */
  slots: Int32Array;
  impacts: Float32Array;
  length: number;
}

/** Inserts a hit into a top list kept sorted (score descending, then slot ascending), at most `limit` long. */
function insertTop(top: TermHit[], hit: TermHit, limit: number): void {
  const last = top[top.length - 1];
  if (top.length >= limit && (hit.score < last.score || (hit.score === last.score && hit.slot > last.slot))) return;
  let at = top.length;
  while (
    at > 0 && (top[at - 1].score < hit.score || (top[at - 1].score === hit.score && top[at - 1].slot > hit.slot))
  ) at--;
  top.splice(at, 0, hit);
  if (top.length > limit) top.pop();
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
