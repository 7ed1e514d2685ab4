import type { RecipeGuards } from '../knowledge/recipe-guards';
import { normalizeLanguage } from '../kernel/languages';
import type { GuardRule } from './rule';

/**
 * A published recipe's `constraints.guards` as guard rules: id `recipe/<recipe id>` (with `#2`, `#3`
 * for a recipe's further guards), origin `recipe`, source `recipe:<recipe id>`. They cover the
 * recipe's language (every language when it names none guard knows) and production code, like the
 * recipe itself; `mode: require` asks for the pattern (anywhere in the text) in every such file
 * instead of forbidding it (in code).
 */
export function recipeGuardRules(recipes: readonly RecipeGuards[]): GuardRule[] {
  const rules: GuardRule[] = [];
  for (const r of recipes) {
    const language = normalizeLanguage(r.language);
    r.guards.forEach((g, i) => {
      rules.push({
        id: `recipe/${r.recipeId}${i ? `#${i + 1}` : ''}`,
        message: g.message,
        severity: g.severity ?? 'warning',
        languages: language ? [language] : ['*'],
        // A forbidden pattern counts in code only (not in a comment that mentions it); a required one
        // anywhere (a licence header is a comment).
        pattern: { kind: 'regex', regex: g.pattern, ...(g.mode === 'require' ? { scope: 'any' as const } : {}) },
        why: r.summary || `The team's recipe "${r.title}" says so.`,
        suggestion: `Follow the recipe "${r.title}"${r.trigger ? ` (type ${r.trigger} for its code)` : ''}: ${r.file}.`,
        scope: 'file',
        tags: ['recipe'],
        origin: 'recipe',
        source: `recipe:${r.recipeId}`,
        file: r.file,
        reach: 'production',
        ...(g.mode === 'require' ? { required: true } : {}),
      });
    });
  }
  return rules;
}
