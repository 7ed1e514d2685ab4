/**
 * The one text layer every search uses (skills and recipes): how text becomes terms, and BM25.
 */
export { analyze, ANALYZER_VERSION, analyzeTokens, indexForm, queryTerms } from './analyze';
export { type Bm25fField, Bm25fIndex, type Bm25fMatch } from './bm25f';
export { type Embedder, HashedNgramEmbedder, quantize, quantizeInto } from './embedder';
export { cosine, parseWordVectors, WordVectors, wordVectors } from './meaning';
export { cutAtWord, sentenceAt } from './sentences';
export { stem } from './stem';
export { isStopword } from './stopwords';
export { isGeneralTechnology, mentionsTechnology, technologiesIn } from './tech';
export { MAX_TOKEN_CHARS, tokenize } from './tokenize';
export { englishGlosses } from './translate';
