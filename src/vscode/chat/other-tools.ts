import * as vscode from 'vscode';
import { TOOL_PREFIX } from '../../core/catalog';
import type { AgentToolbox } from '../../core/catalog/adapters';
import { rankToolsByRelevance } from '../../core/catalog/adapters';

/**
 * Tools other extensions and MCP servers registered in VS Code, the ones most relevant to the request,
 * at most `room` of them (setting `autosnippet.agent.useOtherTools`). Ours are left out: the catalog
 * serves them directly.
 */
export function otherToolsToolbox(
  prompt: string,
  room: number,
  toolInvocationToken: vscode.ChatParticipantToolToken | undefined,
  token: vscode.CancellationToken,
): AgentToolbox {
  const others = vscode.lm.tools.filter((t) => !t.name.startsWith(TOOL_PREFIX));
  const chosen = rankToolsByRelevance(prompt, others, room);
  return {
    specs: chosen.map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: (t.inputSchema ?? { type: 'object', properties: {} }) as Record<string, unknown>,
    })),
    async invoke(call) {
      try {
        const result = await vscode.lm.invokeTool(call.name, { input: call.input, toolInvocationToken }, token);
        const text = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
        return { ok: true, text, references: [] };
      } catch (e) {
        const error = { code: 'TOOL_FAILED', message: `${call.name} failed: ${(e as Error).message}` };
        return { ok: false, text: JSON.stringify({ ok: false, tool: call.name, error }), references: [] };
      }
    },
  };
}
