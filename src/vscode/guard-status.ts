import * as vscode from 'vscode';
import type { Severity } from '../core/tools/adapters';

/** The status-bar item: problem counts (clicking opens the Problems panel), and the trust state. */
export class GuardStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('autosnippet.guard', vscode.StatusBarAlignment.Left, 50);

  constructor() {
    this.item.name = vscode.l10n.t('AutoSnippet Guard');
    this.item.command = 'workbench.actions.view.problems';
  }

  update(counts: Record<Severity, number>, state: { enabled: boolean; trusted: boolean; scanning?: boolean }): void {
    if (!state.enabled) {
      this.item.text = '$(shield) ' + vscode.l10n.t('Guard off');
      this.item.tooltip = vscode.l10n.t('AutoSnippet Guard is turned off (autosnippet.guard.enabled).');
      this.item.show();
      return;
    }
    const icon = state.scanning ? '$(sync~spin)' : counts.error ? '$(shield)' : '$(verified)';
    const parts = [`$(error) ${counts.error}`, `$(warning) ${counts.warning}`];
    this.item.text = `${icon} ${parts.join(' ')}${state.trusted ? '' : ' ' + vscode.l10n.t('(built-in rules only)')}`;
    const lines = [
      vscode.l10n.t('AutoSnippet Guard: {0} errors, {1} warnings, {2} infos, {3} hints', counts.error, counts.warning, counts.info, counts.hint),
      state.trusted ? '' : vscode.l10n.t("This workspace is not trusted: the project's own guard rules do not run; the built-in rules do."),
      vscode.l10n.t('Click to open the Problems panel.'),
    ];
    this.item.tooltip = lines.filter(Boolean).join('\n');
    this.item.backgroundColor = state.trusted ? undefined : new vscode.ThemeColor('statusBarItem.warningBackground');
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
