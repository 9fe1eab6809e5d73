import { Type, type SchemaOptions, type Static, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';

/**
 * The building blocks of every shape: read models, request bodies, event payloads and the config
 * file. Most are TypeBox builders with a description; the few made with `Type.Unsafe` write the JSON
 * schema by hand because TypeBox's own form would read differently to a client generator and to
 * ajv's messages: a nullable scalar stays `type: [x, 'null']` (not an `anyOf`), an enum stays `enum`
 * (not a union of constants), and a map stays `additionalProperties: <values>` (not
 * `patternProperties`). `Type.Unsafe` gives those the TypeScript type their JSON says.
 */

/** A description, or the options of the schema with it (a minimum, a default, a maximum length). */
export type Described = string | SchemaOptions;

/** The options a `Described` stands for; no description at all writes no `description` key. */
export const described = (about: Described = {}): SchemaOptions =>
  typeof about === 'string' ? (about ? { description: about } : {}) : about;

/**
 * How much an enum or an open object says. `bare` is the shorter form the `.kanban.json` schema for
 * editors has always had (an enum without `type: 'string'`, an object without
 * `additionalProperties: true`), kept so that file does not change under its users.
 */
export interface Form {
  bare?: boolean;
}

export const text = (about?: Described) => Type.String(described(about));
export const flag = (about?: Described) => Type.Boolean(described(about));
export const count = (description: string) => Type.Integer({ minimum: 0, description });
/** A time as the service writes it (no `format`: a strict validator without format support must still compile these). */
export const time = (description: string) => Type.String({ description: `${description}; ISO 8601` });
export const textList = (about?: Described) => Type.Array(Type.String(), described(about));

export const nullableText = (about?: Described) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], ...described(about) });
export const nullableInteger = (about?: Described) =>
  Type.Unsafe<number | null>({ type: ['integer', 'null'], ...described(about) });

/** The shape, or null. */
export const orNull = <T extends TSchema>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description });

/** One of a fixed list of words. */
export const choice = <const T extends readonly string[]>(values: T, about?: Described, { bare }: Form = {}) =>
  Type.Unsafe<T[number]>({ ...(bare ? {} : { type: 'string' }), enum: [...values], ...described(about) });

/** An object of any keys whose values all have one shape. */
export const mapOf = <V extends TSchema>(values: V, about?: Described) =>
  Type.Unsafe<Record<string, Static<V>>>({ type: 'object', additionalProperties: values, ...described(about) });

/** Names to values, all strings (a board's actions). */
export const textMap = (about?: Described) => mapOf(Type.String(), about);

/**
 * Free-form data whose keys belong to someone else (metadata, form data, a plugin's options): any
 * fields. `additionalProperties: true` is said out loud, since a generator reads a bare
 * `{type: object}` as an object with no fields at all.
 */
export const openObject = (about?: Described, { bare }: Form = {}) =>
  Type.Unsafe<Record<string, unknown>>({
    type: 'object',
    ...(bare ? {} : { additionalProperties: true }),
    ...described(about),
  });

/** An object that refuses fields it does not list: a misspelt field is a 400, not silently ignored. */
export const closed = <P extends TProperties>(properties: P, options: SchemaOptions = {}) =>
  Type.Object(properties, { ...options, additionalProperties: false });

/**
 * The same object schema, requiring only `required` (none: no `required` key): a config part is
 * written as the service holds it, and its form for a file asks only what a file must have, since
 * parseConfig fills in the rest. The TypeScript type stays the held one.
 */
export function asWritten<T extends TObject>(schema: T, required: string[]): T {
  if (required.length > 0) return { ...schema, required };
  const { required: _held, ...rest } = schema;
  return rest as T;
}
