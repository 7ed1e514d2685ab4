import { parseFrontMatter } from '../../ground/files';
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
 * Reads the YAML frontmatter of a SKILL.md with the safe YAML reader, leniently: a value holding an unquoted
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
  let parsed = parseFrontMatter(text);
  if (!parsed.ok) {
    const repaired = quoteUnquotedColons(text);
    const retry = repaired.lines.length ? parseFrontMatter(repaired.text) : parsed;
    if (!retry.ok) {
      const { message, line } = parsed.problem;
      const problem: SkillProblem = { severity: 'error', rule: 'frontmatter-yaml', message, line };
      return { ok: false, reason: `unreadable YAML frontmatter${line ? ` (line ${line})` : ''}: ${message}`, problems: [problem] };
    }
    for (const line of repaired.lines) {
      problems.push({ severity: 'warning', rule: 'frontmatter-unquoted-colon', message: 'This value contains `: ` without quotes, which is not valid YAML; it was read as a quoted string. Put the value in quotes.', line });
    }
    parsed = retry;
  }
  const { data, body, bodyLine } = parsed.value;
  return { ok: true, value: { data, body, bodyLine, fieldLines: fieldLinesOf(text), problems } };
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
