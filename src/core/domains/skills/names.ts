/** Skill-name rules from the Agent Skills specification. */

export const NAME_MAX = 64;

/** The spec's name problems, as rule id + message; empty when the name is valid. */
export function nameProblems(name: string): { rule: string; message: string }[] {
  const out: { rule: string; message: string }[] = [];
  if (name.length < 1 || name.length > NAME_MAX) out.push({ rule: 'name-length', message: `The name must be 1–${NAME_MAX} characters; it is ${name.length}.` });
  if (!/^[a-z0-9-]*$/.test(name)) out.push({ rule: 'name-charset', message: `The name "${name.slice(0, 200)}" may only contain lowercase letters a–z, digits and hyphens.` });
  if (/^-|-$/.test(name)) out.push({ rule: 'name-hyphen-edge', message: `The name "${name.slice(0, 200)}" must not start or end with a hyphen.` });
  if (name.includes('--')) out.push({ rule: 'name-double-hyphen', message: `The name "${name.slice(0, 200)}" must not contain two hyphens in a row.` });
  return out;
}

export function isValidSkillName(name: string): boolean {
  return nameProblems(name).length === 0;
}
