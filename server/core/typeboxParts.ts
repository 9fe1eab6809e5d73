import { Type, type SchemaOptions, type Static, type TSchema } from '@sinclair/typebox';

/**
 * Small TypeBox pieces that write the plain JSON Schema a reader expects (editors, OpenAPI
 * clients, ajv): a map is `additionalProperties`, which clients read as a map (TypeBox's own
 * `Record` writes `patternProperties`), and an enum of strings is `enum`.
 */

/** An object of any keys whose values all have one shape. */
export function mapOf<T extends TSchema>(value: T, options: SchemaOptions = {}) {
  return Type.Unsafe<Record<string, Static<T>>>({ type: 'object', additionalProperties: value, ...options });
}

/** An object whose keys belong to someone else (a plugin's options, a form's data): any keys, any values. */
export function openObject(options: SchemaOptions = {}) {
  return Type.Unsafe<Record<string, unknown>>({ type: 'object', ...options });
}

/** One of a list of strings. */
export function oneOf<const T extends readonly string[]>(values: T, options: SchemaOptions = {}) {
  return Type.Unsafe<T[number]>({ enum: [...values], ...options });
}
