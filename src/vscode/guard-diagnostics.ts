import * as vscode from 'vscode';
import type { GuardEngine } from '../core/catalog/adapters';
import { type Severity, severityRank, type Violation } from '../core/catalog/adapters';
import { relPath } from '../core/catalog/adapters';
import { languageForPath, normalizeLanguage } from '../core/ground/kernel/languages';
import type { Workspace } from '../core/ground/workspace';
import { ruleDocUri } from './guard-explain';

export const GUARD_SOURCE = 'AutoSnippet Guard';
/** VS Code keeps at most this many diagnostics per file (ExtHostDiagnostics); we never send more. */
export const MAX_DIAGNOSTICS_PER_FILE = 1000;
const DEBOUNCE_MS = 300;

const SEVERITY: Record<Severity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};

export type CheckOn = 'type' | 'save';

/** A violation as shown: the engine's, or a tool's (which leaves out the character offsets). */
export type ShownViolation = Omit<Violation, 'startOffset' | 'endOffset'>;

/**
 * Turns the engine's violations into diagnostics: on open and save, and (debounced, incrementally)
 * while typing. Keeps the violations behind each diagnostic so quick fixes can find their fix.
 */
export class GuardDiagnostics implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('autosnippet-guard');
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** The latest check started per document: an older check that finishes later is dropped. */
  private readonly tickets = new Map<string, number>();
  private readonly violations = new Map<string, Map<string, ShownViolation>>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  checkOn: CheckOn = 'type';
  /** Show findings recorded in the project's baseline or marked reviewed (as hints); hidden by default, like the CLI does. */
  showBaselined = false;

  constructor(
    private readonly ws: Workspace,
    private readonly engine: GuardEngine,
    private readonly log: (m: string) => void,
  ) {
    this.subscriptions.push(
      this.collection,
      this.changed,
      vscode.workspace.onDidOpenTextDocument((d) => void this.checkDocument(d)),
      vscode.workspace.onDidSaveTextDocument((d) => void this.checkDocument(d)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (this.checkOn === 'type' && e.contentChanges.length) this.schedule(e.document);
      }),
      vscode.workspace.onDidCloseTextDocument((d) => {
        this.tickets.delete(d.uri.toString());
        this.engine.forgetDocument(d.uri.toString());
      }),
    );
  }

  checkOpenDocuments(): void {
    for (const d of vscode.workspace.textDocuments) void this.checkDocument(d);
  }

  private schedule(doc: vscode.TextDocument): void {
    const key = doc.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        void this.checkDocument(doc, true);
      }, DEBOUNCE_MS),
    );
  }

  /** The guard language of a document, or undefined when guard has nothing to say about it. */
  private languageOf(doc: vscode.TextDocument): string | undefined {
    return normalizeLanguage(doc.languageId) ?? languageForPath(doc.uri.fsPath);
  }

  async checkDocument(doc: vscode.TextDocument, incremental = false): Promise<void> {
    if (doc.uri.scheme !== 'file' && doc.uri.scheme !== 'untitled') return;
    const language = this.languageOf(doc);
    const rel = doc.uri.scheme === 'file' ? relPath(this.ws.root, doc.uri.fsPath) : undefined;
    if (!language || !this.ws.settings.guard.enabled || (doc.uri.scheme === 'file' && rel === undefined)) {
      this.set(doc.uri, []);
      return;
    }
    const version = doc.version;
    // Checks of one document can finish out of order (one waits for the rules to reload, a later one
    // does not): only the latest check started may set its diagnostics.
    const key = doc.uri.toString();
    const ticket = (this.tickets.get(key) ?? 0) + 1;
    this.tickets.set(key, ticket);
    try {
      const res = await this.engine.check(doc.getText(), language, { path: rel, documentKey: key, incremental });
      if (this.tickets.get(key) !== ticket || doc.version !== version || doc.isClosed) return; // a newer check is on its way
      for (const s of res.stopped) this.log(`guard: ${s.ruleId} on ${rel ?? doc.uri.toString()}: ${s.detail}`);
      this.set(doc.uri, res.violations);
    } catch (e) {
      this.log(`guard: checking ${rel ?? doc.uri.toString()} failed: ${(e as Error).message}`);
    }
  }

  /** Replaces the diagnostics of one file, most severe first, capped at what VS Code shows. */
  set(uri: vscode.Uri, all: readonly ShownViolation[]): void {
    const violations = this.showBaselined
      ? all.map((
        v,
      ) => (v.baselineState === 'unchanged'
        ? {
          ...v,
          severity: 'hint' as const,
          message: `${v.message} ${
            v.reviewed !== undefined ? vscode.l10n.t('(reviewed: {0})', v.reviewed) : vscode.l10n.t('(in the baseline)')
          }`,
        }
        : v)
      )
      : all.filter((v) => v.baselineState !== 'unchanged');
    const sorted = [...violations].sort((a, b) =>
      severityRank[a.severity] - severityRank[b.severity] || a.start.line - b.start.line
      || a.start.column - b.start.column
    ).slice(0, MAX_DIAGNOSTICS_PER_FILE);
    const byKey = new Map<string, ShownViolation>();
    const diagnostics = sorted.map((v) => {
      const d = toDiagnostic(v);
      byKey.set(diagnosticKey(v.ruleId, d.range), v);
      return d;
    });
    this.violations.set(uri.toString(), byKey);
    this.collection.set(uri, diagnostics);
    this.changed.fire();
  }

  /** The violation behind a diagnostic (quick fixes get copies of diagnostics, so look up by rule and range). */
  violationFor(uri: vscode.Uri, d: vscode.Diagnostic): ShownViolation | undefined {
    const id = typeof d.code === 'object' ? String(d.code.value) : String(d.code);
    return this.violations.get(uri.toString())?.get(diagnosticKey(id, d.range));
  }

  clear(): void {
    this.collection.clear();
    this.violations.clear();
    this.changed.fire();
  }

  counts(): Record<Severity, number> {
    const c: Record<Severity, number> = { error: 0, warning: 0, info: 0, hint: 0 };
    this.collection.forEach((_uri, ds) => {
      for (const d of ds) {
        if (d.severity === vscode.DiagnosticSeverity.Error) c.error++;
        else if (d.severity === vscode.DiagnosticSeverity.Warning) c.warning++;
        else if (d.severity === vscode.DiagnosticSeverity.Information) c.info++;
        else c.hint++;
      }
    });
    return c;
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    for (const s of this.subscriptions.splice(0)) s.dispose();
  }
}

export function toDiagnostic(v: ShownViolation): vscode.Diagnostic {
  const range = new vscode.Range(v.start.line - 1, v.start.column - 1, v.end.line - 1, v.end.column - 1);
  const d = new vscode.Diagnostic(range, `${v.message} ${v.suggestion}`, SEVERITY[v.severity]);
  d.source = GUARD_SOURCE;
  d.code = { value: v.ruleId, target: ruleDocUri(v.ruleId) };
  return d;
}

function diagnosticKey(ruleId: string, r: vscode.Range): string {
  return `${ruleId}@${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`;
}
