import { Type, type Static, type TSchema } from '@sinclair/typebox';

/**
 * Building blocks of the read-model shapes. Most are TypeBox builders with a description; the few
 * made with `Type.Unsafe` write the JSON schema by hand because TypeBox's own form would read
 * differently to a client generator: a nullable scalar stays `type: [x, 'null']` (not an `anyOf`),
 * an enum stays `enum`, and a map stays `additionalProperties: <values>` (not `patternProperties`).
 */

export const text = (description: string) => Type.String({ description });
export const flag = (description: string) => Type.Boolean({ description });
export const count = (description: string) => Type.Integer({ minimum: 0, description });
/** A time as the service writes it (no `format`: a strict validator without format support must still compile these). */
export const time = (description: string) => Type.String({ description: `${description}; ISO 8601` });
export const textList = (description?: string) => Type.Array(Type.String(), description ? { description } : {});

export const nullableText = (description: string) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], description });
export const nullableInteger = (description: string) =>
  Type.Unsafe<number | null>({ type: ['integer', 'null'], description });

/** One of a fixed list of strings. */
export const stringEnum = <V extends readonly string[]>(values: V, description: string) =>
  Type.Unsafe<V[number]>({ type: 'string', enum: values, description });

/** An object of any keys whose values all have one shape. */
export const mapOf = <V extends TSchema>(values: V, description: string) =>
  Type.Unsafe<Record<string, Static<V>>>({ type: 'object', additionalProperties: values, description });

/**
 * Free-form data (metadata, form data, a log's object): any fields. `additionalProperties: true` is
 * said out loud, since a generator reads a bare `{type: object}` as an object with no fields at all.
 */
export const openObject = (description: string) =>
  Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true, description });

/** The shape, or null. */
export const orNull = <T extends TSchema>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description });
