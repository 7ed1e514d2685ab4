import { publishedRecipeGuards, recipeIndexKey, refreshRecipeIndex } from '../knowledge/recipe-guards';
import type { Workspace } from '../workspace';
import { GuardEngine } from './engine';
import { type ProjectRuleJson, toRule } from './project-rules';
import { recipeGuardRules } from './recipe-rules';
import type { GuardRule } from './rule';

/**
 * The workspace's guard engine, created on first use and disposed with the workspace. The guard
 * constraints of published recipes are one of its rule sources.
 */
export function guardEngine(ws: Workspace): GuardEngine {
  return ws.service('guard', (w) => {
    const engine = new GuardEngine(w);
    engine.addRuleSource('recipes', {
      key: () => recipeIndexKey(w),
      rules: () => recipeGuardRules(publishedRecipeGuards(w)),
      refresh: (force) => refreshRecipeIndex(w, force),
    });
    return engine;
  });
}

/**
 * Adds (or replaces) the rules another part of AutoSnippet contributes — the guard constraints of
 * recipes, for example — under a source name. They are validated like project rules (regex safety,
 * query compilation) and, like them, run only in a trusted workspace.
 */
export function setGuardRuleSource(
  ws: Workspace,
  source: string,
  rules: (GuardRule | ProjectRuleJson)[],
  origin: GuardRule['origin'] = 'recipe',
): void {
  guardEngine(ws).setRuleSource(
    source,
    rules.map((r) => (typeof r.pattern === 'object' ? (r as GuardRule) : toRule(r as ProjectRuleJson, source, origin))),
  );
}

export { languageForPath, lineCommentOf, normalizeLanguage } from '../kernel/languages';
export { GuardEngine } from './engine';
export type { RuleSource, RuleStatus, ScanOptions, ScanResult } from './engine';
export { applyFixes, disableCommentFor } from './fix';
export { jsonReport, type ReportFormat, sarifReport, textReport } from './report';
export type { CheckResult, GuardRule, RuleProblem, Severity, Violation } from './rule';
