/**
 * What a turn's tool results mention that a person may act on: candidates (to approve) and draft
 * recipes (to publish). Found by shape, so every tool's results count without a list of tools.
 */

export interface MentionedCandidate {
  id: string;
  title?: string;
}

export interface MentionedRecipe {
  id: string;
  title?: string;
  file: string;
}

const CANDIDATE_ID = /^cand-[0-9a-f]{6,}$/;
const CANDIDATE_LISTS = /^(created|createdIds|candidateIds|candidateId|ids|candidates|candidate)$/;

export function candidatesIn(
  value: unknown,
  out = new Map<string, MentionedCandidate>(),
): Map<string, MentionedCandidate> {
  const decided = new Set<string>();
  visit(value, 0, (node, key) => {
    if (typeof node === 'string') {
      // Bare ids count under the keys that list candidates; an object's own `id` is judged with the object.
      if (CANDIDATE_ID.test(node) && key && CANDIDATE_LISTS.test(key) && !decided.has(node) && !out.has(node)) {
        out.set(node, { id: node });
      }
      return;
    }
    const id = node.id;
    if (typeof id === 'string' && CANDIDATE_ID.test(id)) {
      const title = typeof node.title === 'string' ? node.title : out.get(id)?.title;
      if (node.status === undefined || node.status === 'pending') out.set(id, { id, ...(title ? { title } : {}) });
      else {
        decided.add(id);
        out.delete(id);
      }
    }
  });
  return out;
}

export function draftRecipesIn(value: unknown, out = new Map<string, MentionedRecipe>()): Map<string, MentionedRecipe> {
  visit(value, 0, (node) => {
    if (typeof node === 'string') return;
    if (
      node.status === 'draft' && typeof node.id === 'string' && typeof node.file === 'string'
      && /recipes[\\/].+\.md$/.test(node.file)
    ) {
      out.set(node.id, {
        id: node.id,
        file: node.file,
        ...(typeof node.title === 'string' ? { title: node.title } : {}),
      });
    }
  });
  return out;
}

function visit(
  value: unknown,
  depth: number,
  fn: (node: Record<string, unknown> | string, key?: string) => void,
  key?: string,
): void {
  if (depth > 6) return;
  if (typeof value === 'string') return fn(value, key);
  if (Array.isArray(value)) {
    for (const v of value.slice(0, 500)) visit(v, depth + 1, fn, key);
    return;
  }
  if (value && typeof value === 'object') {
    fn(value as Record<string, unknown>, key);
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) visit(v, depth + 1, fn, k);
  }
}
