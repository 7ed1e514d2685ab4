import * as vscode from 'vscode';
import { TOOL_PREFIX, toErrorBody, type ToolResult } from '../core/tools';
import type { Workspace } from '../core/workspace';
import type { ExtensionHost } from './host';

/**
 * Every `read` and `propose` catalog tool as a language-model tool for Copilot agent mode. Their
 * package.json declarations are generated from the same catalog (scripts/gen-manifest.ts).
 */
export function registerLanguageModelTools(host: ExtensionHost): vscode.Disposable {
  const disposables = host.catalog.agentTools.map((tool) =>
    vscode.lm.registerTool<Record<string, unknown>>(TOOL_PREFIX + tool.name, {
      prepareInvocation(options) {
        const invocationMessage = vscode.l10n.t('AutoSnippet: {0}', tool.title);
        if (tool.access !== 'propose') return { invocationMessage };
        const c = tool.confirmation?.(options.input);
        return {
          invocationMessage,
          confirmationMessages: {
            title: c?.title ?? vscode.l10n.t('Allow AutoSnippet to {0}?', tool.title),
            message: new vscode.MarkdownString(c?.message ?? vscode.l10n.t('This records a proposal in the project knowledge base; a person reviews it before it is used.')),
          },
        };
      },
      async invoke(options, token) {
        const controller = new AbortController();
        const sub = token.onCancellationRequested(() => controller.abort());
        const answer = (result: ToolResult) => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(host.catalog.resultText(result))]);
        let ws: Workspace;
        try {
          ws = await host.getWorkspace();
        } catch (e) {
          return answer({ ok: false, tool: tool.name, error: { code: 'NO_WORKSPACE', message: (e as Error).message, hint: vscode.l10n.t('Open a folder in VS Code, then try again.') } });
        }
        try {
          return answer(await host.catalog.invoke(ws, tool.name, options.input, { actor: 'copilot_agent', channel: 'lm-tool', signal: controller.signal }));
        } catch (e) {
          host.log.error(`${tool.name} failed`, e);
          return answer({ ok: false, tool: tool.name, error: toErrorBody(e) });
        } finally {
          sub.dispose();
        }
      },
    }),
  );
  return vscode.Disposable.from(...disposables);
}
