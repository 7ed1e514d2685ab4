// Search over the recipe index: keyword (BM25F), semantic (pluggable embedder), hybrid (RRF); served from an in-memory index.
// The context funnel and the grouped results are the retrieval layer above knowledge (core/domains/retrieval).
export { type Embedder, HashedNgramEmbedder } from '../../ground/text';
export { embedderOf, FIELD_WEIGHTS, useEmbedder } from './documents';
export { type FusedHit, type RankedHit, rankRecipes, reciprocalRankFusion, RRF_K, type SearchMode } from './hybrid';
export { type KeywordHit, keywordQuery, keywordSearch, type SearchFilter } from './keyword';
export { MIN_SIMILARITY, type SemanticHit, semanticSearch } from './semantic';
