// Knowledge packs in VS Code: "Add Knowledge Pack…", "Update Knowledge Packs" (what would change is
// shown in a modal before anything is pinned) and "Remove Knowledge Pack…". Fetching runs with
// progress and can be cancelled; every change goes through the catalog's people-only pack tools.
import * as vscode from 'vscode';
import { addPackTool, listPacksTool, removePackTool, updatePacksTool } from '../../core/catalog/packs';
import type { ExtensionHost } from '../host';

export const PACK_COMMANDS = {
  add: 'autosnippet.packs.add',
  update: 'autosnippet.packs.update',
  remove: 'autosnippet.packs.remove',
} as const;

const person = { actor: 'human', channel: 'vscode' } as const;

/** Arguments that replace the prompts (a link, a test, a script): the source to add, the pack to remove. */
interface PackArgs {
  source?: string;
  name?: string;
  /** Apply the update without the modal (the modal's own button passes it). */
  confirmed?: boolean;
}

function packArgs(args: unknown): PackArgs {
  if (!args || typeof args !== 'object' || Array.isArray(args) || args instanceof vscode.Uri) return {};
  const a = args as Record<string, unknown>;
  return {
    ...(typeof a.source === 'string' ? { source: a.source } : {}),
    ...(typeof a.name === 'string' ? { name: a.name } : {}),
    ...(a.confirmed === true ? { confirmed: true } : {}),
  };
}

export function registerPackCommands(host: ExtensionHost, refresh: () => void): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand(PACK_COMMANDS.add, (a?: unknown) => addPack(host, packArgs(a), refresh)),
    vscode.commands.registerCommand(PACK_COMMANDS.update, (a?: unknown) => updatePacks(host, packArgs(a), refresh)),
    vscode.commands.registerCommand(PACK_COMMANDS.remove, (a?: unknown) => removePack(host, packArgs(a), refresh)),
  );
}

/** Runs a fetch with a cancellable notification; the catalog call gets the cancellation as its signal. */
function withFetchProgress<T>(title: string, run: (signal: AbortSignal) => Promise<T>): Thenable<T> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    (_progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      return run(abort.signal).finally(() => sub.dispose());
    },
  );
}

/** The source: a name or URL typed, or a tarball or repository folder chosen on disk. */
async function askSource(): Promise<string | undefined> {
  const typed = vscode.l10n.t('Enter an npm name or a git URL…');
  const tarball = vscode.l10n.t('Choose a tarball from npm pack (.tgz)…');
  const folder = vscode.l10n.t('Choose a local git repository…');
  const how = await vscode.window.showQuickPick([typed, tarball, folder], {
    title: vscode.l10n.t('Add Knowledge Pack'),
    placeHolder: vscode.l10n.t('Where does the pack come from?'),
  });
  if (how === typed) {
    return vscode.window.showInputBox({
      title: vscode.l10n.t('Add Knowledge Pack'),
      prompt: vscode.l10n.t(
        'An npm name with an optional version (@team/rules@^1), or a git URL with an optional #branch',
      ),
      validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Name a pack.')),
      ignoreFocusOut: true,
    });
  }
  if (how === tarball || how === folder) {
    const picked = await vscode.window.showOpenDialog({
      canSelectFiles: how === tarball,
      canSelectFolders: how === folder,
      canSelectMany: false,
      ...(how === tarball ? { filters: { [vscode.l10n.t('npm pack tarball')]: ['tgz'] } } : {}),
      openLabel: vscode.l10n.t('Add Pack'),
    });
    return picked?.[0]?.fsPath;
  }
  return undefined;
}

export async function addPack(host: ExtensionHost, args: PackArgs, refresh: () => void): Promise<string | undefined> {
  const source = args.source ?? (await askSource());
  if (!source?.trim()) return undefined;
  const ws = await host.getWorkspace();
  const result = await withFetchProgress(
    vscode.l10n.t('Adding knowledge pack {0}…', source),
    (signal) => host.catalog.call(ws, addPackTool, { source: source.trim() }, { ...person, signal }),
  );
  if (!result.ok) {
    if (result.error.code !== 'CANCELLED') showError(result.error);
    return undefined;
  }
  refresh();
  const p = result.data.pack;
  vscode.window.showInformationMessage(
    vscode.l10n.t(
      'Added {0}@{1}: {2} recipes, {3} skills, {4} guard rules. Commit .autosnippet/packs.json to share the pin.',
      p.name,
      p.version,
      p.recipes,
      p.skills,
      p.rules,
    ),
  );
  return p.name;
}

/**
 * Fetches what every pack follows without pinning, shows what would change in a modal, and pins it only
 * when the person says so. Answers the packs updated.
 */
export async function updatePacks(host: ExtensionHost, args: PackArgs, refresh: () => void): Promise<string[]> {
  const ws = await host.getWorkspace();
  const input = args.name ? { name: args.name } : {};
  if (!args.confirmed) {
    const preview = await withFetchProgress(
      vscode.l10n.t('Checking knowledge packs for updates…'),
      (signal) => host.catalog.call(ws, updatePacksTool, { ...input, dryRun: true }, { ...person, signal }),
    );
    if (!preview.ok) {
      if (preview.error.code !== 'CANCELLED') showError(preview.error);
      return [];
    }
    const changed = preview.data.updates.filter((u) => u.changed);
    if (changed.length === 0) {
      vscode.window.showInformationMessage(
        preview.data.updates.length
          ? vscode.l10n.t('Every knowledge pack is up to date.')
          : vscode.l10n.t('This workspace has no knowledge packs. Add one with Add Knowledge Pack…'),
      );
      return [];
    }
    const apply = vscode.l10n.t('Update');
    const detail = changed.map((u) =>
      [`${u.name}: ${u.from} → ${u.to}`, ...u.summary.map((line) => `  ${line}`)].join('\n')
    ).join('\n\n');
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t('Update {0} knowledge pack(s)?', changed.length),
      { modal: true, detail },
      apply,
    );
    if (answer !== apply) return [];
  }
  const done = await withFetchProgress(
    vscode.l10n.t('Updating knowledge packs…'),
    (signal) => host.catalog.call(ws, updatePacksTool, input, { ...person, signal }),
  );
  if (!done.ok) {
    if (done.error.code !== 'CANCELLED') showError(done.error);
    return [];
  }
  refresh();
  const updated = done.data.updates.filter((u) => u.changed);
  vscode.window.setStatusBarMessage(
    vscode.l10n.t('Updated {0}', updated.map((u) => `${u.name}@${u.to}`).join(', ') || '—'),
    8000,
  );
  return updated.map((u) => u.name);
}

export async function removePack(
  host: ExtensionHost,
  args: PackArgs,
  refresh: () => void,
): Promise<string | undefined> {
  const ws = await host.getWorkspace();
  let name = args.name;
  if (!name) {
    const listed = await host.catalog.call(ws, listPacksTool, {}, person);
    if (!listed.ok) return void showError(listed.error);
    if (listed.data.packs.length === 0) {
      vscode.window.showInformationMessage(vscode.l10n.t('This workspace has no knowledge packs.'));
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      listed.data.packs.map((p) => ({
        label: p.name,
        description: `${p.version} · ${p.kind}`,
        detail: vscode.l10n.t('{0} recipes, {1} skills, {2} guard rules', p.recipes, p.skills, p.rules),
      })),
      { title: vscode.l10n.t('Remove Knowledge Pack'), placeHolder: vscode.l10n.t('The pack to remove') },
    );
    if (!picked) return undefined;
    const remove = vscode.l10n.t('Remove');
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t('Remove knowledge pack {0}?', picked.label),
      {
        modal: true,
        detail: vscode.l10n.t(
          'Its recipes, skills and guard rules leave this workspace; the pin in .autosnippet/packs.json is removed. Its cache stays, so adding it again works offline.',
        ),
      },
      remove,
    );
    if (answer !== remove) return undefined;
    name = picked.label;
  }
  const result = await host.catalog.call(ws, removePackTool, { name }, person);
  if (!result.ok) return void showError(result.error);
  refresh();
  vscode.window.setStatusBarMessage(vscode.l10n.t('Removed knowledge pack {0}', name), 8000);
  return name;
}

function showError(error: { message: string; hint?: string }): void {
  void vscode.window.showErrorMessage(error.hint ? `${error.message} ${error.hint}` : error.message);
}
