import type { Tx } from '../../ground/store/types';
import { type Embedder, HashedNgramEmbedder, quantize, quantizeInto } from '../../ground/text';
import { analyze, analyzeTokens, tokenize } from '../../ground/text';
import type { Workspace } from '../../ground/workspace';

/** The fields of a recipe that search sees, in the keyword index's field order. */
export interface SearchDocument {
  trigger: string;
  title: string;
  summary: string;
  /** Everything else: usage guide, rationale, steps, tags, category, type, code. */
  rest: string;
}

/** Keyword column weights: a trigger match counts most, then the title, the summary, the rest. */
export const FIELD_WEIGHTS = [8, 4, 2, 1] as const;
export const FIELD_NAMES = ['trigger', 'title', 'summary', 'body'] as const;

/** What the keyword index keeps of the code and long texts: enough to find by, not a copy of the file. */
const MAX_REST_CHARS = 6000;

export interface IndexableRecipe {
  title: string;
  trigger: string;
  summary: string;
  language: string;
  category: string;
  knowledgeType: string;
  tags: string[];
  usageGuide?: string;
  rationale?: string;
  steps?: { title: string; description?: string; code?: string }[];
  code?: string;
}

export function searchDocument(r: IndexableRecipe): SearchDocument {
  const rest = restPieces(r).join('\n');
  return {
    trigger: r.trigger.replace(/^@/, ''),
    title: r.title,
    summary: r.summary,
    rest: rest.slice(0, MAX_REST_CHARS),
  };
}

/** What indexing a recipe needs of its text: its keyword fields' terms and its embedding text's tokens. */
export interface AnalysedRecipe {
  /** `searchRowTerms(searchDocument(r))`. */
  fields: string[][];
  /** `tokenize(embeddingText(r))`. */
  embedTokens: string[];
  /** `embeddingText(r)`, for an embedder that takes text. */
  embedText(): string;
}

/**
 * The keyword fields and the embedding tokens of a recipe with each piece of its text split once:
 * both are made of the same pieces (title, trigger, summary, tags, usage, code), and a text joined
 * with line breaks splits into its pieces' tokens in order, so the pieces' tokens are shared.
 */
export function analyseRecipe(r: IndexableRecipe): AnalysedRecipe {
  const trigger = tokenize(r.trigger.replace(/^@/, ''));
  const title = tokenize(r.title);
  const summary = tokenize(r.summary);
  const texts = restPieces(r);
  const pieces = texts.map(tokenize);
  const restChars = texts.reduce((n, t) => n + t.length + 1, -1);
  const rest = restChars <= MAX_REST_CHARS ? pieces.flat() : tokenize(texts.join('\n').slice(0, MAX_REST_CHARS));
  const tokensOf = (text: string | undefined, max: number): string[] => {
    if (!text) return [];
    if (text.length > max) return tokenize(text.slice(0, max));
    const k = texts.indexOf(text);
    return k >= 0 ? pieces[k] : tokenize(text);
  };
  const embedTokens = [
    ...title,
    ...trigger,
    ...summary,
    ...tokensOf(r.tags.join(' '), Infinity),
    ...tokensOf(r.category, Infinity),
    ...tokensOf(r.usageGuide, EMBED_PIECE_CHARS),
    ...tokensOf(r.code, EMBED_PIECE_CHARS),
  ];
  return {
    fields: [trigger, title, summary, rest].map(analyzeTokens),
    embedTokens,
    embedText: () => embeddingText(r),
  };
}

/** The pieces of the keyword index's last field, before they are joined and cut. */
function restPieces(r: IndexableRecipe): string[] {
  return [
    r.tags.join(' '),
    r.category,
    r.knowledgeType,
    r.language,
    r.usageGuide,
    r.rationale,
    ...(r.steps ?? []).map((s) => `${s.title} ${s.description ?? ''}`),
    r.code,
  ].filter((x): x is string => !!x);
}

/** What the embedding text keeps of the usage guide and the code. */
const EMBED_PIECE_CHARS = 800;

/** The text the embedder sees: what the recipe is about, not every line of its code. */
export function embeddingText(r: IndexableRecipe): string {
  return [
    r.title,
    r.trigger.replace(/^@/, ''),
    r.summary,
    r.tags.join(' '),
    r.category,
    r.usageGuide?.slice(0, EMBED_PIECE_CHARS),
    r.code?.slice(0, EMBED_PIECE_CHARS),
  ].filter(Boolean).join('\n');
}

/** The workspace's embedder: the offline one unless another was plugged in with `useEmbedder`. */
export function embedderOf(ws: Workspace): Embedder {
  return ws.service('search.embedder', () => ({ embedder: new HashedNgramEmbedder() as Embedder })).embedder;
}

/** Plugs a different embedder into a workspace; recipes are re-embedded on the next sync. */
export function useEmbedder(ws: Workspace, embedder: Embedder): void {
  ws.service('search.embedder', () => ({ embedder })).embedder = embedder;
}

/** The keyword index's fields of a document (trigger, title, summary, body), each as its terms separated by spaces. */
export function searchRowValues(doc: SearchDocument): string[] {
  return searchRowTerms(doc).map((terms) => terms.join(' '));
}

/** The keyword index's fields of a document, each as its terms: what the row stores and the search index adds. */
export function searchRowTerms(doc: SearchDocument): string[][] {
  return [doc.trigger, doc.title, doc.summary, doc.rest].map((text) => (text ? analyze(text) : []));
}

export function deleteSearchRows(tx: Tx, rid: number): void {
  tx.run('DELETE FROM recipe_terms WHERE rid = ?', [rid]);
  tx.run('DELETE FROM recipe_vectors WHERE rid = ?', [rid]);
}

/** A recipe as the index stores it for search: its keyword fields' terms and its vector. */
export interface IndexedRecipe {
  fields: string[][];
  model: string;
  bytes: Uint8Array;
}

/**
 * Analyses and embeds recipes. With an embedder that takes tokens, each recipe is embedded as soon
 * as it is split, so its tokens die young instead of surviving a slice's worth of garbage collections.
 * The vectors of a call share one buffer (each is a view of its part): a buffer per vector is an
 * ArrayBuffer per recipe for the garbage collector to track while the index keeps them.
 */
export async function indexRecipes(
  ws: Workspace,
  recipes: IndexableRecipe[],
  signal?: AbortSignal,
): Promise<IndexedRecipe[]> {
  const embedder = embedderOf(ws);
  if (embedder.embedTokens) {
    const dims = embedder.dimensions;
    const slab = new Uint8Array(recipes.length * dims);
    return recipes.map((r, k) => {
      const a = analyseRecipe(r);
      const v = embedder.embedTokens!(a.embedTokens);
      const bytes = v.length === dims ? quantizeInto(v, slab.subarray(k * dims, (k + 1) * dims)) : quantize(v);
      return { fields: a.fields, model: embedder.id, bytes };
    });
  }
  const analysed = recipes.map(analyseRecipe);
  const vectors = await embedDocuments(ws, analysed.map((a) => a.embedText()), signal);
  return analysed.map((a, k) => ({ fields: a.fields, ...vectors[k] }));
}

export async function embedDocuments(
  ws: Workspace,
  texts: string[],
  signal?: AbortSignal,
): Promise<{ model: string; bytes: Uint8Array }[]> {
  const embedder = embedderOf(ws);
  const vectors = await embedder.embed(texts, signal);
  return vectors.map((v) => ({ model: embedder.id, bytes: quantize(v) }));
}
