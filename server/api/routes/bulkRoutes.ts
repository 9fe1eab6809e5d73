import { PRIORITIES } from '../../core/model';
import { BULK_MAX } from '../../service/bulkPlan';
import { bulkEdit } from '../../service/bulk';
import { defineRoutes, type JsonSchema, type RequestContext } from '../route';
import { object } from '../schemas';
import { list } from '../schemaParts';
import { taskSchema } from '../responseSchemas';
import { cardEtag } from '../versions';

const names: JsonSchema = { type: 'array', items: { type: 'string' } };

/** The change fields; one request carries one kind of them (checked by the service, which names what is wrong). */
const changeFields: Record<string, JsonSchema> = {
  status: { type: 'string', description: 'move: the column to move to (deleted too)' },
  position: {
    type: 'integer',
    minimum: 0,
    description:
      "move: zero-based place of the first card, default 0; with ids + change the others follow it in the order of ids. restore: the card's place, default the column's end",
  },
  priority: { type: 'string', enum: PRIORITIES },
  assignee: { type: ['string', 'null'], description: 'null or "" clears' },
  labels: object({ set: names, add: names, remove: names }),
  archive: { type: 'boolean', const: true, description: 'archive the cards (task.archived each)' },
  delete: { type: 'boolean', const: true, description: 'soft delete the cards (task.deleted each)' },
  restore: {
    type: 'boolean',
    const: true,
    description:
      'bring archived or deleted cards back (task.restored each), to status and position when given, else as POST /tasks/{id}/restore does',
  },
};

export const bulkSchema: JsonSchema = {
  ...object({
    ids: {
      type: 'array',
      items: { type: 'string' },
      minItems: 1,
      maxItems: BULK_MAX,
      description: 'the cards (partial ids match, as in paths)',
    },
    change: {
      ...object(changeFields),
      description:
        'one kind of change applied to every card: status (+ position), priority, assignee, labels ({set} or {add, remove}), archive, delete or restore (+ status, position)',
    },
    changes: {
      type: 'array',
      minItems: 1,
      maxItems: BULK_MAX,
      items: object({ id: { type: 'string' }, ...changeFields }, ['id']),
      description:
        'instead of ids + change: per-card values of one kind of change, applied in this order (e.g. an undo putting each card back where it was)',
    },
    versions: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'card id -> ETag read earlier: a stale one refuses the whole request (412)',
    },
  }),
  description: 'ids with one change, or changes; all or nothing',
};

function handleBulk(ctx: RequestContext) {
  return bulkEdit(ctx.ws, ctx.boardId, ctx.body, (card) => cardEtag(ctx.ws, card), ctx.run).then(async (views) => {
    // Each change is the actor's activity, as a single edit is (the card becomes unread for others).
    for (const view of views) {
      const card = ctx.ws.index.get(view.boardId, view.id);
      if (card) await ctx.ws.cardStates.recordActivity(card, ctx.actor);
    }
    return views;
  });
}

export const bulkRoutes = defineRoutes([
  {
    method: 'post',
    path: '/tasks/bulk',
    tag: 'Tasks',
    twin: true,
    body: bulkSchema,
    errors: [404, 409, 412],
    warns: true,
    summary:
      'Apply one change to many cards, all or nothing: every id, the change, WIP limits (block policy) and versions are checked before anything is written; one event per card',
    returns: 'the changed cards, in the order given',
    response: list(taskSchema, 'the changed cards, in the order given'),
    handle: handleBulk,
  },
]);
