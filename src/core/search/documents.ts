import type { Tx } from '../store/types';
import { type Embedder, HashedNgramEmbedder, quantize } from '../text';
import { analyze } from '../text';
import type { Workspace } from '../workspace';

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
  const rest = [
    r.tags.join(' '),
    r.category,
    r.knowledgeType,
    r.language,
    r.usageGuide,
    r.rationale,
    ...(r.steps ?? []).map((s) => `${s.title} ${s.description ?? ''}`),
    r.code,
  ]
    .filter(Boolean)
    .join('\n');
  return {
    trigger: r.trigger.replace(/^@/, ''),
    title: r.title,
    summary: r.summary,
    rest: rest.slice(0, MAX_REST_CHARS),
  };
}

/** The text the embedder sees: what the recipe is about, not every line of its code. */
export function embeddingText(r: IndexableRecipe): string {
  return [
    r.title,
    r.trigger.replace(/^@/, ''),
    r.summary,
    r.tags.join(' '),
    r.category,
    r.usageGuide?.slice(0, 800),
    r.code?.slice(0, 800),
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

export async function embedDocuments(
  ws: Workspace,
  texts: string[],
  signal?: AbortSignal,
): Promise<{ model: string; bytes: Uint8Array }[]> {
  const embedder = embedderOf(ws);
  const vectors = await embedder.embed(texts, signal);
  return vectors.map((v) => ({ model: embedder.id, bytes: quantize(v) }));
}
