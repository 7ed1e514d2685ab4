import { isSnippetLanguage } from '../../ground/kernel/languages';
import { readRecipeGuard } from './guard-format';
import { type CandidateInput, KNOWLEDGE_TYPES } from './types';

export type IssueSeverity = 'missing' | 'weak' | 'invalid';

export interface FieldIssue {
  field: string;
  severity: IssueSeverity;
  message: string;
}

export interface Validation {
  /** False when a field is missing or invalid; weak fields alone still pass. */
  ok: boolean;
  /** 0..1: share of the checks passed. */
  score: number;
  issues: FieldIssue[];
}

const GENERIC_TITLES =
  /^(utils?|helpers?|misc|common|code|snippet|example|pattern|rule|function|class|test|todo|untitled)$/i;
/** A line that stands in for code: a marker alone, bare or after a comment opener. */
const PLACEHOLDER_LINE =
  /^(?:\/\/|#|--|\/\*|\*)?\s*(?:(?:todo|tbd|fixme|placeholder|xxx)(?=$|\s|:)|\.\.\.(?![\w$])|…)/i;
const COMMENT_LINE = /^(?:\/\/|#|--|\/\*|\*)/;
const REVIEWED_FIELDS = 12;
const SOURCE = /^[^\s:][^:]*:\d+(?:-\d+)?$/;

/**
 * Checks a proposal field by field and names each missing, weak or invalid one with what to do
 * about it. Deterministic; no model involved.
 */
/** The longest title a card keeps without a warning: what a list row shows whole. */
export const TITLE_MAX = 80;

export function validateCandidate(c: CandidateInput): Validation {
  const issues: FieldIssue[] = [];
  const check = (bad: boolean, field: string, severity: IssueSeverity, message: string) => {
    if (bad) issues.push({ field, severity, message });
    return !bad;
  };
  const title = c.title?.trim() ?? '';
  const kind = c.knowledgeType && Object.hasOwn(KNOWLEDGE_TYPES, c.knowledgeType)
    ? KNOWLEDGE_TYPES[c.knowledgeType]
    : undefined;

  if (
    check(!title, 'title', 'missing', 'Give it a title that names the practice, e.g. "Wrap HTTP calls in withRetry".')
  ) {
    check(
      title.length < 8,
      'title',
      'weak',
      `The title "${title}" is very short; say what the practice is in 8–${TITLE_MAX} characters.`,
    );
    check(
      title.length > TITLE_MAX,
      'title',
      'weak',
      `The title is ${title.length} characters; keep it under ${TITLE_MAX} and move details to the summary.`,
    );
    check(
      GENERIC_TITLES.test(title),
      'title',
      'weak',
      `"${title}" is too generic to find; name the specific practice.`,
    );
  }

  const summary = c.summary?.trim() ?? '';
  if (check(!summary, 'summary', 'missing', 'Add a summary: one or two sentences saying what to do and when.')) {
    check(
      summary.length < 20,
      'summary',
      'weak',
      'The summary is a fragment; write at least one full sentence (20+ characters).',
    );
    check(
      summary.length > 400,
      'summary',
      'weak',
      `The summary is ${summary.length} characters; keep it under 400 and put details in usageGuide.`,
    );
  }

  if (c.knowledgeType === undefined) {
    check(
      true,
      'knowledgeType',
      'weak',
      `No knowledgeType: "code-pattern" is assumed. One of: ${Object.keys(KNOWLEDGE_TYPES).join(', ')}.`,
    );
  } else {
    check(
      !kind,
      'knowledgeType',
      'invalid',
      `"${c.knowledgeType}" is not a knowledge type. Use one of: ${Object.keys(KNOWLEDGE_TYPES).join(', ')}.`,
    );
  }

  const code = c.code ?? '';
  if (kind !== 'fact') {
    if (
      check(
        !code.trim(),
        'code',
        'missing',
        `A ${kind ?? 'pattern'} shows the code: add the essential lines from the project (not a placeholder).`,
      )
    ) {
      check(
        isPlaceholder(code),
        'code',
        'weak',
        'The code looks like a placeholder; paste the real lines from the project.',
      );
      check(
        code.split('\n').length > 120,
        'code',
        'weak',
        `The code has ${code.split('\n').length} lines; keep the essential part (at most ~80 lines).`,
      );
    }
  }

  if (
    check(
      !c.language?.trim(),
      'language',
      'missing',
      'Name the language (a VS Code language id such as typescript, swift, python).',
    )
  ) {
    check(
      !isSnippetLanguage(c.language!.trim()) && c.language!.trim().toLowerCase() !== 'text',
      'language',
      'weak',
      `"${c.language}" is not a language AutoSnippet knows; use a VS Code language id (typescript, swift, kotlin…).`,
    );
  }
  check(
    !c.category?.trim(),
    'category',
    'missing',
    'Give it a category (the folder it is filed under), e.g. "networking" or "ui".',
  );
  if (c.trigger !== undefined) {
    check(
      !/^@?[\p{L}\p{N}_.-]+$/u.test(c.trigger.trim()),
      'trigger',
      'invalid',
      `The trigger "${c.trigger}" must be @ followed by letters, digits, _ . or - (no spaces), e.g. "@fetchWithRetry".`,
    );
  }
  check(!(c.tags && c.tags.length), 'tags', 'weak', 'Add a few tags (3–6 words people would search for).');
  check(
    !c.usageGuide?.trim(),
    'usageGuide',
    'weak',
    'Add a usage guide: when to use it, when not, and what to watch out for.',
  );
  // The recipe's Why section joins the rationale and reasoning.whyStandard, so either one fills it.
  check(
    !c.rationale?.trim() && !c.reasoning?.whyStandard?.trim(),
    'rationale',
    'weak',
    'Add the rationale: why the project does it this way.',
  );
  if (c.scope === 'target') {
    check(
      !c.target?.trim(),
      'target',
      'invalid',
      'A recipe with scope "target" names the target (package or module) in `target`.',
    );
  }

  const r = c.reasoning ?? {};
  const why = r.whyStandard?.trim() ?? '';
  if (
    check(
      !why,
      'reasoning.whyStandard',
      'missing',
      'Say why this is a standard of the project and not a one-off (how often it appears, who relies on it).',
    )
  ) {
    check(
      why.length < 30,
      'reasoning.whyStandard',
      'weak',
      'The reason is thin; name the evidence (e.g. "used in 14 of 16 API clients").',
    );
  }
  const sources = [...(r.sources ?? []), ...(c.sourceFiles ?? [])];
  if (
    check(
      sources.length === 0,
      'reasoning.sources',
      'missing',
      'Cite where the project does this, as `path:line` (e.g. "src/api/client.ts:42").',
    )
  ) {
    const bad = sources.filter((s) => !SOURCE.test(s.trim()));
    check(
      bad.length > 0,
      'reasoning.sources',
      'invalid',
      `Sources must be \`path:line\`; these are not: ${bad.slice(0, 3).join(', ')}.`,
    );
    check(
      sources.length < 2,
      'reasoning.sources',
      'weak',
      'One source is thin evidence for a standard; cite two or more places.',
    );
  }
  if (check(r.confidence === undefined, 'reasoning.confidence', 'weak', 'State a confidence between 0 and 1.')) {
    check(
      r.confidence! < 0.5,
      'reasoning.confidence',
      'weak',
      `The confidence is ${r.confidence}; a reviewer will want more evidence before approving.`,
    );
  }
  for (const [i, g] of (c.constraints?.guards ?? []).entries()) {
    for (const p of readRecipeGuard(g).problems) {
      check(true, `constraints.guards[${i}]${p.field ? `.${p.field}` : ''}`, 'invalid', `${p.message} ${p.hint}`);
    }
  }

  return validationOf(issues);
}

/** ok and score of a list of issues: each field costs at most 1 (missing or invalid) or 0.5 (weak), over the fields the review shows. */
export function validationOf(issues: FieldIssue[]): Validation {
  const penalty = new Map<string, number>();
  for (const i of issues) penalty.set(i.field, Math.max(penalty.get(i.field) ?? 0, i.severity === 'weak' ? 0.5 : 1));
  const cost = [...penalty.values()].reduce((a, b) => a + b, 0);
  const ok = !issues.some((i) => i.severity !== 'weak');
  return { ok, score: Math.round(Math.max(0, 1 - cost / REVIEWED_FIELDS) * 100) / 100, issues };
}

/** What every tool answers about a proposal's fields, so that no two tools disagree on what is missing. */
export interface ValidationReport extends Validation {
  /** Fields missing or invalid: `ok` is false exactly when this is not empty. */
  missing: string[];
  /** Fields present but thin: worth improving, not blocking. */
  weak: string[];
}

export function validationReport(v: Validation): ValidationReport {
  const missing = [...new Set(v.issues.filter((i) => i.severity !== 'weak').map((i) => i.field))];
  const weak = [
    ...new Set(v.issues.filter((i) => i.severity === 'weak' && !missing.includes(i.field)).map((i) => i.field)),
  ];
  return { ok: missing.length === 0, score: v.score, missing, weak, issues: v.issues };
}

/**
 * Whether code only stands in for code: every non-blank line is a comment or a marker (TODO, `...`),
 * and at least one is a marker. A real line of a project, however short (`strict = true`), has
 * content besides a marker, so it never counts, whatever its length.
 */
export function isPlaceholder(code: string): boolean {
  const lines = code.split('\n').map((l) => l.trim()).filter(Boolean);
  return lines.some((l) => PLACEHOLDER_LINE.test(l))
    && lines.every((l) => PLACEHOLDER_LINE.test(l) || COMMENT_LINE.test(l));
}

/** The fields an agent should fill in, in the order a reviewer cares about. */
export function missingFields(v: Validation): string[] {
  return [...new Set(v.issues.map((i) => i.field))];
}
