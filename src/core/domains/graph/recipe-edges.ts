import type { Workspace } from '../../ground/workspace';
import { indexGeneration } from '../knowledge/recipe-index';
import { findRecipeRow, listRecipes, recipeMeta } from '../knowledge/recipes';
import type { DerivedEdges } from './index';
import { nodeKey, normalizeFilePath, normalizeRelation, parseNodeKey } from './relations';
import type { GraphEdge } from './types';

/**
 * The recipes' own links as graph edges, derived from the recipe index (never stored twice):
 * `relations` (dependsOn → depends_on, …) between recipes, `target` as `applies_to`, and each
 * source file as `references`. A relation may name a recipe by id or `@trigger`, or a node by its key
 * (`target:CoreKit`). The key is the index generation, so the graph follows recipe edits.
 */
export function recipeEdgeSource(ws: Workspace): DerivedEdges {
  return {
    key: `recipes@${indexGeneration(ws)}`,
    edges: () => recipeEdges(ws),
  };
}

export function recipeEdges(ws: Workspace): GraphEdge[] {
  const edges: GraphEdge[] = [];
  const recipes = listRecipes(ws, { status: 'any' });
  const ids = new Map<string, string>();
  for (const r of recipes) {
    ids.set(r.id, r.id);
    ids.set(r.trigger, r.id);
    ids.set(r.trigger.replace(/^@/, ''), r.id);
  }
  const referenceNode = (ref: string): string => {
    const parsed = parseNodeKey(ref.trim());
    if (parsed.kind) return nodeKey(parsed.kind, parsed.id);
    return nodeKey('recipe', ids.get(ref.trim()) ?? ref.trim().replace(/^@/, ''));
  };
  for (const summary of recipes) {
    const meta = recipeMeta(findRecipeRow(ws, summary.id));
    const from = nodeKey('recipe', summary.id);
    for (const [relation, targets] of Object.entries(meta.relations ?? {})) {
      for (const t of targets ?? []) {
        edges.push({
          from,
          to: referenceNode(t),
          relation: normalizeRelation(relation),
          weight: 1,
          evidence: `${summary.file}:1`,
        });
      }
    }
    if (typeof meta.target === 'string' && meta.target) {
      edges.push({
        from,
        to: nodeKey('target', meta.target),
        relation: 'applies_to',
        weight: 1,
        evidence: `${summary.file}:1`,
      });
    }
    for (const src of meta.sourceFiles ?? []) {
      const file = normalizeFilePath(src.replace(/:\d+(?:-\d+)?$/, ''));
      if (file) edges.push({ from, to: nodeKey('file', file), relation: 'references', weight: 0.5, evidence: src });
    }
  }
  return edges;
}
