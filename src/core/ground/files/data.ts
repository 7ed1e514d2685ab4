/**
 * Safe YAML, front matter and JSON for what a repository holds (recipes, SKILL.md, guard rule files).
 * js-yaml (its default safe schema: no code, no custom tags) parses within a nesting limit; aliases
 * come back as shared references, so a "billion laughs" document stays small until something copies
 * it. The copy made here into plain data is that something, and it is bounded: how many aliases are
 * followed, how many values result, how deep. A document over a limit, or one that does not parse, is
 * a problem with a line, never a crash and never silence.
 */
import yaml from 'js-yaml';
import { ErrorCode } from '../kernel/errors';

export interface DataLimits {
  /** Nesting depth; default 64. */
  maxDepth?: number;
  /** Values once aliases are expanded; default 10,000 (real front matter has a few dozen). */
  maxValues?: number;
  /** Aliases of lists and mappings followed; default 100. */
  maxAliases?: number;
}

export interface ParseOptions extends DataLimits {
  /** What the text is, to start messages: "The front matter", ".autosnippet/guard/a.json". Default "The text". */
  subject?: string;
  /** Lines of the file before the text, so problems give the line in the file. */
  lineOffset?: number;
}

const LIMITS: Required<DataLimits> = { maxDepth: 64, maxValues: 10_000, maxAliases: 100 };

export interface DataProblem {
  /** INVALID_YAML or INVALID_JSON. */
  code: string;
  /** A sentence naming the subject, the line when known, and what is wrong. */
  message: string;
  /** 1-based line in the file, when known. */
  line?: number;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: DataProblem };

/** Parses YAML into plain JSON-like data (dates become ISO strings), within the limits. */
export function parseYaml(text: string, options: ParseOptions = {}): Parsed<unknown> {
  const subject = options.subject ?? 'The text';
  let raw: unknown;
  try {
    raw = yaml.load(
      text,
      { schema: yaml.DEFAULT_SCHEMA, maxDepth: options.maxDepth ?? LIMITS.maxDepth } as yaml.LoadOptions,
    );
  } catch (e) {
    const err = e as { reason?: string; message?: string; mark?: { line?: number } };
    const line = typeof err.mark?.line === 'number' ? err.mark.line + 1 + (options.lineOffset ?? 0) : undefined;
    const reason = clip(err.reason ?? String(err.message ?? e).split('\n')[0]);
    return problem(
      ErrorCode.InvalidYaml,
      `${subject} is not valid YAML${line ? ` at line ${line}` : ''}: ${reason}.`,
      line,
    );
  }
  const plain = toPlainData(raw, options);
  return typeof plain === 'string'
    ? problem(ErrorCode.InvalidYaml, `${subject} is refused as too complex: ${plain}.`)
    : { ok: true, value: plain.value };
}

/** Parses JSON within the same depth limit; a problem names the line. */
export function parseJson(text: string, options: ParseOptions = {}): Parsed<unknown> {
  const subject = options.subject ?? 'The text';
  const clean = text.replace(/^\uFEFF/, '');
  let raw: unknown;
  try {
    raw = JSON.parse(clean);
  } catch (e) {
    const message = String((e as Error).message).split('\n')[0];
    const at = /position (\d+)/.exec(message);
    const line = at
      ? clean.slice(0, Number(at[1])).split('\n').length
      : Number(/line (\d+)/.exec(message)?.[1]) || undefined;
    return problem(ErrorCode.InvalidJson, `${subject} is not valid JSON: ${clip(message)}.`, line);
  }
  // JSON has no aliases: its size is the file's, already capped by the reader.
  const plain = toPlainData(raw, { maxValues: Number.MAX_SAFE_INTEGER, ...options });
  return typeof plain === 'string'
    ? problem(ErrorCode.InvalidJson, `${subject} is refused as too complex: ${plain}.`)
    : { ok: true, value: plain.value };
}

/**
 * A copy of parsed data as plain values, or the reason it was refused (too deep, too many values
 * once aliases are expanded, too many aliases). Keys such as `__proto__` stay ordinary keys.
 */
export function toPlainData(value: unknown, limits: DataLimits = {}): { value: unknown } | string {
  const l = {
    maxDepth: limits.maxDepth ?? LIMITS.maxDepth,
    maxValues: limits.maxValues ?? LIMITS.maxValues,
    maxAliases: limits.maxAliases ?? LIMITS.maxAliases,
  };
  let values = 0;
  let aliases = 0;
  const seen = new Set<object>();
  const copy = (v: unknown, depth: number): unknown => {
    if (++values > l.maxValues) {
      throw new Refused(
        `it expands to more than ${l.maxValues} values (aliases that repeat content, or simply too much data)`,
      );
    }
    if (depth > l.maxDepth) throw new Refused(`it is nested more than ${l.maxDepth} levels deep`);
    if (v instanceof Date) return Number.isNaN(v.getTime()) ? String(v) : v.toISOString();
    if (v === null || typeof v !== 'object') return v;
    if (seen.has(v) && ++aliases > l.maxAliases) throw new Refused(`it uses more than ${l.maxAliases} aliases`);
    seen.add(v);
    if (Array.isArray(v)) return v.map((x) => copy(x, depth + 1));
    if (ArrayBuffer.isView(v)) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, copy(x, depth + 1)]));
  };
  try {
    return { value: copy(value, 0) };
  } catch (e) {
    if (e instanceof Refused) return e.message;
    throw e;
  }
}

class Refused extends Error {}

export interface FrontMatter {
  /** False when the text does not start with a `---` line: then `data` is empty and `body` is the text. */
  present: boolean;
  data: Record<string, unknown>;
  /** The text after the closing `---` line. */
  body: string;
  /** 1-based line where the body starts. */
  bodyLine: number;
}

/**
 * Splits and parses the YAML front matter of a Markdown file (text with `\n` line ends): a first line
 * `---`, YAML, a line `---`. Problems carry the line in the whole file.
 */
export function parseFrontMatter(text: string, limits: DataLimits = {}): Parsed<FrontMatter> {
  if (!/^---[ \t]*(\n|$)/.test(text)) return { ok: true, value: { present: false, data: {}, body: text, bodyLine: 1 } };
  const lines = text.split('\n');
  let close = -1;
  for (let i = 1; i < lines.length; i++) {
    if (/^---[ \t]*$/.test(lines[i])) {
      close = i;
      break;
    }
  }
  if (close < 0) return problem(ErrorCode.InvalidYaml, 'The frontmatter has no closing `---` line.', 1);
  const parsed = parseYaml(lines.slice(1, close).join('\n'), { ...limits, subject: 'The frontmatter', lineOffset: 1 });
  if (!parsed.ok) return parsed;
  const data = parsed.value ?? {};
  if (typeof data !== 'object' || Array.isArray(data)) {
    return problem(ErrorCode.InvalidYaml, 'The frontmatter must be a mapping of fields (`key: value` lines).', 2);
  }
  return {
    ok: true,
    value: {
      present: true,
      data: data as Record<string, unknown>,
      body: lines.slice(close + 1).join('\n'),
      bodyLine: close + 2,
    },
  };
}

/**
 * Front matter for a Markdown file: `---`, the fields as YAML, `---`. Lines are never folded, and a
 * string that would read back as another type (`yes`, `1.0`, a date) is quoted, so
 * `parseFrontMatter` gives back the same data.
 */
export function frontMatterText(data: Record<string, unknown>): string {
  return `---\n${yaml.dump(data, { lineWidth: -1 }).trim()}\n---\n`;
}

function problem(code: string, message: string, line?: number): { ok: false; problem: DataProblem } {
  return { ok: false, problem: { code, message, ...(line ? { line } : {}) } };
}

/** Parser messages quote the input; keep them to a readable size. */
function clip(s: string, max = 300): string {
  return s.length <= max ? s : `${s.slice(0, max)}…`;
}
