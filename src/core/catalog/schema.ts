/**
 * The vocabulary tool schemas are written in: TypeBox builders (plain JSON Schema objects at run time,
 * TypeScript types at compile time) with the bounds every tool input needs. Every string has a
 * `maxLength` and every list a `maxItems` (a unit test walks the catalog for it): ids and names short,
 * text longer, code longest.
 *
 * TypeBox and not zod 4: its schemas *are* JSON Schema, so nothing is converted at start-up or on
 * tools/list (zod 4 took ~100 ms to build 100 schemas and ~70 ms more to convert them, TypeBox ~2 ms
 * and none; medians of 5 interleaved runs on the 2-core machine). `@sinclair/typebox` 0.34 rather than
 * its successor `typebox` 1.x, which ships ES modules only while our bundles and tests are CommonJS.
 */
import {
  type ArrayOptions,
  type ObjectOptions,
  type SchemaOptions,
  type Static,
  type StringOptions,
  type TObject,
  type TProperties,
  type TSchema,
  type TUnsafe,
  Type,
} from '@sinclair/typebox';

export { type Static, type TObject, type TSchema, Type };

/** Input bounds, in characters or items. */
export const MAX = {
  id: 200,
  name: 128,
  path: 1024,
  query: 1000,
  text: 8000,
  longText: 20_000,
  code: 200_000,
  list: 200,
} as const;

/** An id or a reference (recipe id, candidate id, rule id): short. */
export const Id = (description?: string, options: StringOptions = {}) =>
  Type.String({ minLength: 1, maxLength: MAX.id, ...(description ? { description } : {}), ...options });

/** A name or a short label (skill, tool, category, language). */
export const Name = (description?: string, options: StringOptions = {}) =>
  Type.String({ maxLength: MAX.name, ...(description ? { description } : {}), ...options });

/** A path inside the workspace or a skill folder. */
export const FilePath = (description?: string, options: StringOptions = {}) =>
  Type.String({ maxLength: MAX.path, ...(description ? { description } : {}), ...options });

/** Words a person or an agent writes. */
export const Text = (description?: string, options: StringOptions = {}) =>
  Type.String({ maxLength: MAX.text, ...(description ? { description } : {}), ...options });

/** Source code. */
export const Code = (description?: string, options: StringOptions = {}) =>
  Type.String({ maxLength: MAX.code, ...(description ? { description } : {}), ...options });

/** One of a few strings, published as `{"type": "string", "enum": [...]}` (what clients and models read best). */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: SchemaOptions = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** A bounded list. */
export const List = <T extends TSchema>(item: T, maxItems: number = MAX.list, options: ArrayOptions = {}) =>
  Type.Array(item, { maxItems, ...options });

/** A closed object: unknown fields are refused (inputs) or not promised (outputs use Out). */
export const Input = <T extends TProperties>(properties: T, options: ObjectOptions = {}) =>
  Type.Object(properties, { additionalProperties: false, ...options });

/** An object in a result: the listed fields are promised; others may appear. */
export const Out = <T extends TProperties>(properties: T, options: ObjectOptions = {}) =>
  Type.Object(properties, options);

/**
 * A domain object whose TypeScript type lives with its domain (a Candidate, a scan summary): the
 * published schema says only that it is an object, the compiler checks the handler against `T`.
 */
export const Domain = <T>(description: string, type: 'object' | 'array' = 'object') =>
  Type.Unsafe<T>({ type, description });

export const Opt = Type.Optional;
