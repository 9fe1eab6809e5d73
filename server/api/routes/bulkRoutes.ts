import { bulkEdit } from '../../service/bulk';
import { defineRoutes, route, type RequestContext } from '../route';
import { BulkBody } from '../../core/shapes/requests/bulk';
import { list } from '../schemaParts';
import { taskSchema } from '../responseSchemas';
import { cardEtag } from '../versions';

function handleBulk(ctx: RequestContext<BulkBody>) {
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
  route({
    method: 'post',
    path: '/tasks/bulk',
    tag: 'Tasks',
    twin: true,
    body: BulkBody,
    errors: [404, 409, 412],
    warns: true,
    summary:
      'Apply one change to many cards, all or nothing: every id, the change, WIP limits (block policy) and versions are checked before anything is written; one event per card',
    returns: 'the changed cards, in the order given',
    response: list(taskSchema, 'the changed cards, in the order given'),
    handle: handleBulk,
  }),
]);
