// Kept free of the vscode module so that plain Node tests can check the order.

/**
 * Rules split into those for the workspace's languages, ordered as the languages are (most used
 * first) and then by id, and all the others in their own order.
 */
export function rulesByLanguages<R extends { rule: { id: string; languages: string[] } }>(
  rules: R[],
  languages: string[],
): { ours: R[]; others: R[] } {
  const rank = (r: R) =>
    Math.min(...r.rule.languages.map((l) => (languages.includes(l) ? languages.indexOf(l) : Infinity)));
  const ours = rules.filter((r) => rank(r) < Infinity).sort((a, b) =>
    rank(a) - rank(b) || a.rule.id.localeCompare(b.rule.id)
  );
  return { ours, others: rules.filter((r) => rank(r) === Infinity) };
}
