/**
 * A lookup in a fixed table by a name that comes from users' files (a folder, a heading, a relation, a
 * language id). Own keys only: "constructor", "toString" or "__proto__" are unknown names, not the
 * properties every object inherits.
 */
export function lookup<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
