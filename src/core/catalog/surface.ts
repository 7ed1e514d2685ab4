/**
 * The tools an MCP client and VS Code's agent mode list by default: what the bundled skills use on
 * almost every task (check the workspace, find and load a skill, find the project's recipes before
 * writing code, check code after writing it, propose one piece of knowledge), and the three tools that
 * reach the rest of the catalog (list_tools, get_tool_info, call_tool). Every other tool stays
 * callable through call_tool, with the same checks. Listing all 50-odd tools in full costs about 36k
 * tokens on every request, and clients pick tools worse past about 40.
 */
export const DEFAULT_TOOLS: readonly string[] = [
  'health',
  'list_tools',
  'get_tool_info',
  'call_tool',
  'search_skills',
  'load_skill',
  'load_skill_chunk',
  'context_search',
  'search',
  'guard_check',
  'check_duplicate',
  'submit_candidate',
];

/** Which tools a surface lists in full: the default few, or every tool an agent may call. */
export type ToolSurface = 'default' | 'all';

export const TOOL_SURFACES: readonly ToolSurface[] = ['default', 'all'];

export function isDefaultTool(name: string): boolean {
  return DEFAULT_TOOLS.includes(name);
}
