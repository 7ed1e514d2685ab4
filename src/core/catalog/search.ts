import { ensureIndexFresh } from '../domains/knowledge';
import { type ContextAnswer, contextSearch } from '../domains/retrieval/context';
import { searchKnowledge } from '../domains/retrieval/results';
import type { SearchMode } from '../domains/search/hybrid';
import { indexFreshnessOut, KINDS, searchFilterProperties, withIndexFreshness } from './knowledge-schemas';
import { Domain, FilePath, Id, Input, List, Opt, Out, StringEnum, Text, Type } from './schema';
import { type AnyTool, defineTool } from './types';

const query = Text('What you are looking for, in words or identifiers.', { minLength: 1, maxLength: 500 });

const searchOut = Out({
  query: Type.String(),
  mode: StringEnum(['hybrid', 'keyword', 'semantic']),
  total: Type.Integer(),
  groups: Type.Array(Out({
    kind: StringEnum(KINDS),
    results: Type.Array(Out({
      id: Type.String(),
      kind: StringEnum(KINDS),
      title: Type.String(),
      trigger: Type.String(),
      summary: Type.String(),
      language: Type.String(),
      category: Type.String(),
      status: Type.String(),
      origin: Opt(StringEnum(['personal', 'pack'], {
        description: "The person's own recipe or a knowledge pack's; absent for the project's own.",
      })),
      score: Type.Number(),
      why: Type.Array(Type.String()),
    })),
  })),
  index: indexFreshnessOut,
});

function searchTool(name: string, mode: SearchMode, title: string, summary: string, description: string) {
  return defineTool({
    name,
    title,
    domain: 'search',
    summary,
    description: description
      + ' Results are grouped by kind (rule, pattern, fact), best first: the first group holds the best result, and each result has id, trigger, title, summary, language, status, a score and why it was found; no code (get_recipe has it).',
    inputSchema: Input({ query, ...searchFilterProperties }),
    outputSchema: searchOut,
    aliases: { q: 'query', text: 'query', keyword: 'query', type: 'kind' },
    access: 'read',
    maxOutputChars: 10000,
    async handler(ws, input) {
      const freshness = await ensureIndexFresh(ws);
      return withIndexFreshness(await searchKnowledge(ws, { ...input, mode }), freshness);
    },
  });
}

export const contextSearchTool = defineTool({
  name: 'context_search',
  title: 'Knowledge for the task at hand',
  domain: 'search',
  summary: 'Call before writing code: the project knowledge that applies to this task, ranked and explained.',
  description:
    'The funnel to call before you write code in this project. Describe the task in `query`; pass `currentFile` (or `language`) so recipes of that language rank first, and `touched` — '
    + 'the recipe ids this conversation already saw — so they are not repeated. Recall (keyword + meaning) → rerank → ranking by relevance, quality, usage, freshness and language match. '
    + "Each result gives trigger and summary first, its signals and why it ranked there; includeCode: true adds each recipe's code (bounded). A recipe whose cited code changed since it was recorded ranks lower and carries `stale` (what changed): read that code before following it. When you follow a recipe, call confirm_usage.",
  inputSchema: Input({
    query,
    currentFile: Opt(FilePath('Path of the file being edited.')),
    language: searchFilterProperties.language,
    kind: searchFilterProperties.kind,
    touched: Opt(List(Id(), 200, { description: 'Recipe ids already seen in this conversation.' })),
    limit: Opt(Type.Integer({ minimum: 1, maximum: 20, default: 5 })),
    includeCode: Opt(Type.Boolean({ default: false })),
  }),
  outputSchema: Out({
    query: Type.String(),
    language: Opt(Type.String()),
    results: Domain<ContextAnswer['results']>(
      'The recipes that apply, best first, each with its signals and why it ranked there.',
      'array',
    ),
    alreadySeen: Type.Array(Out({ id: Type.String(), title: Type.String() })),
    funnel: Out({
      recalled: Type.Integer(),
      reranked: Type.Integer(),
      returned: Type.Integer(),
      skippedTouched: Type.Integer(),
    }),
    hint: Opt(Type.String()),
    index: indexFreshnessOut,
  }),
  aliases: { q: 'query', task: 'query', file: 'currentFile', filePath: 'currentFile', seen: 'touched' },
  access: 'read',
  maxOutputChars: 14000,
  async handler(ws, input) {
    const freshness = await ensureIndexFresh(ws);
    return withIndexFreshness(await contextSearch(ws, input), freshness);
  },
});

export const searchRecipesTool = searchTool(
  'search',
  'hybrid',
  'Search the knowledge base',
  'Find recipes by words and meaning (hybrid: keyword + semantic, fused).',
  "Searches the project's recipes with keyword search and semantic search together, fused by reciprocal rank fusion.",
);

export const searchTools: AnyTool[] = [
  searchRecipesTool,
  searchTool(
    'keyword_search',
    'keyword',
    'Keyword search',
    'Find recipes by exact words: BM25, trigger > title > summary > the rest.',
    'Keyword search with BM25, weighting a match in the trigger over the title, the title over the summary, the summary over the rest (usage guide, code, tags). The last word also matches as a prefix.',
  ),
  searchTool(
    'semantic_search',
    'semantic',
    'Semantic search',
    'Find recipes close in meaning, even with other words.',
    'Semantic search over recipe vectors: finds recipes close in meaning though they use other words, inflections or abbreviations (offline vectors; a real embedding model can be plugged in).',
  ),
  contextSearchTool,
];
