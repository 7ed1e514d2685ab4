import { addEdge, normalizeRelation } from '../domains/graph';
import { AutoSnippetError, ErrorCode } from '../ground/kernel/errors';
import { currentGraph, NODE_HELP, resolveNode } from './graph';
import { FilePath, Input, Name, Opt, Out, Type } from './schema';
import { type AnyTool, defineTool } from './types';

/** Edges an agent or a person adds by hand; scans and recipe files replace only their own edges, never these. */
const MANUAL_ORIGIN = 'manual';

const node = (description: string) => FilePath(`${description} ${NODE_HELP}`, { minLength: 1 });

export const addGraphEdge = defineTool({
  name: 'add_graph_edge',
  title: 'Add a graph edge',
  domain: 'graph',
  summary: 'Records a relation between two existing nodes (recipes, targets, files) that the scans cannot see.',
  description:
    'Adds a directed edge `from` → `to` to the knowledge graph, for a relation the manifests, imports and recipe files do not state (a call through a registry, a runtime dependency, a convention). '
    + 'Both nodes must exist; the relation is normalised like every other (`dependsOn` = `depends_on`). Adding an edge that is there already updates its weight and evidence. '
    + "graph_query, graph_impact and graph_path follow it at once. The edge is state of this machine's database, not a reviewed recipe.",
  inputSchema: Input({
    from: node('Where the edge starts.'),
    to: node('Where it points.'),
    relation: Name('The relation, e.g. depends_on, calls, uses, related_to.', { minLength: 1, maxLength: 64 }),
    evidence: Opt(FilePath('Where the relation is stated, as `path:line`.')),
    weight: Opt(Type.Number({ minimum: 0, maximum: 100, description: 'Strength of the relation (default 1).' })),
  }),
  outputSchema: Out({
    from: Type.String(),
    to: Type.String(),
    relation: Type.String(),
    weight: Type.Number(),
    evidence: Opt(Type.String()),
    created: Type.Boolean(),
  }),
  aliases: { source: 'from', fromId: 'from', target: 'to', toId: 'to', type: 'relation', relationType: 'relation' },
  access: 'propose',
  maxOutputChars: 2000,
  confirmation: (input) => ({
    title: 'Add a graph edge?',
    message: `Record "${input.from} ${input.relation} ${input.to}" in the knowledge graph.`,
  }),
  async handler(ws, input) {
    const relation = normalizeRelation(input.relation);
    if (!relation) {
      throw new AutoSnippetError(
        ErrorCode.InvalidInput,
        `"${input.relation}" is not a relation name.`,
        'Name it in words: depends_on, calls, uses, related_to…',
        { field: 'relation' },
      );
    }
    const graph = await currentGraph(ws);
    const from = await resolveNode(ws, graph, input.from, 'from');
    const to = await resolveNode(ws, graph, input.to, 'to');
    if (from === to) {
      throw new AutoSnippetError(
        ErrorCode.InvalidInput,
        `An edge from ${from} to itself says nothing.`,
        'Pass two different nodes.',
        { field: 'to' },
      );
    }
    const { edge, created } = await addEdge(ws, MANUAL_ORIGIN, {
      from,
      to,
      relation,
      weight: input.weight,
      evidence: input.evidence,
    });
    return { ...edge, created };
  },
});

export const graphEditTools: AnyTool[] = [addGraphEdge];
