import { TOOL_PREFIX, type ToolCatalog } from './catalog';

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
  }));
}
