/**
 * The code an answer proposes, checked with guard before the person sees it. Each fenced block is an
 * edit: a ```diff block is checked on its added lines only (the new side of its hunks, with the
 * lines it adds as `changedLines`), any other block as new code in its language. Findings that remain
 * become one correction the model answers once (see `reviewAnswer` in react.ts).
 */

/** One edit as guard_check takes it. */
export interface AnswerEdit {
  code: string;
  language: string;
  path?: string;
  /** Lines (1-based, inclusive) the edit adds; absent: every line is new. */
  changedLines?: { start: number; end: number }[];
}

export interface AnswerFinding {
  ruleId: string;
  severity: string;
  message: string;
  start: { line: number; column: number };
  matchedText?: string;
  suggestion?: string;
}

/** Runs guard_check on one edit (the adapter wires it to the catalog). */
export type AnswerEditCheck = (edit: AnswerEdit, signal?: AbortSignal) => Promise<AnswerFinding[]>;

/** What the review asks the model, and how many findings it names. */
export interface AnswerReview {
  prompt: string;
  findings: number;
}

/** Fence languages as people write them, to the ids guard_check takes (it also knows ts, py, rs…). */
const FENCE_LANGUAGES: Record<string, string> = { typescript: 'typescript', tsx: 'typescriptreact', golang: 'go' };
/** Fences that hold no code guard checks. */
const NOT_CODE = new Set([
  '',
  'text',
  'txt',
  'markdown',
  'md',
  'json',
  'yaml',
  'yml',
  'sh',
  'bash',
  'shell',
  'console',
  'action',
]);
const SEVERE = new Set(['error', 'warning']);
const MAX_EDITS = 10;
const MAX_LISTED = 12;

/** The edits an answer proposes: its fenced code blocks (a path may follow the language: ```ts src/a.ts). */
export function editsInAnswer(answer: string, languageOfPath: (p: string) => string | undefined): AnswerEdit[] {
  const edits: AnswerEdit[] = [];
  for (const m of answer.matchAll(/^(`{3,}|~{3,})[ \t]*([^\s`]*)[ \t]*([^\s`]*)[^\n]*\n([\s\S]*?)^\1[ \t]*$/gm)) {
    const info = m[2].toLowerCase();
    const body = m[4].replace(/\n$/, '');
    if (info === 'diff' || info === 'patch') edits.push(...diffEdits(body, languageOfPath));
    else if (!NOT_CODE.has(info)) {
      const named = m[3] || undefined;
      edits.push({ code: body, language: FENCE_LANGUAGES[info] ?? info, ...(named ? { path: named } : {}) });
    }
    if (edits.length >= MAX_EDITS) break;
  }
  return edits.slice(0, MAX_EDITS);
}

/** A unified diff's new side, per file: its hunks' context and added lines, the added ones as changed. */
function diffEdits(diff: string, languageOfPath: (p: string) => string | undefined): AnswerEdit[] {
  const out: AnswerEdit[] = [];
  let current: { path: string; lines: string[]; added: number[] } | undefined;
  const flush = () => {
    const language = current && languageOfPath(current.path);
    if (current && language && current.added.length) {
      out.push({
        code: current.lines.join('\n'),
        language,
        path: current.path,
        changedLines: current.added.map((n) => ({ start: n, end: n })),
      });
    }
  };
  for (const line of diff.split('\n')) {
    const file = /^\+\+\+ (?:b\/)?(\S+)/.exec(line);
    if (file) {
      flush();
      current = { path: file[1], lines: [], added: [] };
    } else if (!current || line.startsWith('--- ') || line.startsWith('@@') || line.startsWith('\\')) continue;
    else if (line.startsWith('+')) {
      current.lines.push(line.slice(1));
      current.added.push(current.lines.length);
    } else if (!line.startsWith('-')) current.lines.push(line.slice(1));
  }
  flush();
  return out;
}

/**
 * Checks an answer's edits; undefined when guard finds nothing worth a correction (errors and
 * warnings count; hints and information do not), else the correction for the model.
 */
export async function reviewAnswerEdits(
  answer: string,
  check: AnswerEditCheck,
  languageOfPath: (p: string) => string | undefined,
  signal?: AbortSignal,
): Promise<AnswerReview | undefined> {
  const found: { edit: AnswerEdit; index: number; finding: AnswerFinding }[] = [];
  const edits = editsInAnswer(answer, languageOfPath);
  for (const [index, edit] of edits.entries()) {
    let findings: AnswerFinding[];
    try {
      findings = await check(edit, signal);
    } catch {
      // A block guard cannot read (a language it does not know) is not the model's to fix.
      continue;
    }
    for (const finding of findings) if (SEVERE.has(finding.severity)) found.push({ edit, index, finding });
  }
  if (!found.length) return undefined;
  const listed = found.slice(0, MAX_LISTED).map(({ edit, index, finding: f }) =>
    `- block ${index + 1}${
      edit.path ? ` (${edit.path})` : ''
    }, line ${f.start.line}, column ${f.start.column}: ${f.ruleId}: ${f.message}${
      f.matchedText ? ` (\`${f.matchedText.slice(0, 80)}\`)` : ''
    }${f.suggestion && f.suggestion !== f.message ? ` Instead: ${f.suggestion}` : ''}`
  );
  return {
    findings: found.length,
    prompt: [
      `The project's guard rules report ${found.length} problem${
        found.length === 1 ? '' : 's'
      } in the code of your answer:`,
      ...listed,
      ...(found.length > MAX_LISTED ? [`- and ${found.length - MAX_LISTED} more`] : []),
      'Fix them, then give your whole answer again (the person has not seen it yet). If a finding is intended, keep the code and say why in one sentence.',
    ].join('\n'),
  };
}
