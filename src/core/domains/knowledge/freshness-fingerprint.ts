/**
 * Fingerprints: what a recipe records about the code it cites, so that a fresh clone can tell when
 * that code moved on. For each `path:line` (or `path:start-end`) source, a short hash of the cited
 * lines; for the recipe's code, a hash of the excerpt when it was taken from a cited file. Hashes
 * ignore indentation and blank lines, so reformatting is not a change.
 */
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { readRepoFile } from '../../ground/files';
import { ErrorCode, isAutoSnippetError } from '../../ground/kernel/errors';
import type { Fingerprints } from './types';

/** A cited place: a workspace-relative file and, usually, a line or a range of lines (1-based, inclusive). */
export interface SourceRef {
  raw: string;
  path: string;
  start?: number;
  end?: number;
}

/** `src/a.ts:12`, `src/a.ts:12-20`, `src/a.ts:12:5` (column ignored), `src/a.ts#L12-L20`, `src/a.ts`. */
export function parseSourceRef(raw: string): SourceRef | undefined {
  const text = raw.trim().replace(/^`|`$/g, '');
  if (!text || /^[a-z][a-z0-9+.-]*:\/\//i.test(text) || /\s/.test(text)) return undefined;
  const m = /^(.+?)(?::(\d+)(?:-(\d+)|:\d+)?|#L(\d+)(?:-L?(\d+))?)?$/.exec(text);
  if (!m) return undefined;
  const file = m[1].replace(/\\/g, '/').replace(/^\.\//, '');
  if (file.startsWith('/') || /^[a-z]:\//i.test(file) || file.split('/').includes('..')) return undefined;
  const start = Number(m[2] ?? m[4]) || undefined;
  const end = Number(m[3] ?? m[5]) || undefined;
  if (start === undefined) return { raw, path: file };
  return { raw, path: file, start, end: end !== undefined && end >= start ? end : start };
}

/** The reference text for a file and lines, in the form the recipe used (`path:12` or `path:12-20`). */
export function formatSourceRef(file: string, start?: number, end?: number): string {
  if (start === undefined) return file;
  return end !== undefined && end > start ? `${file}:${start}-${end}` : `${file}:${start}`;
}

/** One line as hashes see it: no indentation, single spaces. */
export function normalizeLine(line: string): string {
  return line.trim().replace(/\s+/g, ' ');
}

/** Lines of a text, with CRLF and a BOM read as plain lines. */
export function splitLines(text: string): string[] {
  return text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').split('\n');
}

/** The hash of some lines: their non-blank normalized form, sha256, 12 hex digits. */
export function hashLines(lines: readonly string[]): string {
  return hashNormalized(lines.map(normalizeLine).filter(Boolean));
}

function hashNormalized(normalized: readonly string[]): string {
  return createHash('sha256').update(normalized.join('\n')).digest('hex').slice(0, 12);
}

/** A source file read once per check: its lines and their normalized form. */
export class SourceText {
  readonly lines: string[];
  private normalizedLines?: string[];
  constructor(text: string) {
    this.lines = splitLines(text);
    if (this.lines.length > 1 && this.lines[this.lines.length - 1] === '') this.lines.pop();
  }

  get normalized(): string[] {
    return (this.normalizedLines ??= this.lines.map(normalizeLine));
  }

  /** The hash of lines start..end (1-based, inclusive), or undefined when they run past the end. */
  hashAt(start: number, end: number): string | undefined {
    if (start < 1 || end > this.lines.length) return undefined;
    return hashNormalized(this.normalized.slice(start - 1, end).filter(Boolean));
  }

  text(start: number, end: number): string {
    return this.lines.slice(Math.max(0, start - 1), Math.min(this.lines.length, end)).join('\n');
  }

  /**
   * Where a block of `length` lines with this hash is now, nearest to `near` first. A block whose
   * content is blank says nothing about where it went, so it is never found.
   */
  findBlock(hash: string, length: number, near: number): { start: number; end: number; matches: number } | undefined {
    const norm = this.normalized;
    let best: number | undefined;
    let matches = 0;
    for (let i = 0; i + length <= norm.length; i++) {
      const block = norm.slice(i, i + length).filter(Boolean);
      if (block.length === 0 || hashNormalized(block) !== hash) continue;
      matches++;
      if (best === undefined || Math.abs(i + 1 - near) < Math.abs(best - near)) best = i + 1;
    }
    return best === undefined ? undefined : { start: best, end: best + length - 1, matches };
  }

  /** Where the lines of an excerpt appear, in order and without gaps (blank lines aside), nearest to `near`. */
  findExcerpt(excerpt: string, near = 1): { start: number; end: number } | undefined {
    const wanted = splitLines(excerpt).map(normalizeLine).filter(Boolean);
    if (wanted.length === 0) return undefined;
    const norm = this.normalized;
    const nonBlank: number[] = [];
    norm.forEach((l, i) => l && nonBlank.push(i));
    let best: { start: number; end: number } | undefined;
    for (let k = 0; k + wanted.length <= nonBlank.length; k++) {
      if (norm[nonBlank[k]] !== wanted[0]) continue;
      let ok = true;
      for (let j = 1; j < wanted.length && ok; j++) ok = norm[nonBlank[k + j]] === wanted[j];
      if (!ok) continue;
      const found = { start: nonBlank[k] + 1, end: nonBlank[k + wanted.length - 1] + 1 };
      if (!best || Math.abs(found.start - near) < Math.abs(best.start - near)) best = found;
    }
    return best;
  }
}

export type SourceRead =
  | { ok: true; text: SourceText; stamp: string }
  /** `missing`: no file there (it may have moved); `unreadable`: the file service refused it, `problem` says why. */
  | { ok: false; reason: 'missing' | 'unreadable'; problem: string; stamp: string };

/**
 * Reads a cited file through the workspace's one safe reader (regular files only, real path inside
 * the workspace, the size cap of source files, a deadline). `stamp` (mtime and size) lets a tracker
 * notice the next change without reading; `known` is the text read before, returned as it is when
 * the stamp did not change.
 */
export async function readSource(
  root: string,
  rel: string,
  known?: { stamp: string; text: SourceText },
): Promise<SourceRead> {
  const st = await fsp.stat(path.join(root, rel)).catch(() => undefined);
  if (!st) return { ok: false, reason: 'missing', problem: `${rel} does not exist.`, stamp: 'missing' };
  const stamp = sourceStamp(st);
  // Unchanged since it was last read (and admitted by the reader then): no read.
  if (known && known.stamp === stamp && st.isFile()) return { ok: true, text: known.text, stamp };
  try {
    return { ok: true, text: new SourceText((await readRepoFile(root, rel, { kind: 'source' })).text), stamp };
  } catch (e) {
    if (isAutoSnippetError(e) && e.code === ErrorCode.NotFound) {
      return { ok: false, reason: 'missing', problem: e.message, stamp: 'missing' };
    }
    return { ok: false, reason: 'unreadable', problem: (e as Error).message, stamp };
  }
}

export function sourceStamp(st: { mtimeMs: number; size: number }): string {
  return `${st.mtimeMs}:${st.size}`;
}

/**
 * The fingerprints of a recipe's sources and code as they are on disk now. `keep` holds fingerprints
 * already recorded: those are kept (a publish must not make a stale recipe look fresh), so only
 * sources that have none get one. Sources that cannot be read get none.
 */
export async function computeFingerprints(
  root: string,
  recipe: { sourceFiles?: string[]; code?: string },
  keep?: Fingerprints,
): Promise<Fingerprints | undefined> {
  const sources: Record<string, string> = {};
  const texts: SourceText[] = [];
  for (const raw of recipe.sourceFiles ?? []) {
    const ref = parseSourceRef(raw);
    if (!ref) continue;
    const read = await readSource(root, ref.path);
    if (!read.ok) continue;
    texts.push(read.text);
    const kept = keep?.sources?.[raw];
    if (kept) sources[raw] = kept;
    else if (ref.start !== undefined) {
      const hash = read.text.hashAt(ref.start, ref.end ?? ref.start);
      if (hash) sources[raw] = hash;
    }
  }
  let code = keep?.code;
  if (!code && recipe.code && texts.some((t) => t.findExcerpt(recipe.code!))) code = hashLines(splitLines(recipe.code));
  const out: Fingerprints = {};
  if (code) out.code = code;
  if (Object.keys(sources).length) out.sources = sources;
  return out.code || out.sources ? out : undefined;
}
