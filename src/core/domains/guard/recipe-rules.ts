import { normalizeLanguage } from '../../ground/kernel/languages';
import type { RecipeGuards } from '../knowledge/recipe-guards';
import { examplePairs } from './project-rules';
import type { GuardRule } from './rule';

/**
 * A published recipe's `constraints.guards` as guard rules: id `recipe/<recipe id>` (with `#2`, `#3`
 * for a recipe's further guards), origin `recipe`, source `recipe:<recipe id>`. They cover the
 * recipe's language (every language when it names none guard knows) and production code, like the
 * recipe itself, unless the guard names its own `languages`, `include` and `exclude` (the fields of
 * a rule file: see knowledge/guard-format.ts); `mode: require` asks for the pattern (anywhere in the
 * text unless `in` says) in every such file instead of forbidding it (in code unless `in` says).
 */
export function recipeGuardRules(recipes: readonly RecipeGuards[]): GuardRule[] {
  const rules: GuardRule[] = [];
  for (const r of recipes) {
    const language = normalizeLanguage(r.language);
    r.guards.forEach((g, i) => {
      const required = g.mode === 'require';
      rules.push({
        id: `recipe/${r.recipeId}${g.id ? `/${g.id}` : i ? `#${i + 1}` : ''}`,
        message: g.message,
        severity: g.severity ?? 'warning',
        languages: g.languages?.length ? g.languages : language ? [language] : ['*'],
        // A forbidden pattern counts where `in` says, in code by default (not in a comment that
        // mentions it); a required one anywhere by default (a licence header is a comment).
        pattern: g.query !== undefined
          ? { kind: 'structural', query: g.query }
          : {
            kind: 'regex',
            regex: g.pattern ?? '',
            ...(g.flags ? { flags: g.flags } : {}),
            ...(g.in ? { scope: g.in } : required ? { scope: 'any' as const } : {}),
          },
        ...(g.fix !== undefined ? { fix: g.fix } : {}),
        why: g.why ?? (r.summary || `The team's recipe "${r.title}" says so.`),
        suggestion: g.suggestion
          ?? `Follow the recipe "${r.title}"${r.trigger ? ` (type ${r.trigger} for its code)` : ''}: ${r.file}.`,
        scope: g.scope ?? 'file',
        tags: ['recipe', ...(g.tags ?? [])],
        ...(g.include?.length ? { include: g.include } : {}),
        ...(g.exclude?.length ? { exclude: g.exclude } : {}),
        ...(r.paths?.length ? { within: r.paths } : {}),
        ...(g.examples ? { examples: examplePairs({ bad: g.examples.bad ?? [], good: g.examples.good ?? [] }) } : {}),
        origin: 'recipe',
        source: `recipe:${r.recipeId}`,
        file: r.file,
        reach: 'production',
        ...(required ? { required: true } : {}),
      });
    });
  }
  return rules;
}
