/**
 * Whether a proposal's evidence holds: every cited `path:line` is opened through the safe reader, the
 * file must exist and the line must be inside it, and quoted code must be found in the cited files.
 * A card that cites a line that does not show its claim misleads the person approving it more than a card with no
 * source, so these checks make validation fail, with what the file really holds at the cited line.
 */
import { readRepoFile } from '../../ground/files';
import type { Workspace } from '../../ground/workspace';
import { type CandidateInput, KNOWLEDGE_TYPES } from './types';
import { type FieldIssue, validateCandidate, validationOf, type ValidationReport, validationReport } from './validate';

/** `path:line` or `path:line-line`; a bare path is checked for existence only. */
const CITED = /^(.+?)(?::(\d+)(?:-(\d+))?)?$/;
/** Sources opened per card: the schema allows 50 in each of two lists; more adds cost, not evidence. */
const MAX_SOURCES = 40;
/** A quoted line shorter than this (a brace, `end`, `}` `)`) proves nothing about where it came from. */
const MIN_QUOTED_CHARS = 6;
/** Lines that stand for omitted code in a quote: three dots or an ellipsis, alone or as a comment. */
const ELISION = /^(?:\/\/|#|--|\/\*)?\s*(?:\.\.\.|…)\s*(?:\*\/)?$/;
/** A whole-line comment in a quote is the author's annotation ("// Used in a.ts:14"), not a claim about the file; `#include`-like directives are code. */
const COMMENT_LINE = /^(?:\/\/|--|\/\*|\*|#(?!\s*(?:include|import|define|if|ifdef|ifndef|else|endif|pragma|undef)\b))/;
/** Kinds whose `code` is a diagram or a listing in words, not lines copied from a file. */
const DESCRIBED_NOT_QUOTED = new Set(['architecture', 'module-dependency', 'project-profile']);

/**
 * The one verdict on a proposal that every tool answers with (submit, validate, update, enrich): its
 * fields as validateCandidate sees them, and whether its sources hold.
 */
export async function assessCandidate(
  ws: Workspace,
  c: CandidateInput,
  signal?: AbortSignal,
  files?: SourceFiles,
): Promise<ValidationReport & { sourceIssues: FieldIssue[] }> {
  return verdictWith(c, await sourceIssues(ws, c, signal, files));
}

/** The verdict as tools answer it: without the source issues' separate list (they are among `issues`). */
export function answeredVerdict(v: ValidationReport): ValidationReport {
  return { ok: v.ok, score: v.score, missing: v.missing, weak: v.weak, issues: v.issues };
}

/** Lines of the files already opened in one call, by path (`undefined`: not there): cards of a batch cite the same files. */
export type SourceFiles = Map<string, Promise<string[] | undefined>>;

/** The verdict on `c`'s fields with the source issues already found (the sources were read once, before a write). */
export function verdictWith(
  c: CandidateInput,
  sources: FieldIssue[],
): ValidationReport & { sourceIssues: FieldIssue[] } {
  return { ...validationReport(validationOf([...validateCandidate(c).issues, ...sources])), sourceIssues: sources };
}

interface OpenedSource {
  cited: string;
  path: string;
  line?: number;
  lines?: string[];
}

/** The issues of a proposal's evidence; empty when every source holds (or it cites none). */
export async function sourceIssues(
  ws: Workspace,
  c: CandidateInput,
  signal?: AbortSignal,
  files: SourceFiles = new Map(),
): Promise<FieldIssue[]> {
  const cited = [
    ...new Set([...(c.reasoning?.sources ?? []), ...(c.sourceFiles ?? [])].map((s) => s.trim()).filter(Boolean)),
  ].slice(0, MAX_SOURCES);
  if (!cited.length) return [];
  const opened = await Promise.all(cited.map((s) => openSource(ws, s, files, signal)));
  const issues: FieldIssue[] = [];
  for (const o of opened) {
    if (!o.lines) {
      issues.push({
        field: 'reasoning.sources',
        severity: 'invalid',
        message:
          `${o.path} does not exist in the workspace (cited as ${o.cited}). Cite a file that is there, relative to the workspace root.`,
      });
    } else if (o.line !== undefined && (o.line < 1 || o.line > o.lines.length)) {
      issues.push({
        field: 'reasoning.sources',
        severity: 'invalid',
        message:
          `${o.path} has ${o.lines.length} lines; line ${o.line} (cited as ${o.cited}) is past its end. Cite the line that shows the claim.`,
      });
    }
  }
  const quote = quoteIssue(c, opened.filter((o) => o.lines && (o.line === undefined || o.line <= o.lines.length)));
  if (quote) issues.push(quote);
  return issues;
}

async function openSource(
  ws: Workspace,
  cited: string,
  files: SourceFiles,
  signal?: AbortSignal,
): Promise<OpenedSource> {
  const m = CITED.exec(cited)!;
  const path = m[1];
  const line = m[2] === undefined ? undefined : Number(m[2]);
  let lines = files.get(path);
  if (!lines) {
    // Missing, outside the workspace, a link out, too large: for evidence all mean "not there".
    lines = readRepoFile(ws.root, path, { kind: 'source', signal }).then((f) => f.text.split(/\r?\n/), () => undefined);
    files.set(path, lines);
  }
  return { cited, path, line, lines: await lines };
}

/** The quoted code must be in the cited files: each substantive line of it, compared without whitespace. */
function quoteIssue(c: CandidateInput, opened: OpenedSource[]): FieldIssue | undefined {
  const type = c.knowledgeType;
  if (
    !c.code?.trim() || !opened.length || (type && (KNOWLEDGE_TYPES[type] === 'fact' || DESCRIBED_NOT_QUOTED.has(type)))
  ) return undefined;
  const quoted = c.code.split(/\r?\n/).map((l) => l.trim()).filter((l) =>
    !ELISION.test(l) && !COMMENT_LINE.test(l) && squash(l).length >= MIN_QUOTED_CHARS
  );
  if (!quoted.length) return undefined;
  const files = opened.map((o) => squash(o.lines!.join('\n')));
  const absent = quoted.filter((l) => !files.some((f) => f.includes(squash(l))));
  if (!absent.length) return undefined;
  const at = opened.find((o) => o.line !== undefined);
  const shows = at ? ` ${at.path}:${at.line} shows: \`${clip(at.lines![at.line! - 1].trim())}\`.` : '';
  return {
    field: 'code',
    severity: 'invalid',
    message: `The code quotes ${absent.length} of its ${quoted.length} lines from none of the cited files, e.g. \`${
      clip(absent[0])
    }\`.${shows} Quote the code as the file has it (mark omissions with a line "..."), or cite the file that holds it.`,
  };
}

function squash(s: string): string {
  return s.replace(/\s+/g, '');
}

function clip(s: string): string {
  return s.length > 120 ? s.slice(0, 117) + '…' : s;
}
