import * as vscode from 'vscode';
import { type AnyTool, toErrorBody, TOOL_PREFIX, type ToolResult } from '../core/catalog';
import type { Workspace } from '../core/ground/workspace';
import type { ExtensionHost } from './host';

/**
 * Every `read` and `propose` catalog tool as a language-model tool for Copilot agent mode. Their
 * package.json declarations are generated from the same catalog (scripts/gen-manifest.ts).
 */
export function registerLanguageModelTools(host: ExtensionHost): vscode.Disposable {
  const disposables = host.catalog.agentTools.map((tool) =>
    vscode.lm.registerTool<Record<string, unknown>>(TOOL_PREFIX + tool.name, {
      prepareInvocation(options) {
        // call_tool is confirmed as the tool it calls: a proposal asks the person whichever way it came.
        const { target, input } = tool.forwards
          ? forwardedCall(tool, options.input)
          : { target: tool, input: options.input };
        const invocationMessage = vscode.l10n.t('AutoSnippet: {0}', target.title);
        if (target.access !== 'propose') return { invocationMessage };
        const c = target.confirmation?.(input);
        return {
          invocationMessage,
          confirmationMessages: {
            title: c?.title ?? vscode.l10n.t('Allow AutoSnippet to {0}?', target.title),
            message: new vscode.MarkdownString(
              c?.message
                ?? vscode.l10n.t(
                  'This records a proposal in the project knowledge base; a person reviews it before it is used.',
                ),
            ),
          },
        };
      },
      async invoke(options, token) {
        const controller = new AbortController();
        const sub = token.onCancellationRequested(() => controller.abort());
        const answer = (result: ToolResult) =>
          new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(host.catalog.resultText(result))]);
        let ws: Workspace;
        try {
          ws = await host.getWorkspace();
        } catch (e) {
          return answer({
            ok: false,
            tool: tool.name,
            error: {
              code: 'NO_WORKSPACE',
              message: (e as Error).message,
              hint: vscode.l10n.t('Open a folder in VS Code, then try again.'),
            },
          });
        }
        try {
          return answer(
            await host.catalog.invoke(ws, tool.name, options.input, {
              actor: 'copilot_agent',
              channel: 'lm-tool',
              signal: controller.signal,
            }),
          );
        } catch (e) {
          host.log.error(`${tool.name} failed`, e);
          return answer({ ok: false, tool: tool.name, error: toErrorBody(e) });
        } finally {
          sub.dispose();
        }
      },
    })
  );
  return vscode.Disposable.from(...disposables);

  function forwardedCall(
    tool: AnyTool,
    input: Record<string, unknown>,
  ): { target: AnyTool; input: Record<string, unknown> } {
    const target = typeof input.name === 'string' ? host.catalog.get(input.name) : undefined;
    const args = input.arguments;
    return target
      ? { target, input: typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {} }
      : { target: tool, input };
  }
}
