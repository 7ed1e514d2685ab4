import path from 'node:path';
import * as vscode from 'vscode';
import type { OutputOf } from '../../core/catalog';
import { checkRecipeFreshnessTool } from '../../core/catalog/freshness';
import { listCandidatesTool, listRecipesTool } from '../../core/catalog/knowledge';
import type { ExtensionHost } from '../host';
import { freshnessLabel, knowledgeTypeLabel, percent, plainText, proposerLabel, shorten, statusLabel } from '../labels';
import { invokeAll } from './catalog-calls';

/** A recipe and a candidate as the views list them: the items of list_recipes and list_candidates. */
export type RecipeEntry = OutputOf<typeof listRecipesTool>['recipes'][number] & {
  /** Set when the code the recipe cites changed (`stale`) or moved (`moved`) since it was recorded. */
  freshness?: 'stale' | 'moved';
  freshnessReason?: string;
};
export type CandidateEntry = OutputOf<typeof listCandidatesTool>['candidates'][number];

type RecipeNode =
  | { type: 'category'; name: string; recipes: RecipeEntry[] }
  | { type: 'recipe'; recipe: RecipeEntry }
  | { type: 'message'; text: string };
type CandidateNode = { type: 'candidate'; candidate: CandidateEntry } | {
  type: 'decided';
  candidates: CandidateEntry[];
} | { type: 'message'; text: string };

const KIND_ICON: Record<string, string> = { rule: 'law', pattern: 'symbol-snippet', fact: 'info' };

/** Where a recipe comes from when it is not the project's own: `name@version` of its pack, or "personal". */
function originLabel(r: RecipeEntry): string | undefined {
  if (r.pack) return `${r.pack.name}@${r.pack.version}`;
  return r.origin === 'personal' ? vscode.l10n.t('personal') : undefined;
}

/** The Recipes view: categories, then recipes with their status; a click opens the file. */
export class RecipesView implements vscode.TreeDataProvider<RecipeNode> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  constructor(private readonly host: ExtensionHost) {}

  refresh(): void {
    this.changed.fire();
  }

  getTreeItem(node: RecipeNode): vscode.TreeItem {
    if (node.type === 'message') return new vscode.TreeItem(node.text);
    if (node.type === 'category') {
      const item = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.Expanded);
      item.description = String(node.recipes.length);
      item.iconPath = new vscode.ThemeIcon('folder');
      item.contextValue = 'recipeCategory';
      return item;
    }
    const r = node.recipe;
    const item = new vscode.TreeItem(plainText(r.title));
    item.id = `recipe:${r.id}`;
    const origin = originLabel(r);
    item.description = [
      r.status === 'published' ? undefined : statusLabel(r.status),
      r.freshness ? freshnessLabel(r.freshness) : undefined,
      r.trigger,
      origin,
    ].filter(Boolean).join(' · ');
    item.iconPath = r.freshness === 'stale'
      ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'))
      : new vscode.ThemeIcon(
        KIND_ICON[r.kind] ?? 'note',
        r.status === 'deprecated' ? new vscode.ThemeColor('disabledForeground') : undefined,
      );
    const tip = new vscode.MarkdownString(undefined, true);
    tip.appendMarkdown(`**${escapeMarkdown(plainText(r.title))}** `).appendMarkdown(`\`${r.trigger}\``).appendMarkdown(
      '\n\n',
    ).appendMarkdown(r.summary).appendMarkdown('\n\n');
    tip.appendText([knowledgeTypeLabel(r.knowledgeType), r.language, statusLabel(r.status)].join(' · '));
    if (r.freshnessReason) tip.appendMarkdown('\n\n$(warning) ').appendText(r.freshnessReason);
    if (r.pack) {
      tip.appendMarkdown('\n\n$(library) ').appendText(
        vscode.l10n.t('From knowledge pack {0}; read-only here.', `${r.pack.name}@${r.pack.version}`),
      );
    } else if (r.origin === 'personal') {
      tip.appendMarkdown('\n\n$(account) ').appendText(
        vscode.l10n.t('One of your personal recipes (~/.autosnippet/recipes); never exported into this project.'),
      );
    }
    item.tooltip = tip;
    // `recipe.<status>` plus `.stale` or `.moved`: menus match the status with a regular expression.
    item.contextValue = `recipe.${r.status}${r.freshness ? `.${r.freshness}` : ''}`;
    item.command = { command: 'autosnippet.recipes.open', title: vscode.l10n.t('Open Recipe'), arguments: [node] };
    return item;
  }

  /** The tree as a person reads it: each category with its recipes' labels and descriptions. */
  async labels(): Promise<{ label: string; children?: string[] }[]> {
    const said = (n: RecipeNode) => {
      const item = this.getTreeItem(n);
      return item.description ? `${String(item.label)} — ${String(item.description)}` : String(item.label);
    };
    return Promise.all(
      (await this.getChildren()).map(async (n) => ({
        label: said(n),
        ...(n.type === 'category' ? { children: (await this.getChildren(n)).map(said) } : {}),
      })),
    );
  }

  async getChildren(node?: RecipeNode): Promise<RecipeNode[]> {
    if (node?.type === 'category') return node.recipes.map((recipe) => ({ type: 'recipe', recipe }));
    if (node) return [];
    const folder = this.host.folder;
    if (!folder) return [];
    try {
      const recipes: RecipeEntry[] = await invokeAll(this.host, listRecipesTool, { status: 'any' }, 'recipes', folder);
      await this.markFreshness(recipes, folder);
      // Empty: no rows, so the view's welcome content (with its buttons) shows.
      if (recipes.length === 0) return [];
      const byCategory = new Map<string, RecipeEntry[]>();
      for (const r of recipes) byCategory.set(r.category, [...(byCategory.get(r.category) ?? []), r]);
      const order = { published: 0, draft: 1, deprecated: 2 };
      return [...byCategory.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, list]) => ({
          type: 'category',
          name,
          recipes: list.sort((a, b) => order[a.status] - order[b.status] || a.title.localeCompare(b.title)),
        }));
    } catch (e) {
      return [{ type: 'message', text: (e as Error).message }];
    }
  }

  /** Marks recipes whose cited code changed or moved (the tracker's last verdicts; a failure only loses the marks). */
  private async markFreshness(recipes: RecipeEntry[], folder: vscode.WorkspaceFolder): Promise<void> {
    try {
      const problems = await invokeAll(this.host, checkRecipeFreshnessTool, { problemsOnly: true }, 'recipes', folder);
      const byId = new Map(problems.map((p) => [p.id, p]));
      for (const r of recipes) {
        const p = byId.get(r.id);
        if (p && (p.freshness === 'stale' || p.freshness === 'moved')) {
          Object.assign(r, { freshness: p.freshness, freshnessReason: p.reason });
        }
      }
    } catch (e) {
      this.host.log.warn(`freshness marks unavailable: ${(e as Error).message}`);
    }
  }
}

/** The Candidates view: the pending ones, then a collapsed group of the approved and rejected ones. */
/**
 * The candidate nodes this view handed to VS Code. A command given one of them was run from the
 * view's own buttons (another extension can pass a look-alike object, never one of these), so the
 * person's click is the decision and needs no second confirmation.
 */
const shownNodes = new WeakSet<CandidateNode>();

export const shownInView = (node: CandidateNode | undefined): boolean => !!node && shownNodes.has(node);

export class CandidatesView implements vscode.TreeDataProvider<CandidateNode> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  constructor(private readonly host: ExtensionHost) {}

  refresh(): void {
    this.changed.fire();
  }

  getTreeItem(node: CandidateNode): vscode.TreeItem {
    if (node.type === 'message') return new vscode.TreeItem(node.text);
    if (node.type === 'decided') {
      const item = new vscode.TreeItem(
        vscode.l10n.t('Decided ({0})', node.candidates.length),
        vscode.TreeItemCollapsibleState.Collapsed,
      );
      item.id = 'candidates:decided';
      item.iconPath = new vscode.ThemeIcon('history');
      item.tooltip = vscode.l10n.t('Candidates already approved or rejected, kept for reference.');
      item.contextValue = 'candidates.decided';
      return item;
    }
    const c = node.candidate;
    const item = new vscode.TreeItem(shorten(plainText(c.title), 90));
    item.id = `candidate:${c.id}`;
    item.description = `${statusLabel(c.status)} · ${knowledgeTypeLabel(c.knowledgeType)} · ${percent(c.confidence)}`;
    item.iconPath = new vscode.ThemeIcon(
      c.status === 'pending' ? 'lightbulb' : c.status === 'approved' ? 'pass' : 'circle-slash',
    );
    item.tooltip = new vscode.MarkdownString(
      `**${escapeMarkdown(plainText(c.title))}**\n\n${c.summary || vscode.l10n.t('(no summary)')}\n\n${
        vscode.l10n.t('Proposed by {0} · {1} · {2}', proposerLabel(c.origin, c.createdBy), c.language, c.category)
      }`
        + (c.rejectionReason ? `\n\n${vscode.l10n.t('Rejected: {0}', c.rejectionReason)}` : ''),
    );
    item.contextValue = `candidate.${c.status}${c.status === 'approved' && !c.recipeId ? '.unpromoted' : ''}`;
    item.command = {
      command: 'autosnippet.candidates.review',
      title: vscode.l10n.t('Review Candidates'),
      arguments: [node],
    };
    return item;
  }

  /** The tree as labels: each top-level item, with the labels of a group's children. */
  async labels(): Promise<{ label: string; children?: string[] }[]> {
    const label = (n: CandidateNode) => String(this.getTreeItem(n).label);
    return Promise.all(
      (await this.getChildren()).map(async (n) => ({
        label: label(n),
        ...(n.type === 'decided' ? { children: (await this.getChildren(n)).map(label) } : {}),
      })),
    );
  }

  async getChildren(node?: CandidateNode): Promise<CandidateNode[]> {
    const children = await this.children(node);
    for (const c of children) shownNodes.add(c);
    return children;
  }

  private async children(node?: CandidateNode): Promise<CandidateNode[]> {
    if (node?.type === 'decided') return node.candidates.map((candidate) => ({ type: 'candidate', candidate }));
    if (node || !this.host.folder) return [];
    try {
      const list = await invokeAll(this.host, listCandidatesTool, { status: 'any', limit: 1000 }, 'candidates');
      // What waits for review at the top level; decided ones in one collapsed group below, for reference,
      // so the list does not grow with every review. Empty: the welcome content shows.
      const pending: CandidateNode[] = list.filter((c) => c.status === 'pending').map((candidate) => ({
        type: 'candidate',
        candidate,
      }));
      const decided = list.filter((c) => c.status !== 'pending');
      return decided.length ? [...pending, { type: 'decided', candidates: decided }] : pending;
    } catch (e) {
      return [{ type: 'message', text: (e as Error).message }];
    }
  }
}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

export function recipeUri(host: ExtensionHost, file: string): vscode.Uri | undefined {
  const folder = host.folder;
  return folder ? vscode.Uri.file(path.join(folder.uri.fsPath, file)) : undefined;
}

export type { CandidateNode, RecipeNode };
