import { lookup } from '../../ground/kernel/tables';
import { NODE_KINDS, type NodeKey, type NodeKind } from './types';

/** Spellings people and tools use for the same relation, after case folding. */
const SYNONYMS: Record<string, string> = {
  depend_on: 'depends_on',
  dependent_on: 'depends_on',
  dependency: 'depends_on',
  requires: 'depends_on',
  relates_to: 'related_to',
  related: 'related_to',
  relates: 'related_to',
  see_also: 'related_to',
  extend: 'extends',
  implement: 'implements',
  import: 'imports',
  use: 'uses',
  conflicts: 'conflicts_with',
  conflict_with: 'conflicts_with',
  call: 'calls',
  contain: 'contains',
};

/**
 * One spelling per relation: `dependsOn`, `depends-on`, `DependsOn`, `depends on` and `depends_on`
 * all become `depends_on`, so a recipe's frontmatter and an edge written by a scan meet.
 */
export function normalizeRelation(name: string): string {
  const snake = name
    .trim()
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
  return lookup(SYNONYMS, snake) ?? snake;
}

/** Relations that say two things are alike or alternatives, not that one needs the other. */
const NON_DEPENDENCY = new Set([
  'related_to',
  'alternative_to',
  'conflicts_with',
  'duplicates',
  'supersedes',
  'replaces',
]);

/** Whether a change to the edge's target can affect its source (used by impact). */
export function isDependencyRelation(relation: string): boolean {
  return !NON_DEPENDENCY.has(relation);
}

/** A dev- or test-only dependency between targets (a manifest's devDependencies, dev-dependencies, test scope). */
export const DEVELOPMENT_DEPENDENCY = 'dev_depends_on';

/** Development-only dependencies: followed by impact (a change can break the tests), left out of the product's rankings and cycles. */
export function isDevelopmentRelation(relation: string): boolean {
  return relation === DEVELOPMENT_DEPENDENCY;
}

/** Membership (a target contains its files): followed by impact, left out of the dependency rankings and cycles. */
export function isMembershipRelation(relation: string): boolean {
  return relation === 'contains';
}

export function nodeKey(kind: NodeKind, id: string): NodeKey {
  return `${kind}:${kind === 'file' ? normalizeFilePath(id) : id}`;
}

export function parseNodeKey(key: NodeKey): { kind: NodeKind | undefined; id: string } {
  const i = key.indexOf(':');
  const kind = i > 0 ? key.slice(0, i) : '';
  return (NODE_KINDS as readonly string[]).includes(kind)
    ? { kind: kind as NodeKind, id: key.slice(i + 1) }
    : { kind: undefined, id: key };
}

export function normalizeFilePath(p: string): string {
  return p.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+/g, '/');
}
