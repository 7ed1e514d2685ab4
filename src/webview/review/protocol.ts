// The messages between the candidate review panel (a webview) and the extension. Type-only: the
// extension side (src/vscode/review) and the page (src/webview/review) both import it.

/** A candidate as the review list shows it (list_candidates' entry). */
export interface ReviewListItem {
  id: string;
  title: string;
  status: 'pending' | 'approved' | 'rejected';
  kind: string;
  knowledgeType: string;
  language: string;
  category: string;
  summary: string;
  confidence: number;
  origin: string;
  createdBy: string;
  createdAt: string;
  recipeId?: string;
  rejectionReason?: string;
  /** Added by the extension, in the person's language: who proposed it, and the cold-start dimension. */
  proposer: string;
  dimension: string;
}

/** One candidate in full, with what the reviewer needs beside it. */
export interface ReviewDetail {
  id: string;
  title: string;
  status: 'pending' | 'approved' | 'rejected';
  trigger: string;
  language: string;
  category: string;
  knowledgeType: string;
  summary: string;
  usageGuide?: string;
  rationale?: string;
  code?: string;
  tags: string[];
  reasoning: { whyStandard: string; sources: string[]; confidence: number };
  origin: string;
  createdBy: string;
  createdAt: string;
  decidedBy?: string;
  decidedAt?: string;
  rejectionReason?: string;
  recipeId?: string;
  proposer: string;
  decider?: string;
  /** What to do before approving, one item per field of the edit form (translated). */
  checklist: ChecklistEntry[];
  /** The nearest existing recipes and pending candidates (check_duplicate). */
  similar: { id: string; title: string; similarity: number; kind: 'recipe' | 'candidate'; status?: string }[];
  /** The guard rules the candidate states (approved with it), and what they reported when drafted. */
  guards?: ReviewGuard[];
}

/** A drafted guard rule, read-only in the detail: what it matches and what it found in the repository. */
export interface ReviewGuard {
  id?: string;
  message: string;
  /** The pattern or query, as written. */
  matches: string;
  /** `in`, include and exclude globs, as one line. */
  where?: string;
  /** From the report: files checked, findings in all, the first ones as `path:line:column`. */
  files?: number;
  total?: number;
  findings?: { source: string; text: string }[];
}

/** One item of the checklist: the edit form's field that clears it, and what to write there. */
export interface ChecklistEntry {
  field: string;
  severity: string;
  message: string;
}

/** The fields a person may edit in place. */
export interface CandidateEdit {
  title?: string;
  summary?: string;
  trigger?: string;
  category?: string;
  language?: string;
  knowledgeType?: string;
  code?: string;
  whyStandard?: string;
  usageGuide?: string;
}

export interface ReviewChoice {
  value: string;
  label: string;
  description?: string;
}

/** What the page needs once: labels in the person's language and the choices of the selects. */
export interface ReviewSetup {
  strings: Record<string, string>;
  knowledgeTypes: ReviewChoice[];
  /** The workspace folder the panel reviews (shown in the title bar when several are open). */
  folder: string;
  /** Labels of the cold-start dimensions, by id. */
  dimensions: Record<string, string>;
}

/** The outcome of an action, shown as a banner the person can act on. */
export interface ReviewOutcome {
  kind: 'approved' | 'rejected' | 'updated' | 'undone' | 'error';
  message: string;
  /** The candidates an Undo puts back to pending (a decision just made). */
  undo?: string[];
  /** Recipe files written (approve): shown as links. */
  files?: { title: string; file: string }[];
  failed?: { title: string; message: string }[];
}

export type ToPage =
  | { type: 'setup'; setup: ReviewSetup }
  | { type: 'list'; items: ReviewListItem[]; loading?: false }
  | { type: 'detail'; detail: ReviewDetail }
  | { type: 'detailMissing'; id: string; message: string }
  | { type: 'outcome'; outcome: ReviewOutcome }
  | { type: 'editResult'; id: string; ok: boolean; message?: string; field?: string }
  | { type: 'busy'; busy: boolean }
  | { type: 'focus'; id: string }
  | { type: 'checklist'; id: string; items: ChecklistEntry[] };

export type ToExtension =
  | { type: 'ready' }
  | { type: 'refresh' }
  | { type: 'select'; id: string }
  | { type: 'openSource'; source: string }
  | { type: 'openFile'; file: string }
  | { type: 'approve'; ids: string[] }
  | { type: 'reject'; ids: string[]; reason: string }
  | { type: 'edit'; id: string; edit: CandidateEdit }
  | { type: 'undo'; ids: string[] }
  /** The checklist as it would be with the form's current values (nothing is saved). */
  | { type: 'checklist'; id: string; edit: CandidateEdit };

/** `src/http.ts:12` or `src/http.ts:12-20` → path and lines; undefined when it is not a `path:line`. */
export function parseSource(source: string): { file: string; line: number; endLine?: number } | undefined {
  const m = /^(.+?):(\d+)(?:-(\d+))?$/.exec(source.trim());
  if (!m) return undefined;
  const line = Number(m[2]);
  const end = m[3] ? Number(m[3]) : undefined;
  return { file: m[1], line: Math.max(1, line), ...(end && end >= line ? { endLine: end } : {}) };
}
