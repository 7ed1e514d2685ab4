import type { Violation } from './rule';

/**
 * Applies the fixes of the given violations to `text` (those with a `fix`), from the end backwards;
 * a fix that overlaps one already applied is skipped, like ESLint's fixer. Returns the new text and
 * how many fixes were applied.
 */
export function applyFixes(
  text: string,
  violations: readonly Violation[],
): { text: string; applied: number; skipped: number } {
  const fixes = violations.filter((v) => v.fix !== undefined).sort((a, b) =>
    b.startOffset - a.startOffset || fixEnd(b) - fixEnd(a)
  );
  let out = text;
  let applied = 0;
  let skipped = 0;
  let limit = Infinity;
  for (const v of fixes) {
    const end = fixEnd(v);
    if (end > limit || text.slice(v.startOffset, v.endOffset) !== v.matchedText) {
      skipped++;
      continue;
    }
    out = out.slice(0, v.startOffset) + v.fix + out.slice(end);
    limit = v.startOffset;
    applied++;
  }
  return { text: out, applied, skipped };
}

/** Where the text a violation's fix replaces ends. */
function fixEnd(v: Violation): number {
  return v.fixLength !== undefined ? v.startOffset + v.fixLength : v.endOffset;
}

/** The comment that disables a rule on the next line, indented like that line. */
export function disableCommentFor(lineText: string, ruleId: string, lineComment: string): string {
  const indent = /^[ \t]*/.exec(lineText)?.[0] ?? '';
  return `${indent}${lineComment} autosnippet-guard-disable-next-line ${ruleId}\n`;
}
