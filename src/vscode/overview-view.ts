import * as vscode from 'vscode';
import type { ExtensionHost } from './host';

interface Line { label: string; description?: string; icon: string; tooltip?: string }

/** The Overview view: what `health` reports, so a person sees at a glance that AutoSnippet works. */
export function registerOverviewView(host: ExtensionHost): vscode.Disposable {
  const changed = new vscode.EventEmitter<void>();
  const provider: vscode.TreeDataProvider<Line> = {
    onDidChangeTreeData: changed.event,
    getTreeItem(line) {
      const item = new vscode.TreeItem(line.label);
      item.description = line.description;
      item.iconPath = new vscode.ThemeIcon(line.icon);
      item.tooltip = line.tooltip;
      return item;
    },
    async getChildren(parent) {
      if (parent) return [];
      if (!host.folder) return [];
      try {
        const ws = await host.getWorkspace();
        const result = await host.catalog.invoke(ws, 'health', {}, { actor: 'human', channel: 'vscode' });
        if (!result.ok) return [{ label: result.error.message, icon: 'error' }];
        const h = result.data as { version: string; database: { status: string; path: string; imageBytes: number; journalBytes: number }; counts: Record<string, number> };
        return [
          { label: vscode.l10n.t('Database'), description: `${h.database.status} · ${kb(h.database.imageBytes + h.database.journalBytes)}`, icon: h.database.status === 'ok' ? 'database' : 'warning', tooltip: h.database.path },
          ...Object.entries(h.counts).map(([k, v]) => ({ label: k, description: String(v), icon: iconFor(k) })),
          { label: vscode.l10n.t('Version'), description: h.version, icon: 'info' },
        ];
      } catch (e) {
        return [{ label: (e as Error).message, icon: 'error' }];
      }
    },
  };
  return vscode.Disposable.from(
    changed,
    vscode.window.createTreeView('autosnippet.overview', { treeDataProvider: provider, showCollapseAll: false }),
    vscode.commands.registerCommand('autosnippet.refreshOverview', () => changed.fire()),
    host.onDidChangeData(() => changed.fire()),
  );
}

function kb(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function iconFor(kind: string): string {
  return ({ tools: 'tools', skills: 'book', recipes: 'notebook', rules: 'shield', candidates: 'lightbulb', stale: 'warning' } as Record<string, string>)[kind] ?? 'circle-small';
}
