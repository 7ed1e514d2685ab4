import * as vscode from 'vscode';
import path from 'node:path';
import type { ExtensionHost } from '../host';
import { invokeAll } from './catalog-calls';

export interface RecipeEntry {
  id: string;
  title: string;
  trigger: string;
  kind: 'rule' | 'pattern' | 'fact';
  language: string;
  category: string;
  status: 'draft' | 'published' | 'deprecated';
  summary: string;
  quality: number;
  file: string;
  /** Set when the code the recipe cites changed (`stale`) or moved (`moved`) since it was recorded. */
  freshness?: 'stale' | 'moved';
  freshnessReason?: string;
}

export interface CandidateEntry {
  id: string;
  title: string;
  status: 'pending' | 'approved' | 'rejected';
  kind: string;
  language: string;
  category: string;
  summary: string;
  confidence: number;
  origin: string;
  createdBy: string;
  recipeId?: string;
  rejectionReason?: string;
}

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
    const item = new vscode.TreeItem(r.title);
    item.id = `recipe:${r.id}`;
    item.description = [r.trigger, r.status === 'published' ? undefined : statusLabel(r.status), r.freshness ? freshnessLabel(r.freshness) : undefined].filter(Boolean).join(' · ');
    item.iconPath = r.freshness === 'stale'
      ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'))
      : new vscode.ThemeIcon(KIND_ICON[r.kind] ?? 'note', r.status === 'deprecated' ? new vscode.ThemeColor('disabledForeground') : undefined);
    item.tooltip = new vscode.MarkdownString(`**${r.title}** \`${r.trigger}\`\n\n${r.summary}\n\n${vscode.l10n.t('{0} · {1} · {2} · quality {3}', r.kind, r.language, statusLabel(r.status), r.quality.toFixed(2))}${r.freshnessReason ? `\n\n$(warning) ${r.freshnessReason}` : ''}`, true);
    // `recipe.<status>` plus `.stale` or `.moved`: menus match the status with a regular expression.
    item.contextValue = `recipe.${r.status}${r.freshness ? `.${r.freshness}` : ''}`;
    item.command = { command: 'autosnippet.recipes.open', title: vscode.l10n.t('Open Recipe'), arguments: [node] };
    return item;
  }

  async getChildren(node?: RecipeNode): Promise<RecipeNode[]> {
    if (node?.type === 'category') return node.recipes.map((recipe) => ({ type: 'recipe', recipe }));
    if (node) return [];
    if (!this.host.folder) return [];
    try {
      const recipes = await invokeAll<RecipeEntry>(this.host, 'list_recipes', { status: 'any' }, 'recipes');
      await this.markFreshness(recipes);
      if (recipes.length === 0) return [{ type: 'message', text: vscode.l10n.t('No recipes yet. Approve a candidate, or select code and run "Create Recipe from Selection".') }];
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

  /** Marks recipes whose cited code changed or moved (the tracker's last verdicts; a failure only loses the marks). */
  private async markFreshness(recipes: RecipeEntry[]): Promise<void> {
    try {
      const problems = await invokeAll<{ id: string; freshness: 'stale' | 'moved'; reason: string }>(this.host, 'check_recipe_freshness', { problemsOnly: true }, 'recipes');
      const byId = new Map(problems.map((p) => [p.id, p]));
      for (const r of recipes) {
        const p = byId.get(r.id);
        if (p) Object.assign(r, { freshness: p.freshness, freshnessReason: p.reason });
      }
    } catch (e) {
      this.host.log.warn(`freshness marks unavailable: ${(e as Error).message}`);
    }
  }
}

function freshnessLabel(f: 'stale' | 'moved'): string {
  return f === 'stale' ? vscode.l10n.t('stale') : vscode.l10n.t('moved');
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
    const item = new vscode.TreeItem(c.title);
    item.id = `candidate:${c.id}`;
    item.description = `${statusLabel(c.status)} · ${c.kind} · ${Math.round(c.confidence * 100)}%`;
    item.iconPath = new vscode.ThemeIcon(c.status === 'pending' ? 'lightbulb' : c.status === 'approved' ? 'pass' : 'circle-slash');
    item.tooltip = new vscode.MarkdownString(
      `**${c.title}**\n\n${c.summary || vscode.l10n.t('(no summary)')}\n\n${vscode.l10n.t('Proposed by {0} ({1}) · {2} · {3}', c.createdBy, c.origin, c.language, c.category)}` +
        (c.rejectionReason ? `\n\n${vscode.l10n.t('Rejected: {0}', c.rejectionReason)}` : ''),
    );
    item.contextValue = `candidate.${c.status}${c.status === 'approved' && !c.recipeId ? '.unpromoted' : ''}`;
    item.command = { command: 'autosnippet.candidates.edit', title: vscode.l10n.t('Edit Candidate'), arguments: [node] };
    return item;
  }

  async getChildren(node?: CandidateNode): Promise<CandidateNode[]> {
    if (node || !this.host.folder) return [];
    try {
      const list = await invokeAll<CandidateEntry>(this.host, 'list_candidates', { status: 'any', limit: 1000 }, 'candidates');
      if (list.length === 0) return [{ type: 'message', text: vscode.l10n.t('No candidates. Agents propose knowledge with submit_candidate; "Bootstrap Knowledge" scans the project.') }];
      return list.map((candidate) => ({ type: 'candidate', candidate }));
    } catch (e) {
      return [{ type: 'message', text: (e as Error).message }];
    }
  }
}

export function statusLabel(status: string): string {
  switch (status) {
    case 'draft': return vscode.l10n.t('draft');
    case 'published': return vscode.l10n.t('published');
    case 'deprecated': return vscode.l10n.t('deprecated');
    case 'pending': return vscode.l10n.t('pending');
    case 'approved': return vscode.l10n.t('approved');
    case 'rejected': return vscode.l10n.t('rejected');
    default: return status;
  }
}

export function recipeUri(host: ExtensionHost, file: string): vscode.Uri | undefined {
  const folder = host.folder;
  return folder ? vscode.Uri.file(path.join(folder.uri.fsPath, file)) : undefined;
}

export type { RecipeNode, CandidateNode };
