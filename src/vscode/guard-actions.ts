import * as vscode from 'vscode';
import { disableCommentFor } from '../core/tools/adapters';
import { lineCommentOf, normalizeLanguage } from '../core/kernel/languages';
import { GUARD_SOURCE, type GuardDiagnostics } from './guard-diagnostics';

export const EXPLAIN_RULE_COMMAND = 'autosnippet.guard.explainRule';
export const OPEN_RULE_COMMAND = 'autosnippet.guard.openRule';

/** Quick fixes for guard diagnostics: apply the rule's fix, disable the rule for the line, open the rule. */
export class GuardCodeActions implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly diagnostics: GuardDiagnostics) {}

  provideCodeActions(doc: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    for (const d of context.diagnostics) {
      if (d.source !== GUARD_SOURCE) continue;
      const ruleId = typeof d.code === 'object' ? String(d.code.value) : String(d.code);
      const v = this.diagnostics.violationFor(doc.uri, d);
      if (v?.fix !== undefined && doc.getText(d.range) === v.matchedText) {
        const fix = new vscode.CodeAction(
          v.fix ? vscode.l10n.t('Replace with "{0}" ({1})', v.fix, ruleId) : vscode.l10n.t('Remove "{0}" ({1})', v.matchedText.trim(), ruleId),
          vscode.CodeActionKind.QuickFix,
        );
        fix.edit = new vscode.WorkspaceEdit();
        fix.edit.replace(doc.uri, d.range, v.fix);
        fix.diagnostics = [d];
        fix.isPreferred = true;
        actions.push(fix);
      }
      const line = doc.lineAt(d.range.start.line);
      const disable = new vscode.CodeAction(vscode.l10n.t('Disable {0} for this line', ruleId), vscode.CodeActionKind.QuickFix);
      disable.edit = new vscode.WorkspaceEdit();
      disable.edit.insert(doc.uri, line.range.start, disableCommentFor(line.text, ruleId, lineCommentOf(normalizeLanguage(doc.languageId) ?? doc.languageId)));
      disable.diagnostics = [d];
      actions.push(disable);
      const open = new vscode.CodeAction(vscode.l10n.t('Open rule {0}', ruleId), vscode.CodeActionKind.QuickFix);
      open.command = { command: OPEN_RULE_COMMAND, title: open.title, arguments: [ruleId] };
      open.diagnostics = [d];
      actions.push(open);
    }
    return actions;
  }
}
