import path from 'node:path';
import * as vscode from 'vscode';
import { problemFile, problemLocation, type RuleProblem } from '../core/catalog/adapters';
import { documentText } from './document-text';

const SOURCE = 'AutoSnippet Guard rules';

/**
 * Problems of guard rules (a rule file's field, a rule that fails its own examples, a recipe guard
 * that can never match) in the Problems panel, on the field's key in the file that defines the rule.
 * One collection per workspace folder; every load replaces what the last one showed.
 */
export class GuardRuleProblems implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('autosnippet-guard-rules');

  constructor(private readonly root: string) {}

  async show(problems: readonly RuleProblem[]): Promise<void> {
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const p of problems) {
      const rel = problemFile(p);
      if (!rel) continue;
      const uri = vscode.Uri.file(path.join(this.root, rel));
      const at = problemLocation(await documentText(uri), p);
      const range = new vscode.Range(at.line, at.column, at.line, at.column + Math.max(1, at.length));
      const d = new vscode.Diagnostic(
        range,
        p.hint ? `${p.message}\n${p.hint}` : p.message,
        vscode.DiagnosticSeverity.Error,
      );
      d.source = SOURCE;
      d.code = p.field ? `${p.code} (${p.field})` : p.code;
      byFile.set(uri.toString(), [...(byFile.get(uri.toString()) ?? []), d]);
    }
    this.collection.clear();
    for (const [key, ds] of byFile) this.collection.set(vscode.Uri.parse(key), ds);
  }

  dispose(): void {
    this.collection.dispose();
  }
}
