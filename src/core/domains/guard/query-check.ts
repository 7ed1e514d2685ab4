/**
 * Mistakes in a tree-sitter query that tree-sitter itself accepts, and that make the query report far
 * more than it says. A predicate written beside a pattern instead of inside its parentheses becomes a
 * pattern of its own, and the pattern it was meant to narrow reports every node it names; a predicate
 * tree-sitter does not know is ignored, so it narrows nothing either.
 */

/** The predicates the tree-sitter runtime applies (others are kept as data and filter nothing). */
const KNOWN_PREDICATES = new Set([
  'eq?',
  'not-eq?',
  'any-eq?',
  'any-not-eq?',
  'match?',
  'not-match?',
  'any-match?',
  'any-not-match?',
  'any-of?',
  'not-any-of?',
  'is?',
  'is-not?',
  'set!',
]);

export interface QueryShapeProblem {
  message: string;
  hint: string;
}

/** The first such mistake in the query, or undefined. */
export function queryShapeProblem(query: string): QueryShapeProblem | undefined {
  let depth = 0;
  for (let i = 0; i < query.length; i++) {
    const c = query[i];
    if (c === ';') {
      while (i < query.length && query[i] !== '\n') i++;
    } else if (c === '"') {
      for (i++; i < query.length && query[i] !== '"'; i++) if (query[i] === '\\') i++;
    } else if (c === '(') {
      const predicate = /^\(\s*#([\w-]+[?!])/.exec(query.slice(i));
      if (predicate && depth === 0) {
        return {
          message: `the predicate #${
            predicate[1]
          } at offset ${i} stands outside every pattern, so it narrows nothing and the pattern before it reports every node it names.`,
          hint: `Put the predicate inside the pattern's parentheses: ((import_statement source: (string) @match) (#${
            predicate[1]
          } @match "…")).`,
        };
      }
      if (predicate && !KNOWN_PREDICATES.has(predicate[1])) {
        return {
          message: `#${predicate[1]} is not a predicate tree-sitter applies, so it narrows nothing.`,
          hint: `Use one of ${[...KNOWN_PREDICATES].filter((p) => p.endsWith('?')).map((p) => `#${p}`).join(', ')}.`,
        };
      }
      depth++;
    } else if (c === ')') depth = Math.max(0, depth - 1);
  }
  return undefined;
}

/** tree-sitter's message about a capture a predicate names, said in terms of the query. */
export function explainQueryError(message: string): string | undefined {
  const bad = /Bad capture name @(\S+)/.exec(message);
  if (!bad) return undefined;
  return `a predicate names @${
    bad[1]
  }, which no node in its pattern captures (a predicate refers only to captures of the pattern it sits in, written before it).`;
}
