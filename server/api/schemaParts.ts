import type { JsonSchema } from './route';

/**
 * Building blocks of the response schemas written here as plain JSON, and the names they have in the
 * OpenAPI document. The registry of names lives with the read-model shapes in core/shapes, which
 * name themselves.
 */
export { componentNameOf, named } from '../core/shapes/names';

export const text = (description: string): JsonSchema => ({ type: 'string', description });
export const flag = (description: string): JsonSchema => ({ type: 'boolean', description });
export const count = (description: string): JsonSchema => ({ type: 'integer', minimum: 0, description });
export const nullable = (type: string, description: string): JsonSchema => ({ type: [type, 'null'], description });
/** A time as the service writes it (no `format`: a strict validator without format support must still compile these). */
export const time = (description: string): JsonSchema => text(`${description}; ISO 8601`);
export const list = (items: JsonSchema, description?: string): JsonSchema => ({
  type: 'array',
  items,
  ...(description ? { description } : {}),
});
export const map = (values: JsonSchema, description: string): JsonSchema => ({
  type: 'object',
  additionalProperties: values,
  description,
});
/**
 * Free-form data (metadata, form data, a log's object): any fields. `additionalProperties: true` is
 * said out loud, since a generator reads a bare `{type: object}` as an object with no fields at all.
 */
export const anyObject = (description: string): JsonSchema => ({
  type: 'object',
  additionalProperties: true,
  description,
});

/** An object whose listed fields are always present, except those named in `optional`. */
export function fields(
  properties: Record<string, JsonSchema>,
  description?: string,
  optional: string[] = [],
): JsonSchema {
  return {
    type: 'object',
    ...(description ? { description } : {}),
    properties,
    required: Object.keys(properties).filter((key) => !optional.includes(key)),
  };
}
