/** Skill-name rules from the Agent Skills specification, and "did you mean" ordering for unknown names. */

export const NAME_MAX = 64;

/** The spec's name problems, as rule id + message; empty when the name is valid. */
export function nameProblems(name: string): { rule: string; message: string }[] {
  const out: { rule: string; message: string }[] = [];
  if (name.length < 1 || name.length > NAME_MAX) out.push({ rule: 'name-length', message: `The name must be 1–${NAME_MAX} characters; it is ${name.length}.` });
  if (!/^[a-z0-9-]*$/.test(name)) out.push({ rule: 'name-charset', message: `The name "${name}" may only contain lowercase letters a–z, digits and hyphens.` });
  if (/^-|-$/.test(name)) out.push({ rule: 'name-hyphen-edge', message: `The name "${name}" must not start or end with a hyphen.` });
  if (name.includes('--')) out.push({ rule: 'name-double-hyphen', message: `The name "${name}" must not contain two hyphens in a row.` });
  return out;
}

export function isValidSkillName(name: string): boolean {
  return nameProblems(name).length === 0;
}

/** Names ordered closest first: contains or is contained, then shared prefix, then edit distance. */
export function closestNames(wanted: string, names: string[], limit = names.length): string[] {
  const w = wanted.toLowerCase();
  const scored = names.map((name) => {
    const n = name.toLowerCase();
    const contains = n.includes(w) || w.includes(n) ? 0 : 1;
    return { name, contains, prefix: -sharedPrefix(w, n), distance: editDistance(w, n) };
  });
  scored.sort((a, b) => a.contains - b.contains || a.distance - b.distance || a.prefix - b.prefix || a.name.localeCompare(b.name));
  return scored.slice(0, limit).map((s) => s.name);
}

function sharedPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** Levenshtein distance, two rows. */
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
