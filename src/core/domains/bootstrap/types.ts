import type { RuleSeed } from '../knowledge/rule-seed';
import type { KnowledgeType } from '../knowledge/types';
import type { ProjectStructure } from '../structure';

/** The seven shared dimensions of the coldstart skill; language dimensions are named by the language's reference skill. */
export const CORE_DIMENSIONS = [
  'code-standard',
  'code-pattern',
  'architecture',
  'best-practice',
  'event-data-flow',
  'project-profile',
  'agent-guidelines',
] as const;
export type CoreDimension = (typeof CORE_DIMENSIONS)[number];
/** A core dimension, or a language one such as `jsts-async` or `swift-concurrency`. */
export type DimensionId = CoreDimension | string;

/** Language families the scan analyses; each has its own import, declaration and naming rules. */
export type Family = 'jsts' | 'swift' | 'objc' | 'python' | 'go' | 'rust' | 'java' | 'kotlin' | 'other';

/** One file as the analysers see it. The text is dropped after the visit; analysers keep only what they need. */
export interface SourceFile {
  path: string;
  /** VS Code language id (typescript, swift, objective-c…). */
  language: string;
  family: Family;
  text: string;
  /** The text with comment and string contents blanked (same offsets and lines). */
  code: string;
  lines: string[];
  bytes: number;
  /**
   * What the file is (the shared classifier): conventions are mined from `production` files only;
   * `test` files inform test-scoped findings; `generated` ones only the agent-guidelines dimension.
   */
  kind: 'production' | 'test' | 'generated';
  /** For a generated file: the line and text of its marker. */
  generated?: { line: number; marker: string };
  /** The target whose folder holds the file, when there is one. */
  target?: string;
  /** Other targets that compile the same folder (a Shared/ folder in a Mac and an iOS app). */
  alsoIn?: string[];
}

/** A proposal from the scan, in the shape `submitCandidates` takes. */
export interface CandidateDraft {
  title: string;
  knowledgeType: KnowledgeType;
  dimension: DimensionId;
  language: string;
  category: string;
  summary: string;
  /** A real excerpt of the project's code that shows the claim, or '' (a listing of places is not code). */
  code: string;
  /** Longer facts that are not code (a dependency list, a profile), kept in the rationale as Markdown. */
  details?: string;
  reasoning: { whyStandard: string; sources: string[]; confidence: number };
  tags: string[];
  target?: string;
  /** A short kebab-case trigger naming the subject (`protected`, `afError`); derived from the title when absent. */
  trigger?: string;
  /** The checkable rule the card states, in structured form: the cold start drafts its guard from it. */
  ruleSeed?: RuleSeed;
  /**
   * The numbers behind the claim and the places that go against it, as `path:line`: shown to the
   * model that writes cards from the scan's evidence (packs.ts), never recorded as they are.
   */
  evidence?: { counts?: Record<string, number>; counterExamples?: string[] };
}

/** What every analyser may consult when it turns its evidence into drafts. */
export interface AnalysisContext {
  root: string;
  structure: ProjectStructure;
  /** Every file of the listing (not only the scanned ones): manifests, configs, docs. */
  listing: readonly string[];
  /** Whether the listing holds this path: a set lookup, where `listing.includes` walks every file. */
  has(rel: string): boolean;
  /** Scanned files per language family. */
  familyCounts: Partial<Record<Family, number>>;
  /** The dominant language family of the scanned sources. */
  primary: Family | undefined;
  read(rel: string): Promise<string | undefined>;
  /** `maxLines` lines of a file from `line` (1-based), trimmed of common indentation. */
  excerpt(rel: string, line: number, maxLines?: number): Promise<string>;
}

/** One dimension's visitor: sees each scanned file once, then proposes. */
export interface Analyzer {
  /** Called for every scanned file, in a fixed order. Must be quick: it runs on the extension host. */
  visit(file: SourceFile): void;
  finish(ctx: AnalysisContext): Promise<CandidateDraft[]> | CandidateDraft[];
}
