import type { JsonSchema, RouteDef } from '../api/route';
import { boardContextResponseSchema, columnListSchema, commentListSchema, taskSchema } from '../api/responseSchemas';
import { GitLinksSchema } from '../core/shapes/gitLinks';

/**
 * Output schemas of the MCP tools: what `structuredContent` holds on success. They come from the
 * route table's response schemas, without their prose: every `tools/list` sends every output
 * schema, and an agent reads the answer itself, so descriptions there cost tokens for nothing.
 */

type Props = Record<string, JsonSchema>;

/** The schema without its descriptions (a field named "description" under `properties` stays: it is a schema). */
export function withoutDescriptions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutDescriptions);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => !(key === 'description' && typeof value === 'string'))
      .map(([key, value]) => [key, withoutDescriptions(value)]),
  );
}

/** The JSON types a schema allows (from `type`, `const` or its `anyOf`/`oneOf` branches); empty when any. */
function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type as string[];
  if (typeof schema.type === 'string') return [schema.type];
  if ('const' in schema) return [schema.const === null ? 'null' : typeof schema.const];
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (!branches) return [];
  const all = branches.map(typesOf);
  return all.some((t) => t.length === 0) ? [] : [...new Set(all.flat())];
}

/**
 * The schema's shape down to `depth` levels of properties and items, each field below that only its
 * type: no enums, bounds or nested fields. Every answer the full schema accepts, this one accepts
 * too, so clients that check answers still can; what it leaves out the answer itself shows, and
 * every `tools/list` would pay for it.
 */
export function outline(schema: JsonSchema, depth: number): JsonSchema {
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  const nonNull = branches?.filter((b) => b.type !== 'null');
  // `X or null` is X with null among its types, so X keeps its fields.
  if (branches && nonNull?.length === 1 && nonNull.length < branches.length) {
    const inner = outline(nonNull[0], depth);
    const types = typesOf(inner);
    return types.length ? { ...inner, type: [...types, 'null'] } : {};
  }
  const types = typesOf(schema);
  const type = types.length === 1 ? types[0] : types.length ? types : undefined;
  const out: JsonSchema = type ? { type } : {};
  if (depth <= 0) return out;
  if (schema.properties)
    out.properties = Object.fromEntries(
      Object.entries(schema.properties as Props).map(([k, v]) => [k, outline(v, depth - 1)]),
    );
  if (Array.isArray(schema.required) && schema.properties) out.required = schema.required;
  if (schema.items) out.items = outline(schema.items as JsonSchema, depth - 1);
  return out;
}

const bare = (schema: JsonSchema) => withoutDescriptions(schema) as JsonSchema;
const object = (properties: Props, required: string[] = []): JsonSchema => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
});
const listOf = (items: JsonSchema): JsonSchema => ({ type: 'array', items });

const STRING: JsonSchema = { type: 'string' };
const STRINGS = listOf(STRING);

const SUMMARY_PROPS: Props = { id: STRING, title: STRING, status: STRING };

/**
 * A card as the everyday tools answer it (cardText.ts `summaryOf`): id, title and status always;
 * priority, assignee, labels, dueDate, checklist ("done/total"), blockedBy, blocked, parent and claim when
 * set; its boardId after a change and its content where work starts on it. One small schema for a
 * dozen tools: the fields that are sometimes there the answer shows, and listing them in every
 * tool's schema would cost more than the rest of the tool. It names the three that are always
 * there and leaves out their types: strings, as any answer shows, and a dozen copies of them cost
 * half a kilobyte of every `tools/list`.
 */
export const CARD_SUMMARY: JsonSchema = { type: 'object', required: ['id', 'title', 'status'] };

/** A card of `list_cards`: the summary, or the fields asked for (`fields`), always with its id. */
const LISTED_CARD: JsonSchema = object({ id: STRING }, ['id']);

export const CARD_PAGE: JsonSchema = object(
  {
    cards: listOf(LISTED_CARD),
    total: { type: 'integer' },
    nextCursor: STRING,
  },
  ['cards'],
);

/** What get_card names of the read model (the rest is there too): the fields an agent works with. */
const FULL_FIELDS = ['id', 'boardId', 'title', 'status', 'content', 'comments', 'checklistItems'];

/** get_card: the read model without its empty fields, and under `git` what git knows of it. */
export const CARD_IN_FULL: JsonSchema = outline(
  object(
    {
      ...Object.fromEntries(FULL_FIELDS.map((name) => [name, (taskSchema.properties as Props)[name]])),
      git: object(GitLinksSchema.properties as Props),
    },
    ['id', 'title', 'status', 'content'],
  ),
  1,
);

export const CARD_WITH_ITEMS: JsonSchema = object({ ...SUMMARY_PROPS, items: { type: 'array' } }, [
  'id',
  'title',
  'status',
  'items',
]);

/** delete_card: the card in the deleted column, or `{deleted: id}` when it is gone for good. */
export const DELETED_CARD: JsonSchema = object({ ...SUMMARY_PROPS, deleted: { type: 'string' } });

export const PICKED_CARD: JsonSchema = object(
  { picked: { anyOf: [CARD_SUMMARY, { type: 'null' }] }, reason: { type: 'string' } },
  ['picked'],
);

export const BOARD_LIST: JsonSchema = object(
  {
    boards: listOf(
      object(
        {
          id: { type: 'string' },
          name: { type: 'string' },
          description: { type: 'string' },
          isDefault: { type: 'boolean' },
          taskCount: { type: 'integer', minimum: 0 },
          columns: STRINGS,
        },
        ['id', 'name', 'columns'],
      ),
    ),
  },
  ['boards'],
);

export const COLUMN_LIST: JsonSchema = object({ columns: bare(columnListSchema) }, ['columns']);
/** A comment as added: its id and author are what an agent may need next. */
export const COMMENT: JsonSchema = object({ id: STRING, author: STRING }, ['id', 'author']);
export const COMMENT_LIST: JsonSchema = object({ comments: outline(commentListSchema, 1) }, ['comments']);
export const LOG_ENTRY: JsonSchema = object({ text: STRING, timestamp: STRING }, ['text', 'timestamp']);
export const ARCHIVED_CARDS: JsonSchema = object({ archived: listOf(CARD_SUMMARY) }, ['archived']);
export const BOARD_CONTEXT: JsonSchema = outline(boardContextResponseSchema, 1);

/** A route that answers nothing (204): the tool says it is done. */
export const DONE: JsonSchema = object({ done: { const: true } }, ['done']);
/** A route that answers a file: its name, type and bytes. */
export const FILE: JsonSchema = object(
  { name: { type: 'string' }, contentType: { type: 'string' }, base64: { type: 'string' } },
  ['name', 'contentType', 'base64'],
);

/** MCP wants an object at the top of an output schema: other answers are wrapped as `{data}`. */
export function routeOutput(route: RouteDef): { schema: JsonSchema; wrap: boolean } {
  if (!route.response) return { schema: route.returns ? FILE : DONE, wrap: false };
  const response = bare(route.response);
  if (response.type === 'object') return { schema: response, wrap: false };
  return { schema: object({ data: response }, ['data']), wrap: true };
}
