import path from 'node:path';
import * as vscode from 'vscode';
import type { SkillRegistry } from '../core/catalog/adapters';
import type { SkillProblem } from '../core/catalog/adapters';
import { validateSkillFolder, validateSkillText } from '../core/catalog/adapters';

const SOURCE = 'AutoSnippet Skills';

/**
 * Validation problems of the workspace's SKILL.md files in the Problems panel: every file after a
 * change on disk, and an open file as it is edited. Bundled skills are not the user's to fix and are
 * left out.
 */
export class SkillDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('autosnippet-skills');
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly pending = new Map<string, NodeJS.Timeout>();

  constructor(private readonly registry: SkillRegistry) {
    this.subscriptions.push(
      vscode.workspace.onDidChangeTextDocument((e) => this.scheduleDocument(e.document)),
      vscode.workspace.onDidOpenTextDocument((d) => this.scheduleDocument(d)),
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (isSkillFile(d.uri) && d.isDirty) this.refreshAll();
      }),
    );
  }

  /** Validates every workspace skill file (the ones the registry skipped included) from disk. */
  refreshAll(): { files: number; errors: number; warnings: number } {
    this.collection.clear();
    const known = new Set(this.registry.list().map((s) => s.name));
    const dirs = new Set<string>();
    for (const s of this.registry.list()) if (s.source.id !== 'bundled') dirs.add(s.dir);
    for (const s of this.registry.shadowed()) if (s.skill.source.id !== 'bundled') dirs.add(s.skill.dir);
    for (const s of this.registry.skipped()) if (s.source.id !== 'bundled') dirs.add(s.dir);
    let errors = 0;
    let warnings = 0;
    for (const dir of dirs) {
      const result = validateSkillFolder(dir, { knownNames: known });
      const uri = vscode.Uri.file(result.file);
      const open = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === uri.fsPath && d.isDirty);
      const problems = open
        ? validateSkillText(open.getText(), path.basename(dir), { knownNames: known })
        : result.problems;
      errors += problems.filter((p) => p.severity === 'error').length;
      warnings += problems.filter((p) => p.severity === 'warning').length;
      this.collection.set(uri, problems.map(toDiagnostic));
    }
    return { files: dirs.size, errors, warnings };
  }

  private scheduleDocument(document: vscode.TextDocument): void {
    if (!isSkillFile(document.uri) || !this.isWorkspaceSkill(document.uri.fsPath)) return;
    const key = document.uri.toString();
    clearTimeout(this.pending.get(key));
    this.pending.set(
      key,
      setTimeout(() => {
        this.pending.delete(key);
        const known = new Set(this.registry.list().map((s) => s.name));
        const problems = validateSkillText(document.getText(), path.basename(path.dirname(document.uri.fsPath)), {
          knownNames: known,
        });
        this.collection.set(document.uri, problems.map(toDiagnostic));
      }, 300),
    );
  }

  private isWorkspaceSkill(file: string): boolean {
    return this.registry.sources.some((s) => s.id !== 'bundled' && path.dirname(path.dirname(file)) === s.dir);
  }

  dispose(): void {
    for (const t of this.pending.values()) clearTimeout(t);
    this.subscriptions.forEach((d) => d.dispose());
    this.collection.dispose();
  }
}

function isSkillFile(uri: vscode.Uri): boolean {
  return uri.scheme === 'file' && path.basename(uri.fsPath) === 'SKILL.md';
}

function toDiagnostic(p: SkillProblem): vscode.Diagnostic {
  const line = Math.max(0, (p.line ?? 1) - 1);
  const severity = p.severity === 'error'
    ? vscode.DiagnosticSeverity.Error
    : p.severity === 'warning'
    ? vscode.DiagnosticSeverity.Warning
    : vscode.DiagnosticSeverity.Information;
  const d = new vscode.Diagnostic(new vscode.Range(line, 0, line, Number.MAX_SAFE_INTEGER), p.message, severity);
  d.source = SOURCE;
  d.code = p.rule;
  return d;
}
