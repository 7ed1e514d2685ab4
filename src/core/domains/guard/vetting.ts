import { knownLanguages, normalizeLanguage } from '../../ground/kernel/languages';
import type { Logger } from '../../ground/kernel/log';
import type { WorkerPool } from '../../ground/workers/pool';
import { explainQueryError, queryShapeProblem } from './query-check';
import { checkPatternSyntax, type PatternVerdict } from './regex-safety';
import type { GuardRule, RuleProblem } from './rule';
import { grammarFor, type TreeSitterHost } from './structural';
import { templateVerdict } from './template-verdicts';

/**
 * Vets the rules a workspace brings (project files, recipes): patterns that compile, queries that fit
 * their grammar, and regexes recheck's analysis (on a worker thread) finds safe, its verdicts kept per
 * pattern so a rule file edited elsewhere is not analysed again. A drafting template's pattern takes
 * the verdict kept for it (template-verdicts.ts) and is not sent to the worker.
 */
export class PatternVetting {
  private readonly verdicts = new Map<string, PatternVerdict>();

  constructor(
    private readonly treeSitter: TreeSitterHost,
    private readonly pool: WorkerPool,
    private readonly log: Logger,
    /** Verdicts worked out before this process: by default the drafting templates' under the running analyser. */
    private readonly kept: (source: string, flags: string) => PatternVerdict | undefined = templateVerdict,
  ) {}

  /** The analysis of a regex rule's pattern, once vetted. */
  verdictOf(rule: GuardRule): PatternVerdict | undefined {
    return rule.pattern.kind === 'regex' ? this.verdicts.get(verdictKey(rule)) : undefined;
  }

  /** Regex safety (in a worker) and query compilation; returns rule id → why it was refused. */
  async vet(rules: GuardRule[], problems: RuleProblem[]): Promise<Map<string, string>> {
    const invalid = new Map<string, string>();
    const refuse = (rule: GuardRule, code: RuleProblem['code'], message: string, hint?: string) => {
      invalid.set(rule.id, message);
      problems.push({ source: rule.source, ruleId: rule.id, code, message: `${rule.id}: ${message}`, hint });
    };
    const toAnalyze: GuardRule[] = [];
    const unanalysed = new Set<string>();
    for (const rule of rules) {
      const unknown = rule.languages.filter((l) => l !== '*' && !normalizeLanguage(l));
      if (unknown.length) {
        this.log.warn(
          `guard: rule ${rule.id} names unknown language(s) ${unknown.join(', ')}; known: ${
            knownLanguages().join(', ')
          }`,
        );
      }
      if (rule.pattern.kind === 'regex') {
        const syntax = checkPatternSyntax(rule.pattern.regex, rule.pattern.flags ?? '');
        if (syntax) {
          refuse(
            rule,
            'INVALID_RULE',
            syntax.message!,
            'Test the pattern in a JavaScript console: new RegExp(source, flags).',
          );
        } else if (!this.verdicts.has(verdictKey(rule))) {
          const kept = this.kept(rule.pattern.regex, rule.pattern.flags ?? '');
          if (kept) this.verdicts.set(verdictKey(rule), kept);
          else toAnalyze.push(rule);
        }
        continue;
      }
      const grammars = [
        ...new Set(rule.languages.map((l) => grammarFor(normalizeLanguage(l) ?? l)).filter((g): g is string => !!g)),
      ];
      if (grammars.length === 0) {
        refuse(
          rule,
          'INVALID_RULE',
          `structural patterns need a parser, and there is none for ${rule.languages.join(', ')}.`,
          'Use a regex for this language.',
        );
        continue;
      }
      const shape = queryShapeProblem(rule.pattern.query);
      if (shape) {
        refuse(rule, 'INVALID_RULE', shape.message, shape.hint);
        continue;
      }
      for (const g of grammars) {
        try {
          (await this.treeSitter.compileQuery(g, rule.pattern.query)).delete();
        } catch (e) {
          const unbound = explainQueryError((e as Error).message);
          refuse(
            rule,
            'INVALID_RULE',
            `the tree-sitter query does not compile for ${g}: ${unbound ?? (e as Error).message}`,
            unbound
              ? "Capture the node in the same pattern (`(string) @path`) and put the predicate after it, inside the pattern's parentheses."
              : 'Check node names in the grammar (e.g. with the tree-sitter playground).',
          );
          break;
        }
      }
    }
    if (toAnalyze.length) {
      const patterns = toAnalyze.map((r) => ({
        source: (r.pattern as { regex: string }).regex,
        flags: (r.pattern as { flags?: string }).flags ?? '',
      }));
      try {
        // The analysis is deterministic (see regex-safety.ts) and takes seconds at worst: the thread's
        // limit only catches a pattern no count bounds, and what it stops is refused, never let through.
        const verdicts = await this.pool.run<PatternVerdict[]>(
          'guard.analyzePatterns',
          { patterns },
          { timeoutMs: ANALYSIS_LIMIT_MS + ANALYSIS_LIMIT_MS * patterns.length },
        );
        toAnalyze.forEach((r, i) => this.verdicts.set(verdictKey(r), verdicts[i]));
      } catch (e) {
        this.log.warn(
          `guard: the safety analysis of ${patterns.length} project pattern(s) did not finish (${
            (e as Error).message
          }); they are not loaded`,
        );
        for (const r of toAnalyze) unanalysed.add(verdictKey(r));
      }
    }
    for (const rule of rules) {
      if (rule.pattern.kind !== 'regex' || invalid.has(rule.id)) continue;
      if (unanalysed.has(verdictKey(rule))) {
        refuse(
          rule,
          'UNSAFE_PATTERN',
          'the safety analysis of its pattern did not finish, so it is not loaded (it is analysed again when the rules change).',
          'Simplify the pattern: fewer alternatives and nested repetitions.',
        );
        continue;
      }
      const v = this.verdicts.get(verdictKey(rule));
      if (v && !v.ok) {
        refuse(
          rule,
          v.status === 'invalid' ? 'INVALID_RULE' : 'UNSAFE_PATTERN',
          v.message ?? 'unsafe pattern',
          'The rule is not loaded until its pattern is fixed.',
        );
      }
    }
    return invalid;
  }
}

/** Per pattern, on top of one for the job: generous, since a refused pattern is the price of stopping early. */
const ANALYSIS_LIMIT_MS = 30_000;

function verdictKey(rule: GuardRule): string {
  const p = rule.pattern as { regex: string; flags?: string };
  return `${p.flags ?? ''}/${p.regex}`;
}
