// Retrieval: what an agent asks for, above knowledge and search: the context funnel (context_search) and results grouped by kind.
export { searchKnowledge, type SearchAnswer, type SearchResult, type SearchRequest } from './results';
export { contextSearch, type ContextRequest, type ContextAnswer, type ContextResult } from './context';
export { prepareRecipeSearch } from './prepare';
