// Retrieval: what an agent asks for, above knowledge and search: the context funnel (context_search) and results grouped by kind.
export { type ContextAnswer, type ContextRequest, type ContextResult, contextSearch } from './context';
export { prepareRecipeSearch } from './prepare';
export { type SearchAnswer, searchKnowledge, type SearchRequest, type SearchResult } from './results';
