import type { TaskView } from '../../core/model';
import { PRIORITIES } from '../../core/shapes/vocabulary';
import { LIST_DEFAULTS } from '../../core/shapes/listDefaults';
import { ValidationError } from '../../core/errors';
import { DUE_WINDOWS, dueFilterOf } from '../../core/dueDates';
import { LIMIT_MAX, LIST_FIELDS, SORT_VALUES, parseFields, parseSort } from '../../core/listPaging';
import { listTasks, listTasksEnvelope, resolveCard, type TaskQuery } from '../../service/taskQueries';
import { listPage, type ListShape } from '../../service/taskPages';
import {
  createTask,
  moveTask,
  permanentDeleteTask,
  softDeleteTask,
  transferTask,
  updateTask,
  type MoveFields,
} from '../../service/tasks';
import { taskView, taskViewJson } from '../../service/views';
import { SerializedAnswer, defineRoutes, route, type QueryParam, type RequestContext } from '../route';
import { MOVE_FIELDS, MoveBody, TaskCreateBody, TaskUpdateBody, TransferBody } from '../../core/shapes/requests/tasks';
import { cardEtag, cardVersion } from '../versions';
import { withSavedView } from '../viewQuery';
import { activeTaskSchema, deletedSchema, taskListSchema, taskSchema } from '../responseSchemas';

export const listQuery: QueryParam[] = [
  {
    name: 'q',
    type: 'string',
    description: 'free text (case-insensitive substring); may hold meta.field: value tokens',
  },
  { name: 'fuzzy', type: 'boolean', description: 'typo-tolerant matching, results ordered by score' },
  { name: 'status', type: 'string', description: 'only this column' },
  { name: 'priority', type: 'string', enum: PRIORITIES, description: 'only this priority' },
  { name: 'assignee', type: 'string', description: 'only this assignee (case-insensitive)' },
  { name: 'label', type: 'string', description: 'only cards with this label' },
  { name: 'labelGroup', type: 'string', description: 'only cards with a label of this group' },
  { name: 'includeDeleted', type: 'boolean', description: 'include soft-deleted cards' },
  {
    name: 'ready',
    type: 'boolean',
    description:
      'true: only cards that are not blocked (every blocker finished or archived) and not in the last column; false: only the others',
  },
  {
    name: 'due',
    type: 'string',
    enum: DUE_WINDOWS,
    description:
      "due-date window; days are UTC calendar days: overdue (due before today and not in the board's last column), today, week (today and the 6 days after), none (no due date)",
  },
  {
    name: 'dueBefore',
    type: 'string',
    description: 'only cards due strictly before this UTC day (YYYY-MM-DD); cards without a due date never match',
  },
  {
    name: 'dueAfter',
    type: 'string',
    description: 'only cards due strictly after this UTC day (YYYY-MM-DD); cards without a due date never match',
  },
  {
    name: 'claimed',
    type: 'boolean',
    description:
      'true: only cards an agent holds under a running lease (POST /tasks/{id}/claim); false: only free ones',
  },
  { name: 'claimedBy', type: 'string', description: 'only cards this agent holds under a running lease' },
  {
    name: 'byAgent',
    type: 'string',
    description: 'only cards this agent holds under a running lease or last reported on (its session, stale or not)',
  },
  { name: 'parent', type: 'string', description: 'only the sub-cards of this card (a partial id is resolved)' },
  {
    name: 'topLevel',
    type: 'boolean',
    description: 'true: only cards that are no sub-card (no parent); false: only sub-cards',
  },
  {
    name: 'includeArchived',
    type: 'boolean',
    description: 'include archived cards (after the columns; a status filter picks them by the status they kept)',
  },
  { name: 'archived', type: 'string', enum: ['only'], description: 'only: list archived cards alone' },
  {
    name: 'view',
    type: 'string',
    description:
      'id of a saved view (GET /api/views): its filter and sort apply, and parameters given here override them',
  },
  {
    name: 'compact',
    type: 'boolean',
    description: `true: each entry leaves out the fields that hold their empty default (the TaskListEntry schema's \`default\`s: ${Object.keys(LIST_DEFAULTS).join(', ')}); a reader puts them back. Not with fields`,
  },
  {
    name: 'limit',
    type: 'integer',
    minimum: 1,
    maximum: LIMIT_MAX,
    description: `cards per page, 1 to ${LIMIT_MAX}; without it, every matching card. The answer's X-Total-Count header counts all matches; a Link header (rel="next") gives the next page`,
  },
  {
    name: 'cursor',
    type: 'string',
    description:
      'opaque: the cursor of the Link (rel="next") header of the previous page; only valid with the same sort and filters',
  },
  {
    name: 'fields',
    type: 'string',
    description: `comma list of read-model fields to answer with (id is always there): ${LIST_FIELDS.join(', ')}`,
  },
  {
    name: 'sort',
    type: 'string',
    enum: SORT_VALUES,
    description:
      'position (default: column order, then place in the column), created, modified, due, priority (critical first) or title; a leading - for descending; ties by id; cards without a due date last. Not with a fuzzy search, which is ordered by score',
  },
];

function listQueryOf(ctx: RequestContext): TaskQuery {
  const q = ctx.query;
  return {
    q: q.q as string | undefined,
    fuzzy: q.fuzzy as boolean | undefined,
    status: q.status as string | undefined,
    priority: q.priority as never,
    assignee: q.assignee as string | undefined,
    label: q.label as string | undefined,
    labelGroup: q.labelGroup as string | undefined,
    includeDeleted: q.includeDeleted as boolean | undefined,
    ready: q.ready as boolean | undefined,
    due: dueFilterOf({
      due: q.due as string | undefined,
      dueBefore: q.dueBefore as string | undefined,
      dueAfter: q.dueAfter as string | undefined,
    }),
    claimed: q.claimed as boolean | undefined,
    claimedBy: q.claimedBy as string | undefined,
    byAgent: q.byAgent as string | undefined,
    parent: q.parent as string | undefined,
    topLevel: q.topLevel as boolean | undefined,
    includeArchived: q.includeArchived as boolean | undefined,
    archived: q.archived as 'only' | undefined,
    meta: ctx.metaQuery.map((m) => ({ path: m.field.split('.'), value: m.value })),
    actor: ctx.actor,
  };
}

function listShapeOf(ctx: RequestContext): ListShape {
  const q = ctx.query;
  const fields = parseFields(q.fields as string | undefined);
  const compact = q.compact === true || undefined;
  if (compact && fields)
    throw new ValidationError('compact cannot be combined with fields: fields already names what each entry holds');
  return {
    sort: q.sort === undefined ? undefined : parseSort(q.sort as string),
    limit: q.limit as number | undefined,
    cursor: q.cursor as string | undefined,
    fields,
    compact,
  };
}

/**
 * Whole lists are the heaviest answers and are read far more often than cards change: kept
 * serialized. A page is small and cheap to make from the kept selection, so it is built on each
 * read (its ETag still names it, for 304s), and does not push the whole lists out of the cache.
 */
function list(request: RequestContext) {
  const ctx = withSavedView(request, listQuery);
  const query = listQueryOf(ctx);
  const shape = listShapeOf(ctx);
  const plain =
    shape.sort === undefined && shape.limit === undefined && shape.cursor === undefined && shape.fields === undefined;
  const key = JSON.stringify([ctx.boardId, query, shape]);
  const dataOf = (body: Buffer) => () => (JSON.parse(body.toString('utf8')) as { data: unknown }).data;
  if (plain) {
    const answer = ctx.ws.readCache.answer(ctx.ws, key, () =>
      listTasksEnvelope(ctx.ws, ctx.boardId, query, shape.compact),
    );
    return new SerializedAnswer(
      answer.body,
      answer.etag,
      shape.compact ? dataOf(answer.body) : () => listTasks(ctx.ws, ctx.boardId, query),
      answer.gzipped,
      answer.page,
    );
  }
  if (shape.limit === undefined) {
    const answer = ctx.ws.readCache.answer(ctx.ws, key, () => listPage(ctx.ws, ctx.boardId, query, shape));
    return new SerializedAnswer(answer.body, answer.etag, dataOf(answer.body), answer.gzipped, answer.page);
  }
  const page = listPage(ctx.ws, ctx.boardId, query, shape);
  return new SerializedAnswer(
    page.body,
    ctx.ws.readCache.etagFor(ctx.ws, key),
    dataOf(page.body),
    undefined,
    page.page,
  );
}

/** One card, sent as bytes made from its cached JSON parts (hosts that want the object get taskView's). */
function getTask({ ws, boardId, params, actor }: RequestContext): SerializedAnswer {
  const card = resolveCard(ws, boardId, params.id);
  const body = Buffer.from(`{"ok":true,"data":${taskViewJson(ws, card, actor)}}`);
  return new SerializedAnswer(body, cardEtag(ws, card), () => taskView(ws, card, { withComments: true, actor }));
}

/** Updates count as the actor's activity, which makes the card unread for everyone else. */
export async function withActivity(ctx: RequestContext, change: Promise<TaskView>): Promise<TaskView> {
  const view = await change;
  const card = ctx.ws.index.get(view.boardId, view.id);
  if (card) await ctx.ws.cardStates.recordActivity(card, ctx.actor);
  return view;
}

function active(ctx: RequestContext) {
  const activeTask = ctx.ws.activeTask;
  if (!activeTask || activeTask.boardId !== ctx.boardId) return null;
  const card = ctx.ws.index.get(activeTask.boardId, activeTask.id);
  return card ? taskView(ctx.ws, card, { withComments: true, actor: ctx.actor }) : null;
}

/** The card fields a move body sets beside the place (a drop into another swimlane). */
function moveFieldsOf(body: MoveBody): MoveFields {
  return Object.fromEntries(MOVE_FIELDS.filter((name) => body[name] !== undefined).map((name) => [name, body[name]]));
}

export const taskRoutes = defineRoutes([
  {
    method: 'get',
    path: '/tasks',
    tag: 'Tasks',
    summary: 'List and search tasks',
    twin: true,
    query: listQuery,
    metaQuery: true,
    unknownBoardStatus: 400,
    returns: 'tasks in column order, then position (fuzzy: by score); comments are counted in commentCount',
    response: taskListSchema,
    fastLane: true,
    handle: list,
  },
  route({
    method: 'post',
    path: '/tasks',
    tag: 'Tasks',
    summary: 'Create a task',
    twin: true,
    body: TaskCreateBody,
    success: 201,
    errors: [409],
    warns: true,
    response: taskSchema,
    handle: ({ ws, boardId, body }) => createTask(ws, boardId, body),
  }),
  {
    method: 'get',
    path: '/tasks/active',
    tag: 'Tasks',
    summary: 'The card last opened in a board UI, or null',
    twin: true,
    response: activeTaskSchema,
    handle: active,
  },
  {
    method: 'get',
    path: '/tasks/{id}',
    tag: 'Tasks',
    summary: 'Get a task (partial ids match); its ETag is the card version If-Match takes',
    twin: true,
    errors: [404],
    version: cardVersion,
    fastLane: true,
    response: taskSchema,
    handle: getTask,
  },
  route({
    method: 'put',
    path: '/tasks/{id}',
    tag: 'Tasks',
    summary: 'Update a task (omitted fields unchanged)',
    twin: true,
    body: TaskUpdateBody,
    errors: [404, 409, 412],
    version: cardVersion,
    warns: true,
    response: taskSchema,
    handle: (ctx) => withActivity(ctx, updateTask(ctx.ws, ctx.boardId, ctx.params.id, ctx.body)),
  }),
  {
    method: 'delete',
    path: '/tasks/{id}',
    tag: 'Tasks',
    summary: 'Soft delete (to the hidden deleted column)',
    twin: true,
    errors: [404, 409, 412],
    version: cardVersion,
    response: taskSchema,
    handle: ({ ws, boardId, params }) => softDeleteTask(ws, boardId, params.id),
  },
  {
    method: 'delete',
    path: '/tasks/{id}/permanent',
    tag: 'Tasks',
    summary: 'Delete for good',
    twin: true,
    errors: [404, 409, 412],
    version: cardVersion,
    response: deletedSchema,
    handle: ({ ws, boardId, params }) => permanentDeleteTask(ws, boardId, params.id),
  },
  route({
    method: 'patch',
    path: '/tasks/{id}/move',
    tag: 'Tasks',
    summary: 'Move to a column at a zero-based position',
    twin: true,
    body: MoveBody,
    errors: [404, 409, 412],
    version: cardVersion,
    warns: true,
    response: taskSchema,
    handle: (ctx) =>
      withActivity(
        ctx,
        moveTask(ctx.ws, ctx.boardId, ctx.params.id, ctx.body.status, ctx.body.position ?? 0, moveFieldsOf(ctx.body)),
      ),
  }),
  // Transfer answers 400 for an unknown destination (a bad request); a card that matches nothing is still 404.
  route({
    method: 'post',
    path: '/boards/{boardId}/tasks/{id}/transfer',
    tag: 'Tasks',
    summary: 'Move a card from another board to {boardId}',
    body: TransferBody,
    errors: [404, 409],
    warns: true,
    unknownBoardStatus: 400,
    response: taskSchema,
    handle: ({ ws, boardId, params, body }) => transferTask(ws, boardId, params.id, body.targetStatus),
  }),
]);
