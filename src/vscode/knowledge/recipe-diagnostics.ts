import path from 'node:path';
import * as vscode from 'vscode';
import { validateCandidateTool } from '../../core/catalog/knowledge';
import { editDistance } from '../../core/ground/kernel/names';
import { documentText } from '../document-text';
import type { ExtensionHost } from '../host';
import { CANDIDATE_SCHEME } from './candidate-editor';

/** A problem the index reports for a recipe file (rebuild_index's `problems` and `warnings`). */
export interface RecipeProblem {
  file: string;
  field?: string;
  message: string;
}

/** The fields of the recipe format that take one of a fixed set of values. */
const CHOICES: Record<string, readonly string[]> = {
  knowledgeType: [
    'code-standard',
    'code-style',
    'best-practice',
    'boundary-constraint',
    'anti-pattern',
    'agent-guideline',
    'code-pattern',
    'architecture',
    'solution',
    'call-chain',
    'data-flow',
    'event-flow',
    'module-dependency',
    'code-relation',
    'inheritance',
    'project-profile',
  ],
  status: ['draft', 'published', 'deprecated'],
  scope: ['universal', 'project', 'target'],
  complexity: ['basic', 'intermediate', 'advanced'],
};

const SOURCE = 'AutoSnippet Recipes';

/**
 * Problems of recipe files (and of candidates opened as Markdown) in the Problems panel, on the line
 * of the field at fault, like SKILL.md problems: a recipe that cannot be read no longer vanishes
 * silently. A field with a fixed set of values gets a quick fix to the closest valid one.
 */
export class RecipeDiagnostics implements vscode.Disposable, vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];
  readonly collection = vscode.languages.createDiagnosticCollection('autosnippet-recipes');
  private shown = new Set<string>();

  constructor(private readonly host: ExtensionHost) {}

  /** Replaces the recipe diagnostics with the index's current report (problems are errors, warnings warnings). */
  async show(root: string, problems: RecipeProblem[], warnings: RecipeProblem[]): Promise<void> {
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (
      const [list, severity] of [
        [problems, vscode.DiagnosticSeverity.Error],
        [warnings, vscode.DiagnosticSeverity.Warning],
      ] as const
    ) {
      for (const p of list) {
        const uri = vscode.Uri.file(path.join(root, p.file));
        const text = await documentText(uri);
        const d = new vscode.Diagnostic(fieldRange(text, p.field), plainMessage(p.message), severity);
        d.source = SOURCE;
        if (p.field) d.code = p.field;
        byFile.set(uri.toString(), [...(byFile.get(uri.toString()) ?? []), d]);
      }
    }
    // Only this folder's files: another folder's problems stay.
    const inRoot = (key: string) => vscode.Uri.parse(key).fsPath.startsWith(root + path.sep);
    for (const key of [...this.shown].filter(inRoot)) {
      if (byFile.has(key)) continue;
      this.collection.delete(vscode.Uri.parse(key));
      this.shown.delete(key);
    }
    for (const [key, ds] of byFile) {
      this.collection.set(vscode.Uri.parse(key), ds);
      this.shown.add(key);
    }
  }

  /** A candidate opened as Markdown: what validate_candidate says, on the fields' lines. */
  async showCandidate(doc: vscode.TextDocument): Promise<void> {
    if (doc.uri.scheme !== CANDIDATE_SCHEME) return;
    const id = doc.uri.path.replace(/^\//, '').replace(/\.md$/, '');
    const ws = await this.host.getWorkspace();
    const r = await this.host.catalog.call(ws, validateCandidateTool, { id }, { actor: 'human', channel: 'vscode' });
    if (!r.ok) return;
    const issues = r.data.issues;
    const text = doc.getText();
    this.collection.set(
      doc.uri,
      issues.map((i) => {
        const field = i.field === 'reasoning.whyStandard' ? 'whyStandard' : i.field.split('.').pop();
        const d = new vscode.Diagnostic(
          fieldRange(text, field),
          i.message,
          i.severity === 'invalid' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Information,
        );
        d.source = SOURCE;
        return d;
      }),
    );
  }

  provideCodeActions(
    doc: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    for (const d of context.diagnostics) {
      const field = d.source === SOURCE && typeof d.code === 'string' ? d.code : undefined;
      const choices = field ? CHOICES[field] : undefined;
      if (!field || !choices) continue;
      const line = doc.lineAt(d.range.start.line).text;
      const m = new RegExp(`^(\\s*${field}\\s*:\\s*)(["']?)([^"'#]*?)\\2\\s*(#.*)?$`).exec(line);
      if (!m) continue;
      const value = m[3].trim();
      for (const choice of closest(value, choices).slice(0, 3)) {
        const action = new vscode.CodeAction(
          vscode.l10n.t('Change {0} to "{1}"', field, choice),
          vscode.CodeActionKind.QuickFix,
        );
        action.diagnostics = [d];
        action.isPreferred = actions.length === 0;
        action.edit = new vscode.WorkspaceEdit();
        const start = m[1].length;
        action.edit.replace(
          doc.uri,
          new vscode.Range(d.range.start.line, start, d.range.start.line, start + m[2].length * 2 + m[3].length),
          choice,
        );
        actions.push(action);
      }
    }
    return actions;
  }

  dispose(): void {
    this.collection.dispose();
  }
}

/** The closest valid values, nearest first (prefixes and small typos first). */
function closest(value: string, choices: readonly string[]): string[] {
  const v = value.toLowerCase();
  return [...choices].sort((a, b) => score(v, a) - score(v, b) || a.localeCompare(b));
}

function score(value: string, choice: string): number {
  if (!value) return 0;
  const contains = choice.includes(value) || value.includes(choice) ? -10 : 0;
  return editDistance(value, choice) + contains;
}

/** The line of `field:` in the frontmatter (the first line when the field is not written there). */
function fieldRange(text: string, field: string | undefined): vscode.Range {
  const lines = text.split(/\r?\n/);
  if (field && lines[0]?.trim() === '---') {
    for (let i = 1; i < lines.length && lines[i].trim() !== '---'; i++) {
      if (new RegExp(`^\\s*${field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*:`).test(lines[i])) {
        return new vscode.Range(i, 0, i, lines[i].length);
      }
    }
  }
  return new vscode.Range(0, 0, 0, lines[0]?.length ?? 0);
}

/** Problems are written in Markdown (`field`); the Problems panel shows plain text. */
function plainMessage(message: string): string {
  return message.replace(/`([^`]*)`/g, '$1');
}
