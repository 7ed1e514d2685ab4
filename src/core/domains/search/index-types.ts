// The shapes recipe search's index is made of, at the bottom of the search folder: the index cache
// builds and serves them, the index file saves and reads them, keyword search filters by them.
import type { TermIndex } from './term-index';
import type { VectorIndex } from './vector-index';

/**
 * What recipe search serves queries from: the workspace's recipes in memory, per document a slot in
 * a keyword index (BM25F, impact-ordered postings) and a vector index, with its kind, language and
 * status for filtering. The sql.js tables stay the durable store; this is built from them once per
 * process and then follows the index generation: each change to the recipe index records the
 * recipes it touched in `recipe_changes` at the new generation, so catching up (this process's
 * commits and other processes' alike, which the store applies from the journal) reads only those.
 */
export interface SearchIndex {
  generation: number;
  /** Built from the database rows in this process, or read from the file an earlier process saved. */
  origin: 'built' | 'saved';
  model: string;
  terms: TermIndex;
  vectors: VectorIndex;
  /** Bumped whenever changes are applied (a copy being saved is then abandoned). */
  changes: number;
  /** slot → rid, kind, language (lower case), deprecated. */
  rid: number[];
  kind: string[];
  language: string[];
  deprecated: Uint8Array;
  slotOf: Map<number, number>;
}

/** Which recipes a search considers. */
export interface SearchFilter {
  kind?: string;
  language?: string;
  /** Deprecated recipes are left out unless asked for. */
  includeDeprecated?: boolean;
}
