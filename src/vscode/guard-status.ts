import * as vscode from 'vscode';
import type { Severity } from '../core/catalog/adapters';

/**
 * Guard's state as a language-status item (the `{}` next to the language in the status bar), not a
 * second problem counter beside VS Code's own: on or off, all rules or built-in rules only, scanning.
 * The counts are in the Problems panel, which the item opens.
 */
export class GuardStatus implements vscode.Disposable {
  private readonly item = vscode.languages.createLanguageStatusItem('autosnippet.guard', { scheme: 'file' });

  constructor() {
    this.item.name = vscode.l10n.t('AutoSnippet Guard');
    this.item.command = { command: 'workbench.actions.view.problems', title: vscode.l10n.t('Show Problems') };
  }

  update(counts: Record<Severity, number>, state: { enabled: boolean; trusted: boolean; scanning?: boolean }): void {
    this.item.busy = !!state.scanning;
    this.item.severity = state.enabled && !state.trusted
      ? vscode.LanguageStatusSeverity.Warning
      : vscode.LanguageStatusSeverity.Information;
    if (!state.enabled) {
      this.item.text = vscode.l10n.t('Guard off');
      this.item.detail = vscode.l10n.t('autosnippet.guard.enabled is off');
      this.item.command = {
        command: 'workbench.action.openSettings',
        title: vscode.l10n.t('Settings'),
        arguments: ['autosnippet.guard.enabled'],
      };
      return;
    }
    this.item.command = { command: 'workbench.actions.view.problems', title: vscode.l10n.t('Show Problems') };
    this.item.text = state.scanning
      ? vscode.l10n.t('Guard: scanning')
      : state.trusted
      ? vscode.l10n.t('Guard on')
      : vscode.l10n.t('Guard: built-in rules only');
    const found = counts.error + counts.warning + counts.info + counts.hint;
    this.item.detail = !state.trusted
      ? vscode.l10n.t("Untrusted workspace: the project's own rules do not run")
      : found === 0
      ? vscode.l10n.t('No problems in open files')
      : found === 1
      ? vscode.l10n.t('1 problem in open files')
      : vscode.l10n.t('{0} problems in open files', found);
    this.item.accessibilityInformation = { label: `${this.item.text}. ${this.item.detail}` };
  }

  dispose(): void {
    this.item.dispose();
  }
}
