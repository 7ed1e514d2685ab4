// Guard in VS Code: diagnostics as you type, quick fixes, the workspace scan, the status bar.
// The engine is the same one the CLI and the MCP server run; this file only wires it to the editor.
import * as vscode from 'vscode';
import path from 'node:path';
import { guardEngine } from '../core/guard';
import { AutoSnippetError, ErrorCode } from '../core/errors';
import type { Violation } from '../core/guard/rule';
import type { FileKind } from '../core/files/classify';
import { scanAndRecord } from '../core/tools/guard';
import type { Workspace } from '../core/workspace';
import { EXPLAIN_RULE_COMMAND, GuardCodeActions, OPEN_RULE_COMMAND } from './guard-actions';
import { GuardDiagnostics, type CheckOn } from './guard-diagnostics';
import { RULE_DOC_SCHEME, RuleDocumentProvider, showRule } from './guard-explain';
import { GuardStatus } from './guard-status';

export const SCAN_WORKSPACE_COMMAND = 'autosnippet.guard.scanWorkspace';

export function registerGuard(_context: vscode.ExtensionContext, ws: Workspace): vscode.Disposable {
  const engine = guardEngine(ws);
  const output = vscode.window.createOutputChannel('AutoSnippet Guard', { log: true });
  const diagnostics = new GuardDiagnostics(ws, engine, (m) => output.info(m));
  const status = new GuardStatus();
  let scanning = false;
  const refreshStatus = () => status.update(diagnostics.counts(), { enabled: ws.settings.guard.enabled, trusted: ws.settings.trusted, scanning });

  const applySettings = () => {
    const cfg = vscode.workspace.getConfiguration('autosnippet.guard');
    ws.updateSettings({
      trusted: vscode.workspace.isTrusted,
      guard: {
        enabled: cfg.get<boolean>('enabled', true),
        exclude: cfg.get<string[]>('exclude', []),
        severityOverrides: cfg.get<Record<string, string>>('severityOverrides', {}),
        skipKinds: cfg.get<FileKind[]>('skipKinds', ['vendored', 'generated', 'minified']),
      },
    });
    diagnostics.checkOn = cfg.get<CheckOn>('checkOn', 'type');
    diagnostics.showBaselined = cfg.get<boolean>('showBaselined', false);
    if (!ws.settings.guard.enabled) diagnostics.clear();
    else diagnostics.checkOpenDocuments();
    refreshStatus();
  };

  const rulesWatcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(ws.root, '.autosnippet/guard/*.json'));
  // A published recipe's guard constraints are rules too: follow edits of recipe files.
  const recipesWatcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(ws.root, '.autosnippet/recipes/**/*.md'));
  let recipesTimer: NodeJS.Timeout | undefined;
  const recipesChanged = () => {
    clearTimeout(recipesTimer);
    recipesTimer = setTimeout(() => {
      void engine.refreshSources(true).then(() => diagnostics.checkOpenDocuments(), (e) => output.warn(`guard: recipe rules could not be refreshed: ${(e as Error).message}`));
    }, 300);
  };
  const rulesChanged = () => {
    engine.invalidate();
    void engine.problems().then((ps) => {
      for (const p of ps) output.warn(`guard: ${p.message}${p.hint ? ` — ${p.hint}` : ''}`);
      if (ps.length) void vscode.window.showWarningMessage(vscode.l10n.t('AutoSnippet Guard: {0} rule(s) could not be loaded. See the "AutoSnippet Guard" output.', ps.length));
    });
    diagnostics.checkOpenDocuments();
  };

  const scanWorkspace = () => vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('AutoSnippet Guard: scanning the workspace'), cancellable: true },
    async (progress, token) => {
      const ac = new AbortController();
      const sub = token.onCancellationRequested(() => ac.abort());
      scanning = true;
      refreshStatus();
      let last = 0;
      try {
        const { scan, report } = await scanAndRecord(ws, {
          signal: ac.signal,
          progress: (p) => {
            const pct = p.total ? ((p.done ?? 0) / p.total) * 100 : 0;
            progress.report({ message: p.message, increment: pct - last });
            last = pct;
          },
        });
        const byFile = new Map<string, Violation[]>();
        for (const v of scan.violations) {
          let list = byFile.get(v.path!);
          if (!list) byFile.set(v.path!, (list = []));
          list.push(v);
        }
        const open = new Set(vscode.workspace.textDocuments.filter((d) => d.isDirty).map((d) => d.uri.fsPath));
        diagnostics.collection.forEach((uri) => {
          const rel = path.relative(ws.root, uri.fsPath).split(path.sep).join('/');
          if (!byFile.has(rel) && !open.has(uri.fsPath)) diagnostics.set(uri, []);
        });
        for (const [rel, vs] of byFile) {
          const uri = vscode.Uri.file(path.join(ws.root, rel));
          if (!open.has(uri.fsPath)) diagnostics.set(uri, vs);
        }
        const c = scan.counts;
        void vscode.window.showInformationMessage(vscode.l10n.t('Guard scanned {0} files: {1} errors, {2} warnings. Compliance {3}% ({4}).', scan.files, c.error, c.warning, report.score, report.trend));
        if (scan.violations.length) void vscode.commands.executeCommand('workbench.actions.view.problems');
      } catch (e) {
        if (e instanceof AutoSnippetError && e.code === ErrorCode.Cancelled) void vscode.window.showInformationMessage(vscode.l10n.t('Guard scan cancelled.'));
        else void vscode.window.showErrorMessage(vscode.l10n.t('Guard scan failed: {0}', (e as Error).message));
      } finally {
        sub.dispose();
        scanning = false;
        refreshStatus();
      }
    },
  );

  const openRule = async (ruleId?: string) => {
    const id = ruleId ?? (await pickRule());
    if (!id) return;
    const st = await engine.rule(id).catch(() => undefined);
    const file = st?.rule.file ?? st?.rule.source;
    if (st && (st.rule.origin === 'project' || st.rule.origin === 'recipe') && file?.startsWith('.autosnippet/')) {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(ws.root, file)));
      const at = Math.max(0, doc.getText().indexOf(st.rule.origin === 'recipe' ? 'guards' : `"${id}"`));
      const pos = doc.positionAt(Math.max(0, at));
      await vscode.window.showTextDocument(doc, { selection: new vscode.Range(pos, pos) });
      return;
    }
    await showRule(id);
  };

  const pickRule = async () => {
    const items = (await engine.rules()).map((s) => ({ label: s.rule.id, description: `${s.severity} · ${s.rule.languages.join(', ')}`, detail: s.rule.message }));
    return (await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Guard rule to explain') }))?.label;
  };

  const disposables: vscode.Disposable[] = [
    output,
    diagnostics,
    status,
    rulesWatcher,
    rulesWatcher.onDidChange(rulesChanged),
    rulesWatcher.onDidCreate(rulesChanged),
    rulesWatcher.onDidDelete(rulesChanged),
    recipesWatcher,
    recipesWatcher.onDidChange(recipesChanged),
    recipesWatcher.onDidCreate(recipesChanged),
    recipesWatcher.onDidDelete(recipesChanged),
    { dispose: () => clearTimeout(recipesTimer) },
    diagnostics.onDidChange(refreshStatus),
    vscode.workspace.registerTextDocumentContentProvider(RULE_DOC_SCHEME, new RuleDocumentProvider(engine)),
    vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new GuardCodeActions(diagnostics), { providedCodeActionKinds: GuardCodeActions.kinds }),
    vscode.commands.registerCommand(SCAN_WORKSPACE_COMMAND, scanWorkspace),
    vscode.commands.registerCommand(EXPLAIN_RULE_COMMAND, async (ruleId?: string) => {
      const id = ruleId ?? (await pickRule());
      if (id) await showRule(id);
    }),
    vscode.commands.registerCommand(OPEN_RULE_COMMAND, openRule),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('autosnippet.guard')) applySettings();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(applySettings),
  ];
  applySettings();
  // Rules from recipes need the recipe index: catch up once, then check what is open.
  void engine.refreshSources().then(() => diagnostics.checkOpenDocuments(), () => undefined);
  return vscode.Disposable.from(...disposables);
}
