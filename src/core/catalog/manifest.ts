import { TOOL_PREFIX, type ToolCatalog } from './catalog';
import { isDefaultTool } from './surface';

/**
 * Agent mode shows the tools outside the default surface only when the `autosnippet.tools.offered`
 * setting asks for all: a tool set would group them, but contributing one needs a proposed API.
 * call_tool reaches them either way.
 */
const WHEN_ALL_TOOLS = "config.autosnippet.tools.offered == 'all'";

/**
 * The `contributes.languageModelTools` block of package.json, generated from the catalog so the two
 * cannot drift (a unit test compares them; `npm run gen:manifest` rewrites the block).
 */
export function languageModelToolsManifest(catalog: ToolCatalog): object[] {
  return catalog.agentTools.map((tool) => ({
    name: TOOL_PREFIX + tool.name,
    displayName: tool.title,
    toolReferenceName: TOOL_PREFIX + tool.name,
    canBeReferencedInPrompt: true,
    icon: '$(book)',
    userDescription: tool.summary,
    modelDescription: tool.description,
    tags: ['autosnippet', tool.domain],
    inputSchema: catalog.inputSchema(tool),
    ...(isDefaultTool(tool.name) ? {} : { when: WHEN_ALL_TOOLS }),
  }));
}
