import { ToolCatalog } from './catalog';
import { systemTools } from './system';
import type { AnyTool } from './types';
import { auditTools } from './audit';
import { skillTools } from './skills';
import { guardTools } from './guard';
import { agentTools } from './agent';
import { knowledgeTools } from './knowledge';
import { graphTools } from './graph';
import { graphEditTools } from './graph-edit';
import { freshnessTools } from './freshness';
import { exportTools } from './export';
import { rememberTools } from './remember';
import { serverTools } from './servers';

/** Every tool, in the order capabilities lists them. Add a domain here in one line. */
export const allTools: AnyTool[] = [...systemTools, ...auditTools, ...skillTools, ...knowledgeTools, ...freshnessTools, ...exportTools, ...rememberTools, ...serverTools, ...graphTools, ...graphEditTools, ...guardTools, ...agentTools];

/** Builds the catalog every adapter serves. */
export function createCatalog(): ToolCatalog {
  return new ToolCatalog(allTools);
}

export { ToolCatalog, TOOL_PREFIX, toErrorBody } from './catalog';
export type { ToolDefinition, ToolResult, ToolContext, AccessClass, AnyTool, InputOf, OutputOf } from './types';
export type { Actor, Channel } from '../kernel/actors';
