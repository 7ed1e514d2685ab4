import * as vscode from 'vscode';
import type { OutputOf } from '../core/catalog';
import { health } from '../core/catalog/system';
import { type GuardSummary, guardSummary, onDidChangeGuardSummary } from './guard-summary';
import type { ExtensionHost } from './host';

interface Line {
  label: string;
  description?: string;
  icon: string;
  tooltip?: string;
  command?: vscode.Command;
}

type Health = OutputOf<typeof health>;

/**
 * The Overview view: what the workspace holds, in words, each row leading somewhere (its view or
 * its command). It follows every commit through the host's journal watcher, from any process.
 */
export function registerOverviewView(host: ExtensionHost): vscode.Disposable {
  const changed = new vscode.EventEmitter<void>();
  let guardTimer: ReturnType<typeof setTimeout> | undefined;
  const provider: vscode.TreeDataProvider<Line> = {
    onDidChangeTreeData: changed.event,
    getTreeItem(line) {
      const item = new vscode.TreeItem(line.label);
      item.description = line.description;
      item.iconPath = new vscode.ThemeIcon(line.icon);
      item.tooltip = line.tooltip;
      item.command = line.command;
      item.accessibilityInformation = { label: [line.label, line.description].filter(Boolean).join(', ') };
      return item;
    },
    async getChildren(parent) {
      if (parent || !host.folder) return [];
      try {
        const ws = await host.getWorkspace();
        const result = await host.catalog.call(ws, health, {}, { actor: 'human', channel: 'vscode' });
        if (!result.ok) {
          return [{
            label: result.error.message,
            icon: 'error',
            command: { command: 'autosnippet.showLog', title: vscode.l10n.t('Show Log') },
          }];
        }
        return overviewLines(result.data);
      } catch (e) {
        return [{
          label: (e as Error).message,
          icon: 'error',
          command: { command: 'autosnippet.showLog', title: vscode.l10n.t('Show Log') },
        }];
      }
    },
  };
  return vscode.Disposable.from(
    changed,
    vscode.window.createTreeView('autosnippet.overview', { treeDataProvider: provider, showCollapseAll: false }),
    vscode.commands.registerCommand('autosnippet.refreshOverview', () => changed.fire()),
    host.onDidChangeData(() => changed.fire()),
    // Findings change as files are typed in: one refresh for a burst of them.
    onDidChangeGuardSummary(() => {
      clearTimeout(guardTimer);
      guardTimer = setTimeout(() => changed.fire(), 300);
    }),
    new vscode.Disposable(() => clearTimeout(guardTimer)),
    host.onDidChangeFolder(() => changed.fire()),
  );
}

function overviewLines(h: Health): Line[] {
  const n = (key: string) => h.counts[key] ?? 0;
  const cmd = (command: string, title: string): vscode.Command => ({ command, title });
  const pending = n('candidates');
  const lines: Line[] = [
    {
      label: vscode.l10n.t('Candidates to review'),
      description: String(pending),
      icon: pending ? 'lightbulb-autofix' : 'lightbulb',
      tooltip: vscode.l10n.t('Knowledge proposed by agents or the cold-start scan, waiting for you. Click to review.'),
      command: cmd('autosnippet.candidates.review', vscode.l10n.t('Review Candidates')),
    },
    {
      label: vscode.l10n.t('Recipes'),
      description: n('stale') ? vscode.l10n.t('{0} · {1} stale', n('recipes'), n('stale')) : String(n('recipes')),
      icon: n('stale') ? 'warning' : 'notebook',
      tooltip: n('stale')
        ? vscode.l10n.t(
          'Reviewed patterns, rules and facts of this project; {0} cite code that changed since they were recorded. Click to show them.',
          n('stale'),
        )
        : vscode.l10n.t('Reviewed patterns, rules and facts of this project. Click to show them.'),
      command: cmd('autosnippet.recipes.focus', vscode.l10n.t('Show Recipes')),
    },
    {
      label: vscode.l10n.t('Skills'),
      description: n('skillsSkipped')
        ? vscode.l10n.t('{0} · {1} not loaded', n('skills'), n('skillsSkipped'))
        : String(n('skills')),
      icon: n('skillsSkipped') ? 'warning' : 'book',
      tooltip: vscode.l10n.t('Guides agents load a little at a time. Click to show them.'),
      command: cmd('autosnippet.skills.focus', vscode.l10n.t('Show Skills')),
    },
    {
      label: vscode.l10n.t('Guard'),
      description: guardDescription(guardSummary()),
      icon: 'shield',
      tooltip: vscode.l10n.t('Check every file against the guard rules; problems go to the Problems panel.'),
      command: cmd('autosnippet.guard.scanWorkspace', vscode.l10n.t('Scan Workspace with Guard')),
    },
    {
      label: vscode.l10n.t('Tools for agents'),
      description: vscode.l10n.t('{0} · connect a client', n('tools')),
      icon: 'plug',
      tooltip: vscode.l10n.t(
        'Copilot in VS Code has them already. Click to connect Cursor, Claude Desktop or another MCP client.',
      ),
      command: cmd('autosnippet.writeMcpConfig', vscode.l10n.t('Connect an MCP Client…')),
    },
    {
      label: vscode.l10n.t('Index'),
      description: indexState(h.database),
      icon: h.database.status === 'ok' || h.database.status === 'not-created' ? 'database' : 'warning',
      tooltip: vscode.l10n.t(
        '{0}\nRebuilt from the recipe files whenever needed. Click to show the log.',
        h.database.path,
      ),
      command: cmd('autosnippet.showLog', vscode.l10n.t('Show Log')),
    },
    {
      label: vscode.l10n.t('Get started'),
      description: vscode.l10n.t('version {0}', h.version),
      icon: 'rocket',
      tooltip: vscode.l10n.t('A walkthrough: bootstrap, review, publish, guard, connect an MCP client.'),
      command: cmd('autosnippet.gettingStarted', vscode.l10n.t('Get Started with AutoSnippet')),
    },
  ];
  return lines;
}

/** The Guard row: the last scan's findings once a scan ran, the open files' before, or what to do. */
function guardDescription(g: GuardSummary | undefined): string {
  if (g?.scannedFiles !== undefined) {
    return vscode.l10n.t('{0} files scanned · {1} errors · {2} warnings', g.scannedFiles, g.error, g.warning);
  }
  if (g && (g.error || g.warning)) {
    return vscode.l10n.t('{0} errors · {1} warnings in open files · scan the workspace', g.error, g.warning);
  }
  return vscode.l10n.t('scan the workspace');
}

function indexState(db: Health['database']): string {
  switch (db.status) {
    case 'ok':
      return vscode.l10n.t('healthy · {0}', size(db.imageBytes + db.journalBytes));
    case 'not-created':
      return vscode.l10n.t('not created yet: nothing is written until the first change');
    case 'recovered':
      return vscode.l10n.t('recovered from a damaged file');
    case 'lost-commit':
      return vscode.l10n.t('its last change was lost: see the log');
  }
}

function size(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
