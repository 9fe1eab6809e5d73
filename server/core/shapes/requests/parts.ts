import { Type, type SchemaOptions, type TProperties } from '@sinclair/typebox';

/**
 * Building blocks of the request bodies. Each writes the JSON schema the bodies have always had
 * (`type: ['string', 'null']` rather than an `anyOf`, `enum` rather than a union of constants), so
 * ajv's messages and the OpenAPI document stay as they were; `Type.Unsafe` gives those the
 * TypeScript type their JSON says.
 */

/** An object that refuses fields it does not list: a misspelt field is a 400, not silently ignored. */
export const closed = <P extends TProperties>(properties: P, options: SchemaOptions = {}) =>
  Type.Object(properties, { ...options, additionalProperties: false });

/** `{ description }` when there is one, so an undescribed schema has no `description` key at all. */
export const described = (description?: string): SchemaOptions => (description ? { description } : {});

export const text = (description?: string) => Type.String(described(description));
export const flag = (description?: string) => Type.Boolean(described(description));

/** One of a fixed list of words. */
export const choice = <const T extends readonly string[]>(values: T, description?: string) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: values, ...described(description) });

export const nullableText = (options: SchemaOptions = {}) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], ...options });

export const nullableInteger = (options: SchemaOptions = {}) =>
  Type.Unsafe<number | null>({ type: ['integer', 'null'], ...options });

export const textList = (description?: string) => Type.Array(Type.String(), described(description));

/** Names to values, all strings (a board's actions). */
export const textMap = (description?: string) =>
  Type.Unsafe<Record<string, string>>({
    type: 'object',
    additionalProperties: { type: 'string' },
    ...described(description),
  });

/**
 * Free-form data (metadata, form data, a log's object): any fields. `additionalProperties: true` is
 * said out loud, since a generator reads a bare `{type: object}` as an object with no fields at all.
 */
export const freeForm = (description: string) =>
  Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true, description });
