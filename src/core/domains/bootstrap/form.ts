// The form a reviewer can read: titles and summaries within bounds, lists of names that stop in
// time, triggers from the subject.

export const MAX_TITLE = 100;
export const MAX_SUMMARY = 300;

/** `` `a`, `b`, `c` and 4 more ``: as many names as fit in `budget` characters (at least one). */
export function nameList(names: readonly string[], budget = 60, code = true, weights?: readonly number[]): string {
  const shown: string[] = [];
  let used = 0;
  for (const n of names) {
    const item = code ? `\`${n}\`` : n;
    if (shown.length > 0 && used + item.length + 2 > budget) break;
    shown.push(item);
    used += item.length + 2;
  }
  // With weights, "and N more" counts what the hidden names stand for (a name shared by two types is two).
  const rest = weights ? weights.slice(shown.length).reduce((a, b) => a + b, 0) : names.length - shown.length;
  if (rest === 0) {
    return shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}` : shown.join('');
  }
  return `${shown.join(', ')} and ${rest} more`;
}

/**
 * Each path by its shortest tail of folders that no other path of `among` shares (`order/models.py`,
 * `locks.py`); `among` defaults to the paths themselves. Cost: paths × among × depth.
 */
export function distinctTails(paths: readonly string[], among: readonly string[] = paths): string[] {
  const tail = (segments: string[], n: number) => segments.slice(-n).join('/');
  return paths.map((p) => {
    const segments = p.split('/');
    const others = among.filter((o) => o !== p).map((o) => o.split('/'));
    for (let n = 1; n < segments.length; n++) {
      const mine = tail(segments, n);
      if (!others.some((o) => tail(o, n) === mine)) return mine;
    }
    return p;
  });
}

/** Cuts text to `max` characters at a word boundary, with an ellipsis when cut; never inside a backtick span. */
export function fit(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  let cut = t.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  if (space > max * 0.5) cut = cut.slice(0, space);
  // An odd number of backticks means a code span was cut open: drop it.
  if ((cut.match(/`/g) ?? []).length % 2 === 1) cut = cut.slice(0, cut.lastIndexOf('`')).trimEnd();
  return cut.replace(/[\s,;:(—-]+$/, '') + '…';
}

/** A summary within bounds: whole sentences while they fit, else a cut at a word. */
export function fitSummary(text: string, max = MAX_SUMMARY): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  // Sentences end at `.`, `!` or `?` followed by a space: `tsconfig.build.json` is one word.
  const sentences = t.split(/(?<=[.!?])\s+/);
  let out = '';
  for (const s of sentences) {
    if ((out ? `${out} ${s}` : s).length > max) break;
    out = out ? `${out} ${s}` : s;
  }
  return out || fit(t, max);
}

/** The shortest path a reader still recognises: the last two segments when the path is long. */
export function shortPath(p: string, max = 48): string {
  if (p.length <= max) return p;
  const parts = p.split('/');
  return parts.length > 2 ? `…/${parts.slice(-2).join('/')}` : p;
}

/** A line that imports names (`import`, `use`, `#import`, `from … import`): it names a type without using it. */
export const IMPORT_LINE =
  /^\s*(?:import|@import|#import|#include|(?:pub(?:\([^)]*\))?\s+)?use|from\s+\S+\s+import|using)\b/;

/** An identifier for a pattern: `$` in JS names taken literally. */
export const escapeName = (name: string): string => name.replace(/\$/g, '\\$');

/** A pattern for an identifier as a whole word. */
export function wordPattern(name: string): RegExp {
  return new RegExp(`\\b${escapeName(name)}\\b`);
}

/** A target's name as a reader knows it: without the ecosystem prefix that tells two same-named manifests apart (`python:shop`). */
export function shownTarget(name: string | undefined): string | undefined {
  return name?.replace(/^(npm|pnpm|yarn|typescript|python|cargo|go|swift|xcode|gradle|maven):(?=.)/, '');
}
