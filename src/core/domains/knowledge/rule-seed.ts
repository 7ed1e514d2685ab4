/**
 * What a card knows about a rule it states, in structured form: enough for the guard to draft the rule
 * (guard/rule-draft.ts) without reading the card's prose. A seed is evidence, not a rule: the draft is
 * checked against its own examples and against the repository before anyone sees it, and it becomes
 * a rule only when a person approves the card and publishes its recipe.
 */

/** A line of the repository, `path:line`, that follows the rule: the drafted rule's good example. */
export type SourceLine = string;

/** Constructs the guard knows how to find, by name (see CONSTRUCTS in guard/rule-draft.ts). */
export const SEED_CONSTRUCTS = ['explicit-any', 'default-export', 'dispatch-main-async'] as const;
export type SeedConstruct = (typeof SEED_CONSTRUCTS)[number];

export type RuleSeed =
  /** Library code does not print: the language's direct output calls are forbidden in production code. */
  | { kind: 'no-direct-output'; language: string; instead: string; goodAt?: SourceLine[] }
  /** The project's helper instead of the standard call it wraps (allowed in the helper's own file). */
  | {
    kind: 'prefer-helper';
    language: string;
    /** Calls as the code writes them: `fetch`, `time.Now`, `JSON.parse`. */
    standard: string[];
    helper: string;
    /** Where the helper is defined: the one file that may make the standard call. */
    definedIn?: string;
    goodAt?: SourceLine[];
  }
  /** Files under `files` never import the folders `modules` (workspace-relative folders). */
  | { kind: 'forbid-import'; language: string; files: string; modules: string[]; goodAt?: SourceLine[] }
  /** A construct the project avoids (`any` in TypeScript, default exports). */
  | { kind: 'forbid-construct'; language: string; construct: SeedConstruct; goodAt?: SourceLine[] }
  /**
   * Public top-level declarations of one keyword (`struct`, `class`, `func`) carry one annotation,
   * attribute or decorator: `derive(Debug)` (a derived trait), `Sendable`, `MainActor`.
   */
  | {
    kind: 'require-annotation';
    language: string;
    annotation: string;
    declaration: string;
    goodAt?: SourceLine[];
    /** Declarations without it today: the bad examples, and what the rule may report. */
    badAt?: SourceLine[];
    /** How many declarations lack it today: a drafted rule that reports more finds what the seed did not mean. */
    exceptions?: number;
  };

/**
 * The kinds an agent may give to propose_guard_rule. `require-annotation` is left out: its seed is
 * counted by the scan (the declarations with and without the annotation), not stated by an agent.
 */
export const SEED_KINDS = ['no-direct-output', 'prefer-helper', 'forbid-import', 'forbid-construct'] as const;

/** One finding of a drafted rule on the repository as it was when the rule was drafted. */
export interface DraftFinding {
  path: string;
  line: number;
  column: number;
  /** The text the rule matched. */
  text: string;
}

/**
 * A drafted rule's report on the repository: stored with the candidate so the person who approves it
 * sees what it would have reported. Empty findings mean the code follows the rule today.
 */
export interface GuardDraftReport {
  checkedAt: string;
  /** Files of the rule's languages that were checked. */
  files: number;
  /** Findings per guard of `constraints.guards` (same order), at most MAX_DRAFT_FINDINGS each. */
  rules: { id: string; total: number; findings: DraftFinding[] }[];
  /** Whether the check stopped early (time or file budget): the report may miss findings. */
  incomplete?: boolean;
}

export const MAX_DRAFT_FINDINGS = 50;
