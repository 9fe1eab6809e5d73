/**
 * The TypeScript type of a JSON schema written `as const`, so a shape is written once, as the
 * schema that validates and documents it, and its type follows from it instead of standing beside
 * it. Covers what the read models use: objects (`properties`, `required`; the other properties are
 * optional), arrays, `enum`, `const`, and the types string, integer, number, boolean and null, alone
 * or as a list (`type: ['string', 'null']`).
 */

type Primitive<T> = T extends 'string'
  ? string
  : T extends 'integer' | 'number'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : never;

/** One object type instead of an intersection, so editors show the fields. */
type Flat<T> = { [K in keyof T]: T[K] } & {};

type RequiredOf<S> = S extends { readonly required: readonly (infer R)[] } ? Extract<R, PropertyKey> : never;

type ObjectOf<P, R extends PropertyKey> = Flat<
  { -readonly [K in keyof P & R]: SchemaType<P[K]> } & { -readonly [K in Exclude<keyof P, R>]?: SchemaType<P[K]> }
>;

export type SchemaType<S> = S extends { readonly const: infer C }
  ? C
  : S extends { readonly enum: readonly (infer E)[] }
    ? E
    : S extends { readonly type: 'object'; readonly properties: infer P }
      ? ObjectOf<P, RequiredOf<S>>
      : S extends { readonly type: 'array'; readonly items: infer I }
        ? SchemaType<I>[]
        : S extends { readonly type: readonly (infer T)[] }
          ? Primitive<T>
          : S extends { readonly type: infer T }
            ? Primitive<T>
            : unknown;
