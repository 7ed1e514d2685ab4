// Guard in VS Code: diagnostics as you type, quick fixes, the workspace scan, the status bar.
// The engine is the same one the CLI and the MCP server run; this file only wires it to the editor.
import path from 'node:path';
import * as vscode from 'vscode';
import type { ToolCatalog } from '../core/catalog';
import { type GuardEngine, guardEngine, guardLocale, MAX_REVIEW_REASON } from '../core/catalog/adapters';
import { markGuardFindingReviewed, scanProject } from '../core/catalog/guard';
import { AutoSnippetError, ErrorCode } from '../core/ground/kernel/errors';
import type { Workspace } from '../core/ground/workspace';
import { EXPLAIN_RULE_COMMAND, GuardCodeActions, MARK_REVIEWED_COMMAND, OPEN_RULE_COMMAND } from './guard-actions';
import { GuardDiagnostics, type ShownViolation } from './guard-diagnostics';
import { renderRuleDocsAsPreview, RULE_DOC_SCHEME, RuleDocumentProvider, showRule } from './guard-explain';
import { pickGuardRule, workspaceLanguages } from './guard-pick';
import { GuardRuleProblems } from './guard-rule-problems';
import { GuardStatus } from './guard-status';
import { setGuardSummary } from './guard-summary';
import { type ExtensionHost, readSettings, setting } from './host';

export const SCAN_WORKSPACE_COMMAND = 'autosnippet.guard.scanWorkspace';

/** Guard of one workspace folder: its engine, its diagnostics, its rule files, its commands' work. */
interface FolderGuard extends vscode.Disposable {
  readonly ws: Workspace;
  readonly engine: GuardEngine;
  readonly actions: GuardCodeActions;
  refreshStatus(): void;
  scanWorkspace(): Thenable<void>;
  explainRule(ruleId?: string): Promise<void>;
  openRule(ruleId?: string): Promise<void>;
  markReviewed(uri: vscode.Uri, line: number, ruleId: string, reason?: string): Promise<void>;
}

/**
 * Guard in every workspace folder: each folder's files are checked against that folder's rules (a
 * folder is served once its Workspace opens, and dropped when it is removed); the commands act on the
 * folder of the active editor. Registered synchronously at activation.
 */
export function registerGuard(host: ExtensionHost): vscode.Disposable {
  const output = vscode.window.createOutputChannel('AutoSnippet Guard', { log: true });
  const status = new GuardStatus();
  const guards = new Map<string, FolderGuard>();
  const start = (ws: Workspace) => {
    if (!guards.has(ws.root)) {
      guards.set(ws.root, guardFolder(host.catalog, ws, output, status, () => host.workspace === ws));
    }
  };
  const current = async (): Promise<FolderGuard> => {
    const ws = await host.getWorkspace();
    start(ws);
    return guards.get(ws.root)!;
  };
  const forDocument = (uri: vscode.Uri) =>
    [...guards.values()].find((g) => uri.fsPath === g.ws.root || uri.fsPath.startsWith(g.ws.root + path.sep));
  const foldersChanged = () => {
    const roots = new Set(host.folders.map((f) => f.uri.fsPath));
    for (const [root, g] of guards) {
      if (!roots.has(root)) {
        g.dispose();
        guards.delete(root);
      }
    }
    host.workspace && guards.get(host.workspace.root)?.refreshStatus();
  };
  const fail = (e: unknown) => void vscode.window.showErrorMessage((e as Error).message);
  if (host.workspace) start(host.workspace);
  return vscode.Disposable.from(
    output,
    status,
    host.onDidOpenWorkspace(start),
    host.onDidChangeFolder(foldersChanged),
    vscode.workspace.registerTextDocumentContentProvider(
      RULE_DOC_SCHEME,
      new RuleDocumentProvider({ rule: async (id) => (await current()).engine.rule(id) }),
    ),
    renderRuleDocsAsPreview(),
    vscode.languages.registerCodeActionsProvider(
      { scheme: 'file' },
      {
        provideCodeActions: (doc, range, context) =>
          forDocument(doc.uri)?.actions.provideCodeActions(doc, range, context),
      },
      { providedCodeActionKinds: GuardCodeActions.kinds },
    ),
    vscode.commands.registerCommand(SCAN_WORKSPACE_COMMAND, () => current().then((g) => g.scanWorkspace(), fail)),
    vscode.commands.registerCommand(
      EXPLAIN_RULE_COMMAND,
      (ruleId?: string) => current().then((g) => g.explainRule(ruleId), fail),
    ),
    vscode.commands.registerCommand(
      OPEN_RULE_COMMAND,
      (ruleId?: string) => current().then((g) => g.openRule(ruleId), fail),
    ),
    // `reason` is for callers that already have one (a keybinding, a test); the quick fix asks for it.
    vscode.commands.registerCommand(
      MARK_REVIEWED_COMMAND,
      (uri: vscode.Uri, line: number, ruleId: string, reason?: string) => {
        const g = uri && forDocument(uri);
        if (!g) {
          return void vscode.window.showErrorMessage(
            vscode.l10n.t(
              'Guard findings can be marked reviewed from the Problems panel or the light bulb of a file in the workspace.',
            ),
          );
        }
        return g.markReviewed(uri, line, ruleId, reason).catch(fail);
      },
    ),
    new vscode.Disposable(() => guards.forEach((g) => g.dispose())),
  );
}

function guardFolder(
  catalog: ToolCatalog,
  ws: Workspace,
  output: vscode.LogOutputChannel,
  status: GuardStatus,
  isCurrent: () => boolean,
): FolderGuard {
  const engine = guardEngine(ws);
  // Built-in rules' messages and explanations follow VS Code's display language (Simplified Chinese has a table).
  engine.locale = guardLocale(vscode.env.language);
  const diagnostics = new GuardDiagnostics(ws, engine, (m) => output.info(m));
  let scanning = false;
  let scannedFiles: number | undefined;
  const refreshStatus = () => {
    if (!isCurrent()) return;
    const counts = diagnostics.counts();
    status.update(counts, { enabled: ws.settings.guard.enabled, trusted: ws.settings.trusted, scanning });
    setGuardSummary({
      error: counts.error,
      warning: counts.warning,
      ...(scannedFiles !== undefined ? { scannedFiles } : {}),
    });
  };

  const applySettings = () => {
    const scope = vscode.Uri.file(ws.root);
    ws.updateSettings(readSettings({ uri: scope }));
    diagnostics.checkOn = setting('guard.checkOn', scope);
    diagnostics.showBaselined = setting('guard.showBaselined', scope);
    if (!ws.settings.guard.enabled) diagnostics.clear();
    else diagnostics.checkOpenDocuments();
    refreshStatus();
  };

  const rulesWatcher = vscode.workspace.createFileSystemWatcher(
    new vscode.RelativePattern(ws.root, '.autosnippet/guard/*.json'),
  );
  // A published recipe's guard constraints are rules too: follow edits of recipe files. Folders too:
  // a recursive watcher can miss a file written right after its new folder, never the folder itself.
  const recipesWatcher = vscode.workspace.createFileSystemWatcher(
    new vscode.RelativePattern(ws.root, '.autosnippet/recipes/**'),
  );
  let recipesTimer: NodeJS.Timeout | undefined;
  // A rule refused at load (a field, its own examples, a pattern that cannot match) shows on the file that defines it.
  const ruleProblems = new GuardRuleProblems(ws.root);
  const showRuleProblems = () =>
    engine.problems().then(
      (ps) => ruleProblems.show(ps),
      (e) => output.warn(`guard: rule problems could not be shown: ${(e as Error).message}`),
    );
  const recipesChanged = () => {
    clearTimeout(recipesTimer);
    recipesTimer = setTimeout(() => {
      void engine.refreshSources(true).then(() => {
        diagnostics.checkOpenDocuments();
        return showRuleProblems();
      }, (e) => output.warn(`guard: recipe rules could not be refreshed: ${(e as Error).message}`));
    }, 300);
  };
  const rulesChanged = () => {
    engine.invalidate();
    void engine.problems().then((ps) => {
      for (const p of ps) output.warn(`guard: ${p.message}${p.hint ? ` — ${p.hint}` : ''}`);
      if (ps.length) {
        void vscode.window.showWarningMessage(
          vscode.l10n.t(
            'AutoSnippet Guard: {0} rule(s) could not be loaded. See the Problems panel on the rule file.',
            ps.length,
          ),
        );
      }
      return ruleProblems.show(ps);
    });
    diagnostics.checkOpenDocuments();
  };

  const scanWorkspace = () =>
    vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('AutoSnippet Guard: scanning the workspace'),
        cancellable: true,
      },
      async (progress, token) => {
        const ac = new AbortController();
        const sub = token.onCancellationRequested(() => ac.abort());
        scanning = true;
        refreshStatus();
        let last = 0;
        try {
          // scan_project records the scan for the compliance trend, so it passes the Gateway as the person.
          const context = {
            actor: 'human' as const,
            channel: 'vscode' as const,
            signal: ac.signal,
            progress: (p: { done?: number; total?: number; message?: string }) => {
              const pct = p.total ? ((p.done ?? 0) / p.total) * 100 : 0;
              progress.report({ message: p.message, increment: pct - last });
              last = pct;
            },
          };
          const first = await catalog.call(ws, scanProject, {}, context);
          if (!first.ok) throw new AutoSnippetError(first.error.code, first.error.message, first.error.hint);
          const scan = first.data;
          const violations = [...scan.violations];
          for (let cursor = first.truncated?.nextCursor; cursor !== undefined;) {
            const page = await catalog.call(ws, scanProject, { cursor }, context);
            if (!page.ok) throw new AutoSnippetError(page.error.code, page.error.message, page.error.hint);
            violations.push(...page.data.violations);
            cursor = page.truncated?.nextCursor;
          }
          const report = scan.compliance;
          const byFile = new Map<string, ShownViolation[]>();
          for (const v of violations) {
            let list = byFile.get(v.path!);
            if (!list) byFile.set(v.path!, list = []);
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
          scannedFiles = scan.files;
          void vscode.window.showInformationMessage(
            vscode.l10n.t(
              'Guard scanned {0} files: {1} errors, {2} warnings. Compliance {3}% ({4}).',
              scan.files,
              c.error,
              c.warning,
              report.score,
              report.trend,
            ),
          );
          if (violations.length) void vscode.commands.executeCommand('workbench.actions.view.problems');
        } catch (e) {
          if (e instanceof AutoSnippetError && e.code === ErrorCode.Cancelled) {
            void vscode.window.showInformationMessage(vscode.l10n.t('Guard scan cancelled.'));
          } else void vscode.window.showErrorMessage(vscode.l10n.t('Guard scan failed: {0}', (e as Error).message));
        } finally {
          sub.dispose();
          scanning = false;
          refreshStatus();
        }
      },
    );

  const openRule = async (ruleId?: string) => {
    const id = ruleId ?? (await pickRule(vscode.l10n.t('Guard rule to open')));
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

  /** Asks why the code is intended and records the finding as reviewed (as the person, audited by the Gateway). */
  const markReviewed = async (uri: vscode.Uri, line: number, ruleId: string, given?: string) => {
    const reason = given?.trim() ? given : await vscode.window.showInputBox({
      title: vscode.l10n.t('Mark the {0} finding on line {1} reviewed', ruleId, line),
      prompt: vscode.l10n.t(
        'Why is the code right as it is? Kept with the finding in .autosnippet/guard/baseline.json (commit it) and shown in reports.',
      ),
      placeHolder: vscode.l10n.t('e.g. parsing is the validity check here; null is the answer for a bad link'),
      ignoreFocusOut: true,
      validateInput: (
        text,
      ) => (!text.trim()
        ? vscode.l10n.t('Give a reason.')
        : text.trim().length > MAX_REVIEW_REASON
        ? vscode.l10n.t('Keep the reason to {0} characters.', MAX_REVIEW_REASON)
        : undefined),
    });
    if (reason === undefined) return;
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    const marked = await catalog.call(
      ws,
      markGuardFindingReviewed,
      { path: uri.fsPath, line, ruleId, reason, ...(doc?.isDirty ? { code: doc.getText() } : {}) },
      { actor: 'human', channel: 'vscode' },
    );
    if (!marked.ok) {
      void vscode.window.showErrorMessage(
        marked.error.hint ? `${marked.error.message} ${marked.error.hint}` : marked.error.message,
      );
      return;
    }
    if (doc) await diagnostics.checkDocument(doc);
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'Marked {0} at {1}:{2} reviewed in {3}. Commit the file so the team and CI see it.',
        marked.data.ruleId,
        marked.data.path,
        marked.data.line,
        marked.data.file,
      ),
    );
  };

  const pickRule = async (placeHolder: string) =>
    pickGuardRule(await engine.rules(), await workspaceLanguages(ws.root), placeHolder);

  const disposables: vscode.Disposable[] = [
    diagnostics,
    ruleProblems,
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
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('autosnippet.guard', vscode.Uri.file(ws.root))) applySettings();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(applySettings),
  ];
  applySettings();
  // Rules from recipes need the recipe index: catch up once, then check what is open.
  void engine.refreshSources().then(() => {
    diagnostics.checkOpenDocuments();
    return showRuleProblems();
  }, () => undefined);
  const all = vscode.Disposable.from(...disposables);
  return {
    ws,
    engine,
    actions: new GuardCodeActions(diagnostics),
    refreshStatus,
    scanWorkspace,
    explainRule: async (ruleId?: string) => {
      const id = ruleId ?? (await pickRule(vscode.l10n.t('Guard rule to explain')));
      if (id) await showRule(id);
    },
    openRule,
    markReviewed,
    dispose: () => all.dispose(),
  };
}
