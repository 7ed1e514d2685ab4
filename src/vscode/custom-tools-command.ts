import path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionHost } from './host';

interface Listed {
  name: string;
  state: string;
  file: string;
  summary: string;
}

/**
 * "AutoSnippet: Approve Custom Tools…": a person reads a tool file of .autosnippet/tools/ (opened in
 * the editor) and approves its SHA-256 in a modal; the hash is kept in ~/.autosnippet, and a changed
 * file waits for approval again. Agents cannot approve: approve_custom_tool is for people only.
 */
export function registerCustomToolsCommand(host: ExtensionHost): vscode.Disposable {
  return vscode.commands.registerCommand('autosnippet.approveCustomTools', async () => {
    const person = { actor: 'human', channel: 'vscode' } as const;
    let ws;
    try {
      ws = await host.getWorkspace();
    } catch (e) {
      void vscode.window.showErrorMessage((e as Error).message);
      return;
    }
    const listed = await host.catalog.invoke(ws, 'list_tools', { domain: 'custom' }, person);
    const tools = listed.ok ? (listed.data as { domains: { tools: Listed[] }[] }).domains[0].tools : [];
    if (tools.some((t) => t.state === 'untrusted')) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('Custom tools run only in a trusted workspace. Trust the workspace first, then approve them.'),
      );
      return;
    }
    const waiting = tools.filter((t) => t.state === 'needs-approval' || t.state === 'changed');
    if (!waiting.length) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('No custom tool in .autosnippet/tools waits for approval.'),
      );
      return;
    }
    const picked = waiting.length === 1 ? waiting[0] : (await vscode.window.showQuickPick(
      waiting.map((t) => ({
        label: t.name,
        description: t.file,
        detail: t.state === 'changed'
          ? vscode.l10n.t('Changed since it was approved')
          : vscode.l10n.t('Not approved yet'),
        tool: t,
      })),
      { title: vscode.l10n.t('Approve a custom tool') },
    ))?.tool;
    if (!picked) return;
    const shown = await host.catalog.invoke(ws, 'approve_custom_tool', { file: picked.file, dryRun: true }, person);
    if (!shown.ok) {
      void vscode.window.showErrorMessage(shown.error.message);
      return;
    }
    const { sha256, file } = shown.data as { sha256: string; file: string };
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(ws.root, file)), { preview: true });
    const yes = await host.dialogs.confirm(
      vscode.l10n.t('Let the custom tool {0} run?', picked.name),
      vscode.l10n.t(
        '{0}\nSHA-256: {1}\n\nRead the file (open in the editor) first. It runs with your rights whenever an agent calls {2}, on a worker thread with time and memory limits. If the file changes, it waits for your approval again.',
        file,
        sha256,
        picked.name,
      ),
      vscode.l10n.t('Approve'),
    );
    if (!yes) return;
    const done = await host.catalog.invoke(ws, 'approve_custom_tool', { file, sha256 }, person);
    if (!done.ok) {
      void vscode.window.showErrorMessage(done.error.message);
      return;
    }
    const d = done.data as { state: string; problem?: string };
    if (d.state === 'ready') {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('The custom tool {0} is approved and ready.', picked.name),
      );
    } else {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('{0} is approved but does not load: {1}', file, d.problem ?? d.state),
      );
    }
  });
}
