import type { Workspace } from '../../ground/workspace';
import { publishedRecipeGuards, recipeIndexKey, refreshRecipeIndex } from '../knowledge/recipe-guards';
import { PACKS_STATE_DIR } from '../packs/layout';
import { loadPacks } from '../packs/load';
import { GuardEngine } from './engine';
import { type ProjectRuleJson, readProjectGuardConfig, toRule } from './project-rules';
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
    // A pack's rules are the project's rules by choice: they run only where the project's own would.
    engine.addRuleSource('packs', { key: () => loadPacks(w).key, rules: () => packGuardRules(w) });
    return engine;
  });
}

/** The rules of the loaded packs' `guard/*.json` (their rules only: a pack's exclusions and severities do not apply). */
function packGuardRules(ws: Workspace): GuardRule[] {
  const out: GuardRule[] = [];
  for (const p of loadPacks(ws).loaded) {
    const config = readProjectGuardConfig(ws.root, `${PACKS_STATE_DIR}/${p.folder}/guard`);
    for (const problem of config.problems) ws.log.warn(`guard: pack ${p.name}@${p.version}: ${problem.message}`);
    out.push(...config.rules.map((r) => ({ ...r, origin: 'pack' as const })));
  }
  return out;
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

export { languageForPath, lineCommentOf, normalizeLanguage } from '../../ground/kernel/languages';
export { GuardEngine } from './engine';
export type { RuleSource, RuleStatus, ScanOptions, ScanResult } from './engine';
export { applyFixes, disableCommentFor } from './fix';
export { jsonReport, type ReportFormat, sarifReport, textReport } from './report';
export type { CheckResult, GuardRule, RuleProblem, Severity, Violation } from './rule';
