// Search over the recipe index: keyword (BM25 from FTS4 matchinfo), semantic (pluggable embedder), hybrid (RRF).
// The context funnel and the grouped results are the retrieval layer above knowledge (core/retrieval).
export { keywordSearch, matchExpression, type KeywordHit, type SearchFilter } from './keyword';
export { semanticSearch, MIN_SIMILARITY, type SemanticHit } from './semantic';
export { reciprocalRankFusion, rankRecipes, RRF_K, type FusedHit, type SearchMode, type RankedHit } from './hybrid';
export { HashedNgramEmbedder, type Embedder } from '../text';
export { useEmbedder, embedderOf, FIELD_WEIGHTS } from './documents';
