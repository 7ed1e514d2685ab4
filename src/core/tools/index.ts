import { ToolCatalog } from './catalog';
import { systemTools, type HealthCounter } from './system';
import type { ToolDefinition } from './types';
import { auditTools } from './audit';
import { skillTools, skillsHealthCounter } from './skills';
import { guardTools } from './guard';
import { agentTools } from './agent';
import { knowledgeTools } from './knowledge';
import { graphTools, graphHealthCounter } from './graph';
import { knowledgeHealthCounter } from '../knowledge';
import { freshnessHealthCounter } from '../knowledge/freshness';
import { freshnessTools } from './freshness';
import { exportTools } from './export';

/** Each domain's tools, in the order capabilities lists them. Add a domain here in one line. */
function domainTools(catalog: () => ToolCatalog): ToolDefinition[] {
  return [...auditTools, ...skillTools, ...knowledgeTools, ...freshnessTools, ...exportTools, ...graphTools, ...guardTools, ...agentTools(catalog)];
}

const counters: HealthCounter[] = [skillsHealthCounter, knowledgeHealthCounter, freshnessHealthCounter, graphHealthCounter];

/** Builds the catalog every adapter serves. */
export function createCatalog(): ToolCatalog {
  const catalog: ToolCatalog = new ToolCatalog([...systemTools(() => catalog, counters), ...domainTools(() => catalog)]);
  return catalog;
}

export { ToolCatalog, TOOL_PREFIX } from './catalog';
export type { ToolDefinition, ToolResult, ToolContext, Actor, AccessClass } from './types';
