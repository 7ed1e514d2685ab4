import type { Actor } from '../../ground/kernel/actors';
import type { GuardPattern } from './guard-format';

export type { GuardPattern } from './guard-format';
import type { GuardDraftReport, RuleSeed } from './rule-seed';

export type { Actor };

/** Who created a record: a caller, or `system` for what a scan found on its own (the cold start). */
export type Author = Actor | 'system';

/** What a piece of knowledge is about. Each type implies a kind (see KNOWLEDGE_TYPES). */
export type KnowledgeType =
  | 'code-standard'
  | 'code-style'
  | 'best-practice'
  | 'boundary-constraint'
  | 'anti-pattern'
  | 'agent-guideline'
  | 'code-pattern'
  | 'architecture'
  | 'solution'
  | 'call-chain'
  | 'data-flow'
  | 'event-flow'
  | 'module-dependency'
  | 'code-relation'
  | 'inheritance'
  | 'project-profile';

/** `rule`: what code here must or must not do; `pattern`: how to do something here; `fact`: how the project is. */
export type RecipeKind = 'rule' | 'pattern' | 'fact';

export const KNOWLEDGE_TYPES: Readonly<Record<KnowledgeType, RecipeKind>> = {
  'code-standard': 'rule',
  'code-style': 'rule',
  'best-practice': 'rule',
  'boundary-constraint': 'rule',
  'anti-pattern': 'rule',
  'agent-guideline': 'rule',
  'code-pattern': 'pattern',
  architecture: 'pattern',
  solution: 'pattern',
  'call-chain': 'fact',
  'data-flow': 'fact',
  'event-flow': 'fact',
  'module-dependency': 'fact',
  'code-relation': 'fact',
  inheritance: 'fact',
  'project-profile': 'fact',
};

export const RECIPE_KINDS: readonly RecipeKind[] = ['rule', 'pattern', 'fact'];

export type Scope = 'universal' | 'project' | 'target';
export type Complexity = 'basic' | 'intermediate' | 'advanced';
export const SCOPES: readonly Scope[] = ['universal', 'project', 'target'];
export const COMPLEXITIES: readonly Complexity[] = ['basic', 'intermediate', 'advanced'];

/** Relations between recipes, camelCase as in frontmatter (the graph normalizes `dependsOn` to `depends_on`). */
export type RelationType = 'dependsOn' | 'extends' | 'conflicts' | 'related' | 'replaces';
export const RELATION_TYPES: readonly RelationType[] = ['dependsOn', 'extends', 'conflicts', 'related', 'replaces'];
export type Relations = Partial<Record<RelationType, string[]>>;

export interface RecipeStep {
  title: string;
  description?: string;
  code?: string;
}

/** A guard pattern a recipe asks for: a regular expression the code should not (or must) match. */
export interface Constraints {
  guards?: GuardPattern[];
  preconditions?: string[];
  boundaries?: string[];
  sideEffects?: string[];
}

export type RecipeStatus = 'draft' | 'published' | 'deprecated';
export type CandidateStatus = 'pending' | 'approved' | 'rejected';

/** The content a recipe and a candidate share: what the knowledge says. */
export interface KnowledgeContent {
  title: string;
  /** `@name`, typed in an editor to insert the recipe's code. */
  trigger: string;
  language: string;
  category: string;
  knowledgeType: KnowledgeType;
  summary: string;
  usageGuide?: string;
  code?: string;
  rationale?: string;
  steps?: RecipeStep[];
  tags: string[];
  scope: Scope;
  /** The target (package, module) a `target`-scoped recipe applies to. */
  target?: string;
  /** Workspace-relative globs of the folders or files it applies to (see folder-scope.ts); none: everywhere. */
  paths?: string[];
  complexity: Complexity;
  relations?: Relations;
  constraints?: Constraints;
  /** Where the knowledge was seen, as `path:line`. */
  sourceFiles?: string[];
}

/**
 * What a recipe recorded about the code it cites: per source (`path:line` as written in the recipe),
 * a hash of the cited lines; `code`, a hash of the recipe's code when it is an excerpt of a cited file.
 * Written when a recipe is created, approved or published, and refreshed only when a person accepts an update.
 */
export interface Fingerprints {
  code?: string;
  sources?: Record<string, string>;
}

export interface StatusChange {
  from: string | null;
  to: string;
  actor: Actor | string;
  at: string;
  reason?: string;
}

/** Approved project knowledge, kept as a Markdown file under `.autosnippet/recipes/`. */
export interface Recipe extends KnowledgeContent {
  /** Stable id: the frontmatter `id`, or `<category>/<slug>` of the file when the file has none. */
  id: string;
  /** The knowledge pack it comes from (read-only here); set from the index, never from the file. */
  pack?: { name: string; version: string };
  kind: RecipeKind;
  status: RecipeStatus;
  createdBy?: string;
  createdAt?: string;
  approvedBy?: string;
  approvedAt?: string;
  publishedBy?: string;
  publishedAt?: string;
  deprecatedBy?: string;
  deprecatedAt?: string;
  deprecationReason?: string;
  /** The candidate this recipe was promoted from. */
  candidateId?: string;
  /** Hashes of the cited lines and of the code excerpt, recorded so staleness can be told (see freshness). */
  fingerprints?: Fingerprints;
  /** Workspace-relative path of the Markdown file, with forward slashes. */
  file: string;
}

export interface QualityScores {
  /** 0..1 overall. */
  overall: number;
  completeness: number;
  clarity: number;
  evidence: number;
  adoption: number;
}

export interface UsageStats {
  views: number;
  adoptions: number;
  applications: number;
  guardHits: number;
  helpful: number;
  unhelpful: number;
  lastUsedAt?: string;
}

export type UsageEvent = 'view' | 'adoption' | 'application' | 'guard_hit' | 'helpful' | 'unhelpful';
export const USAGE_EVENTS: readonly UsageEvent[] = [
  'view',
  'adoption',
  'application',
  'guard_hit',
  'helpful',
  'unhelpful',
];

export interface CandidateReasoning {
  /** Why this is a standard of the project and not a one-off. */
  whyStandard: string;
  /** Evidence as `path:line`. */
  sources: string[];
  /** 0..1 */
  confidence: number;
}

/**
 * What an agent, the cold-start scan or a person proposes. Only `title` is required; the rest gets
 * defaults, and `validate_candidate` / `enrich_candidates` say what is missing or weak.
 */
export interface CandidateInput extends Partial<Omit<KnowledgeContent, 'title'>> {
  title: string;
  reasoning?: Partial<CandidateReasoning>;
  /** Where the proposal came from, e.g. 'agent', 'bootstrap:code-standard', 'draft-file'. */
  origin?: string;
  /** What the card knows about the rule it states, for drafting its guard (see rule-seed.ts). */
  ruleSeed?: RuleSeed;
  /** What the drafted guards of `constraints.guards` reported on the repository when they were drafted. */
  guardReport?: GuardDraftReport;
}

export interface Candidate extends KnowledgeContent {
  id: string;
  kind: RecipeKind;
  status: CandidateStatus;
  reasoning: CandidateReasoning;
  origin: string;
  createdBy: string;
  createdAt: string;
  decidedBy?: string;
  decidedAt?: string;
  rejectionReason?: string;
  /** Set when the approved candidate was promoted to a draft recipe. */
  recipeId?: string;
  /** Content fingerprint: the same proposal submitted twice has the same one. */
  fingerprint: string;
  ruleSeed?: RuleSeed;
  guardReport?: GuardDraftReport;
}

/** A problem with a recipe file, naming the file and (when known) the field. */
export interface RecipeFileProblem {
  file: string;
  field?: string;
  message: string;
}
