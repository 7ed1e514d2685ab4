import { AutoSnippetError, ErrorCode } from '../../ground/kernel/errors';
import type { Violation } from './rule';

/**
 * The lines of a file an edit added or changed, from a unified diff (`git diff`, an agent's patch)
 * or from line ranges: what a check of "only what I just wrote" reports on. Line numbers are 1-based
 * and count in the new version of the file.
 */
export type ChangedLines = Set<number>;

/**
 * The new-file numbers of the `+` lines of `diff`, for the file `path` when the diff covers several
 * (matched on the end of its `+++` name); a diff of one file needs no path.
 */
export function changedLinesOfDiff(diff: string, path?: string): ChangedLines {
  const files = splitFiles(diff);
  const wanted = files.length === 1 && !path
    ? files[0]
    : files.find((f) =>
      path !== undefined && f.name !== undefined
      && (f.name === path || f.name.endsWith(`/${path}`) || path.endsWith(`/${f.name}`))
    );
  if (!wanted) {
    const names = files.map((f) => f.name ?? '(unnamed)').slice(0, 10).join(', ');
    throw new AutoSnippetError(
      ErrorCode.InvalidInput,
      `The diff has no changes to ${path ?? 'a single file'}${names ? ` (it changes ${names})` : ''}.`,
      'Pass the diff of the file you check, or its changed line ranges in `changedLines`.',
    );
  }
  const lines: ChangedLines = new Set();
  let next = 0;
  for (const line of wanted.body) {
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk) next = Number(hunk[1]);
    else if (next === 0 || line.startsWith('\\')) continue;
    else if (line.startsWith('+')) lines.add(next++);
    else if (!line.startsWith('-')) next++;
  }
  return lines;
}

/** Line ranges (`{ start, end }`, inclusive) as a set. */
export function changedLinesOfRanges(ranges: readonly { start: number; end?: number }[]): ChangedLines {
  const lines: ChangedLines = new Set();
  for (const r of ranges) for (let l = r.start; l <= (r.end ?? r.start) && l - r.start < 100_000; l++) lines.add(l);
  return lines;
}

/** Whether a finding touches a changed line (a finding over several lines counts when any of them changed). */
export function onChangedLine(v: Violation, lines: ChangedLines): boolean {
  for (let l = v.start.line; l <= v.end.line; l++) if (lines.has(l)) return true;
  return false;
}

/** The diff's files: a `--- `/`+++ ` header pair starts one (a removed line `-- x` shows as `--- x` without a `+++` after it). */
function splitFiles(diff: string): { name?: string; body: string[] }[] {
  const lines = diff.replace(/\r\n/g, '\n').split('\n');
  const files: { name?: string; body: string[] }[] = [];
  let current: { name?: string; body: string[] } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith('--- ') && lines[i + 1]?.startsWith('+++ ')) {
      current = { name: lines[i + 1].slice(4).split('\t')[0].replace(/^b\//, '').trim(), body: [] };
      files.push(current);
      i++;
      continue;
    }
    if (!current && line.startsWith('@@')) files.push(current = { body: [] });
    current?.body.push(line);
  }
  return files;
}
