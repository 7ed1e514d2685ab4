/**
 * The one text layer every search uses (skills and recipes): how text becomes terms, and BM25.
 */
export { analyze, indexForm, queryTerms, ANALYZER_VERSION } from './analyze';
export { tokenize, MAX_TOKEN_CHARS } from './tokenize';
export { stem } from './stem';
export { isStopword } from './stopwords';
export { Bm25fIndex, type Bm25fField, type Bm25fMatch } from './bm25f';
export { sentenceAt, cutAtWord } from './sentences';
export { HashedNgramEmbedder, quantize, type Embedder } from './embedder';
export { englishGlosses } from './translate';
export { isGeneralTechnology, mentionsTechnology, technologiesIn } from './tech';
export { WordVectors, wordVectors, cosine, parseWordVectors } from './meaning';
