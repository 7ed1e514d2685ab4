// "Remember as Project Rule…" and the chat's /remember: a person's words (and the selection) become a
// published recipe after one confirmation that names the file it writes.
import path from 'node:path';
import * as vscode from 'vscode';
import type { ToolCatalog } from '../../core/catalog';
import { rememberTool } from '../../core/catalog/adapters';
import type { Workspace } from '../../core/ground/workspace';
import type { ExtensionHost } from '../host';

export const REMEMBER_COMMAND = 'autosnippet.remember';

/** Arguments that replace the prompts: the chat's Publish button passes `confirmed`, being the confirmation itself. */
export interface RememberArgs {
  text?: string;
  code?: string;
  path?: string;
  language?: string;
  confirmed?: boolean;
  /** For the person, in ~/.autosnippet/recipes (every workspace sees it, none gets it in its files). */
  personal?: boolean;
}

export function registerRemember(host: ExtensionHost): vscode.Disposable {
  return vscode.commands.registerCommand(REMEMBER_COMMAND, (args?: unknown) => remember(host, rememberArgs(args)));
}

function rememberArgs(args: unknown): RememberArgs {
  if (!args || typeof args !== 'object' || Array.isArray(args) || args instanceof vscode.Uri) return {};
  const a = args as Record<string, unknown>;
  const str = (k: string) => (typeof a[k] === 'string' ? { [k]: a[k] as string } : {});
  return {
    ...str('text'),
    ...str('code'),
    ...str('path'),
    ...str('language'),
    ...(a.confirmed === true ? { confirmed: true } : {}),
    ...(a.personal === true ? { personal: true } : {}),
  };
}

/** The selection of the active editor, with where it comes from, when there is one. */
function selection(root: string): Pick<RememberArgs, 'code' | 'path' | 'language'> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.selection.isEmpty) return {};
  const rel = path.relative(root, editor.document.uri.fsPath).split(path.sep).join('/');
  const inside = editor.document.uri.scheme === 'file' && !rel.startsWith('..') && !path.isAbsolute(rel);
  return {
    code: editor.document.getText(editor.selection),
    language: editor.document.languageId,
    ...(inside ? { path: rel } : {}),
  };
}

/**
 * `/remember <rule>` in chat: no model is needed. Shows the file it would write and a Publish button,
 * which is the one confirmation (the button runs the command as the person).
 */
export async function rememberInChat(
  host: { catalog: ToolCatalog; getWorkspace(): Promise<Workspace> },
  text: string,
  stream: vscode.ChatResponseStream,
): Promise<vscode.ChatResult> {
  if (text.trim().length < 3) {
    stream.markdown(vscode.l10n.t('Say the rule after /remember, e.g. `/remember we wrap fetch in apiClient`.'));
    return {};
  }
  const ws = await host.getWorkspace();
  const preview = await host.catalog.call(
    ws,
    rememberTool,
    { text: text.trim(), dryRun: true },
    { actor: 'human', channel: 'chat' },
  );
  if (!preview.ok) {
    stream.markdown(preview.error.message);
    return { errorDetails: { message: preview.error.message } };
  }
  stream.markdown(
    vscode.l10n.t(
      'Publish **{0}** as a project rule? It writes `{1}`{2}.',
      preview.data.title,
      preview.data.recipe!.file,
      preview.data.exported.length
        ? vscode.l10n.t(' and updates {0}', preview.data.exported.map((f) => `\`${f}\``).join(', '))
        : '',
    ),
  );
  stream.button({
    command: REMEMBER_COMMAND,
    title: vscode.l10n.t('Publish'),
    arguments: [{ text: text.trim(), confirmed: true } satisfies RememberArgs],
  });
  stream.button({
    command: REMEMBER_COMMAND,
    title: vscode.l10n.t('Remember for Me'),
    arguments: [{ text: text.trim(), confirmed: true, personal: true } satisfies RememberArgs],
  });
  return {};
}

/** Answers the recipe file written, or undefined when the person stopped or it failed (said in a message). */
export async function remember(host: ExtensionHost, args: RememberArgs = {}): Promise<string | undefined> {
  const ws = await host.getWorkspace();
  const text = args.text ?? await vscode.window.showInputBox({
    title: vscode.l10n.t('Remember as Project Rule'),
    prompt: vscode.l10n.t('The rule in your words, e.g. "We wrap fetch in apiClient"'),
    validateInput: (v) => (v.trim().length >= 3 ? undefined : vscode.l10n.t('Say the rule in a few words.')),
    ignoreFocusOut: true,
  });
  if (!text?.trim()) return undefined;
  const code = args.code !== undefined
    ? {
      code: args.code,
      ...(args.path ? { path: args.path } : {}),
      ...(args.language ? { language: args.language } : {}),
    }
    : selection(ws.root);
  const input = { text: text.trim(), ...code, ...(args.personal ? { personal: true } : {}) };
  const human = { actor: 'human' as const, channel: 'vscode' as const };
  if (!args.confirmed) {
    const preview = await host.catalog.call(ws, rememberTool, { ...input, dryRun: true }, human);
    if (!preview.ok) return void vscode.window.showErrorMessage(preview.error.message);
    const writes = [preview.data.recipe!.file, ...preview.data.exported].join(', ');
    const publish = vscode.l10n.t('Publish');
    const forMe = vscode.l10n.t('Remember for Me');
    const answer = await vscode.window.showInformationMessage(
      vscode.l10n.t('Publish "{0}" as a project rule?', preview.data.title),
      {
        modal: true,
        detail: vscode.l10n.t('Writes {0}. Agents read it from there; delete the recipe to take it back.', writes)
          + '\n\n'
          + vscode.l10n.t(
            'Remember for Me keeps it in your own ~/.autosnippet/recipes instead: every workspace you open sees it, none gets it in its files.',
          ),
      },
      publish,
      forMe,
    );
    if (answer === forMe) Object.assign(input, { personal: true });
    else if (answer !== publish) return undefined;
  }
  const done = await host.catalog.call(ws, rememberTool, input, human);
  if (!done.ok) return void vscode.window.showErrorMessage(done.error.message);
  const file = done.data.recipe!.file;
  vscode.window.setStatusBarMessage(vscode.l10n.t('Remembered: {0}', [file, ...done.data.exported].join(', ')), 8000);
  return file;
}
