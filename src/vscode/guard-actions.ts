import * as vscode from 'vscode';
import { disableCommentFor } from '../core/catalog/adapters';
import { lineCommentOf, normalizeLanguage } from '../core/ground/kernel/languages';
import { GUARD_SOURCE, type GuardDiagnostics } from './guard-diagnostics';

export const EXPLAIN_RULE_COMMAND = 'autosnippet.guard.explainRule';
export const OPEN_RULE_COMMAND = 'autosnippet.guard.openRule';
export const MARK_REVIEWED_COMMAND = 'autosnippet.guard.markReviewed';

/** Quick fixes for guard diagnostics: apply the rule's fix, disable the rule for the line, mark the finding reviewed, open the rule. */
export class GuardCodeActions implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly diagnostics: GuardDiagnostics) {}

  provideCodeActions(
    doc: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    for (const d of context.diagnostics) {
      if (d.source !== GUARD_SOURCE) continue;
      const ruleId = typeof d.code === 'object' ? String(d.code.value) : String(d.code);
      const v = this.diagnostics.violationFor(doc.uri, d);
      if (v?.fix !== undefined && doc.getText(d.range) === v.matchedText) {
        const wide = v.fixLength !== undefined;
        const fix = new vscode.CodeAction(
          wide
            ? vscode.l10n.t('Fix: {0} ({1})', v.suggestion, ruleId)
            : v.fix
            ? vscode.l10n.t('Replace with "{0}" ({1})', v.fix, ruleId)
            : vscode.l10n.t('Remove "{0}" ({1})', v.matchedText.trim(), ruleId),
          vscode.CodeActionKind.QuickFix,
        );
        fix.edit = new vscode.WorkspaceEdit();
        const end = wide ? doc.positionAt(doc.offsetAt(d.range.start) + v.fixLength!) : d.range.end;
        fix.edit.replace(doc.uri, new vscode.Range(d.range.start, end), v.fix);
        fix.diagnostics = [d];
        fix.isPreferred = true;
        actions.push(fix);
      }
      const line = doc.lineAt(d.range.start.line);
      const disable = new vscode.CodeAction(
        vscode.l10n.t('Disable {0} for this line', ruleId),
        vscode.CodeActionKind.QuickFix,
      );
      disable.edit = new vscode.WorkspaceEdit();
      disable.edit.insert(
        doc.uri,
        line.range.start,
        disableCommentFor(line.text, ruleId, lineCommentOf(normalizeLanguage(doc.languageId) ?? doc.languageId)),
      );
      disable.diagnostics = [d];
      actions.push(disable);
      if (doc.uri.scheme === 'file' && v?.fingerprint) {
        const title = v.reviewed !== undefined
          ? vscode.l10n.t('Change why this {0} finding is intended…', ruleId)
          : vscode.l10n.t('Mark this {0} finding reviewed: the code is intended…', ruleId);
        const review = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
        review.command = {
          command: MARK_REVIEWED_COMMAND,
          title,
          arguments: [doc.uri, d.range.start.line + 1, ruleId],
        };
        review.diagnostics = [d];
        actions.push(review);
      }
      const open = new vscode.CodeAction(vscode.l10n.t('Open rule {0}', ruleId), vscode.CodeActionKind.QuickFix);
      open.command = { command: OPEN_RULE_COMMAND, title: open.title, arguments: [ruleId] };
      open.diagnostics = [d];
      actions.push(open);
    }
    return actions;
  }
}
