import * as vscode from 'vscode';
import path from 'node:path';
import type { ExtensionHost } from '../host';
import { invokeAll } from './catalog-calls';
import { listCandidatesTool, listRecipesTool } from '../../core/tools/knowledge';
import type { OutputOf } from '../../core/tools';
import { knowledgeTypeLabel, percent, plainText, proposerLabel, shorten, statusLabel } from '../labels';

/** A recipe and a candidate as the views list them: the items of list_recipes and list_candidates. */
export type RecipeEntry = OutputOf<typeof listRecipesTool>['recipes'][number];
export type CandidateEntry = OutputOf<typeof listCandidatesTool>['candidates'][number];

type RecipeNode = { type: 'category'; name: string; recipes: RecipeEntry[] } | { type: 'recipe'; recipe: RecipeEntry } | { type: 'message'; text: string };
type CandidateNode = { type: 'candidate'; candidate: CandidateEntry } | { type: 'message'; text: string };

const KIND_ICON: Record<string, string> = { rule: 'law', pattern: 'symbol-snippet', fact: 'info' };

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
    item.description = r.status === 'published' ? r.trigger : `${statusLabel(r.status)} · ${r.trigger}`;
    item.iconPath = new vscode.ThemeIcon(KIND_ICON[r.kind] ?? 'note', r.status === 'deprecated' ? new vscode.ThemeColor('disabledForeground') : undefined);
    const tip = new vscode.MarkdownString(undefined, true);
    tip.appendMarkdown(`**${escapeMarkdown(plainText(r.title))}** `).appendMarkdown(`\`${r.trigger}\``).appendMarkdown('\n\n').appendMarkdown(r.summary).appendMarkdown('\n\n');
    tip.appendText([knowledgeTypeLabel(r.knowledgeType), r.language, statusLabel(r.status)].join(' · '));
    item.tooltip = tip;
    item.contextValue = `recipe.${r.status}`;
    item.command = { command: 'autosnippet.recipes.open', title: vscode.l10n.t('Open Recipe'), arguments: [node] };
    return item;
  }

  async getChildren(node?: RecipeNode): Promise<RecipeNode[]> {
    if (node?.type === 'category') return node.recipes.map((recipe) => ({ type: 'recipe', recipe }));
    if (node) return [];
    if (!this.host.folder) return [];
    try {
      const recipes = await invokeAll(this.host, listRecipesTool, { status: 'any' }, 'recipes');
      // Empty: no rows, so the view's welcome content (with its buttons) shows.
      if (recipes.length === 0) return [];
      const byCategory = new Map<string, RecipeEntry[]>();
      for (const r of recipes) byCategory.set(r.category, [...(byCategory.get(r.category) ?? []), r]);
      const order = { published: 0, draft: 1, deprecated: 2 };
      return [...byCategory.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, list]) => ({ type: 'category', name, recipes: list.sort((a, b) => order[a.status] - order[b.status] || a.title.localeCompare(b.title)) }));
    } catch (e) {
      return [{ type: 'message', text: (e as Error).message }];
    }
  }
}

/** The Candidates view: pending first, then approved and rejected. */
export class CandidatesView implements vscode.TreeDataProvider<CandidateNode> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  constructor(private readonly host: ExtensionHost) {}

  refresh(): void {
    this.changed.fire();
  }

  getTreeItem(node: CandidateNode): vscode.TreeItem {
    if (node.type === 'message') return new vscode.TreeItem(node.text);
    const c = node.candidate;
    const item = new vscode.TreeItem(shorten(plainText(c.title), 90));
    item.id = `candidate:${c.id}`;
    item.description = `${statusLabel(c.status)} · ${knowledgeTypeLabel(c.knowledgeType)} · ${percent(c.confidence)}`;
    item.iconPath = new vscode.ThemeIcon(c.status === 'pending' ? 'lightbulb' : c.status === 'approved' ? 'pass' : 'circle-slash');
    item.tooltip = new vscode.MarkdownString(
      `**${escapeMarkdown(plainText(c.title))}**\n\n${c.summary || vscode.l10n.t('(no summary)')}\n\n${vscode.l10n.t('Proposed by {0} · {1} · {2}', proposerLabel(c.origin, c.createdBy), c.language, c.category)}` +
        (c.rejectionReason ? `\n\n${vscode.l10n.t('Rejected: {0}', c.rejectionReason)}` : ''),
    );
    item.contextValue = `candidate.${c.status}${c.status === 'approved' && !c.recipeId ? '.unpromoted' : ''}`;
    item.command = { command: 'autosnippet.candidates.review', title: vscode.l10n.t('Review Candidates'), arguments: [node] };
    return item;
  }

  async getChildren(node?: CandidateNode): Promise<CandidateNode[]> {
    if (node || !this.host.folder) return [];
    try {
      const list = await invokeAll(this.host, listCandidatesTool, { status: 'any', limit: 1000 }, 'candidates');
      // Pending first (the tool's order); decided ones stay below for reference. Empty: the welcome content shows.
      return list.map((candidate) => ({ type: 'candidate', candidate }));
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

export type { RecipeNode, CandidateNode };
