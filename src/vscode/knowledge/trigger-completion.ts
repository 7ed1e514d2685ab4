import * as vscode from 'vscode';
import { getRecipeTool, listRecipesTool } from '../../core/catalog/knowledge';
import { type ExtensionHost, setting } from '../host';
import { invokeAll, quietly } from './catalog-calls';
import type { RecipeEntry } from './views';

const TRIGGER_BEFORE_CURSOR = /@[\p{L}\p{N}_.-]*$/u;
const CACHE_MS = 10_000;

/** Languages whose recipes also fit a document of another language. */
const RELATED: Record<string, string[]> = {
  typescriptreact: ['typescript', 'javascript', 'javascriptreact'],
  typescript: ['javascript'],
  javascriptreact: ['javascript'],
  'objective-cpp': ['objective-c', 'cpp'],
};

/**
 * Typing a recipe's trigger (`@fetch-retry`) offers the recipe's code as a snippet; recipes without
 * code (facts, rules stated in prose, scan findings whose evidence is a list of places) are not offered. The list of
 * triggers is cached for a few seconds and dropped whenever the recipe index changes. The code is
 * read only when needed: for the preview of the item the person looks at (resolve), and on accept,
 * where the item removes the typed trigger and its command inserts the code as a snippet (an item's
 * insertText may not change during resolve, and reading every recipe up front would be wasteful).
 */
export class TriggerCompletion implements vscode.CompletionItemProvider<vscode.CompletionItem & { recipeId?: string }> {
  private cache: { at: number; recipes: RecipeEntry[] } | undefined;

  constructor(private readonly host: ExtensionHost) {}

  invalidate(): void {
    this.cache = undefined;
  }

  private async recipes(): Promise<RecipeEntry[]> {
    if (this.cache && Date.now() - this.cache.at < CACHE_MS) return this.cache.recipes;
    const recipes = await invokeAll(this.host, listRecipesTool, {}, 'recipes');
    this.cache = { at: Date.now(), recipes };
    return recipes;
  }

  async provideCompletionItems(
    document: vscode.TextDocument,
    position: vscode.Position,
  ): Promise<(vscode.CompletionItem & { recipeId?: string })[] | undefined> {
    if (!setting('recipes.triggerCompletion', document.uri)) return undefined;
    const before = document.lineAt(position.line).text.slice(0, position.character);
    const typed = TRIGGER_BEFORE_CURSOR.exec(before);
    if (!typed) return undefined;
    const range = new vscode.Range(position.translate(0, -typed[0].length), position);
    const languages = new Set([document.languageId, ...(RELATED[document.languageId] ?? [])]);
    let recipes: RecipeEntry[];
    try {
      recipes = await this.recipes();
    } catch {
      return undefined;
    }
    return recipes
      // Only recipes with code: a trigger inserts code, never a fact or a rule's prose.
      .filter((r) => r.kind !== 'fact' && r.hasCode !== false && (languages.has(r.language) || r.language === 'text'))
      .map((r) => {
        const item: vscode.CompletionItem & { recipeId?: string } = new vscode.CompletionItem({
          label: r.trigger,
          description: r.title,
        }, vscode.CompletionItemKind.Snippet);
        item.range = range;
        item.filterText = r.trigger;
        item.detail = r.title;
        item.documentation = new vscode.MarkdownString(r.summary);
        item.recipeId = r.id;
        item.sortText = r.status === 'published' ? `0${r.trigger}` : `1${r.trigger}`;
        item.insertText = '';
        item.command = {
          command: 'autosnippet.recipes.insertCode',
          title: vscode.l10n.t('Insert Recipe Code'),
          arguments: [r.id],
        };
        return item;
      });
  }

  async resolveCompletionItem(item: vscode.CompletionItem & { recipeId?: string }): Promise<vscode.CompletionItem> {
    if (!item.recipeId) return item;
    const recipe = await recipeCode(this.host, item.recipeId);
    if (!recipe?.code) return item;
    item.documentation = new vscode.MarkdownString(recipe.summary).appendCodeblock(recipe.code, recipe.language);
    return item;
  }
}

/** A recipe's code, quietly (undefined when it cannot be read). */
export async function recipeCode(
  host: ExtensionHost,
  id: string,
): Promise<{ code?: string; summary: string; language: string } | undefined> {
  return quietly(host, getRecipeTool, { id });
}
