import { RULE_SCOPES } from '../domains/knowledge/guard-format';
import type { IndexFreshness } from '../domains/knowledge/index-freshness';
import {
  type Candidate,
  COMPLEXITIES,
  KNOWLEDGE_TYPES,
  type KnowledgeType,
  type Recipe,
  type RecipeKind,
  RELATION_TYPES,
  type RelationType,
  SCOPES,
  USAGE_EVENTS,
} from '../domains/knowledge/types';
import { Code, Domain, FilePath, Id, Input, List, Name, Opt, Out, StringEnum, Text, Type } from './schema';

const stringList = (description: string, maxItems = 50) =>
  List(Text(undefined, { maxLength: 1000 }), maxItems, { description });
const idList = (description: string, maxItems = 50) => List(Id(), maxItems, { description });

export const KNOWLEDGE_TYPE_NAMES = Object.keys(KNOWLEDGE_TYPES) as KnowledgeType[];
export const KINDS = ['rule', 'pattern', 'fact'] as const satisfies readonly RecipeKind[];

const relationList = (r: RelationType) => Opt(idList(`Recipe ids this one ${r === 'dependsOn' ? 'depends on' : r}.`));
const relationsProperties = Object.fromEntries(RELATION_TYPES.map((r) => [r, relationList(r)])) as Record<
  RelationType,
  ReturnType<typeof relationList>
>;

/** One guard rule in the rule format of .autosnippet/guard/*.json, as a recipe's constraints take it. */
export const guardRuleInput = Input({
  id: Opt(Name('A short kebab-case name; the rule id becomes recipe/<recipe id>/<id>.', { maxLength: 64 })),
  pattern: Opt(Text('A regular expression (or give `query`).', { maxLength: 2000 })),
  query: Opt(Text('A tree-sitter query; the capture @match is reported.', { maxLength: 4000 })),
  message: Text(undefined, { maxLength: 500 }),
  severity: Opt(StringEnum(['error', 'warning', 'info', 'hint'])),
  mode: Opt(StringEnum(['forbid', 'require'])),
  in: Opt(
    StringEnum(RULE_SCOPES, {
      description:
        'Where the pattern matches: code (default; not comments or strings), strings (import paths, URLs), comments, any (raw text).',
    }),
  ),
  languages: Opt(
    List(Name(undefined, { maxLength: 64 }), 20, { description: "Default: the recipe's language." }),
  ),
  include: Opt(List(Text(undefined, { maxLength: 500 }), 50, { description: 'Only these path globs.' })),
  exclude: Opt(List(Text(undefined, { maxLength: 500 }), 50, { description: 'Not these path globs.' })),
  why: Opt(Text("Why it matters (default: the recipe's summary).", { maxLength: 1000 })),
  suggestion: Opt(Text('What to write instead (default: follow the recipe).', { maxLength: 1000 })),
  fix: Opt(Text("Replacement for the matched text ($1, $& refer to the pattern's groups).", { maxLength: 2000 })),
  examples: Opt(
    Input(
      {
        bad: Opt(List(Code(undefined, { maxLength: 4000 }), 10)),
        good: Opt(List(Code(undefined, { maxLength: 4000 }), 10)),
      },
      { description: 'Code the rule must report (bad) and leave alone (good); checked when the rule loads.' },
    ),
  ),
});

/** The fields of a proposal. Only `title` is required; validate_candidate says what else is missing. */
export const candidateProperties = {
  title: Text('What the practice is, in 8–80 characters: "Wrap HTTP calls in withRetry".', {
    minLength: 1,
    maxLength: 200,
  }),
  summary: Opt(Text('One or two sentences: what to do and when.', { maxLength: 2000 })),
  code: Opt(Code('The essential code from the project (not a placeholder).', { maxLength: 20_000 })),
  language: Opt(Name('VS Code language id: typescript, swift, python…', { maxLength: 64 })),
  category: Opt(Name('The folder it is filed under, e.g. networking, ui, errors.')),
  knowledgeType: Opt(
    StringEnum(KNOWLEDGE_TYPE_NAMES, {
      description: 'What kind of knowledge; it implies the kind (rule, pattern or fact).',
    }),
  ),
  trigger: Opt(Name('`@name` a person types to insert the code; derived from the title when omitted.')),
  tags: Opt(List(Name(undefined, { maxLength: 64 }), 20, { description: '3–6 words people would search for.' })),
  usageGuide: Opt(Text('When to use it, when not, what to watch out for.', { maxLength: 8000 })),
  rationale: Opt(Text('Why the project does it this way.', { maxLength: 4000 })),
  steps: Opt(
    List(
      Input({
        title: Text(undefined, { maxLength: 200 }),
        description: Opt(Text()),
        code: Opt(Code(undefined, { maxLength: 20_000 })),
      }),
      30,
      { description: 'Ordered steps, for a how-to.' },
    ),
  ),
  scope: Opt(
    StringEnum(SCOPES, {
      description: 'universal (any project), project (default) or target (one package/module: name it in `target`).',
    }),
  ),
  target: Opt(Name('The package or module a target-scoped recipe applies to.')),
  paths: Opt(
    List(Text(undefined, { maxLength: 500 }), 20, {
      description:
        'Where it applies, as workspace-relative globs (packages/api/**); search, guard and export honour them. Default: the whole project.',
    }),
  ),
  complexity: Opt(StringEnum(COMPLEXITIES)),
  relations: Opt(Input(relationsProperties)),
  constraints: Opt(Input({
    guards: Opt(List(
      guardRuleInput,
      20,
      {
        description:
          'Guard rules that enforce it, in the rule format of .autosnippet/guard/*.json (pattern or query, in, include/exclude, examples).',
      },
    )),
    preconditions: Opt(stringList('What must hold before it applies.')),
    boundaries: Opt(stringList('Where it does not apply.')),
    sideEffects: Opt(stringList('What it changes besides its result.')),
  })),
  sourceFiles: Opt(List(FilePath(), 50, { description: 'Where the project does this, as `path:line`.' })),
  reasoning: Opt(Input({
    whyStandard: Opt(
      Text('Why it is a standard here, not a one-off: how often, who relies on it.', { maxLength: 4000 }),
    ),
    sources: Opt(List(FilePath(), 50, { description: 'Evidence as `path:line`.' })),
    confidence: Opt(Type.Number({ minimum: 0, maximum: 1 })),
  })),
};

export const candidateSchema = Input(candidateProperties);

/** Names agents use for our fields. */
export const candidateAliases: Record<string, string> = {
  description: 'summary',
  content: 'code',
  snippet: 'code',
  type: 'knowledgeType',
  knowledge_type: 'knowledgeType',
  usage_guide: 'usageGuide',
  source_files: 'sourceFiles',
};

export const searchFilterProperties = {
  kind: Opt(StringEnum(KINDS, { description: 'Only rules, patterns or facts.' })),
  language: Opt(Name('Only recipes of this language (VS Code language id).', { maxLength: 64 })),
  limit: Opt(Type.Integer({ minimum: 1, maximum: 50, default: 10 })),
  includeDeprecated: Opt(Type.Boolean({ default: false, description: 'Also deprecated recipes.' })),
};

export const recipeRef = (
  description = 'Recipe id (e.g. "networking/fetch-with-retry"), its trigger ("@fetchWithRetry") or its file path.',
) => Id(description, { maxLength: 300 });
export const candidateRef = (description = 'Candidate id, e.g. "cand-0e4590491305".') => Id(description);
export const usageEvents = USAGE_EVENTS;

/** Validation of a proposal, as the knowledge tools answer it. */
export const validationSchema = Out({
  ok: Type.Boolean(),
  score: Type.Number(),
  missing: Type.Array(Type.String(), {
    description:
      'Fields missing or invalid (sources that do not hold included): ok is false exactly when this is not empty.',
  }),
  weak: Type.Array(Type.String(), { description: 'Fields present but thin: worth improving, not blocking.' }),
  issues: Type.Array(Out({ field: Type.String(), severity: Type.String(), message: Type.String() })),
});

/** A candidate or recipe in full (its TypeScript type is the knowledge domain's). */
export const candidateOut = Domain<Candidate>('A candidate with every field.');
export const recipeOut = Domain<Recipe>('A recipe with every field.');

/** Present on an answer given from the recipe index as stored while the recipe files are checked for changes. */
export const indexFreshnessOut = Opt(
  Out(
    { mayBeStale: Type.Boolean(), note: Type.String() },
    {
      description:
        'Present when the answer came from the recipe index as stored while the recipe files are being checked for changes: recipes edited, added or removed on disk since the last check may be missing. Ask again in a moment for an answer that includes them.',
    },
  ),
);

/** The answer with `index` when it may be stale. */
export function withIndexFreshness<T extends object>(
  answer: T,
  freshness: IndexFreshness,
): T & { index?: { mayBeStale: boolean; note: string } } {
  return freshness.mayBeStale ? { ...answer, index: { mayBeStale: true, note: freshness.note ?? '' } } : answer;
}
