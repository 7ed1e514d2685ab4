import * as vscode from 'vscode';
import { bootstrapKnowledgeTool } from '../core/catalog/graph';
import type { ExtensionHost } from './host';

/**
 * "AutoSnippet: Bootstrap knowledge": runs the cold-start scan through the catalog with a cancellable
 * notification, then shows what it found and offers the Candidates view, where a person reviews it.
 */
export function registerBootstrapCommand(host: ExtensionHost): vscode.Disposable {
  return vscode.commands.registerCommand('autosnippet.bootstrap', async () => {
    // The notification comes first: opening the workspace (the index, on a large repository) can take
    // seconds in a fresh window, and the person must see at once that the command runs.
    const result = await Promise.resolve(vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('AutoSnippet: bootstrapping knowledge'),
        cancellable: true,
      },
      async (progress, token) => {
        progress.report({ message: vscode.l10n.t('Opening the workspace…') });
        const controller = new AbortController();
        const cancel = token.onCancellationRequested(() => controller.abort());
        let shown = 0;
        try {
          const ws = await host.getWorkspace();
          return await host.catalog.call(
            ws,
            bootstrapKnowledgeTool,
            {},
            {
              actor: 'human',
              channel: 'vscode',
              signal: controller.signal,
              progress: (p) => {
                // The scan is most of the work: map its files onto 90 % of the bar.
                const percent = p.total ? Math.round(((p.done ?? 0) / p.total) * 90) : shown;
                progress.report({ message: p.message, increment: Math.max(0, percent - shown) });
                shown = Math.max(shown, percent);
              },
            },
          );
        } finally {
          cancel.dispose();
        }
      },
    )).catch((e: unknown) => void vscode.window.showErrorMessage((e as Error).message));
    if (!result) return;
    if (!result.ok) {
      if (result.error.code === 'CANCELLED') {
        void vscode.window.showInformationMessage(vscode.l10n.t('Bootstrap cancelled; nothing was recorded.'));
      } else void vscode.window.showErrorMessage(vscode.l10n.t('Bootstrap failed: {0}', result.error.message));
      host.log.warn(`bootstrap_knowledge: ${result.error.code}: ${result.error.message}`);
      return;
    }
    const r = result.data;
    host.log.info(
      `bootstrap: ${r.scanned.files} files scanned, ${r.candidates.created} candidates created, ${r.candidates.existing} already known (${r.durationMs} ms)`,
    );
    await vscode.commands.executeCommand('autosnippet.candidates.refresh').then(undefined, () => undefined);
    await vscode.commands.executeCommand('autosnippet.refreshOverview').then(undefined, () => undefined);
    const open = vscode.l10n.t('Open Candidates');
    const message = r.candidates.created
      ? vscode.l10n.t(
        'Bootstrap scanned {0} files and proposed {1} new candidates ({2} already known). Review them in the Candidates view.',
        r.scanned.files,
        r.candidates.created,
        r.candidates.existing,
      )
      : vscode.l10n.t(
        'Bootstrap scanned {0} files: nothing new ({1} findings are already candidates or recipes).',
        r.scanned.files,
        r.candidates.existing,
      );
    const choice = await vscode.window.showInformationMessage(message, open);
    if (choice === open) await vscode.commands.executeCommand('autosnippet.candidates.focus');
  });
}
