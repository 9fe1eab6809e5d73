import type { JsonSchema, QueryParam, RouteDef } from '../api/route';
import { MoveBody, TaskCreateBody, TaskUpdateBody } from '../core/shapes/requests/tasks';
import { CommentCreateBody, LogBody } from '../core/shapes/requests/cardNotes';
import { composeContent, reviseContent, SUMMARY_FIELDS, summaryOf, withoutEmpty } from './cardText';
import {
  BOARD_LIST,
  CARD_IN_FULL,
  CARD_PAGE,
  CARD_SUMMARY,
  COLUMN_LIST,
  COMMENT,
  COMMENT_LIST,
  DELETED_CARD,
  LOG_ENTRY,
} from './outputSchemas';
import { annotationsOf, BOARD_ARG } from './routeTools';
import {
  callApi,
  enc,
  onBoard,
  queryString,
  structuredResult,
  ToolError,
  type ToolContext,
  type ToolDef,
} from './tool';
import { titleOf } from './toolNames';

/**
 * The tools agents use every day, with names and arguments made for them (a title and a body, not
 * Markdown content; compact answers). Each replaces the generated tools of the routes it lists.
 * Field schemas come from the REST body schemas, so both stay in step.
 */

type Args = Record<string, unknown>;

/**
 * A field's schema with a shorter description (none when omitted): every `tools/list` sends every
 * description, so the everyday tools say what an agent needs and the REST docs keep the rest.
 */
export const brief = (schema: JsonSchema, description?: string): JsonSchema => {
  const { description: _long, ...rest } = schema;
  return description === undefined ? rest : { ...rest, description };
};
const FIELD_TEXT: Record<string, string | undefined> = {
  status: 'column id',
  dueDate: 'ISO date',
  metadata: 'key/value data',
  blockedBy: 'ids of cards it waits for; null clears',
  parent: 'parent card id; null clears',
  relatesTo: 'related card ids; null clears',
  duplicateOf: 'ids it duplicates; null clears',
};
type BodySchema = { properties: Record<string, unknown> };
/** The fields of a REST body the tools take, in its order: a field added there is a tool argument too. */
const fieldsOfBody = (body: BodySchema, leftOut: ReadonlySet<string>) =>
  Object.keys(body.properties).filter((name) => !leftOut.has(name));
/** The fields' schemas, each with the short description of `text` when it has one. */
const pick = (body: BodySchema, names: string[], text: Record<string, string | undefined>) =>
  Object.fromEntries(names.map((name) => [name, brief(body.properties[name] as JsonSchema, text[name])]));
/**
 * `content` is the tools' title and body. Forms and actions stay with the REST API and the CLI:
 * every field here is sent in every session's `tools/list`, and agents rarely set those.
 */
const NOT_EVERYDAY = new Set(['content', 'forms', 'formData', 'actions']);
const EDITABLE = fieldsOfBody(TaskUpdateBody, NOT_EVERYDAY);
/**
 * A new card takes its parent; relations are set afterwards, where an agent finds them (fewer bytes
 * in every session). The create body's own title and body are the tool's stricter ones.
 */
const ON_CREATE = fieldsOfBody(TaskCreateBody, new Set([...NOT_EVERYDAY, 'title', 'body', 'relatesTo', 'duplicateOf']));
/** What a move takes: the place, and the card fields a drop across swimlanes sets in the same write. */
const MOVE_BODY = fieldsOfBody(MoveBody, new Set());
const MOVE_TEXT: Record<string, string> = { status: 'column id', position: 'zero-based, default 0' };
const moveProperties = pick(MoveBody, MOVE_BODY, MOVE_TEXT);
/** A card id or a unique prefix of one: the server instructions say so once for every tool. */
export const ID: JsonSchema = { type: 'string' };
const TITLE: JsonSchema = { type: 'string', minLength: 1 };
const BODY: JsonSchema = { type: 'string', description: 'Markdown below the title' };

export const input = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
  additionalProperties: false,
});

/**
 * What a tool answers: its schema, and for an answer that is a list, the key it sits under in the
 * structured content (MCP wants an object there); the text stays the answer itself.
 */
export interface Output {
  schema: JsonSchema;
  listKey?: string;
}

export function tool(
  name: string,
  description: string,
  routes: string[],
  inputSchema: JsonSchema,
  output: Output,
  run: (ctx: ToolContext, args: Args) => Promise<unknown>,
): ToolDef {
  const [method, path] = routes[0].split(' ') as [RouteDef['method'], string];
  return {
    name,
    title: titleOf(name),
    description,
    routes,
    inputSchema,
    outputSchema: output.schema,
    annotations: annotationsOf(method, path),
    run: async (ctx, args) => {
      const answer = await run(ctx, args);
      return structuredResult(answer, (output.listKey ? { [output.listKey]: answer } : answer) as Args);
    },
  };
}

const SUMMARY: Output = { schema: CARD_SUMMARY };

/** A mutation's answer: the card in a few fields, plus its board. */
export const shortCard = (card: unknown) => summaryOf(card as Args, ['boardId']);
const fieldsOf = (args: Args, names: string[]) =>
  Object.fromEntries(names.filter((n) => args[n] !== undefined).map((n) => [n, args[n]]));

const PAGE_SIZE = 50;

/**
 * `list_cards` arguments: the list route's own query parameters (types, enums), with the paging
 * ones described as this tool answers them (`total`, `nextCursor`) rather than as HTTP headers.
 */
const LIST_TEXT: Record<string, string | undefined> = {
  q: 'text search; meta.field:value tokens too',
  fuzzy: 'typo-tolerant, by score',
  status: 'column id',
  priority: undefined,
  assignee: undefined,
  label: undefined,
  labelGroup: undefined,
  includeDeleted: undefined,
  includeArchived: undefined,
  archived: undefined,
  ready: 'unblocked, not in the last column',
  due: 'UTC days',
  dueBefore: 'YYYY-MM-DD, exclusive',
  dueAfter: 'YYYY-MM-DD, exclusive',
  claimed: 'held under a running lease',
  claimedBy: undefined,
  parent: 'sub-cards of this card',
  topLevel: 'true: no parent; false: sub-cards',
  view: 'saved view id',
  fields: 'comma list of fields, not the summary',
  limit: `1-1000, default ${PAGE_SIZE}`,
  cursor: "previous page's nextCursor",
  sort: '- prefix: descending',
};
const LIST_FILTERS = [
  'q',
  'fuzzy',
  'status',
  'priority',
  'assignee',
  'label',
  'labelGroup',
  'includeDeleted',
  'includeArchived',
  'archived',
  'ready',
  'due',
  'dueBefore',
  'dueAfter',
  'claimed',
  'claimedBy',
  'parent',
  'topLevel',
  'view',
];
/** Used only while the list route does not declare its paging parameters itself. */
const PAGING_FALLBACK: QueryParam[] = [
  { name: 'fields', type: 'string', description: String(LIST_TEXT.fields) },
  { name: 'limit', type: 'integer', description: String(LIST_TEXT.limit) },
  { name: 'cursor', type: 'string', description: String(LIST_TEXT.cursor) },
  { name: 'sort', type: 'string', description: String(LIST_TEXT.sort) },
];

function listCardsInput(listRoute: RouteDef | undefined): JsonSchema {
  const declared = new Map((listRoute?.query ?? []).map((q) => [q.name, q]));
  const properties: Record<string, JsonSchema> = { board: BOARD_ARG };
  const params = [
    ...LIST_FILTERS.map((name) => declared.get(name)),
    ...PAGING_FALLBACK.map((p) => declared.get(p.name) ?? p),
  ];
  for (const q of params) {
    if (!q) continue;
    const description = q.name in LIST_TEXT ? LIST_TEXT[q.name] : q.description;
    properties[q.name] = { type: q.type, ...(description ? { description } : {}), ...(q.enum ? { enum: q.enum } : {}) };
  }
  properties.meta = { type: 'object', additionalProperties: { type: 'string' }, description: 'metadata filters' };
  return input(properties);
}

async function listCards({ client }: ToolContext, args: Args) {
  const { board, meta, fields, limit, ...filters } = args;
  const params: Args = { ...filters, limit: limit ?? PAGE_SIZE, fields: fields ?? SUMMARY_FIELDS.join(',') };
  for (const [field, value] of Object.entries((meta as Args | undefined) ?? {})) params[`meta.${field}`] = value;
  const { data, page } = await callApi(client, { method: 'get', path: onBoard(board, '/tasks') + queryString(params) });
  const cards = (data as Args[]).map((card) => (fields ? withoutEmpty(card) : summaryOf(card)));
  return {
    cards,
    ...(page ? { total: page.total } : {}),
    ...(page?.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
}

/** Title and body edits rewrite the content read just before: sent with If-Match, retried if the card moved on. */
async function updateCard({ client }: ToolContext, args: Args) {
  const path = `${onBoard(args.board, '/tasks')}/${enc(args.id)}`;
  const fields: Args = fieldsOf(args, EDITABLE);
  if (args.title === undefined && args.body === undefined)
    return shortCard((await callApi(client, { method: 'put', path, body: fields })).data);
  for (let attempt = 1; ; attempt++) {
    const current = await callApi(client, { method: 'get', path });
    const content = reviseContent((current.data as { content: string }).content, {
      title: args.title as string | undefined,
      body: args.body as string | undefined,
    });
    try {
      return shortCard(
        (await callApi(client, { method: 'put', path, body: { ...fields, content }, ifMatch: current.etag })).data,
      );
    } catch (error) {
      // 412: someone changed the card between the read and the write; read it again.
      if (!(error instanceof ToolError && error.status === 412) || attempt === 3) throw error;
    }
  }
}

/**
 * The card, and under `git` the branches named after it and the commits whose trailers name it
 * (left out when there are none). A failing git read leaves the card as it is.
 */
async function getCard({ client }: ToolContext, args: Args) {
  const card = (await callApi(client, { method: 'get', path: `${onBoard(args.board, '/tasks')}/${enc(args.id)}` }))
    .data as Args;
  const git = await callApi(client, {
    method: 'get',
    path: `${onBoard(args.board, '/tasks')}/${enc(card.id)}/git`,
  }).then(
    ({ data }) => withoutEmpty(data as Args),
    () => ({}),
  );
  return withoutEmpty({ ...card, git });
}

export function everydayTools(routes: RouteDef[]): ToolDef[] {
  const listRoute = routes.find((r) => r.method === 'get' && r.path === '/tasks');
  return [
    tool(
      'list_boards',
      'List boards with their column ids and card counts',
      ['get /boards'],
      input({}),
      { schema: BOARD_LIST, listKey: 'boards' },
      async ({ client }) => {
        const { data } = await callApi(client, { method: 'get', path: '/boards' });
        return (data as Args[]).map((b) =>
          withoutEmpty({ ...b, columns: (b.columns as { id: string }[]).map((c) => c.id) }),
        );
      },
    ),
    tool(
      'list_columns',
      'List the columns of a board in order',
      ['get /columns'],
      input({ board: BOARD_ARG }),
      { schema: COLUMN_LIST, listKey: 'columns' },
      async ({ client }, args) =>
        (await callApi(client, { method: 'get', path: onBoard(args.board, '/columns') })).data,
    ),
    tool(
      'list_cards',
      `Find and search cards: summaries, ${PAGE_SIZE} a page`,
      ['get /tasks'],
      listCardsInput(listRoute),
      { schema: CARD_PAGE },
      listCards,
    ),
    tool(
      'get_card',
      'A card in full: content, comments, checklist, git links',
      ['get /tasks/{id}', 'get /tasks/{id}/git'],
      input({ id: ID, board: BOARD_ARG }, ['id']),
      { schema: CARD_IN_FULL },
      getCard,
    ),
    tool(
      'create_card',
      'Create a card at the end of its column',
      ['post /tasks'],
      input({ title: TITLE, body: BODY, ...pick(TaskCreateBody, ON_CREATE, FIELD_TEXT), board: BOARD_ARG }, ['title']),
      SUMMARY,
      async ({ client }, args) => {
        const body = {
          ...fieldsOf(args, ON_CREATE),
          content: composeContent(String(args.title), args.body as string | undefined),
        };
        return shortCard((await callApi(client, { method: 'post', path: onBoard(args.board, '/tasks'), body })).data);
      },
    ),
    tool(
      'update_card',
      'Change a card; omitted fields stay',
      ['put /tasks/{id}'],
      input({ id: ID, board: BOARD_ARG, title: TITLE, body: BODY, ...pick(TaskUpdateBody, EDITABLE, FIELD_TEXT) }, [
        'id',
      ]),
      SUMMARY,
      updateCard,
    ),
    tool(
      'move_card',
      'Move a card to a column, setting any other fields given in the same write',
      ['patch /tasks/{id}/move'],
      input({ id: ID, ...moveProperties, board: BOARD_ARG }, ['id', 'status']),
      SUMMARY,
      async ({ client }, args) =>
        shortCard(
          (
            await callApi(client, {
              method: 'patch',
              path: `${onBoard(args.board, '/tasks')}/${enc(args.id)}/move`,
              body: fieldsOf(args, MOVE_BODY),
            })
          ).data,
        ),
    ),
    tool(
      'delete_card',
      'Delete a card (restorable), or for good with permanent',
      ['delete /tasks/{id}', 'delete /tasks/{id}/permanent'],
      input({ id: ID, permanent: { type: 'boolean' }, board: BOARD_ARG }, ['id']),
      { schema: DELETED_CARD },
      async ({ client }, args) => {
        const path = `${onBoard(args.board, '/tasks')}/${enc(args.id)}${args.permanent === true ? '/permanent' : ''}`;
        const { data } = await callApi(client, { method: 'delete', path });
        return args.permanent === true ? data : shortCard(data);
      },
    ),
    tool(
      'transfer_card',
      'Move a card to another board',
      ['post /boards/{boardId}/tasks/{id}/transfer'],
      input(
        {
          id: ID,
          toBoard: { type: 'string', description: 'destination board id' },
          status: { type: 'string', description: 'column there; its default when omitted' },
        },
        ['id', 'toBoard'],
      ),
      SUMMARY,
      async ({ client }, args) => {
        const body = args.status === undefined ? {} : { targetStatus: args.status };
        return shortCard(
          (
            await callApi(client, {
              method: 'post',
              path: `/boards/${enc(args.toBoard)}/tasks/${enc(args.id)}/transfer`,
              body,
            })
          ).data,
        );
      },
    ),
    tool(
      'add_comment',
      'Comment on a card (Markdown)',
      ['post /tasks/{id}/comments'],
      input(
        {
          id: ID,
          content: brief((CommentCreateBody.properties as Args).content as JsonSchema, 'Markdown'),
          author: { type: 'string', description: "default: your client's name" },
          board: BOARD_ARG,
        },
        ['id', 'content'],
      ),
      { schema: COMMENT },
      async ({ client, callerName }, args) => {
        const body = { content: args.content, author: args.author ?? callerName ?? 'agent' };
        return (
          await callApi(client, {
            method: 'post',
            path: `${onBoard(args.board, '/tasks')}/${enc(args.id)}/comments`,
            body,
          })
        ).data;
      },
    ),
    tool(
      'list_comments',
      'Comments of a card, oldest first',
      ['get /tasks/{id}/comments'],
      input({ id: ID, board: BOARD_ARG }, ['id']),
      { schema: COMMENT_LIST, listKey: 'comments' },
      async ({ client }, args) =>
        (await callApi(client, { method: 'get', path: `${onBoard(args.board, '/tasks')}/${enc(args.id)}/comments` }))
          .data,
    ),
    tool(
      'add_log',
      "Append to a card's log",
      ['post /tasks/{id}/logs'],
      input({ id: ID, text: brief((LogBody.properties as Args).text as JsonSchema), board: BOARD_ARG }, ['id', 'text']),
      { schema: LOG_ENTRY },
      async ({ client }, args) =>
        (
          await callApi(client, {
            method: 'post',
            path: `${onBoard(args.board, '/tasks')}/${enc(args.id)}/logs`,
            body: { text: args.text },
          })
        ).data,
    ),
  ];
}
