import type { JsonSchema, RouteDef } from '../api/route';
import { boardContextResponseSchema, columnListSchema, commentListSchema, commentSchema, logEntrySchema, taskSchema } from '../api/responseSchemas';
import { gitLinksSchema } from '../core/gitLinkModel';

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

const bare = (schema: JsonSchema) => withoutDescriptions(schema) as JsonSchema;
const object = (properties: Props, required: string[] = []): JsonSchema => ({ type: 'object', properties, ...(required.length ? { required } : {}) });
const listOf = (items: JsonSchema): JsonSchema => ({ type: 'array', items });

const card = (taskSchema.properties ?? {}) as Props;
const cardField = (name: string) => bare(card[name]);
const STRINGS = listOf({ type: 'string' });

/**
 * A card as the everyday tools answer it (cardText.ts `summaryOf`): only what is set, the checklist
 * as `"done/total"`; plus its board after a change, and its content where work starts on it.
 */
export const CARD_SUMMARY: JsonSchema = object({
  id: { type: 'string' },
  boardId: { type: 'string' },
  title: { type: 'string' },
  status: { type: 'string' },
  priority: cardField('priority'),
  assignee: { type: 'string' },
  labels: STRINGS,
  dueDate: { type: 'string' },
  checklist: { type: 'string' },
  blockedBy: STRINGS,
  blocked: { type: 'boolean' },
  claim: cardField('claim'),
  content: { type: 'string' },
}, ['id', 'title', 'status']);

/** A card of `list_cards`: the summary, or the fields asked for (whose checklist is `{done, total}`). */
const LISTED_CARD: JsonSchema = object({
  ...(CARD_SUMMARY.properties as Props),
  checklist: { type: ['string', 'object'] },
}, ['id']);

export const CARD_PAGE: JsonSchema = object({
  cards: listOf(LISTED_CARD),
  total: { type: 'integer', minimum: 0 },
  nextCursor: { type: 'string' },
}, ['cards']);

/** get_card: the read model without its empty fields, and under `git` what git knows of it. */
export const CARD_IN_FULL: JsonSchema = object({
  ...(bare(taskSchema).properties as Props),
  git: object((bare(gitLinksSchema as unknown as JsonSchema).properties ?? {}) as Props),
}, ['id', 'title', 'status', 'content']);

export const CARD_WITH_ITEMS: JsonSchema = object({ ...(CARD_SUMMARY.properties as Props), items: STRINGS }, ['id', 'items']);

/** delete_card: the card in the deleted column, or `{deleted: id}` when it is gone for good. */
export const DELETED_CARD: JsonSchema = object({ ...(CARD_SUMMARY.properties as Props), deleted: { type: 'string' } });

export const PICKED_CARD: JsonSchema = object({ picked: { anyOf: [CARD_SUMMARY, { type: 'null' }] }, reason: { type: 'string' } }, ['picked']);

export const BOARD_LIST: JsonSchema = object({
  boards: listOf(object({
    id: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string' },
    isDefault: { type: 'boolean' },
    taskCount: { type: 'integer', minimum: 0 },
    columns: STRINGS,
  }, ['id', 'name', 'columns'])),
}, ['boards']);

export const COLUMN_LIST: JsonSchema = object({ columns: bare(columnListSchema) }, ['columns']);
export const COMMENT: JsonSchema = bare(commentSchema);
export const COMMENT_LIST: JsonSchema = object({ comments: bare(commentListSchema) }, ['comments']);
export const LOG_ENTRY: JsonSchema = bare(logEntrySchema);
export const ARCHIVED_CARDS: JsonSchema = object({ archived: listOf(CARD_SUMMARY) }, ['archived']);
export const BOARD_CONTEXT: JsonSchema = bare(boardContextResponseSchema);

/** A route that answers nothing (204): the tool says it is done. */
export const DONE: JsonSchema = object({ done: { const: true } }, ['done']);
/** A route that answers a file: its name, type and bytes. */
export const FILE: JsonSchema = object({ name: { type: 'string' }, contentType: { type: 'string' }, base64: { type: 'string' } }, ['name', 'contentType', 'base64']);

/** MCP wants an object at the top of an output schema: other answers are wrapped as `{data}`. */
export function routeOutput(route: RouteDef): { schema: JsonSchema; wrap: boolean } {
  if (!route.response) return { schema: route.returns ? FILE : DONE, wrap: false };
  const response = bare(route.response);
  if (response.type === 'object') return { schema: response, wrap: false };
  return { schema: object({ data: response }, ['data']), wrap: true };
}
