import matter from 'gray-matter';
import type { SkillProblem } from './types';

export interface Frontmatter {
  data: Record<string, unknown>;
  /** The text after the closing `---`. */
  body: string;
  /** 1-based line of SKILL.md where the body starts. */
  bodyLine: number;
  /** 1-based line of each key: top-level keys by name, keys under `metadata` as `metadata.<key>`. */
  fieldLines: Record<string, number>;
  problems: SkillProblem[];
}

export type FrontmatterResult = { ok: true; value: Frontmatter } | { ok: false; reason: string; problems: SkillProblem[] };

const OPEN = /^---[ \t]*\n/;
const CLOSE = /\n---[ \t]*(?:\n|$)/;

/** Normalizes line ends and strips a byte-order mark, so line numbers match what an editor shows. */
export function normalizeText(text: string): string {
  return text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
}

/**
 * Reads the YAML frontmatter of a SKILL.md with gray-matter, leniently: a value holding an unquoted
 * `: ` (which YAML reads as a nested mapping and rejects) is quoted and parsed again, with a warning.
 */
export function readFrontmatter(text: string): FrontmatterResult {
  if (!OPEN.test(text)) {
    const problem: SkillProblem = { severity: 'error', rule: 'frontmatter-missing', message: 'SKILL.md must start with YAML frontmatter between `---` lines (name and description).', line: 1 };
    return { ok: false, reason: 'no YAML frontmatter at the top of SKILL.md', problems: [problem] };
  }
  if (!CLOSE.test(text.slice(3))) {
    const problem: SkillProblem = { severity: 'error', rule: 'frontmatter-unclosed', message: 'The frontmatter has no closing `---` line.', line: 1 };
    return { ok: false, reason: 'the frontmatter has no closing `---` line', problems: [problem] };
  }
  const problems: SkillProblem[] = [];
  let parsed = tryMatter(text);
  if (!parsed.ok) {
    const repaired = quoteUnquotedColons(text);
    const retry = repaired.lines.length ? tryMatter(repaired.text) : parsed;
    if (!retry.ok) {
      const problem: SkillProblem = { severity: 'error', rule: 'frontmatter-yaml', message: `The frontmatter is not valid YAML: ${parsed.message}`, line: parsed.line };
      return { ok: false, reason: `unreadable YAML frontmatter${parsed.line ? ` (line ${parsed.line})` : ''}: ${parsed.message}`, problems: [problem] };
    }
    for (const line of repaired.lines) {
      problems.push({ severity: 'warning', rule: 'frontmatter-unquoted-colon', message: 'This value contains `: ` without quotes, which is not valid YAML; it was read as a quoted string. Put the value in quotes.', line });
    }
    parsed = retry;
  }
  const { data, content } = parsed;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    const problem: SkillProblem = { severity: 'error', rule: 'frontmatter-yaml', message: 'The frontmatter must be a YAML mapping of fields (name: …, description: …).', line: 2 };
    return { ok: false, reason: 'the frontmatter is not a mapping of fields', problems: [problem] };
  }
  const prefix = text.slice(0, text.length - content.length);
  return {
    ok: true,
    value: { data: data as Record<string, unknown>, body: content, bodyLine: countNewlines(prefix) + 1, fieldLines: fieldLinesOf(text), problems },
  };
}

type MatterAttempt = { ok: true; data: unknown; content: string } | { ok: false; message: string; line?: number };

function tryMatter(text: string): MatterAttempt {
  try {
    // Passing options (even empty ones) keeps gray-matter from caching every text it has seen.
    const file = matter(text, {});
    return { ok: true, data: file.data, content: file.content };
  } catch (e) {
    const err = e as { reason?: string; message?: string; mark?: { line?: number } };
    // The raw matter starts right after the opening `---`, so its line 0 is line 1 of the file.
    const line = typeof err.mark?.line === 'number' ? err.mark.line + 1 : undefined;
    return { ok: false, message: err.reason ?? String(err.message ?? e).split('\n')[0], line };
  }
}

const KEY_VALUE = /^(\s*(?:-\s+)?)([A-Za-z0-9_.-]+):[ \t]+(.*?)\s*$/;

/** Quotes plain scalar values that contain `: ` or end with `:`. Returns the lines (1-based) it changed. */
export function quoteUnquotedColons(text: string): { text: string; lines: number[] } {
  const lines = text.split('\n');
  const end = frontmatterEndIndex(lines);
  const changed: number[] = [];
  for (let i = 1; i < end; i++) {
    const m = KEY_VALUE.exec(lines[i]);
    if (!m) continue;
    const value = m[3];
    if (!value || /^["'[{|>&*!%@`#]/.test(value)) continue;
    if (!/:(\s|$)/.test(value)) continue;
    lines[i] = `${m[1]}${m[2]}: ${JSON.stringify(value)}`;
    changed.push(i + 1);
  }
  return { text: lines.join('\n'), lines: changed };
}

function frontmatterEndIndex(lines: string[]): number {
  for (let i = 1; i < lines.length; i++) if (/^---[ \t]*$/.test(lines[i])) return i;
  return lines.length;
}

function fieldLinesOf(text: string): Record<string, number> {
  const lines = text.split('\n');
  const end = frontmatterEndIndex(lines);
  const out: Record<string, number> = {};
  let top = '';
  for (let i = 1; i < end; i++) {
    const topKey = /^([A-Za-z0-9_.-]+)\s*:/.exec(lines[i]);
    if (topKey) {
      top = topKey[1];
      out[top] ??= i + 1;
      continue;
    }
    const nested = /^\s+([A-Za-z0-9_.-]+)\s*:/.exec(lines[i]);
    if (nested && top === 'metadata') out[`metadata.${nested[1]}`] ??= i + 1;
  }
  return out;
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 10) n++;
  return n;
}
