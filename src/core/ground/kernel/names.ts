/** "Did you mean" for unknown names: one edit distance and one ordering, bounded so a huge name costs nothing. */

/** Longer input is cut to this before it is compared: a name longer than this is no typo of a short one. */
export const MAX_COMPARED_CHARS = 128;

/**
 * Names ordered closest first: contains or is contained, then edit distance, then shared prefix.
 * Each distance is computed once (never inside the sort's comparator) on inputs cut to
 * MAX_COMPARED_CHARS, so a 100,000-character name answers as fast as a short one.
 */
export function closestNames(wanted: string, names: readonly string[], limit = names.length): string[] {
  const w = wanted.slice(0, MAX_COMPARED_CHARS).toLowerCase();
  const scored = names.map((name) => {
    const n = name.slice(0, MAX_COMPARED_CHARS).toLowerCase();
    const contains = w.length > 0 && (n.includes(w) || w.includes(n)) ? 0 : 1;
    return { name, contains, prefix: -sharedPrefix(w, n), distance: editDistance(w, n) };
  });
  scored.sort((a, b) =>
    a.contains - b.contains || a.distance - b.distance || a.prefix - b.prefix || a.name.localeCompare(b.name)
  );
  return scored.slice(0, limit).map((s) => s.name);
}

function sharedPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** Levenshtein distance, two rows. Callers comparing untrusted input cut it first (closestNames does). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  let cur = new Array<number>(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}

/** `text` to be matched literally inside a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
