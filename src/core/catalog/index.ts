import { agentTools } from './agent';
import { auditTools } from './audit';
import { ToolCatalog } from './catalog';
import { coldstartTools } from './coldstart';
import { customToolTools } from './custom';
import { exportTools } from './export';
import { freshnessTools } from './freshness';
import { graphTools } from './graph';
import { graphEditTools } from './graph-edit';
import { guardTools } from './guard';
import { guardDraftTools } from './guard-drafts';
import { knowledgeTools } from './knowledge';
import { packTools } from './packs';
import { rememberTools } from './remember';
import { serverTools } from './servers';
import { skillTools } from './skills';
import { systemTools } from './system';
import type { AnyTool } from './types';

/** Every tool, in the order capabilities lists them. Add a domain here in one line. */
export const allTools: AnyTool[] = [
  ...systemTools,
  ...auditTools,
  ...skillTools,
  ...knowledgeTools,
  ...freshnessTools,
  ...exportTools,
  ...rememberTools,
  ...packTools,
  ...serverTools,
  ...customToolTools,
  ...graphTools,
  ...coldstartTools,
  ...graphEditTools,
  ...guardTools,
  ...guardDraftTools,
  ...agentTools,
];

/** Builds the catalog every adapter serves. */
export function createCatalog(): ToolCatalog {
  return new ToolCatalog(allTools);
}

export type { Actor, Channel } from '../ground/kernel/actors';
export { toErrorBody, TOOL_PREFIX, ToolCatalog } from './catalog';
export type { AccessClass, AnyTool, InputOf, OutputOf, ToolContext, ToolDefinition, ToolResult } from './types';
