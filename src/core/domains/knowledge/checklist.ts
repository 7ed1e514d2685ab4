import type { CandidateInput } from './types';
import { type IssueSeverity, validateCandidate } from './validate';

/** The fields of the review panel's edit form, in the order the form shows them. */
export const REVIEW_FORM_FIELDS = [
  'title',
  'summary',
  'knowledgeType',
  'whyStandard',
  'usageGuide',
  'trigger',
  'category',
  'language',
  'code',
] as const;
export type ReviewFormField = (typeof REVIEW_FORM_FIELDS)[number];

export interface ChecklistItem {
  /** The form field that clears the item when it is filled well. */
  field: ReviewFormField;
  severity: IssueSeverity;
  /** The validation's own words (English); adapters show their translation by field and severity. */
  message: string;
}

/** Which form field answers each validated field; fields absent here have no control in the form. */
const FORM_FIELD_OF: Record<string, ReviewFormField> = {
  title: 'title',
  summary: 'summary',
  knowledgeType: 'knowledgeType',
  'reasoning.whyStandard': 'whyStandard',
  rationale: 'whyStandard',
  usageGuide: 'usageGuide',
  trigger: 'trigger',
  category: 'category',
  language: 'language',
  code: 'code',
};

/**
 * What to do before approving, one item per form field at most, computed from the fields the form
 * has: an item the form cannot clear (sources, tags, confidence) is not on the list. The form's one
 * "why" field fills the recipe's Why section, which is the rationale and the reason joined, so
 * either one satisfies both.
 */
export function reviewChecklist(c: CandidateInput): ChecklistItem[] {
  const why = c.reasoning?.whyStandard?.trim() || c.rationale?.trim() || '';
  const v = validateCandidate({ ...c, rationale: why, reasoning: { ...c.reasoning, whyStandard: why } });
  const items = new Map<ReviewFormField, ChecklistItem>();
  for (const issue of v.issues) {
    const field = Object.hasOwn(FORM_FIELD_OF, issue.field) ? FORM_FIELD_OF[issue.field] : undefined;
    if (!field) continue;
    const had = items.get(field);
    // One item per field: the strongest problem speaks for it.
    if (!had || (had.severity === 'weak' && issue.severity !== 'weak')) {
      items.set(field, { field, severity: issue.severity, message: issue.message });
    }
  }
  return REVIEW_FORM_FIELDS.flatMap((f) => (items.has(f) ? [items.get(f)!] : []));
}
