import * as vscode from 'vscode';
import type { ToolCatalog } from '../../core/catalog';
import type { MentionedCandidate, MentionedRecipe } from '../../core/catalog/adapters';
import { approveCandidateTool, publishRecipeTool } from '../../core/catalog/knowledge-review';
import type { Workspace } from '../../core/ground/workspace';

/** Runs a people-only tool from a chat button, after the person confirms. */
export const CONFIRM_ACTION_COMMAND = 'autosnippet.agent.confirmAction';

export interface ReviewAction {
  tool: 'approve_candidate' | 'publish_recipe';
  id: string;
  title?: string;
}

interface ActionHost {
  catalog: ToolCatalog;
  getWorkspace(): Promise<Workspace>;
}

/** The command behind the buttons: a modal confirmation, then the tool as the person (actor human). */
export function registerConfirmActionCommand(host: ActionHost): vscode.Disposable {
  return vscode.commands.registerCommand(CONFIRM_ACTION_COMMAND, async (action?: ReviewAction) => {
    if (!action || !host.catalog.get(action.tool)) return;
    const name = action.title ?? action.id;
    const approve = action.tool === 'approve_candidate';
    const verb = approve ? vscode.l10n.t('Approve') : vscode.l10n.t('Publish');
    const detail = approve
      ? vscode.l10n.t(
        'The candidate becomes a draft recipe file under .autosnippet/recipes that you can edit, then publish. The agent proposed it; you decide.',
      )
      : vscode.l10n.t('The recipe is published: agents and completions use it from now on.');
    const picked = await vscode.window.showWarningMessage(
      approve ? vscode.l10n.t('Approve "{0}"?', name) : vscode.l10n.t('Publish "{0}"?', name),
      { modal: true, detail },
      verb,
    );
    if (picked !== verb) return;
    const ws = await host.getWorkspace();
    const person = { actor: 'human', channel: 'chat' } as const;
    const result = approve
      ? await host.catalog.call(ws, approveCandidateTool, { id: action.id }, person)
      : await host.catalog.call(ws, publishRecipeTool, { id: action.id }, person);
    if (result.ok) {
      void vscode.window.showInformationMessage(
        approve ? vscode.l10n.t('Approved "{0}".', name) : vscode.l10n.t('Published "{0}".', name),
      );
    } else {
      void vscode.window.showErrorMessage(
        result.error.hint ? `${result.error.message} ${result.error.hint}` : result.error.message,
      );
    }
  });
}

/** Buttons for what only a person may do with what this turn produced, and a way to review the rest. */
export function streamReviewButtons(
  stream: vscode.ChatResponseStream,
  catalog: ToolCatalog,
  candidates: readonly MentionedCandidate[],
  recipes: readonly MentionedRecipe[],
): void {
  const max = 3;
  if (catalog.get('approve_candidate')) {
    for (const c of candidates.slice(0, max)) {
      stream.button({
        command: CONFIRM_ACTION_COMMAND,
        title: vscode.l10n.t('Approve "{0}"…', shorten(c.title ?? c.id)),
        arguments: [{ tool: 'approve_candidate', id: c.id, title: c.title } satisfies ReviewAction],
      });
    }
  }
  if (catalog.get('publish_recipe')) {
    for (const r of recipes.slice(0, max)) {
      stream.button({
        command: CONFIRM_ACTION_COMMAND,
        title: vscode.l10n.t('Publish "{0}"…', shorten(r.title ?? r.id)),
        arguments: [{ tool: 'publish_recipe', id: r.id, title: r.title } satisfies ReviewAction],
      });
    }
  }
  if (candidates.length > 0) {
    stream.button({
      command: 'workbench.view.extension.autosnippet',
      title: candidates.length > max
        ? vscode.l10n.t('Review all {0} candidates', candidates.length)
        : vscode.l10n.t('Open the Candidates view'),
    });
  }
}

function shorten(s: string): string {
  return s.length > 48 ? `${s.slice(0, 47)}…` : s;
}
